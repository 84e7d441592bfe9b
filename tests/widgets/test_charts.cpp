// The chart code the GUI and the reports share: the offscreen renderer writes
// a PNG at twice the nominal size and a PDF (also when a worker thread asks),
// names the path it cannot write, and a GUI chart draws exactly what the
// report renders for the same data.
#include <cmath>
#include <filesystem>
#include <stdexcept>

#include <QFile>
#include <QImage>
#include <QTemporaryDir>
#include <QtConcurrent>
#include <QtTest>

#include "SyntheticRecords.h"
#include "WidgetTests.h"
#include "charts/OffscreenChartRenderer.h"
#include "experiments/LadderReport.h"
#include "report/RunDirectory.h"
#include "runs/ComparisonCharts.h"
#include "studies/LadderChart.h"

using namespace ts;
using namespace ts::gui;

namespace {

chart::BarChart barSpec() {
    chart::BarChart c;
    c.title = "images/s";
    c.y_label = "images/s";
    c.categories = {"a", "b", "c"};
    c.series = {{"run", {10, NAN, 30}, chart::paletteColor(0), {}, {1, NAN, 2}},
                {"other", {5, 6, 7}, chart::paletteColor(1), {}, {}}};
    c.lines = {{"baseline", 8, chart::paletteColor(2)}};
    return c;
}

RungRow rung(const std::string& id, bool ran, double ips, double speedup, bool kept) {
    RungRow row;
    row.id = id;
    row.ran = ran;
    row.kept = kept;
    row.speedup = speedup;
    row.result.outcome = ran ? PointOutcome::Completed : PointOutcome::Skipped;
    row.result.summary.median_images_per_sec = ips;
    return row;
}

LadderResult ladder() {
    LadderResult r;
    r.spec.base.name = "tiny";
    r.rows = {rung("baseline", true, 100, 1, true), rung("workers", true, 140, 1.4, true),
              rung("pin-memory", false, 0, 0, false), rung("threads", true, 120, 1.2, false)};
    r.baseline_images_per_sec = 100;
    r.best_images_per_sec = 140;
    return r;
}

QImage argb(const QImage& image) {
    return image.convertToFormat(QImage::Format_ARGB32);
}

} // namespace

class ChartsTest : public QObject {
    Q_OBJECT

private slots:
    void rendererWritesPngAtTwiceTheSizeAndPdf() {
        QTemporaryDir dir;
        const std::filesystem::path stem = dir.filePath(QStringLiteral("bars")).toStdString();
        OffscreenChartRenderer renderer;
        const auto files = renderer.render(barSpec(), stem);
        QCOMPARE(int(files.size()), 2);
        const QImage png(dir.filePath(QStringLiteral("bars.png")));
        QVERIFY(!png.isNull());
        QCOMPARE(png.size(),
                 QSize(int(kChartWidth * kChartPixelRatio), int(kChartHeight * kChartPixelRatio)));
        QFile pdf(dir.filePath(QStringLiteral("bars.pdf")));
        QVERIFY(pdf.open(QIODevice::ReadOnly));
        QVERIFY(pdf.read(5).startsWith("%PDF"));

        chart::XyChart xy;
        xy.title = "log";
        xy.log_x = xy.log_y = true;
        chart::XySeries dots;
        dots.name = "dots";
        dots.xs = {1, 10, -1};
        dots.ys = {5, 50, 7};
        dots.line = false;
        dots.marker_sizes = {6, 20, 8};
        dots.point_labels = {"one", "ten", "skipped"};
        xy.series = {dots};
        renderer.render(xy, dir.filePath(QStringLiteral("xy")).toStdString());
        QVERIFY(!QImage(dir.filePath(QStringLiteral("xy.png"))).isNull());
    }

    void rendererNamesThePathItCannotWrite() {
        OffscreenChartRenderer renderer;
        try {
            renderer.render(barSpec(), "/nonexistent-dir/charts/bars");
            QFAIL("no exception");
        } catch (const std::runtime_error& e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral("/nonexistent-dir")),
                     e.what());
        }
    }

    // Report writers run on worker threads in the GUI: the drawing moves to
    // the GUI thread, which keeps serving events meanwhile.
    void rendererDrawsForWorkerThreads() {
        QTemporaryDir dir;
        const std::filesystem::path stem = dir.filePath(QStringLiteral("worker")).toStdString();
        OffscreenChartRenderer renderer;
        QFuture<size_t> done =
            QtConcurrent::run([&] { return renderer.render(barSpec(), stem).size(); });
        QTRY_VERIFY_WITH_TIMEOUT(done.isFinished(), 20000);
        QCOMPARE(done.result(), size_t(2));
        // Posted, not waited for: the worker may finish before the GUI thread
        // has run the drawing, so wait for the file, serving events.
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(dir.filePath(QStringLiteral("worker.png"))), 20000);
    }

    // The GUI's ladder chart and the ladder report's PNG are the same picture.
    void guiChartAndReportDrawTheSameSpec() {
        const LadderResult result = ladder();
        LadderChart chart;
        chart.setResult(result);
        QCOMPARE(chart.rungCount(), 4);
        QCOMPARE(chart.keptBars()->data()->at(1)->value, 140.0);
        QVERIFY(std::isnan(chart.keptBars()->data()->at(2)->value)); // skipped
        QCOMPARE(chart.droppedBars()->data()->at(3)->value, 120.0);

        QTemporaryDir dir;
        OffscreenChartRenderer renderer;
        renderer.render(ladderThroughputChart(result),
                        dir.filePath(QStringLiteral("ladder")).toStdString());
        const QImage report = argb(QImage(dir.filePath(QStringLiteral("ladder.png"))));
        chart.applyTheme();
        const QImage gui =
            argb(chart.toPixmap(kChartWidth, kChartHeight, kChartPixelRatio).toImage());
        QCOMPARE(gui.size(), report.size());
        QVERIFY2(gui == report, "the GUI chart and the report's PNG differ");
    }

    // The Runs tab's throughput bars carry the interval of each run's steps,
    // as `compare`'s chart does; a directory without steps gets no bar.
    void comparisonChartsShowStepIntervalsAsErrorBars() {
        QTemporaryDir dir;
        const std::filesystem::path run = dir.filePath(QStringLiteral("run")).toStdString();
        {
            ts::RunRecorder recorder(run);
            ts::RunInfo info;
            info.config.warmup_steps_excluded = 2;
            recorder.onRunStarted(info);
            for (auto step : ts::testing::syntheticSteps(0, 40)) {
                step.step_ms += double(step.global_step * 7 % 11) * 0.4; // scatter
                step.images_per_sec = 32 * 1000.0 / step.step_ms;
                recorder.onStep(step);
            }
            recorder.onRunFinished(ts::RunSummary{});
        }
        ts::gui::ComparisonCharts charts;
        const double error = charts.imagesPerSecError(QString::fromStdString(run.string()));
        QVERIFY(std::isfinite(error));
        QVERIFY(error > 0);
        QVERIFY(error < 30); // steps of 68-76 ms: about 420-470 images/s
        QVERIFY(std::isnan(charts.imagesPerSecError(dir.filePath(QStringLiteral("none")))));
    }
};

TRAINSCOPE_WIDGET_TEST(test_charts, ChartsTest)
#include "test_charts.moc"
