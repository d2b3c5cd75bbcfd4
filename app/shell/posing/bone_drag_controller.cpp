// Bone posing with the mouse (see bone_drag_controller.h).
#include "posing/bone_drag_controller.h"

#include <QMatrix4x4>
#include <QMouseEvent>
#include <QVector4D>
#include <QWindow>
#include <Qt3DRender/QCamera>
#include <QtMath>
#include <algorithm>
#include <cmath>
#include <numbers>

#include "meshscope/core/pose.h"
#include "meshscope/render/viewport.h"

namespace meshscope::shell {

namespace {

constexpr float kRadToDeg = 180.0f / std::numbers::pi_v<float>;

float length(const Vec3& v) {
    return std::sqrt(v.x * v.x + v.y * v.y + v.z * v.z);
}

// The 3×3 part of `m` (no translation).
Mat4 linearPart(Mat4 m) {
    m.at(0, 3) = m.at(1, 3) = m.at(2, 3) = 0;
    return m;
}

// The rotation of `m`'s 3×3 part: its columns normalised (scale taken off; shear is ignored).
Mat4 rotationPart(const Mat4& m) {
    Mat4 r = linearPart(m);
    for (int c = 0; c < 3; ++c) {
        const float n = length({r.at(0, c), r.at(1, c), r.at(2, c)});
        if (n > 0)
            for (int row = 0; row < 3; ++row) r.at(row, c) /= n;
    }
    return r;
}

// `angle` plus the multiple of 360 that brings it nearest to `near`.
float nearestTurn(float angle, float near) {
    return angle + 360.0f * std::round((near - angle) / 360.0f);
}

Vec3 toVec3(const QVector3D& v) {
    return {v.x(), v.y(), v.z()};
}

}  // namespace

BoneDragMode boneDragMode(Qt::MouseButton button, Qt::KeyboardModifiers modifiers) {
    if (button != Qt::LeftButton || !(modifiers & Qt::ControlModifier)) return BoneDragMode::None;
    return (modifiers & Qt::ShiftModifier) ? BoneDragMode::Translate : BoneDragMode::Rotate;
}

float screenAngleDegrees(QPointF pivot, QPointF from, QPointF to) {
    const QPointF a = from - pivot, b = to - pivot;
    if (std::hypot(a.x(), a.y()) < 2.0 || std::hypot(b.x(), b.y()) < 2.0) return 0.0f;
    // y grows downwards on screen, so the y-down cross product is clockwise-positive.
    const double cross = a.x() * b.y() - a.y() * b.x();
    const double dot = a.x() * b.x() + a.y() * b.y();
    return float(-std::atan2(cross, dot)) * kRadToDeg;
}

Mat4 axisAngleRotation(const Vec3& axis, float degrees) {
    const float n = length(axis);
    if (!(n > 0) || !std::isfinite(n)) return Mat4::identity();
    const float x = axis.x / n, y = axis.y / n, z = axis.z / n;
    const float r = degrees / kRadToDeg;
    const float c = std::cos(r), s = std::sin(r), t = 1 - c;
    Mat4 m;
    m.at(0, 0) = c + x * x * t;
    m.at(0, 1) = x * y * t - z * s;
    m.at(0, 2) = x * z * t + y * s;
    m.at(1, 0) = y * x * t + z * s;
    m.at(1, 1) = c + y * y * t;
    m.at(1, 2) = y * z * t - x * s;
    m.at(2, 0) = z * x * t - y * s;
    m.at(2, 1) = z * y * t + x * s;
    m.at(2, 2) = c + z * z * t;
    return m;
}

Vec3 eulerXyzFromMatrix(const Mat4& r, const Vec3& near) {
    // R = Rx(a) Ry(b) Rz(c) has R02 = sin b, R12 = -sin a cos b, R22 = cos a cos b,
    // R01 = -cos b sin c, R00 = cos b cos c.
    const float sb = std::clamp(r.at(0, 2), -1.0f, 1.0f);
    if (std::fabs(sb) > 0.99999f) {
        // Gimbal lock (b = ±90°): only a + c (b = 90°) or c - a (b = -90°) is defined, from
        // R10 and R11; keep c where it was.
        const float b = sb > 0 ? 90.0f : -90.0f;
        const float combined = std::atan2(r.at(1, 0), r.at(1, 1)) * kRadToDeg;
        const float c = near.z;
        const float a = sb > 0 ? combined - c : c - combined;
        return {nearestTurn(a, near.x), nearestTurn(b, near.y), c};
    }
    const float a = std::atan2(-r.at(1, 2), r.at(2, 2)) * kRadToDeg;
    const float b = std::asin(sb) * kRadToDeg;
    const float c = std::atan2(-r.at(0, 1), r.at(0, 0)) * kRadToDeg;
    // The other solution: (a + 180, 180 - b, c + 180).
    const Vec3 first{nearestTurn(a, near.x), nearestTurn(b, near.y), nearestTurn(c, near.z)};
    const Vec3 second{nearestTurn(a + 180, near.x), nearestTurn(180 - b, near.y),
                      nearestTurn(c + 180, near.z)};
    auto distance = [&](const Vec3& v) {
        return std::fabs(v.x - near.x) + std::fabs(v.y - near.y) + std::fabs(v.z - near.z);
    };
    return distance(second) < distance(first) ? second : first;
}

Vec3 rotateEditAboutAxis(const Mat4& editFrame, const Vec3& rotationDegrees, const Vec3& axis,
                         float degrees) {
    // world = F * T * R. Turning the bone by W about its joint: F * T * R' = W * F * T * R in the
    // linear part, so R' = Q^T W Q R with Q the frame's rotation, a turn about Q^T axis.
    const Mat4 q = rotationPart(editFrame);
    const Vec3 localAxis = transformVector(inverse(q), axis);
    const Mat4 turned = axisAngleRotation(localAxis, degrees) * eulerXyzDegrees(rotationDegrees);
    return eulerXyzFromMatrix(turned, rotationDegrees);
}

Vec3 translateEdit(const Mat4& editFrame, const Vec3& translation, const Vec3& delta) {
    // The joint sits at F * t: moving it by delta adds F⁻¹ delta (the linear part) to t.
    return translation + transformVector(inverse(linearPart(editFrame)), delta);
}

BoneEdit applyBoneDrag(BoneDragMode mode, const BoneEdit& edit, const Mat4& editFrame,
                       const DragView& view, QPointF pivot, QPointF from, QPointF to) {
    BoneEdit out = edit;
    if (mode == BoneDragMode::Rotate) {
        const float angle = screenAngleDegrees(pivot, from, to);
        if (angle != 0.0f)
            out.rotation = rotateEditAboutAxis(editFrame, edit.rotation, view.towardViewer, angle);
    } else if (mode == BoneDragMode::Translate) {
        const float dx = float(to.x() - from.x()) * view.unitsPerPixel;
        const float dy = float(to.y() - from.y()) * view.unitsPerPixel;
        out.translation =
            translateEdit(editFrame, edit.translation, view.right * dx - view.up * dy);
    }
    return out;
}

BoneDragController::BoneDragController(render::Viewport* viewport, PoseController* pose,
                                       QObject* parent)
    : QObject(parent), viewport_(viewport), pose_(pose) {
    if (QWindow* w = viewport_->renderWindow()) w->installEventFilter(this);
    connect(pose_, &PoseController::selectedBoneChanged, this, [this](int bone) {
        if (bone >= 0 && mode_ == BoneDragMode::None) emit message(usageHint(), 6000);
    });
}

QString BoneDragController::usageHint() {
    return tr(
        "Ctrl+drag in the 3D view turns the selected bone about the view axis, "
        "Ctrl+Shift+drag moves it; Ctrl+click a joint to select its bone.");
}

bool BoneDragController::jointPosition(int bone, QPointF* out) const {
    const std::vector<Mat4>& world = pose_->posedWorld();
    QWindow* window = viewport_->renderWindow();
    Qt3DRender::QCamera* camera = viewport_->camera();
    if (bone < 0 || std::size_t(bone) >= world.size() || !window || !camera) return false;
    const Mat4& m = world[std::size_t(bone)];
    const QVector4D clip = camera->projectionMatrix() * camera->viewMatrix() *
                           QVector4D(m.at(0, 3), m.at(1, 3), m.at(2, 3), 1.0f);
    if (!(clip.w() > 0)) return false;
    const float x = clip.x() / clip.w(), y = clip.y() / clip.w();
    if (!std::isfinite(x) || !std::isfinite(y)) return false;
    *out = QPointF((x + 1) * 0.5 * window->width(), (1 - y) * 0.5 * window->height());
    return true;
}

int BoneDragController::pickJoint(QPointF pos, double radius) const {
    if (!pose_->skeletonVisible()) return -1;
    int best = -1;
    double bestDistance = radius;
    for (int b = 0; b < int(pose_->posedWorld().size()); ++b) {
        QPointF at;
        if (!jointPosition(b, &at)) continue;
        const double d = std::hypot(at.x() - pos.x(), at.y() - pos.y());
        if (d <= bestDistance) best = b, bestDistance = d;
    }
    return best;
}

DragView BoneDragController::dragView(int bone) const {
    DragView v;
    Qt3DRender::QCamera* camera = viewport_->camera();
    QWindow* window = viewport_->renderWindow();
    if (!camera || !window) return v;
    const QVector3D eye = camera->position();
    QVector3D forward = camera->viewCenter() - eye;
    const float distance = forward.length();
    forward.normalize();
    QVector3D right = QVector3D::crossProduct(forward, camera->upVector());
    if (right.lengthSquared() < 1e-8f) right = QVector3D(1, 0, 0);
    right.normalize();
    const QVector3D up = QVector3D::crossProduct(right, forward).normalized();
    v.right = toVec3(right);
    v.up = toVec3(up);
    v.towardViewer = toVec3(-forward);
    float depth = distance;
    const std::vector<Mat4>& world = pose_->posedWorld();
    if (bone >= 0 && std::size_t(bone) < world.size()) {
        const Mat4& m = world[std::size_t(bone)];
        const float d =
            QVector3D::dotProduct(QVector3D(m.at(0, 3), m.at(1, 3), m.at(2, 3)) - eye, forward);
        if (d > 0 && std::isfinite(d)) depth = d;
    }
    v.unitsPerPixel = 2.0f * depth * std::tan(qDegreesToRadians(camera->fieldOfView()) * 0.5f) /
                      float(std::max(window->height(), 1));
    return v;
}

bool BoneDragController::eventFilter(QObject* watched, QEvent* event) {
    if (watched != viewport_->renderWindow()) return QObject::eventFilter(watched, event);
    switch (event->type()) {
        case QEvent::MouseButtonPress: {
            auto* e = static_cast<QMouseEvent*>(event);
            const BoneDragMode mode = boneDragMode(e->button(), e->modifiers());
            if (mode == BoneDragMode::None || pose_->boneCount() == 0) return false;
            const int picked = pickJoint(e->position());
            if (picked >= 0) pose_->setSelectedBone(picked);
            if (pose_->selectedBone() < 0) return false;  // nothing to pose: the camera orbits
            mode_ = mode;
            last_ = e->position();
            return true;
        }
        case QEvent::MouseMove: {
            if (mode_ == BoneDragMode::None) return false;
            auto* e = static_cast<QMouseEvent*>(event);
            const int bone = pose_->selectedBone();
            QPointF pivot;
            if (bone < 0 || !jointPosition(bone, &pivot)) return true;
            const BoneEdit edit =
                applyBoneDrag(mode_, pose_->boneEdit(bone), pose_->boneEditFrame(bone),
                              dragView(bone), pivot, last_, e->position());
            last_ = e->position();
            pose_->setBoneEdit(bone, edit);
            const Vec3 r = edit.rotation, t = edit.translation;
            emit message(
                tr("%1: rotation %2°, %3°, %4°  move %5, %6, %7")
                    .arg(QString::fromStdString(pose_->skeleton()->bones[std::size_t(bone)].name))
                    .arg(double(r.x), 0, 'f', 1)
                    .arg(double(r.y), 0, 'f', 1)
                    .arg(double(r.z), 0, 'f', 1)
                    .arg(double(t.x), 0, 'f', 3)
                    .arg(double(t.y), 0, 'f', 3)
                    .arg(double(t.z), 0, 'f', 3),
                0);
            return true;
        }
        case QEvent::MouseButtonRelease:
            if (mode_ == BoneDragMode::None) return false;
            mode_ = BoneDragMode::None;
            emit message(QString(), 0);
            return true;
        default:
            return QObject::eventFilter(watched, event);
    }
}

}  // namespace meshscope::shell
