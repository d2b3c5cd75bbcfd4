// Orbit camera: a target, a distance and two angles about the asset's up axis (Y, or Z for
// Second Life and Unigine: the angles then mean what they mean for the asset turned Y-up, so a
// Z-up asset is seen as its Y-up export is), driven by the mouse (left drag
// orbits, middle or shift + left drag pans, the wheel zooms towards the target) and framed to a
// bounding box. The maths is separate from the event handling so it is testable.
#pragma once

#include <QObject>
#include <QPoint>
#include <QVector3D>
#include <span>

#include "meshscope/core/axes.h"
#include "meshscope/core/types.h"

class QEvent;

namespace Qt3DRender {
class QCamera;
}

namespace meshscope::render {

struct OrbitState {
    QVector3D target;
    float distance = 10.f;
    float yawDegrees = 145.f;   // around +Y; 180 looks from -Z (the front of Roblox meshes)
    float pitchDegrees = 22.f;  // above the horizon
    float radius = 1.f;         // size of what is framed (for clip planes and pan speed)
    UpAxis up = UpAxis::Y;      // of the asset's coordinates, which the camera works in

    QVector3D eye() const;
    QVector3D upVector() const;
    // Keeps the whole sphere (centre, radius) in a vertical field of view of `fovDegrees`.
    static OrbitState framing(const Bounds& bounds, float fovDegrees, float aspect);
    // The distance from `target` at which the eight corners of `bounds`, seen at this state's
    // angles, all lie inside the view (with a small margin): a flat place or a long mesh seen
    // from above fills the frame instead of sitting inside its bounding sphere's circle. Never
    // more than the sphere's distance from framing().
    float boxFitDistance(const Bounds& bounds, float fovDegrees, float aspect) const;
    // The same over the corners of several boxes (a place's parts): the distance at which all
    // lie in view from `target` at this state's angles. 0 when no box is valid.
    float boxesFitDistance(std::span<const Bounds> boxes, float fovDegrees, float aspect) const;
    // Frames the boxes from this state's angles: the target moves across the view so that
    // what is seen is centred on screen, and the distance is the boxes' fit distance (never
    // beyond the bounding sphere of their union). Returns false when no box is valid.
    bool fitBoxes(std::span<const Bounds> boxes, float fovDegrees, float aspect);
};

class CameraController : public QObject {
    Q_OBJECT
public:
    explicit CameraController(Qt3DRender::QCamera* camera, QObject* parent = nullptr);

    const OrbitState& state() const { return state_; }
    void setState(const OrbitState& state);
    // Frames `bounds` (non-finite points are already excluded by Bounds); keeps the angles
    // unless `resetAngles`.
    void fit(const Bounds& bounds, bool resetAngles = false);
    // As fit(), with the view fitted to these boxes (inside `bounds`) rather than to the
    // corners of `bounds` alone.
    void fit(const Bounds& bounds, std::span<const Bounds> items, bool resetAngles);
    // The up axis of what is shown; the angles keep their meaning (see OrbitState).
    void setUpAxis(UpAxis up);
    // The yaw fit(…, resetAngles = true) turns to: the asset's front three-quarters on
    // (frontViewYawDegrees).
    void setDefaultYaw(float yawDegrees) { defaultYaw_ = yawDegrees; }

    void orbit(float dxPixels, float dyPixels);
    void pan(float dxPixels, float dyPixels, int viewportHeight);
    void zoom(float steps);

    // Mouse handling for the 3D window; returns true when the event was used.
    bool handleEvent(QEvent* event, int viewportHeight);

signals:
    void changed();

private:
    void apply();

    Qt3DRender::QCamera* camera_;
    OrbitState state_;
    Bounds bounds_;
    float defaultYaw_ = OrbitState().yawDegrees;
    enum class Drag { None, Orbit, Pan } drag_ = Drag::None;
    QPointF last_;
};

}  // namespace meshscope::render
