// Shared Unigine helpers: normal compression, bone transforms, names, parent resolution and the
// texture coordinate + triangle tail that mi08 and ms08 surfaces have in common.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "formats/unigine/unigine_internal.h"
#include "meshscope/core/error_codes.h"

namespace meshscope::unigine {

std::uint16_t compressNormal(float n) {
    // Exactly the document's formula (truncation, then clamp); NaN compresses to 0.
    const float v = (n * 0.5f + 0.5f) * 65535.0f;
    if (!(v > 0.0f)) return 0;
    if (v >= 65535.0f) return 65535;
    return static_cast<std::uint16_t>(static_cast<int>(v));
}

Mat4 composeTransform(const BoneTransform& t) {
    float x = t.rotation.x, y = t.rotation.y, z = t.rotation.z, w = t.rotation.w;
    const float len = std::sqrt(x * x + y * y + z * z + w * w);
    if (!(len > 0.0f) || !std::isfinite(len)) {
        x = y = z = 0;
        w = 1;
    } else {
        x /= len, y /= len, z /= len, w /= len;
    }
    const float s = t.scale;
    Mat4 m;
    m.at(0, 0) = (1 - 2 * (y * y + z * z)) * s;
    m.at(0, 1) = 2 * (x * y - z * w) * s;
    m.at(0, 2) = 2 * (x * z + y * w) * s;
    m.at(1, 0) = 2 * (x * y + z * w) * s;
    m.at(1, 1) = (1 - 2 * (x * x + z * z)) * s;
    m.at(1, 2) = 2 * (y * z - x * w) * s;
    m.at(2, 0) = 2 * (x * z - y * w) * s;
    m.at(2, 1) = 2 * (y * z + x * w) * s;
    m.at(2, 2) = (1 - 2 * (x * x + y * y)) * s;
    m.at(0, 3) = t.position.x;
    m.at(1, 3) = t.position.y;
    m.at(2, 3) = t.position.z;
    return m;
}

BoneTransform decomposeTransform(const Mat4& m) {
    BoneTransform t;
    t.position = {m.at(0, 3), m.at(1, 3), m.at(2, 3)};
    const float s =
        std::sqrt(m.at(0, 0) * m.at(0, 0) + m.at(1, 0) * m.at(1, 0) + m.at(2, 0) * m.at(2, 0));
    t.scale = s;
    if (!(s > 0.0f)) return t;
    float r[3][3];
    for (int row = 0; row < 3; ++row)
        for (int col = 0; col < 3; ++col) r[row][col] = m.at(row, col) / s;
    const float trace = r[0][0] + r[1][1] + r[2][2];
    Vec4 q;
    if (trace > 0) {
        const float k = std::sqrt(trace + 1.0f) * 2;
        q = {(r[2][1] - r[1][2]) / k, (r[0][2] - r[2][0]) / k, (r[1][0] - r[0][1]) / k, 0.25f * k};
    } else if (r[0][0] > r[1][1] && r[0][0] > r[2][2]) {
        const float k = std::sqrt(1.0f + r[0][0] - r[1][1] - r[2][2]) * 2;
        q = {0.25f * k, (r[0][1] + r[1][0]) / k, (r[0][2] + r[2][0]) / k, (r[2][1] - r[1][2]) / k};
    } else if (r[1][1] > r[2][2]) {
        const float k = std::sqrt(1.0f + r[1][1] - r[0][0] - r[2][2]) * 2;
        q = {(r[0][1] + r[1][0]) / k, 0.25f * k, (r[1][2] + r[2][1]) / k, (r[0][2] - r[2][0]) / k};
    } else {
        const float k = std::sqrt(1.0f + r[2][2] - r[0][0] - r[1][1]) * 2;
        q = {(r[0][2] + r[2][0]) / k, (r[1][2] + r[2][1]) / k, 0.25f * k, (r[1][0] - r[0][1]) / k};
    }
    t.rotation = q;
    return t;
}

std::string readName(ByteReader& r, const char* what) {
    const std::size_t start = r.pos();
    const std::int32_t length = r.i32(what);
    if (length < 0 || length > kMaxNameLength) {
        r.failAt(start, errc::kBadLength,
                 std::string(what) + " length " + std::to_string(length) +
                     " is outside 0..1024 (the length counts the terminating NUL)");
    }
    const std::string_view chars = r.string(static_cast<std::size_t>(length), what);
    if (length == 0) {
        r.warn(errc::kNameWithoutNul, std::string(what) + " has length 0 (no terminating NUL)");
        return {};
    }
    const std::size_t nul = chars.find('\0');
    if (nul == std::string_view::npos) {
        r.warn(errc::kNameWithoutNul, std::string(what) + " does not end with a NUL character");
        return std::string(chars);
    }
    return std::string(chars.substr(0, nul));
}

std::vector<Mat4> composeWorld(DecodeContext& ctx, std::vector<int>& parents,
                               const std::vector<Mat4>& locals,
                               const std::vector<std::uint64_t>& parentOffsets,
                               const std::vector<std::string>& names) {
    const std::size_t n = parents.size();
    for (std::size_t i = 0; i < n; ++i) {
        if (parents[i] < -1 || parents[i] >= static_cast<int>(n)) {
            ctx.warn(parentOffsets[i], errc::kBadParent,
                     "bone " + std::to_string(i) + " (\"" + names[i] + "\") has parent " +
                         std::to_string(parents[i]) + ", outside -1.." +
                         std::to_string(int(n) - 1) + "; it is treated as a root");
            parents[i] = -1;
        }
    }
    // Iterative walk up the parent chains: 0 = not seen, 1 = on the current chain, 2 = done. A
    // chain that meets a bone of itself is a cycle; the link that closes it is cut.
    std::vector<std::uint8_t> state(n, 0);
    std::vector<Mat4> world(n);
    std::vector<int> chain;
    for (std::size_t i = 0; i < n; ++i) {
        if (state[i] == 2) continue;
        chain.clear();
        int b = static_cast<int>(i);
        while (true) {
            if (state[b] == 2) break;
            if (state[b] == 1) {
                const int closer = chain.back();
                ctx.warn(parentOffsets[closer], errc::kBoneParentCycle,
                         "bone " + std::to_string(closer) + " (\"" + names[closer] +
                             "\") has parent " + std::to_string(parents[closer]) +
                             ", which closes a cycle of parents; it is treated as a root");
                parents[closer] = -1;
                break;
            }
            state[b] = 1;
            chain.push_back(b);
            if (parents[b] < 0) break;
            b = parents[b];
        }
        for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
            const int c = *it;
            world[c] = parents[c] < 0 ? locals[c] : world[parents[c]] * locals[c];
            state[c] = 2;
        }
    }
    return world;
}

namespace {

template <typename Index>
void readTriangles(DecodeContext& ctx, ByteReader& r, Mesh& mesh, std::size_t triangles,
                   std::size_t arrayStart) {
    std::vector<Index> raw;
    r.readArray(raw, std::uint64_t(triangles) * 3, "triangle indices");
    // Each pass over a large index array takes tens of milliseconds: look at the cancel flag
    // between them.
    ctx.checkCancel(r.offsetOf(arrayStart));
    const std::uint64_t vertexCount = mesh.positions.size();
    // Fast path: one pass for the largest index, then a widening copy.
    bool allValid = true;
    if constexpr (std::is_signed_v<Index>) {
        // Negative ints become huge unsigned values, so one unsigned maximum checks both ends.
        std::uint32_t largest = 0;
        for (const Index i : raw) largest = std::max(largest, static_cast<std::uint32_t>(i));
        allValid = raw.empty() || largest < vertexCount;
    } else {
        Index largest = 0;
        for (const Index i : raw) largest = std::max(largest, i);
        allValid = raw.empty() || largest < vertexCount;
    }
    ctx.checkCancel(r.offsetOf(arrayStart));
    if (allValid) {
        mesh.indices.assign(raw.begin(), raw.end());
        return;
    }
    mesh.indices.reserve(raw.size());
    std::size_t dropped = 0;
    std::size_t firstBad = 0;
    for (std::size_t t = 0; t < triangles; ++t) {
        const Index* tri = raw.data() + t * 3;
        bool ok = true;
        for (int k = 0; k < 3; ++k) {
            // 32-bit indices are signed ints in the document: a negative one is out of range.
            if (std::is_signed_v<Index> && tri[k] < 0)
                ok = false;
            else if (std::uint64_t(tri[k]) >= vertexCount)
                ok = false;
        }
        if (!ok) {
            if (dropped++ == 0) firstBad = t;
            continue;
        }
        for (int k = 0; k < 3; ++k) mesh.indices.push_back(static_cast<std::uint32_t>(tri[k]));
    }
    if (dropped) {
        const Index* tri = raw.data() + firstBad * 3;
        ctx.warn(r.offsetOf(arrayStart + 4 + firstBad * 3 * sizeof(Index)), errc::kIndexOutOfRange,
                 std::to_string(dropped) + " of " + std::to_string(triangles) +
                     " triangles index past the " + std::to_string(vertexCount) +
                     " vertices and were dropped (first: triangle " + std::to_string(firstBad) +
                     " = " + std::to_string(std::int64_t(tri[0])) + ", " +
                     std::to_string(std::int64_t(tri[1])) + ", " +
                     std::to_string(std::int64_t(tri[2])) + ")");
    }
}

std::size_t readTexCoords(DecodeContext& ctx, ByteReader& r, Mesh& mesh, std::vector<Vec2>& out,
                          const char* name, int node) {
    auto s = ctx.scope(name);
    const std::size_t start = r.pos();
    ctx.checkCancel(r.offsetOf(start));
    const std::size_t n = readCount(r, "texture coordinate count");
    r.readArray(out, n, "texture coordinates");
    ctx.mapRange(r.offsetOf(start), r.pos() - start, RangeKind::Array, {}, node);
    ctx.mapRange(r.offsetOf(start), 4, RangeKind::Field, "count", node);
    if (n != 0 && n != mesh.positions.size()) {
        ctx.warn(r.offsetOf(start), errc::kUvCountMismatch,
                 std::string(name) + " holds " + std::to_string(n) + " texture coordinates for " +
                     std::to_string(mesh.positions.size()) +
                     " vertices; the set is kept in the byte map but not used");
        out.clear();
    }
    return n;
}

}  // namespace

void readSurfaceTail(DecodeContext& ctx, ByteReader& r, Mesh& mesh, int node) {
    const std::size_t uv0Count = readTexCoords(ctx, r, mesh, mesh.uv0, "texCoords0", node);
    const std::size_t uv1Count = readTexCoords(ctx, r, mesh, mesh.uv1, "texCoords1", node);

    auto s = ctx.scope("triangles");
    const std::size_t start = r.pos();
    ctx.checkCancel(r.offsetOf(start));
    const std::size_t triangles = readCount(r, "triangle count");
    if (triangles > ctx.limits().maxTriangles)
        r.failAt(start, errc::kLimit,
                 "triangle count " + std::to_string(triangles) + " exceeds maxTriangles");
    // The index width follows the vertex count: < 65536 vertices → unsigned short, else int.
    const bool wide = mesh.positions.size() >= 65536;
    if (wide)
        readTriangles<std::int32_t>(ctx, r, mesh, triangles, start);
    else
        readTriangles<std::uint16_t>(ctx, r, mesh, triangles, start);
    ctx.mapRange(r.offsetOf(start), r.pos() - start, RangeKind::Array, {}, node);
    ctx.mapRange(r.offsetOf(start), 4, RangeKind::Field, "count", node);

    const auto triCount = static_cast<std::uint32_t>(mesh.indices.size() / 3);
    mesh.lods = {LodLevel{0, triCount, "LOD0"}};
    mesh.surfaces = {
        Surface{mesh.name, 0, triCount, 0, static_cast<std::uint32_t>(mesh.positions.size())}};
    auto& props = ctx.asset().propertyList(node);
    props.push_back({"indexSize", "int32", std::int64_t(wide ? 32 : 16)});
    props.push_back({"triangleCount", "int32", std::int64_t(triangles), r.offsetOf(start), 4});
    props.push_back({"uv0Count", "int32", std::int64_t(uv0Count)});
    props.push_back({"uv1Count", "int32", std::int64_t(uv1Count)});
}

std::size_t readCount(ByteReader& r, const char* what) {
    const std::size_t at = r.pos();
    const std::int32_t n = r.i32(what);
    if (n < 0)
        r.failAt(at, errc::kBadCount,
                 std::string(what) + " is negative (" + std::to_string(n) + ")");
    return static_cast<std::size_t>(n);
}

BoneTable readBones(DecodeContext& ctx, ByteReader& r, int skeletonNode) {
    BoneTable t;
    auto s = ctx.scope("bones");
    const std::size_t start = r.pos();
    // Smallest bone record: name length int (0) + parent int.
    const std::size_t n = r.checkCount(readCount(r, "bone count"), 8, "bones");
    ctx.mapRange(r.offsetOf(start), 4, RangeKind::Field, "count", skeletonNode);
    t.names.reserve(n);
    t.parents.reserve(n);
    t.parentOffsets.reserve(n);
    t.nodes.reserve(n);
    for (std::size_t i = 0; i < n; ++i) {
        auto b = ctx.scope("[" + std::to_string(i) + "]");
        const std::size_t boneStart = r.pos();
        std::string name = readName(r, "bone name");
        const std::size_t parentAt = r.pos();
        const std::int32_t parent = r.i32("bone parent");
        addBoneRecord(ctx, r, t, skeletonNode, std::move(name), boneStart, parentAt, parent, 4);
    }
    ctx.mapRange(r.offsetOf(start), r.pos() - start, RangeKind::Array, {}, skeletonNode);
    return t;
}

void addBoneRecord(DecodeContext& ctx, const ByteReader& r, BoneTable& t, int skeletonNode,
                   std::string name, std::size_t boneStart, std::size_t parentAt, int parent,
                   std::size_t parentBytes) {
    Asset& a = ctx.asset();
    const int node = a.addNode(name, "bone", skeletonNode);
    a.nodes[node].offset = r.offsetOf(boneStart);
    a.nodes[node].length = r.pos() - boneStart;
    a.addProperty(node,
                  {"parent", "int32", std::int64_t(parent), r.offsetOf(parentAt), parentBytes});
    ctx.mapRange(r.offsetOf(boneStart), r.pos() - boneStart, RangeKind::Record, {}, node);
    ctx.mapRange(r.offsetOf(parentAt), parentBytes, RangeKind::Field, "parent", node);
    t.names.push_back(std::move(name));
    t.parents.push_back(parent);
    t.parentOffsets.push_back(r.offsetOf(parentAt));
    t.nodes.push_back(node);
}

int addSkeleton(Asset& a, const BoneTable& bones, int skeletonNode, std::vector<Mat4> world) {
    const int index = static_cast<int>(a.skeletons.size());
    Skeleton skel;
    skel.name = "skeleton";
    skel.bones.resize(bones.names.size());
    for (std::size_t b = 0; b < skel.bones.size(); ++b) {
        skel.bones[b].name = bones.names[b];
        skel.bones[b].parent = bones.parents[b];
        skel.bones[b].world = b < world.size() ? world[b] : Mat4::identity();
        NodeLinks& links = a.linksOf(bones.nodes[b]);
        links.skeleton = index;
        links.bone = static_cast<int>(b);
    }
    if (skeletonNode >= 0) a.linksOf(skeletonNode).skeleton = index;
    a.skeletons.push_back(std::move(skel));
    return index;
}

BoneTable readSkeleton(DecodeContext& ctx, ByteReader& r, int root, int header) {
    Asset& a = ctx.asset();
    const int skeletonNode = a.addNode("skeleton", "skeleton", root);
    const std::size_t bonesStart = r.pos();
    BoneTable bones = readBones(ctx, r, skeletonNode);
    bones.skeletonNode = skeletonNode;
    a.nodes[skeletonNode].offset = r.offsetOf(bonesStart);
    a.nodes[skeletonNode].length = r.pos() - bonesStart;
    a.addProperty(header, {"boneCount", "int32", std::int64_t(bones.names.size()),
                           r.offsetOf(bonesStart), 4});
    return bones;
}

FileStart readSignature(DecodeContext& ctx, ByteReader& r, const char* formatName,
                        const char (&signature)[5], RangeKind signatureKind) {
    Asset& a = ctx.asset();
    a.formatName = formatName;
    a.version = signature;
    FileStart f;
    f.root = addFileNode(ctx);
    f.header = a.addNode("header", "header", f.root);
    auto s = ctx.scope("header");
    r.u32("signature");
    a.addProperty(f.header, {"signature", "string", std::string(signature), 0, 4});
    a.nodes[f.header].offset = 0;
    a.nodes[f.header].length = 4;
    ctx.mapRange(0, 4, signatureKind, "signature", f.header);
    return f;
}

std::size_t readVertexCount(DecodeContext& ctx, ByteReader& r) {
    const std::size_t start = r.pos();
    const std::size_t n = readCount(r, "vertex count");
    if (n > ctx.limits().maxVertices)
        r.failAt(start, errc::kLimit, "vertex count " + std::to_string(n) + " exceeds maxVertices");
    return n;
}

void warnNonFinitePositions(DecodeContext& ctx, const Mesh& mesh, std::uint64_t firstVertexAt) {
    std::size_t bad = 0, first = 0;
    for (std::size_t i = 0; i < mesh.positions.size(); ++i) {
        if (mesh.positions[i].finite()) continue;
        if (bad++ == 0) first = i;
    }
    if (bad) {
        ctx.warn(firstVertexAt, errc::kNonFiniteVertices,
                 std::to_string(bad) + " of " + std::to_string(mesh.positions.size()) +
                     " vertices have non-finite positions (first: vertex " + std::to_string(first) +
                     "); they are kept but left out of the bounds");
    }
}

void addSurfaceMesh(DecodeContext& ctx, const ByteReader& r, std::size_t start, int node,
                    Mesh&& mesh, const std::string& chunkName) {
    Asset& a = ctx.asset();
    ctx.mapRange(r.offsetOf(start), r.pos() - start, RangeKind::Chunk, chunkName, node);
    a.nodes[node].offset = r.offsetOf(start);
    a.nodes[node].length = r.pos() - start;
    mesh.node = node;
    a.linksOf(node).mesh = static_cast<int>(a.meshes.size());
    a.meshes.push_back(std::move(mesh));
    ctx.progress(double(r.pos()) / double(r.size()));
}

SurfaceHeaders readSurfaceHeaders(DecodeContext& ctx, ByteReader& r, int root, std::size_t count,
                                  void (*readMore)(DecodeContext&, ByteReader&, int node)) {
    Asset& a = ctx.asset();
    SurfaceHeaders h;
    h.nodes.reserve(count);
    h.names.reserve(count);
    for (std::size_t i = 0; i < count; ++i) {
        auto s = ctx.scope("surfaces[" + std::to_string(i) + "]");
        auto hs = ctx.scope("header");
        const std::size_t start = r.pos();
        std::string name = readName(r, "surface name");
        const int node = a.addNode(name, "surface", root);
        a.addProperty(node, {"name", "string", name, r.offsetOf(start), r.pos() - start});
        if (readMore) {
            ctx.mapRange(r.offsetOf(start), r.pos() - start, RangeKind::Field, "name", node);
            readMore(ctx, r, node);
        }
        ctx.mapRange(r.offsetOf(start), r.pos() - start, RangeKind::Header, {}, node);
        h.nodes.push_back(node);
        h.names.push_back(std::move(name));
    }
    return h;
}

void mapTrailingBytes(DecodeContext& ctx, const ByteReader& r, const char* after) {
    if (r.atEnd()) return;
    ctx.warn(r.offset(), errc::kTrailingBytes,
             std::to_string(r.remaining()) + " bytes follow " + after);
    ctx.mapRange(r.offset(), r.remaining(), RangeKind::Padding, "trailing bytes");
}

int addFileNode(DecodeContext& ctx) {
    std::string name = ctx.options().fileName;
    const auto slash = name.find_last_of("/\\");
    if (slash != std::string::npos) name = name.substr(slash + 1);
    if (name.empty()) name = "file";
    Asset& a = ctx.asset();
    const int root = a.addNode(std::move(name), "file");
    a.nodes[root].offset = 0;
    a.nodes[root].length = ctx.bytes().size();
    return root;
}

}  // namespace meshscope::unigine
