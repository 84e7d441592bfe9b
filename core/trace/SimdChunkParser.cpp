#include "trace/SimdChunkParser.h"

#include <array>
#include <vector>

#include <nlohmann/json.hpp>
#include <simdjson.h>

#include "trace/JsonRespace.h"
#include "trace/TraceRules.h"

namespace ts {

namespace od = simdjson::ondemand;

namespace {

// Any simdjson error ends the chunk (ParsedChunk::End::Failed): the caller
// then finds out whether the cut or the JSON was wrong.
struct ChunkFailed {};

void ok(simdjson::error_code error) {
    if (error) throw ChunkFailed{};
}

// By value: simdjson's results are small and trivially copyable.
template <typename T> T take(simdjson::simdjson_result<T> result) {
    T value{}; // set by get(); initialized so GCC sees no path without it
    ok(std::move(result).get(value));
    return value;
}

// A result's value where it is, once its error is checked: `take` copies
// it, and copying a field (a key and a value iterator) through the stack
// stalled the parser on store forwarding, a fifth of its time per field.
template <typename T> T& inPlace(simdjson::simdjson_result<T>& result) {
    ok(result.error());
    return result.value_unsafe();
}

std::string_view trimRight(std::string_view s) {
    while (!s.empty() &&
           (s.back() == ' ' || s.back() == '\t' || s.back() == '\n' || s.back() == '\r'))
        s.remove_suffix(1);
    return s;
}

class EventReader {
public:
    explicit EventReader(ParsedChunk& out) : out_(out) {}

    void event(od::object object, RawTraceEvent& e) {
        for (auto f : object) {
            od::field& field = inPlace(f);
            const std::string_view key = keyOf(field);
            od::value& v = field.value(); // in place too: see inPlace
            if (key == "ph") {
                e.ph = stringOrEmpty(v);
            } else if (key == "name") {
                e.name = stringOrEmpty(v);
            } else if (key == "cat") {
                e.cat = stringOrEmpty(v);
            } else if (key == "pid") {
                e.pid = id(v);
            } else if (key == "tid") {
                e.tid = id(v);
            } else if (key == "ts") {
                micros(v, e.ts_ns);
            } else if (key == "dur") {
                micros(v, e.dur_ns);
            } else if (key == "ts_ns") {
                e.ts_ns = number(v);
            } else if (key == "dur_ns") {
                e.dur_ns = number(v);
            } else if (key == "id") {
                e.id = number(v);
            } else if (key == "args") {
                if (e.has_args) e.args = RawTraceArgs{}; // a repeated "args" replaces the first
                e.has_args = true;
                if (take(v.type()) == od::json_type::object)
                    args(take(v.get_object()), e.args);
                else
                    touch(v);
            } else {
                touch(v);
            }
        }
    }

    // Anything else: read to validate, as a JSON parser would.
    void touch(od::value v) {
        switch (take(v.type())) {
        case od::json_type::object:
            for (auto f : take(v.get_object())) {
                od::field& field = inPlace(f);
                keyOf(field);
                touch(field.value());
            }
            break;
        case od::json_type::array:
            for (auto element : take(v.get_array()))
                touch(take(element));
            break;
        case od::json_type::string:
            string(v);
            break;
        case od::json_type::number:
            take(v.get_number());
            break;
        case od::json_type::boolean:
            take(v.get_bool());
            break;
        case od::json_type::null:
            if (!take(v.is_null())) throw ChunkFailed{};
            break;
        }
    }

private:
    void args(od::object object, RawTraceArgs& a) {
        for (auto f : object) {
            od::field& field = inPlace(f);
            const std::string_view key = keyOf(field);
            od::value& v = field.value(); // in place too: see inPlace
            if (key == "Input Dims") {
                a.input_dims_upper = spaced(v);
            } else if (key == "Input dims") {
                a.input_dims_lower = spaced(v);
            } else if (key == "Input type") {
                a.input_type = spaced(v);
            } else if (key == "Concrete Inputs") {
                a.concrete_inputs = spaced(v);
            } else if (key == "Call stack") {
                a.call_stack.reset();
                if (take(v.type()) == od::json_type::string)
                    a.call_stack = string(v);
                else
                    touch(v);
            } else if (key == "kind") {
                a.kind = stringOrEmpty(v);
            } else if (key == "name") {
                a.name = stringOrEmpty(v);
            } else if (key == "Process Group Name") {
                a.process_group = stringOrEmpty(v);
            } else if (const RawArg f = numberField(key); f != RawArg::Count) {
                a.set(f, number(v));
            } else if (key == "grid") {
                a.grid = dims(v);
            } else if (key == "block") {
                a.block = dims(v);
            } else {
                touch(v);
            }
        }
    }

    // The RawArg under `key`, Count for none. Most keys of a Kineto event
    // are one of these, so the search starts from the key's length.
    static RawArg numberField(std::string_view key) {
        static const auto by_length = [] {
            // Indexed by length: every key must fit ("wait_on_cuda_event_record_corr_id" is 33).
            std::array<std::vector<RawArg>, 64> table;
            for (size_t f = 0; f < kRawArgCount; ++f)
                table.at(kRawArgKeys[f].size()).push_back(RawArg(f));
            return table;
        }();
        if (key.empty() || key.size() >= by_length.size()) return RawArg::Count;
        // The first and last bytes tell most keys of one length apart
        // ("device" and "stream", "queued"; "grid" and "step"): a kernel's
        // dozen keys would otherwise cost a memcmp call each.
        for (const RawArg f : by_length[key.size()]) {
            const std::string_view known = kRawArgKeys[size_t(f)];
            if (known.front() == key.front() && known.back() == key.back() && known == key)
                return f;
        }
        return RawArg::Count;
    }

    // Keys without escapes are read in place; others are unescaped.
    std::string_view keyOf(od::field& field) {
        const char* p = field.key().raw();
        const char* q = p;
        while (*q != '"' && *q != '\\')
            ++q;
        if (*q == '"') return {p, static_cast<size_t>(q - p)};
        return take(field.unescaped_key());
    }

    // A string value: in place without escapes, unescaped into the chunk's
    // texts with them. Either way the iterator moves past it: a value left
    // unread is skipped by simdjson's skip_child(), which takes a string
    // followed by ":" for a key and eats the colon (and then one closer too
    // many), so `{"ph": "X": 2}}` or `["": 1]]` read as valid where the
    // sequential reader refuses them. Once the string is read, the next
    // token must be "," or the closing bracket.
    std::string_view string(od::value& v) {
        const std::string_view token = trimRight(v.raw_json_token());
        if (token.size() < 2 || token.front() != '"' || token.back() != '"') throw ChunkFailed{};
        const std::string_view inner = token.substr(1, token.size() - 2);
        if (inner.find('\\') == std::string_view::npos) {
            take(v.get_raw_json_string()); // only moves on: the text is `inner`
            return inner;
        }
        out_.texts.emplace_back(take(v.get_string()));
        return out_.texts.back();
    }

    std::string_view stringOrEmpty(od::value& v) {
        if (take(v.type()) == od::json_type::string) return string(v);
        touch(v);
        return {};
    }

    RawNumber number(od::value& v) {
        if (take(v.type()) != od::json_type::number) {
            touch(v);
            return RawNumber::notNumber();
        }
        const od::number n = take(v.get_number());
        switch (n.get_number_type()) {
        case od::number_type::signed_integer:
            return RawNumber::ofInt(n.get_int64());
        case od::number_type::unsigned_integer:
            return RawNumber::ofUint(n.get_uint64());
        default:
            return RawNumber::ofDouble(n.get_double());
        }
    }

    // "ts"/"dur": exact nanoseconds from the number's text; other values are
    // not times (the nlohmann stream leaves them under their own key).
    void micros(od::value& v, RawNumber& out) {
        if (take(v.type()) != od::json_type::number) return touch(v);
        const std::string_view token = trimRight(v.raw_json_token());
        const od::number n = take(v.get_number()); // validates the token
        // Integers as microsTokenToNs takes them (x 1000, wrapping), without
        // parsing the text a second time; fractions from the text, exactly.
        switch (n.get_number_type()) {
        case od::number_type::signed_integer:
            out = RawNumber::ofInt(
                static_cast<int64_t>(static_cast<uint64_t>(n.get_int64()) * 1000u));
            break;
        case od::number_type::unsigned_integer:
            out = RawNumber::ofInt(static_cast<int64_t>(n.get_uint64() * 1000u));
            break;
        default:
            out = microsTokenToNs(token);
        }
    }

    // pid/tid: integers keep their text (it is nlohmann's dump() of them but
    // for "-0"); other non-strings are printed by nlohmann, as before.
    RawId id(od::value& v) {
        RawId r;
        const od::json_type type = take(v.type());
        if (type == od::json_type::string) {
            r.kind = RawId::Kind::String;
            r.text = string(v);
            return r;
        }
        if (type == od::json_type::number) {
            const std::string_view token = trimRight(v.raw_json_token());
            const RawNumber n = number(v);
            if (n.isInteger()) {
                r.kind = RawId::Kind::Integer;
                n.getInt(r.integer);
                r.text = token == "-0" ? std::string_view("0") : token;
                return r;
            }
            r.kind = RawId::Kind::Other;
            out_.texts.push_back(nlohmann::json(n.v.d).dump());
            r.text = out_.texts.back();
            return r;
        }
        std::string_view raw;
        if (type == od::json_type::object)
            raw = take(take(v.get_object()).raw_json());
        else if (type == od::json_type::array)
            raw = take(take(v.get_array()).raw_json());
        else
            raw = v.raw_json_token(), touch(v);
        const auto parsed = nlohmann::json::parse(raw.begin(), raw.end(), nullptr, false);
        if (parsed.is_discarded()) throw ChunkFailed{};
        r.kind = RawId::Kind::Other;
        out_.texts.push_back(parsed.dump());
        r.text = out_.texts.back();
        return r;
    }

    std::optional<std::string_view> spaced(od::value& v) {
        if (take(v.type()) != od::json_type::array) {
            touch(v);
            return std::nullopt;
        }
        const std::string_view raw = take(take(v.get_array()).raw_json());
        // Kineto's arrays are spaced as nlohmann prints them: the chunk's
        // bytes serve as they are (no string per event).
        if (isRespacedArray(raw)) return raw;
        std::string text;
        try {
            appendRespacedArray(text, raw);
        } catch (const std::invalid_argument&) {
            throw ChunkFailed{};
        }
        out_.texts.push_back(std::move(text));
        return std::string_view(out_.texts.back());
    }

    // Kineto writes launch dimensions as [x, y, z].
    std::array<int32_t, 3> dims(od::value& v) {
        std::array<int32_t, 3> out{-1, -1, -1};
        if (take(v.type()) != od::json_type::array) {
            touch(v);
            return out;
        }
        size_t i = 0;
        for (auto element : take(v.get_array())) {
            od::value x = take(element);
            if (i < 3) {
                const RawNumber n = number(x);
                if (n.isNumber()) out[i] = static_cast<int32_t>(n.getDouble());
            } else {
                touch(x);
            }
            ++i;
        }
        return out;
    }

    ParsedChunk& out_;
};

} // namespace

struct SimdChunkParser::Impl {
    od::parser parser;
};

size_t simdjsonPadding() {
    return simdjson::SIMDJSON_PADDING;
}

SimdChunkParser::SimdChunkParser() : impl_(std::make_unique<Impl>()) {}
SimdChunkParser::~SimdChunkParser() = default;

void SimdChunkParser::parse(const char* wrapped, size_t size, ParsedChunk& out) {
    out.clear();
    // Kineto's smallest events are about 100 bytes of JSON: room for them
    // once, instead of growing (and moving) the events by doubling.
    out.events.reserve(size / 96);
    try {
        od::document doc = take(impl_->parser.iterate(wrapped, size, size + simdjsonPadding()));
        EventReader reader(out);
        for (auto element : take(doc.get_array())) {
            od::value v = take(element);
            out.last_element = static_cast<size_t>(v.raw_json_token().data() - (wrapped + 1));
            RawTraceEvent& e = out.events.emplace_back();
            if (take(v.type()) == od::json_type::object) {
                reader.event(take(v.get_object()), e);
            } else {
                e.is_object = false;
                reader.touch(v);
            }
        }
        // At the end (no location) unless the list closed before the "]"
        // that was added: then find its own "]" (the last one before the
        // next token) for the caller's tail.
        const char* next = nullptr;
        if (doc.current_location().get(next)) return;
        const char* p = next;
        while (p > wrapped + 1 && p[-1] != ']')
            --p;
        out.end = ParsedChunk::End::ListClosed;
        out.list_close = static_cast<size_t>(p - 1 - (wrapped + 1));
    } catch (const ChunkFailed&) {
        out.clear();
        out.end = ParsedChunk::End::Failed;
    }
}

} // namespace ts
