#pragma once
// The view pages of a trace's analysis and of the other documents
// (TracePages.cpp, DocumentPageList.cpp); ViewPages.cpp orders them as the
// catalog does.
#include <vector>

#include "shell/ViewRegistry.h"

namespace ts::gui::pages {

std::vector<ViewPage> tracePages();
std::vector<ViewPage> otherPages();

} // namespace ts::gui::pages
