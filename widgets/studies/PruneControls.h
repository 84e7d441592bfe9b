#pragma once
// The Experiments view's pruning inputs (Prune mode): the trained weights
// file, the share to prune, unstructured or whole channels (L1 / L2 norm), per
// layer or one global threshold, the fc layer too, and the timed passes.
#include <QWidget>

#include "studies/ExperimentRequest.h"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QSpinBox;

namespace ts::gui {

class PathEdit;

class PruneControls : public QWidget {
    Q_OBJECT
public:
    explicit PruneControls(QWidget* parent = nullptr);

    // Reads and writes the request's weights, prune and latencyRuns fields.
    void fill(ExperimentRequest& request) const;
    void setFrom(const ExperimentRequest& request);
    void setLocked(bool locked);

private:
    void updateEnabled();

    PathEdit* weights_;
    QDoubleSpinBox* amount_;
    QComboBox* method_;
    QComboBox* scope_;
    QCheckBox* linear_;
    QSpinBox* latency_runs_;
    bool locked_ = false;
};

} // namespace ts::gui
