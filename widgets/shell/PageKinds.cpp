#include "shell/PageKinds.h"

#include "report/IdleTables.h"
#include "report/TableDiff.h"

namespace ts::gui::pages {

ViewPage page(const char* name, std::function<QWidget*(const ViewContext&)> create) {
    ViewPage p;
    p.create = std::move(create);
    p.info = views::findView(name);
    if (!p.info) throw std::logic_error(std::string("no catalog entry for the view ") + name);
    // The runs folder and the open documents are there whatever is shown.
    p.offered_without_document =
        p.info->input == views::Input::RunsFolder || p.info->input == views::Input::TwoDocuments;
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

// Each table as B − A against the baseline's same table (report/TableDiff.h).
void compareTables(SpecTables& shown, const ShownDocument& s, const DiagnosisTables& tables) {
    const GpuDiagnoses& d = *s.baseline->analysis->diagnoses;
    const std::vector<table::TableSpec> before = tables(*s.baseline->trace, d);
    table::TableDiffOptions options;
    options.label_a = s.baselineTitle().toStdString();
    options.label_b = s.doc.title();
    // A table of single events (outlier launches) has nothing to pair across traces.
    for (size_t t = 0; t < shown.tables.size() && t < before.size(); ++t)
        if (shown.tables[t].row_events.empty())
            shown.tables[t] = table::diffTables(before[t], shown.tables[t], options);
    shown.notes << QObject::tr("Compared with %1: each table shows this document's values and "
                               "their change against it (Δ = %2 − %1).")
                       .arg(s.baselineTitle(), QString::fromStdString(s.doc.title()));
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
            SpecTables shown = diagnosisTables(d, tables(*s.doc.trace, d));
            if (s.baseline) compareTables(shown, s, tables);
            v.setTables(shown, s.description);
        },
        [](SpecTablesView& v, const QString& message) { v.clear(message); });
}

} // namespace ts::gui::pages
