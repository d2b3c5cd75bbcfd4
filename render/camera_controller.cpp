// Orbit camera maths and mouse handling (see camera_controller.h).
#include "meshscope/render/camera_controller.h"

#include <QMouseEvent>
#include <QWheelEvent>
#include <Qt3DRender/QCamera>
#include <QtMath>
#include <algorithm>
#include <cmath>

namespace meshscope::render {

QVector3D OrbitState::eye() const {
    const float yaw = qDegreesToRadians(yawDegrees);
    const float pitch = qDegreesToRadians(pitchDegrees);
    const Vec3 dir = fromYUp(up, Vec3{std::cos(pitch) * std::sin(yaw), std::sin(pitch),
                                      std::cos(pitch) * std::cos(yaw)});
    return target + QVector3D(dir.x, dir.y, dir.z) * distance;
}

QVector3D OrbitState::upVector() const {
    const Vec3 u = fromYUp(up, Vec3{0, 1, 0});
    return {u.x, u.y, u.z};
}

OrbitState OrbitState::framing(const Bounds& bounds, float fovDegrees, float aspect) {
    OrbitState s;
    if (!bounds.valid()) {
        s.target = {};
        s.radius = 1.f;
    } else {
        const Vec3 c = bounds.center();
        const Vec3 size = bounds.size();
        s.target = {c.x, c.y, c.z};
        s.radius =
            std::max(0.5f * std::sqrt(size.x * size.x + size.y * size.y + size.z * size.z), 1e-4f);
    }
    // The narrower of the two fields of view decides.
    const float halfV = qDegreesToRadians(fovDegrees) * 0.5f;
    const float halfH = std::atan(std::tan(halfV) * std::max(aspect, 1e-3f));
    const float half = std::min(halfV, halfH);
    s.distance = s.radius / std::sin(half) * 1.05f;
    return s;
}

CameraController::CameraController(Qt3DRender::QCamera* camera, QObject* parent)
    : QObject(parent), camera_(camera) {
    apply();
}

void CameraController::setState(const OrbitState& state) {
    state_ = state;
    apply();
}

void CameraController::fit(const Bounds& bounds, bool resetAngles) {
    bounds_ = bounds;
    OrbitState s = OrbitState::framing(bounds, camera_->fieldOfView(), camera_->aspectRatio());
    if (!resetAngles) {
        s.yawDegrees = state_.yawDegrees;
        s.pitchDegrees = state_.pitchDegrees;
    } else {
        s.yawDegrees = defaultYaw_;
    }
    s.up = state_.up;
    state_ = s;
    apply();
}

void CameraController::setUpAxis(UpAxis up) {
    if (state_.up == up) return;
    state_.up = up;
    apply();
}

void CameraController::orbit(float dx, float dy) {
    state_.yawDegrees = std::fmod(state_.yawDegrees - dx * 0.4f, 360.f);
    state_.pitchDegrees = std::clamp(state_.pitchDegrees + dy * 0.4f, -89.f, 89.f);
    apply();
}

void CameraController::pan(float dx, float dy, int viewportHeight) {
    const QVector3D eye = state_.eye();
    const QVector3D forward = (state_.target - eye).normalized();
    QVector3D right = QVector3D::crossProduct(forward, state_.upVector());
    if (right.lengthSquared() < 1e-8f) right = QVector3D(1, 0, 0);
    right.normalize();
    const QVector3D up = QVector3D::crossProduct(right, forward).normalized();
    const float worldPerPixel = 2.f * state_.distance *
                                std::tan(qDegreesToRadians(camera_->fieldOfView()) * 0.5f) /
                                float(std::max(viewportHeight, 1));
    state_.target += (-right * dx + up * dy) * worldPerPixel;
    apply();
}

void CameraController::zoom(float steps) {
    state_.distance = std::clamp(state_.distance * std::pow(0.85f, steps), state_.radius * 1e-3f,
                                 state_.radius * 1e4f);
    apply();
}

bool CameraController::handleEvent(QEvent* event, int viewportHeight) {
    switch (event->type()) {
        case QEvent::MouseButtonPress: {
            auto* e = static_cast<QMouseEvent*>(event);
            if (e->button() == Qt::LeftButton)
                drag_ = (e->modifiers() & Qt::ShiftModifier) ? Drag::Pan : Drag::Orbit;
            else if (e->button() == Qt::MiddleButton || e->button() == Qt::RightButton)
                drag_ = Drag::Pan;
            else
                return false;
            last_ = e->position();
            return true;
        }
        case QEvent::MouseMove: {
            if (drag_ == Drag::None) return false;
            auto* e = static_cast<QMouseEvent*>(event);
            const QPointF d = e->position() - last_;
            last_ = e->position();
            if (drag_ == Drag::Orbit)
                orbit(float(d.x()), float(d.y()));
            else
                pan(float(d.x()), float(d.y()), viewportHeight);
            return true;
        }
        case QEvent::MouseButtonRelease:
            if (drag_ == Drag::None) return false;
            drag_ = Drag::None;
            return true;
        case QEvent::Wheel: {
            auto* e = static_cast<QWheelEvent*>(event);
            zoom(float(e->angleDelta().y()) / 120.f);
            return true;
        }
        default:
            return false;
    }
}

void CameraController::apply() {
    const QVector3D eye = state_.eye();
    camera_->setViewCenter(state_.target);
    camera_->setPosition(eye);
    camera_->setUpVector(state_.upVector());
    const float reach = std::max(state_.radius, 1e-4f);
    camera_->setNearPlane(std::max(state_.distance - reach * 3.f, state_.distance * 1e-3f));
    camera_->setFarPlane(state_.distance + reach * 12.f);
    emit changed();
}

}  // namespace meshscope::render
