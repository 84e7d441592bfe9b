// The Modules tab on the TensorBoard plugin's module fixture
// (tests/data/tb_plugin/test_build_module_hierarchy.json) and on
// tests/data/module_view_device.json (nested modules with kernels): the tree
// model under QAbstractItemModelTester, the plugin's numbers in the tree
// (tests/torchfree/ModuleViewTest.cpp checks the analysis itself), sorting,
// a filter that keeps the matches' ancestors, the calls of the selected
// module, a call shown on the timeline, and the empty state.
#include <QAbstractItemModelTester>
#include <QTableView>
#include <QTreeView>
#include <QtTest>

#include "TestPaths.h"
#include "WidgetTests.h"
#include "analysis/ModuleView.h"
#include "common/ItemRoles.h"
#include "common/SortFilterProxy.h"
#include "modules/ModuleTreeModel.h"
#include "modules/ModulesView.h"
#include "report/ModuleTables.h"
#include "timeline/TimelineView.h"
#include "timeline/TimelineWidget.h"
#include "trace/ChromeTraceReader.h"

using namespace ts;
using namespace ts::gui;

namespace {

std::shared_ptr<const Trace> readData(const char* relative) {
    return std::make_shared<const Trace>(
        readChromeTraceFile(std::string(TRAINSCOPE_SOURCE_DIR) + "/tests/data/" + relative));
}

std::shared_ptr<const ModuleView> modulesOf(const Trace& trace) {
    return std::make_shared<const ModuleView>(computeModuleView(trace));
}

QString cell(const QAbstractItemModel& model, const QModelIndex& parent, int row, int column) {
    return model.index(row, column, parent).data().toString();
}

} // namespace

class ModulesTabTest : public QObject {
    Q_OBJECT
private slots:
    void treeModelPassesTheTesterWithThePluginsNumbers() {
        ModuleTreeModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setView(modulesOf(*readData("tb_plugin/test_build_module_hierarchy.json")));
        // The plugin: two roots, Conv2 and MyModule; MyModule has one child, Linear.
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(cell(model, {}, 0, ModuleTreeModel::column(module_column::kName)),
                 QStringLiteral("Conv2"));
        QCOMPARE(cell(model, {}, 1, ModuleTreeModel::column(module_column::kName)),
                 QStringLiteral("MyModule"));
        const QModelIndex my_module = model.index(1, 0);
        QCOMPARE(model.rowCount(my_module), 1);
        QCOMPARE(cell(model, my_module, 0, ModuleTreeModel::column(module_column::kName)),
                 QStringLiteral("Linear"));
        QCOMPARE(model.parent(model.index(0, 0, my_module)), my_module);
        // module_stats: MyModule 3 calls, host 633 / 447 us, mean 211; Linear 3 calls, 3 ops.
        QCOMPARE(cell(model, {}, 1, ModuleTreeModel::column(module_column::kCalls)),
                 QStringLiteral("3"));
        QCOMPARE(model.index(1, ModuleTreeModel::column(module_column::kHostTotalUs))
                     .data(SortRole)
                     .toDouble(),
                 633.0);
        QCOMPARE(model.index(1, ModuleTreeModel::column(module_column::kHostSelfUs))
                     .data(SortRole)
                     .toDouble(),
                 447.0);
        QCOMPARE(model.index(1, ModuleTreeModel::column(module_column::kMeanUs))
                     .data(SortRole)
                     .toDouble(),
                 211.0);
        QCOMPARE(cell(model, my_module, 0, ModuleTreeModel::column(module_column::kOperators)),
                 QStringLiteral("3"));
        QCOMPARE(model.pathOf(model.index(0, 0, my_module)), QStringLiteral("MyModule/Linear"));
        model.setView(nullptr);
        QCOMPARE(model.rowCount(), 0);
    }

    void viewSortsFiltersAndListsCalls() {
        const auto trace = readData("module_view_device.json");
        ModulesView view;
        view.setView(modulesOf(*trace), QStringLiteral("fixture"));
        QVERIFY(view.messageText().isEmpty());
        SortFilterProxy* proxy = view.proxy();
        QCOMPARE(proxy->rowCount(), 1); // Net
        const QModelIndex net = proxy->index(0, 0);
        QCOMPARE(net.data().toString(), QStringLiteral("Net"));
        QCOMPARE(proxy->index(0, ModuleTreeModel::column(module_column::kDeviceTotalUs))
                     .data(SortRole)
                     .toDouble(),
                 200.0);
        QCOMPARE(proxy->index(0, ModuleTreeModel::column(module_column::kDeviceSelfUs))
                     .data(SortRole)
                     .toDouble(),
                 30.0);

        // Filtering keeps the path to a match.
        view.setNameFilter(QStringLiteral("dropout"));
        QCOMPARE(proxy->rowCount(), 1);
        QVERIFY(view.selectModule(QStringLiteral("Dropout")));
        QCOMPARE(view.callModel()->rowCount(), 1);
        view.setNameFilter(QString());

        QVERIFY(view.selectModule(QStringLiteral("Net/Conv2d")));
        QCOMPARE(view.callModel()->rowCount(), 2); // two calls, listed in time order
        QVERIFY(view.callModel()->rowAt(0).start_ns < view.callModel()->rowAt(1).start_ns);
        QVERIFY(!view.selectModule(QStringLiteral("Net/Missing")));

        // Asking for a call names it; the timeline selects the module's own event.
        QSignalSpy activated(&view, &ModulesView::callActivated);
        emit view.callActivated(view.callModel()->rowAt(1));
        QCOMPARE(activated.size(), 1);
        const ModuleCall call = activated.at(0).at(0).value<ModuleCall>();
        TimelineView timeline;
        timeline.resize(900, 500);
        timeline.setTrace(trace, QString());
        QVERIFY(timeline.showSpan(call.lane, call.start_ns, call.end_ns));
        // Module frames are not events: the first operator inside the call is selected, and the
        // view shows the whole call.
        const TraceEvent& shown = trace->events[size_t(timeline.timeline()->selectedEvent())];
        QVERIFY(shown.start_ns >= call.start_ns);
        QVERIFY(shown.end_ns() <= call.end_ns);
        QCOMPARE(shown.lane, call.lane);
        QVERIFY(timeline.timeline()->viewport().start_ns <= double(call.start_ns));
        QVERIFY(timeline.timeline()->viewport().endNs() >= double(call.end_ns));
        QVERIFY(!timeline.showSpan(call.lane, call.end_ns + 1000000, call.end_ns + 2000000));
    }

    void withoutModulesItSaysWhatToRecord() {
        ModulesView view;
        view.setView(modulesOf(*readData("tb_plugin/test_memory_view.json")), QString());
        QVERIFY(view.messageText().contains(QStringLiteral("with_modules=True")));
        view.clear();
        QVERIFY(view.messageText().startsWith(QStringLiteral("No trace yet")));
    }
};

TRAINSCOPE_WIDGET_TEST(test_modules, ModulesTabTest)
#include "test_modules.moc"
