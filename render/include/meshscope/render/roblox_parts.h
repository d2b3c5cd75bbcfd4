// The 3D side of Roblox models and places: turns a decoded instance tree into a scene (opaque
// parts drawn by instancing, one mesh per shape, each part a 64-byte instance record instead of
// baked vertices; MeshPart / SpecialMesh meshes as core's resolvePartMeshes resolved and placed
// them: this layer reads no file and no setting), draws
// a selection box around the selected part and picks parts under the mouse with a CPU ray cast
// against their boxes. Translucent parts (0 < Transparency < 1) get their own entities with a
// translucent LitMaterial and the translucentLayer(), which the viewport draws after the opaque
// scene, back to front; beyond kMaxSortedTranslucentParts they share one instanced mesh when they
// have one shape (its instance records reordered back to front whenever the camera moves), or
// else batched meshes with baked vertices whose index buffers are reordered part by part. Owned
// by the Viewport.
#pragma once

#include <QObject>
#include <QPointF>
#include <cstddef>
#include <vector>

#include "meshscope/core/asset.h"
#include "meshscope/core/part_meshes.h"
#include "meshscope/core/roblox_parts.h"

namespace Qt3DCore {
class QEntity;
}
namespace Qt3DRender {
class QCamera;
class QLayer;
}  // namespace Qt3DRender
class QWindow;

namespace meshscope::render {

class AssetScene;

class RobloxPartsView : public QObject {
    Q_OBJECT
public:
    // `root` receives the selection box; clicks on `window` (without a drag) pick parts.
    RobloxPartsView(Qt3DCore::QEntity* root, QWindow* window, Qt3DRender::QCamera* camera,
                    QObject* parent = nullptr);
    ~RobloxPartsView() override;

    // True when `asset` is a Roblox model with at least one renderable part.
    static bool hasParts(const Asset& asset);
    // Builds the scene asset for `asset` (its parts' shapes + the meshes `meshes` resolved for
    // them) and shows it in `scene` with white base colours (vertex colours carry the part
    // colours). Resolved meshes come first: the opaque ones that nothing poses and that draw one
    // level merged into batches (when there are several), the others one by one. Opaque shapes
    // are instanced; each translucent shape is a mesh of its own
    // (up to kMaxSortedTranslucentParts; more are batched, their parts drawn back to front from the
    // camera), translucent, on translucentLayer(). Returns false and does nothing when the asset
    // has no parts; the selection and pick list are cleared then. `meshes` (resolvePartMeshes of
    // `asset`) must outlive the next show() or clear(); without it the parts are extracted here
    // and every part is drawn as its shape.
    bool show(const Asset& asset, const PartMeshes* meshes, AssetScene* scene);
    void clear();

    // Translucent parts up to this count are sorted back to front each frame (one entity each);
    // more share a few batched meshes whose parts are reordered when the camera moves.
    static constexpr std::size_t kMaxSortedTranslucentParts = 256;
    // Scene meshes holding many translucent parts of several shapes, baked, reordered part by part
    // (a subset of translucentMeshes()).
    std::vector<int> partSortedMeshes() const;
    // The scene mesh drawing many translucent parts of one shape by instancing, its instance
    // records reordered back to front (-1 when there is none).
    int instanceSortedMesh() const { return instanceSorted_.sceneMesh; }
    // Reorders those meshes' parts back to front for the camera now (done by itself, once per
    // event-loop turn, after the camera moves). Returns the number of index buffers rewritten.
    int sortTranslucentParts();
    // The layer of translucent part entities (created under `root`, owned by it).
    Qt3DRender::QLayer* translucentLayer() const { return translucentLayer_; }
    // Scene meshes drawn translucent (indices into the scene passed to show()).
    const std::vector<int>& translucentMeshes() const { return translucentMeshes_; }

    const std::vector<RobloxPart>& parts() const { return shown_->parts; }
    // The asset shown in the scene (its meshes are the scene's, in the same order; an instanced
    // scene mesh is here as its unit shape; skinned MeshPart meshes come with a placed copy of
    // their skeleton each); empty when no parts are shown.
    const Asset& sceneAsset() const { return sceneAsset_; }
    // Parts drawn as a resolved mesh.
    int resolvedMeshCount() const { return int(shown_->meshes.size()); }

    int partForNode(int node) const;  // index into parts(), -1 when the node is no part
    // Highlights the part of `node` with a box (or hides the box).
    void setSelectedNode(int node);
    int selectedPart() const { return selected_; }
    bool selectionBoxVisible() const;

    // Node of the nearest part under a point of the render window (logical pixels), or -1.
    int pickNode(QPointF windowPos) const;

signals:
    void nodePicked(int node);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    // A batched translucent mesh and where each of its parts' triangles lie.
    struct PartSortedMesh {
        int sceneMesh = -1;
        std::vector<PartIndexRange> ranges;
        std::vector<std::uint32_t> order;  // the index order uploaded last
    };
    // Translucent parts of one shape drawn by instancing, in the order uploaded last.
    struct InstanceSortedMesh {
        int sceneMesh = -1;
        std::vector<ShapeInstance> instances;  // in part order
        std::vector<std::uint32_t> order;      // indices into `instances`
    };
    void scheduleTranslucentSort();

    QWindow* window_;
    Qt3DRender::QCamera* camera_;
    AssetScene* scene_ = nullptr;  // the scene show() filled
    std::vector<PartSortedMesh> partSorted_;
    InstanceSortedMesh instanceSorted_;
    bool sortScheduled_ = false;
    AssetScene* boxScene_;
    Qt3DRender::QLayer* translucentLayer_;
    std::vector<int> translucentMeshes_;
    PartMeshes ownParts_;                   // parts extracted here when show() got no meshes
    const PartMeshes* shown_ = &ownParts_;  // the parts and meshes shown
    Asset sceneAsset_;
    std::vector<int> partOfNode_;
    int selected_ = -1;
    QPointF pressPos_;
    bool pressed_ = false;
};

}  // namespace meshscope::render
