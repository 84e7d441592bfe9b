#pragma once
// The options a view takes on the command line (`trace-stats --view idle
// --kernel-wait-us 10`), declared with its catalog entry (ViewCatalog.cpp):
// the option's name, the kind of value with its range or choices, its
// default and a help line. The CLI registers, checks and documents every
// option from these declarations, and the printers read the checked, typed
// values (OptionValues). Nothing here reads a command line, so that the GUI
// can take a threshold field's range and default from the same declaration.
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace ts::views {

enum class ValueKind {
    Whole,    // an integer in [min, max]
    Micros,   // microseconds (decimals allowed) in [min, max], read as ns
    Decimal,  // a number in [min, max]
    Choice,   // one of `choices`
    Text,     // any text
    TextList, // any text; the option may be given several times
    Flag,     // no value: given or not
};

struct OptionChoice {
    const char* name; // "gpu"
    const char* help; // "the ranges as the GPU ran them"
};

struct OptionInfo {
    const char* name = ""; // "--kernel-wait-us"
    ValueKind kind = ValueKind::Text;
    const char* help = ""; // what it does, one line
    double min = 0;        // Whole, Micros, Decimal: the range, inclusive
    double max = 0;        // (infinity: no upper bound but the type's)
    std::vector<OptionChoice> choices;
    // Read as if given when the option is not ("30"); null when the view
    // decides without it (then `default_note` says what it does).
    const char* default_value = nullptr;
    const char* default_note = ""; // "HTA's", or "the first step" without a value
    // What the value is, in help and messages; "" the kind's words ("a whole number").
    const char* value_words = "";

    static OptionInfo whole(const char* name, double min, double max, const char* help);
    static OptionInfo micros(const char* name, double min, double max, const char* help);
    static OptionInfo decimal(const char* name, double min, double max, const char* help);
    static OptionInfo choice(const char* name, std::vector<OptionChoice> choices, const char* help);
    static OptionInfo text(const char* name, const char* help);
    static OptionInfo textList(const char* name, const char* help);
    static OptionInfo flag(const char* name, const char* help);
    // This declaration with a default (`value` may be null: see default_value).
    OptionInfo byDefault(const char* value, const char* note = "") const;
    OptionInfo describedAs(const char* words) const;
};

// What is expected of the option's value: "a whole number from 1 to 1000000",
// "microseconds, 0 or more", "'gpu' or 'cpu'"; "" for a flag or text.
std::string expectedValue(const OptionInfo& option);
// Its default as help shows it: "30, HTA's", "the first step"; "" none.
std::string defaultText(const OptionInfo& option);
// Both: "a whole number, 0 or more; default: the first step"; "" neither.
std::string valueAndDefault(const OptionInfo& option);
// The help with them: "the step (ProfilerStep#N) to analyse (a whole
// number, 0 or more; default: the first step)".
std::string helpLine(const OptionInfo& option);
// The value's placeholder in a usage line: "US", "N", "gpu|cpu", "TEXT".
std::string valuePlaceholder(const OptionInfo& option);

// An option as given on the command line: {"--step", "3"}; a flag's text is "".
struct GivenOption {
    std::string name;
    std::string text;
};

// Who takes an option of this name, for the message refusing it elsewhere:
// "--view area and critical-path"; "" when nothing does.
using OptionTakers = std::string (*)(std::string_view name);

// The options given to a view, each checked against its declaration: the
// printers read them typed. Reading an option the view does not declare, or
// as another kind than its declaration, is a programming error
// (std::logic_error).
class OptionValues {
public:
    // `given` read against `taken`, the declarations of what they were given
    // to. Throws std::invalid_argument naming the option and its text for a
    // value of the wrong kind or out of range, and, for an option not in
    // `taken`, naming what takes it ("Option --kernel-wait-us applies to
    // --view idle only.").
    static OptionValues read(const std::vector<GivenOption>& given,
                             const std::vector<const OptionInfo*>& taken, OptionTakers takers);

    // Whether the option was given (not only defaulted).
    bool given(std::string_view name) const;
    // Its text as given, for a message; "" when not given.
    const std::string& givenText(std::string_view name) const;
    // The value given, else the declared default; nullopt without either.
    std::optional<int64_t> whole(std::string_view name) const;
    std::optional<int64_t> nanos(std::string_view name) const; // a Micros option
    std::optional<double> decimal(std::string_view name) const;
    std::optional<std::string> text(std::string_view name) const; // Choice or Text
    std::vector<std::string> texts(std::string_view name) const;  // TextList, in order
    bool flag(std::string_view name) const;

    // The options read so far, by name: a test checks that the printers read
    // every option their views declare.
    const std::set<std::string, std::less<>>& read() const { return read_; }

private:
    struct Value {
        const OptionInfo* info = nullptr;
        bool given = false;
        bool has = false; // given or defaulted
        std::vector<std::string> texts;
        int64_t whole = 0; // Whole; Micros as ns
        double number = 0; // Decimal
    };
    // The option's value, marked read; throws std::logic_error when the view
    // does not declare it, or declares it as neither of these kinds.
    const Value& value(std::string_view name, ValueKind kind, ValueKind or_kind) const;
    const Value& value(std::string_view name, ValueKind kind) const {
        return value(name, kind, kind);
    }

    std::map<std::string, Value, std::less<>> values_;
    mutable std::set<std::string, std::less<>> read_;
};

} // namespace ts::views
