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

// The columns both kernel tables have; `Row` is KernelRow or KernelOpRow.
template <typename Row> std::vector<TableColumn<Row>> kernelColumns() {
    using C = TableColumn<Row>;
    const auto time = [](auto get) {
        return std::make_pair([get](const Row& r) { return QVariant(get(r) / 1000.0); },
                              [get](const Row& r) { return us(get(r) / 1000.0); });
    };
    const auto total = time([](const Row& r) { return double(r.total_ns); });
    const auto mean = time([](const Row& r) { return r.meanNs(); });
    const auto max = time([](const Row& r) { return double(r.max_ns); });
    const auto min = time([](const Row& r) { return double(r.min_ns); });
    return {
        C{tr("Name"),
          tr("Kernel name"),
          [](const Row& r) { return QVariant(QString::fromStdString(r.name)); },
          {},
          false},
        C{tr("Tensor Cores Used"),
          tr("The kernel runs on Tensor Cores (by its name)"),
          [](const Row& r) { return QVariant(r.tensor_cores ? tr("Yes") : tr("No")); },
          {},
          false},
        C{tr("Calls"), tr("Number of launches"),
          [](const Row& r) { return QVariant(qint64(r.calls)); }},
        C{tr("Total (us)"), tr("Total duration"), total.first, total.second},
        C{tr("Mean (us)"), tr("Mean duration"), mean.first, mean.second},
        C{tr("Max (us)"), tr("Longest launch"), max.first, max.second},
        C{tr("Min (us)"), tr("Shortest launch"), min.first, min.second},
        C{tr("Mean Blocks per SM"), tr("Duration-weighted mean of Kineto's blocks per SM"),
          [](const Row& r) { return QVariant(r.blocks_per_sm); },
          [](const Row& r) { return QString::number(r.blocks_per_sm, 'f', 2); }},
        C{tr("Mean Est. Achieved Occupancy (%)"),
          tr("Duration-weighted mean of Kineto's estimated achieved occupancy"),
          [](const Row& r) { return QVariant(r.occupancy); },
          [](const Row& r) { return QString::number(r.occupancy, 'f', 2); }},
    };
}

QVariant text(const std::string& s) {
    return QVariant(QString::fromStdString(s));
}

std::vector<TableColumn<KernelOpRow>> kernelOpColumns() {
    using C = TableColumn<KernelOpRow>;
    std::vector<C> columns = kernelColumns<KernelOpRow>();
    columns.push_back(C{tr("Operator"),
                        tr("The operator that launched the kernel"),
                        [](const KernelOpRow& r) { return text(r.op_name); },
                        {},
                        false});
    columns.push_back(C{tr("Grid"),
                        tr("Grid dimensions"),
                        [](const KernelOpRow& r) { return text(r.grid); },
                        {},
                        false});
    columns.push_back(C{tr("Block"),
                        tr("Block dimensions"),
                        [](const KernelOpRow& r) { return text(r.block); },
                        {},
                        false});
    columns.push_back(C{tr("Registers per Thread"),
                        tr("Registers per thread"),
                        [](const KernelOpRow& r) { return text(r.registers); },
                        {},
                        false});
    columns.push_back(C{tr("Shared Memory"),
                        tr("Shared memory (bytes)"),
                        [](const KernelOpRow& r) { return text(r.shared_memory); },
                        {},
                        false});
    return columns;
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

KernelModel::KernelModel(QObject* parent)
    : TableModel<KernelRow>(kernelColumns<KernelRow>(), parent) {}

KernelOpModel::KernelOpModel(QObject* parent)
    : TableModel<KernelOpRow>(kernelOpColumns(), parent) {}

} // namespace ts::gui
