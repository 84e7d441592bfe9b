#include "trace/JsonRawEvent.h"

#include "trace/JsonFields.h"

namespace ts {

namespace {

using json = nlohmann::json;
using json_fields::find;

void appendSpaced(std::string& out, const json& v) {
    if (v.is_array()) {
        out += '[';
        for (size_t i = 0; i < v.size(); ++i) {
            if (i) out += ", ";
            appendSpaced(out, v[i]);
        }
        out += ']';
        return;
    }
    out += v.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string_view stringAt(const json& object, const char* key) {
    const json* v = find(object, key);
    return v && v->is_string() ? std::string_view(v->get_ref<const std::string&>())
                               : std::string_view();
}

RawNumber numberOf(const json* v) {
    if (!v) return {};
    if (v->is_number_float()) return RawNumber::ofDouble(v->get<double>());
    if (v->is_number_unsigned()) return RawNumber::ofUint(v->get<uint64_t>());
    if (v->is_number_integer()) return RawNumber::ofInt(v->get<int64_t>());
    return RawNumber::notNumber();
}

RawNumber numberAt(const json& object, const char* key) {
    return numberOf(find(object, key));
}

RawId idAt(const json& event, const char* key, std::string& text) {
    RawId id;
    const json* v = find(event, key);
    if (!v) return id;
    if (v->is_string()) {
        id.kind = RawId::Kind::String;
        id.text = v->get_ref<const std::string&>();
        return id;
    }
    text = v->dump();
    id.text = text;
    id.kind = RawId::Kind::Other;
    if (v->is_number_integer()) {
        id.kind = RawId::Kind::Integer;
        id.integer = v->get<int64_t>();
    }
    return id;
}

std::optional<std::string_view> spacedAt(const json& args, const char* key, std::string& text) {
    const json* v = find(args, key);
    if (!v || !v->is_array()) return std::nullopt;
    text.clear();
    appendSpaced(text, *v);
    return std::string_view(text);
}

// Kineto writes launch dimensions as [x, y, z].
std::array<int32_t, 3> dims(const json& args, const char* key) {
    std::array<int32_t, 3> out{-1, -1, -1};
    const json* v = find(args, key);
    if (!v || !v->is_array()) return out;
    for (size_t i = 0; i < 3 && i < v->size(); ++i)
        if ((*v)[i].is_number()) out[i] = static_cast<int32_t>((*v)[i].get<double>());
    return out;
}

} // namespace

std::string spacedJson(const json& v) {
    std::string out;
    appendSpaced(out, v);
    return out;
}

void JsonEventFeed::event(json& e) {
    if (skip_ > 0) return void(--skip_);
    RawTraceEvent r;
    r.ph = stringAt(e, "ph");
    r.name = stringAt(e, "name");
    r.cat = stringAt(e, "cat");
    r.pid = idAt(e, "pid", pid_);
    r.tid = idAt(e, "tid", tid_);
    // The stream gives "ts"/"dur" numbers as exact nanoseconds under these keys.
    r.ts_ns = numberAt(e, "ts_ns");
    r.dur_ns = numberAt(e, "dur_ns");
    r.id = numberAt(e, "id");
    const json* args = find(e, "args");
    r.has_args = args != nullptr;
    if (args && args->is_object()) {
        const json& a = *args;
        RawTraceArgs& o = r.args;
        o.input_dims_upper = spacedAt(a, "Input Dims", dims_upper_);
        o.input_dims_lower = spacedAt(a, "Input dims", dims_lower_);
        o.input_type = spacedAt(a, "Input type", types_);
        o.concrete_inputs = spacedAt(a, "Concrete Inputs", concrete_);
        if (const json* stack = find(a, "Call stack"); stack && stack->is_string())
            o.call_stack = std::string_view(stack->get_ref<const std::string&>());
        o.kind = stringAt(a, "kind");
        o.name = stringAt(a, "name");
        o.process_group = stringAt(a, "Process Group Name");
        for (size_t f = 0; f < kRawArgCount; ++f)
            if (const json* v = find(a, kRawArgKeys[f].data())) // literals: terminated
                o.set(RawArg(f), numberOf(v));
        o.grid = dims(a, "grid");
        o.block = dims(a, "block");
    }
    builder_.add(r);
}

void JsonEventFeed::meta(const std::string& key, json& value) {
    builder_.meta(key, value);
}

void JsonEventFeed::malformed() {
    if (skip_ > 0) return void(--skip_);
    RawTraceEvent r;
    r.is_object = false;
    builder_.add(r);
}

} // namespace ts
