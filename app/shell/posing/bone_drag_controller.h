// Posing a bone with the mouse in the 3D view. Ctrl + left drag turns the selected bone about
// the view axis through its joint (the angle the cursor sweeps around the joint on screen);
// Ctrl + Shift + left drag moves it in the view plane. A Ctrl + press on a joint of the bone
// overlay selects that bone first. Without Ctrl, or with no bone selected, the events go on to
// the orbit camera. The maths is in plain functions, testable without a window; the controller
// only reads the camera and writes BoneEdits through the PoseController (the skeleton dock's
// fields follow its poseChanged signal).
#pragma once

#include <QObject>
#include <QPointF>
#include <QString>

#include "meshscope/core/types.h"
#include "posing/pose_controller.h"

namespace meshscope::render {
class Viewport;
}

namespace meshscope::shell {

enum class BoneDragMode { None, Rotate, Translate };

// The drag a press starts: Ctrl + left rotates, Ctrl + Shift + left translates, anything else
// is no bone drag.
BoneDragMode boneDragMode(Qt::MouseButton button, Qt::KeyboardModifiers modifiers);

// Angle in degrees that the cursor sweeps around `pivot` moving from `from` to `to` (window
// pixels, y down), positive when it turns counter-clockwise on screen. 0 when either point is
// within 2 pixels of the pivot (the angle is meaningless there).
float screenAngleDegrees(QPointF pivot, QPointF from, QPointF to);

// Rotation by `degrees` about `axis` (any length, right-handed); identity for a null axis.
Mat4 axisAngleRotation(const Vec3& axis, float degrees);

// Euler angles (degrees) of a rotation matrix in core's order, R = Rx * Ry * Rz
// (eulerXyzDegrees). Of the two solutions, the one nearer to `near` is returned (so angles do
// not jump by 180° while dragging); at gimbal lock the Z angle is kept at `near.z`.
Vec3 eulerXyzFromMatrix(const Mat4& rotation, const Vec3& near = {});

// The edit rotation after turning the bone by `degrees` about the model-space `axis` through its
// joint. `editFrame` is the frame the edit applies in (PoseController::boneEditFrame): the bone's
// world is editFrame * translation(t) * eulerXyzDegrees(rotation).
Vec3 rotateEditAboutAxis(const Mat4& editFrame, const Vec3& rotationDegrees, const Vec3& axis,
                         float degrees);
// The edit translation after moving the joint by the model-space `delta`.
Vec3 translateEdit(const Mat4& editFrame, const Vec3& translation, const Vec3& delta);

// What the camera contributes to a drag: model-space directions of the screen's right and up,
// the axis towards the viewer, and model units per pixel at the joint's depth.
struct DragView {
    Vec3 right{1, 0, 0};
    Vec3 up{0, 1, 0};
    Vec3 towardViewer{0, 0, 1};
    float unitsPerPixel = 0.01f;
};

// One drag step from `from` to `to` (window pixels) with the joint drawn at `pivot`: the new
// edit of the bone.
BoneEdit applyBoneDrag(BoneDragMode mode, const BoneEdit& edit, const Mat4& editFrame,
                       const DragView& view, QPointF pivot, QPointF from, QPointF to);

class BoneDragController : public QObject {
    Q_OBJECT
public:
    // Filters the viewport's render window; install after the viewport's own filter so this one
    // sees the events first.
    BoneDragController(render::Viewport* viewport, PoseController* pose, QObject* parent = nullptr);

    // Window position (logical pixels) of bone `bone`'s posed joint; false when it is behind
    // the camera or there is no such bone.
    bool jointPosition(int bone, QPointF* out) const;
    // The bone whose joint is drawn nearest to `pos`, within `radius` pixels; -1 when none.
    int pickJoint(QPointF pos, double radius = 12.0) const;
    // The camera's contribution to a drag of bone `bone`.
    DragView dragView(int bone) const;

    bool dragging() const { return mode_ != BoneDragMode::None; }

    // How to pose with the mouse (for tooltips and the status bar).
    static QString usageHint();

signals:
    // A line for the status bar: the usage hint for `timeoutMs` when a bone gets selected, the
    // bone's edit while a drag runs (timeout 0), "" when it ends.
    void message(const QString& text, int timeoutMs);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    render::Viewport* viewport_;
    PoseController* pose_;
    BoneDragMode mode_ = BoneDragMode::None;
    QPointF last_;
};

}  // namespace meshscope::shell
