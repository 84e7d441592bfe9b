#include "trace/OpInputs.h"

#include <cctype>
#include <unordered_map>

#include <nlohmann/json.hpp>

namespace ts {

namespace {
const Dims kNoDims;
const std::string kNoText;

void skipSpaces(const std::string& s, size_t& i) {
    while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i])))
        ++i;
}

bool expect(const std::string& s, size_t& i, char c) {
    skipSpaces(s, i);
    if (i >= s.size() || s[i] != c) return false;
    ++i;
    return true;
}

bool parseInt(const std::string& s, size_t& i, int64_t& value) {
    skipSpaces(s, i);
    size_t end = i;
    if (end < s.size() && s[end] == '-') ++end;
    const size_t digits = end;
    while (end < s.size() && std::isdigit(static_cast<unsigned char>(s[end])))
        ++end;
    if (end == digits) return false;
    try {
        value = std::stoll(s.substr(i, end - i));
    } catch (...) {
        return false;
    }
    i = end;
    return true;
}

// One "[a, b, c]" list; nested lists inside it are skipped (TensorList dims).
bool parseOneList(const std::string& s, size_t& i, Dims& out) {
    if (!expect(s, i, '[')) return false;
    skipSpaces(s, i);
    if (i < s.size() && s[i] == ']') return ++i, true;
    while (true) {
        skipSpaces(s, i);
        if (i < s.size() && s[i] == '[') {
            Dims ignored;
            if (!parseOneList(s, i, ignored)) return false;
        } else {
            int64_t v = 0;
            if (!parseInt(s, i, v)) return false;
            out.push_back(v);
        }
        skipSpaces(s, i);
        if (i < s.size() && s[i] == ',') {
            ++i;
            continue;
        }
        return expect(s, i, ']');
    }
}

void appendQuoted(std::string& out, const std::string& text) {
    out += '"';
    for (char c : text) {
        if (c == '"' || c == '\\') out += '\\';
        if (static_cast<unsigned char>(c) >= 0x20) out += c;
    }
    out += '"';
}
} // namespace

const Dims& OpInputs::dimsAt(size_t i) const {
    return i < dims.size() ? dims[i] : kNoDims;
}
const std::string& OpInputs::argAt(size_t i) const {
    return i < args.size() ? args[i] : kNoText;
}
const std::string& OpInputs::typeAt(size_t i) const {
    return i < types.size() ? types[i] : kNoText;
}

void appendDims(std::string& out, const int64_t* sizes, size_t count) {
    out += '[';
    for (size_t i = 0; i < count; ++i) {
        if (i) out += ", ";
        out += std::to_string(sizes[i]);
    }
    out += ']';
}

std::string formatDims(const std::vector<Dims>& dims) {
    std::string out = "[";
    for (size_t i = 0; i < dims.size(); ++i) {
        if (i) out += ", ";
        appendDims(out, dims[i].data(), dims[i].size());
    }
    out += ']';
    return out;
}

std::vector<Dims> parseDims(const std::string& text) {
    std::vector<Dims> result;
    size_t i = 0;
    if (!expect(text, i, '[')) return {};
    skipSpaces(text, i);
    if (i < text.size() && text[i] == ']') return result;
    while (true) {
        Dims d;
        if (!parseOneList(text, i, d)) return {};
        result.push_back(std::move(d));
        skipSpaces(text, i);
        if (i < text.size() && text[i] == ',') {
            ++i;
            continue;
        }
        if (!expect(text, i, ']')) return {};
        return result;
    }
}

std::string formatStringList(const std::vector<std::string>& items) {
    std::string out = "[";
    for (size_t i = 0; i < items.size(); ++i) {
        if (i) out += ", ";
        appendQuoted(out, items[i]);
    }
    out += ']';
    return out;
}

std::vector<std::string> parseStringList(const std::string& text) {
    const auto json = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
    std::vector<std::string> result;
    if (!json.is_array()) return result;
    for (const auto& item : json) {
        if (item.is_string())
            result.push_back(item.get<std::string>());
        else if (item.is_null())
            result.emplace_back();
        else
            result.push_back(item.dump());
    }
    return result;
}

std::vector<int64_t> parseIntList(const std::string& value) {
    size_t i = 0;
    Dims out;
    skipSpaces(value, i);
    if (i < value.size() && value[i] == '[') {
        if (!parseOneList(value, i, out)) return {};
        return out;
    }
    int64_t v = 0;
    if (!parseInt(value, i, v)) return {};
    skipSpaces(value, i);
    return i == value.size() ? Dims{v} : Dims{};
}

int elementSize(const std::string& type_name) {
    static const std::unordered_map<std::string, int> kSizes = {{"float", 4},
                                                                {"Float", 4},
                                                                {"double", 8},
                                                                {"Double", 8},
                                                                {"c10::Half", 2},
                                                                {"Half", 2},
                                                                {"c10::BFloat16", 2},
                                                                {"BFloat16", 2},
                                                                {"long int", 8},
                                                                {"long", 8},
                                                                {"Long", 8},
                                                                {"int", 4},
                                                                {"Int", 4},
                                                                {"short int", 2},
                                                                {"short", 2},
                                                                {"Short", 2},
                                                                {"signed char", 1},
                                                                {"unsigned char", 1},
                                                                {"Byte", 1},
                                                                {"Char", 1},
                                                                {"bool", 1},
                                                                {"Bool", 1},
                                                                {"c10::complex<float>", 8},
                                                                {"c10::complex<double>", 16}};
    auto it = kSizes.find(type_name);
    return it == kSizes.end() ? 4 : it->second;
}

int64_t numel(const Dims& dims) {
    int64_t n = 1;
    for (int64_t d : dims)
        n *= d;
    return n;
}

} // namespace ts
