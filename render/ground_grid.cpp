// Ground grid geometry (see ground_grid.h).
#include "meshscope/render/ground_grid.h"

#include <Qt3DCore/QAttribute>
#include <Qt3DCore/QBuffer>
#include <Qt3DCore/QGeometry>
#include <Qt3DCore/QTransform>
#include <Qt3DRender/QGeometryRenderer>
#include <algorithm>
#include <cmath>
#include <vector>

#include "meshscope/render/materials.h"

namespace meshscope::render {

using Qt3DCore::QAttribute;

GridLayout GridLayout::forBounds(const Bounds& bounds) {
    GridLayout g;
    float size = 2.f;
    if (bounds.valid()) {
        const Vec3 s = bounds.size();
        size = std::max({s.x, s.y, s.z, 1e-3f});
        g.y = bounds.min.y;
        g.centerX = bounds.center().x;
        g.centerZ = bounds.center().z;
    }
    // About 10 minor cells across the asset's largest side; the grid spans 3 sizes each way.
    g.spacing = std::pow(10.f, std::floor(std::log10(size / 10.f) + 0.5f));
    g.radius = size * 3.f;
    // Snap the centre to the major lines so the grid does not swim with the asset's centre.
    const float major = g.spacing * 10.f;
    g.centerX = std::round(g.centerX / major) * major;
    g.centerZ = std::round(g.centerZ / major) * major;
    return g;
}

GroundGrid::GroundGrid(Qt3DCore::QNode* parent) : QEntity(parent) {
    setObjectName(QStringLiteral("grid"));
    auto* geometry = new Qt3DCore::QGeometry(this);
    buffer_ = new Qt3DCore::QBuffer(geometry);
    position_ = new QAttribute(buffer_, QAttribute::defaultPositionAttributeName(),
                               QAttribute::Float, 3, 0, 0, 28, geometry);
    color_ = new QAttribute(buffer_, QAttribute::defaultColorAttributeName(), QAttribute::Float, 4,
                            0, 12, 28, geometry);
    geometry->addAttribute(position_);
    geometry->addAttribute(color_);
    renderer_ = new Qt3DRender::QGeometryRenderer(this);
    renderer_->setGeometry(geometry);
    renderer_->setPrimitiveType(Qt3DRender::QGeometryRenderer::Lines);
    material_ = new GridMaterial(this);
    transform_ = new Qt3DCore::QTransform(this);
    addComponent(renderer_);
    addComponent(material_);
    addComponent(transform_);
    setBounds({});
}

void GroundGrid::setBounds(const Bounds& bounds, UpAxis up) {
    Bounds turned;
    if (bounds.valid()) {
        turned.add(toYUp(up, bounds.min));
        turned.add(toYUp(up, bounds.max));
    }
    layout_ = GridLayout::forBounds(turned);
    // The lines are laid out Y-up; the entity turns them back into the asset's coordinates
    // (+90 degrees about X undoes toYUp's -90).
    transform_->setRotation(up == UpAxis::Z ? QQuaternion::fromAxisAndAngle(1, 0, 0, 90)
                                            : QQuaternion());
    const GridLayout& g = layout_;
    std::vector<float> v;
    auto line = [&](float x0, float z0, float x1, float z1, const float(&c)[4]) {
        for (float p : {x0, g.y, z0, c[0], c[1], c[2], c[3], x1, g.y, z1, c[0], c[1], c[2], c[3]})
            v.push_back(p);
    };
    const float minor[4] = {0.45f, 0.48f, 0.55f, 0.35f};
    const float majorC[4] = {0.35f, 0.38f, 0.45f, 0.7f};
    const float xAxis[4] = {0.85f, 0.25f, 0.25f, 0.9f};
    const float zAxis[4] = {0.25f, 0.45f, 0.9f, 0.9f};
    const int n = std::max(1, int(std::ceil(g.radius / g.spacing)));
    int lines = 0;
    for (int i = -n; i <= n; ++i) {
        const float x = g.centerX + float(i) * g.spacing;
        const float z = g.centerZ + float(i) * g.spacing;
        const bool major = std::abs(std::fmod(std::round(x / g.spacing), 10.f)) < 0.5f;
        const bool majorZ = std::abs(std::fmod(std::round(z / g.spacing), 10.f)) < 0.5f;
        // Lines parallel to Z at x; the Z axis itself is drawn in blue.
        line(x, g.centerZ - g.radius, x, g.centerZ + g.radius,
             std::abs(x) < g.spacing * 0.5f ? zAxis : (major ? majorC : minor));
        line(g.centerX - g.radius, z, g.centerX + g.radius, z,
             std::abs(z) < g.spacing * 0.5f ? xAxis : (majorZ ? majorC : minor));
        lines += 2;
    }
    layout_.lineCount = lines;
    QByteArray bytes(reinterpret_cast<const char*>(v.data()), qsizetype(v.size() * sizeof(float)));
    buffer_->setData(bytes);
    const uint count = uint(v.size() / 7);
    position_->setCount(count);
    color_->setCount(count);
    renderer_->setVertexCount(int(count));
    material_->setExtent(QVector3D(g.centerX, g.y, g.centerZ), g.radius);
}

}  // namespace meshscope::render
