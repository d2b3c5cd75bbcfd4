// The Animation panel: the open file's animations (Unigine .smesh frames) and any loaded with
// File › Load Animation… (a .sanim or .anim applied by bone names), played on a timeline:
// play/pause, a scrub slider (fractional frames interpolate), speed and loop.
#pragma once

#include <QDockWidget>
#include <QElapsedTimer>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QSlider;
class QTimer;

namespace meshscope::shell {

class PoseController;

class AnimationDock : public QDockWidget {
    Q_OBJECT
public:
    explicit AnimationDock(PoseController* controller, QWidget* parent = nullptr);

    void setPlaying(bool playing);
    bool playing() const { return playing_; }
    // Shows frame `frame` of the selected animation.
    void setFrame(double frame);
    double frame() const { return frame_; }
    int currentAnimation() const;
    void setCurrentAnimation(int index);
    // Advances by `seconds` of playback (speed and loop applied); the timer calls it.
    void advance(double seconds);
    // File › Load Animation…: asks for a .sanim or .anim and applies it to the open skeleton.
    void loadInteractive();

private:
    void rebuild();
    double frameCount() const;

    PoseController* controller_;
    QComboBox* animations_ = nullptr;
    QPushButton* play_ = nullptr;
    QSlider* scrub_ = nullptr;
    QLabel* frameLabel_ = nullptr;
    QDoubleSpinBox* speed_ = nullptr;
    QCheckBox* loop_ = nullptr;
    QTimer* timer_ = nullptr;
    QElapsedTimer clock_;
    double frame_ = 0;
    bool playing_ = false;
    bool updating_ = false;
};

}  // namespace meshscope::shell
