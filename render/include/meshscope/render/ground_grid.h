// A ground grid under the asset: lines on the plane y = bounds.min.y (z = bounds.min.z for a
// Z-up asset: the grid is laid out for the asset turned Y-up and turned back with it), spaced by a
// power of ten that suits the asset's size, fading out towards its edge, with the X (red) and Z
// (blue) axes.
#pragma once

#include <Qt3DCore/QEntity>

#include "meshscope/core/axes.h"
#include "meshscope/core/types.h"

namespace Qt3DCore {
class QBuffer;
class QAttribute;
class QTransform;
}  // namespace Qt3DCore
namespace Qt3DRender {
class QGeometryRenderer;
}

namespace meshscope::render {

class GridMaterial;

struct GridLayout {
    float y = 0;
    float centerX = 0, centerZ = 0;
    float spacing = 1;  // distance between minor lines
    float radius = 10;  // half extent
    int lineCount = 0;  // minor + major + axes, in both directions
    static GridLayout forBounds(const Bounds& bounds);
};

class GroundGrid : public Qt3DCore::QEntity {
    Q_OBJECT
public:
    explicit GroundGrid(Qt3DCore::QNode* parent = nullptr);
    // `bounds` in the asset's coordinates, whose up axis is `up`.
    void setBounds(const Bounds& bounds, UpAxis up = UpAxis::Y);
    const GridLayout& layout() const { return layout_; }

private:
    Qt3DCore::QBuffer* buffer_;
    Qt3DCore::QAttribute* position_;
    Qt3DCore::QAttribute* color_;
    Qt3DRender::QGeometryRenderer* renderer_;
    GridMaterial* material_;
    Qt3DCore::QTransform* transform_;
    GridLayout layout_;
};

}  // namespace meshscope::render
