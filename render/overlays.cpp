// Line overlays: normals and bounds (see overlays.h).
#include "meshscope/render/overlays.h"

#include <QVector3D>
#include <Qt3DCore/QAttribute>
#include <Qt3DCore/QBuffer>
#include <Qt3DCore/QEntity>
#include <Qt3DCore/QGeometry>
#include <Qt3DRender/QGeometryRenderer>
#include <algorithm>

#include "meshscope/render/materials.h"

namespace meshscope::render {

namespace {

void addLine(LineVertices& v, const Vec3& a, const Vec3& b, const float (&c)[4]) {
    for (float f : {a.x, a.y, a.z, c[0], c[1], c[2], c[3], b.x, b.y, b.z, c[0], c[1], c[2], c[3]})
        v.push_back(f);
}

constexpr float kNormalColor[4] = {0.2f, 0.85f, 1.0f, 1.0f};
constexpr float kBoundsColor[4] = {1.0f, 0.8f, 0.2f, 1.0f};

}  // namespace

LineVertices normalLines(const Mesh& mesh, float length, std::size_t maxLines) {
    LineVertices v;
    if (mesh.normals.size() != mesh.positions.size()) return v;
    const std::size_t n = std::min(mesh.positions.size(), maxLines);
    v.reserve(n * 14);
    for (std::size_t i = 0; i < n; ++i) {
        const Vec3& p = mesh.positions[i];
        const Vec3& d = mesh.normals[i];
        if (!p.finite() || !d.finite()) continue;
        addLine(v, p, p + d * length, kNormalColor);
    }
    return v;
}

LineVertices boundsLines(const Bounds& b) {
    LineVertices v;
    if (!b.valid()) return v;
    auto corner = [&](int i) {
        return Vec3{i & 1 ? b.max.x : b.min.x, i & 2 ? b.max.y : b.min.y,
                    i & 4 ? b.max.z : b.min.z};
    };
    // Corners differing in exactly one bit share an edge.
    for (int i = 0; i < 8; ++i)
        for (int bit : {1, 2, 4})
            if (!(i & bit)) addLine(v, corner(i), corner(i | bit), kBoundsColor);
    return v;
}

// One line list entity (position + RGBA colour, the ground grid's material without its fade).
class OverlayLines : public Qt3DCore::QEntity {
public:
    explicit OverlayLines(Qt3DCore::QNode* parent) : QEntity(parent) {
        using Qt3DCore::QAttribute;
        auto* geometry = new Qt3DCore::QGeometry(this);
        buffer_ = new Qt3DCore::QBuffer(geometry);
        position_ = new QAttribute(buffer_, QAttribute::defaultPositionAttributeName(),
                                   QAttribute::Float, 3, 0, 0, 28, geometry);
        color_ = new QAttribute(buffer_, QAttribute::defaultColorAttributeName(), QAttribute::Float,
                                4, 0, 12, 28, geometry);
        geometry->addAttribute(position_);
        geometry->addAttribute(color_);
        renderer_ = new Qt3DRender::QGeometryRenderer(this);
        renderer_->setGeometry(geometry);
        renderer_->setPrimitiveType(Qt3DRender::QGeometryRenderer::Lines);
        auto* material = new GridMaterial(this);
        material->setExtent(QVector3D(0, 0, 0), 1e30f);  // no fade
        addComponent(renderer_);
        addComponent(material);
        setEnabled(false);
    }
    void setLines(const LineVertices& v) {
        count_ = v.size() / 7;
        buffer_->setData(QByteArray(reinterpret_cast<const char*>(v.data()),
                                    qsizetype(v.size() * sizeof(float))));
        position_->setCount(uint(count_));
        color_->setCount(uint(count_));
        renderer_->setVertexCount(int(count_));
        updateEnabled();
    }
    void setShown(bool on) {
        shown_ = on;
        updateEnabled();
    }
    std::size_t lineCount() const { return count_ / 2; }

private:
    void updateEnabled() { setEnabled(shown_ && count_ > 0); }
    Qt3DCore::QBuffer* buffer_;
    Qt3DCore::QAttribute* position_;
    Qt3DCore::QAttribute* color_;
    Qt3DRender::QGeometryRenderer* renderer_;
    std::size_t count_ = 0;
    bool shown_ = false;
};

Overlays::Overlays(Qt3DCore::QEntity* root, QObject* parent)
    : QObject(parent), normals_(new OverlayLines(root)), bounds_(new OverlayLines(root)) {
    normals_->setObjectName(QStringLiteral("normals overlay"));
    bounds_->setObjectName(QStringLiteral("bounds overlay"));
}

void Overlays::setAsset(const Asset& asset) {
    Bounds all;
    for (const Mesh& m : asset.meshes) all.add(m.bounds);
    // The normals are built when first needed: for a million-vertex mesh they are tens of MB
    // that most views never show.
    normalsAsset_ = &asset;
    normalsBuilt_ = false;
    normals_->setLines({});
    if (normalsOn_) buildNormals();
    bounds_->setLines(boundsLines(all));
}

void Overlays::buildNormals() const {
    if (normalsBuilt_ || !normalsAsset_) return;
    normalsBuilt_ = true;
    const Asset& asset = *normalsAsset_;
    Bounds all;
    for (const Mesh& m : asset.meshes) all.add(m.bounds);
    const Vec3 s = all.valid() ? all.size() : Vec3{1, 1, 1};
    const float length = 0.03f * std::max({s.x, s.y, s.z, 1e-6f});
    LineVertices normals;
    for (const Mesh& m : asset.meshes) {
        if (m.primitive != Primitive::Triangles) continue;
        const LineVertices v =
            normalLines(m, length, 500000 - std::min<std::size_t>(normals.size() / 14, 500000));
        normals.insert(normals.end(), v.begin(), v.end());
    }
    normals_->setLines(normals);
}

void Overlays::clear() {
    normalsAsset_ = nullptr;
    normalsBuilt_ = false;
    normals_->setLines({});
    bounds_->setLines({});
}

void Overlays::setNormalsVisible(bool on) {
    normalsOn_ = on;
    if (on) buildNormals();
    normals_->setShown(on);
}
void Overlays::setBoundsVisible(bool on) {
    boundsOn_ = on;
    bounds_->setShown(on);
}

std::size_t Overlays::normalLineCount() const {
    buildNormals();
    return normals_->lineCount();
}
std::size_t Overlays::boundsLineCount() const {
    return bounds_->lineCount();
}

}  // namespace meshscope::render
