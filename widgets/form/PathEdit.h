#pragma once
// A path field with a Browse… button (file or folder chooser).
#include <QWidget>

class QLineEdit;
class QToolButton;

namespace ts::gui {

class PathEdit : public QWidget {
    Q_OBJECT
public:
    enum class Mode { File, Directory };
    explicit PathEdit(Mode mode, QWidget* parent = nullptr);

    QString path() const;
    void setPath(const QString& path); // does not emit pathEdited
    void setPlaceholderText(const QString& text);
    void setFileFilter(const QString& filter) { filter_ = filter; }
    QLineEdit* lineEdit() const { return edit_; }

signals:
    void pathEdited(const QString& path);

private:
    void browse();
    Mode mode_;
    QString filter_;
    QLineEdit* edit_;
    QToolButton* button_;
};

} // namespace ts::gui
