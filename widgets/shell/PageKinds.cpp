#include "shell/PageKinds.h"

#include "report/IdleTables.h"

namespace ts::gui::pages {

ViewPage page(const char* name, std::function<QWidget*(const ViewContext&)> create) {
    ViewPage p;
    p.create = std::move(create);
    p.info = views::findView(name);
    if (!p.info) throw std::logic_error(std::string("no catalog entry for the view ") + name);
    return p;
}

namespace {

SpecTables diagnosisTables(const GpuDiagnoses& d, std::vector<table::TableSpec> tables) {
    SpecTables out;
    for (const std::string& note : activityNotes(d.activity))
        out.notes << QString::fromStdString(note);
    if (!d.activity.empty()) out.tables = std::move(tables);
    return out;
}

} // namespace

ViewPage tablesPage(const char* name, DiagnosisTables tables) {
    return analysisPage<SpecTablesView>(
        name, AnalysisNeed::Diagnoses,
        [](const ViewContext& c) {
            auto* view = new SpecTablesView(&c.settings);
            DocumentSelection* selection = &c.selection;
            QObject::connect(
                view, &SpecTablesView::eventActivated, view,
                [selection, view](int32_t event) { selection->showEvent(event, view); });
            return view;
        },
        [tables](SpecTablesView& v, const ShownDocument& s) {
            const GpuDiagnoses& d = *s.analysis().diagnoses;
            v.setTables(diagnosisTables(d, tables(*s.doc.trace, d)), s.description);
        },
        [](SpecTablesView& v, const QString& message) { v.clear(message); });
}

} // namespace ts::gui::pages
