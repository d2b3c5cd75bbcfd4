// Line overlays drawn over the asset: vertex normals and the scene's bounding box. The line lists
// are built by plain functions (testable without a window); Overlays owns the Qt 3D entities.
// The bones are drawn by SkeletonView (skeleton_view.h), which follows the pose.
#pragma once

#include <QObject>
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

class Overlays : public QObject {
    Q_OBJECT
public:
    explicit Overlays(Qt3DCore::QEntity* root, QObject* parent = nullptr);

    // Builds the bounds of `asset`; the normals are built from it when first shown or counted,
    // so `asset` must outlive the next setAsset() or clear().
    void setAsset(const Asset& asset);
    void clear();

    void setNormalsVisible(bool on);
    void setBoundsVisible(bool on);
    bool normalsVisible() const { return normalsOn_; }
    bool boundsVisible() const { return boundsOn_; }

    // Lines uploaded (for tests and the status bar); the normals' count builds them first.
    std::size_t normalLineCount() const;
    std::size_t boundsLineCount() const;

private:
    void buildNormals() const;

    OverlayLines* normals_;
    OverlayLines* bounds_;
    bool normalsOn_ = false, boundsOn_ = false;
    const Asset* normalsAsset_ = nullptr;  // the asset whose normals are drawn when shown
    mutable bool normalsBuilt_ = false;
};

}  // namespace meshscope::render
