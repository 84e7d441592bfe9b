#pragma once
// How a long trace read tells its caller how far it got, and how the caller
// stops it: the GUI shows a progress bar with a Cancel button while a large
// trace loads. Torch-free and Qt-free, so the reader in core can take it.
#include <cstdint>
#include <functional>
#include <stdexcept>

#include "util/Cancel.h"

namespace ts {

struct ReadProgress {
    // `done` bytes of the file consumed so far, of `total` (the file size;
    // for a .json.gz both count compressed bytes). Called on the reading
    // thread once per chunk and a last time with done == total when the
    // trace is complete; `done` never decreases. Returning false cancels.
    // Empty: no reports, no cancelling.
    std::function<bool(uint64_t done, uint64_t total)> report;
    // Bytes of JSON between two reports: a call per MB costs nothing next
    // to parsing it, and a cancel takes effect within one chunk.
    uint64_t chunk_bytes = uint64_t(1) << 20;
    // What the caller cancels with: the work that follows the read (the
    // analysis of the trace) stops on it too. `report` answers for the read.
    const CancelFlag* cancel = nullptr;
};

// Thrown when `report` returned false. The read stopped and nothing was
// built. Deliberately not a TraceReadError: the user asked for it, so there
// is no problem to show.
class TraceReadCancelled : public Cancelled {
public:
    TraceReadCancelled() : Cancelled("reading the trace was cancelled") {}
};

} // namespace ts
