// FileMesh skinning pieces shared by v4/v5 and the SKINNING chunk: skin envelopes, bones, the bone
// name table, subsets, and the resolution of subset-local bone bytes into skeleton bone indices.
#include <cstring>

#include "formats/roblox_mesh/mesh_decoder.h"
#include "meshscope/core/error_codes.h"

namespace meshscope::filemesh {

namespace {

std::string str(std::uint64_t v) {
    return std::to_string(v);
}

constexpr std::size_t kBoneSize = 60;    // FileMeshBone
constexpr std::size_t kSubsetSize = 72;  // FileMeshSubset
constexpr std::uint16_t kNoBone = 0xFFFF;

struct BoneRecord {
    std::uint32_t nameIndex;
    std::uint16_t parent, lodParent;
    float culling;
    float r[9];  // row-major r00 r01 r02 r10 ...
    float x, y, z;
};
static_assert(sizeof(BoneRecord) == kBoneSize);

struct SubsetRecord {
    std::uint32_t facesBegin, facesLength, vertsBegin, vertsLength, numBoneIndices;
    std::uint16_t boneIndices[26];
};
static_assert(sizeof(SubsetRecord) == kSubsetSize);

}  // namespace

void readEnvelopes(ByteReader& r, Builder& b, std::uint64_t count, int parent) {
    auto scope = b.ctx.scope("skinning");
    const std::uint64_t at = r.offset();
    r.readArray(b.envelopes, count, "skin envelopes");
    const std::uint64_t length = b.envelopes.size() * sizeof(Envelope);
    const int node = b.addNode("skinning", "skinning", parent, at, length);
    b.asset.linksOf(node).mesh = 0;
    b.property(node, "count", "uint32", std::int64_t(b.envelopes.size()));
    b.ctx.mapRange(at, length, RangeKind::Array, {}, node);
    b.envelopesOffset = at;
    b.haveSkinning = true;
}

void readBones(ByteReader& r, Builder& b, std::uint64_t count, int parent) {
    auto scope = b.ctx.scope("bones");
    const std::size_t n = r.checkCount(count, kBoneSize, "bones");
    const std::uint64_t at = r.offset();
    std::vector<BoneRecord> records;
    r.readArray(records, n, "bones");

    Asset& a = b.asset;
    if (a.skeletons.empty()) a.skeletons.emplace_back();
    Skeleton& sk = a.skeletons[0];
    sk.name = "FileMesh skeleton";
    b.mesh().skeleton = 0;
    b.skeletonNode = b.addNode("skeleton", "skeleton", parent, at, n * kBoneSize);
    a.linksOf(b.skeletonNode).skeleton = 0;
    b.property(b.skeletonNode, "numBones", "uint32", std::int64_t(n));
    b.ctx.mapRange(at, n * kBoneSize, RangeKind::Array, {}, b.skeletonNode);

    sk.bones.resize(n);
    b.boneNameIndex.resize(n);
    b.boneNodes.resize(n);
    bool warned = false;
    for (std::size_t i = 0; i < n; ++i) {
        const BoneRecord& rec = records[i];
        const std::uint64_t ra = at + i * kBoneSize;
        Bone& bone = sk.bones[i];
        bone.name = "bone " + str(i);  // replaced by readBoneNames
        auto parentOf = [&](std::uint16_t p) {
            if (p == kNoBone) return -1;
            if (p >= n) {
                if (!warned)
                    b.ctx.warn(ra + 4, errc::kBadParent,
                               "bones[" + str(i) + "]: parent index " + str(p) + " >= bone count " +
                                   str(n) + "; treated as a root");
                warned = true;
                return -1;
            }
            return int(p);
        };
        bone.parent = parentOf(rec.parent);
        bone.lodParent = parentOf(rec.lodParent);
        bone.culling = rec.culling;
        // The stored CFrame is world space: rotation rows r00..r22, then the position.
        for (int row = 0; row < 3; ++row)
            for (int col = 0; col < 3; ++col) bone.world.at(row, col) = rec.r[row * 3 + col];
        bone.world.at(0, 3) = rec.x;
        bone.world.at(1, 3) = rec.y;
        bone.world.at(2, 3) = rec.z;
        b.boneNameIndex[i] = rec.nameIndex;

        const int node = b.addNode(bone.name, "bone", b.skeletonNode, ra, kBoneSize);
        a.linksOf(node).skeleton = 0;
        a.linksOf(node).bone = int(i);
        b.boneNodes[i] = node;
        b.ctx.mapRange(ra, kBoneSize, RangeKind::Record, "bones[" + str(i) + "]", node);
        b.property(node, "boneNameIndex", "uint32", std::int64_t(rec.nameIndex), ra, 4);
        b.property(node, "parentIndex", "uint16", std::int64_t(rec.parent), ra + 4, 2);
        b.property(node, "lodParentIndex", "uint16", std::int64_t(rec.lodParent), ra + 6, 2);
        b.property(node, "culling", "float", double(rec.culling), ra + 8, 4);
        CFrame cf;
        cf.position = {rec.x, rec.y, rec.z};
        std::memcpy(cf.rotation.data(), rec.r, sizeof rec.r);
        b.property(node, "CFrame", "CFrame", cf, ra + 12, 48);
    }
    // Parent chains that lead back to themselves: the link that closes a cycle is cut (that bone
    // becomes a root) and reported, so nothing that walks up the parents loops. 0 = not seen,
    // 1 = on the current walk, 2 = done.
    std::vector<std::uint8_t> state(n, 0);
    std::vector<int> walk;
    for (std::size_t i = 0; i < n; ++i) {
        walk.clear();
        int v = int(i);
        while (v >= 0 && state[std::size_t(v)] == 0) {
            state[std::size_t(v)] = 1;
            walk.push_back(v);
            v = sk.bones[std::size_t(v)].parent;
        }
        if (v >= 0 && state[std::size_t(v)] == 1) {
            const std::size_t closer = std::size_t(walk.back());
            b.ctx.warn(at + closer * kBoneSize + 4, errc::kBoneParentCycle,
                       "bones[" + str(closer) + "]: parent index " +
                           str(std::uint64_t(sk.bones[closer].parent)) +
                           " closes a cycle of parents; treated as a root");
            sk.bones[closer].parent = -1;
        }
        for (const int w : walk) state[std::size_t(w)] = 2;
    }
}

void readBoneNames(ByteReader& r, Builder& b, std::uint64_t size, int parent) {
    auto scope = b.ctx.scope("boneNames");
    const std::uint64_t at = r.offset();
    const ByteSpan table = r.bytes(r.checkCount(size, 1, "bone names"), "bone names");
    const int node = b.addNode("bone names", "names", parent, at, table.size());
    b.ctx.mapRange(at, table.size(), RangeKind::Array, {}, node);
    if (b.asset.skeletons.empty()) return;
    Skeleton& sk = b.asset.skeletons[0];
    bool warned = false;
    for (std::size_t i = 0; i < sk.bones.size() && i < b.boneNameIndex.size(); ++i) {
        const std::uint32_t start = b.boneNameIndex[i];
        if (start >= table.size()) {
            if (!warned)
                b.ctx.warn(b.asset.nodes[b.boneNodes[i]].offset, errc::kBadNameIndex,
                           "bones[" + str(i) + "]: name index " + str(start) + " is outside the " +
                               str(table.size()) + "-byte name table");
            warned = true;
            continue;
        }
        const auto* begin = table.data() + start;
        const auto* nul =
            static_cast<const std::uint8_t*>(std::memchr(begin, 0, table.size() - start));
        const std::size_t len = nul ? std::size_t(nul - begin) : table.size() - start;
        sk.bones[i].name.assign(reinterpret_cast<const char*>(begin), len);
        b.asset.setName(b.boneNodes[i], sk.bones[i].name);
        b.property(b.boneNodes[i], "name", "string", sk.bones[i].name, at + start,
                   len + (nul ? 1 : 0));
        b.ctx.mapRange(at + start, len + (nul ? 1 : 0), RangeKind::Field,
                       "bones[" + str(i) + "] › name", b.boneNodes[i]);
    }
}

void readSubsets(ByteReader& r, Builder& b, std::uint64_t count, int parent) {
    auto scope = b.ctx.scope("subsets");
    const std::size_t n = r.checkCount(count, kSubsetSize, "subsets");
    const std::uint64_t at = r.offset();
    std::vector<SubsetRecord> records;
    r.readArray(records, n, "subsets");
    const int node = b.addNode("subsets", "subsets", parent, at, n * kSubsetSize);
    b.asset.linksOf(node).mesh = 0;
    b.property(node, "numSubsets", "uint32", std::int64_t(n));
    b.ctx.mapRange(at, n * kSubsetSize, RangeKind::Array, {}, node);
    bool warned = false;
    for (std::size_t i = 0; i < n; ++i) {
        const SubsetRecord& rec = records[i];
        const std::uint64_t ra = at + i * kSubsetSize;
        Subset s;
        s.facesBegin = rec.facesBegin;
        s.facesLength = rec.facesLength;
        s.vertsBegin = rec.vertsBegin;
        s.vertsLength = rec.vertsLength;
        s.numBoneIndices = rec.numBoneIndices;
        std::memcpy(s.boneIndices.data(), rec.boneIndices, sizeof rec.boneIndices);
        s.offset = ra;
        if (s.numBoneIndices > 26) {
            if (!warned)
                b.ctx.warn(ra + 16, errc::kBadSubset,
                           "subsets[" + str(i) + "]: numBoneIndices " + str(s.numBoneIndices) +
                               " > 26; only 26 are stored");
            warned = true;
            s.numBoneIndices = 26;
        }
        const int sn = b.addNode("subset " + str(i), "subset", node, ra, kSubsetSize);
        b.asset.linksOf(sn).mesh = 0;
        b.ctx.mapRange(ra, kSubsetSize, RangeKind::Record, "subsets[" + str(i) + "]", sn);
        b.property(sn, "facesBegin", "uint32", std::int64_t(rec.facesBegin), ra, 4);
        b.property(sn, "facesLength", "uint32", std::int64_t(rec.facesLength), ra + 4, 4);
        b.property(sn, "vertsBegin", "uint32", std::int64_t(rec.vertsBegin), ra + 8, 4);
        b.property(sn, "vertsLength", "uint32", std::int64_t(rec.vertsLength), ra + 12, 4);
        b.property(sn, "numBoneIndices", "uint32", std::int64_t(rec.numBoneIndices), ra + 16, 4);
        std::vector<double> bones(s.boneIndices.begin(), s.boneIndices.begin() + s.numBoneIndices);
        b.property(sn, "boneIndices", "uint16[]", std::move(bones), ra + 20, 52);
        b.subsets.push_back(s);
    }
}

void Builder::resolveSkin() {
    if (!haveSkinning) return;
    Mesh& m = mesh();
    const std::size_t vc = m.vertexCount();
    if (envelopes.size() != vc) {
        // v7: the Draco point count must equal the SKINNING envelope count (same order).
        ctx.warn(envelopesOffset, errc::kSkinCount,
                 str(envelopes.size()) + " skin envelopes for " + str(vc) +
                     " vertices; the skinning is not applied");
        return;
    }
    const std::size_t numBones = asset.skeletons.empty() ? 0 : asset.skeletons[0].bones.size();
    // The bone bytes index the boneIndices table of the subset whose vertex range holds the
    // vertex, not the bone array (FORMAT-NOTES; rbx_mesh, BTRoblox agree).
    std::vector<std::int32_t> subsetOf(vc, -1);
    for (std::size_t s = 0; s < subsets.size(); ++s) {
        const std::uint64_t begin = std::min<std::uint64_t>(subsets[s].vertsBegin, vc);
        const std::uint64_t end = std::min<std::uint64_t>(begin + subsets[s].vertsLength, vc);
        for (std::uint64_t v = begin; v < end; ++v)
            if (subsetOf[v] < 0) subsetOf[v] = std::int32_t(s);
    }
    m.skin.assign(vc, {});
    std::size_t unresolved = 0, firstBad = 0;
    for (std::size_t v = 0; v < vc; ++v) {
        const Envelope& e = envelopes[v];
        VertexInfluences& out = m.skin[v];
        const std::int32_t s = subsetOf[v];
        for (int k = 0; k < 4; ++k) {
            if (e.weights[k] == 0) continue;
            std::uint32_t bone = kNoBone;
            if (s >= 0) {
                const Subset& sub = subsets[std::size_t(s)];
                if (e.bones[k] < sub.numBoneIndices) bone = sub.boneIndices[e.bones[k]];
            }
            if (bone >= numBones) {
                if (!unresolved++) firstBad = v;
                continue;
            }
            out.joints[k] = std::uint16_t(bone);
            out.weights[k] = float(e.weights[k]) / 255.0f;
        }
    }
    if (unresolved)
        ctx.warn(envelopesOffset + firstBad * sizeof(Envelope), errc::kSkinUnresolved,
                 str(unresolved) +
                     " weighted influences name no bone (vertex outside every "
                     "subset, or a bone byte past the subset's boneIndices; first: "
                     "vertex " +
                     str(firstBad) + "); they are dropped");
}

}  // namespace meshscope::filemesh
