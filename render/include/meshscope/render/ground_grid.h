// A ground grid under the asset: lines on the plane y = bounds.min.y, spaced by a power of ten
// that suits the asset's size, fading out towards its edge, with the X (red) and Z (blue) axes.
#pragma once

#include <Qt3DCore/QEntity>

#include "meshscope/core/types.h"

namespace Qt3DCore {
class QBuffer;
class QAttribute;
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
    void setBounds(const Bounds& bounds);
    const GridLayout& layout() const { return layout_; }

private:
    Qt3DCore::QBuffer* buffer_;
    Qt3DCore::QAttribute* position_;
    Qt3DCore::QAttribute* color_;
    Qt3DRender::QGeometryRenderer* renderer_;
    GridMaterial* material_;
    GridLayout layout_;
};

}  // namespace meshscope::render
