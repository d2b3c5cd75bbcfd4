// FileMesh vertex, face and LOD-offset arrays (shared by every binary layout) and the Builder's
// finishing pass: LOD levels, subsets as surfaces, generated tangents, NaN warnings.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "formats/roblox_mesh/mesh_decoder.h"
#include "io/huge_pages.h"
#include "meshscope/core/error_codes.h"
#include "meshscope/core/pose.h"

namespace meshscope::filemesh {

namespace {

std::string str(std::uint64_t v) {
    return std::to_string(v);
}

// The largest of the 3 × `count` indices in face records of `faceSize` bytes from `p` (a
// max-reduction: vectorises when the records are packed, 12 bytes each).
std::uint32_t largestIndex(const std::uint8_t* p, std::size_t count, std::size_t faceSize) {
    std::uint32_t mx = 0;
    if (faceSize == 12) {
        for (std::size_t i = 0; i < count * 3; ++i) {
            std::uint32_t v;
            std::memcpy(&v, p + i * 4, 4);
            mx = v > mx ? v : mx;
        }
        return mx;
    }
    for (std::size_t i = 0; i < count; ++i)
        for (std::size_t j = 0; j < 3; ++j) {
            std::uint32_t v;
            std::memcpy(&v, p + i * faceSize + j * 4, 4);
            mx = v > mx ? v : mx;
        }
    return mx;
}

Vec3 cross(const Vec3& a, const Vec3& b) {
    return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
float dot(const Vec3& a, const Vec3& b) {
    return a.x * b.x + a.y * b.y + a.z * b.z;
}

}  // namespace

void readVertices(ByteReader& r, Builder& b, std::uint64_t count, std::uint32_t vertexSize,
                  int parent) {
    auto scope = b.ctx.scope("vertices");
    if (vertexSize < 36)
        r.fail(errc::kBadVertexSize, "vertex records of " + str(vertexSize) +
                                         " bytes cannot hold a FileMeshVertex (36 or 40 bytes)");
    if (vertexSize != 36 && vertexSize != 40)
        r.warn(errc::kOddVertexSize, "vertex records of " + str(vertexSize) +
                                         " bytes: the bytes after the first 40 are ignored");
    const std::size_t n = r.checkCount(count, vertexSize, "vertices");
    if (count > b.ctx.limits().maxVertices)
        r.fail(errc::kLimit, str(count) + " vertices exceed the vertex cap (maxVertices)");
    b.ctx.checkAllocation(r.offset(), n, sizeof(Vec3) * 2 + sizeof(Vec2) + sizeof(Vec4) + 4,
                          "vertices");
    const std::uint64_t at = r.offset();
    const ByteSpan block = r.bytes(n * vertexSize, "vertices");
    const int node = b.addNode("vertices", "vertices", parent, at, block.size());
    b.asset.linksOf(node).mesh = 0;
    b.property(node, "count", "uint32", std::int64_t(n));
    b.property(node, "vertexSize", "uint8", std::int64_t(vertexSize));
    b.ctx.mapRange(at, block.size(), RangeKind::Array, {}, node);
    b.vertexOffset = at;

    Mesh& m = b.mesh();
    if (b.leaveArrays) {
        // The records are read where they lie, once: the bounds, the non-finite positions and
        // the tangent-less vertices a full decode reports; nothing is written but the count.
        const std::uint8_t* p = block.data();
        std::size_t zero = 0;
        for (std::size_t base = 0; base < n; base += kFillBlock, p += kFillBlock * vertexSize) {
            if (base % (kFillBlock * kCancelBlocks) == 0) b.ctx.checkCancel(at + base * vertexSize);
            const std::size_t k = std::min(kFillBlock, n - base);
            b.scanPoints(p, vertexSize, base, k);
            for (std::size_t i = 0; i < k; ++i) {
                std::uint32_t t;
                std::memcpy(&t, p + i * vertexSize + 32, 4);
                zero += t == 0;
            }
        }
        m.unloaded.emplace();
        m.unloaded->vertices = n;
        b.positionsScanned = true;
        b.zeroTangents += zero;
        return;
    }
    const bool colors = vertexSize >= 40;  // 36-byte records have no RGBA: it means 255s
    m.positions.reserve(n);
    m.normals.reserve(n);
    m.uv0.reserve(n);
    m.tangents.reserve(n);
    if (colors) m.colors.reserve(n);
    adviseHugePages(m.positions);
    adviseHugePages(m.normals);
    adviseHugePages(m.uv0);
    adviseHugePages(m.tangents);
    if (colors) adviseHugePages(m.colors);
    // Records: px py pz nx ny nz tu tv (floats), tx ty tz ts, [r g b a]. One pass per block of
    // kFillBlock records, every stream of the block written while it is in cache.
    const std::uint8_t* p = block.data();
    std::size_t zero = 0;
    for (std::size_t base = 0; base < n; base += kFillBlock, p += kFillBlock * vertexSize) {
        if (base % (kFillBlock * kCancelBlocks) == 0) b.ctx.checkCancel(at + base * vertexSize);
        const std::size_t k = std::min(kFillBlock, n - base);
        // The next block is fetched while this one is converted (the first stream of a block
        // would otherwise wait on memory for every record).
        if (base + k < n) {
            const std::size_t ahead = std::min(kFillBlock, n - base - k) * vertexSize;
            for (std::size_t o = 0; o < ahead; o += 64)
                __builtin_prefetch(p + k * vertexSize + o, 0, 2);
        }
        appendRecords(m.positions, p, k, vertexSize, [](const std::uint8_t* q) {
            Vec3 v;
            std::memcpy(&v, q, 12);
            return v;
        });
        appendRecords(m.normals, p + 12, k, vertexSize, [](const std::uint8_t* q) {
            Vec3 v;
            std::memcpy(&v, q, 12);
            return v;
        });
        appendRecords(m.uv0, p + 24, k, vertexSize, [](const std::uint8_t* q) {
            Vec2 v;
            std::memcpy(&v, q, 8);
            return v;
        });
        appendRecords(m.tangents, p + 32, k, vertexSize, [&zero](const std::uint8_t* q) {
            std::uint32_t t;
            std::memcpy(&t, q, 4);
            zero += t == 0;
            return tangentFromBytes(q);
        });
        if (colors)
            appendRecords(m.colors, p + 36, k, vertexSize, [](const std::uint8_t* q) {
                Rgba8 c;
                std::memcpy(&c, q, 4);
                return c;
            });
        b.scanPositions(base, base + k);
    }
    b.positionsScanned = true;
    b.zeroTangents += zero;
}

void failFaceIndex(Builder& b, std::uint64_t at, ByteSpan block, std::uint32_t faceSize) {
    const std::size_t vc = b.mesh().vertexCount();
    const std::size_t faces = faceSize ? block.size() / faceSize : 0;
    for (std::size_t f = 0; f < faces; ++f)
        for (std::size_t k = 0; k < 3; ++k) {
            std::uint32_t index;
            std::memcpy(&index, block.data() + f * faceSize + k * 4, 4);
            if (index < vc) continue;
            b.ctx.fail(
                at + f * faceSize + k * 4, errc::kIndexOutOfRange,
                "faces[" + str(f) + "]: face index " + str(index) + " >= vertex count " + str(vc));
        }
    b.ctx.fail(at, errc::kIndexOutOfRange, "a face index >= the vertex count");
}

void readFaces(ByteReader& r, Builder& b, std::uint64_t count, std::uint32_t faceSize, int parent) {
    auto scope = b.ctx.scope("faces");
    if (faceSize < 12)
        r.fail(errc::kBadFaceSize, "face records of " + str(faceSize) +
                                       " bytes cannot hold three u32 indices (12 bytes)");
    if (faceSize != 12)
        r.warn(errc::kOddFaceSize, "face records of " + str(faceSize) +
                                       " bytes: the bytes after the first 12 are ignored");
    const std::size_t n = r.checkCount(count, faceSize, "faces");
    if (count > b.ctx.limits().maxTriangles)
        r.fail(errc::kLimit, str(count) + " faces exceed the triangle cap (maxTriangles)");
    const std::uint64_t at = r.offset();
    const ByteSpan block = r.bytes(n * faceSize, "faces");
    const int node = b.addNode("faces", "faces", parent, at, block.size());
    b.asset.linksOf(node).mesh = 0;
    b.property(node, "count", "uint32", std::int64_t(n));
    b.property(node, "faceSize", "uint8", std::int64_t(faceSize));
    b.ctx.mapRange(at, block.size(), RangeKind::Array, {}, node);
    b.facesOffset = at;
    b.faceSize = faceSize;

    Mesh& m = b.mesh();
    if (b.leaveArrays) {
        // Checked where they lie (the largest index of each block), then only counted.
        std::uint32_t maxIndex = 0;
        const std::uint8_t* p = block.data();
        for (std::size_t base = 0; base < n; base += kFillBlock) {
            if (base % (kFillBlock * kCancelBlocks) == 0) b.ctx.checkCancel(at + base * faceSize);
            const std::size_t k = std::min(kFillBlock, n - base);
            const std::uint32_t mx = largestIndex(p, k, faceSize);
            p += k * faceSize;
            maxIndex = mx > maxIndex ? mx : maxIndex;
        }
        if (!m.unloaded) m.unloaded.emplace();
        m.unloaded->indices = n * 3;
        if (n && maxIndex >= m.vertexCount()) {
            m.unloaded->indicesValid = false;
            failFaceIndex(b, at, block, faceSize);
        }
        return;
    }
    // Copied in blocks; the largest index is taken over each block just copied (in cache), and
    // only a bad one leads to the slow search for the first offending offset.
    m.indices.reserve(n * 3);
    adviseHugePages(m.indices);
    std::uint32_t maxIndex = 0;
    const std::uint8_t* p = block.data();
    for (std::size_t base = 0; base < n; base += kFillBlock) {
        if (base % (kFillBlock * kCancelBlocks) == 0) b.ctx.checkCancel(at + base * faceSize);
        const std::size_t k = std::min(kFillBlock, n - base);
        m.indices.resize((base + k) * 3);
        std::uint32_t* d = m.indices.data() + base * 3;
        if (faceSize == 12) {
            std::memcpy(d, p, k * 12);
            p += k * 12;
        } else {
            for (std::size_t i = 0; i < k; ++i, p += faceSize) std::memcpy(d + i * 3, p, 12);
        }
        const std::uint32_t mx = largestIndex(reinterpret_cast<const std::uint8_t*>(d), k, 12);
        maxIndex = mx > maxIndex ? mx : maxIndex;
    }
    if (n && maxIndex >= m.vertexCount()) failFaceIndex(b, at, block, faceSize);
}

void readLodOffsets(ByteReader& r, Builder& b, std::uint64_t count, std::uint32_t entrySize,
                    int parent) {
    auto scope = b.ctx.scope("lodOffsets");
    if (entrySize < 4)
        r.fail(errc::kBadLodSize, "LOD offsets of " + str(entrySize) + " bytes (expected 4)");
    const std::size_t n = r.checkCount(count, entrySize, "LOD offsets");
    const std::uint64_t at = r.offset();
    const ByteSpan block = r.bytes(n * entrySize, "LOD offsets");
    b.lodsNode = b.addNode("LODs", "LODs", parent, at, block.size());
    b.asset.linksOf(b.lodsNode).mesh = 0;
    b.property(b.lodsNode, "numLodOffsets", "uint32", std::int64_t(n));
    b.ctx.mapRange(at, block.size(), RangeKind::Array, {}, b.lodsNode);
    b.lodOffsetsOffset = at;
    Mesh& m = b.mesh();
    m.lodOffsets.resize(n);
    for (std::size_t i = 0; i < n; ++i)
        std::memcpy(&m.lodOffsets[i], block.data() + i * entrySize, 4);
    std::vector<double> shown(m.lodOffsets.begin(), m.lodOffsets.end());
    b.property(b.lodsNode, "lodOffsets", "uint32[]", std::move(shown), at, block.size());
}

// ---------------------------------------------------------------------------------------------

void Builder::scanPositions(std::size_t begin, std::size_t end) {
    scanPoints(reinterpret_cast<const std::uint8_t*>(mesh().positions.data() + begin), sizeof(Vec3),
               begin, end - begin);
}

void Builder::scanPoints(const std::uint8_t* p, std::size_t stride, std::size_t first,
                         std::size_t count) {
    const auto point = [p, stride](std::size_t i) {
        Vec3 v;
        std::memcpy(&v, p + i * stride, sizeof v);
        return v;
    };
    Bounds& bounds = mesh().bounds;
    // Fast pass without a per-point test: x * 0 is 0 for every finite x and NaN otherwise, so
    // `poison` tells at the end whether the block held a non-finite point; only then is the block
    // redone point by point (bounds ignore a point with any non-finite coordinate).
    Vec3 lo = bounds.min, hi = bounds.max;
    float poison = 0;
    for (std::size_t i = 0; i < count; ++i) {
        const Vec3 q = point(i);
        poison += q.x * 0.0f + q.y * 0.0f + q.z * 0.0f;
        lo.x = q.x < lo.x ? q.x : lo.x;
        lo.y = q.y < lo.y ? q.y : lo.y;
        lo.z = q.z < lo.z ? q.z : lo.z;
        hi.x = q.x > hi.x ? q.x : hi.x;
        hi.y = q.y > hi.y ? q.y : hi.y;
        hi.z = q.z > hi.z ? q.z : hi.z;
    }
    if (poison == 0) {
        bounds.min = lo;
        bounds.max = hi;
        return;
    }
    for (std::size_t i = 0; i < count; ++i) {
        const Vec3 q = point(i);
        if (!q.finite()) {
            if (!nonFinite++) firstNonFinite = first + i;
            continue;
        }
        bounds.add(q);
    }
}

void Builder::finish() {
    resolveLods();
    resolveSurfaces();
    resolveSkin();
    generateTangents();
    reportUnweightedFaceBones();
    const Mesh& m = mesh();
    if (!positionsScanned) {
        mesh().bounds = {};
        nonFinite = 0;
        scanPositions(0, m.positions.size());
    }
    const std::size_t bad = nonFinite, first = firstNonFinite;
    if (bad) {
        // A v3.01 sample (krakow10 5648093777) stores 17 all-NaN vertices used by LOD1/LOD2.
        ctx.warn(vertexOffset, errc::kNonFiniteVertices,
                 str(bad) + " of " + str(m.vertexCount()) +
                     " vertices have non-finite positions (first: vertex " + str(first) +
                     "); they are kept but left out of the bounds");
    }
}

void Builder::reportUnweightedFaceBones() {
    const Mesh& m = mesh();
    if (faceBoneNodes.empty() || m.facs < 0 || std::size_t(m.facs) >= asset.facs.size() ||
        m.skeleton < 0 || std::size_t(m.skeleton) >= asset.skeletons.size())
        return;
    const FacsRig& rig = asset.facs[std::size_t(m.facs)];
    const FacsWeightReport report =
        facsWeightReport(rig, asset.skeletons[std::size_t(m.skeleton)], m);
    for (std::size_t r = 0; r < faceBoneNodes.size() && r < report.weightedVertices.size(); ++r)
        if (report.weightedVertices[r] >= 0)
            property(faceBoneNodes[r], "weightedVertices", "uint32", report.weightedVertices[r]);
    if (!report.bonesWithoutVertices) return;
    std::string text = str(report.bonesWithoutVertices) + " of the " + str(report.bonesInSkeleton) +
                       " face bones in the mesh's skeleton have no weighted vertex";
    const std::vector<int>& still = report.stillControls;
    if (!still.empty()) {
        text += ": " + str(still.size()) + " of " + str(rig.controlNames.size()) +
                " controls move only them and leave the mesh as it is (";
        for (std::size_t i = 0; i < still.size() && i < 4; ++i)
            text += (i ? ", " : "") +
                    std::string(facsDisplayName(rig.controlNames[std::size_t(still[i])]));
        text += still.size() > 4 ? ", ...)" : ")";
    }
    ctx.info(faceBonesOffset, errc::kFacsUnweightedBones, text);
}

void Builder::resolveLods() {
    Mesh& m = mesh();
    if (lodsNode < 0) {
        lodsNode = addNode("LODs", "LODs", root);
        asset.linksOf(lodsNode).mesh = 0;
    }
    const std::uint64_t faces = m.indexCount() / 3;
    const auto& o = m.lodOffsets;
    m.lods.clear();
    if (o.size() <= 2) {
        // Two entries or fewer (often [0, 0] in v7 files) mean "the whole mesh is LOD 0"
        // (AntiBoomz/BTRoblox MeshParser.js).
        if (faces) m.lods.push_back({0, std::uint32_t(faces), "LOD0"});
    } else {
        bool warned = false;
        for (std::size_t n = 0; n + 1 < o.size(); ++n) {
            std::uint64_t a = o[n], e = o[n + 1];
            if (a > e || e > faces) {
                if (!warned)
                    ctx.warn(lodOffsetsOffset + 4 * (n + 1), errc::kLodRange,
                             "LOD" + str(n) + " faces [" + str(a) + ", " + str(e) +
                                 ") do not fit the " + str(faces) + " faces; clamped");
                warned = true;
                a = std::min(a, faces);
                e = std::min(std::max(e, a), faces);
            }
            m.lods.push_back({std::uint32_t(a), std::uint32_t(e - a), "LOD" + str(n)});
        }
    }
    for (std::size_t n = 0; n < m.lods.size(); ++n) {
        const LodLevel& l = m.lods[n];
        const int node = addNode(l.name, "LOD", lodsNode);
        if (faceSize)
            setBytes(node, facesOffset + std::uint64_t(l.firstTriangle) * faceSize,
                     std::uint64_t(l.triangleCount) * faceSize);
        asset.linksOf(node).mesh = 0;
        asset.linksOf(node).lod = int(n);
        property(node, "firstFace", "uint32", std::int64_t(l.firstTriangle));
        property(node, "faceCount", "uint32", std::int64_t(l.triangleCount));
    }
}

void Builder::resolveSurfaces() {
    Mesh& m = mesh();
    const std::uint64_t faces = m.indexCount() / 3, verts = m.vertexCount();
    bool warned = false;
    for (std::size_t i = 0; i < subsets.size(); ++i) {
        const Subset& s = subsets[i];
        Surface f{"subset " + str(i), s.facesBegin, s.facesLength, s.vertsBegin, s.vertsLength};
        if (std::uint64_t(s.facesBegin) + s.facesLength > faces ||
            std::uint64_t(s.vertsBegin) + s.vertsLength > verts) {
            if (!warned)
                ctx.warn(s.offset, errc::kSubsetRange,
                         "subset " + str(i) + " reaches past the " + str(faces) + " faces / " +
                             str(verts) + " vertices; clamped");
            warned = true;
            f.firstTriangle = std::uint32_t(std::min<std::uint64_t>(f.firstTriangle, faces));
            f.triangleCount =
                std::uint32_t(std::min<std::uint64_t>(f.triangleCount, faces - f.firstTriangle));
            f.firstVertex = std::uint32_t(std::min<std::uint64_t>(f.firstVertex, verts));
            f.vertexCount =
                std::uint32_t(std::min<std::uint64_t>(f.vertexCount, verts - f.firstVertex));
        }
        m.surfaces.push_back(std::move(f));
    }
}

void Builder::generateTangents() {
    Mesh& m = mesh();
    if (!zeroTangents || (!m.unloaded && (m.tangents.size() != m.positions.size() ||
                                          m.uv0.size() != m.positions.size())))
        return;
    // All-zero tangent bytes (every 36-byte-vertex v2 file, e.g. Rbx2Source Heads/Default.mesh)
    // mean "no tangent": such a vertex decodes to (-1, -1, -1, -1) and gets one from its UVs.
    ctx.warn(vertexOffset, errc::kNoTangents,
             str(zeroTangents) + " of " + str(m.vertexCount()) +
                 " vertices store no tangent (all-zero bytes); tangents were generated from the "
                 "UVs");
    // Left in the file: the warning is the full decode's, there is nothing to generate into.
    if (m.unloaded) return;
    const std::size_t n = m.positions.size();
    const bool haveNormals = m.normals.size() == n;
    std::vector<Vec3> tan(n), bit(n);
    for (std::size_t f = 0; f + 2 < m.indices.size(); f += 3) {
        if (f % (3 * kFillBlock * kCancelBlocks) == 0) ctx.checkCancel(vertexOffset);
        const std::uint32_t i0 = m.indices[f], i1 = m.indices[f + 1], i2 = m.indices[f + 2];
        if (i0 >= n || i1 >= n || i2 >= n) continue;
        const Vec3 e1 = m.positions[i1] - m.positions[i0], e2 = m.positions[i2] - m.positions[i0];
        const float du1 = m.uv0[i1].x - m.uv0[i0].x, dv1 = m.uv0[i1].y - m.uv0[i0].y;
        const float du2 = m.uv0[i2].x - m.uv0[i0].x, dv2 = m.uv0[i2].y - m.uv0[i0].y;
        const float det = du1 * dv2 - du2 * dv1;
        if (!std::isfinite(det) || std::fabs(det) < 1e-12f) continue;
        const float inv = 1.0f / det;
        const Vec3 t = (e1 * dv2 - e2 * dv1) * inv, bt = (e2 * du1 - e1 * du2) * inv;
        if (!t.finite() || !bt.finite()) continue;
        for (std::uint32_t i : {i0, i1, i2}) {
            tan[i] = tan[i] + t;
            bit[i] = bit[i] + bt;
        }
    }
    for (std::size_t i = 0; i < n; ++i) {
        const Vec4& old = m.tangents[i];
        if (!(old.x == -1 && old.y == -1 && old.z == -1 && old.w == -1)) continue;
        const Vec3 nrm = haveNormals && m.normals[i].finite() ? m.normals[i] : Vec3{0, 1, 0};
        Vec3 t = tan[i] - nrm * dot(nrm, tan[i]);
        float len = std::sqrt(dot(t, t));
        if (!(len > 1e-8f) || !std::isfinite(len)) {
            // No usable UV gradient: any direction perpendicular to the normal.
            t = cross(nrm, std::fabs(nrm.x) < 0.9f ? Vec3{1, 0, 0} : Vec3{0, 1, 0});
            len = std::sqrt(dot(t, t));
            if (!(len > 1e-8f)) t = {1, 0, 0}, len = 1;
        }
        t = t * (1.0f / len);
        const float w = dot(cross(nrm, t), bit[i]) < 0 ? -1.0f : 1.0f;
        m.tangents[i] = {t.x, t.y, t.z, w};
    }
}

}  // namespace meshscope::filemesh
