#pragma once
// The precompiled header of the Qt targets (charts, widgets, the widget tests;
// widgets/CMakeLists.txt). QCustomPlot's header brings most of Qt's widgets
// and is most of what a chart's translation unit parses; parsed once here.
// Only outside headers belong here; every file still includes what it uses.
#include <qcustomplot.h>
