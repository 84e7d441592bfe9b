#pragma once
// Settings ▸ LibTorch: which of the GUI's LibTorch modules trains (Debian's
// 1.13, the wheel's 2.x with CUDA and Kineto, ...), each with what it was
// built with, and the one loaded now. A process keeps the LibTorch it loaded,
// so the choice takes effect at the next start.
#include <vector>

#include <QDialog>

#include "backend/BackendModules.h"

class QButtonGroup;
class QVBoxLayout;

namespace ts::gui {

class LibTorchDialog : public QDialog {
    Q_OBJECT
public:
    // `chosen`: the module path in the settings ("" = the newest that loads);
    // `loaded`: what this process loaded ("" before or without one).
    LibTorchDialog(const QString& chosen, const std::vector<BackendModule>& modules,
                   const QString& loaded, QWidget* parent = nullptr);
    // The module to load first from the next start; "" for the newest that loads.
    QString choice() const;
    // Adds a module file (as "Add Module File…" does) and selects it.
    void addModule(const BackendModule& module);

private:
    // The module's button id, listing it first if it is new.
    int listModule(const BackendModule& module);
    void addChoice(const QString& text, const QString& path, const QString& details);

    QVBoxLayout* choices_;
    QButtonGroup* group_;
    QStringList paths_; // by button id
    QString loaded_;
};

} // namespace ts::gui
