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

namespace {

// The view's axes at a state's angles: right, up (on screen) and towards the eye.
struct ViewBasis {
    QVector3D right, up, toEye;
};

ViewBasis viewBasis(const OrbitState& s) {
    ViewBasis v;
    v.toEye = (s.eye() - s.target).normalized();
    v.right = QVector3D::crossProduct(s.upVector(), v.toEye);
    if (v.right.lengthSquared() < 1e-8f) v.right = QVector3D(1, 0, 0);
    v.right.normalize();
    v.up = QVector3D::crossProduct(v.toEye, v.right).normalized();
    return v;
}

constexpr float kFitMargin = 1.12f;  // of the half-widths: a border around what is framed

template <typename F>
void forEachCorner(std::span<const Bounds> boxes, F&& f) {
    for (const Bounds& b : boxes) {
        if (!b.valid()) continue;
        for (int c = 0; c < 8; ++c)
            f(QVector3D(c & 1 ? b.max.x : b.min.x, c & 2 ? b.max.y : b.min.y,
                        c & 4 ? b.max.z : b.min.z));
    }
}

}  // namespace

float OrbitState::boxFitDistance(const Bounds& bounds, float fovDegrees, float aspect) const {
    if (!bounds.valid()) return distance;
    const float d = boxesFitDistance(std::span<const Bounds>(&bounds, 1), fovDegrees, aspect);
    return d > 0 ? d : framing(bounds, fovDegrees, aspect).distance;
}

float OrbitState::boxesFitDistance(std::span<const Bounds> boxes, float fovDegrees,
                                   float aspect) const {
    const ViewBasis v = viewBasis(*this);
    const float tanV = std::tan(qDegreesToRadians(fovDegrees) * 0.5f) / kFitMargin;
    const float tanH = tanV * std::max(aspect, 1e-3f);
    float needed = 0;
    Bounds all;
    forEachCorner(boxes, [&](const QVector3D& corner) {
        all.add(Vec3{corner.x(), corner.y(), corner.z()});
        const QVector3D p = corner - target;
        const float x = QVector3D::dotProduct(p, v.right);
        const float y = QVector3D::dotProduct(p, v.up);
        const float z = QVector3D::dotProduct(p, v.toEye);
        // In view when |x| <= (d - z) tanH and |y| <= (d - z) tanV.
        needed = std::max({needed, std::abs(x) / tanH + z, std::abs(y) / tanV + z});
    });
    if (!all.valid()) return 0;
    const Vec3 c = all.center();
    // Never beyond the bounding sphere's distance (from a target moved off its centre, that
    // much further).
    const float sphere =
        framing(all, fovDegrees, aspect).distance + (target - QVector3D(c.x, c.y, c.z)).length();
    if (!std::isfinite(needed) || needed <= 0) return sphere;
    return std::min(needed, sphere);
}

bool OrbitState::fitBoxes(std::span<const Bounds> boxes, float fovDegrees, float aspect) {
    Bounds all;
    forEachCorner(boxes, [&](const QVector3D& c) { all.add(Vec3{c.x(), c.y(), c.z()}); });
    if (!all.valid()) return false;
    const OrbitState sphere = framing(all, fovDegrees, aspect);
    target = sphere.target;
    radius = sphere.radius;
    distance = boxesFitDistance(boxes, fovDegrees, aspect);
    // Centre what is seen: move the target by the middle of the corners' extent on screen
    // (measured at the target's depth), then fit again; twice is enough to settle.
    for (int pass = 0; pass < 2; ++pass) {
        const ViewBasis v = viewBasis(*this);
        float minX = 1e30f, maxX = -1e30f, minY = 1e30f, maxY = -1e30f;
        forEachCorner(boxes, [&](const QVector3D& corner) {
            const QVector3D p = corner - target;
            const float depth =
                std::max(distance - QVector3D::dotProduct(p, v.toEye), distance * 1e-3f);
            const float x = QVector3D::dotProduct(p, v.right) * distance / depth;
            const float y = QVector3D::dotProduct(p, v.up) * distance / depth;
            minX = std::min(minX, x);
            maxX = std::max(maxX, x);
            minY = std::min(minY, y);
            maxY = std::max(maxY, y);
        });
        const QVector3D shift = v.right * (0.5f * (minX + maxX)) + v.up * (0.5f * (minY + maxY));
        if (!std::isfinite(shift.x()) || !std::isfinite(shift.y()) || !std::isfinite(shift.z()))
            break;
        target += shift;
        distance = boxesFitDistance(boxes, fovDegrees, aspect);
    }
    if (!(distance > 0) || !std::isfinite(distance)) {
        target = sphere.target;
        distance = sphere.distance;
    }
    return true;
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
    // Closer than the bounding sphere when the box, seen from these angles, allows it.
    s.distance = s.boxFitDistance(bounds, camera_->fieldOfView(), camera_->aspectRatio());
    state_ = s;
    apply();
}

void CameraController::fit(const Bounds& bounds, std::span<const Bounds> items, bool resetAngles) {
    fit(bounds, resetAngles);
    OrbitState s = state_;
    if (!s.fitBoxes(items, camera_->fieldOfView(), camera_->aspectRatio())) return;
    s.radius = state_.radius;  // clip planes and pan speed keep the whole scene's size
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
