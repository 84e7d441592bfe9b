// The tables of texts: names, strings, trace_info, and the schema itself
// (tables, columns), read from the declarations that SqlSchema.h lists.
#include <deque>
#include <utility>

#include "query/SqlColumns.h"

namespace ts {
namespace {

// A text with its number (names.id, strings.id).
struct NumberedText {
    int64_t id;
    std::string_view text;
};

SqlCell numberOf(const NumberedText& r) {
    return SqlCell::integer(r.id);
}
SqlCell textOf(const NumberedText& r) {
    return SqlCell::text(r.text);
}

constexpr SqlColumnOf<NumberedText> kNameColumns[] = {
    {"id", "INTEGER", "name_id", numberOf},
    {"name", "TEXT", "the name", textOf},
};
constexpr SqlColumnOf<NumberedText> kStringColumns[] = {
    {"id", "INTEGER", "string_id", numberOf},
    {"text", "TEXT", "the text", textOf},
};

// names and strings: a list of the trace, by number.
template <SqlTableId Id, std::vector<std::string> Trace::*List, const auto& Columns>
class NumberedTextRows final : public SqlRows {
public:
    using SqlRows::SqlRows;
    const SqlTableDef& def() const override { return sqlTable(Id); }
    size_t size() const override { return list().size(); }
    std::optional<PositionRange> rangeOfId(int64_t id) const override { return positionOf(id); }
    SqlCell cell(size_t pos, int column) const override {
        return Columns[column].cell(NumberedText{int64_t(pos), list()[pos]});
    }

private:
    const std::vector<std::string>& list() const { return context_.trace().*List; }
};

using NameRows = NumberedTextRows<SqlTableId::Names, &Trace::names, kNameColumns>;
using StringRows = NumberedTextRows<SqlTableId::Strings, &Trace::strings, kStringColumns>;

using KeyValue = std::pair<std::string, std::string>;

constexpr SqlColumnOf<KeyValue> kInfoColumns[] = {
    {"key", "TEXT", "", [](const KeyValue& r) { return SqlCell::text(r.first); }},
    {"value", "TEXT", "", [](const KeyValue& r) { return SqlCell::text(r.second); }},
};

// trace_info: facts about the trace, as text, gathered once.
class InfoRows final : public SqlRows {
public:
    explicit InfoRows(const SqlTraceContext& c) : SqlRows(c) {
        const Trace& t = c.trace();
        add("source", t.source);
        add("origin_ns", std::to_string(t.origin_ns));
        add("events", std::to_string(t.events.size()));
        add("lanes", std::to_string(t.lanes.size()));
        add("steps", std::to_string(t.steps.size()));
        for (const std::string& note : t.notes)
            add("note", note);
        if (!t.kineto.framework.empty()) add("framework", t.kineto.framework);
        if (!t.kineto.distributed_info.empty()) add("distributed_info", t.kineto.distributed_info);
        for (const DeviceProperties& d : t.kineto.devices)
            add("device " + std::to_string(d.id),
                d.name + ", " + std::to_string(d.total_global_mem) + " bytes, " +
                    std::to_string(d.num_sms) + " SMs, compute " + std::to_string(d.compute_major) +
                    "." + std::to_string(d.compute_minor));
        add("trainscope_version", TRAINSCOPE_VERSION);
    }
    const SqlTableDef& def() const override { return sqlTable(SqlTableId::TraceInfo); }
    size_t size() const override { return rows_.size(); }
    SqlCell cell(size_t pos, int column) const override {
        return kInfoColumns[column].cell(rows_[pos]);
    }

private:
    void add(std::string key, std::string value) {
        rows_.emplace_back(std::move(key), std::move(value));
    }

    std::deque<KeyValue> rows_; // stable for SqlCell::text
};

constexpr SqlColumnOf<SqlTableDef> kTableColumns[] = {
    {"name", "TEXT", "", [](const SqlTableDef& t) { return SqlCell::text(t.name); }},
    {"doc", "TEXT", "", [](const SqlTableDef& t) { return SqlCell::text(t.doc); }},
};

// tables: sqlTables() as it is.
class TableRows final : public SqlRows {
public:
    using SqlRows::SqlRows;
    const SqlTableDef& def() const override { return sqlTable(SqlTableId::Tables); }
    size_t size() const override { return sqlTables().size(); }
    SqlCell cell(size_t pos, int column) const override {
        return kTableColumns[column].cell(sqlTables()[pos]);
    }
};

struct TableColumn {
    const SqlTableDef* table;
    const SqlColumn* column;
};

constexpr SqlColumnOf<TableColumn> kColumnColumns[] = {
    {"table_name", "TEXT", "", [](const TableColumn& r) { return SqlCell::text(r.table->name); }},
    {"name", "TEXT", "", [](const TableColumn& r) { return SqlCell::text(r.column->name); }},
    {"type", "TEXT", "", [](const TableColumn& r) { return SqlCell::text(r.column->type); }},
    {"doc", "TEXT", "", [](const TableColumn& r) { return SqlCell::text(r.column->doc); }},
};

// columns: every column of sqlTables(), table by table.
class ColumnRows final : public SqlRows {
public:
    explicit ColumnRows(const SqlTraceContext& c) : SqlRows(c) {
        for (const SqlTableDef& t : sqlTables())
            for (const SqlColumn& column : t.columns)
                rows_.push_back({&t, &column});
    }
    const SqlTableDef& def() const override { return sqlTable(SqlTableId::Columns); }
    size_t size() const override { return rows_.size(); }
    SqlCell cell(size_t pos, int column) const override {
        return kColumnColumns[column].cell(rows_[pos]);
    }

private:
    std::vector<TableColumn> rows_;
};

} // namespace

SqlTableDef namesTable() {
    return declareSqlTable<NameRows>(
        {SqlTableId::Names, "names", "every distinct event name", "id"}, kNameColumns);
}

SqlTableDef stringsTable() {
    return declareSqlTable<StringRows>({SqlTableId::Strings, "strings",
                                        "every distinct text of args (shapes, types, call stacks)",
                                        "id"},
                                       kStringColumns);
}

SqlTableDef traceInfoTable() {
    return declareSqlTable<InfoRows>(
        {SqlTableId::TraceInfo, "trace_info", "about the trace: source, origin_ns, events, notes"},
        kInfoColumns);
}

SqlTableDef tablesTable() {
    return declareSqlTable<TableRows>(
        {SqlTableId::Tables, "tables", "these tables", nullptr, false}, kTableColumns);
}

SqlTableDef columnsTable() {
    return declareSqlTable<ColumnRows>(
        {SqlTableId::Columns, "columns", "every column of every table", nullptr, false},
        kColumnColumns);
}

} // namespace ts
