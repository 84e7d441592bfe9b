#pragma once
// What RunController runs on its BackgroundJob's thread: a training run in
// this process (RunWorker) or a data-parallel job of several processes
// (JobWorker). Both feed the same LiveBuffer, so the views cannot tell them
// apart except by the ranks a job adds.
#include "records/Records.h"

namespace ts::gui {

class TrainingWork {
public:
    virtual ~TrainingWork() = default;
    // Runs to the end on the job's thread; never throws.
    virtual void run() = 0;
    // From any thread, also before run() got far: the run stops within a step
    // and keeps what it measured.
    virtual void requestStop() = 0;
    // Valid once run() returned.
    virtual const RunSummary& summary() const = 0;
};

} // namespace ts::gui
