#include "gpu/GpuTableModels.h"

#include <QCoreApplication>

namespace ts::gui {
namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("GpuTableModels", text);
}

QString us(double value) {
    return QString::number(value, 'f', value < 100 ? 2 : 1);
}

std::vector<TableColumn<CategoryShare>> averageColumns() {
    using C = TableColumn<CategoryShare>;
    return {
        C{tr("Category"),
          tr("Where the step's time went"),
          [](const CategoryShare& s) { return QVariant(s.category); },
          {},
          false},
        C{tr("Time (us)"), tr("Mean over the steps"),
          [](const CategoryShare& s) { return QVariant(s.us); },
          [](const CategoryShare& s) { return us(s.us); }},
        C{tr("Percentage (%)"), tr("Share of the average step"),
          [](const CategoryShare& s) { return QVariant(100.0 * s.share); },
          [](const CategoryShare& s) { return QString::number(100.0 * s.share, 'f', 2); }},
    };
}

} // namespace

std::vector<CategoryShare> averageStepShares(const OverviewContent& content) {
    std::vector<CategoryShare> rows;
    const double total = content.averageTotalUs();
    for (int c = 0; c < content.categories.size(); ++c) {
        const double value = content.average_us[size_t(c)];
        rows.push_back({content.categories[c], value, total > 0 ? value / total : 0.0});
    }
    return rows;
}

AverageStepModel::AverageStepModel(QObject* parent)
    : TableModel<CategoryShare>(averageColumns(), parent) {}

} // namespace ts::gui
