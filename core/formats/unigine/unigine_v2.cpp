// UNIGINE 2 .mesh, versions ms10, ms11 and ms14, as the real files show them (format.md says how
// each field was established), and the documented ms15 .mesh, sk10 .mesh_skinned, sn10 .skeleton
// and an12 .anim (no real file: checked by the writers' round trips). One mesh layout with
// variations:
//   - "int" is a compact signed integer (Stream::readInt2) in every version present;
//   - ms10 stores a tangent basis as three shorts + a sign char, ms11 and ms14 as four shorts;
//   - ms14 moves the vertex and index counts into the surface headers and stores every surface's
//     geometry as an LZ4 block, followed by per-surface edge and spatial-tree blocks and a table
//     of block offsets.
// Geometry uses two index buffers: coordinate indices pick positions (and weights), triangle
// indices pick tangents, texture coordinates and colours. The decoder expands them into one
// vertex per triangle vertex.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <optional>

#include "formats/unigine/unigine_internal.h"
#include "io/decompress.h"
#include "meshscope/core/error_codes.h"

namespace meshscope::unigine {

std::int64_t readInt2(ByteReader& r, const char* what) {
    const std::size_t at = r.pos();
    std::uint8_t b = r.u8(what);
    const bool negative = b & 0x40;
    std::uint64_t v = b & 0x3f;
    int shift = 6;
    while (b & 0x80) {
        if (shift > 27)
            r.failAt(at, errc::kBadInt, std::string(what) + ": compact int longer than 5 bytes");
        b = r.u8(what);
        v |= std::uint64_t(b & 0x7f) << shift;
        shift += 7;
    }
    if (v > std::uint64_t(INT32_MAX))
        r.failAt(at, errc::kBadInt, std::string(what) + ": compact int past the 32-bit range");
    return negative ? -std::int64_t(v) : std::int64_t(v);
}

void writeInt2(std::vector<std::uint8_t>& out, std::int64_t value) {
    std::uint64_t v = value < 0 ? std::uint64_t(-value) : std::uint64_t(value);
    std::uint8_t b = std::uint8_t(v & 0x3f) | (value < 0 ? 0x40 : 0);
    v >>= 6;
    if (v) b |= 0x80;
    out.push_back(b);
    while (v) {
        b = std::uint8_t(v & 0x7f);
        v >>= 7;
        if (v) b |= 0x80;
        out.push_back(b);
    }
}

namespace {

std::size_t readCount2(ByteReader& r, const char* what) {
    const std::size_t at = r.pos();
    const std::int64_t n = readInt2(r, what);
    if (n < 0)
        r.failAt(at, errc::kBadCount,
                 std::string(what) + " is negative (" + std::to_string(n) + ")");
    return static_cast<std::size_t>(n);
}

std::string readName2(ByteReader& r, const char* what) {
    const std::size_t at = r.pos();
    const std::int64_t n = readInt2(r, what);
    if (n < 0 || n > kMaxNameLength)
        r.failAt(at, errc::kBadNameLength,
                 std::string(what) + " length " + std::to_string(n) + " is outside 0.." +
                     std::to_string(kMaxNameLength));
    const std::string_view chars = r.string(static_cast<std::size_t>(n), what);
    const std::size_t nul = chars.find('\0');
    if (nul == std::string_view::npos) {
        if (n)
            r.warn(errc::kNameWithoutNul, std::string(what) + " does not end with a NUL character");
        return std::string(chars);
    }
    return std::string(chars.substr(0, nul));
}

void map(DecodeContext& ctx, const ByteReader& r, std::size_t start, RangeKind kind,
         std::string path, int node) {
    if (!r.mapped() || r.pos() == start) return;
    ctx.mapRange(r.offsetOf(start), r.pos() - start, kind, std::move(path), node);
}

struct StoredBounds {
    Vec3 min, max, center;
    float radius = 0;
};

StoredBounds readBounds(DecodeContext& ctx, ByteReader& r, int node, const char* path) {
    const std::size_t start = r.pos();
    float f[10];
    for (float& x : f) x = r.f32("bounds");
    StoredBounds b{{f[0], f[1], f[2]}, {f[3], f[4], f[5]}, {f[6], f[7], f[8]}, f[9]};
    Asset& a = ctx.asset();
    a.addProperty(node, {"boundsMin", "Vector3", b.min, r.offsetOf(start), 12});
    a.addProperty(node, {"boundsMax", "Vector3", b.max, r.offsetOf(start + 12), 12});
    a.addProperty(node, {"sphereCenter", "Vector3", b.center, r.offsetOf(start + 24), 12});
    a.addProperty(node, {"sphereRadius", "float", double(b.radius), r.offsetOf(start + 36), 4});
    map(ctx, r, start, RangeKind::Field, path, node);
    return b;
}

void expectSignature(DecodeContext& ctx, ByteReader& r, const std::string& sig, int node,
                     const char* what) {
    const std::size_t start = r.pos();
    const std::string_view s = r.string(4, what);
    if (s != sig)
        r.failAt(start, errc::kBadSignature,
                 std::string(what) + ": expected \"" + sig + "\", found other bytes");
    map(ctx, r, start, RangeKind::Header, "signature", node);
}

struct SurfaceHeader {
    std::string name;
    int node = -1;
    std::size_t coordIndices = 0, triangleIndices = 0;  // ms14
    std::vector<std::string> targets;
    std::vector<std::size_t> targetVertices;  // ms14
};

// What one surface block holds, before the two index buffers are resolved.
struct SurfaceData {
    std::vector<Vec3> coords;
    std::vector<Vec4> quats;  // tangent basis quaternions, w sign = handedness
    std::vector<VertexInfluences> weights;
    std::vector<Vec2> uv0, uv1;
    std::vector<Rgba8> colors;
    std::vector<std::uint32_t> coordIndex, triangleIndex;
    std::size_t morphTargets = 0;
    // Targets beyond the first (the geometry): their own coordinates and tangent quaternions.
    std::vector<std::vector<Vec3>> targetCoords;
    std::vector<std::vector<Vec4>> targetQuats;
    std::size_t maxInfluences = 0;
};

template <typename T>
void readRaw(ByteReader& r, std::vector<T>& out, std::size_t n, const char* what) {
    r.readArray(out, n, what);
}

void readIndices(ByteReader& r, std::vector<std::uint32_t>& out, std::size_t n,
                 std::size_t referenced, const char* what) {
    out.resize(0);
    if (referenced < 256) {
        const ByteSpan s = r.bytes(r.checkCount(n, 1, what), what);
        out.assign(s.begin(), s.end());
    } else if (referenced < 65536) {
        std::vector<std::uint16_t> raw;
        r.readArray(raw, n, what);
        out.assign(raw.begin(), raw.end());
    } else {
        r.checkCount(n, 1, what);
        out.resize(n);
        for (std::size_t i = 0; i < n; ++i) {
            const std::size_t at = r.pos();
            const std::int64_t v = readInt2(r, what);
            if (v < 0) r.failAt(at, errc::kBadIndex, std::string(what) + " is negative");
            out[i] = static_cast<std::uint32_t>(v);
        }
    }
}

// One surface's geometry; `version` is 10, 11 or 14. For ms14 the vertex and index counts come
// from the header, else they are stored in the block.
SurfaceData readSurfaceBlock(DecodeContext& ctx, ByteReader& r, int version, const SurfaceHeader& h,
                             std::size_t boneCount, int node) {
    SurfaceData d;
    d.morphTargets = h.targets.size();
    const std::size_t maxV = ctx.limits().maxVertices;
    for (std::size_t t = 0; t < h.targets.size(); ++t) {
        auto ts = ctx.scope("targets[" + std::to_string(t) + "]");
        const std::size_t targetStart = r.pos();
        std::size_t start = r.pos();
        std::size_t nv = version >= 14 ? h.targetVertices[t] : readCount2(r, "vertex count");
        if (nv > maxV) r.failAt(start, errc::kLimit, "vertex count exceeds maxVertices");
        std::vector<Vec3> coords;
        r.readArray(coords, nv, "vertices");
        map(ctx, r, start, RangeKind::Array, "vertices", node);
        start = r.pos();
        const std::size_t nt = readCount2(r, "tangent count");
        if (nt > maxV) r.failAt(start, errc::kLimit, "tangent count exceeds maxVertices");
        std::vector<Vec4> quats(r.checkCount(nt, version == 10 ? 7 : 8, "tangents"));
        for (std::size_t i = 0; i < nt; ++i) {
            const ByteSpan b = r.bytes(version == 10 ? 7 : 8, "tangent");
            std::int16_t s[4];
            std::memcpy(s, b.data(), version == 10 ? 6 : 8);
            float x = s[0] / 32767.0f, y = s[1] / 32767.0f, z = s[2] / 32767.0f, w;
            if (version == 10) {
                // The fourth component is implied (w >= 0); the char is the handedness, kept
                // as the sign of w by negating the whole quaternion (the same rotation).
                w = std::sqrt(std::max(0.0f, 1.0f - x * x - y * y - z * z));
                if (std::int8_t(b[6]) < 0) x = -x, y = -y, z = -z, w = -w;
            } else {
                w = s[3] / 32767.0f;
            }
            quats[i] = {x, y, z, w};
        }
        map(ctx, r, start, RangeKind::Array, "tangents", node);
        // Each blend shape's block (targets after the geometry) is named in the Structure tree
        // and the byte map.
        if (t > 0) {
            Asset& a = ctx.asset();
            const std::string targetName =
                h.targets[t].empty() ? "target " + std::to_string(t) : h.targets[t];
            const int tnode = a.addNode(targetName, "morph-target", node);
            if (r.mapped()) {
                a.nodes[tnode].offset = r.offsetOf(targetStart);
                a.nodes[tnode].length = r.pos() - targetStart;
            }
            map(ctx, r, targetStart, RangeKind::Record, targetName, tnode);
        }
        if (t == 0) {
            d.coords = std::move(coords);
            d.quats = std::move(quats);
        } else {
            d.targetCoords.push_back(std::move(coords));
            d.targetQuats.push_back(std::move(quats));
        }
    }
    std::size_t start = r.pos();
    // ms15 (documented) has no weights: skinned geometry moved to .mesh_skinned.
    const std::size_t nw = version == 15 ? 0 : readCount2(r, "weight count");
    r.checkCount(nw, 1, "weights");
    d.weights.resize(nw);
    std::size_t badBone = 0;
    std::uint64_t badBoneAt = 0;
    std::pair<float, std::uint16_t> inf[255];  // one vertex's influences (outside the loop:
                                               // constructing 255 pairs per vertex is costly)
    for (std::size_t i = 0; i < nw; ++i) {
        const std::size_t k = r.u8("influence count");
        const std::size_t at = r.pos();
        const ByteSpan w = r.bytes(k * 4, "influences");
        d.maxInfluences = std::max(d.maxInfluences, k);
        std::size_t kept = 0;
        for (std::size_t j = 0; j < k; ++j) {
            std::int16_t bone;
            std::uint16_t weight;
            std::memcpy(&bone, w.data() + j * 4, 2);
            std::memcpy(&weight, w.data() + j * 4 + 2, 2);
            if (bone < 0 || std::size_t(bone) >= boneCount) {
                if (badBone++ == 0) badBoneAt = r.offsetOf(at + j * 4);
                continue;
            }
            inf[kept++] = {weight / 65535.0f, std::uint16_t(bone)};
        }
        if (kept > 4) {
            std::partial_sort(inf, inf + 4, inf + kept,
                              [](const auto& x, const auto& y) { return x.first > y.first; });
            kept = 4;
        }
        for (std::size_t j = 0; j < kept; ++j) {
            d.weights[i].joints[j] = inf[j].second;
            d.weights[i].weights[j] = inf[j].first;
        }
    }
    if (badBone)
        ctx.warn(badBoneAt, errc::kBadBoneIndex,
                 std::to_string(badBone) + " vertex weights name a bone past the " +
                     std::to_string(boneCount) + " bones and were dropped");
    if (version != 15) map(ctx, r, start, RangeKind::Array, "weights", node);
    for (int set = 0; set < 2; ++set) {
        start = r.pos();
        const std::size_t n = readCount2(r, "texture coordinate count");
        r.readArray(set ? d.uv1 : d.uv0, n, "texture coordinates");
        map(ctx, r, start, RangeKind::Array, set ? "texCoords1" : "texCoords0", node);
    }
    start = r.pos();
    const std::size_t nc = readCount2(r, "colour count");
    r.readArray(d.colors, nc, "colours");
    map(ctx, r, start, RangeKind::Array, "colors", node);
    start = r.pos();
    const std::size_t nci =
        version >= 14 ? h.coordIndices : readCount2(r, "coordinate index count");
    if (nci / 3 > ctx.limits().maxTriangles) r.failAt(start, errc::kLimit, "too many indices");
    readIndices(r, d.coordIndex, nci, d.coords.size(), "coordinate indices");
    map(ctx, r, start, RangeKind::Array, "coordinateIndices", node);
    start = r.pos();
    const std::size_t nti =
        version >= 14 ? h.triangleIndices : readCount2(r, "triangle index count");
    if (nti / 3 > ctx.limits().maxTriangles) r.failAt(start, errc::kLimit, "too many indices");
    readIndices(r, d.triangleIndex, nti, d.quats.size(), "triangle indices");
    map(ctx, r, start, RangeKind::Array, "triangleIndices", node);
    return d;
}

// The basis is the quaternion's rotation of the z axis (normal) and the x axis (tangent): the
// third and first columns of its matrix. This is the normal, of the normalised quaternion.
Vec3 quatNormal(Vec4 q) {
    const float len = std::sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
    if (len > 0) q = {q.x / len, q.y / len, q.z / len, q.w / len};
    return {2 * (q.x * q.z + q.w * q.y), 2 * (q.y * q.z - q.w * q.x),
            1 - 2 * (q.x * q.x + q.y * q.y)};
}

// Expands the two index buffers into one vertex per triangle vertex.
Mesh buildMesh(DecodeContext& ctx, SurfaceData& d, const SurfaceHeader& h, std::uint64_t at,
               int skeleton) {
    Mesh m;
    m.name = h.name;
    const std::size_t nv = d.quats.size() ? d.quats.size() : d.coords.size();
    const bool dual = !d.quats.empty();
    std::size_t badCorners = 0;
    const std::size_t corners = std::min(d.coordIndex.size(), d.triangleIndex.size());
    if (d.coordIndex.size() != d.triangleIndex.size())
        ctx.warn(at, errc::kIndexCountMismatch,
                 "surface \"" + h.name + "\" has " + std::to_string(d.coordIndex.size()) +
                     " coordinate indices and " + std::to_string(d.triangleIndex.size()) +
                     " triangle indices; the shorter count is used");
    std::vector<std::uint32_t> coordOf(nv, 0);
    std::vector<std::uint32_t>& idx = m.indices;
    idx.reserve(corners / 3 * 3);
    for (std::size_t t = 0; t + 3 <= corners; t += 3) {
        bool ok = true;
        for (int k = 0; k < 3; ++k) {
            const std::uint32_t c = d.coordIndex[t + k];
            const std::uint32_t v = dual ? d.triangleIndex[t + k] : c;
            if (c >= d.coords.size() || v >= nv) ok = false;
        }
        if (!ok) {
            ++badCorners;
            continue;
        }
        for (int k = 0; k < 3; ++k) {
            const std::uint32_t v = dual ? d.triangleIndex[t + k] : d.coordIndex[t + k];
            coordOf[v] = d.coordIndex[t + k];
            idx.push_back(v);
        }
    }
    if (badCorners)
        ctx.warn(at, errc::kIndexOutOfRange,
                 std::to_string(badCorners) + " triangles of surface \"" + h.name +
                     "\" index past its vertices and were dropped");
    if (!d.coords.empty()) {
        m.positions.resize(nv);
        for (std::size_t v = 0; v < nv; ++v) m.positions[v] = d.coords[coordOf[v]];
    }
    if (dual && !m.positions.empty()) {
        m.normals.resize(nv);
        m.tangents.resize(nv);
        for (std::size_t v = 0; v < nv; ++v) {
            Vec4 q = d.quats[v];
            const float len = std::sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
            const float sign = std::signbit(q.w) ? -1.0f : 1.0f;
            if (len > 0) q = {q.x / len, q.y / len, q.z / len, q.w / len};
            m.normals[v] = quatNormal(q);
            m.tangents[v] = {1 - 2 * (q.y * q.y + q.z * q.z), 2 * (q.x * q.y + q.w * q.z),
                             2 * (q.x * q.z - q.w * q.y), sign};
        }
    }
    auto perVertex = [&](auto& src, auto& dst, const char* what) {
        if (src.empty()) return;
        if (src.size() == nv && !m.positions.empty()) {
            dst = std::move(src);
            return;
        }
        ctx.warn(at, errc::kCountMismatch,
                 std::string(what) + " of surface \"" + h.name +
                     "\": " + std::to_string(src.size()) + " for " + std::to_string(nv) +
                     " vertices; not used");
    };
    perVertex(d.uv0, m.uv0, "texture coordinates 0");
    perVertex(d.uv1, m.uv1, "texture coordinates 1");
    perVertex(d.colors, m.colors, "colours");
    if (!d.weights.empty() && skeleton >= 0) {
        if (d.weights.size() == d.coords.size() && !m.positions.empty()) {
            m.skin.resize(nv);
            for (std::size_t v = 0; v < nv; ++v) m.skin[v] = d.weights[coordOf[v]];
            m.skeleton = skeleton;
        } else {
            ctx.warn(at, errc::kCountMismatch,
                     "weights of surface \"" + h.name + "\": " + std::to_string(d.weights.size()) +
                         " for " + std::to_string(d.coords.size()) + " coordinates; not used");
        }
    }
    // Morph targets beyond the first: deltas from the base geometry, through the same indices.
    for (std::size_t t = 0; t < d.targetCoords.size() && !m.positions.empty(); ++t) {
        const std::string& name = h.targets[t + 1];
        const auto& tc = d.targetCoords[t];
        const auto& tq = d.targetQuats[t];
        if (tc.size() != d.coords.size()) {
            ctx.warn(at, errc::kCountMismatch,
                     "morph target \"" + name + "\" of surface \"" + h.name +
                         "\": " + std::to_string(tc.size()) + " vertices for the base's " +
                         std::to_string(d.coords.size()) + "; not used");
            continue;
        }
        MorphTarget mt;
        mt.name = name;
        mt.positionDeltas.resize(nv);
        for (std::size_t v = 0; v < nv; ++v)
            mt.positionDeltas[v] = tc[coordOf[v]] - d.coords[coordOf[v]];
        if (dual && tq.size() == d.quats.size()) {
            mt.normalDeltas.resize(nv);
            for (std::size_t v = 0; v < nv; ++v)
                mt.normalDeltas[v] = quatNormal(tq[v]) - m.normals[v];
        }
        m.morphTargets.push_back(std::move(mt));
    }
    const auto tris = static_cast<std::uint32_t>(m.indices.size() / 3);
    m.lods = {LodLevel{0, tris, "LOD0"}};
    m.surfaces = {Surface{m.name, 0, tris, 0, static_cast<std::uint32_t>(m.positions.size())}};
    m.computeBounds();
    return m;
}

Mat4 boneMatrix(const float* f) {
    // position xyz, rotation quaternion xyzw, scale xyz
    Mat4 m = composeTransform(BoneTransform{{f[0], f[1], f[2]}, 1.0f, {f[3], f[4], f[5], f[6]}});
    for (int row = 0; row < 3; ++row) {
        m.at(row, 0) *= f[7];
        m.at(row, 1) *= f[8];
        m.at(row, 2) *= f[9];
    }
    return m;
}

// Skeleton: bones (name, short parent) read by the caller; bind pose (10 floats per bone, local
// to the parent) here.
void readBindPose(DecodeContext& ctx, ByteReader& r, BoneTable& bones, int root) {
    Asset& a = ctx.asset();
    const std::size_t n = bones.names.size();
    auto s = ctx.scope("bindPose");
    const std::size_t start = r.pos();
    std::vector<float> f;
    r.readArray(f, std::uint64_t(n) * 10, "bind pose");
    const int node = a.addNode("bind pose", "bind-pose", bones.skeletonNode);
    a.nodes[node].offset = r.offsetOf(start);
    a.nodes[node].length = r.pos() - start;
    for (std::size_t b = 0; b < n; ++b)
        ctx.mapRange(r.offsetOf(start + b * 40), 40, RangeKind::Record,
                     "[" + std::to_string(b) + "]", node);
    map(ctx, r, start, RangeKind::Array, "bind pose", node);
    std::vector<Mat4> locals(n);
    for (std::size_t b = 0; b < n; ++b) {
        const float* t = f.data() + b * 10;
        locals[b] = boneMatrix(t);
        auto& props = a.propertyList(bones.nodes[b]);
        props.push_back(
            {"bindPosition", "Vector3", Vec3{t[0], t[1], t[2]}, r.offsetOf(start + b * 40), 12});
        props.push_back({"bindRotation", "Quaternion", Vec4{t[3], t[4], t[5], t[6]},
                         r.offsetOf(start + b * 40 + 12), 16});
        props.push_back(
            {"bindScale", "Vector3", Vec3{t[7], t[8], t[9]}, r.offsetOf(start + b * 40 + 28), 12});
    }
    addSkeleton(a, bones, bones.skeletonNode,
                composeWorld(ctx, bones.parents, locals, bones.parentOffsets, bones.names));
    (void)root;
}

// Animation names (after the bone table): a compact count, then one name each.
std::vector<std::string> readAnimationNames(DecodeContext& ctx, ByteReader& r, int header) {
    auto s = ctx.scope("animations");
    const std::size_t at = r.pos();
    const std::size_t n = r.checkCount(readCount2(r, "animation count"), 1, "animations");
    ctx.asset().addProperty(
        header, {"animationCount", "int32", std::int64_t(n), r.offsetOf(at), r.pos() - at});
    std::vector<std::string> names;
    for (std::size_t i = 0; i < n; ++i) names.push_back(readName2(r, "animation name"));
    map(ctx, r, at, RangeKind::Field, "animations", header);
    return names;
}

// One animation block: the animated bones (compact count + a short bone index each), the
// quantization ranges (position min xyz, position size xyz, scale min xyz, scale size xyz), a
// flags byte, a compact frame count, then per frame and animated bone a change mask and the
// components it names: bits 0..2 position x, y, z (unsigned short over the position range),
// bit 3 the rotation (four shorts / 32767, xyzw), bits 4..6 scale x, y, z (unsigned short over
// the scale range). A component left out keeps its value from the previous frame.
void readAnimationBlock(DecodeContext& ctx, ByteReader& r, const BoneTable& bones,
                        const std::string& name, int root, int skeleton) {
    Asset& a = ctx.asset();
    const std::size_t start = r.pos();
    const int node = a.addNode(name, "animation", root);
    std::size_t at = r.pos();
    const std::size_t n = r.checkCount(readCount2(r, "animated bone count"), 2, "animated bones");
    std::vector<std::int16_t> boneIndex;
    r.readArray(boneIndex, n, "animated bone indices");
    map(ctx, r, at, RangeKind::Array, "bones", node);
    a.addProperty(node, {"animatedBones", "int32", std::int64_t(n), r.offsetOf(at), r.pos() - at});
    at = r.pos();
    float q[12];
    for (float& f : q) f = r.f32("quantization ranges");
    map(ctx, r, at, RangeKind::Field, "ranges", node);
    a.addProperty(node, {"positionMin", "Vector3", Vec3{q[0], q[1], q[2]}, r.offsetOf(at), 12});
    a.addProperty(node,
                  {"positionSize", "Vector3", Vec3{q[3], q[4], q[5]}, r.offsetOf(at + 12), 12});
    a.addProperty(node, {"scaleMin", "Vector3", Vec3{q[6], q[7], q[8]}, r.offsetOf(at + 24), 12});
    a.addProperty(node,
                  {"scaleSize", "Vector3", Vec3{q[9], q[10], q[11]}, r.offsetOf(at + 36), 12});
    at = r.pos();
    const std::uint8_t flags = r.u8("animation flags");
    a.addProperty(node, {"flags", "uint8", std::int64_t(flags), r.offsetOf(at), 1});
    map(ctx, r, at, RangeKind::Field, "flags", node);
    at = r.pos();
    // Smallest frame: one mask byte per animated bone.
    const std::size_t frames =
        r.checkCount(readCount2(r, "frame count"), std::max<std::size_t>(n, 1), "frames");
    a.addProperty(node,
                  {"frameCount", "int32", std::int64_t(frames), r.offsetOf(at), r.pos() - at});
    map(ctx, r, at, RangeKind::Field, "frameCount", node);

    Animation anim;
    anim.name = name;
    anim.frameCount = static_cast<std::uint32_t>(frames);
    anim.skeleton = skeleton;
    anim.tracks.resize(n);
    std::size_t badBones = 0, incomplete = 0;
    for (std::size_t k = 0; k < n; ++k) {
        const int b = boneIndex[k];
        if (b < 0 || std::size_t(b) >= bones.names.size()) {
            ++badBones;
            anim.tracks[k].bone = "bone " + std::to_string(b);
        } else {
            anim.tracks[k].bone = bones.names[b];
        }
        anim.tracks[k].positions.resize(frames);
        anim.tracks[k].rotations.resize(frames);
        anim.tracks[k].scales.resize(frames);
    }
    if (badBones)
        ctx.warn(r.offsetOf(start), errc::kBadBoneIndex,
                 std::to_string(badBones) + " animated bones name a bone past the " +
                     std::to_string(bones.names.size()) + " bones");
    // Current quantized values per animated bone: position, rotation, scale.
    struct State {
        std::uint16_t p[3] = {0, 0, 0};
        std::int16_t q[4] = {0, 0, 0, 32767};
        std::uint16_t s[3] = {0, 0, 0};
    };
    std::vector<State> state(n);
    for (std::size_t f = 0; f < frames; ++f) {
        if ((f & 63) == 0) ctx.checkCancel(r.offset());
        const std::size_t frameStart = r.pos();
        for (std::size_t k = 0; k < n; ++k) {
            const std::uint8_t mask = r.u8("change mask");
            if (f == 0 && mask != 0x7f) ++incomplete;
            State& st = state[k];
            for (int c = 0; c < 3; ++c)
                if (mask & (1u << c)) st.p[c] = r.u16("position");
            if (mask & 8)
                for (int c = 0; c < 4; ++c) st.q[c] = r.i16("rotation");
            for (int c = 0; c < 3; ++c)
                if (mask & (16u << c)) st.s[c] = r.u16("scale");
            BoneTrack& t = anim.tracks[k];
            t.positions[f] = {q[0] + st.p[0] / 65535.0f * q[3], q[1] + st.p[1] / 65535.0f * q[4],
                              q[2] + st.p[2] / 65535.0f * q[5]};
            t.rotations[f] = {st.q[0] / 32767.0f, st.q[1] / 32767.0f, st.q[2] / 32767.0f,
                              st.q[3] / 32767.0f};
            t.scales[f] = {q[6] + st.s[0] / 65535.0f * q[9], q[7] + st.s[1] / 65535.0f * q[10],
                           q[8] + st.s[2] / 65535.0f * q[11]};
        }
        if (r.mapped() && r.pos() > frameStart)
            ctx.mapRange(r.offsetOf(frameStart), r.pos() - frameStart, RangeKind::Record,
                         "frames[" + std::to_string(f) + "]", node);
    }
    if (incomplete)
        ctx.warn(r.offsetOf(start), errc::kIncompleteFirstFrame,
                 std::to_string(incomplete) +
                     " bones do not store every component in frame 0; the missing ones start at "
                     "the range minimum and the identity rotation");
    map(ctx, r, start, RangeKind::Chunk, "animation", node);
    a.nodes[node].offset = r.offsetOf(start);
    a.nodes[node].length = r.pos() - start;
    a.linksOf(node).animation = static_cast<int>(a.animations.size());
    a.animations.push_back(std::move(anim));
    ctx.progress(double(r.pos()) / double(r.size()));
}

}  // namespace

// Bone table of UNIGINE 2: compact count, then per bone a name and a short parent.
// sk10 / sn10 / an12 (documented) store the count as an int32 (`int32Count`).
BoneTable readBonesV2(DecodeContext& ctx, ByteReader& r, int root, int header, bool int32Count) {
    Asset& a = ctx.asset();
    BoneTable t;
    auto s = ctx.scope("bones");
    const std::size_t start = r.pos();
    std::size_t n;
    if (int32Count) {
        const std::int32_t c = r.i32("joint count");
        if (c < 0) r.failAt(start, errc::kBadCount, "negative joint count");
        n = r.checkCount(std::size_t(c), 3, "bones");
    } else {
        n = r.checkCount(readCount2(r, "bone count"), 3, "bones");
    }
    a.addProperty(header,
                  {"boneCount", "int32", std::int64_t(n), r.offsetOf(start), r.pos() - start});
    if (!n) {
        map(ctx, r, start, RangeKind::Field, "boneCount", header);
        return t;
    }
    t.skeletonNode = a.addNode("skeleton", "skeleton", root);
    map(ctx, r, start, RangeKind::Field, "count", t.skeletonNode);
    for (std::size_t i = 0; i < n; ++i) {
        auto b = ctx.scope("[" + std::to_string(i) + "]");
        const std::size_t boneStart = r.pos();
        std::string name = readName2(r, "bone name");
        const std::size_t parentAt = r.pos();
        const std::int16_t parent = r.i16("bone parent");
        addBoneRecord(ctx, r, t, t.skeletonNode, std::move(name), boneStart, parentAt, parent, 2);
    }
    a.nodes[t.skeletonNode].offset = r.offsetOf(start);
    a.nodes[t.skeletonNode].length = r.pos() - start;
    map(ctx, r, start, RangeKind::Array, "bones", t.skeletonNode);
    return t;
}

namespace {

// A documented sk10 / sn10 / an12 string with an int32 length (counting the NUL).
std::string readName32(ByteReader& r, const char* what) {
    const std::size_t at = r.pos();
    const std::int32_t n = r.i32(what);
    if (n < 0 || n > 65536) r.failAt(at, errc::kBadCount, std::string(what) + ": bad length");
    const std::string_view sv = r.string(std::size_t(n), what);
    std::string out(sv);
    while (!out.empty() && out.back() == 0) out.pop_back();
    return out;
}

// An int32 count of `recordBytes`-byte records that must fit in the rest of the input.
std::size_t readCount32(ByteReader& r, std::size_t recordBytes, const char* what) {
    const std::size_t at = r.pos();
    const std::int32_t n = r.i32(what);
    if (n < 0) r.failAt(at, errc::kBadCount, std::string(what) + " is negative");
    return r.checkCount(std::size_t(n), recordBytes, what);
}

// sk10 after the joint table: int32 count + bind transforms (the skeleton), int32 count + rest
// transforms (mapped and shown as a node), the shared skeleton's GUID and path.
void readSkinnedHeaderTail(DecodeContext& ctx, ByteReader& r, BoneTable& bones, int header) {
    Asset& a = ctx.asset();
    std::size_t at = r.pos();
    const std::size_t nb = readCount32(r, 40, "bind transform count");
    map(ctx, r, at, RangeKind::Field, "bindCount", header);
    if (nb != bones.names.size())
        r.failAt(at, errc::kBadCount,
                 std::to_string(nb) + " bind transforms for " + std::to_string(bones.names.size()) +
                     " joints");
    if (nb) readBindPose(ctx, r, bones, -1);
    at = r.pos();
    const std::size_t nr = readCount32(r, 40, "rest transform count");
    a.addProperty(header, {"restTransforms", "int32", std::int64_t(nr), r.offsetOf(at), 4});
    map(ctx, r, at, RangeKind::Field, "restCount", header);
    if (nr) {
        const std::size_t start = r.pos();
        r.skip(nr * 40, "rest transforms");
        const int node = a.addNode("rest pose", "rest-pose",
                                   bones.skeletonNode >= 0 ? bones.skeletonNode : header);
        a.nodes[node].offset = r.offsetOf(start);
        a.nodes[node].length = r.pos() - start;
        map(ctx, r, start, RangeKind::Array, "rest pose", node);
    }
    for (const char* what : {"skeletonGuid", "skeletonPath"}) {
        at = r.pos();
        const std::string v = readName32(r, what);
        a.addProperty(header, {what, "string", v, r.offsetOf(at), r.pos() - at});
        map(ctx, r, at, RangeKind::Field, what, header);
    }
}

}  // namespace

void decodeMeshV2(DecodeContext& ctx, int version) {
    Asset& a = ctx.asset();
    ByteReader r(ctx, ctx.bytes());
    const bool sk = version == kSk10;
    const std::string sig = sk ? "sk10" : "ms" + std::to_string(version);
    const FileStart file =
        version == 10   ? readSignature(ctx, r, "Unigine mesh", "ms10", RangeKind::Header)
        : version == 11 ? readSignature(ctx, r, "Unigine mesh", "ms11", RangeKind::Header)
        : version == 14 ? readSignature(ctx, r, "Unigine mesh", "ms14", RangeKind::Header)
        : version == 15 ? readSignature(ctx, r, "Unigine mesh", "ms15", RangeKind::Header)
                        : readSignature(ctx, r, "Unigine skinned mesh", "sk10", RangeKind::Header);
    const int root = file.root, header = file.header;
    std::optional<DecodeContext::Scope> headerScope;
    headerScope.emplace(ctx, "header");
    if (version >= 14) {
        const std::size_t at = r.pos();
        const std::int64_t st = readInt2(r, "spatial tree triangles");
        a.addProperty(header, {"spatialTreeTriangles", "int32", st, r.offsetOf(at), r.pos() - at});
        map(ctx, r, at, RangeKind::Field, "spatialTreeTriangles", header);
    }
    const StoredBounds bounds = readBounds(ctx, r, header, "bounds");
    // ms15 (documented) has no bone table: skinned meshes are .mesh_skinned files.
    BoneTable bones = version == 15 ? BoneTable{} : readBonesV2(ctx, r, root, header, sk);
    const std::size_t boneCount = bones.names.size();
    if (sk) readSkinnedHeaderTail(ctx, r, bones, header);
    if (version == 14 && boneCount)
        r.fail(errc::kUnsupportedVersion,
               "ms14 meshes with bones are not decoded (no such file was available to establish "
               "where the bind pose is stored)");
    std::vector<std::string> animations;
    if (version < 14) animations = readAnimationNames(ctx, r, header);
    std::size_t surfaceCount;
    {
        const std::size_t at = r.pos();
        surfaceCount = r.checkCount(readCount2(r, "surface count"), 2, "surfaces");
        a.addProperty(header, {"surfaceCount", "int32", std::int64_t(surfaceCount), r.offsetOf(at),
                               r.pos() - at});
        map(ctx, r, at, RangeKind::Field, "surfaceCount", header);
    }
    std::vector<SurfaceHeader> surfaces(surfaceCount);
    for (std::size_t i = 0; i < surfaceCount; ++i) {
        auto s = ctx.scope("surfaces[" + std::to_string(i) + "]");
        SurfaceHeader& h = surfaces[i];
        const std::size_t start = r.pos();
        h.name = readName2(r, "surface name");
        h.node = a.addNode(h.name, "surface", root);
        a.addProperty(h.node, {"name", "string", h.name, r.offsetOf(start), r.pos() - start});
        map(ctx, r, start, RangeKind::Field, "name", h.node);
        if (version >= 14 && !sk) {
            std::size_t at = r.pos();
            const std::uint8_t channel = r.u8("lightmap channel");
            const std::uint8_t resolution = r.u8("lightmap resolution");
            a.addProperty(h.node,
                          {"lightmapChannel", "uint8", std::int64_t(channel), r.offsetOf(at), 1});
            a.addProperty(h.node, {"lightmapResolution", "uint8", std::int64_t(resolution),
                                   r.offsetOf(at + 1), 1});
            map(ctx, r, at, RangeKind::Field, "lightmap", h.node);
        }
        if (version >= 14) {
            const std::size_t at = r.pos();
            h.coordIndices = readCount2(r, "coordinate index count");
            h.triangleIndices = readCount2(r, "triangle index count");
            map(ctx, r, at, RangeKind::Field, "indexCounts", h.node);
        }
        readBounds(ctx, r, h.node, "bounds");
        std::size_t at = r.pos();
        if (version == 15) {
            // ms15: one vertex count, no morph target list (the geometry is target 0).
            const std::size_t nv = readCount2(r, "vertex count");
            if (nv > ctx.limits().maxVertices)
                r.failAt(at, errc::kLimit, "vertex count exceeds maxVertices");
            h.targets.push_back("");
            h.targetVertices.push_back(nv);
            a.addProperty(h.node, {"storedVertexCount", "int32", std::int64_t(nv), r.offsetOf(at),
                                   r.pos() - at});
            map(ctx, r, at, RangeKind::Field, "vertexCount", h.node);
            ctx.mapRange(r.offsetOf(start), r.pos() - start, RangeKind::Header, "header", h.node);
            a.nodes[h.node].offset = r.offsetOf(start);
            a.nodes[h.node].length = r.pos() - start;
            continue;
        }
        const std::size_t targets =
            r.checkCount(readCount2(r, "morph target count"), 1, "morph targets");
        a.addProperty(
            h.node, {"morphTargets", "int32", std::int64_t(targets), r.offsetOf(at), r.pos() - at});
        if (targets == 0) r.failAt(at, errc::kBadCount, "a surface has no morph target (geometry)");
        for (std::size_t t = 0; t < targets; ++t) {
            h.targets.push_back(readName2(r, "morph target name"));
            if (version >= 14) {
                const std::size_t vat = r.pos();
                const std::size_t nv = readCount2(r, "vertex count");
                if (nv > ctx.limits().maxVertices)
                    r.failAt(vat, errc::kLimit, "vertex count exceeds maxVertices");
                h.targetVertices.push_back(nv);
            }
        }
        map(ctx, r, at, RangeKind::Field, "morphTargets", h.node);
        ctx.mapRange(r.offsetOf(start), r.pos() - start, RangeKind::Header, "header", h.node);
        a.nodes[h.node].offset = r.offsetOf(start);
        a.nodes[h.node].length = r.pos() - start;
    }
    if (version >= 14) {
        const std::size_t at = r.pos();
        const std::int64_t memory = r.i64("memory estimate");
        a.addProperty(header, {"memoryEstimate", "int64", memory, r.offsetOf(at), 8});
        map(ctx, r, at, RangeKind::Field, "memoryEstimate", header);
    }
    a.nodes[header].length = r.pos();
    expectSignature(ctx, r, sig, header, "signature after the headers");
    headerScope.reset();

    if (boneCount && !sk) readBindPose(ctx, r, bones, root);
    const int skeleton = boneCount ? static_cast<int>(a.skeletons.size()) - 1 : -1;
    for (std::size_t i = 0; i < animations.size(); ++i) {
        auto s = ctx.scope("animations[" + std::to_string(i) + "]");
        readAnimationBlock(ctx, r, bones, animations[i], root, skeleton);
    }

    // Computed bounds over every surface's coordinates, checked against the header.
    Bounds all;
    auto addMesh = [&](SurfaceData& d, SurfaceHeader& h, std::uint64_t at) {
        for (const Vec3& p : d.coords) all.add(p);
        Mesh m = buildMesh(ctx, d, h, at, skeleton);
        a.addProperty(h.node, {"coordinateCount", "int32", std::int64_t(d.coords.size())});
        a.addProperty(h.node, {"vertexCount", "int32", std::int64_t(m.positions.size())});
        a.addProperty(h.node, {"triangleCount", "int32", std::int64_t(m.indices.size() / 3)});
        a.addProperty(h.node, {"maxInfluences", "int32", std::int64_t(d.maxInfluences)});
        m.node = h.node;
        a.linksOf(h.node).mesh = static_cast<int>(a.meshes.size());
        a.meshes.push_back(std::move(m));
        ctx.progress(double(r.pos()) / double(r.size()));
    };

    if (version < 14) {
        for (std::size_t i = 0; i < surfaceCount; ++i) {
            ctx.checkCancel(r.offset());
            auto s = ctx.scope("surfaces[" + std::to_string(i) + "]");
            const std::size_t start = r.pos();
            SurfaceData d =
                readSurfaceBlock(ctx, r, version, surfaces[i], boneCount, surfaces[i].node);
            ctx.mapRange(r.offsetOf(start), r.pos() - start, RangeKind::Chunk, "data",
                         surfaces[i].node);
            addMesh(d, surfaces[i], r.offsetOf(start));
        }
        expectSignature(ctx, r, sig, root, "signature at the end");
    } else {
        InflateBuffer inflate;
        std::vector<std::uint64_t> blockAt(surfaceCount);
        auto readBlock = [&](std::size_t i, const char* what, int node) -> ByteSpan {
            const std::size_t start = r.pos();
            const std::uint64_t usize = r.u64("uncompressed size");
            const std::uint64_t csize = r.u64("compressed size");
            map(ctx, r, start, RangeKind::Field, "sizes", node);
            const std::size_t dataAt = r.pos();
            if (csize > r.remaining())
                r.failAt(start + 8, errc::kTruncated,
                         std::string(what) + ": compressed size " + std::to_string(csize) +
                             " runs past the end of the file");
            const ByteSpan in = r.bytes(static_cast<std::size_t>(csize), what);
            ctx.mapRange(r.offsetOf(dataAt), csize, RangeKind::Payload, "lz4", node);
            ctx.mapRange(r.offsetOf(start), r.pos() - start, RangeKind::Chunk, what, node);
            (void)i;
            if (csize == usize) return in;  // stored: LZ4 did not make it smaller
            return inflate.lz4Block(ctx, in, usize, r.offsetOf(dataAt));
        };
        for (std::size_t i = 0; i < surfaceCount; ++i) {
            ctx.checkCancel(r.offset());
            auto s = ctx.scope("surfaces[" + std::to_string(i) + "]");
            blockAt[i] = r.offset();
            const std::uint64_t at = r.offset();
            const ByteSpan blob = readBlock(i, "geometry", surfaces[i].node);
            ByteReader br(ctx, blob, at, false);
            SurfaceData d =
                readSurfaceBlock(ctx, br, version, surfaces[i], boneCount, surfaces[i].node);
            if (!br.atEnd())
                ctx.warn(at, errc::kBlockSizeMismatch,
                         std::to_string(br.remaining()) +
                             " bytes of the decompressed geometry block were not used");
            addMesh(d, surfaces[i], at);
        }
        expectSignature(ctx, r, sig, root, "signature after the geometry");
        // sk10 (documented) has no edges / spatial trees: the offset table follows.
        const int treeNode = sk ? -1 : a.addNode("spatial trees", "spatial-tree", root);
        const std::size_t treesStart = r.pos();
        for (std::size_t i = 0; !sk && i < surfaceCount; ++i) {
            ctx.checkCancel(r.offset());
            auto s = ctx.scope("spatialTrees[" + std::to_string(i) + "]");
            const std::uint64_t at = r.offset();
            const ByteSpan blob = readBlock(i, "edges and spatial tree", treeNode);
            // Edges (count + one char each), node indices (count + ints), nodes (count, then
            // per node an axis char and four ints; then 24 bytes of bounds and 4 of split
            // distance per node).
            ByteReader br(ctx, blob, at, false);
            const std::size_t edges = readCount2(br, "edge count");
            br.skip(edges, "edges");
            const std::size_t indices =
                br.checkCount(readCount2(br, "node index count"), 1, "node indices");
            for (std::size_t k = 0; k < indices; ++k) readInt2(br, "node index");
            const std::size_t nodes = br.checkCount(readCount2(br, "node count"), 33, "nodes");
            for (std::size_t k = 0; k < nodes; ++k) {
                br.u8("split axis");
                for (int j = 0; j < 4; ++j) readInt2(br, "node field");
            }
            br.skip(br.checkCount(nodes, 28, "node bounds") * 28, "node bounds");
            if (!br.atEnd())
                ctx.warn(at, errc::kBlockSizeMismatch,
                         std::to_string(br.remaining()) +
                             " bytes of the spatial tree block were not used");
            a.addProperty(surfaces[i].node, {"edgeCount", "int32", std::int64_t(edges)});
            a.addProperty(surfaces[i].node, {"spatialTreeNodes", "int32", std::int64_t(nodes)});
        }
        if (!sk) {
            a.nodes[treeNode].offset = r.offsetOf(treesStart);
            a.nodes[treeNode].length = r.pos() - treesStart;
            expectSignature(ctx, r, sig, root, "signature after the spatial trees");
        }
        const std::size_t tableAt = r.pos();
        for (std::size_t i = 0; i < surfaceCount; ++i) {
            const std::size_t at = r.pos();
            const std::uint64_t off = r.u64("block offset");
            if (off != blockAt[i])
                ctx.warn(r.offsetOf(at), errc::kBadBlockOffset,
                         "surface " + std::to_string(i) + " block offset " + std::to_string(off) +
                             " does not point at its block (" + std::to_string(blockAt[i]) + ")");
        }
        map(ctx, r, tableAt, RangeKind::Array, "block offsets", root);
        expectSignature(ctx, r, sig, root, "signature at the end");
    }
    // The stored bounding box must match the coordinates.
    if (all.valid()) {
        const float tol = 1e-4f * std::max({1.0f, std::fabs(bounds.min.x), std::fabs(bounds.max.x),
                                            std::fabs(bounds.min.y), std::fabs(bounds.max.y),
                                            std::fabs(bounds.min.z), std::fabs(bounds.max.z)});
        const bool agree = std::fabs(all.min.x - bounds.min.x) <= tol &&
                           std::fabs(all.min.y - bounds.min.y) <= tol &&
                           std::fabs(all.min.z - bounds.min.z) <= tol &&
                           std::fabs(all.max.x - bounds.max.x) <= tol &&
                           std::fabs(all.max.y - bounds.max.y) <= tol &&
                           std::fabs(all.max.z - bounds.max.z) <= tol;
        a.addProperty(header, {"boundsAgree", "bool", agree});
        if (!agree)
            ctx.warn(version >= 14 ? 5 : 4, errc::kBoundsMismatch,
                     "the bounding box in the header does not match the vertices");
    }
    mapTrailingBytes(ctx, r, "the end signature");
}

}  // namespace meshscope::unigine

namespace meshscope::unigine {

// an10 .anim: the mesh header's bounds (unused: the real files hold ±1e9 and radius -1), the
// bone table, the animation names, the signature again, the bind pose, the animation blocks and
// the signature at the end.
void decodeAnimationV2(DecodeContext& ctx) {
    Asset& a = ctx.asset();
    ByteReader r(ctx, ctx.bytes());
    const FileStart file = readSignature(ctx, r, "Unigine animation", "an10", RangeKind::Header);
    const int root = file.root, header = file.header;
    std::vector<std::string> animations;
    BoneTable bones;
    {
        auto hs = ctx.scope("header");
        readBounds(ctx, r, header, "bounds");
        bones = readBonesV2(ctx, r, root, header, false);
        animations = readAnimationNames(ctx, r, header);
        a.nodes[header].length = r.pos();
        expectSignature(ctx, r, "an10", header, "signature after the headers");
    }
    int skeleton = -1;
    if (!bones.names.empty()) {
        readBindPose(ctx, r, bones, root);
        skeleton = static_cast<int>(a.skeletons.size()) - 1;
    }
    for (std::size_t i = 0; i < animations.size(); ++i) {
        auto s = ctx.scope("animations[" + std::to_string(i) + "]");
        readAnimationBlock(ctx, r, bones, animations[i], root, skeleton);
    }
    expectSignature(ctx, r, "an10", root, "signature at the end");
    mapTrailingBytes(ctx, r, "the end signature");
}

}  // namespace meshscope::unigine

namespace meshscope::unigine {

// sn10 .skeleton (documented, ai-docs animations_formats.md): int32 joint count, joints (compact
// name, short parent), bind pose, "sn10", then blend masks, blend time profiles and blend weight
// profiles (each an int32 count of {int32-length name, int32 count, float values}), the
// translation retarget entries (int32 count of {int32 mode, float length}) and "sn10".
void decodeSkeletonV2(DecodeContext& ctx) {
    Asset& a = ctx.asset();
    ByteReader r(ctx, ctx.bytes());
    const FileStart file = readSignature(ctx, r, "Unigine skeleton", "sn10", RangeKind::Header);
    const int root = file.root, header = file.header;
    {
        auto hs = ctx.scope("header");
        BoneTable bones = readBonesV2(ctx, r, root, header, true);
        a.nodes[header].length = r.pos();
        if (!bones.names.empty()) readBindPose(ctx, r, bones, root);
        expectSignature(ctx, r, "sn10", root, "signature after the bind pose");
    }
    const char* lists[3][2] = {{"blendMasks", "blend masks"},
                               {"blendTimeProfiles", "blend time profiles"},
                               {"blendWeightProfiles", "blend weight profiles"}};
    for (const auto& list : lists) {
        auto ls = ctx.scope(list[0]);
        const std::size_t start = r.pos();
        const std::size_t n = readCount32(r, 8, list[1]);
        const int node = a.addNode(list[1], "blend-list", root);
        a.addProperty(node, {"count", "int32", std::int64_t(n), r.offsetOf(start), 4});
        map(ctx, r, start, RangeKind::Field, "count", node);
        for (std::size_t i = 0; i < n; ++i) {
            auto es = ctx.scope("[" + std::to_string(i) + "]");
            const std::size_t at = r.pos();
            std::string name = readName32(r, "name");
            const std::size_t valuesAt = r.pos();
            const std::size_t nv = readCount32(r, 4, "value count");
            std::vector<float> values;
            r.readArray(values, nv, "values");
            const int child = a.addNode(name, "blend-entry", node);
            a.addProperty(child, {"name", "string", name, r.offsetOf(at), valuesAt - at});
            a.addProperty(child, {"values", "int32", std::int64_t(nv), r.offsetOf(valuesAt), 4});
            a.nodes[child].offset = r.offsetOf(at);
            a.nodes[child].length = r.pos() - at;
            map(ctx, r, at, RangeKind::Record, "entry", child);
        }
        a.nodes[node].offset = r.offsetOf(start);
        a.nodes[node].length = r.pos() - start;
    }
    {
        auto rs = ctx.scope("retarget");
        const std::size_t start = r.pos();
        const std::size_t n = readCount32(r, 8, "retarget entry count");
        r.skip(n * 8, "retarget entries");
        const int node = a.addNode("translation retarget", "retarget", root);
        a.addProperty(node, {"count", "int32", std::int64_t(n), r.offsetOf(start), 4});
        a.nodes[node].offset = r.offsetOf(start);
        a.nodes[node].length = r.pos() - start;
        map(ctx, r, start, RangeKind::Array, "retarget", node);
    }
    expectSignature(ctx, r, "sn10", root, "signature at the end");
    mapTrailingBytes(ctx, r, "the end signature");
}

// an12 .anim (documented, ai-docs animations_formats.md): int32 joint count, joints (compact
// name, short parent), the shared skeleton's GUID and path (int32 lengths), a compact count of
// animated joints and a short index each, int32 frames per second, a root-motion bool, "an12",
// a compact frame count, then per frame and animated joint a flag char (bit 0 position float[3],
// bit 1 rotation float[4] xyzw, bit 2 scale float[3]; a component not flagged is zero position,
// identity rotation or unit scale) and "an12". The file has no bind pose: the skeleton shown is
// frame 0 composed through the parents (joints not animated at the origin), as for as08.
void decodeAnimationV2An12(DecodeContext& ctx) {
    Asset& a = ctx.asset();
    ByteReader r(ctx, ctx.bytes());
    const FileStart file = readSignature(ctx, r, "Unigine animation", "an12", RangeKind::Header);
    const int root = file.root, header = file.header;
    BoneTable bones;
    std::vector<std::int16_t> animated;
    std::int32_t fps = 0;
    {
        auto hs = ctx.scope("header");
        bones = readBonesV2(ctx, r, root, header, true);
        for (const char* what : {"skeletonGuid", "skeletonPath"}) {
            const std::size_t at = r.pos();
            const std::string v = readName32(r, what);
            a.addProperty(header, {what, "string", v, r.offsetOf(at), r.pos() - at});
            map(ctx, r, at, RangeKind::Field, what, header);
        }
        std::size_t at = r.pos();
        const std::size_t n =
            r.checkCount(readCount2(r, "animated joint count"), 2, "animated joints");
        r.readArray(animated, n, "animated joint indices");
        a.addProperty(header,
                      {"animatedJoints", "int32", std::int64_t(n), r.offsetOf(at), r.pos() - at});
        map(ctx, r, at, RangeKind::Array, "animatedJoints", header);
        at = r.pos();
        fps = r.i32("frames per second");
        a.addProperty(header, {"framesPerSecond", "int32", std::int64_t(fps), r.offsetOf(at), 4});
        map(ctx, r, at, RangeKind::Field, "framesPerSecond", header);
        at = r.pos();
        const std::uint8_t rootMotion = r.u8("root motion flag");
        a.addProperty(header, {"rootMotion", "bool", rootMotion != 0, r.offsetOf(at), 1});
        map(ctx, r, at, RangeKind::Field, "rootMotion", header);
        a.nodes[header].length = r.pos();
        expectSignature(ctx, r, "an12", header, "signature after the header");
    }
    const std::size_t n = animated.size();
    const std::size_t start = r.pos();
    const int node = a.addNode("animation", "animation", root);
    auto fs = ctx.scope("frames");
    const std::size_t frames =
        r.checkCount(readCount2(r, "frame count"), std::max<std::size_t>(n, 1), "frames");
    a.addProperty(
        node, {"frameCount", "int32", std::int64_t(frames), r.offsetOf(start), r.pos() - start});
    map(ctx, r, start, RangeKind::Field, "frameCount", node);
    Animation anim;
    anim.name = "animation";
    anim.frameCount = static_cast<std::uint32_t>(frames);
    if (fps > 0) anim.framesPerSecond = float(fps);  // else 30 is assumed
    anim.tracks.resize(n);
    std::size_t badJoints = 0;
    for (std::size_t k = 0; k < n; ++k) {
        const int b = animated[k];
        if (b < 0 || std::size_t(b) >= bones.names.size()) {
            ++badJoints;
            anim.tracks[k].bone = "bone " + std::to_string(b);
        } else {
            anim.tracks[k].bone = bones.names[b];
        }
        anim.tracks[k].positions.resize(frames);
        anim.tracks[k].rotations.resize(frames);
        anim.tracks[k].scales.resize(frames);
    }
    if (badJoints)
        ctx.warn(r.offsetOf(start), errc::kBadBoneIndex,
                 std::to_string(badJoints) + " animated joints name a joint past the " +
                     std::to_string(bones.names.size()) + " joints");
    for (std::size_t f = 0; f < frames; ++f) {
        if ((f & 63) == 0) ctx.checkCancel(r.offset());
        const std::size_t frameStart = r.pos();
        for (std::size_t k = 0; k < n; ++k) {
            const std::uint8_t flag = r.u8("component flags");
            float v[10] = {0, 0, 0, 0, 0, 0, 1, 1, 1, 1};
            if (flag & 1)
                for (int c = 0; c < 3; ++c) v[c] = r.f32("position");
            if (flag & 2)
                for (int c = 3; c < 7; ++c) v[c] = r.f32("rotation");
            if (flag & 4)
                for (int c = 7; c < 10; ++c) v[c] = r.f32("scale");
            BoneTrack& t = anim.tracks[k];
            t.positions[f] = {v[0], v[1], v[2]};
            t.rotations[f] = {v[3], v[4], v[5], v[6]};
            t.scales[f] = {v[7], v[8], v[9]};
        }
        if (r.mapped() && r.pos() > frameStart)
            ctx.mapRange(r.offsetOf(frameStart), r.pos() - frameStart, RangeKind::Record,
                         "frames[" + std::to_string(f) + "]", node);
    }
    a.nodes[node].offset = r.offsetOf(start);
    a.nodes[node].length = r.pos() - start;
    if (!bones.names.empty()) {
        // Frame 0 as the pose: identity for the joints the animation leaves out.
        std::vector<Mat4> locals(bones.names.size(), Mat4{});
        for (std::size_t k = 0; frames && k < n; ++k) {
            const int b = animated[k];
            if (b < 0 || std::size_t(b) >= locals.size()) continue;
            const BoneTrack& t = anim.tracks[k];
            const float f10[10] = {t.positions[0].x, t.positions[0].y, t.positions[0].z,
                                   t.rotations[0].x, t.rotations[0].y, t.rotations[0].z,
                                   t.rotations[0].w, t.scales[0].x,    t.scales[0].y,
                                   t.scales[0].z};
            locals[b] = boneMatrix(f10);
        }
        anim.skeleton =
            addSkeleton(a, bones, bones.skeletonNode,
                        composeWorld(ctx, bones.parents, locals, bones.parentOffsets, bones.names));
    }
    a.linksOf(node).animation = static_cast<int>(a.animations.size());
    a.animations.push_back(std::move(anim));
    expectSignature(ctx, r, "an12", root, "signature at the end");
    mapTrailingBytes(ctx, r, "the end signature");
}

}  // namespace meshscope::unigine
