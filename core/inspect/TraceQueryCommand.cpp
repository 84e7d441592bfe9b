#include "inspect/TraceQueryCommand.h"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <optional>

#include <nlohmann/json.hpp>

#include "inspect/ExitCodes.h"
#include "inspect/TraceInput.h"
#include "inspect/TraceStatsCommand.h"
#include "inspect/TraceViewPrinters.h"
#include "query/TraceDatabase.h"
#include "sources/SourceRegistry.h"
#include "trace/RankTimeline.h"
#include "util/Csv.h"
#include "util/NumberText.h"

namespace ts {
namespace {

std::string cellText(const SqlCell& c) {
    switch (c.type) {
    case SqlCell::Null:
        return "";
    case SqlCell::Int:
        return std::to_string(c.i);
    case SqlCell::Real:
        return numberText("%.10g", c.d);
    case SqlCell::Text:
        return std::string(c.s);
    }
    return "";
}

nlohmann::json cellJson(const SqlCell& c) {
    switch (c.type) {
    case SqlCell::Int:
        return c.i;
    case SqlCell::Real:
        return c.d;
    case SqlCell::Text:
        return std::string(c.s);
    default:
        return nullptr;
    }
}

// Writes rows as they come. Text aligns its columns on the first rows and
// keeps those widths for the rest (a longer value pushes its line only).
class RowWriter {
public:
    RowWriter(const std::string& format, std::ostream& out) : format_(format), out_(out) {}
    void header(std::vector<std::string> names) {
        names_ = std::move(names);
        started_ = true;
        if (format_ == "csv") out_ << csvLine(names_) << '\n';
        if (format_ == "tsv") writeTsv(names_);
        if (format_ == "json") out_ << "[";
    }
    void row(const SqlStatement& stmt) {
        std::vector<std::string> cells;
        if (format_ == "json") {
            nlohmann::ordered_json o;
            for (int c = 0; c < int(names_.size()); ++c)
                o[names_[size_t(c)]] = cellJson(stmt.value(c));
            out_ << (rows_ ? ",\n " : "\n ") << o.dump();
        } else {
            for (int c = 0; c < int(names_.size()); ++c)
                cells.push_back(cellText(stmt.value(c)));
            if (format_ == "csv") out_ << csvLine(cells) << '\n';
            if (format_ == "tsv") writeTsv(cells);
            if (format_ == "text") bufferText(std::move(cells));
        }
        ++rows_;
    }
    void finish() {
        if (!started_) return;
        if (format_ == "json") out_ << (rows_ ? "\n]\n" : "]\n");
        if (format_ == "text") flushText();
    }
    size_t rows() const { return rows_; }

private:
    static constexpr size_t kAlignRows = 200;
    void writeTsv(const std::vector<std::string>& cells) {
        for (size_t i = 0; i < cells.size(); ++i) {
            std::string c = cells[i];
            std::replace(c.begin(), c.end(), '\t', ' ');
            std::replace(c.begin(), c.end(), '\n', ' ');
            out_ << (i ? "\t" : "") << c;
        }
        out_ << '\n';
    }
    void bufferText(std::vector<std::string> cells) {
        if (widths_.empty()) {
            buffer_.push_back(std::move(cells));
            if (buffer_.size() >= kAlignRows) flushText();
        } else {
            writeText(cells);
        }
    }
    void flushText() {
        if (!widths_.empty()) return;
        widths_.assign(names_.size(), 0);
        for (size_t i = 0; i < names_.size(); ++i)
            widths_[i] = names_[i].size();
        for (const auto& r : buffer_)
            for (size_t i = 0; i < r.size(); ++i)
                widths_[i] = std::max(widths_[i], std::min<size_t>(r[i].size(), 80));
        writeText(names_);
        for (size_t i = 0; i < names_.size(); ++i)
            out_ << (i ? "  " : "") << std::string(widths_[i], '-');
        out_ << '\n';
        for (const auto& r : buffer_)
            writeText(r);
        buffer_.clear();
    }
    void writeText(const std::vector<std::string>& cells) {
        for (size_t i = 0; i < cells.size(); ++i) {
            out_ << (i ? "  " : "") << cells[i];
            if (i + 1 < cells.size() && cells[i].size() < widths_[i])
                out_ << std::string(widths_[i] - cells[i].size(), ' ');
        }
        out_ << '\n';
    }

    std::string format_;
    std::ostream& out_;
    std::vector<std::string> names_;
    std::vector<std::vector<std::string>> buffer_;
    std::vector<size_t> widths_;
    size_t rows_ = 0;
    bool started_ = false;
};

void printSchema(std::ostream& out) {
    for (const SqlTableDef& t : sqlTables()) {
        out << t.name << ": " << t.doc << '\n';
        for (const SqlColumn& c : t.columns)
            out << "  " << c.name << ' ' << c.type << (*c.doc ? "  " : "") << c.doc << '\n';
    }
}

// "near "SELEC": syntax error", the query, and a caret under the place.
void printError(const TraceQueryOptions& o, const SqlError& e, std::ostream& err) {
    err << "trace-query: " << o.file << ": " << e.what() << '\n';
    if (e.offset() >= 0 && size_t(e.offset()) <= o.sql.size()) {
        const size_t line_start = o.sql.rfind('\n', e.offset() ? size_t(e.offset()) - 1 : 0);
        const size_t from = line_start == std::string::npos ? 0 : line_start + 1;
        const size_t line_end = o.sql.find('\n', size_t(e.offset()));
        err << "  "
            << o.sql.substr(from,
                            line_end == std::string::npos ? std::string::npos : line_end - from)
            << "\n  " << std::string(size_t(e.offset()) - from, ' ') << "^\n";
    }
    if (!e.hint().empty()) err << e.hint();
}

// The trace to query: a file, or a folder of rank traces as one timeline
// (every rank's lanes, the slices' rank column set), as the GUI shows it.
class QueryInput {
public:
    QueryInput(const TraceQueryOptions& o, std::ostream& err) {
        const sources::SourceKind& kind =
            sources::requireKind(sources::recognise(o.file),
                                 {views::Input::Trace, views::Input::TraceOrRanks}, "trace-query");
        if (&kind == &sources::sourceKind("rank-folder")) {
            TraceStatsOptions folder;
            folder.file = o.file;
            int count = 0;
            merged_ = mergeRankTraces(readRankSpan(printers::chosenSpan(folder, count)));
            return;
        }
        TraceInput::Options input_options;
        input_options.cache = o.cache;
        file_.emplace(o.file, input_options, err);
    }
    const Trace& trace() const { return file_ ? file_->trace() : merged_; }

private:
    std::optional<TraceInput> file_;
    Trace merged_;
};

// "start_ns=1200" and "step=null" as :start_ns -> 1200, :step -> NULL.
SqlParameters parseParameters(const std::vector<std::string>& given) {
    SqlParameters out;
    for (const std::string& text : given) {
        const size_t eq = text.find('=');
        const std::string name = eq == std::string::npos ? "" : text.substr(0, eq);
        const std::string value = eq == std::string::npos ? "" : text.substr(eq + 1);
        int64_t number = 0;
        const auto [end, error] =
            std::from_chars(value.data(), value.data() + value.size(), number);
        const bool is_null = value == "null" || value == "NULL";
        if (name.empty() ||
            (!is_null && (error != std::errc() || end != value.data() + value.size())))
            throw std::invalid_argument("Option --param is '" + text +
                                        "'; expected NAME=VALUE, VALUE a whole number or null "
                                        "(--param start_ns=1200000)");
        out.emplace_back(":" + name, is_null ? std::nullopt : std::optional<int64_t>(number));
    }
    return out;
}

} // namespace

int runTraceQuery(const TraceQueryOptions& o, std::ostream& out, std::ostream& err) {
    if (o.schema) return printSchema(out), exit_code::kOk;
    const std::string formats[] = {"text", "csv", "tsv", "json"};
    if (std::find(std::begin(formats), std::end(formats), o.format) == std::end(formats)) {
        err << "trace-query: --format " << o.format << " is not one of text, csv, tsv, json\n";
        return exit_code::kBadInput;
    }
    if (o.sql.empty()) {
        err << "trace-query: give the query after the file: trace-query FILE \"SELECT ...\" "
               "(--schema lists the tables)\n";
        return exit_code::kBadInput;
    }
    try {
        const SqlParameters parameters = parseParameters(o.params);
        const QueryInput input(o, err);
        TraceDatabase db(input.trace());
        RowWriter writer(o.format, out);
        try {
            std::unique_ptr<SqlStatement> stmt = db.prepare(o.sql);
            bindParameters(*stmt, parameters);
            std::vector<std::string> names;
            for (int c = 0; c < stmt->columns(); ++c)
                names.push_back(stmt->columnName(c));
            writer.header(names);
            while ((o.max_rows == 0 || writer.rows() < o.max_rows) && stmt->next())
                writer.row(*stmt);
            writer.finish();
        } catch (const SqlError& e) {
            writer.finish();
            printError(o, e, err);
            return exit_code::kBadInput;
        }
        return exit_code::kOk;
    } catch (const std::exception& e) {
        err << "trace-query: " << e.what() << '\n';
        return exit_code::kBadInput;
    }
}

} // namespace ts
