#pragma once
// Placeholders for what changes from run to run, so that outputs of real runs
// (a CLI `--json` after training) can still be golden files: timestamps,
// durations, throughput, memory, paths, hostnames and versions become
// "<time>", "<duration>", ... by regular expression. Goldens prefer fixed
// inputs; masking is for what a test cannot fix.
#include <regex>
#include <string>
#include <vector>

namespace ts::test {

struct GoldenMask {
    std::regex pattern;
    std::string replacement; // std::regex_replace format: $1 is the first group
};

// Every match of `regex` (ECMAScript) becomes `placeholder`.
inline GoldenMask maskMatches(const std::string& regex, const std::string& placeholder) {
    return {std::regex(regex), placeholder};
}

// The scalar value (number, string, true/false/null) of every JSON member whose
// whole key matches `key_regex` becomes the string "<placeholder>"; the key
// and the layout stay. Objects and arrays are left alone (their members can
// be masked by key).
inline GoldenMask maskJsonValues(const std::string& key_regex, const std::string& placeholder) {
    return {std::regex("(\"(?:" + key_regex +
                       ")\"\\s*:\\s*)(?:-?[0-9][0-9.eE+-]*|\"(?:[^\"\\\\]|\\\\.)*\"|true|false|"
                       "null|NaN|-?Infinity)"),
            "$1\"<" + placeholder + ">\""};
}

inline std::string applyMasks(std::string text, const std::vector<GoldenMask>& masks) {
    for (const auto& mask : masks)
        text = std::regex_replace(text, mask.pattern, mask.replacement);
    return text;
}

// What differs between two runs of the same command on any machine. JSON keys
// follow the records' naming: *_ms / *_s / *_ns durations, *_per_sec rates,
// *_bytes memory, *_dir / *_path / file paths, *version.
inline const std::vector<GoldenMask>& volatileMasks() {
    static const std::vector<GoldenMask> kMasks = {
        maskMatches(R"(\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2})?)",
                    "<time>"),
        maskMatches(R"(\b\d{8}-\d{6}\b)", "<time>"), // run directory names
        maskJsonValues(R"([a-z0-9_]*(?:time|timestamp|started|finished)(?:_at)?)", "time"),
        maskJsonValues(R"([a-z0-9_]*_(?:ns|us|ms|s))", "duration"),
        maskJsonValues(R"([a-z0-9_]*(?:per_sec|per_s|gflops|_gbs))", "rate"),
        maskJsonValues(R"([a-z0-9_]*(?:_bytes|page_faults|memory_total|memory_available))",
                       "memory"),
        maskJsonValues(R"((?:[a-z0-9_]*_)?(?:dir|path|file))", "path"),
        maskJsonValues(R"((?:[a-z0-9_]*_)?host(?:name)?)", "host"),
        maskJsonValues(R"([a-z0-9_]*version)", "version"),
    };
    return kMasks;
}

// Markdown without its images (`![alt](file.png)`) and with runs of blank
// lines squeezed to one: the report text stays golden while the charts it
// links are added, renamed or dropped (tests/golden/README.md).
inline std::string withoutMarkdownImages(const std::string& markdown) {
    static const std::regex kImage(R"(!\[[^\]]*\]\([^)]*\))");
    const std::string text = std::regex_replace(markdown, kImage, "");
    std::string out;
    size_t blank_run = 0, start = 0;
    while (start < text.size()) {
        size_t end = text.find('\n', start);
        if (end == std::string::npos) end = text.size();
        std::string line = text.substr(start, end - start);
        const bool blank = line.find_first_not_of(" \t") == std::string::npos;
        if (blank) line.clear(); // e.g. a line that held only images
        blank_run = blank ? blank_run + 1 : 0;
        if (blank_run <= 1) out += line + (end < text.size() ? "\n" : "");
        start = end + 1;
    }
    return out;
}

} // namespace ts::test
