// The Animation panel: the open file's animations (Unigine .smesh frames, a Roblox model's
// KeyframeSequences baked on its rig) and any loaded with File › Load Animation… (a .sanim or
// .anim applied by bone names, or Roblox KeyframeSequences baked on the open rig), played on a
// timeline: play/pause, scrubbing (fractional frames interpolate), keyframe ticks, the current
// time, speed and loop. What is shown (animation, frame, playing, loop, speed) is the document's
// view state (AssetDocument::viewState): the dock writes it and follows its changes.
#pragma once

#include <QDockWidget>
#include <QElapsedTimer>
#include <vector>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QTimer;

namespace meshscope::shell {

class AssetDocument;
class PoseController;
class ViewState;

// A timeline strip: the animation's length, a tick per keyframe (or per second when every frame
// is a key), the play head; click or drag to scrub, Left/Right step a frame, Home/End jump.
class AnimationTimeline : public QWidget {
    Q_OBJECT
public:
    explicit AnimationTimeline(QWidget* parent = nullptr);
    // `frames` frames at `fps`; `keyTimes` in seconds (empty: a tick per second). `length` > 0:
    // the last frame is at that many seconds, off the frame grid (Animation::length).
    void setAnimation(double frames, double fps, std::vector<float> keyTimes, double length = 0);
    void setFrame(double frame);
    double frame() const { return frame_; }
    // Where tick `i` is drawn, in pixels from the left (for tests).
    std::vector<int> tickPositions() const;
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    void scrubbed(double frame);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;

private:
    QRect track() const;
    int xOfFrame(double frame) const;
    double frameAt(int x) const;
    void scrubTo(double frame);
    // The inverses of Animation's frame times: min(frame / fps, length).
    double frameOfSeconds(double seconds) const;
    double secondsOfLastFrame() const;

    double frames_ = 0, fps_ = 30, frame_ = 0, length_ = 0;
    std::vector<float> keyTimes_;
};

class AnimationDock : public QDockWidget {
    Q_OBJECT
public:
    // Lists `controller`'s animations; follows its document's view state until setDocument.
    explicit AnimationDock(PoseController* controller, QWidget* parent = nullptr);
    // Shows and writes the animation, frame and playback of `document`'s view state.
    void setDocument(AssetDocument* document);

    void setPlaying(bool playing);
    bool playing() const;
    // Shows frame `frame` of the selected animation.
    void setFrame(double frame);
    double frame() const { return frame_; }
    int currentAnimation() const;
    void setCurrentAnimation(int index);
    // Advances by `seconds` of playback (speed and loop applied); the timer calls it.
    void advance(double seconds);
    // File › Load Animation…: asks for a .sanim, .anim or Roblox model with KeyframeSequences
    // and applies it to the open skeleton or rig.
    void loadInteractive();
    // Loads `path` as loadInteractive does, without dialogs (drops, tests); false with `error`.
    bool loadFile(const QString& path, QString* error = nullptr);
    AnimationTimeline* timeline() const { return timeline_; }
    QString timeText() const;

signals:
    // loadFile (or loadInteractive) applied a file's animations to the open rig.
    void fileLoaded();

private:
    void rebuild();
    // The timeline, loop box and label for the selected animation.
    void showCurrentAnimation();
    double frameCount() const;
    ViewState* state() const;
    // The play button, timer, loop box and speed from the view state.
    void showPlayback();
    // A frame or animation set in the view state by someone else (tests, the command line).
    void showAnimationState(int index, double frame);

    PoseController* controller_;
    AssetDocument* document_ = nullptr;
    QComboBox* animations_ = nullptr;
    QPushButton* play_ = nullptr;
    AnimationTimeline* timeline_ = nullptr;
    QLabel* frameLabel_ = nullptr;
    QLabel* warnings_ = nullptr;
    QDoubleSpinBox* speed_ = nullptr;
    QCheckBox* loop_ = nullptr;
    QTimer* timer_ = nullptr;
    QElapsedTimer clock_;
    double frame_ = 0;
    bool updating_ = false;
};

}  // namespace meshscope::shell
