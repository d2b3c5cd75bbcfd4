// The Qt 3D scene of one Asset: one entity per mesh, each with its geometry uploaded once (one
// interleaved vertex QBuffer, one index QBuffer) and a LitMaterial. Switching a LOD changes only
// the index range the mesh's QGeometryRenderer draws (the LOD controller part of this class).
#pragma once

#include <QObject>
#include <QVector3D>
#include <vector>

#include "meshscope/core/asset.h"
#include "meshscope/core/roblox_parts.h"
#include "meshscope/render/mesh_packing.h"

namespace Qt3DCore {
class QEntity;
class QBuffer;
class QGeometry;
}  // namespace Qt3DCore
namespace Qt3DRender {
class QGeometryRenderer;
class QLayer;
}  // namespace Qt3DRender

namespace meshscope::render {

class LitMaterial;

struct SceneStats {
    std::uint64_t vertices = 0;   // vertices of the meshes shown
    std::uint64_t triangles = 0;  // triangles drawn at the current LODs
    std::uint64_t points = 0;     // points of the point clouds shown
    int drawCalls = 0;
};

class AssetScene : public QObject {
    Q_OBJECT
public:
    // Entities are created under `root`; every mesh entity gets `layer` when given.
    explicit AssetScene(Qt3DCore::QEntity* root, Qt3DRender::QLayer* layer = nullptr,
                        QObject* parent = nullptr);
    ~AssetScene() override;

    // Replaces the scene with `asset`'s meshes (the asset is not kept). `framing`, when given,
    // holds per mesh the boxes that frame it in place of its bounds when non-empty (the parts a
    // batched mesh merges, so that framing weighs them one by one as before they were merged).
    void setAsset(const Asset& asset, const std::vector<std::vector<Bounds>>* framing = nullptr);
    // Adds a mesh drawn once per instance (one draw call): `unit` placed by each instance's
    // transform and tinted by its colour (the material's base colour is white). Stats count
    // every instance's vertices and triangles; bounds grow by every placed copy. Returns the
    // new mesh's index.
    int addInstancedMesh(const Mesh& unit, const std::vector<ShapeInstance>& instances);
    void clear();

    int meshCount() const { return static_cast<int>(meshes_.size()); }
    Qt3DCore::QEntity* meshEntity(int mesh) const;
    Qt3DRender::QGeometryRenderer* meshRenderer(int mesh) const;
    Qt3DCore::QBuffer* vertexBuffer(int mesh) const;
    Qt3DCore::QBuffer* indexBuffer(int mesh) const;
    // Instances a mesh is drawn with (0 for a mesh placed by its own vertices), and the buffer of
    // their records (packInstances; nullptr when not instanced): rewriting it reorders them.
    int instanceCount(int mesh) const;
    Qt3DCore::QBuffer* instanceBuffer(int mesh) const;
    LitMaterial* meshMaterial(int mesh) const;

    // LOD control: `lod` is clamped to the mesh's levels. Only the drawn index range changes.
    int lodCount(int mesh) const;
    int lod(int mesh) const;
    void setLod(int mesh, int lod);
    void setLodAll(int lod);
    IndexRange drawnRange(int mesh) const;
    // Hides a mesh entirely (Second Life LOD meshes other than the chosen one); hidden meshes
    // count in no stats.
    void setMeshVisible(int mesh, bool visible);
    bool meshVisible(int mesh) const;

    // -1 clears the highlight.
    void setHighlightedMesh(int mesh);
    int highlightedMesh() const { return highlighted_; }
    void setWireframe(bool on);
    bool wireframe() const { return wireframe_; }

    // Bounds over finite positions of every mesh (empty → invalid).
    Bounds bounds() const { return bounds_; }
    // What fitting the view frames: every mesh and instance, except a few far from the rest
    // (core framingBounds), so that a place with a few far-away parts does not open as a dot.
    Bounds framingBounds() const;
    // The boxes framingBounds() is made of (one per mesh and instance, outliers left out).
    std::vector<Bounds> framingItems() const;
    SceneStats stats() const;

signals:
    void lodChanged(int mesh, int lod);
    void statsChanged();

private:
    struct MeshItem {
        Qt3DCore::QEntity* entity = nullptr;
        Qt3DRender::QGeometryRenderer* renderer = nullptr;
        Qt3DCore::QBuffer* vertexBuffer = nullptr;
        Qt3DCore::QBuffer* indexBuffer = nullptr;
        Qt3DCore::QBuffer* instanceBuffer = nullptr;
        LitMaterial* material = nullptr;
        std::vector<IndexRange> lods;
        std::uint32_t vertexCount = 0;
        std::uint32_t instances = 0;  // 0: not instanced
        bool lines = false;
        bool points = false;
        bool hidden = false;
        int lod = 0;
    };
    // A new entity for `mesh` (its geometry uploaded, a LitMaterial placing it by its vertices,
    // or once per instance when `instances` is given), appended to meshes_.
    MeshItem& addItem(const Mesh& mesh, const std::vector<ShapeInstance>* instances);
    void applyLod(MeshItem& item);

    Qt3DCore::QEntity* root_;
    Qt3DRender::QLayer* layer_;
    Qt3DCore::QEntity* sceneRoot_ = nullptr;
    std::vector<MeshItem> meshes_;
    Bounds bounds_;
    std::vector<Bounds> itemBounds_;  // one box per mesh and per instance, for framingBounds()
    int highlighted_ = -1;
    bool wireframe_ = false;
};

}  // namespace meshscope::render
