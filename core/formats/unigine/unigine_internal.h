// Pieces shared by the Unigine decoders (mi08 .mesh, ms08 .smesh, as08 .sanim) and the writer:
// signatures, the normal compression of the format document, bone transforms (position, uniform
// scale, quaternion xyzw) and the readers for strings and surface blocks. Private to core.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "io/byte_reader.h"
#include "meshscope/core/asset.h"

namespace meshscope::unigine {

// A signature is a little-endian int built from four characters ('m' | 'i' << 8 | ...), so on
// disk it reads as the four characters in order: "mi08".
constexpr std::uint32_t signature(const char (&s)[5]) {
    return std::uint32_t(std::uint8_t(s[0])) | std::uint32_t(std::uint8_t(s[1])) << 8 |
           std::uint32_t(std::uint8_t(s[2])) << 16 | std::uint32_t(std::uint8_t(s[3])) << 24;
}
inline constexpr std::uint32_t kMeshSignature = signature("mi08");
inline constexpr std::uint32_t kSkinnedMeshSignature = signature("ms08");
inline constexpr std::uint32_t kAnimationSignature = signature("as08");

// Names are an int length (including the terminating NUL) and the characters; the document caps
// the length at 1024.
inline constexpr std::int32_t kMaxNameLength = 1024;

// Document: x = clamp((int)((n * 0.5 + 0.5) * 65535), 0, 65535); inverse n = u / 65535 * 2 - 1.
inline float decompressNormal(std::uint16_t u) {
    return float(u) / 65535.0f * 2.0f - 1.0f;
}
std::uint16_t compressNormal(float n);

// One bone transform as stored in the files: position, uniform scale, rotation quaternion xyzw.
struct BoneTransform {
    Vec3 position;
    float scale = 1;
    Vec4 rotation{0, 0, 0, 1};
};

// T * R * S as a column-major matrix (the quaternion is normalized first; a zero quaternion is
// taken as identity).
Mat4 composeTransform(const BoneTransform& t);
// The inverse of composeTransform for a rigid transform with uniform scale.
BoneTransform decomposeTransform(const Mat4& m);

// Reads an int length + characters name; `what` names it in errors ("surface name").
std::string readName(ByteReader& r, const char* what);

// Resolves bone parents to a forest: a parent out of range or one that closes a cycle is
// reported and the bone becomes a root. Returns world matrices (parent world × local), computed
// without recursion. `offsets` gives each bone's parent field offset for the warnings.
std::vector<Mat4> composeWorld(DecodeContext& ctx, std::vector<int>& parents,
                               const std::vector<Mat4>& locals,
                               const std::vector<std::uint64_t>& parentOffsets,
                               const std::vector<std::string>& names);

// Reads one surface's texture coordinates and triangles (the part mi08 and ms08 share) into
// `mesh`, whose positions are already filled. Maps every array. `node` is the surface node.
void readSurfaceTail(DecodeContext& ctx, ByteReader& r, Mesh& mesh, int node);

// A non-negative int count (a negative one fails at its offset).
std::size_t readCount(ByteReader& r, const char* what);

// The bone table shared by ms08 and as08: count, then per bone a name and a parent int. Adds a
// "bone" node per bone under `skeletonNode` and maps every record.
struct BoneTable {
    std::vector<std::string> names;
    std::vector<int> parents;
    std::vector<std::uint64_t> parentOffsets;
    std::vector<int> nodes;
    int skeletonNode = -1;
};
BoneTable readBones(DecodeContext& ctx, ByteReader& r, int skeletonNode);
// One bone record read from [boneStart, r.pos()), its parent int of `parentBytes` at parentAt:
// a "bone" node under `skeletonNode` with its parent property and byte ranges, appended to `t`.
// Shared by the UNIGINE 1 (int parent) and UNIGINE 2 (short parent) bone tables.
void addBoneRecord(DecodeContext& ctx, const ByteReader& r, BoneTable& t, int skeletonNode,
                   std::string name, std::size_t boneStart, std::size_t parentAt, int parent,
                   std::size_t parentBytes);
// Appends the skeleton of `bones` placed by `world` to the asset and links every bone node (and
// the skeleton node) to it. Returns its index in Asset::skeletons.
int addSkeleton(Asset& a, const BoneTable& bones, int skeletonNode, std::vector<Mat4> world);
// The "skeleton" node under `root` holding the bone table read at the current position; the
// bone count becomes a property of `header`.
BoneTable readSkeleton(DecodeContext& ctx, ByteReader& r, int root, int header);

// Adds the common "file" root node and returns its index.
int addFileNode(DecodeContext& ctx);

// What every decoder starts with: the asset's format name and version (the signature), the
// "file" root and its "header" node, which holds the 4-byte signature at offset 0 (mapped as
// `signatureKind`; the node covers those 4 bytes until the decoder extends it).
struct FileStart {
    int root = -1;
    int header = -1;
};
FileStart readSignature(DecodeContext& ctx, ByteReader& r, const char* formatName,
                        const char (&signature)[5], RangeKind signatureKind);

// A vertex count: a non-negative int within maxVertices (fails at the count).
std::size_t readVertexCount(DecodeContext& ctx, ByteReader& r);

// Warns when positions are NaN or infinite (they are kept; the bounds leave them out).
// `firstVertexAt` is the file offset of the first vertex record.
void warnNonFinitePositions(DecodeContext& ctx, const Mesh& mesh, std::uint64_t firstVertexAt);

// Finishes a surface whose data block runs from `start` to the reader's position: maps the block
// as a chunk (named `chunkName`), gives the node that range, links node and mesh, adds the mesh
// and reports progress.
void addSurfaceMesh(DecodeContext& ctx, const ByteReader& r, std::size_t start, int node,
                    Mesh&& mesh, const std::string& chunkName);

// Surface headers (mi08, ms08): per surface a name, then, where the version has more (mi08's
// bounds), `readMore` for the rest. Adds a "surface" node per header under `root`; with
// `readMore` the name is mapped as a field of the header.
struct SurfaceHeaders {
    std::vector<int> nodes;
    std::vector<std::string> names;
};
SurfaceHeaders readSurfaceHeaders(DecodeContext& ctx, ByteReader& r, int root, std::size_t count,
                                  void (*readMore)(DecodeContext&, ByteReader&, int node));

// The surface data blocks (mi08, ms08), one per header in order: `readVertices(mesh, node)`
// fills the vertices (and skin), then the shared texture coordinate and triangle tail follows.
template <typename ReadVertices>
void readSurfaceData(DecodeContext& ctx, ByteReader& r, const SurfaceHeaders& headers,
                     ReadVertices&& readVertices) {
    for (std::size_t i = 0; i < headers.nodes.size(); ++i) {
        ctx.checkCancel(r.offset());
        auto s = ctx.scope("surfaces[" + std::to_string(i) + "]");
        const int node = headers.nodes[i];
        const std::size_t start = r.pos();
        Mesh mesh;
        mesh.name = headers.names[i];
        readVertices(mesh, node);
        readSurfaceTail(ctx, r, mesh, node);
        addSurfaceMesh(ctx, r, start, node, std::move(mesh), "data");
    }
}

// Bytes after the last structure are kept as padding with a warning ("... follow `after`").
void mapTrailingBytes(DecodeContext& ctx, const ByteReader& r, const char* after);

// Decoders, one per signature. Each fills ctx.asset() progressively.
void decodeMesh(DecodeContext& ctx);         // mi08
void decodeSkinnedMesh(DecodeContext& ctx);  // ms08
void decodeAnimation(DecodeContext& ctx);    // as08
void decodeMeshMr02(DecodeContext& ctx);     // mr02 (2005 engine; layout from the real files)
// UNIGINE 2 .mesh ms10 / ms11 / ms14 (layout from the real files, see format.md).
// `version` 10, 11, 14, 15, or kSk10 for the documented sk10 .mesh_skinned.
constexpr int kSk10 = 110;
void decodeMeshV2(DecodeContext& ctx, int version);
// UNIGINE 2 .anim an10 (layout from the real files, see format.md).
void decodeAnimationV2(DecodeContext& ctx);
// UNIGINE 2 .skeleton sn10 and .anim an12 (as documented, see format.md).
void decodeSkeletonV2(DecodeContext& ctx);
void decodeAnimationV2An12(DecodeContext& ctx);

// UNIGINE 2 "int": a compact signed integer (Stream::readInt2 / writeInt2). First byte: bit 7 =
// more bytes follow, bit 6 = negative, bits 0..5 = the low 6 bits of the magnitude; each further
// byte: bit 7 = more, bits 0..6 = the next 7 bits. Read as at most 5 bytes within ±INT32_MAX.
std::int64_t readInt2(ByteReader& r, const char* what);
void writeInt2(std::vector<std::uint8_t>& out, std::int64_t value);

}  // namespace meshscope::unigine
