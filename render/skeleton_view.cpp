// Skeleton overlay geometry (see skeleton_view.h).
#include "meshscope/render/skeleton_view.h"

#include <Qt3DCore/QAttribute>
#include <Qt3DCore/QBuffer>
#include <Qt3DCore/QGeometry>
#include <Qt3DRender/QDepthTest>
#include <Qt3DRender/QEffect>
#include <Qt3DRender/QGeometryRenderer>
#include <Qt3DRender/QRenderPass>
#include <Qt3DRender/QTechnique>
#include <cstring>

#include "meshscope/render/materials.h"
#include "meshscope/render/mesh_packing.h"

namespace meshscope::render {

using Qt3DCore::QAttribute;

namespace {
// The overlay's own vertex layout, 12 floats a vertex: position, normal (zero), colour RGBA, and
// two unused floats. Its few hundred vertices do not need the meshes' compact layout.
constexpr int kStride = 48;
constexpr int kPositionOffset = 0;
constexpr int kNormalOffset = 12;
constexpr int kColorOffset = 24;
}  // namespace

SkeletonView::SkeletonView(Qt3DCore::QNode* parent) : QEntity(parent) {
    setObjectName(QStringLiteral("skeleton overlay"));
    auto* geometry = new Qt3DCore::QGeometry(this);
    buffer_ = new Qt3DCore::QBuffer(geometry);
    auto add = [&](const QString& name, int components, int offset) {
        auto* a = new QAttribute(buffer_, name, QAttribute::Float, uint(components), 0,
                                 uint(offset), kStride, geometry);
        geometry->addAttribute(a);
        return a;
    };
    geometry->setBoundingVolumePositionAttribute(
        add(QAttribute::defaultPositionAttributeName(), 3, kPositionOffset));
    add(QAttribute::defaultNormalAttributeName(), 3, kNormalOffset);
    add(QAttribute::defaultColorAttributeName(), 4, kColorOffset);
    renderer_ = new Qt3DRender::QGeometryRenderer(this);
    renderer_->setGeometry(geometry);
    renderer_->setPrimitiveType(Qt3DRender::QGeometryRenderer::Lines);
    // The grid's unlit vertex-colour material (the lit one shades normal-less lines black), with
    // a radius so large that nothing fades.
    material_ = new GridMaterial(this);
    material_->setExtent(QVector3D(0, 0, 0), 1e9f);
    // Drawn over everything: every depth test of the material's passes always passes.
    if (Qt3DRender::QEffect* effect = material_->effect())
        for (Qt3DRender::QTechnique* t : effect->techniques())
            for (Qt3DRender::QRenderPass* p : t->renderPasses())
                for (Qt3DRender::QRenderState* s : p->renderStates())
                    if (auto* d = qobject_cast<Qt3DRender::QDepthTest*>(s))
                        d->setDepthFunction(Qt3DRender::QDepthTest::Always);
    addComponent(renderer_);
    addComponent(material_);
    clearBones();
}

void SkeletonView::clearBones() {
    vertices_.clear();
    lineCount_ = 0;
    buffer_->setData(vertices_);
    renderer_->setVertexCount(0);
    setEnabled(false);
}

void SkeletonView::setBones(std::span<const Mat4> world, std::span<const int> parent,
                            float jointSize, int selected) {
    std::vector<float> v;
    v.reserve(world.size() * 8 * 12);
    auto point = [&](const Vec3& p, const float* rgb) {
        const float f[12] = {p.x, p.y, p.z, 0, 0, 0, rgb[0], rgb[1], rgb[2], 1, 0, 0};
        v.insert(v.end(), f, f + 12);
    };
    static const float kBone[3] = {1.0f, 0.85f, 0.2f};
    static const float kJoint[3] = {0.2f, 0.9f, 1.0f};
    static const float kSelected[3] = {1.0f, 0.2f, 0.3f};
    for (std::size_t b = 0; b < world.size(); ++b) {
        const Vec3 at{world[b].at(0, 3), world[b].at(1, 3), world[b].at(2, 3)};
        if (!at.finite()) continue;
        const bool sel = int(b) == selected;
        const int p = b < parent.size() ? parent[b] : -1;
        if (p >= 0 && std::size_t(p) < world.size()) {
            const Vec3 from{world[std::size_t(p)].at(0, 3), world[std::size_t(p)].at(1, 3),
                            world[std::size_t(p)].at(2, 3)};
            if (from.finite()) {
                point(from, sel ? kSelected : kBone);
                point(at, sel ? kSelected : kBone);
            }
        }
        const float s = sel ? jointSize * 2 : jointSize;
        for (int axis = 0; axis < 3; ++axis) {
            Vec3 a = at, c = at;
            (&a.x)[axis] -= s;
            (&c.x)[axis] += s;
            point(a, sel ? kSelected : kJoint);
            point(c, sel ? kSelected : kJoint);
        }
    }
    vertices_ = QByteArray(reinterpret_cast<const char*>(v.data()), qsizetype(v.size() * 4));
    const int count = int(v.size() / 12);
    lineCount_ = count / 2;
    buffer_->setData(vertices_);
    for (QAttribute* a : renderer_->geometry()->attributes()) a->setCount(uint(count));
    renderer_->setVertexCount(count);
    setEnabled(count > 0);
}

}  // namespace meshscope::render
