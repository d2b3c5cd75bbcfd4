// The skeleton overlay: one line from each bone's joint to its parent's joint and a small cross
// at every joint, drawn over the meshes (no depth test) so bones inside a mesh stay visible. The
// selected bone is drawn in a different colour. Positions come from posed world transforms
// (core's posedWorldTransforms / PoseEvaluator::world), so the overlay follows the pose.
#pragma once

#include <QByteArray>
#include <Qt3DCore/QEntity>
#include <span>

#include "meshscope/core/asset.h"

namespace Qt3DCore {
class QBuffer;
}
namespace Qt3DRender {
class QGeometryRenderer;
}

namespace meshscope::render {

class GridMaterial;

class SkeletonView : public Qt3DCore::QEntity {
    Q_OBJECT
public:
    explicit SkeletonView(Qt3DCore::QNode* parent = nullptr);

    // `world` holds one model-space transform per bone, `parent` one parent index per bone (-1
    // for roots); `jointSize` is the half size of the joint crosses; `selected` (-1: none) is
    // drawn highlighted.
    void setBones(std::span<const Mat4> world, std::span<const int> parent, float jointSize,
                  int selected);
    void clearBones();

    int lineCount() const { return lineCount_; }
    const QByteArray& vertices() const { return vertices_; }

private:
    Qt3DCore::QBuffer* buffer_ = nullptr;
    Qt3DRender::QGeometryRenderer* renderer_ = nullptr;
    GridMaterial* material_ = nullptr;
    QByteArray vertices_;
    int lineCount_ = 0;
};

}  // namespace meshscope::render
