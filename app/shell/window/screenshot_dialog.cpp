// Screenshot options dialog (see screenshot_dialog.h).
#include "window/screenshot_dialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>

namespace meshscope::shell {

ScreenshotDialog::ScreenshotDialog(QSize viewSize, bool allowTransparency, QWidget* parent)
    : QDialog(parent), viewSize_(viewSize.expandedTo(QSize(1, 1))) {
    setWindowTitle(tr("Export Screenshot"));
    auto* form = new QFormLayout(this);
    scale_ = new QComboBox(this);
    for (int s = 1; s <= 4; ++s)
        scale_->addItem(
            tr("%1× view (%2 × %3)").arg(s).arg(viewSize_.width() * s).arg(viewSize_.height() * s),
            s);
    scale_->addItem(tr("Custom"), 0);
    form->addRow(tr("Size:"), scale_);

    auto* custom = new QHBoxLayout;
    width_ = new QSpinBox(this);
    height_ = new QSpinBox(this);
    for (QSpinBox* box : {width_, height_}) {
        box->setRange(16, 4 * std::max(viewSize_.width(), viewSize_.height()));
        box->setSuffix(tr(" px"));
    }
    width_->setValue(viewSize_.width());
    height_->setValue(viewSize_.height());
    custom->addWidget(width_);
    custom->addWidget(new QLabel(QStringLiteral("×"), this));
    custom->addWidget(height_);
    form->addRow(QString(), custom);

    transparent_ = new QCheckBox(tr("Transparent background"), this);
    transparent_->setEnabled(allowTransparency);
    if (!allowTransparency) transparent_->setToolTip(tr("Only PNG keeps transparency"));
    form->addRow(QString(), transparent_);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Cancel, this);
    form->addRow(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto sync = [this]() {
        const int s = scale_->currentData().toInt();
        width_->setEnabled(s == 0);
        height_->setEnabled(s == 0);
        if (s > 0) {
            width_->setValue(viewSize_.width() * s);
            height_->setValue(viewSize_.height() * s);
        }
    };
    connect(scale_, &QComboBox::currentIndexChanged, this, sync);
    sync();
}

QSize ScreenshotDialog::imageSize() const {
    return {width_->value(), height_->value()};
}
bool ScreenshotDialog::transparentBackground() const {
    return transparent_->isEnabled() && transparent_->isChecked();
}

}  // namespace meshscope::shell
