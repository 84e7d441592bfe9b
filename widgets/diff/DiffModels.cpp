#include "diff/DiffModels.h"

#include <cmath>

#include <QCoreApplication>

#include "common/Format.h"

namespace ts::gui {
namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("DiffModels", text);
}

QString usText(double us) {
    return QString::number(us, 'f', std::fabs(us) < 100 ? 2 : 1);
}

QString signedUs(double us) {
    return (us > 0 ? QStringLiteral("+") : QString()) + usText(us);
}

// (b - a) / a as "+12.3 %"; "new" when a is zero and b is not.
QVariant changeValue(double a, double b) {
    if (a == 0) return b == 0 ? QVariant(0.0) : QVariant();
    return (b - a) / a;
}

QString changeText(double a, double b) {
    if (a == 0) return b == 0 ? QStringLiteral("0 %") : tr("new");
    const double change = (b - a) / a;
    return (change > 0 ? QStringLiteral("+") : QString()) + format::percent(change);
}

template <typename Row, typename Get>
TableColumn<Row> usColumn(const char* header, const char* tooltip, Get get, bool sign = false) {
    return TableColumn<Row>{tr(header), tr(tooltip),
                            [get](const Row& r) { return QVariant(get(r) / 1000.0); },
                            [get, sign](const Row& r) {
                                return sign ? signedUs(get(r) / 1000.0) : usText(get(r) / 1000.0);
                            }};
}

std::vector<TableColumn<DiffCategory>> categoryColumns() {
    using R = DiffCategory;
    return {
        TableColumn<R>{tr("Category"),
                       tr("Part of the step"),
                       [](const R& r) { return QVariant(QString::fromStdString(r.name)); },
                       {},
                       false},
        usColumn<R>("A (us)", "Mean per step in A", [](const R& r) { return r.a_ns; }),
        usColumn<R>("B (us)", "Mean per step in B", [](const R& r) { return r.b_ns; }),
        usColumn<R>(
            "Δ (us)", "B − A", [](const R& r) { return r.deltaNs(); }, true),
        TableColumn<R>{tr("Δ %"), tr("(B − A) / A"),
                       [](const R& r) { return changeValue(r.a_ns, r.b_ns); },
                       [](const R& r) { return changeText(r.a_ns, r.b_ns); }},
    };
}

std::vector<TableColumn<DiffRow>> rowColumns(const bool* by_device) {
    using R = DiffRow;
    auto calls = [](double v) { return QString::number(v, 'f', v == std::floor(v) ? 0 : 2); };
    return {
        TableColumn<R>{tr("Name"),
                       tr("Operator or kernel"),
                       [](const R& r) { return QVariant(QString::fromStdString(r.name)); },
                       {},
                       false},
        TableColumn<R>{tr("Status"),
                       tr("Added, removed, more or less frequent, slower, faster or unchanged "
                          "(a change below the threshold above is unchanged)"),
                       [](const R& r) { return QVariant(QString::fromLatin1(toString(r.status))); },
                       {},
                       false},
        TableColumn<R>{tr("Calls A"), tr("Calls per step in A"),
                       [](const R& r) { return QVariant(r.calls_a); },
                       [calls](const R& r) { return calls(r.calls_a); }},
        TableColumn<R>{tr("Calls B"), tr("Calls per step in B"),
                       [](const R& r) { return QVariant(r.calls_b); },
                       [calls](const R& r) { return calls(r.calls_b); }},
        usColumn<R>("Device A (us)", "Device self time per step in A (kernels it launched)",
                    [](const R& r) { return r.device_a_ns; }),
        usColumn<R>("Device B (us)", "Device self time per step in B",
                    [](const R& r) { return r.device_b_ns; }),
        usColumn<R>("Host A (us)", "Host self time per step in A",
                    [](const R& r) { return r.host_a_ns; }),
        usColumn<R>("Host B (us)", "Host self time per step in B",
                    [](const R& r) { return r.host_b_ns; }),
        usColumn<R>(
            "Impact (us)",
            "What it adds to (−: takes from) the step in B: device time on GPU traces, else "
            "host time",
            [](const R& r) { return r.impact_ns; }, true),
        TableColumn<R>{tr("Δ %"), tr("(B − A) / A of the time the impact counts"),
                       [by_device](const R& r) {
                           return changeValue(r.timeA(*by_device), r.timeB(*by_device));
                       },
                       [by_device](const R& r) {
                           return changeText(r.timeA(*by_device), r.timeB(*by_device));
                       }},
    };
}

} // namespace

DiffCategoryModel::DiffCategoryModel(QObject* parent)
    : TableModel<DiffCategory>(categoryColumns(), parent) {}

DiffRowModel::DiffRowModel(QObject* parent)
    : TableModel<DiffRow>(rowColumns(&by_device_), parent) {}

void DiffRowModel::setRows(std::vector<DiffRow> rows, bool by_device) {
    by_device_ = by_device;
    TableModel<DiffRow>::setRows(std::move(rows));
}

} // namespace ts::gui
