#pragma once
// The status bar's "loading" corner while a trace opens: the file name, a
// progress bar of the bytes read and Cancel. Hidden when nothing loads.
#include <QWidget>

class QLabel;
class QProgressBar;
class QPushButton;

namespace ts::gui {

class LoadIndicator : public QWidget {
    Q_OBJECT
public:
    explicit LoadIndicator(QWidget* parent = nullptr);

    QProgressBar* bar() const { return bar_; }
    QPushButton* cancelButton() const { return cancel_; }
    QString fileName() const;

public slots:
    // Shows the indicator for `path`; `total` 0 means not known yet (a busy
    // bar).
    void showProgress(const QString& path, qint64 done, qint64 total);
    void finish();

signals:
    void cancelClicked();

private:
    QLabel* name_;
    QProgressBar* bar_;
    QPushButton* cancel_;
};

} // namespace ts::gui
