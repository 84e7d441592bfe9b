#include "charts/OffscreenChartRenderer.h"

#include <memory>
#include <stdexcept>

#include <QApplication>
#include <QThread>

#include "charts/SpecPlot.h"
#include "charts/ThemedPlot.h"

namespace ts::gui {
namespace {

// Widgets need a QApplication; a command-line program has none until the
// first chart, and a server has no display, hence the offscreen platform.
void ensureApplication() {
    if (QCoreApplication::instance()) return;
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    static int argc = 1;
    static char name[] = "trainscope";
    static char* argv[] = {name, nullptr};
    // Never deleted: it must outlive every chart, up to the end of the process.
    static QApplication* app = new QApplication(argc, argv);
    (void)app;
}

std::vector<std::filesystem::path> drawFiles(const chart::ChartSpec& spec,
                                             const std::filesystem::path& stem) {
    ThemedPlot plot;
    plot.resize(kChartWidth, kChartHeight);
    drawSpec(spec, mainSpecPanel(plot));
    plot.applyTheme();
    std::filesystem::path png = stem, pdf = stem;
    png += ".png";
    pdf += ".pdf";
    if (!plot.savePng(QString::fromStdString(png.string()), kChartWidth, kChartHeight,
                      kChartPixelRatio))
        throw std::runtime_error("cannot write chart " + png.string());
    if (!plot.savePdf(QString::fromStdString(pdf.string()), kChartWidth, kChartHeight))
        throw std::runtime_error("cannot write chart " + pdf.string());
    return {png, pdf};
}

} // namespace

std::vector<std::filesystem::path>
OffscreenChartRenderer::render(const chart::ChartSpec& spec, const std::filesystem::path& stem) {
    ensureApplication();
    QCoreApplication* app = QCoreApplication::instance();
    if (!qobject_cast<QApplication*>(app))
        throw std::runtime_error("cannot draw " + stem.string() +
                                 ": charts need a QApplication, the process has a "
                                 "QCoreApplication");
    if (QThread::currentThread() == app->thread()) return drawFiles(spec, stem);
    // Widgets live on the GUI thread only. A report writer on a worker thread
    // (the GUI's sweeps and ladders) posts the drawing there and goes on: it
    // must never wait for the GUI thread, which may itself be waiting for that
    // worker to stop. Events posted to one thread run in order, so the chart is
    // on disk before the job's own later "finished" notification is handled.
    QMetaObject::invokeMethod(
        app,
        [spec, stem] {
            try {
                drawFiles(spec, stem);
            } catch (const std::exception& e) {
                qWarning("%s", e.what());
            }
        },
        Qt::QueuedConnection);
    std::filesystem::path png = stem, pdf = stem;
    png += ".png";
    pdf += ".pdf";
    return {png, pdf};
}

void installOffscreenChartRenderer() {
    if (!chartRenderer()) installChartRenderer(std::make_unique<OffscreenChartRenderer>());
}

} // namespace ts::gui
