// Animation panel (see animation_dock.h).
#include "posing/animation_dock.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QMessageBox>
#include <QMouseEvent>
#include <QPainter>
#include <QPushButton>
#include <QStyle>
#include <QTimer>
#include <QVBoxLayout>
#include <cmath>

#include "document/asset_document.h"
#include "document/view_state.h"
#include "posing/pose_controller.h"

namespace meshscope::shell {

// ---------------------------------------------------------------------------------------------
// AnimationTimeline

AnimationTimeline::AnimationTimeline(QWidget* parent) : QWidget(parent) {
    setFocusPolicy(Qt::StrongFocus);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    setToolTip(tr("Click or drag to scrub; Left/Right step a frame, Home/End jump"));
}

QSize AnimationTimeline::sizeHint() const {
    return {240, fontMetrics().height() + 24};
}
QSize AnimationTimeline::minimumSizeHint() const {
    return {80, fontMetrics().height() + 24};
}

void AnimationTimeline::setAnimation(double frames, double fps, std::vector<float> keyTimes,
                                     double length) {
    frames_ = std::max(0.0, frames);
    fps_ = fps > 0 && std::isfinite(fps) ? fps : 30.0;
    keyTimes_ = std::move(keyTimes);
    length_ = length > 0 && std::isfinite(length) ? length : 0.0;
    frame_ = 0;
    update();
}

void AnimationTimeline::setFrame(double frame) {
    frame_ = frames_ > 1 ? std::clamp(frame, 0.0, frames_ - 1) : 0.0;
    update();
}

QRect AnimationTimeline::track() const {
    const int margin = 8;
    return {margin, 6, std::max(1, width() - 2 * margin), 10};
}

int AnimationTimeline::xOfFrame(double frame) const {
    const QRect t = track();
    const double last = std::max(1.0, frames_ - 1);
    return t.left() + int(std::lround(std::clamp(frame / last, 0.0, 1.0) * (t.width() - 1)));
}

double AnimationTimeline::frameAt(int x) const {
    const QRect t = track();
    const double last = std::max(0.0, frames_ - 1);
    return std::clamp(double(x - t.left()) / std::max(1, t.width() - 1), 0.0, 1.0) * last;
}

double AnimationTimeline::secondsOfLastFrame() const {
    const double gridEnd = std::max(0.0, frames_ - 1) / fps_;
    return length_ > 0 ? std::min(length_, gridEnd) : gridEnd;
}

double AnimationTimeline::frameOfSeconds(double seconds) const {
    const double last = std::max(0.0, frames_ - 1);
    const double end = secondsOfLastFrame();
    // Frames before the last are on the grid; the last is at `end`, which may come early.
    const double beforeLast = std::max(0.0, last - 1) / fps_;
    if (last >= 1 && end < last / fps_ && seconds > beforeLast) {
        const double span = end - beforeLast;
        return span > 0 ? (last - 1) + std::clamp((seconds - beforeLast) / span, 0.0, 1.0) : last;
    }
    return std::clamp(seconds * fps_, 0.0, last);
}

std::vector<int> AnimationTimeline::tickPositions() const {
    std::vector<int> out;
    if (frames_ <= 0) return out;
    if (!keyTimes_.empty()) {
        for (float t : keyTimes_) out.push_back(xOfFrame(frameOfSeconds(double(t))));
    } else {
        const double seconds = (frames_ - 1) / fps_;
        for (int s = 0; s <= int(seconds) && out.size() < 10000; ++s)
            out.push_back(xOfFrame(s * fps_));
    }
    return out;
}

void AnimationTimeline::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QPalette& pal = palette();
    const QRect t = track();
    p.setPen(Qt::NoPen);
    p.setBrush(pal.color(isEnabled() ? QPalette::Base : QPalette::Window));
    p.drawRoundedRect(t, 3, 3);
    if (frames_ <= 0) return;
    // Played part of the track.
    p.setBrush(pal.color(QPalette::Highlight).lighter(150));
    p.drawRoundedRect(QRect(t.left(), t.top(), xOfFrame(frame_) - t.left(), t.height()), 3, 3);
    // Keyframe ticks (diamonds) or second marks.
    const std::vector<int> ticks = tickPositions();
    p.setBrush(pal.color(QPalette::Text));
    const int cy = t.center().y();
    // Diamonds as large as the keys' spacing allows; thin marks when they crowd.
    const double spacing =
        ticks.size() > 1 ? double(t.width()) / double(ticks.size() - 1) : double(t.width());
    const double r = std::clamp(spacing / 2.5, 1.0, 4.0);
    for (int x : ticks) {
        if (!keyTimes_.empty() && r < 2.0) {
            p.setPen(pal.color(QPalette::Text));
            p.drawLine(x, t.top() + 1, x, t.bottom() - 1);
            p.setPen(Qt::NoPen);
        } else if (!keyTimes_.empty()) {
            const QPointF d[4] = {
                {double(x), cy - r}, {x + r, double(cy)}, {double(x), cy + r}, {x - r, double(cy)}};
            p.drawPolygon(d, 4);
        } else {
            p.setPen(pal.color(QPalette::Mid));
            p.drawLine(x, t.bottom() + 1, x, t.bottom() + 4);
            p.setPen(Qt::NoPen);
        }
    }
    // Seconds under the track at both ends.
    p.setPen(pal.color(QPalette::WindowText));
    const int textY = t.bottom() + 6;
    const QRect textRow(0, textY, width(), fontMetrics().height());
    p.drawText(textRow.adjusted(t.left(), 0, 0, 0), Qt::AlignLeft, QStringLiteral("0 s"));
    p.drawText(textRow.adjusted(0, 0, -t.left(), 0), Qt::AlignRight,
               tr("%1 s").arg(secondsOfLastFrame(), 0, 'f', 2));
    // The play head.
    const int x = xOfFrame(frame_);
    p.setPen(QPen(pal.color(QPalette::Highlight), 2));
    p.drawLine(x, t.top() - 4, x, t.bottom() + 4);
}

void AnimationTimeline::scrubTo(double frame) {
    setFrame(frame);
    emit scrubbed(frame_);
}

void AnimationTimeline::mousePressEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton || frames_ <= 0) return;
    scrubTo(frameAt(int(event->position().x())));
}

void AnimationTimeline::mouseMoveEvent(QMouseEvent* event) {
    if (!(event->buttons() & Qt::LeftButton) || frames_ <= 0) return;
    scrubTo(frameAt(int(event->position().x())));
}

void AnimationTimeline::keyPressEvent(QKeyEvent* event) {
    if (frames_ <= 0) return QWidget::keyPressEvent(event);
    switch (event->key()) {
        case Qt::Key_Left:
            scrubTo(std::floor(frame_ - 0.5));
            break;
        case Qt::Key_Right:
            scrubTo(std::floor(frame_ + 1.0));
            break;
        case Qt::Key_Home:
            scrubTo(0);
            break;
        case Qt::Key_End:
            scrubTo(frames_ - 1);
            break;
        default:
            QWidget::keyPressEvent(event);
    }
}

// ---------------------------------------------------------------------------------------------
// AnimationDock

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
    timeline_ = new AnimationTimeline(w);
    row->addWidget(play_);
    row->addWidget(timeline_, 1);
    layout->addLayout(row);
    frameLabel_ = new QLabel(w);
    frameLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(frameLabel_);
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
    warnings_ = new QLabel(w);
    warnings_->setWordWrap(true);
    warnings_->hide();
    layout->addWidget(warnings_);
    layout->addStretch(1);
    setWidget(w);

    timer_ = new QTimer(this);
    timer_->setInterval(16);
    connect(timer_, &QTimer::timeout, this, [this]() {
        const double dt = double(clock_.restart()) / 1000.0;
        advance(dt);
    });
    connect(play_, &QPushButton::clicked, this, [this]() { setPlaying(!playing()); });
    connect(loop_, &QCheckBox::toggled, this, [this](bool on) {
        if (ViewState* s = state(); s && !updating_) s->setLoop(on);
    });
    connect(speed_, &QDoubleSpinBox::valueChanged, this, [this](double v) {
        if (ViewState* s = state(); s && !updating_) s->setSpeed(v);
    });
    connect(timeline_, &AnimationTimeline::scrubbed, this, [this](double f) {
        if (!updating_) setFrame(f);
    });
    connect(animations_, &QComboBox::currentIndexChanged, this, [this]() {
        if (updating_) return;
        showCurrentAnimation();
        setFrame(0);
    });
    connect(controller_, &PoseController::reloaded, this, &AnimationDock::rebuild);
    setDocument(controller_->document());
    rebuild();
}

void AnimationDock::setDocument(AssetDocument* document) {
    if (document_) disconnect(&document_->viewState(), nullptr, this, nullptr);
    document_ = document;
    if (!document_) return;
    ViewState& s = document_->viewState();
    connect(&s, &ViewState::playbackChanged, this, &AnimationDock::showPlayback);
    connect(&s, &ViewState::wasReset, this, &AnimationDock::showPlayback);
    connect(&s, &ViewState::animationChanged, this, &AnimationDock::showAnimationState);
    showPlayback();
}

ViewState* AnimationDock::state() const {
    return document_ ? &document_->viewState() : nullptr;
}

bool AnimationDock::playing() const {
    return state() && state()->playing();
}

void AnimationDock::showPlayback() {
    const bool on = playing();
    play_->setIcon(style()->standardIcon(on ? QStyle::SP_MediaPause : QStyle::SP_MediaPlay));
    if (on && !timer_->isActive()) {
        clock_.start();
        timer_->start();
    } else if (!on) {
        timer_->stop();
    }
    if (const ViewState* s = state()) {
        updating_ = true;
        loop_->setChecked(s->loop());
        speed_->setValue(s->speed());
        updating_ = false;
    }
}

void AnimationDock::showAnimationState(int index, double frame) {
    if (updating_ || index < 0 || index >= animations_->count()) return;
    updating_ = true;
    if (index != animations_->currentIndex()) {
        animations_->setCurrentIndex(index);
        if (const Animation* a = controller_->animation(index))
            timeline_->setAnimation(double(a->frameCount), a->framesPerSecond, a->keyTimes,
                                    a->length);
    }
    frame_ = frame;
    timeline_->setFrame(frame_);
    updating_ = false;
    frameLabel_->setText(timeText());
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
    showCurrentAnimation();
}

void AnimationDock::showCurrentAnimation() {
    const Animation* a = controller_->animation(currentAnimation());
    if (!a) return;
    timeline_->setAnimation(double(a->frameCount), a->framesPerSecond, a->keyTimes, a->length);
    const bool loop = a->loop || a->keyTimes.empty();  // Roblox sequences say; others loop
    if (ViewState* s = state())
        s->setLoop(loop);
    else
        loop_->setChecked(loop);
    frame_ = 0;
    frameLabel_->setText(timeText());
}

QString AnimationDock::timeText() const {
    const Animation* a = controller_->animation(currentAnimation());
    if (!a) return tr("no animation");
    const double fps = a->framesPerSecond > 0 ? a->framesPerSecond : 30.0;
    // A baked Roblox animation's last frame is at its length, off the frame grid
    // (Animation::length).
    const double gridEnd = std::max(0.0, double(a->frameCount) - 1) / fps;
    const double length = a->length > 0 ? std::min(double(a->length), gridEnd + 1 / fps) : gridEnd;
    const double last = std::max(0.0, double(a->frameCount) - 1);
    const double now = frame_ >= last && a->length > 0 ? length : std::min(frame_ / fps, length);
    return tr("%1 s / %2 s · frame %3 / %4 · %5 fps")
        .arg(now, 0, 'f', 2)
        .arg(length, 0, 'f', 2)
        .arg(int(frame_))
        .arg(a->frameCount)
        .arg(fps, 0, 'g', 4);
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
    if (ViewState* s = state()) s->setPlaying(playing && frameCount() > 0);
    showPlayback();
}

void AnimationDock::setFrame(double frame) {
    const double n = frameCount();
    if (n <= 0) return;
    frame_ = std::clamp(frame, 0.0, n - 1);
    updating_ = true;
    timeline_->setFrame(frame_);
    frameLabel_->setText(timeText());
    controller_->setAnimationFrame(currentAnimation(), frame_);  // writes the view state
    updating_ = false;
}

void AnimationDock::advance(double seconds) {
    const Animation* a = controller_->animation(currentAnimation());
    if (!a || a->frameCount == 0) return;
    const double fps = a->framesPerSecond > 0 ? a->framesPerSecond : 30.0;
    const ViewState* s = state();
    double f = frame_ + seconds * fps * (s ? s->speed() : speed_->value());
    const double last = double(a->frameCount) - 1;
    if (f > last) {
        if ((s ? s->loop() : loop_->isChecked()) && last > 0) {
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
        this, tr("Load Animation"), {},
        tr("Animations (*.sanim *.anim *.rbxm *.rbxmx);;Unigine animations (*.sanim *.anim);;"
           "Roblox KeyframeSequences (*.rbxm *.rbxmx);;All files (*)"));
    if (path.isEmpty()) return;
    QString error;
    if (!loadFile(path, &error))
        QMessageBox::warning(this, tr("Load Animation"), tr("%1: %2").arg(path, error));
}

bool AnimationDock::loadFile(const QString& path, QString* error) {
    if (!controller_->loadAnimationFile(path, error)) return false;
    show();
    raise();
    setCurrentAnimation(controller_->animationCount() - 1);
    showCurrentAnimation();
    setFrame(0);
    const QStringList& warnings = controller_->loadWarnings();
    warnings_->setVisible(!warnings.isEmpty());
    warnings_->setText(warnings.isEmpty()
                           ? QString()
                           : tr("Not matched (%1): %2")
                                 .arg(warnings.size())
                                 .arg(warnings.mid(0, 8).join(QStringLiteral("; ")) +
                                      (warnings.size() > 8 ? QStringLiteral("; …") : QString())));
    emit fileLoaded();
    return true;
}

}  // namespace meshscope::shell
