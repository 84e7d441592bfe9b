#pragma once
// The GUI's views, one entry each, in the order of the view catalog
// (report/ViewCatalog.h: name, title, group, what it reads): how its widget
// is made and wired to the document's selection, and how it shows a
// document. The window makes every page, shows each document in all of them
// through one path (DocumentPages) and offers a page where the document
// provides what the page reads; no page knows another, and the window names
// none (GammaRay's tools). ViewPages.cpp holds the entries;
// docs/architecture.md "How to add a view" walks through adding one.
#include <functional>
#include <memory>
#include <vector>

#include <QString>

#include "report/ViewCatalog.h"
#include "shell/OpenedDocument.h"

class QWidget;

namespace ts::gui {

class AppSettings;
class DocumentSelection;
class DocumentSelector;
class ExperimentForm;
class RunController;
class StudyActivity;

// What the window makes its views with.
struct ViewContext {
    AppSettings& settings;
    ExperimentForm& form;
    RunController& controller;
    DocumentSelection& selection; // the shown document's; pages follow and set it
    DocumentSelector& documents;  // every open document (Diff compares two of them)
    StudyActivity& studies;       // whether a sweep, ladder or pruning study runs
    std::function<void(const QString& path)> open; // opens a path as a document
};

// A document as a page is shown it: its analysis as far as made (for a
// large trace, what the page `needs` is complete) and a line saying what it is.
struct ShownDocument {
    const OpenedDocument& doc;
    QString description;
    // The document the tables are compared with (Compare with: B − A where
    // A is this one), null: none. Its analysis holds what `needs` names too.
    const OpenedDocument* baseline = nullptr;

    const DocumentAnalysis& analysis() const { return *doc.analysis; }
    // "resnet.json" for the baseline's label in titles.
    QString baselineTitle() const;
};

struct ViewPage {
    const views::ViewInfo* info; // name, title, group, what it reads
    std::function<QWidget*(const ViewContext&)> create;
    // Shows a document that provides what the view reads; null: the page
    // keeps its own content whatever is shown (Runs, Diff).
    std::function<void(QWidget*, const ShownDocument&)> show;
    // Empties the page (none is open, or the document has nothing it reads);
    // `message` says why. Null: the page keeps what it shows (Live).
    std::function<void(QWidget*, const QString& message)> clear;
    // What of the trace's analysis `show` reads; a large trace's page (`lazy`)
    // waits until first shown, with `pending` saying so, while that is made.
    AnalysisNeed needs = AnalysisNeed::Trace;
    bool lazy = false;
    std::function<void(QWidget*, const QString& message)> pending;
    // The shown document's analysis grew (a large trace's diagnoses came
    // with a page that needed them): a page showing part of it takes it.
    std::function<void(QWidget*, const ShownDocument&)> grown;
    // Background work the page waits for (--screenshot waits until none).
    std::function<bool(QWidget*)> busy;
    bool offered_without_document = false; // says how to open one, or shows a run started then
    const char* shortcut = nullptr;        // View menu: "Ctrl+2"

    bool appliesTo(const OpenedDocument* document) const {
        return document ? document->provides(info->input) : offered_without_document;
    }
};

// In the order of the catalog (and so of the tabs within each group).
const std::vector<ViewPage>& viewPages();
// The entry named `name` (case-insensitive), null when there is none.
const ViewPage* findViewPage(const QString& name);
// "overview, live, ..., experiments"
QString viewNameList();

} // namespace ts::gui
