// Scene building and LOD control (see asset_scene.h).
#include "meshscope/render/asset_scene.h"

#include <Qt3DCore/QAttribute>
#include <Qt3DCore/QBuffer>
#include <Qt3DCore/QEntity>
#include <Qt3DCore/QGeometry>
#include <Qt3DRender/QGeometryRenderer>
#include <Qt3DRender/QLayer>
#include <algorithm>
#include <cmath>

#include "meshscope/core/framing.h"
#include "meshscope/render/materials.h"

namespace meshscope::render {

using Qt3DCore::QAttribute;

namespace {

// One attribute of the packed vertices (VertexLayout). Qt 3D's OpenGL renderer declares every
// attribute normalized, so unsigned bytes reach the shader as 0..1.
QAttribute* vertexAttribute(Qt3DCore::QGeometry* g, Qt3DCore::QBuffer* buffer, const QString& name,
                            int components, int offset, std::uint32_t count,
                            QAttribute::VertexBaseType type = QAttribute::Float) {
    auto* a = new QAttribute(g);
    a->setName(name);
    a->setAttributeType(QAttribute::VertexAttribute);
    a->setVertexBaseType(type);
    a->setVertexSize(uint(components));
    a->setBuffer(buffer);
    a->setByteOffset(uint(offset));
    a->setByteStride(VertexLayout::kStride);
    a->setCount(count);
    g->addAttribute(a);
    return a;
}

// One vec4 of the per-instance records packInstances writes (advanced once per instance).
void instanceAttribute(Qt3DCore::QGeometry* g, Qt3DCore::QBuffer* buffer, const QString& name,
                       int offset, std::uint32_t count) {
    auto* a = new QAttribute(g);
    a->setName(name);
    a->setAttributeType(QAttribute::VertexAttribute);
    a->setVertexBaseType(QAttribute::Float);
    a->setVertexSize(4);
    a->setBuffer(buffer);
    a->setByteOffset(uint(offset));
    a->setByteStride(kInstanceStride);
    a->setCount(count);
    a->setDivisor(1);
    g->addAttribute(a);
}

// A stable, pleasant base colour per mesh so several meshes can be told apart; white vertex
// colours multiply it.
QColor meshColor(int index, int count) {
    if (count <= 1) return QColor(196, 200, 206);
    return QColor::fromHsvF(std::fmod(0.58 + 0.618034 * index, 1.0), 0.28, 0.86);
}

}  // namespace

AssetScene::AssetScene(Qt3DCore::QEntity* root, Qt3DRender::QLayer* layer, QObject* parent)
    : QObject(parent), root_(root), layer_(layer) {}

AssetScene::~AssetScene() = default;

void AssetScene::clear() {
    meshes_.clear();
    if (sceneRoot_) {
        sceneRoot_->setParent(static_cast<Qt3DCore::QNode*>(nullptr));
        sceneRoot_->deleteLater();
        sceneRoot_ = nullptr;
    }
    bounds_ = {};
    itemBounds_.clear();
    highlighted_ = -1;
    emit statsChanged();
}

void AssetScene::setAsset(const Asset& asset, const std::vector<std::vector<Bounds>>* framing) {
    clear();
    meshes_.reserve(asset.meshes.size());
    const int count = static_cast<int>(asset.meshes.size());
    for (int i = 0; i < count; ++i) {
        const Mesh& mesh = asset.meshes[static_cast<std::size_t>(i)];
        Bounds b = mesh.bounds;
        if (!b.valid())
            for (const Vec3& p : mesh.positions) b.add(p);
        bounds_.add(b);
        if (framing && std::size_t(i) < framing->size() && !(*framing)[std::size_t(i)].empty()) {
            const std::vector<Bounds>& items = (*framing)[std::size_t(i)];
            itemBounds_.insert(itemBounds_.end(), items.begin(), items.end());
        } else {
            itemBounds_.push_back(b);
        }
        MeshItem& item = addItem(mesh, nullptr);
        item.material->setBaseColor(meshColor(i, count));
    }
    emit statsChanged();
}

Bounds AssetScene::framingBounds() const {
    return meshscope::framingBounds(itemBounds_);
}

std::vector<Bounds> AssetScene::framingItems() const {
    return meshscope::framingItems(itemBounds_);
}

int AssetScene::addInstancedMesh(const Mesh& unit, const std::vector<ShapeInstance>& instances) {
    Bounds unitBounds = unit.bounds;
    if (!unitBounds.valid())
        for (const Vec3& p : unit.positions) unitBounds.add(p);
    if (unitBounds.valid()) {
        itemBounds_.reserve(itemBounds_.size() + instances.size());
        for (const ShapeInstance& in : instances) {
            const auto& m = in.transform;
            Bounds placed;
            for (int c = 0; c < 8; ++c) {
                const Vec3 p{c & 1 ? unitBounds.max.x : unitBounds.min.x,
                             c & 2 ? unitBounds.max.y : unitBounds.min.y,
                             c & 4 ? unitBounds.max.z : unitBounds.min.z};
                placed.add(Vec3{m[0] * p.x + m[1] * p.y + m[2] * p.z + m[3],
                                m[4] * p.x + m[5] * p.y + m[6] * p.z + m[7],
                                m[8] * p.x + m[9] * p.y + m[10] * p.z + m[11]});
            }
            if (placed.valid()) {
                bounds_.add(placed.min);
                bounds_.add(placed.max);
            }
            itemBounds_.push_back(placed);
        }
    }
    MeshItem& item = addItem(unit, &instances);
    item.material->setBaseColor(QColor(255, 255, 255));  // the instances carry the colours
    emit statsChanged();
    return meshCount() - 1;
}

AssetScene::MeshItem& AssetScene::addItem(const Mesh& mesh,
                                          const std::vector<ShapeInstance>* instances) {
    if (!sceneRoot_) {
        sceneRoot_ = new Qt3DCore::QEntity(root_);
        sceneRoot_->setObjectName(QStringLiteral("asset"));
    }
    PackedMesh packed = packMesh(mesh);
    MeshItem item;
    item.vertexCount = packed.vertexCount;
    item.lines = packed.lines;
    item.points = packed.points;
    item.lods = packed.lods;

    // Built whole before it joins the scene: Qt 3D 6.4's OpenGL renderer crashes when per-instance
    // attributes are added to a geometry it already has.
    item.entity = new Qt3DCore::QEntity();
    item.entity->setObjectName(QString::fromStdString(mesh.name));
    auto* geometry = new Qt3DCore::QGeometry(item.entity);
    // Separate buffers for vertices and indices: Qt 3D draws nothing when one buffer holds
    // both (measured with Qt 6.4).
    item.vertexBuffer = new Qt3DCore::QBuffer(geometry);
    item.vertexBuffer->setData(packed.vertices);
    item.indexBuffer = new Qt3DCore::QBuffer(geometry);
    item.indexBuffer->setData(packed.indices);

    auto* pos =
        vertexAttribute(geometry, item.vertexBuffer, QAttribute::defaultPositionAttributeName(), 3,
                        VertexLayout::kPositionOffset, packed.vertexCount);
    geometry->setBoundingVolumePositionAttribute(pos);
    vertexAttribute(geometry, item.vertexBuffer, QAttribute::defaultNormalAttributeName(), 3,
                    VertexLayout::kNormalOffset, packed.vertexCount);
    vertexAttribute(geometry, item.vertexBuffer, QAttribute::defaultColorAttributeName(), 4,
                    VertexLayout::kColorOffset, packed.vertexCount, QAttribute::UnsignedByte);
    auto* index = new QAttribute(geometry);
    index->setAttributeType(QAttribute::IndexAttribute);
    index->setVertexBaseType(QAttribute::UnsignedInt);
    index->setBuffer(item.indexBuffer);
    index->setCount(packed.indexCount);
    geometry->addAttribute(index);
    if (instances) {
        item.instances = std::uint32_t(instances->size());
        item.instanceBuffer = new Qt3DCore::QBuffer(geometry);
        item.instanceBuffer->setData(packInstances(*instances));
        for (int row = 0; row < 3; ++row)
            instanceAttribute(geometry, item.instanceBuffer,
                              QStringLiteral("instanceRow%1").arg(row), 16 * row, item.instances);
        instanceAttribute(geometry, item.instanceBuffer, QStringLiteral("instanceColor"), 48,
                          item.instances);
    }

    item.renderer = new Qt3DRender::QGeometryRenderer(item.entity);
    item.renderer->setGeometry(geometry);
    item.renderer->setPrimitiveType(item.lines    ? Qt3DRender::QGeometryRenderer::Lines
                                    : item.points ? Qt3DRender::QGeometryRenderer::Points
                                                  : Qt3DRender::QGeometryRenderer::Triangles);
    if (instances) item.renderer->setInstanceCount(int(item.instances));
    item.material = new LitMaterial(item.entity, instances ? LitMaterial::Placement::Instances
                                                           : LitMaterial::Placement::Vertices);
    item.material->setWireframe(wireframe_);
    // A sparse cloud (a few dozen points) in larger dots than a scan of thousands.
    if (item.points)
        item.material->setPointSize(packed.indexCount < 100    ? 8.f
                                    : packed.indexCount < 1000 ? 5.f
                                                               : 3.f);
    item.entity->addComponent(item.renderer);
    item.entity->addComponent(item.material);
    if (layer_) item.entity->addComponent(layer_);
    applyLod(item);
    item.entity->setParent(sceneRoot_);
    meshes_.push_back(item);
    return meshes_.back();
}

void AssetScene::applyLod(MeshItem& item) {
    const IndexRange r =
        item.lods.empty() ? IndexRange{} : item.lods[static_cast<std::size_t>(item.lod)];
    // Qt 3D's OpenGL renderer passes QGeometryRenderer::indexOffset as the *base vertex* of
    // glDrawElementsBaseVertex; the first index is the index buffer's byte offset.
    item.renderer->setIndexOffset(0);
    item.renderer->setIndexBufferByteOffset(int(r.first * sizeof(std::uint32_t)));
    item.renderer->setVertexCount(int(r.count));
    item.entity->setEnabled(r.count > 0 && !item.hidden);
}

void AssetScene::setMeshVisible(int mesh, bool visible) {
    if (mesh < 0 || mesh >= meshCount()) return;
    MeshItem& item = meshes_[std::size_t(mesh)];
    if (item.hidden == !visible) return;
    item.hidden = !visible;
    applyLod(item);
    emit statsChanged();
}

bool AssetScene::meshVisible(int mesh) const {
    return mesh >= 0 && mesh < meshCount() && !meshes_[std::size_t(mesh)].hidden;
}

Qt3DCore::QEntity* AssetScene::meshEntity(int mesh) const {
    return mesh >= 0 && mesh < meshCount() ? meshes_[std::size_t(mesh)].entity : nullptr;
}
Qt3DRender::QGeometryRenderer* AssetScene::meshRenderer(int mesh) const {
    return mesh >= 0 && mesh < meshCount() ? meshes_[std::size_t(mesh)].renderer : nullptr;
}
Qt3DCore::QBuffer* AssetScene::vertexBuffer(int mesh) const {
    return mesh >= 0 && mesh < meshCount() ? meshes_[std::size_t(mesh)].vertexBuffer : nullptr;
}
int AssetScene::instanceCount(int mesh) const {
    return mesh >= 0 && mesh < meshCount() ? int(meshes_[std::size_t(mesh)].instances) : 0;
}
Qt3DCore::QBuffer* AssetScene::instanceBuffer(int mesh) const {
    return mesh >= 0 && mesh < meshCount() ? meshes_[std::size_t(mesh)].instanceBuffer : nullptr;
}
Qt3DCore::QBuffer* AssetScene::indexBuffer(int mesh) const {
    return mesh >= 0 && mesh < meshCount() ? meshes_[std::size_t(mesh)].indexBuffer : nullptr;
}
LitMaterial* AssetScene::meshMaterial(int mesh) const {
    return mesh >= 0 && mesh < meshCount() ? meshes_[std::size_t(mesh)].material : nullptr;
}

int AssetScene::lodCount(int mesh) const {
    return mesh >= 0 && mesh < meshCount() ? int(meshes_[std::size_t(mesh)].lods.size()) : 0;
}

int AssetScene::lod(int mesh) const {
    return mesh >= 0 && mesh < meshCount() ? meshes_[std::size_t(mesh)].lod : 0;
}

void AssetScene::setLod(int mesh, int lod) {
    if (mesh < 0 || mesh >= meshCount()) return;
    MeshItem& item = meshes_[std::size_t(mesh)];
    if (item.lods.empty()) return;
    lod = std::clamp(lod, 0, int(item.lods.size()) - 1);
    if (lod == item.lod) return;
    item.lod = lod;
    applyLod(item);
    emit lodChanged(mesh, lod);
    emit statsChanged();
}

void AssetScene::setLodAll(int lod) {
    for (int m = 0; m < meshCount(); ++m) setLod(m, lod);
}

IndexRange AssetScene::drawnRange(int mesh) const {
    if (mesh < 0 || mesh >= meshCount()) return {};
    const MeshItem& item = meshes_[std::size_t(mesh)];
    return item.lods.empty() ? IndexRange{} : item.lods[std::size_t(item.lod)];
}

void AssetScene::setHighlightedMesh(int mesh) {
    if (mesh >= meshCount()) mesh = -1;
    highlighted_ = mesh;
    for (int m = 0; m < meshCount(); ++m)
        meshes_[std::size_t(m)].material->setHighlighted(m == mesh);
}

void AssetScene::setWireframe(bool on) {
    wireframe_ = on;
    for (auto& item : meshes_) item.material->setWireframe(on);
}

SceneStats AssetScene::stats() const {
    SceneStats s;
    for (const auto& item : meshes_) {
        const IndexRange r = item.lods.empty() ? IndexRange{} : item.lods[std::size_t(item.lod)];
        if (r.count == 0 || item.hidden) continue;
        const std::uint64_t copies = item.instances ? item.instances : 1;
        s.vertices += item.vertexCount * copies;
        if (item.points)
            s.points += r.count * copies;
        else if (!item.lines)
            s.triangles += r.count / 3 * copies;
        s.drawCalls += item.material->wireframe() ? 2 : 1;
    }
    return s;
}

}  // namespace meshscope::render
