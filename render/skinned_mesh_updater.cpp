// CPU skinning upload and weight heat maps (see skinned_mesh_updater.h).
#include "meshscope/render/skinned_mesh_updater.h"

#include <Qt3DCore/QBuffer>
#include <algorithm>
#include <cstring>

#include "meshscope/render/asset_scene.h"
#include "meshscope/render/mesh_packing.h"

namespace meshscope::render {

void writePositionsNormals(QByteArray& vertices, std::span<const Vec3> positions,
                           std::span<const Vec3> normals) {
    const std::size_t n = std::min<std::size_t>(
        positions.size(), std::size_t(vertices.size()) / VertexLayout::kStride);
    const bool withNormals = normals.size() >= n;
    char* dst = vertices.data();
    for (std::size_t i = 0; i < n; ++i, dst += VertexLayout::kStride) {
        std::memcpy(dst + VertexLayout::kPositionOffset, &positions[i], sizeof(Vec3));
        if (withNormals) std::memcpy(dst + VertexLayout::kNormalOffset, &normals[i], sizeof(Vec3));
    }
}

QColor weightHeatColor(float weight) {
    const float w = std::clamp(weight, 0.0f, 1.0f);
    if (w < 0.5f) return QColor::fromRgbF(0.1f, 0.2f + 1.6f * w, 1.0f - 2 * w);
    return QColor::fromRgbF(2 * (w - 0.5f), 1.0f - 1.6f * (w - 0.5f), 0.05f);
}

void writeBoneWeightColors(QByteArray& vertices, const Mesh& mesh, int bone) {
    const std::size_t n = std::size_t(vertices.size()) / VertexLayout::kStride;
    char* dst = vertices.data();
    for (std::size_t i = 0; i < n; ++i, dst += VertexLayout::kStride) {
        float w = 0, sum = 0;
        if (i < mesh.skin.size()) {
            const VertexInfluences& inf = mesh.skin[i];
            for (int k = 0; k < 4; ++k) {
                sum += inf.weights[std::size_t(k)];
                if (inf.joints[std::size_t(k)] == bone) w += inf.weights[std::size_t(k)];
            }
        }
        if (sum > 0) w /= sum;
        const QColor c = weightHeatColor(w);
        const std::uint8_t rgba[4] = {std::uint8_t(c.red()), std::uint8_t(c.green()),
                                      std::uint8_t(c.blue()), 255};
        std::memcpy(dst + VertexLayout::kColorOffset, rgba, sizeof rgba);
    }
}

void copyColors(QByteArray& vertices, const QByteArray& from) {
    const std::size_t n =
        std::size_t(std::min(vertices.size(), from.size())) / VertexLayout::kStride;
    char* dst = vertices.data();
    const char* src = from.constData();
    for (std::size_t i = 0; i < n; ++i)
        std::memcpy(dst + i * VertexLayout::kStride + VertexLayout::kColorOffset,
                    src + i * VertexLayout::kStride + VertexLayout::kColorOffset, 4);
}

void SkinnedMeshUpdater::setAsset(const Asset& asset) {
    meshes_.clear();
    meshes_.resize(asset.meshes.size());
    for (std::size_t m = 0; m < asset.meshes.size(); ++m) {
        // Only meshes that can change need a copy.
        if (!asset.meshes[m].skinned()) continue;
        meshes_[m].bind = packMesh(asset.meshes[m]).vertices;
        meshes_[m].current = meshes_[m].bind;
    }
}

void SkinnedMeshUpdater::upload(int mesh) {
    if (Qt3DCore::QBuffer* buffer = scene_ ? scene_->vertexBuffer(mesh) : nullptr)
        buffer->setData(meshes_[std::size_t(mesh)].current);
}

void SkinnedMeshUpdater::uploadSkinned(int mesh, std::span<const Vec3> positions,
                                       std::span<const Vec3> normals) {
    if (mesh < 0 || mesh >= int(meshes_.size()) || meshes_[std::size_t(mesh)].bind.isEmpty())
        return;
    writePositionsNormals(meshes_[std::size_t(mesh)].current, positions, normals);
    upload(mesh);
}

void SkinnedMeshUpdater::setWeightHeatMap(int mesh, const Mesh& source, int bone) {
    if (mesh < 0 || mesh >= int(meshes_.size()) || meshes_[std::size_t(mesh)].bind.isEmpty())
        return;
    Item& item = meshes_[std::size_t(mesh)];
    if (bone < 0)
        copyColors(item.current, item.bind);
    else
        writeBoneWeightColors(item.current, source, bone);
    upload(mesh);
}

void SkinnedMeshUpdater::restore(int mesh) {
    if (mesh < 0 || mesh >= int(meshes_.size()) || meshes_[std::size_t(mesh)].bind.isEmpty())
        return;
    meshes_[std::size_t(mesh)].current = meshes_[std::size_t(mesh)].bind;
    upload(mesh);
}

QByteArray SkinnedMeshUpdater::uploaded(int mesh) const {
    if (mesh < 0 || mesh >= int(meshes_.size())) return {};
    if (Qt3DCore::QBuffer* buffer = scene_ ? scene_->vertexBuffer(mesh) : nullptr)
        return buffer->data();
    return meshes_[std::size_t(mesh)].current;
}

}  // namespace meshscope::render
