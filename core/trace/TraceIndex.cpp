#include "trace/TraceIndex.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstddef>
#include <cstring>
#include <functional>
#include <type_traits>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

#include "trace/ChromeTraceReader.h"
#include "trace/IndexChecksum.h"
#include "trace/TraceIndexCheck.h"
#include "util/CpuAffinity.h"
#include "util/Hash64.h"
#include "util/ThreadPool.h"

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
              "the trace index stores records as little-endian memory bytes");

namespace ts {

namespace {

constexpr char kMagic[8] = {'T', 'S', 'T', 'R', 'I', 'D', 'X', '\0'};
constexpr uint32_t kFormatVersion = 12; // 2: the EventStore columns; 3: signatures, memory;
                                        // 4: no steps from gpu_user_annotation;
                                        // 5: call stacks from python_function frames;
                                        // 6: CUPTI's overhead lane named;
                                        // 7: Kineto's CPU memory instants kept once;
                                        // 8: ops' bytes from the instants on demand (flags);
                                        // 9: the checksum by 1 MiB blocks (IndexChecksum.h);
                                        // 10: costs interned, in the op row when alone;
                                        // 11: steps from Optimizer.step ranges (steps_from);
                                        // 12: collectives' process group and Seq

struct Header {
    char magic[8];
    uint32_t format_version;
    uint32_t header_size;
    uint64_t layout_hash;
    TraceKey key;
    uint64_t body_length;
    uint64_t body_checksum;
    uint64_t header_checksum; // of the bytes above
};
static_assert(std::is_trivially_copyable_v<Header>);

// Lanes and devices hold a string each: their names go in a string section,
// the rest in these fixed records.
struct LaneRecord {
    int64_t tid;
    int64_t stream;
    int32_t gpu;
    uint8_t device;
    uint8_t pad[3];
};
struct DeviceRecord {
    int64_t total_global_mem;
    int32_t id, compute_major, compute_minor, num_sms, max_threads_per_sm, pad;
};
struct MetaRecord {
    int64_t origin_ns;
    int64_t ac2g_links;
};

#define TS_FIELD(T, f) h.addValue(uint32_t(offsetof(T, f)))
// Sizes and field offsets of every record stored as raw bytes, with the
// format and reader versions: an index written by a build that lays them out
// differently, or reads traces differently, is refused.
uint64_t layoutHash() {
    Hash64 h(kFormatVersion);
    h.addValue(kTraceReaderVersion);
    for (size_t size :
         {sizeof(EventCore), sizeof(EventOpFields), sizeof(LaunchConfig), sizeof(EventCost),
          sizeof(OpSignature), sizeof(EventMemory), sizeof(OverflowValue), sizeof(EventRareFields),
          sizeof(MemorySample), sizeof(StepMark), sizeof(DeviceMemoryEvent), sizeof(PythonFrame),
          sizeof(LaneRecord), sizeof(DeviceRecord), sizeof(MetaRecord), sizeof(CollectiveTag)})
        h.addValue(uint32_t(size));
    TS_FIELD(EventCore, start_ns), TS_FIELD(EventCore, dur_ns), TS_FIELD(EventCore, name);
    TS_FIELD(EventCore, parent), TS_FIELD(EventCore, lane), TS_FIELD(EventCore, depth);
    TS_FIELD(EventCore, kind), TS_FIELD(EventCore, category), TS_FIELD(EventCore, step_code);
    TS_FIELD(EventOpFields, signature), TS_FIELD(EventOpFields, seq);
    TS_FIELD(EventOpFields, link), TS_FIELD(EventOpFields, device_ns),
        TS_FIELD(EventOpFields, rare);
    TS_FIELD(OpSignature, shapes), TS_FIELD(OpSignature, types), TS_FIELD(OpSignature, args);
    TS_FIELD(EventRareFields, call_stack), TS_FIELD(EventRareFields, launch);
    TS_FIELD(EventRareFields, cost), TS_FIELD(EventRareFields, memory);
    TS_FIELD(LaunchConfig, device), TS_FIELD(LaunchConfig, stream), TS_FIELD(LaunchConfig, grid);
    TS_FIELD(LaunchConfig, block), TS_FIELD(LaunchConfig, registers);
    TS_FIELD(LaunchConfig, shared_memory), TS_FIELD(LaunchConfig, blocks_per_sm);
    TS_FIELD(LaunchConfig, occupancy);
    TS_FIELD(EventCost, flops), TS_FIELD(EventCost, bytes), TS_FIELD(EventCost, gbps);
    TS_FIELD(EventMemory, alloc_bytes), TS_FIELD(EventMemory, free_bytes);
    TS_FIELD(OverflowValue, event), TS_FIELD(OverflowValue, field), TS_FIELD(OverflowValue, value);
    TS_FIELD(MemorySample, t_ns), TS_FIELD(MemorySample, live_bytes);
    TS_FIELD(MemorySample, delta_bytes), TS_FIELD(MemorySample, event);
    TS_FIELD(StepMark, step), TS_FIELD(StepMark, start_ns), TS_FIELD(StepMark, end_ns);
    TS_FIELD(DeviceMemoryEvent, t_ns), TS_FIELD(DeviceMemoryEvent, lane);
    TS_FIELD(DeviceMemoryEvent, device_type), TS_FIELD(DeviceMemoryEvent, device_id);
    TS_FIELD(DeviceMemoryEvent, addr), TS_FIELD(DeviceMemoryEvent, bytes);
    TS_FIELD(DeviceMemoryEvent, total_allocated), TS_FIELD(DeviceMemoryEvent, total_reserved);
    TS_FIELD(DeviceMemoryEvent, flags);
    TS_FIELD(CollectiveTag, event), TS_FIELD(CollectiveTag, group), TS_FIELD(CollectiveTag, seq);
    TS_FIELD(PythonFrame, name), TS_FIELD(PythonFrame, lane), TS_FIELD(PythonFrame, start_ns);
    TS_FIELD(PythonFrame, dur_ns), TS_FIELD(PythonFrame, python_id);
    TS_FIELD(PythonFrame, parent_id), TS_FIELD(PythonFrame, module_id);
    h.addValue(uint32_t(sizeof(EventKind))), h.addValue(uint32_t(sizeof(KinetoCategory)));
    return h.digest();
}
#undef TS_FIELD

uint64_t headerChecksum(const Header& header) {
    Hash64 h(0x5453);
    h.add(&header, offsetof(Header, header_checksum));
    return h.digest();
}

// ---- writing ---------------------------------------------------------------

class BodyWriter {
public:
    explicit BodyWriter(std::function<bool(const void*, size_t)> sink) : sink_(std::move(sink)) {}

    template <typename T> void pods(const std::vector<T>& items) {
        static_assert(std::is_trivially_copyable_v<T>);
        header(items.size(), sizeof(T));
        bytes(items.data(), items.size() * sizeof(T));
        align();
    }
    void strings(const std::vector<std::string>& items) {
        std::vector<uint32_t> lengths;
        lengths.reserve(items.size());
        for (const std::string& s : items)
            lengths.push_back(static_cast<uint32_t>(s.size()));
        pods(lengths);
        for (const std::string& s : items)
            bytes(s.data(), s.size());
        align();
    }
    bool ok() const { return ok_; }
    uint64_t length() const { return length_; }
    uint64_t checksum() const { return hash_.digest(); }

private:
    void header(uint64_t count, uint64_t elem_size) {
        bytes(&count, sizeof count);
        bytes(&elem_size, sizeof elem_size);
    }
    void bytes(const void* data, size_t size) {
        if (size == 0) return;
        hash_.add(data, size);
        length_ += size;
        ok_ = ok_ && sink_(data, size);
    }
    void align() {
        static const char kZeros[8] = {};
        if (length_ % 8) bytes(kZeros, 8 - length_ % 8);
    }

    std::function<bool(const void*, size_t)> sink_;
    IndexChecksum hash_;
    uint64_t length_ = 0;
    bool ok_ = true;
};

void writeBody(const Trace& t, BodyWriter& w) {
    const KinetoInfo& k = t.kineto;
    w.strings({t.source, k.distributed_info, k.framework, t.steps_from});
    w.pods(std::vector<MetaRecord>{{t.origin_ns, k.ac2g_links}});
    w.strings(t.notes);
    w.strings(t.names);
    w.strings(t.strings);
    std::vector<std::string> lane_names;
    std::vector<LaneRecord> lanes;
    for (const TraceLane& l : t.lanes) {
        lane_names.push_back(l.name);
        lanes.push_back(LaneRecord{l.tid, l.stream, l.gpu, uint8_t(l.device ? 1 : 0), {}});
    }
    w.strings(lane_names);
    w.pods(lanes);
    const EventStore::ColumnRefs c = t.events.columns();
    w.pods(c.core);
    w.pods(c.extra);
    w.pods(c.correlation);
    w.pods(c.external);
    w.pods(c.op);
    w.pods(c.signatures);
    w.pods(c.rare);
    w.pods(c.launches);
    w.pods(c.costs);
    w.pods(c.memory);
    w.pods(c.overflow);
    w.pods(t.memory);
    w.pods(t.steps);
    w.pods(k.memory);
    std::vector<std::string> device_names;
    std::vector<DeviceRecord> devices;
    for (const DeviceProperties& d : k.devices) {
        device_names.push_back(d.name);
        devices.push_back(DeviceRecord{d.total_global_mem, d.id, d.compute_major, d.compute_minor,
                                       d.num_sms, d.max_threads_per_sm, 0});
    }
    w.strings(device_names);
    w.pods(devices);
    w.pods(k.python_frames);
    w.pods(k.collective_tags);
}

// Writes a blank header and the body through `sink`, in one pass over the
// trace (hashing and writing each section once, holding no copy of it);
// returns the header to put in front, with the body's length and checksum.
// The caller overwrites the blank: a file without it reads as "not a trace
// index", never as a valid one.
bool writeIndex(const Trace& trace, const TraceKey& key,
                const std::function<bool(const void*, size_t)>& sink, Header& header) {
    header = Header{};
    if (!sink(&header, sizeof header)) return false;
    BodyWriter out(sink);
    writeBody(trace, out);
    std::memcpy(header.magic, kMagic, sizeof kMagic);
    header.format_version = kFormatVersion;
    header.header_size = sizeof(Header);
    header.layout_hash = layoutHash();
    header.key = key;
    header.body_length = out.length();
    header.body_checksum = out.checksum();
    header.header_checksum = headerChecksum(header);
    return out.ok();
}

// ---- reading ---------------------------------------------------------------

// Thrown inside the reader only; readTraceIndex turns it into nullopt.
struct Refused {
    std::string why;
};

// Reads `size` bytes at `offset` from the index's first byte; called from
// several threads at once while the large sections load.
using IndexSource = std::function<bool(uint64_t offset, void* data, size_t size)>;

// Sections of at least this size are loaded after the walk over the body,
// on up to kLoadThreads threads: a large trace's index is a few hundred MB,
// and copying it and faulting in its pages was half of reopening the trace.
constexpr size_t kLargeSection = size_t(1) << 20;
constexpr unsigned kLoadThreads = 4;

unsigned loadThreads() {
    return unsigned(std::min(usableCores(), int(kLoadThreads)));
}

class BodyReader {
public:
    BodyReader(IndexSource source, uint64_t begin, uint64_t length)
        : source_(std::move(source)), begin_(begin), remaining_(length) {}

    // Small sections are read at once; a large one only has its place
    // noted, and `items` is filled by finish(): it must stay where it is
    // until then (unless `now`).
    template <typename T> void pods(std::vector<T>& items, bool now = false) {
        static_assert(std::is_trivially_copyable_v<T>);
        uint64_t count = 0, elem_size = 0;
        bytes(&count, sizeof count);
        bytes(&elem_size, sizeof elem_size);
        if (elem_size != sizeof(T)) throw Refused{"a section has records of another size"};
        if (count > remaining_ / sizeof(T)) throw Refused{"a section is longer than the file"};
        const size_t size = size_t(count) * sizeof(T);
        if (size >= kLargeSection && !now) {
            const size_t piece = pieces_.size();
            pieces_.push_back(Piece{size, 0, false, nullptr});
            const uint64_t at = begin_ + consumed_;
            loads_.push_back(Load{size, [this, &items, count, at, piece, size] {
                                      items.resize(size_t(count));
                                      pieces_[piece].data = items.data();
                                      return source_(at, items.data(), size);
                                  }});
            consume(size);
        } else {
            items.resize(size_t(count));
            bytes(items.data(), size);
        }
        align();
    }
    void strings(std::vector<std::string>& items) {
        std::vector<uint32_t> lengths;
        pods(lengths, true);
        uint64_t total = 0;
        for (uint32_t n : lengths)
            total += n;
        if (total > remaining_) throw Refused{"a string section is longer than the file"};
        // One read for all of them: a read per string is a system call each.
        std::string all(total, '\0');
        bytes(all.data(), all.size());
        items.resize(lengths.size());
        size_t at = 0;
        for (size_t i = 0; i < lengths.size(); ++i) {
            items[i].assign(all, at, lengths[i]);
            at += lengths[i];
        }
        align();
    }
    // Loads the large sections, then checks the whole body's checksum.
    void finish(uint64_t expected_checksum) {
        if (remaining_ != 0) throw Refused{"bytes left over after the last section"};
        runLoads();
        std::vector<IndexBytes> body;
        body.reserve(pieces_.size());
        for (const Piece& p : pieces_)
            body.push_back(IndexBytes{p.is_inline ? read_.data() + p.inline_at : p.data, p.size});
        if (indexChecksum(body, loadThreads()) != expected_checksum)
            throw Refused{"checksum mismatch"};
    }

private:
    // A stretch of the body: bytes kept in read_ (small sections, headers,
    // padding) or a large section's items.
    struct Piece {
        size_t size;
        size_t inline_at;
        bool is_inline;
        const void* data;
    };
    struct Load {
        size_t size;
        std::function<bool()> run;
    };

    void consume(size_t size) {
        if (size > remaining_) throw Refused{"the file ends early (truncated)"};
        remaining_ -= size;
        consumed_ += size;
    }
    void bytes(void* data, size_t size) {
        if (size == 0) return;
        if (size > remaining_) throw Refused{"the file ends early (truncated)"};
        if (!source_(begin_ + consumed_, data, size))
            throw Refused{"the file ends early (truncated)"};
        // Kept for the checksum, which is computed once everything is read.
        if (pieces_.empty() || !pieces_.back().is_inline)
            pieces_.push_back(Piece{0, read_.size(), true, nullptr});
        read_.append(static_cast<const char*>(data), size);
        pieces_.back().size += size;
        consume(size);
    }
    void align() {
        char pad[8];
        if (consumed_ % 8) bytes(pad, 8 - consumed_ % 8);
    }
    // Largest first, each on whichever thread is free.
    void runLoads() {
        std::vector<size_t> order(loads_.size());
        for (size_t i = 0; i < order.size(); ++i)
            order[i] = i;
        std::sort(order.begin(), order.end(),
                  [&](size_t a, size_t b) { return loads_[a].size > loads_[b].size; });
        std::atomic<bool> failed{false}, out_of_memory{false};
        parallelFor(order.size(), loadThreads(), [&](size_t i) {
            if (failed) return;
            try {
                if (!loads_[order[i]].run()) failed = true;
            } catch (const std::bad_alloc&) {
                out_of_memory = failed = true;
            }
        });
        if (out_of_memory) throw std::bad_alloc();
        if (failed) throw Refused{"the file ends early (truncated)"};
    }

    IndexSource source_;
    uint64_t begin_;
    uint64_t remaining_;
    uint64_t consumed_ = 0;
    std::string read_;
    std::vector<Piece> pieces_;
    std::vector<Load> loads_;
};

// Every section is read (or noted, for the large ones) before anything is
// built from them: the large ones are filled in by finish(). The few records
// checked before that (the header's numbers, lanes, devices) are read at once.
Trace readBody(BodyReader& r, uint64_t expected_checksum) {
    Trace t;
    KinetoInfo& k = t.kineto;
    std::vector<std::string> meta;
    r.strings(meta);
    if (meta.size() != 4) throw Refused{"a malformed header section"};
    t.source = meta[0], k.distributed_info = meta[1], k.framework = meta[2];
    t.steps_from = meta[3];
    std::vector<MetaRecord> numbers;
    r.pods(numbers, true);
    if (numbers.size() != 1) throw Refused{"a malformed header section"};
    t.origin_ns = numbers[0].origin_ns, k.ac2g_links = numbers[0].ac2g_links;
    r.strings(t.notes);
    r.strings(t.names);
    r.strings(t.strings);
    std::vector<std::string> lane_names;
    std::vector<LaneRecord> lanes;
    r.strings(lane_names);
    r.pods(lanes, true);
    if (lane_names.size() != lanes.size()) throw Refused{"lane names and lanes differ in number"};
    EventStore::Columns c;
    r.pods(c.core);
    r.pods(c.extra);
    r.pods(c.correlation);
    r.pods(c.external);
    r.pods(c.op);
    r.pods(c.signatures);
    r.pods(c.rare);
    r.pods(c.launches);
    r.pods(c.costs);
    r.pods(c.memory);
    r.pods(c.overflow);
    r.pods(t.memory);
    r.pods(t.steps);
    r.pods(k.memory);
    std::vector<std::string> device_names;
    std::vector<DeviceRecord> devices;
    r.strings(device_names);
    r.pods(devices, true);
    if (device_names.size() != devices.size()) throw Refused{"device names and devices differ"};
    r.pods(k.python_frames);
    r.pods(k.collective_tags);
    r.finish(expected_checksum);

    for (size_t i = 0; i < lanes.size(); ++i)
        t.lanes.push_back(TraceLane{std::move(lane_names[i]), lanes[i].tid, lanes[i].device != 0,
                                    lanes[i].gpu, lanes[i].stream});
    if (c.extra.size() != c.core.size() || c.correlation.size() != c.core.size() ||
        c.external.size() != c.core.size())
        throw Refused{"event columns differ in length"};
    t.events = EventStore::fromColumns(std::move(c));
    for (size_t i = 0; i < devices.size(); ++i) {
        DeviceProperties d;
        d.id = devices[i].id, d.name = std::move(device_names[i]);
        d.total_global_mem = devices[i].total_global_mem;
        d.compute_major = devices[i].compute_major, d.compute_minor = devices[i].compute_minor;
        d.num_sms = devices[i].num_sms, d.max_threads_per_sm = devices[i].max_threads_per_sm;
        k.devices.push_back(std::move(d));
    }
    return t;
}

void checkHeader(const Header& h, const TraceKey& expected) {
    if (std::memcmp(h.magic, kMagic, sizeof kMagic) != 0) throw Refused{"not a trace index"};
    if (h.format_version != kFormatVersion || h.header_size != sizeof(Header))
        throw Refused{"written by another version of Trainscope"};
    if (h.header_checksum != headerChecksum(h)) throw Refused{"the header is corrupted"};
    if (h.layout_hash != layoutHash()) throw Refused{"written by another build of Trainscope"};
    if (h.key != expected) throw Refused{"made from another version of the trace (stale)"};
}

std::optional<Trace> readIndex(const IndexSource& source, uint64_t available,
                               const TraceKey& expected, std::string* why) {
    try {
        Header header{};
        const size_t head = std::min<uint64_t>(available, sizeof header);
        if (!source(0, &header, head)) throw Refused{"cannot read the file"};
        if (head >= sizeof kMagic && std::memcmp(header.magic, kMagic, sizeof kMagic) != 0)
            throw Refused{"not a trace index"};
        if (head < sizeof header) throw Refused{"the file ends early (truncated)"};
        checkHeader(header, expected);
        if (header.body_length != available - sizeof header)
            throw Refused{"the file's length differs from its header's (truncated?)"};
        BodyReader reader(source, sizeof header, header.body_length);
        Trace trace = readBody(reader, header.body_checksum);
        const std::string problem = traceIndexProblem(trace);
        if (!problem.empty()) throw Refused{problem};
        return trace;
    } catch (const Refused& r) {
        if (why) *why = r.why;
    } catch (const std::bad_alloc&) {
        if (why) *why = "too large to load";
    }
    return std::nullopt;
}

} // namespace

std::string writeTraceIndex(const Trace& trace, const TraceKey& key) {
    std::string out;
    Header header{};
    writeIndex(
        trace, key,
        [&](const void* data, size_t size) {
            out.append(static_cast<const char*>(data), size);
            return true;
        },
        header);
    std::memcpy(out.data(), &header, sizeof header);
    return out;
}

bool writeTraceIndex(const Trace& trace, const TraceKey& key, std::FILE* file) {
    const long start = std::ftell(file);
    Header header{};
    return start >= 0 &&
           writeIndex(
               trace, key,
               [&](const void* data, size_t size) {
                   return std::fwrite(data, 1, size, file) == size;
               },
               header) &&
           std::fseek(file, start, SEEK_SET) == 0 &&
           std::fwrite(&header, 1, sizeof header, file) == sizeof header &&
           std::fseek(file, 0, SEEK_END) == 0;
}

std::optional<Trace> readTraceIndex(std::string_view bytes, const TraceKey& expected,
                                    std::string* why) {
    return readIndex(
        [&](uint64_t at, void* data, size_t size) {
            if (at > bytes.size() || size > bytes.size() - at) return false;
            std::memcpy(data, bytes.data() + at, size);
            return true;
        },
        bytes.size(), expected, why);
}

std::optional<Trace> readTraceIndex(std::FILE* file, const TraceKey& expected, std::string* why) {
    struct stat st {};
    const long position = std::ftell(file);
    if (::fstat(::fileno(file), &st) != 0 || position < 0 || st.st_size < position) {
        if (why) *why = "cannot read the file";
        return std::nullopt;
    }
    // pread: the large sections are read on several threads at once.
    const int fd = ::fileno(file);
    return readIndex(
        [&](uint64_t at, void* data, size_t size) {
            auto* out = static_cast<char*>(data);
            uint64_t offset = uint64_t(position) + at;
            while (size > 0) {
                const ssize_t got = ::pread(fd, out, size, off_t(offset));
                if (got < 0 && errno == EINTR) continue;
                if (got <= 0) return false;
                out += got, offset += uint64_t(got), size -= size_t(got);
            }
            return true;
        },
        static_cast<uint64_t>(st.st_size - position), expected, why);
}

} // namespace ts
