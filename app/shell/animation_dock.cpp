// Animation panel (see animation_dock.h).
#include "animation_dock.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSlider>
#include <QStyle>
#include <QTimer>
#include <QVBoxLayout>
#include <cmath>

#include "pose_controller.h"

namespace meshscope::shell {

namespace {
constexpr int kSubframes = 10;  // slider steps per frame
}

AnimationDock::AnimationDock(PoseController* controller, QWidget* parent)
    : QDockWidget(tr("Animation"), parent), controller_(controller) {
    setObjectName(QStringLiteral("AnimationDock"));
    auto* w = new QWidget(this);
    auto* layout = new QVBoxLayout(w);
    layout->setContentsMargins(4, 4, 4, 4);
    animations_ = new QComboBox(w);
    layout->addWidget(animations_);
    auto* row = new QHBoxLayout;
    play_ = new QPushButton(w);
    play_->setIcon(style()->standardIcon(QStyle::SP_MediaPlay));
    play_->setToolTip(tr("Play / pause"));
    scrub_ = new QSlider(Qt::Horizontal, w);
    frameLabel_ = new QLabel(w);
    frameLabel_->setMinimumWidth(90);
    row->addWidget(play_);
    row->addWidget(scrub_, 1);
    row->addWidget(frameLabel_);
    layout->addLayout(row);
    auto* row2 = new QHBoxLayout;
    speed_ = new QDoubleSpinBox(w);
    speed_->setRange(0.05, 8);
    speed_->setSingleStep(0.25);
    speed_->setValue(1);
    speed_->setSuffix(QStringLiteral("×"));
    loop_ = new QCheckBox(tr("Loop"), w);
    loop_->setChecked(true);
    row2->addWidget(new QLabel(tr("Speed"), w));
    row2->addWidget(speed_);
    row2->addWidget(loop_);
    row2->addStretch(1);
    layout->addLayout(row2);
    layout->addStretch(1);
    setWidget(w);

    timer_ = new QTimer(this);
    timer_->setInterval(16);
    connect(timer_, &QTimer::timeout, this, [this]() {
        const double dt = double(clock_.restart()) / 1000.0;
        advance(dt);
    });
    connect(play_, &QPushButton::clicked, this, [this]() { setPlaying(!playing_); });
    connect(scrub_, &QSlider::valueChanged, this, [this](int v) {
        if (!updating_) setFrame(double(v) / kSubframes);
    });
    connect(animations_, &QComboBox::currentIndexChanged, this, [this]() {
        if (!updating_) setFrame(0);
    });
    connect(controller_, &PoseController::reloaded, this, &AnimationDock::rebuild);
    rebuild();
}

void AnimationDock::rebuild() {
    updating_ = true;
    const int previous = animations_->currentIndex();
    animations_->clear();
    for (int i = 0; i < controller_->animationCount(); ++i)
        animations_->addItem(controller_->animationName(i));
    const bool any = animations_->count() > 0;
    if (any) animations_->setCurrentIndex(std::clamp(previous, 0, animations_->count() - 1));
    setEnabled(any);
    updating_ = false;
    if (!any) {
        setPlaying(false);
        frameLabel_->setText(tr("no animation"));
        return;
    }
    // A newly loaded animation (the last) is selected.
    if (controller_->animationIndex() < 0 && animations_->count() > 0 && previous >= 0)
        animations_->setCurrentIndex(animations_->count() - 1);
    frame_ = 0;
    updating_ = true;
    scrub_->setRange(0, int(std::max(0.0, frameCount() - 1) * kSubframes));
    scrub_->setValue(0);
    updating_ = false;
    frameLabel_->setText(tr("frame 0 / %1").arg(int(frameCount())));
}

int AnimationDock::currentAnimation() const {
    return animations_->currentIndex();
}

void AnimationDock::setCurrentAnimation(int index) {
    animations_->setCurrentIndex(index);
}

double AnimationDock::frameCount() const {
    const Animation* a = controller_->animation(currentAnimation());
    return a ? double(a->frameCount) : 0.0;
}

void AnimationDock::setPlaying(bool playing) {
    playing_ = playing && frameCount() > 0;
    play_->setIcon(style()->standardIcon(playing_ ? QStyle::SP_MediaPause : QStyle::SP_MediaPlay));
    if (playing_) {
        clock_.start();
        timer_->start();
    } else {
        timer_->stop();
    }
}

void AnimationDock::setFrame(double frame) {
    const double n = frameCount();
    if (n <= 0) return;
    frame_ = std::clamp(frame, 0.0, n - 1);
    updating_ = true;
    scrub_->setRange(0, int((n - 1) * kSubframes));
    scrub_->setValue(int(std::lround(frame_ * kSubframes)));
    updating_ = false;
    frameLabel_->setText(tr("frame %1 / %2").arg(int(frame_)).arg(int(n)));
    controller_->setAnimationFrame(currentAnimation(), frame_);
}

void AnimationDock::advance(double seconds) {
    const Animation* a = controller_->animation(currentAnimation());
    if (!a || a->frameCount == 0) return;
    const double fps = a->framesPerSecond > 0 ? a->framesPerSecond : 30.0;
    double f = frame_ + seconds * fps * speed_->value();
    const double last = double(a->frameCount) - 1;
    if (f > last) {
        if (loop_->isChecked() && last > 0) {
            f = std::fmod(f, last);
        } else {
            f = last;
            setPlaying(false);
        }
    }
    setFrame(f);
}

void AnimationDock::loadInteractive() {
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Load Animation"), {}, tr("Unigine animations (*.sanim *.anim);;All files (*)"));
    if (path.isEmpty()) return;
    QString error;
    if (!controller_->loadAnimationFile(path, &error)) {
        QMessageBox::warning(this, tr("Load Animation"), tr("%1: %2").arg(path, error));
        return;
    }
    show();
    raise();
    setCurrentAnimation(controller_->animationCount() - 1);
}

}  // namespace meshscope::shell
