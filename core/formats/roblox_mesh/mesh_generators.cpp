// Deterministic procedural meshes (spheres, a skinned tube, LOD spheres, a FACS head, a benchmark
// grid) for tests, benchmarks and the viewer's samples. See mesh_generators.h.
#include "meshscope/core/mesh_generators.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace meshscope {

namespace {

constexpr float kPi = std::numbers::pi_v<float>;

Asset newAsset(const std::string& name) {
    Asset asset;
    asset.format = "generated";
    asset.formatName = "Generated mesh";
    asset.version = "1";
    asset.meshes.emplace_back();
    asset.meshes[0].name = name;
    const int node = asset.addNode(name, "mesh");
    asset.linksOf(node).mesh = 0;
    asset.meshes[0].node = node;
    return asset;
}

std::uint8_t unitToByte(float t) {
    return static_cast<std::uint8_t>(std::clamp(std::lround(t * 255.0f), 0l, 255l));
}

// Appends a UV sphere centred at `center` to `mesh`; returns the number of triangles added.
std::uint32_t appendSphere(Mesh& mesh, int rings, int segments, float radius, Vec3 center) {
    rings = std::max(rings, 2);
    segments = std::max(segments, 3);
    const auto base = static_cast<std::uint32_t>(mesh.positions.size());
    for (int r = 0; r <= rings; ++r) {
        const float theta = kPi * float(r) / float(rings);
        for (int s = 0; s <= segments; ++s) {
            const float phi = 2 * kPi * float(s) / float(segments);
            const Vec3 n{std::sin(theta) * std::cos(phi), std::cos(theta),
                         std::sin(theta) * std::sin(phi)};
            mesh.positions.push_back(center + n * radius);
            mesh.normals.push_back(n);
            mesh.uv0.push_back({float(s) / float(segments), float(r) / float(rings)});
            mesh.tangents.push_back({-std::sin(phi), 0, std::cos(phi), 1});
            mesh.colors.push_back({unitToByte(float(r) / float(rings)),
                                   unitToByte(float(s) / float(segments)), 128, 255});
        }
    }
    std::uint32_t added = 0;
    const auto stride = static_cast<std::uint32_t>(segments + 1);
    for (int r = 0; r < rings; ++r) {
        for (int s = 0; s < segments; ++s) {
            const std::uint32_t a = base + std::uint32_t(r) * stride + std::uint32_t(s);
            const std::uint32_t b = a + 1, c = a + stride, d = c + 1;
            if (r != 0) {  // the top row's first triangle would have two vertices at the pole
                mesh.indices.insert(mesh.indices.end(), {a, c, b});
                ++added;
            }
            if (r != rings - 1) {
                mesh.indices.insert(mesh.indices.end(), {b, c, d});
                ++added;
            }
        }
    }
    return added;
}

void setSingleLod(Mesh& mesh) {
    const auto n = static_cast<std::uint32_t>(mesh.indices.size() / 3);
    mesh.lodOffsets = {0, n};
    mesh.lods = {LodLevel{0, n, "LOD0"}};
}

Mat4 boneMatrix(Vec3 position, float yawDegrees, float pitchDegrees = 0) {
    const float y = yawDegrees * kPi / 180, p = pitchDegrees * kPi / 180;
    // R = Ry(yaw) * Rx(pitch)
    const float cy = std::cos(y), sy = std::sin(y), cp = std::cos(p), sp = std::sin(p);
    Mat4 m;
    m.at(0, 0) = cy;
    m.at(0, 1) = sy * sp;
    m.at(0, 2) = sy * cp;
    m.at(1, 0) = 0;
    m.at(1, 1) = cp;
    m.at(1, 2) = -sp;
    m.at(2, 0) = -sy;
    m.at(2, 1) = cy * sp;
    m.at(2, 2) = cy * cp;
    m.at(0, 3) = position.x;
    m.at(1, 3) = position.y;
    m.at(2, 3) = position.z;
    return m;
}

Bone makeBone(std::string name, int parent, Mat4 world, float culling) {
    Bone b;
    b.name = std::move(name);
    b.parent = parent;
    b.lodParent = parent;
    b.world = world;
    b.culling = culling;
    return b;
}

}  // namespace

Asset makeUvSphere(int rings, int segments, float radius) {
    Asset asset = newAsset("UvSphere");
    Mesh& mesh = asset.meshes[0];
    appendSphere(mesh, rings, segments, radius, {});
    setSingleLod(mesh);
    mesh.computeBounds();
    return asset;
}

Asset makeSkinnedCylinder(int bones, int rings, int segments, float height, float radius) {
    bones = std::max(bones, 2);
    rings = std::max(rings, 1);
    segments = std::max(segments, 3);
    Asset asset = newAsset("SkinnedCylinder");
    Mesh& mesh = asset.meshes[0];
    const auto stride = static_cast<std::uint32_t>(segments + 1);
    for (int r = 0; r <= rings; ++r) {
        const float v = float(r) / float(rings);
        const float y = v * height;
        // Bones sit at equal heights; a vertex blends the two bones around it.
        const float t = v * float(bones - 1);
        const int i0 = std::min(int(t), bones - 2);
        const float f = t - float(i0);
        for (int s = 0; s <= segments; ++s) {
            const float phi = 2 * kPi * float(s) / float(segments);
            const Vec3 n{std::cos(phi), 0, std::sin(phi)};
            mesh.positions.push_back({n.x * radius, y, n.z * radius});
            mesh.normals.push_back(n);
            mesh.uv0.push_back({float(s) / float(segments), 1 - v});
            mesh.tangents.push_back({-std::sin(phi), 0, std::cos(phi), -1});
            mesh.colors.push_back({unitToByte(v), 64, unitToByte(float(s) / float(segments)),
                                   unitToByte(0.5f + 0.5f * v)});
            VertexInfluences inf;
            inf.joints = {std::uint16_t(i0), std::uint16_t(i0 + 1), 0, 0};
            inf.weights = {1 - f, f, 0, 0};
            mesh.skin.push_back(inf);
        }
    }
    for (int r = 0; r < rings; ++r) {
        for (int s = 0; s < segments; ++s) {
            const std::uint32_t a = std::uint32_t(r) * stride + std::uint32_t(s);
            const std::uint32_t b = a + 1, c = a + stride, d = c + 1;
            mesh.indices.insert(mesh.indices.end(), {a, b, c, b, d, c});
        }
    }
    setSingleLod(mesh);
    mesh.computeBounds();

    Skeleton skeleton;
    skeleton.name = "SkinnedCylinder";
    for (int i = 0; i < bones; ++i) {
        const float y = height * float(i) / float(bones - 1);
        skeleton.bones.push_back(makeBone("Bone" + std::to_string(i), i - 1,
                                          boneMatrix({0, y, 0}, 10.0f * float(i)),
                                          height / float(bones - 1) + radius));
    }
    asset.skeletons.push_back(std::move(skeleton));
    mesh.skeleton = 0;
    return asset;
}

Asset makeLodSphere(int levels, int rings, int segments) {
    levels = std::max(levels, 1);
    Asset asset = newAsset("LodSphere");
    Mesh& mesh = asset.meshes[0];
    mesh.lodOffsets = {0};
    for (int level = 0; level < levels; ++level) {
        const std::uint32_t first = mesh.lodOffsets.back();
        const std::uint32_t added = appendSphere(mesh, std::max(rings >> level, 2),
                                                 std::max(segments >> level, 3), 1.0f, {});
        mesh.lodOffsets.push_back(first + added);
        mesh.lods.push_back(LodLevel{first, added, "LOD" + std::to_string(level)});
    }
    mesh.computeBounds();
    return asset;
}

float facsHeadValue(int channel, std::uint32_t row, std::uint32_t col) {
    if (channel < 3) return 0.01f * float(channel + 1) * float(row + 1) - 0.005f * float(col);
    return 5.0f * float(channel - 2) * float(col + 1) - 2.5f * float(row);
}

Asset makeFacsHead() {
    Asset asset = newAsset("FacsHead");
    Mesh& mesh = asset.meshes[0];
    appendSphere(mesh, 12, 16, 1.0f, {});
    setSingleLod(mesh);
    mesh.computeBounds();

    enum : std::uint16_t { Root, Head, Jaw, UpperLid, LowerLid };
    Skeleton skeleton;
    skeleton.name = "FacsHead";
    skeleton.bones.push_back(makeBone("Root", -1, boneMatrix({0, 0, 0}, 0), 0));
    skeleton.bones.push_back(makeBone("Head", Root, boneMatrix({0, 0.1f, 0}, 0), 1.2f));
    skeleton.bones.push_back(makeBone("Jaw", Head, boneMatrix({0, -0.3f, 0.2f}, 0, 15), 0.9f));
    skeleton.bones.push_back(
        makeBone("LeftUpperEyelid", Head, boneMatrix({0.3f, 0.25f, 0.85f}, 5), 0.3f));
    skeleton.bones.push_back(
        makeBone("LeftLowerEyelid", Head, boneMatrix({0.3f, 0.15f, 0.85f}, -5), 0.3f));
    asset.skeletons.push_back(std::move(skeleton));
    mesh.skeleton = 0;

    for (const Vec3& p : mesh.positions) {
        VertexInfluences inf;
        if (p.z > 0.7f && p.x > 0.1f && p.y > 0.05f) {
            inf.joints = {Head, UpperLid, LowerLid, 0};
            inf.weights = {0.5f, 0.3f, 0.2f, 0};
        } else {
            const float jaw = std::clamp((-0.2f - p.y) / 0.8f, 0.0f, 1.0f);
            inf.joints = {Head, Jaw, 0, 0};
            inf.weights = {1 - jaw, jaw, 0, 0};
        }
        mesh.skin.push_back(inf);
    }

    FacsRig rig;
    rig.controlNames = {"c_JD", "l_EC"};
    rig.correctives = {{0, 1}, {1, 0, 1}};
    rig.boneNames = {"Jaw", "LeftUpperEyelid", "LeftLowerEyelid"};
    rig.rows = 3;
    rig.cols = 4;
    for (int ch = 0; ch < 6; ++ch) {
        rig.channels[ch].resize(std::size_t(rig.rows) * rig.cols);
        for (std::uint32_t r = 0; r < rig.rows; ++r)
            for (std::uint32_t c = 0; c < rig.cols; ++c)
                rig.channels[ch][std::size_t(r) * rig.cols + c] = facsHeadValue(ch, r, c);
    }
    asset.facs.push_back(std::move(rig));
    mesh.facs = 0;
    return asset;
}

Asset makeGridMesh(std::uint32_t triangleCount) {
    Asset asset = newAsset("Grid");
    Mesh& mesh = asset.meshes[0];
    const auto w = static_cast<std::uint32_t>(
        std::max(1.0, std::ceil(std::sqrt(double(triangleCount) / 2.0))));
    const std::uint32_t h = std::max<std::uint32_t>(1, (triangleCount + 2 * w - 1) / (2 * w));
    const std::size_t vertexCount = std::size_t(w + 1) * (h + 1);
    mesh.positions.reserve(vertexCount);
    mesh.normals.reserve(vertexCount);
    mesh.uv0.reserve(vertexCount);
    mesh.tangents.reserve(vertexCount);
    mesh.colors.reserve(vertexCount);
    for (std::uint32_t z = 0; z <= h; ++z) {
        for (std::uint32_t x = 0; x <= w; ++x) {
            const float u = float(x) / float(w), v = float(z) / float(h);
            // A gentle wave so that positions and normals are not all alike.
            const float y = 0.05f * std::sin(u * 12.0f) * std::cos(v * 9.0f);
            mesh.positions.push_back({u * 10.0f - 5.0f, y, v * 10.0f - 5.0f});
            mesh.normals.push_back({0, 1, 0});
            mesh.uv0.push_back({u, v});
            mesh.tangents.push_back({1, 0, 0, 1});
            mesh.colors.push_back({unitToByte(u), unitToByte(v), 200, 255});
        }
    }
    mesh.indices.reserve(std::size_t(triangleCount) * 3);
    for (std::uint32_t z = 0; z < h && mesh.indices.size() < std::size_t(triangleCount) * 3; ++z) {
        for (std::uint32_t x = 0; x < w; ++x) {
            const std::uint32_t a = z * (w + 1) + x, b = a + 1, c = a + w + 1, d = c + 1;
            if (mesh.indices.size() < std::size_t(triangleCount) * 3)
                mesh.indices.insert(mesh.indices.end(), {a, c, b});
            if (mesh.indices.size() < std::size_t(triangleCount) * 3)
                mesh.indices.insert(mesh.indices.end(), {b, c, d});
        }
    }
    setSingleLod(mesh);
    mesh.computeBounds();
    return asset;
}

}  // namespace meshscope
