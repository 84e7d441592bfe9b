#include "studies/PruneLayerModel.h"

#include <QLocale>
#include <QStringList>

#include "common/Format.h"

namespace ts::gui {
namespace {

using Col = TableColumn<LayerSparsity>;

QString integerText(int64_t value) {
    return QLocale::c().toString(qint64(value));
}

QString shapeText(const std::vector<int64_t>& shape) {
    QStringList dims;
    for (int64_t d : shape)
        dims << QString::number(d);
    return dims.join(QStringLiteral("×"));
}

} // namespace

QString layerLabel(const LayerSparsity& layer) {
    QString name = QString::fromStdString(layer.name);
    if (name.endsWith(QStringLiteral(".weight"))) name.chop(7);
    return name;
}

PruneLayerTableModel::PruneLayerTableModel(QObject* parent)
    : TableModel<LayerSparsity>(
          {
              Col{tr("Layer"),
                  tr("The pruned weight tensor"),
                  [](const LayerSparsity& l) { return QVariant(layerLabel(l)); },
                  {},
                  false},
              Col{tr("Shape"),
                  tr("Output channels × input channels × kernel"),
                  [](const LayerSparsity& l) { return QVariant(shapeText(l.shape)); },
                  {},
                  false},
              Col{tr("Parameters"), tr("Weights in the tensor"),
                  [](const LayerSparsity& l) { return QVariant(qint64(l.params)); },
                  [](const LayerSparsity& l) { return integerText(l.params); }},
              Col{tr("Zeros before"), tr("Weights that were already zero"),
                  [](const LayerSparsity& l) { return QVariant(qint64(l.zeros_before)); },
                  [](const LayerSparsity& l) { return integerText(l.zeros_before); }},
              Col{tr("Zeros after"), tr("Weights that are zero after pruning"),
                  [](const LayerSparsity& l) { return QVariant(qint64(l.zeros_after)); },
                  [](const LayerSparsity& l) { return integerText(l.zeros_after); }},
              Col{tr("Sparsity before"), tr("Share of zero weights before pruning"),
                  [](const LayerSparsity& l) { return QVariant(l.sparsityBefore()); },
                  [](const LayerSparsity& l) { return format::percent(l.sparsityBefore()); }},
              Col{tr("Sparsity after"), tr("Share of zero weights after pruning"),
                  [](const LayerSparsity& l) { return QVariant(l.sparsityAfter()); },
                  [](const LayerSparsity& l) { return format::percent(l.sparsityAfter()); }},
              Col{tr("Zero channels"), tr("Output channels that are entirely zero after pruning"),
                  [](const LayerSparsity& l) { return QVariant(qint64(l.channels_zeroed)); },
                  [](const LayerSparsity& l) {
                      return QStringLiteral("%1 / %2").arg(l.channels_zeroed).arg(l.channels);
                  }},
          },
          parent) {}

} // namespace ts::gui
