// The Diff tab on tests/data/diff/steps_{a,b}.json (hand-made traces whose
// differences are known; tests/torchfree/TraceDiffTest.cpp checks the
// analysis): the models under QAbstractItemModelTester, the categories and
// the operators ordered by impact as the analysis gives them, hiding the
// unchanged rows, the aligned steps (boxes, colours, tooltips), choosing the
// steps, and the states without two traces.
#include <QAbstractItemModelTester>
#include <QtTest>

#include "TestPaths.h"
#include "WidgetTests.h"
#include "common/ItemRoles.h"
#include "diff/AlignedStepsWidget.h"
#include "diff/DiffModels.h"
#include "diff/TraceDiffView.h"
#include "report/DiffTables.h"
#include "trace/ChromeTraceReader.h"

using namespace ts;
using namespace ts::gui;

namespace {

DiffDocument fixture(const char* name) {
    return DiffDocument{QString::fromLatin1(name), QString::fromLatin1(name),
                        std::make_shared<const Trace>(readChromeTraceFile(
                            std::string(TRAINSCOPE_SOURCE_DIR) + "/tests/data/diff/" + name))};
}

QStringList names(const QAbstractItemModel& model) {
    QStringList out;
    for (int r = 0; r < model.rowCount(); ++r)
        out << model.index(r, 0).data().toString();
    return out;
}

} // namespace

class DiffTabTest : public QObject {
    Q_OBJECT
private slots:
    void comparesTwoDocuments() {
        TraceDiffView view;
        view.show(); // the diff is computed while the tab is shown
        QAbstractItemModelTester categories(view.categoryModel(),
                                            QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester operators(view.operatorModel(),
                                           QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester kernels(view.kernelModel(),
                                         QAbstractItemModelTester::FailureReportingMode::QtTest);
        view.setDocuments({fixture("steps_a.json"), fixture("steps_b.json")});
        QVERIFY2(view.diff().has_value(), qPrintable(view.messageText()));
        // Step 1000 us -> 800 us.
        QVERIFY2(view.summaryText().contains(QStringLiteral("-20.0 %")),
                 qPrintable(view.summaryText()));
        const DiffCategoryModel& c = *view.categoryModel();
        QCOMPARE(c.rowCount(), 9);
        QCOMPARE(c.index(5, c.column(diff_column::kName)).data().toString(),
                 QStringLiteral("DataLoader"));
        QCOMPARE(c.index(5, c.column(diff_column::kA)).data(SortRole).toDouble(), 300.0);
        QCOMPARE(c.index(5, c.column(diff_column::kB)).data(SortRole).toDouble(), 100.0);
        QCOMPARE(c.index(5, c.column(diff_column::kDelta)).data().toString(),
                 QStringLiteral("-200.0"));

        // By impact, the unchanged aten::zero_ hidden by default.
        QCOMPARE(
            names(*view.operatorModel()),
            QStringList({"aten::conv2d", "aten::relu", "aten::mul_", "aten::sub", "aten::add"}));
        const DiffRowModel& ops = *view.operatorModel();
        QCOMPARE(ops.index(0, ops.column(diff_column::kStatus)).data().toString(),
                 QStringLiteral("slower"));
        QCOMPARE(ops.index(0, ops.column(diff_column::kImpact)).data(SortRole).toDouble(), 100.0);
        QCOMPARE(ops.index(0, ops.column(diff_column::kImpact)).data().toString(),
                 QStringLiteral("+100.0"));
        QCOMPARE(ops.index(1, ops.column(diff_column::kCallsB)).data().toString(),
                 QStringLiteral("2"));
        // aten::relu: 40 us host self time in both (its launches excluded), 50 -> 100 us on the
        // device.
        QCOMPARE(ops.index(1, ops.column(diff_column::kHostA)).data(SortRole).toDouble(), 40.0);
        QCOMPARE(ops.index(1, ops.column(diff_column::kHostB)).data(SortRole).toDouble(), 40.0);
        QCOMPARE(ops.index(1, ops.column(diff_column::kDeviceB)).data(SortRole).toDouble(), 100.0);
        QCOMPARE(ops.index(3, ops.column(diff_column::kChange)).data().toString(),
                 QStringLiteral("new"));
        view.setHideUnchanged(false);
        QCOMPARE(view.operatorModel()->rowCount(), 6);
        QCOMPARE(view.kernelModel()->rowCount(), 6);
    }

    void alignsOneStepOfEach() {
        TraceDiffView view;
        view.resize(1200, 800);
        view.setDocuments({fixture("steps_a.json"), fixture("steps_b.json")});
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        AlignedStepsWidget* aligned = view.alignedSteps();
        QCOMPARE(aligned->alignment().a.ops.size(), size_t(6));
        QCOMPARE(aligned->alignment().b.ops.size(), size_t(7));
        // The box of B's new aten::sub describes itself; its pair changed.
        const AlignedOp& sub = aligned->alignment().b.ops[4];
        QCOMPARE(sub.name, std::string("aten::sub"));
        const QImage image = aligned->grab().toImage();
        QVERIFY(!image.isNull());
        int side = -1, op = -1;
        for (int x = 0; x < aligned->width() && side < 0; ++x)
            for (int y = 0; y < aligned->height() && side < 0; ++y) {
                const auto hit = aligned->opAt(QPointF(x, y));
                if (hit.first == 1 && hit.second == 4) std::tie(side, op) = hit;
            }
        QCOMPARE(side, 1);
        QVERIFY(aligned->describeOp(side, op).startsWith(QStringLiteral("aten::sub")));
        // A's aten::conv2d is slower in B: drawn warm; the unchanged zero_ is neutral.
        auto colourAt = [&](int s, int index) {
            const auto& ops = s == 0 ? aligned->alignment().a.ops : aligned->alignment().b.ops;
            for (int x = 0; x < aligned->width(); ++x)
                for (int y = 0; y < aligned->height(); ++y)
                    if (aligned->opAt(QPointF(x, y)) == std::make_pair(s, index))
                        return image.pixelColor(x + 1, y + 3);
            Q_UNUSED(ops);
            return QColor();
        };
        const QColor conv = colourAt(0, 1), zero = colourAt(0, 4);
        QVERIFY(conv.red() > conv.blue());
        QVERIFY(std::abs(zero.red() - zero.blue()) < 30);

        view.setSteps(1, 1);
        QCOMPARE(view.diff()->alignment.a.label, std::string("2"));
    }

    void saysWhatIsMissing() {
        TraceDiffView view;
        view.show();
        view.setDocuments({});
        QVERIFY(view.messageText().startsWith(QStringLiteral("Open two traces")));
        view.setDocuments(
            {fixture("steps_a.json"),
             DiffDocument{QStringLiteral("run"), QStringLiteral("/runs/a"), nullptr}});
        QVERIFY(view.messageText().contains(QStringLiteral("run has no trace")));
        view.setDocuments({fixture("steps_a.json"), fixture("steps_b.json")});
        view.compare(0, 0);
        QVERIFY(view.messageText().contains(QStringLiteral("two different")));
        QVERIFY(!view.diff());
        view.compare(-1, 1);
        QVERIFY(!view.diff());
    }

    void aHiddenTabComputesWhenShown() {
        TraceDiffView view;
        view.setDocuments({fixture("steps_a.json"), fixture("steps_b.json")});
        QVERIFY2(!view.diff(), "nothing computed for a tab nobody looks at");
        view.show();
        QVERIFY(view.diff().has_value());
        // Two documents of one name keep apart by path.
        auto a = fixture("steps_a.json"), b = fixture("steps_b.json");
        b.title = a.title;
        b.path = QStringLiteral("/elsewhere/steps_a.json");
        view.setDocuments({a, b});
        QVERIFY(view.diff().has_value());
        QCOMPARE(view.diff()->b.step_ns, 800.0 * 1000);
    }
};

TRAINSCOPE_WIDGET_TEST(test_diff, DiffTabTest)
#include "test_diff.moc"
