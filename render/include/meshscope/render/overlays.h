// Line overlays drawn over the asset: vertex normals, the scene's bounding box, and bones (a
// line from each bone to its parent at the bones' world positions). The line lists are built by
// plain functions (testable without a window); Overlays owns the Qt 3D entities. Posing updates
// the bones by calling setBones() with the posed world matrices each frame.
#pragma once

#include <QObject>
#include <span>
#include <vector>

#include "meshscope/core/asset.h"

namespace Qt3DCore {
class QEntity;
}

namespace meshscope::render {

class OverlayLines;

// Vertices of a line list, 7 floats each: x y z r g b a.
using LineVertices = std::vector<float>;

// One line per vertex with a normal, from the vertex along the normal, `length` long.
LineVertices normalLines(const Mesh& mesh, float length, std::size_t maxLines = 500000);
// The 12 edges of `bounds` (empty when invalid).
LineVertices boundsLines(const Bounds& bounds);
// A line from each bone's origin to its parent's origin (roots draw none). `parents[i]` is bone
// i's parent index or -1; `world` holds model-space (posed or bind) matrices.
LineVertices boneLines(std::span<const Mat4> world, std::span<const int> parents);

class Overlays : public QObject {
    Q_OBJECT
public:
    explicit Overlays(Qt3DCore::QEntity* root, QObject* parent = nullptr);

    // Builds normals, bounds and bind-pose bones of `asset` (not kept).
    void setAsset(const Asset& asset);
    void clear();

    // Replaces the bone lines (posing calls this with the posed world matrices).
    void setBones(std::span<const Mat4> world, std::span<const int> parents);

    void setNormalsVisible(bool on);
    void setBoundsVisible(bool on);
    void setBonesVisible(bool on);
    bool normalsVisible() const { return normalsOn_; }
    bool boundsVisible() const { return boundsOn_; }
    bool bonesVisible() const { return bonesOn_; }

    // Lines currently uploaded (for tests and the status bar).
    std::size_t normalLineCount() const;
    std::size_t boundsLineCount() const;
    std::size_t boneLineCount() const;

private:
    OverlayLines* normals_;
    OverlayLines* bounds_;
    OverlayLines* bones_;
    bool normalsOn_ = false, boundsOn_ = false, bonesOn_ = false;
};

}  // namespace meshscope::render
