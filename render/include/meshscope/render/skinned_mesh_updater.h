// Applies CPU skinning results (core's skinVertices) and bone-weight heat maps to the interleaved
// vertex buffers that AssetScene uploaded: only the position/normal (or colour) fields of the
// packed vertices change, and the QBuffer gets the new bytes with setData. The GPU skinning path
// (skinningPalette) is not used: it does not work with Qt 3D's RHI renderer on this machine.
#pragma once

#include <QByteArray>
#include <QColor>
#include <span>
#include <vector>

#include "meshscope/core/asset.h"

namespace meshscope::render {

class AssetScene;

// Overwrites the position (and, when `normals` has one entry per vertex, the normal) of every
// vertex of `vertices` (VertexLayout). Extra entries on either side are ignored.
void writePositionsNormals(QByteArray& vertices, std::span<const Vec3> positions,
                           std::span<const Vec3> normals = {});

// Heat-map colour of a skin weight: blue (0) → green (0.5) → red (1).
QColor weightHeatColor(float weight);
// Colours every vertex of `vertices` by the weight `mesh` gives bone `bone` (0 where the bone
// has no influence). A mesh without skin is coloured as weight 0.
void writeBoneWeightColors(QByteArray& vertices, const Mesh& mesh, int bone);
// Copies the colour fields of `from` into `vertices` (same vertex count).
void copyColors(QByteArray& vertices, const QByteArray& from);

// Owns the working copy of each mesh's packed vertices and uploads it into the scene's vertex
// buffers.
class SkinnedMeshUpdater {
public:
    explicit SkinnedMeshUpdater(AssetScene* scene) : scene_(scene) {}

    // Packs the bind pose of every mesh of `asset` (call after AssetScene::setAsset).
    void setAsset(const Asset& asset);
    void clear() { meshes_.clear(); }

    // Writes skinned positions/normals of `mesh` and uploads them.
    void uploadSkinned(int mesh, std::span<const Vec3> positions, std::span<const Vec3> normals);
    // Colours `mesh` by the weights of `bone` (bone < 0 restores the file's colours) and uploads.
    void setWeightHeatMap(int mesh, const Mesh& source, int bone);
    // Restores the bind pose and colours of `mesh`.
    void restore(int mesh);

    // The bytes last given to the mesh's QBuffer (what the GPU gets); empty when unknown.
    QByteArray uploaded(int mesh) const;

private:
    struct Item {
        QByteArray bind;     // packMesh output
        QByteArray current;  // what is uploaded
    };
    void upload(int mesh);

    AssetScene* scene_;
    std::vector<Item> meshes_;
};

}  // namespace meshscope::render
