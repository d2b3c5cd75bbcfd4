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
};
BoneTable readBones(DecodeContext& ctx, ByteReader& r, int skeletonNode);

// Adds the common "file" root node and returns its index.
int addFileNode(DecodeContext& ctx);

// Decoders, one per signature. Each fills ctx.asset() progressively.
void decodeMesh(DecodeContext& ctx);         // mi08
void decodeSkinnedMesh(DecodeContext& ctx);  // ms08
void decodeAnimation(DecodeContext& ctx);    // as08
void decodeMeshMr02(DecodeContext& ctx);     // mr02 (2005 engine; layout from the real files)

}  // namespace meshscope::unigine
