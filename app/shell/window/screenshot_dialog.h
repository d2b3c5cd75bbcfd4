// Options of File › Export Screenshot: output size (the view's size times 1 to 4, or typed in)
// and a transparent background (PNG only).
#pragma once

#include <QDialog>
#include <QSize>

class QCheckBox;
class QComboBox;
class QSpinBox;

namespace meshscope::shell {

class ScreenshotDialog : public QDialog {
    Q_OBJECT
public:
    ScreenshotDialog(QSize viewSize, bool allowTransparency, QWidget* parent = nullptr);
    QSize imageSize() const;
    bool transparentBackground() const;

private:
    QSize viewSize_;
    QComboBox* scale_;
    QSpinBox* width_;
    QSpinBox* height_;
    QCheckBox* transparent_;
};

}  // namespace meshscope::shell
