#include "report/ViewOptions.h"

#include <charconv>
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace ts::views {

OptionInfo OptionInfo::whole(const char* name, double min, double max, const char* help) {
    OptionInfo o;
    o.name = name;
    o.kind = ValueKind::Whole;
    o.help = help;
    o.min = min;
    o.max = max;
    return o;
}

OptionInfo OptionInfo::micros(const char* name, double min, double max, const char* help) {
    OptionInfo o = whole(name, min, max, help);
    o.kind = ValueKind::Micros;
    return o;
}

OptionInfo OptionInfo::decimal(const char* name, double min, double max, const char* help) {
    OptionInfo o = whole(name, min, max, help);
    o.kind = ValueKind::Decimal;
    return o;
}

OptionInfo OptionInfo::choice(const char* name, std::vector<OptionChoice> choices,
                              const char* help) {
    OptionInfo o = text(name, help);
    o.kind = ValueKind::Choice;
    o.choices = std::move(choices);
    return o;
}

OptionInfo OptionInfo::text(const char* name, const char* help) {
    OptionInfo o;
    o.name = name;
    o.help = help;
    return o;
}

OptionInfo OptionInfo::textList(const char* name, const char* help) {
    OptionInfo o = text(name, help);
    o.kind = ValueKind::TextList;
    return o;
}

OptionInfo OptionInfo::flag(const char* name, const char* help) {
    OptionInfo o = text(name, help);
    o.kind = ValueKind::Flag;
    return o;
}

OptionInfo OptionInfo::byDefault(const char* value, const char* note) const {
    OptionInfo o = *this;
    o.default_value = value;
    o.default_note = note;
    return o;
}

OptionInfo OptionInfo::describedAs(const char* words) const {
    OptionInfo o = *this;
    o.value_words = words;
    return o;
}

namespace {

// Whole numbers without an exponent: the ranges are what a user types.
std::string numberText(double value) {
    if (std::abs(value) < 1e18 && value == std::floor(value))
        return std::to_string(static_cast<long long>(value));
    std::ostringstream out;
    out << value;
    return out.str();
}

std::string rangeWords(const OptionInfo& o) {
    if (std::isinf(o.max)) return ", " + numberText(o.min) + " or more";
    return " from " + numberText(o.min) + " to " + numberText(o.max);
}

std::string wordsOr(const OptionInfo& o, const char* kind_words) {
    return *o.value_words ? o.value_words : kind_words;
}

std::optional<int64_t> wholeNumber(const std::string& text) {
    int64_t n = 0;
    const char* end = text.data() + text.size();
    const auto [stop, error] = std::from_chars(text.data(), end, n);
    if (text.empty() || error != std::errc() || stop != end) return std::nullopt;
    return n;
}

std::optional<double> finiteNumber(const std::string& text) {
    double x = 0;
    const char* end = text.data() + text.size();
    const auto [stop, error] = std::from_chars(text.data(), end, x);
    if (text.empty() || error != std::errc() || stop != end || !std::isfinite(x))
        return std::nullopt;
    return x;
}

bool inRange(double x, const OptionInfo& o) {
    return x >= o.min && (std::isinf(o.max) || x <= o.max);
}

} // namespace

std::string expectedValue(const OptionInfo& o) {
    switch (o.kind) {
    case ValueKind::Whole:
        return wordsOr(o, "a whole number") + rangeWords(o);
    case ValueKind::Micros:
        return wordsOr(o, "microseconds") + rangeWords(o);
    case ValueKind::Decimal:
        return wordsOr(o, "a number") + rangeWords(o);
    case ValueKind::Choice: {
        std::string out;
        for (size_t i = 0; i < o.choices.size(); ++i)
            out += std::string(i == 0                      ? ""
                               : i + 1 == o.choices.size() ? " or "
                                                           : ", ") +
                   "'" + o.choices[i].name + "'";
        return out;
    }
    case ValueKind::Text:
    case ValueKind::TextList:
        return o.value_words;
    case ValueKind::Flag:
        return "";
    }
    return "";
}

std::string defaultText(const OptionInfo& o) {
    if (!o.default_value) return o.default_note;
    return std::string(o.default_value) +
           (*o.default_note ? std::string(", ") + o.default_note : "");
}

std::string valueAndDefault(const OptionInfo& o) {
    const std::string expected = expectedValue(o);
    const std::string by_default = defaultText(o);
    if (by_default.empty()) return expected;
    return expected + (expected.empty() ? "" : "; ") + "default: " + by_default;
}

std::string helpLine(const OptionInfo& o) {
    const std::string detail = valueAndDefault(o);
    return o.help + (detail.empty() ? "" : " (" + detail + ")");
}

std::string valuePlaceholder(const OptionInfo& o) {
    switch (o.kind) {
    case ValueKind::Whole:
        return "N";
    case ValueKind::Micros:
        return "US";
    case ValueKind::Decimal:
        return "X";
    case ValueKind::Choice: {
        std::string out;
        for (const OptionChoice& c : o.choices)
            out += (out.empty() ? "" : "|") + std::string(c.name);
        return out;
    }
    case ValueKind::Text:
    case ValueKind::TextList:
        return "TEXT";
    case ValueKind::Flag:
        return "";
    }
    return "";
}

namespace {

[[noreturn]] void refuse(const OptionInfo& o, const std::string& text) {
    const std::string by_default = o.default_value ? " (default: " + defaultText(o) + ")" : "";
    throw std::invalid_argument(std::string("Option ") + o.name + " is '" + text + "'; expected " +
                                expectedValue(o) + by_default + ".");
}

} // namespace

OptionValues OptionValues::read(const std::vector<GivenOption>& given,
                                const std::vector<const OptionInfo*>& taken, OptionTakers takers) {
    OptionValues values;
    for (const OptionInfo* info : taken) {
        const auto [slot, added] = values.values_.try_emplace(info->name);
        if (!added)
            throw std::logic_error(std::string("option ") + info->name + " is declared twice");
        slot->second.info = info;
    }
    // One value checked: `text` given or the default.
    const auto take = [](Value& v, const std::string& text) {
        const OptionInfo& o = *v.info;
        v.has = true;
        switch (o.kind) {
        case ValueKind::Whole: {
            const std::optional<int64_t> n = wholeNumber(text);
            if (!n || !inRange(double(*n), o)) refuse(o, text);
            v.whole = *n;
            break;
        }
        case ValueKind::Micros:
        case ValueKind::Decimal: {
            const std::optional<double> x = finiteNumber(text);
            if (!x || !inRange(*x, o)) refuse(o, text);
            v.number = *x;
            v.whole = static_cast<int64_t>(std::llround(*x * 1000));
            break;
        }
        case ValueKind::Choice: {
            bool known = false;
            for (const OptionChoice& c : o.choices)
                known = known || text == c.name;
            if (!known) refuse(o, text);
            break;
        }
        case ValueKind::Text:
        case ValueKind::TextList:
        case ValueKind::Flag:
            break;
        }
        v.texts.push_back(text);
    };
    for (const GivenOption& g : given) {
        const auto it = values.values_.find(g.name);
        if (it == values.values_.end()) {
            const std::string who = takers ? takers(g.name) : "";
            throw std::invalid_argument("Option " + g.name +
                                        (who.empty() ? " is not one this command takes."
                                                     : " applies to " + who + " only."));
        }
        Value& v = it->second;
        if (v.given && v.info->kind != ValueKind::TextList)
            throw std::invalid_argument("Option " + g.name + " is given twice ('" + v.texts[0] +
                                        "' and '" + g.text + "'); give it once.");
        v.given = true;
        take(v, g.text);
    }
    for (auto& [name, v] : values.values_)
        if (!v.given && v.info->default_value) take(v, v.info->default_value);
    return values;
}

const OptionValues::Value& OptionValues::value(std::string_view name, ValueKind kind,
                                               ValueKind or_kind) const {
    const auto it = values_.find(name);
    if (it == values_.end() || (it->second.info->kind != kind && it->second.info->kind != or_kind))
        throw std::logic_error("option " + std::string(name) +
                               " is read by a view that does not declare it so");
    read_.emplace(name);
    return it->second;
}

bool OptionValues::given(std::string_view name) const {
    const auto it = values_.find(name);
    if (it == values_.end())
        throw std::logic_error("option " + std::string(name) + " is not declared by this view");
    read_.emplace(name);
    return it->second.given;
}

const std::string& OptionValues::givenText(std::string_view name) const {
    static const std::string none;
    const auto it = values_.find(name);
    return given(name) ? it->second.texts.front() : none;
}

std::optional<int64_t> OptionValues::whole(std::string_view name) const {
    const Value& v = value(name, ValueKind::Whole);
    return v.has ? std::optional<int64_t>(v.whole) : std::nullopt;
}

std::optional<int64_t> OptionValues::nanos(std::string_view name) const {
    const Value& v = value(name, ValueKind::Micros);
    return v.has ? std::optional<int64_t>(v.whole) : std::nullopt;
}

std::optional<double> OptionValues::decimal(std::string_view name) const {
    const Value& v = value(name, ValueKind::Decimal);
    return v.has ? std::optional<double>(v.number) : std::nullopt;
}

std::optional<std::string> OptionValues::text(std::string_view name) const {
    const Value& v = value(name, ValueKind::Choice, ValueKind::Text);
    return v.has ? std::optional<std::string>(v.texts.front()) : std::nullopt;
}

std::vector<std::string> OptionValues::texts(std::string_view name) const {
    return value(name, ValueKind::TextList).texts;
}

bool OptionValues::flag(std::string_view name) const {
    return value(name, ValueKind::Flag).has;
}

} // namespace ts::views
