#include "trace/FastTraceReader.h"

#include <algorithm>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "trace/JsonRawEvent.h"
#include "trace/TraceBlockInput.h"
#include "trace/TraceBuilder.h"
#include "trace/TraceJsonStream.h"
#include "trace/TraceMemoryBudget.h"
#include "trace/TraceReadError.h"
#include "util/CpuAffinity.h"
#include "util/ProcessMemory.h"

#if TRAINSCOPE_WITH_SIMDJSON
#include "trace/SimdChunkParser.h"
#endif

namespace ts {

#if TRAINSCOPE_WITH_SIMDJSON

namespace {

bool isSpace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

// Where the event list starts: after the root "[", or after the root
// object's '"traceEvents": [' (other keys may come first).
struct ListStart {
    bool found = false;
    TraceJsonRoot root = TraceJsonRoot::Other;
    size_t offset = 0; // the byte after the list's "["
    size_t key = 0;    // Object: where '"traceEvents"' starts
};

size_t skipSpace(std::string_view s, size_t i) {
    while (i < s.size() && isSpace(s[i]))
        ++i;
    return i;
}

// The index after the string starting at s[i] == '"', npos if it does not end.
size_t skipString(std::string_view s, size_t i) {
    for (++i; i < s.size(); ++i) {
        if (s[i] == '\\')
            ++i;
        else if (s[i] == '"')
            return i + 1;
    }
    return std::string_view::npos;
}

// The index after the value starting at s[i]; npos if it does not end in s.
// Lexical only: the nlohmann stream validates the prefix afterwards.
size_t skipValue(std::string_view s, size_t i) {
    if (i >= s.size()) return std::string_view::npos;
    if (s[i] == '"') return skipString(s, i);
    if (s[i] != '{' && s[i] != '[') {
        while (i < s.size() && !isSpace(s[i]) && s[i] != ',' && s[i] != '}' && s[i] != ']')
            ++i;
        return i < s.size() ? i : std::string_view::npos;
    }
    int depth = 0;
    while (i < s.size()) {
        const char c = s[i];
        if (c == '"') {
            i = skipString(s, i);
            if (i == std::string_view::npos) return i;
            continue;
        }
        if (c == '{' || c == '[') ++depth;
        if ((c == '}' || c == ']') && --depth == 0) return i + 1;
        ++i;
    }
    return std::string_view::npos;
}

// Anything unusual (not found in the first block, escaped keys, bad syntax)
// answers "not found", and the nlohmann stream reads the file.
ListStart findListStart(std::string_view s) {
    size_t i = skipSpace(s, 0);
    if (i < s.size() && s[i] == '[') return {true, TraceJsonRoot::List, i + 1, i};
    if (i >= s.size() || s[i] != '{') return {};
    ++i;
    for (;;) {
        i = skipSpace(s, i);
        if (i >= s.size() || s[i] != '"') return {};
        const size_t key_end = skipString(s, i);
        if (key_end == std::string_view::npos) return {};
        const std::string_view key = s.substr(i + 1, key_end - i - 2);
        i = skipSpace(s, key_end);
        if (i >= s.size() || s[i] != ':') return {};
        i = skipSpace(s, i + 1);
        if (key == "traceEvents" && i < s.size() && s[i] == '[')
            return {true, TraceJsonRoot::Object, i + 1, key_end - key.size() - 2};
        i = skipSpace(s, skipValue(s, i));
        if (i >= s.size() || s[i] != ',') return {};
        ++i;
    }
}

// The last "}" ws* "," ws* "{" in data[from, size): the "}" ends a chunk, the
// "{" starts the next. False when there is none.
bool findCut(const char* data, size_t from, size_t size, size_t& end, size_t& next) {
    size_t i = size;
    while (i > from) {
        const void* hit = memrchr(data + from, '{', i - from);
        if (!hit) return false;
        const size_t brace = static_cast<size_t>(static_cast<const char*>(hit) - data);
        size_t j = brace;
        while (j > from && isSpace(data[j - 1]))
            --j;
        if (j > from && data[j - 1] == ',') {
            --j;
            while (j > from && isSpace(data[j - 1]))
                --j;
            if (j > from && data[j - 1] == '}') {
                end = j;
                next = brace;
                return true;
            }
        }
        i = brace;
    }
    return false;
}

// Every byte of the trace passes here. Blocks of a fixed length let GCC
// vectorize the count at -O2 (std::count compares byte by byte: 0.6 s per GB
// on the producer thread against 0.05 s).
uint64_t countNewlines(const char* p, size_t n) {
    constexpr size_t kBlock = 64; // at most 64 per block: fits the byte counter
    uint64_t count = 0;
    size_t i = 0;
    for (; i + kBlock <= n; i += kBlock) {
        uint8_t in_block = 0;
        for (size_t j = 0; j < kBlock; ++j)
            in_block += p[i + j] == '\n' ? 1 : 0;
        count += in_block;
    }
    for (; i < n; ++i)
        count += p[i] == '\n' ? 1 : 0;
    return count;
}

// Newlines in a run of bytes and the bytes after the last one: how the
// nlohmann parser counts lines and columns for its messages.
struct LineCount {
    uint64_t lines = 0;
    uint64_t column = 0;

    void advance(const char* p, size_t n) {
        const uint64_t newlines = countNewlines(p, n);
        if (newlines == 0) {
            column += n;
            return;
        }
        lines += newlines;
        const void* last = memrchr(p, '\n', n);
        column = static_cast<uint64_t>(p + n - static_cast<const char*>(last) - 1);
    }
};

struct Chunk {
    std::vector<char> buf; // "[" + bytes + "]" + simdjson's padding
    size_t len = 0;        // the bytes, without the brackets
    std::string gap;       // the bytes between this chunk and the next (", ")
    uint64_t offset = 0;   // file position of the first byte
    LineCount at;          // lines and column before the first byte
    uint64_t progress = 0; // the input's consumed() when it was cut
    bool last = false;
    bool parsed = false;
    ParsedChunk result;
    std::exception_ptr error; // reading failed here: nothing from here on

    const char* bytes() const { return buf.data() + 1; }
};

// The producer and the workers. Chunks come out of next() in file order;
// the pool holds workers + 2 of them, so memory stays at that many chunks
// whatever the file's size. The destructor stops and joins every thread, so
// a cancel or an exception on the building thread leaves none running.
class ChunkPipeline {
public:
    ChunkPipeline(TraceBlockInput& input, std::string carry, uint64_t offset, LineCount at,
                  size_t block_bytes, int workers)
        : input_(input), block_(std::max<size_t>(block_bytes, 1)) {
        for (int i = 0; i < workers + 2; ++i) {
            pool_.push_back(std::make_unique<Chunk>());
            free_.push_back(pool_.back().get());
        }
        producer_ = std::thread([this, carry = std::move(carry), offset, at]() mutable {
            produce(std::move(carry), offset, at);
        });
        for (int i = 0; i < workers; ++i)
            workers_.emplace_back([this] { work(); });
    }
    ~ChunkPipeline() {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            stop_ = true;
        }
        changed_.notify_all();
        producer_.join();
        for (std::thread& t : workers_)
            t.join();
    }
    ChunkPipeline(const ChunkPipeline&) = delete;
    ChunkPipeline& operator=(const ChunkPipeline&) = delete;

    // The next chunk in file order once parsed; rethrows a read error.
    Chunk* next() {
        std::unique_lock<std::mutex> lock(mutex_);
        changed_.wait(lock, [this] { return !ordered_.empty() && ordered_.front()->parsed; });
        Chunk* c = ordered_.front();
        ordered_.pop_front();
        if (c->error) std::rethrow_exception(c->error);
        return c;
    }
    void release(Chunk* c) {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            c->result.clear();
            free_.push_back(c);
        }
        changed_.notify_all();
    }
    // From now on chunks only carry their bytes (the nlohmann stream reads them).
    void stopParsing() {
        std::lock_guard<std::mutex> lock(mutex_);
        parse_ = false;
    }

private:
    Chunk* acquire() {
        std::unique_lock<std::mutex> lock(mutex_);
        changed_.wait(lock, [this] { return stop_ || !free_.empty(); });
        if (stop_) return nullptr;
        Chunk* c = free_.back();
        free_.pop_back();
        return c;
    }

    void publish(Chunk* c, bool to_workers) {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            ordered_.push_back(c);
            if (to_workers && parse_)
                todo_.push_back(c);
            else
                c->parsed = true;
        }
        changed_.notify_all();
    }

    void produce(std::string carry, uint64_t offset, LineCount at) {
        const size_t pad = simdjsonPadding();
        for (;;) {
            Chunk* c = acquire();
            if (!c) return;
            c->parsed = false;
            c->error = nullptr;
            c->last = false;
            c->gap.clear();
            c->offset = offset;
            c->at = at;
            try {
                size_t have = carry.size();
                c->buf.resize(std::max(c->buf.size(), 1 + have + block_ + 1 + pad));
                c->buf[0] = '[';
                std::memcpy(c->buf.data() + 1, carry.data(), have);
                size_t end = 0, next = 0;
                bool cut = false;
                for (;;) {
                    if (c->buf.size() < 1 + have + block_ + 1 + pad)
                        c->buf.resize(1 + have + block_ + 1 + pad);
                    const size_t n = input_.read(c->buf.data() + 1 + have, block_);
                    const size_t from = have;
                    have += n;
                    if (n < block_) break; // the end of the input
                    // A chunk ends at the last candidate of what was just read
                    // (a block without one: read on).
                    cut = findCut(c->bytes(), from > 0 ? from - 1 : 0, have, end, next);
                    if (cut) break;
                }
                if (cut) {
                    c->len = end;
                    c->gap.assign(c->bytes() + end, next - end);
                    carry.assign(c->bytes() + next, have - next);
                } else {
                    c->len = have;
                    c->last = true;
                }
                at.advance(c->bytes(), c->len);
                at.advance(c->gap.data(), c->gap.size());
                offset += c->len + c->gap.size();
                c->buf[1 + c->len] = ']';
                std::memset(c->buf.data() + 2 + c->len, 0, pad);
                c->progress = input_.consumed();
            } catch (...) {
                c->error = std::current_exception();
                c->last = true;
            }
            publish(c, !c->error);
            if (c->last) return;
        }
    }

    void work() {
        SimdChunkParser parser;
        for (;;) {
            Chunk* c = nullptr;
            {
                std::unique_lock<std::mutex> lock(mutex_);
                changed_.wait(lock, [this] { return stop_ || !todo_.empty(); });
                if (stop_) return;
                c = todo_.front();
                todo_.pop_front();
            }
            try {
                parser.parse(c->buf.data(), c->len + 2, c->result);
            } catch (...) { // out of memory: the building thread rethrows it
                c->error = std::current_exception();
            }
            {
                std::lock_guard<std::mutex> lock(mutex_);
                c->parsed = true;
            }
            changed_.notify_all();
        }
    }

    TraceBlockInput& input_;
    size_t block_;
    std::vector<std::unique_ptr<Chunk>> pool_;
    std::mutex mutex_;
    std::condition_variable changed_;
    std::vector<Chunk*> free_;
    std::deque<Chunk*> todo_, ordered_;
    bool stop_ = false, parse_ = true;
    std::thread producer_;
    std::vector<std::thread> workers_;
};

// The rest of the file from a chunk on, for the nlohmann stream: a made-up
// start that puts it inside the event list, then the chunks' bytes. It
// reports progress as it takes chunks.
class PipelineSource : public TraceSource {
public:
    PipelineSource(ChunkPipeline& pipeline, Chunk* first, size_t from, std::string synthetic,
                   std::string carried, const std::function<void(uint64_t)>& report, uint64_t total)
        : pipeline_(pipeline), chunk_(first), from_(from), synthetic_(std::move(synthetic)),
          carried_(std::move(carried)), report_(report), total_(total) {}
    ~PipelineSource() override {
        if (chunk_) pipeline_.release(chunk_);
    }
    PipelineSource(const PipelineSource&) = delete;
    PipelineSource& operator=(const PipelineSource&) = delete;

    // Empty pieces are skipped: an empty view means the end to the stream.
    std::string_view next(size_t) override {
        for (;;) {
            std::string_view piece;
            switch (step_++) {
            case 0:
                piece = synthetic_;
                break;
            case 1:
                piece = carried_;
                break;
            case 2:
                piece = std::string_view(chunk_->bytes() + from_, chunk_->len - from_);
                break;
            case 3:
                piece = chunk_->gap;
                break;
            default:
                if (chunk_->last) return {};
                pipeline_.release(chunk_);
                chunk_ = nullptr;
                chunk_ = pipeline_.next();
                report_(chunk_->progress);
                from_ = 0;
                step_ = 2;
            }
            if (!piece.empty()) return piece;
        }
    }
    uint64_t consumed() const override { return chunk_ ? chunk_->progress : 0; }
    uint64_t total() const override { return total_; }

private:
    ChunkPipeline& pipeline_;
    Chunk* chunk_;
    size_t from_;
    std::string synthetic_, carried_;
    const std::function<void(uint64_t)>& report_;
    uint64_t total_;
    int step_ = 0;
};

class FastRead {
public:
    FastRead(TraceBlockInput& input, const std::string& origin, const ReadProgress& progress,
             const TraceReadOptions& options)
        : input_(input), origin_(origin), progress_(progress), options_(options), builder_(origin),
          feed_(builder_) {}

    // False: the list's start was not found in the first block (the caller
    // reads the file with the nlohmann stream).
    bool run(Trace& out) {
        std::string first(std::max<size_t>(options_.block_bytes, 1), '\0');
        first.resize(input_.read(first.data(), first.size()));
        const ListStart start = findListStart(first);
        if (!start.found) return false;
        root_ = start.root;
        // The file's own text before the list (from its key on) restarts
        // the nlohmann stream, so that its messages quote the same bytes.
        synthetic_ = root_ == TraceJsonRoot::Object
                         ? "{" + first.substr(start.key, start.offset - start.key)
                         : std::string("[");
        if (root_ == TraceJsonRoot::Object) {
            // The keys before the list, through the nlohmann stream; if they
            // are not valid JSON that stream words the error from the start.
            const std::string prefix = first.substr(0, start.offset) + "]}";
            const auto source = traceTextSource(prefix);
            try {
                streamTraceJson(*source, origin_, feed_);
            } catch (const TraceReadError&) {
                return false;
            }
        }
        LineCount at;
        at.advance(first.data(), start.offset);
        const int workers = options_.workers > 0 ? options_.workers : usableCores();
        std::string carry = first.substr(start.offset);
        first = std::string();
        buildChunks(std::move(carry), start.offset, at, workers);
        // The pipeline's chunks and parsers are gone before the trace is
        // finalized (which sorts a copy of the events): the two would
        // otherwise add up in the peak. Freed memory of the workers' heaps
        // goes back to the system; glibc keeps it otherwise.
        returnFreedMemory();
        out = builder_.finish(root_);
        return true;
    }

private:
    // Builds every chunk in file order, up to the list's end; the tail (and
    // a chunk that failed) through the nlohmann stream.
    void buildChunks(std::string carry, uint64_t offset, LineCount at, int workers) {
        ChunkPipeline pipeline(input_, std::move(carry), offset, at, options_.block_bytes, workers);
        for (;;) {
            Chunk* c = pipeline.next();
            report(c->progress);
            const ParsedChunk::End end = c->result.end;
            if (end == ParsedChunk::End::Failed || (c->last && end == ParsedChunk::End::Complete)) {
                restream(pipeline, c, 0, std::move(previous_));
                break;
            }
            const std::vector<RawTraceEvent>& events = c->result.events;
            if (end == ParsedChunk::End::ListClosed) {
                // From the list's last element on (built here, skipped
                // there), or from its "]".
                for (const RawTraceEvent& e : events)
                    builder_.add(e);
                restream(pipeline, c,
                         events.empty() ? c->result.list_close : c->result.last_element,
                         std::move(previous_));
                break;
            }
            for (const RawTraceEvent& e : events)
                builder_.add(e);
            keepLastElement(*c);
            pipeline.release(c);
        }
    }

    void report(uint64_t done) {
        done = std::max(done, reported_);
        reported_ = done;
        builder_.inputRead(done, input_.total());
        if (progress_.report && !progress_.report(done, input_.total())) throw TraceReadCancelled();
    }

    // The last element of a chunk (with the bytes up to the next chunk),
    // already built: a restart of the stream begins with it.
    struct Element {
        std::string text;
        uint64_t offset = 0;
        LineCount at;
    };

    void keepLastElement(const Chunk& c) {
        const size_t from = c.result.last_element;
        if (from == std::string::npos) return void(previous_ = Element{});
        previous_.text.assign(c.bytes() + from, c.len - from);
        previous_.text += c.gap;
        previous_.offset = c.offset + from;
        previous_.at = c.at;
        previous_.at.advance(c.bytes(), from);
    }

    // The rest of the file from chunk c's byte `from` on, through the
    // nlohmann stream: the list's end and the keys after it; or, when a
    // chunk failed, everything from the chunk on, so a malformed file gets
    // the same error (at the same file position) as before and a chunk cut
    // at a wrong place is read correctly. It restarts on an element already
    // built (`previous`, or the one at `from`) when there is one, and skips
    // it: nlohmann's "last read" context then starts in the file's bytes.
    void restream(ChunkPipeline& pipeline, Chunk* c, size_t from, Element previous) {
        pipeline.stopParsing();
        JsonTextBase base;
        base.offset = c->offset + from;
        LineCount at = c->at;
        at.advance(c->bytes(), from);
        const bool skip_at_from =
            from == c->result.last_element && c->result.end == ParsedChunk::End::ListClosed;
        if (skip_at_from || previous.text.empty()) {
            previous.text.clear();
        } else {
            base.offset = previous.offset;
            at = previous.at;
        }
        feed_.skipElements(skip_at_from || !previous.text.empty() ? 1 : 0);
        base.line = at.lines;
        base.column = at.column;
        LineCount made_up;
        made_up.advance(synthetic_.data(), synthetic_.size());
        base.synthetic = synthetic_.size();
        base.synthetic_lines = made_up.lines;
        base.synthetic_column = made_up.column;
        const std::function<void(uint64_t)> report = [this](uint64_t done) { this->report(done); };
        PipelineSource source(pipeline, c, from, synthetic_, std::move(previous.text), report,
                              input_.total());
        streamTraceJson(source, origin_, feed_, ReadProgress{}, base);
    }

    TraceBlockInput& input_;
    const std::string& origin_;
    const ReadProgress& progress_;
    const TraceReadOptions& options_;
    TraceBuilder builder_;
    JsonEventFeed feed_;
    TraceJsonRoot root_ = TraceJsonRoot::Other;
    std::string synthetic_;
    Element previous_;
    uint64_t reported_ = 0;
};

bool worthThreads(const TraceBlockInput& input, const TraceReadOptions& options) {
    const uint64_t size = input.compressed() ? input.total() * 4 : input.total();
    return !options.sequential && size >= options.min_parallel_bytes;
}

// Fast when it can; `sequential` reads the input from its start otherwise.
Trace readFast(TraceBlockInput& input, const std::string& origin, const ReadProgress& progress,
               const TraceReadOptions& options, const std::function<Trace()>& sequential) {
    if (!worthThreads(input, options)) return sequential();
    Trace trace;
    {
        FastRead read(input, origin, progress, options);
        if (!read.run(trace)) return sequential();
    }
    const uint64_t total = input.total();
    if (progress.report && !progress.report(total, total)) throw TraceReadCancelled();
    return trace;
}

} // namespace

bool fastTraceReaderAvailable() {
    return true;
}

Trace readChromeTraceFile(const std::filesystem::path& path, const ReadProgress& progress,
                          const TraceReadOptions& options) {
    checkTraceFitsInMemory(path);
    const auto sequential = [&] {
        const std::unique_ptr<TraceSource> source = openTraceFile(path);
        return readTraceSequential(*source, path.string(), progress);
    };
    if (options.sequential) return sequential();
    const std::unique_ptr<TraceBlockInput> input = openTraceBlockInput(path);
    return readFast(*input, path.string(), progress, options, sequential);
}

Trace parseChromeTrace(const std::string& text, const std::string& origin,
                       const TraceReadOptions& options) {
    const auto sequential = [&] {
        const std::unique_ptr<TraceSource> source = traceTextSource(text);
        return readTraceSequential(*source, origin, ReadProgress{});
    };
    const std::unique_ptr<TraceBlockInput> input = textBlockInput(text);
    return readFast(*input, origin, ReadProgress{}, options, sequential);
}

#else // without simdjson every read is the nlohmann stream

bool fastTraceReaderAvailable() {
    return false;
}

Trace readChromeTraceFile(const std::filesystem::path& path, const ReadProgress& progress,
                          const TraceReadOptions&) {
    checkTraceFitsInMemory(path);
    const std::unique_ptr<TraceSource> source = openTraceFile(path);
    return readTraceSequential(*source, path.string(), progress);
}

Trace parseChromeTrace(const std::string& text, const std::string& origin,
                       const TraceReadOptions&) {
    const std::unique_ptr<TraceSource> source = traceTextSource(text);
    return readTraceSequential(*source, origin, ReadProgress{});
}

#endif

} // namespace ts
