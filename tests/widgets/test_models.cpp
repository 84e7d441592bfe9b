// Item models: every model under QAbstractItemModelTester, numeric sorting on
// the raw SortRole through the proxy, name filtering, CSV export.
#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include "ModelCells.h"
#include "WidgetTests.h"
#include "common/CsvExport.h"
#include "common/ItemRoles.h"
#include "common/SortFilterProxy.h"
#include "operators/OpTableModel.h"
#include "report/OpTables.h"
#include "runs/RunModels.h"

using namespace ts;
using namespace ts::gui;
using testing::column;

namespace {

int opc(const char* key) {
    return opTableSpec(OpTable{}).columnIndex(key);
}

OpStat op(const std::string& name, int64_t calls, int64_t self_ns, bool backward = false) {
    OpStat s;
    s.name = name;
    s.calls = calls;
    s.self_cpu_ns = self_ns;
    s.cpu_total_ns = self_ns * 2;
    s.backward = backward;
    s.flops = double(calls) * 1e6;
    return s;
}

OpTable opTable() {
    OpTable t;
    // Chosen so that text order ("10" < "100" < "9") differs from numeric order.
    t.rows = {op("aten::conv2d", 9, 900000), op("aten::add_", 100, 20000),
              op("ConvolutionBackward0", 10, 1500000, true), op("aten::relu_", 1000, 5000)};
    for (const OpStat& s : t.rows)
        t.total_self_cpu_ns += s.self_cpu_ns;
    return t;
}

RunRow run(const QString& name, double ips, double epoch_s, double acc) {
    RunRow r;
    r.dir = "/runs/" + name.toStdString();
    r.name = name.toStdString();
    r.status = "completed";
    r.images_per_sec = ips;
    r.epoch_time_s = epoch_s;
    r.val_accuracy = acc;
    r.peak_rss_bytes = int64_t(ips * 1e6);
    r.modified_s = 1700000000 + int64_t(ips);
    return r;
}

} // namespace

class ModelsTest : public QObject {
    Q_OBJECT
private slots:
    void opTableUnderModelTester() {
        OpTableModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setTable(opTable());
        QCOMPARE(model.rowCount(), 4);
        QCOMPARE(model.columnCount(), int(opTableSpec(OpTable{}).columns.size()));
        model.setTable(OpTable());
        QCOMPARE(model.rowCount(), 0);
        model.setTable(opTable());
        SortFilterProxy proxy;
        QAbstractItemModelTester proxy_tester(
            &proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        proxy.setSourceModel(&model);
        proxy.sort(opc("calls"));
        proxy.setTextFilter(opc("name"), QStringLiteral("aten"));
        model.setTable(opTable()); // a reset while sorted and filtered
        QCOMPARE(proxy.rowCount(), 3);
    }

    void displayIsFormattedSortRoleIsRaw() {
        OpTableModel model;
        model.setTable(opTable());
        const QModelIndex self = model.index(0, opc("self_cpu_ns"));
        QCOMPARE(self.data(SortRole).toLongLong(), 900000LL);
        QCOMPARE(self.data(Qt::DisplayRole).toString(), QStringLiteral("900 µs"));
        QCOMPARE(model.index(2, opc("pass")).data().toString(), QStringLiteral("backward"));
        const double share = model.index(0, opc("self_cpu_pct")).data(SortRole).toDouble();
        QVERIFY(qAbs(share - 900000.0 / 2425000.0) < 1e-9);
        QVERIFY(model.index(0, opc("calls")).data(Qt::TextAlignmentRole).value<Qt::Alignment>() &
                Qt::AlignRight);
    }

    void sortsNumericallyNotAlphabetically() {
        OpTableModel model;
        model.setTable(opTable());
        SortFilterProxy proxy;
        proxy.setSourceModel(&model);
        proxy.sort(opc("calls"), Qt::AscendingOrder);
        QCOMPARE(column(proxy, opc("calls")), (QStringList{"9", "10", "100", "1000"}));
        proxy.sort(opc("self_cpu_ns"), Qt::DescendingOrder);
        QCOMPARE(column(proxy, opc("name")), (QStringList{"ConvolutionBackward0", "aten::conv2d",
                                                          "aten::add_", "aten::relu_"}));
        // Display text of durations would sort "1.50 ms" < "20.0 µs" < "5.00 µs" < "900 µs".
        proxy.sort(opc("self_cpu_ns"), Qt::AscendingOrder);
        QCOMPARE(column(proxy, opc("self_cpu_ns"), SortRole),
                 (QStringList{"5000", "20000", "900000", "1500000"}));
    }

    void unknownValuesSortLast() {
        OpTableModel model;
        OpTable t = opTable();
        t.rows[1].flops = 0; // unknown
        model.setTable(t);
        SortFilterProxy proxy;
        proxy.setSourceModel(&model);
        proxy.sort(opc("flops"), Qt::AscendingOrder);
        QCOMPARE(proxy.index(3, opc("name")).data().toString(), QStringLiteral("aten::add_"));
        QCOMPARE(proxy.index(3, opc("flops")).data().toString(), QStringLiteral("–"));
    }

    void filtersByNameCaseInsensitively() {
        OpTableModel model;
        model.setTable(opTable());
        SortFilterProxy proxy;
        proxy.setSourceModel(&model);
        proxy.setTextFilter(opc("name"), QStringLiteral("CONV"));
        QCOMPARE(proxy.rowCount(), 2);
        proxy.setTextFilter(opc("name"), QString());
        QCOMPARE(proxy.rowCount(), 4);
    }

    void runModelsUnderModelTester() {
        RunListModel list;
        RunComparisonModel comparison;
        QAbstractItemModelTester t1(&list, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester t2(&comparison,
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
        std::vector<RunRow> rows = {run("b", 950, 12.5, 0.81), run("a", 1200, 9.0, 0.79)};
        list.setRows(rows);
        comparison.setRows(rows);
        list.appendRows({run("c", 80, 140.0, std::numeric_limits<double>::quiet_NaN())});
        QCOMPARE(list.rowCount(), 3);
        QCOMPARE(list.index(2, list.column(run_column::kValAccuracy)).data().toString(),
                 QStringLiteral("-"));
        QVERIFY(!list.index(2, list.column(run_column::kValAccuracy)).data(SortRole).isValid());
        list.clear();
        QCOMPARE(list.rowCount(), 0);
    }

    void runListSortsNumerically() {
        RunListModel list;
        list.setRows(
            {run("b", 950, 12.5, 0.81), run("a", 1200, 9.0, 0.79), run("c", 80, 140.0, 0.5)});
        SortFilterProxy proxy;
        proxy.setSourceModel(&list);
        proxy.sort(list.column(run_column::kImagesPerSec), Qt::DescendingOrder);
        QCOMPARE(column(proxy, list.column(run_column::kName)), (QStringList{"a", "b", "c"}));
        proxy.sort(list.column(run_column::kEpochTime), Qt::AscendingOrder);
        QCOMPARE(column(proxy, list.column(run_column::kName)), (QStringList{"a", "b", "c"}));
        proxy.sort(list.column(run_column::kModified), Qt::AscendingOrder);
        QCOMPARE(column(proxy, list.column(run_column::kName)), (QStringList{"c", "b", "a"}));
    }

    void comparisonExportsCsvWithRawNumbers() {
        RunComparisonModel comparison;
        comparison.setRows({run("with, comma", 950.5, 12.5, 0.81)});
        const QString csv = modelToCsv(comparison);
        const QStringList lines = csv.trimmed().split(QLatin1Char('\n'));
        QCOMPARE(lines.size(), 2);
        QVERIFY(lines[0].startsWith(
            QStringLiteral("run,device,precision,batch,images/s,speed-up,step ms,epoch s")));
        QVERIFY2(lines[1].startsWith(QStringLiteral("\"with, comma\",,,0,950.5,1,,12.5,")),
                 qPrintable(lines[1]));
        QTemporaryDir dir;
        QString error;
        QVERIFY(writeTextFile(dir.filePath(QStringLiteral("c.csv")), csv, &error));
        QVERIFY(!writeTextFile(dir.filePath(QStringLiteral("missing/c.csv")), csv, &error));
        QVERIFY(error.contains(QStringLiteral("missing/c.csv")));
    }
};

TRAINSCOPE_WIDGET_TEST(test_models, ModelsTest)
#include "test_models.moc"
