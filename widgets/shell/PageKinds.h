#pragma once
// The shapes a view page comes in (shell/ViewRegistry.h), so that an entry
// of ViewPages.cpp is one statement: a page made by a factory, a page of a
// trace's analysis (shown, waiting, emptied through its widget W), and a
// page of HTA's tables alone, shown by the generic SpecTablesView.
#include <stdexcept>
#include <string>

#include "common/DocumentSelection.h"
#include "common/SpecTablesView.h"
#include "report/TableSpec.h"
#include "shell/ViewRegistry.h"

namespace ts::gui::pages {

template <typename W> W& as(QWidget* widget) {
    return *static_cast<W*>(widget);
}

// The entry of catalog view `name`, made by `create`.
ViewPage page(const char* name, std::function<QWidget*(const ViewContext&)> create);

// A page whose widget W shows the document by `show` and is emptied by `clear`.
template <typename W>
ViewPage documentPage(const char* name, std::function<W*(const ViewContext&)> create,
                      std::function<void(W&, const ShownDocument&)> show,
                      std::function<void(W&, const QString&)> clear) {
    ViewPage p = page(name, [create](const ViewContext& c) -> QWidget* { return create(c); });
    p.show = [show](QWidget* w, const ShownDocument& s) { show(as<W>(w), s); };
    if (clear) p.clear = [clear](QWidget* w, const QString& message) { clear(as<W>(w), message); };
    return p;
}

// A page of a trace's analysis: offered with no document open (it says how
// to open one), waiting through W's showPending while a large trace's
// `needs` is made.
template <typename W>
ViewPage analysisPage(const char* name, AnalysisNeed needs,
                      std::function<W*(const ViewContext&)> create,
                      std::function<void(W&, const ShownDocument&)> show,
                      std::function<void(W&, const QString&)> clear) {
    ViewPage p = documentPage<W>(name, std::move(create), std::move(show), std::move(clear));
    p.needs = needs;
    p.lazy = true;
    p.pending = [](QWidget* w, const QString& message) { as<W>(w).showPending(message); };
    p.offered_without_document = true;
    return p;
}

// A page of HTA's diagnoses that is tables alone: `tables` makes them of the
// trace's diagnoses; a row about one event shows it on the timeline.
using DiagnosisTables =
    std::function<std::vector<table::TableSpec>(const Trace&, const GpuDiagnoses&)>;
ViewPage tablesPage(const char* name, DiagnosisTables tables);

} // namespace ts::gui::pages
