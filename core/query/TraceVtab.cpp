#include "query/TraceVtab.h"

#include <sqlite3.h>

#include <algorithm>
#include <cmath>
#include <cstring>

namespace ts {
namespace {

// What xBestIndex pushes down, as idxNum bits; xFilter's argv holds the
// values in this order. Every constraint stays checked by SQLite as well
// (omit = 0): the module only narrows what it reads, and narrows only where
// the value makes that certain, so a REAL, TEXT or NULL value never loses a
// row SQLite would keep.
enum Plan : int {
    kId = 1,       // rowid column = ?
    kLane = 2,     // lane = ?
    kTsLow = 4,    // ts > / >= ?
    kTsHigh = 8,   // ts < / <= ?
    kEndLow = 16,  // end_ts > / >= ?
    kNameId = 32,  // name_id = ?
    kName = 64,    // name = ? (BINARY)
    kByName = 128, // rows in name order (GROUP BY name, ORDER BY name)
};
constexpr int kArgOrder[] = {kId, kLane, kTsLow, kTsHigh, kEndLow, kNameId, kName};

struct ModuleAux {
    TraceVtabContext* context;
    SqlTableId table;
};

struct Vtab {
    sqlite3_vtab base{};
    TraceVtabContext* context = nullptr;
    const SqlRows* rows = nullptr;
    SqlTableId table{};
};

struct Columns {
    int id = -1, ts = -1, end_ts = -1, lane = -1, name = -1, name_id = -1;
};

Columns columnsOf(const SqlTableDef& def) {
    Columns c;
    // What rangeOfId searches: the rowid, or the event of args' rows.
    c.id = def.rowid_column >= 0        ? def.rowid_column
           : def.id == SqlTableId::Args ? sqlColumnIndex(def, "event_id")
                                        : -1;
    if (def.id == SqlTableId::Slices || def.id == SqlTableId::Kernels) {
        c.ts = sqlColumnIndex(def, "ts");
        c.end_ts = sqlColumnIndex(def, "end_ts");
        c.lane = sqlColumnIndex(def, "lane");
        c.name = sqlColumnIndex(def, "name");
        c.name_id = sqlColumnIndex(def, "name_id");
    }
    return c;
}

// A value as a bound: the integer it certainly implies, or nothing.
enum class Bound { Lower, Upper, Equal };
std::optional<int64_t> boundOf(sqlite3_value* v, Bound kind) {
    switch (sqlite3_value_numeric_type(v)) {
    case SQLITE_INTEGER:
        return sqlite3_value_int64(v);
    case SQLITE_FLOAT: {
        const double d = sqlite3_value_double(v);
        if (!std::isfinite(d) || std::fabs(d) > 9e18) return std::nullopt;
        if (kind == Bound::Lower) return int64_t(std::ceil(d));
        if (kind == Bound::Upper) return int64_t(std::floor(d));
        return d == std::floor(d) ? std::optional<int64_t>(int64_t(d)) : std::nullopt;
    }
    default:
        return std::nullopt;
    }
}

struct Cursor {
    sqlite3_vtab_cursor base{};
    const SqlRows* rows = nullptr;
    const std::vector<uint32_t>* by_name = nullptr; // ranges index this when set
    std::vector<PositionRange> ranges;
    size_t range = 0, at = 0; // ranges[range], at its place `at`
    size_t pos = 0;           // the current row's position
    // Residual checks (the same as the ranges', for the name orders).
    std::optional<int64_t> lane, ts_low, ts_high, end_low;
    bool empty = false;

    bool eof() const { return empty || range >= ranges.size(); }
};

Vtab* vtabOf(sqlite3_vtab_cursor* c) {
    return reinterpret_cast<Vtab*>(c->pVtab);
}
Cursor* cursorOf(sqlite3_vtab_cursor* c) {
    return reinterpret_cast<Cursor*>(c);
}

int fail(sqlite3_vtab* vtab, const char* what) {
    sqlite3_free(vtab->zErrMsg);
    vtab->zErrMsg = sqlite3_mprintf("%s", what);
    return SQLITE_ERROR;
}

int xConnect(sqlite3* db, void* aux, int, const char* const*, sqlite3_vtab** out, char** err) {
    const auto* a = static_cast<const ModuleAux*>(aux);
    const SqlTableDef& def = sqlTable(a->table);
    const int rc = sqlite3_declare_vtab(db, sqlCreateStatement(def, "x").c_str());
    if (rc != SQLITE_OK) {
        *err = sqlite3_mprintf("%s", sqlite3_errmsg(db));
        return rc;
    }
    sqlite3_vtab_config(db, SQLITE_VTAB_INNOCUOUS);
    auto* v = new (std::nothrow) Vtab;
    if (!v) return SQLITE_NOMEM;
    v->context = a->context;
    v->rows = &a->context->rows(a->table);
    v->table = a->table;
    *out = &v->base;
    return SQLITE_OK;
}

int xDisconnect(sqlite3_vtab* v) {
    delete reinterpret_cast<Vtab*>(v);
    return SQLITE_OK;
}

// Which pushed-down constraint a usable one is, 0 none.
int planBitOf(const Columns& c, const sqlite3_index_info::sqlite3_index_constraint& k,
              sqlite3_index_info* info, int i, bool has_ids) {
    const int col = k.iColumn;
    const bool eq = k.op == SQLITE_INDEX_CONSTRAINT_EQ;
    const bool low = k.op == SQLITE_INDEX_CONSTRAINT_GT || k.op == SQLITE_INDEX_CONSTRAINT_GE;
    const bool high = k.op == SQLITE_INDEX_CONSTRAINT_LT || k.op == SQLITE_INDEX_CONSTRAINT_LE;
    if (eq && has_ids && (col == -1 || col == c.id)) return kId;
    if (col < 0) return 0;
    if (eq && col == c.lane) return kLane;
    if (low && col == c.ts) return kTsLow;
    if (high && col == c.ts) return kTsHigh;
    if (low && col == c.end_ts) return kEndLow;
    if (eq && col == c.name_id) return kNameId;
    if (eq && col == c.name) {
        const char* coll = sqlite3_vtab_collation(info, i);
        if (!coll || sqlite3_stricmp(coll, "BINARY") == 0) return kName;
    }
    return 0;
}

// Whether the rows can come in the ORDER BY's (or GROUP BY's) order.
// A GROUP BY only needs equal keys side by side (sqlite3_vtab_distinct 1),
// in either direction (SQLite asks for a descending GROUP BY when the
// ORDER BY is descending).
bool nameOrderServes(const Columns& c, sqlite3_index_info* info) {
    if (info->nOrderBy != 1) return false;
    const bool grouping = sqlite3_vtab_distinct(info) >= 1;
    if (info->aOrderBy[0].desc && !grouping) return false;
    const int col = info->aOrderBy[0].iColumn;
    if (col == c.name) return true; // byte order = BINARY collation
    return col == c.name_id && grouping;
}

bool storeOrderServes(const Columns& c, sqlite3_index_info* info) {
    if (info->nOrderBy != 1 || info->aOrderBy[0].desc) return false;
    return info->aOrderBy[0].iColumn == c.id || info->aOrderBy[0].iColumn == -1;
}

int xBestIndex(sqlite3_vtab* vtab, sqlite3_index_info* info) {
    const auto* v = reinterpret_cast<Vtab*>(vtab);
    const Columns c = columnsOf(v->rows->def());
    const bool has_ids = c.id >= 0 && v->rows->rangeOfId(0).has_value();
    int where[std::size(kArgOrder)];
    std::fill(std::begin(where), std::end(where), -1);
    int plan = 0;
    bool in_list = false;
    for (int i = 0; i < info->nConstraint; ++i) {
        const auto& k = info->aConstraint[i];
        if (!k.usable) continue;
        const int bit = planBitOf(c, k, info, i, has_ids);
        if (!bit || (plan & bit)) continue;
        plan |= bit;
        const int slot =
            int(std::find(std::begin(kArgOrder), std::end(kArgOrder), bit) - std::begin(kArgOrder));
        where[slot] = i;
        if (bit & (kName | kNameId | kLane | kId)) in_list |= sqlite3_vtab_in(info, i, -1) != 0;
    }
    // Names and ids narrow the most; a lane or time range next; the name
    // order serves GROUP BY name when nothing narrows (a sort of a few rows
    // costs less than reading all of them in name order).
    double rows = double(v->rows->size()) + 1;
    if (plan & kId) {
        plan = kId;
        rows = v->table == SqlTableId::Args ? 13 : 1;
        info->idxFlags = v->table == SqlTableId::Args ? 0 : SQLITE_INDEX_SCAN_UNIQUE;
    } else if (plan & (kName | kNameId)) {
        plan &= ~(kName & plan ? kNameId : 0);
        rows = std::max(1.0, rows / 1000);
        if (nameOrderServes(c, info) && (!in_list || sqlite3_vtab_distinct(info) >= 1))
            info->orderByConsumed = 1;
    } else if (plan & (kLane | kTsLow | kTsHigh | kEndLow)) {
        if (plan & kLane) rows /= 8;
        if (plan & kTsLow) rows /= 4;
        if (plan & kTsHigh) rows /= 4;
        if (plan & kEndLow) rows /= 2;
        rows = std::max(rows, 1.0);
    } else if (c.name >= 0 && nameOrderServes(c, info)) {
        plan |= kByName;
        info->orderByConsumed = 1;
    }
    if (c.id >= 0 && !(plan & kByName) && storeOrderServes(c, info)) info->orderByConsumed = 1;
    int argv = 0;
    for (size_t slot = 0; slot < std::size(kArgOrder); ++slot)
        if ((plan & kArgOrder[slot]) && where[slot] >= 0)
            info->aConstraintUsage[where[slot]].argvIndex = ++argv;
    info->idxNum = plan;
    info->estimatedRows = sqlite3_int64(rows);
    // A full scan must look clearly dearer than any narrowed one.
    info->estimatedCost = plan ? rows * 2 : rows * 4;
    return SQLITE_OK;
}

int xOpen(sqlite3_vtab* vtab, sqlite3_vtab_cursor** out) {
    auto* cur = new (std::nothrow) Cursor;
    if (!cur) return SQLITE_NOMEM;
    cur->rows = reinterpret_cast<Vtab*>(vtab)->rows;
    *out = &cur->base;
    return SQLITE_OK;
}

int xClose(sqlite3_vtab_cursor* c) {
    delete cursorOf(c);
    return SQLITE_OK;
}

bool passes(const Cursor& cur, size_t pos) {
    if (cur.rows->eventOrdered() && (cur.lane || cur.ts_low || cur.ts_high || cur.end_low)) {
        const EventCore& e =
            cur.rows->context().trace().events.core(size_t(cur.rows->eventAt(pos)));
        if (cur.lane && e.lane != *cur.lane) return false;
        if (cur.ts_low && e.start_ns < *cur.ts_low) return false;
        if (cur.ts_high && e.start_ns > *cur.ts_high) return false;
        if (cur.end_low && e.end_ns() < *cur.end_low) return false;
    }
    return cur.rows->present(pos);
}

// Moves to the first row at or after the cursor's place that passes.
int settle(Cursor& cur, const TraceVtabContext& context) {
    size_t checked = 0;
    while (cur.range < cur.ranges.size()) {
        const PositionRange r = cur.ranges[cur.range];
        if (cur.at < r.first) cur.at = r.first;
        for (; cur.at < r.second; ++cur.at) {
            const size_t pos = cur.by_name ? (*cur.by_name)[cur.at] : cur.at;
            if (passes(cur, pos)) {
                cur.pos = pos;
                return SQLITE_OK;
            }
            // A long skip runs no SQLite instruction: check the cancel here.
            if ((++checked & 0xFFFF) == 0 && context.cancel.load(std::memory_order_relaxed))
                return SQLITE_INTERRUPT;
        }
        ++cur.range;
        cur.at = 0;
    }
    return SQLITE_OK;
}

// The ranges of an event-ordered table for a lane and time plan.
void laneRanges(Cursor& cur, const EventOrder& order) {
    const int64_t first = cur.lane ? *cur.lane : 0;
    const int64_t last = cur.lane ? *cur.lane + 1 : order.lanes();
    for (int64_t l = std::max<int64_t>(first, 0); l < std::min(last, order.lanes()); ++l) {
        PositionRange r = order.lane(l);
        if (cur.ts_low) r.first = std::max(r.first, order.firstFrom(r, *cur.ts_low));
        // end_ts >= t needs ts >= t - the lane's longest event.
        if (cur.end_low)
            r.first = std::max(r.first, order.firstFrom(r, *cur.end_low - order.longest(l)));
        if (cur.ts_high && *cur.ts_high < INT64_MAX)
            r.second = std::min(r.second, order.firstFrom(r, *cur.ts_high + 1));
        if (r.first < r.second) cur.ranges.push_back(r);
    }
}

int filter(Cursor& cur, const Vtab& v, int plan, int argc, sqlite3_value** argv) {
    cur.ranges.clear();
    cur.range = cur.at = 0;
    cur.by_name = nullptr;
    cur.lane = cur.ts_low = cur.ts_high = cur.end_low = std::nullopt;
    cur.empty = false;
    const TraceVtabContext& context = *v.context;
    int arg = 0;
    std::optional<int64_t> id, name_id;
    for (int bit : kArgOrder) {
        if (!(plan & bit) || arg >= argc) continue;
        sqlite3_value* value = argv[arg++];
        if (sqlite3_value_type(value) == SQLITE_NULL) cur.empty = true; // x = NULL: no row
        switch (bit) {
        case kId:
            id = boundOf(value, Bound::Equal);
            break;
        case kLane:
            cur.lane = boundOf(value, Bound::Equal);
            break;
        case kTsLow:
            cur.ts_low = boundOf(value, Bound::Lower);
            break;
        case kTsHigh:
            cur.ts_high = boundOf(value, Bound::Upper);
            break;
        case kEndLow:
            cur.end_low = boundOf(value, Bound::Lower);
            break;
        case kNameId:
            name_id = boundOf(value, Bound::Equal);
            break;
        case kName:
            if (sqlite3_value_type(value) == SQLITE_TEXT) {
                const auto* text = reinterpret_cast<const char*>(sqlite3_value_text(value));
                name_id =
                    context.nameId(std::string_view(text, size_t(sqlite3_value_bytes(value))));
                if (*name_id < 0) cur.empty = true;
            }
            break;
        }
    }
    if (cur.empty) return SQLITE_OK;
    const SqlRows& rows = *v.rows;
    if (plan & kId) {
        if (id)
            cur.ranges.push_back(*rows.rangeOfId(*id));
        else
            cur.ranges.push_back({0, rows.size()});
    } else if (rows.eventOrdered() && (name_id || (plan & kByName))) {
        const EventOrder& order = context.order(v.table);
        cur.by_name = &order.byName();
        cur.ranges.push_back(name_id ? order.nameRange(*name_id)
                                     : PositionRange{0, cur.by_name->size()});
    } else if (rows.eventOrdered() && (cur.lane || cur.ts_low || cur.ts_high || cur.end_low)) {
        laneRanges(cur, context.order(v.table));
    } else {
        cur.ranges.push_back({0, rows.size()});
    }
    return settle(cur, context);
}

template <typename F> int guarded(sqlite3_vtab* vtab, F&& f) {
    try {
        return f();
    } catch (const std::exception& e) {
        return fail(vtab, e.what());
    }
}

int xFilter(sqlite3_vtab_cursor* c, int plan, const char*, int argc, sqlite3_value** argv) {
    return guarded(c->pVtab, [&] {
        const int rc = filter(*cursorOf(c), *vtabOf(c), plan, argc, argv);
        return rc == SQLITE_INTERRUPT ? fail(c->pVtab, "interrupted") : rc;
    });
}

int xNext(sqlite3_vtab_cursor* c) {
    return guarded(c->pVtab, [&] {
        Cursor& cur = *cursorOf(c);
        ++cur.at;
        const int rc = settle(cur, *vtabOf(c)->context);
        return rc == SQLITE_INTERRUPT ? fail(c->pVtab, "interrupted") : rc;
    });
}

int xEof(sqlite3_vtab_cursor* c) {
    return cursorOf(c)->eof() ? 1 : 0;
}

int xColumn(sqlite3_vtab_cursor* c, sqlite3_context* ctx, int column) {
    return guarded(c->pVtab, [&] {
        const Cursor& cur = *cursorOf(c);
        const SqlCell cell = cur.rows->cell(cur.pos, column);
        switch (cell.type) {
        case SqlCell::Null:
            sqlite3_result_null(ctx);
            break;
        case SqlCell::Int:
            sqlite3_result_int64(ctx, cell.i);
            break;
        case SqlCell::Real:
            sqlite3_result_double(ctx, cell.d);
            break;
        case SqlCell::Text:
            // The trace does not change while the connection is open.
            sqlite3_result_text(ctx, cell.s.data(), int(cell.s.size()), SQLITE_STATIC);
            break;
        }
        return SQLITE_OK;
    });
}

int xRowid(sqlite3_vtab_cursor* c, sqlite3_int64* rowid) {
    const Cursor& cur = *cursorOf(c);
    *rowid = cur.rows->rowid(cur.pos);
    return SQLITE_OK;
}

// No xCreate: eponymous-only ("SELECT ... FROM slices" works, CREATE
// VIRTUAL TABLE does not); no xUpdate: read-only.
sqlite3_module makeModule() {
    sqlite3_module m{};
    m.iVersion = 2;
    m.xConnect = xConnect;
    m.xBestIndex = xBestIndex;
    m.xDisconnect = xDisconnect;
    m.xOpen = xOpen;
    m.xClose = xClose;
    m.xFilter = xFilter;
    m.xNext = xNext;
    m.xEof = xEof;
    m.xColumn = xColumn;
    m.xRowid = xRowid;
    return m;
}

const sqlite3_module kModule = makeModule();

} // namespace

TraceVtabContext::TraceVtabContext(const Trace& trace) : trace_context_(trace) {
    rows_ = makeSqlRows(trace_context_);
    orders_.resize(rows_.size());
}

TraceVtabContext::~TraceVtabContext() = default;

const EventOrder& TraceVtabContext::order(SqlTableId id) const {
    std::unique_ptr<EventOrder>& o = orders_[size_t(id)];
    if (!o) o = std::make_unique<EventOrder>(*rows_[size_t(id)]);
    return *o;
}

int64_t TraceVtabContext::nameId(std::string_view name) const {
    const Trace& trace = trace_context_.trace();
    if (names_sorted_.empty() && !trace.names.empty()) {
        names_sorted_.reserve(trace.names.size());
        for (size_t i = 0; i < trace.names.size(); ++i)
            names_sorted_.emplace_back(trace.names[i], uint32_t(i));
        std::sort(names_sorted_.begin(), names_sorted_.end());
    }
    const auto it = std::lower_bound(names_sorted_.begin(), names_sorted_.end(),
                                     std::make_pair(name, uint32_t(0)));
    return it != names_sorted_.end() && it->first == name ? int64_t(it->second) : -1;
}

int registerTraceTables(sqlite3* db, TraceVtabContext& context, const std::string& prefix) {
    for (const SqlTableDef& t : sqlTables()) {
        auto* aux = new ModuleAux{&context, t.id};
        const int rc = sqlite3_create_module_v2(db, (prefix + t.name).c_str(), &kModule, aux,
                                                [](void* p) { delete static_cast<ModuleAux*>(p); });
        if (rc != SQLITE_OK) return rc;
    }
    return SQLITE_OK;
}

} // namespace ts
