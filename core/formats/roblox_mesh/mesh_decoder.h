// Private to the Roblox FileMesh decoder: the version line, the Builder that every on-disk layout
// fills (one Mesh "FileMesh", its skeleton, FACS rig, nodes and byte map) and the readers of the
// pieces the layouts share (vertex and face arrays, LOD offsets, skinning, bones, subsets, FACS).
// The layouts themselves live in mesh_v1_text.cpp, mesh_v2_v5.cpp and mesh_v6_v7.cpp.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include "io/byte_reader.h"
#include "io/decode_context.h"

namespace meshscope::filemesh {

struct VersionLine {
    int major = 0;
    int minor = 0;              // 1.01 → major 1, minor 1
    std::string text;           // "4.01"
    std::size_t lineEnd = 0;    // offset of the line terminator
    std::size_t dataStart = 0;  // first byte after "\n" (or "\r\n")
    bool crlf = false;
};

// "version D.DD" followed by "\n" or "\r\n". Nothing when the bytes are not such a line (a Git
// LFS pointer "version https://..." is not).
std::optional<VersionLine> parseVersionLine(ByteSpan bytes);
bool knownVersion(int major, int minor);
bool isGitLfsPointer(ByteSpan bytes);

// One FileMeshSubset record (72 bytes).
struct Subset {
    std::uint32_t facesBegin = 0, facesLength = 0, vertsBegin = 0, vertsLength = 0;
    std::uint32_t numBoneIndices = 0;
    std::array<std::uint16_t, 26> boneIndices{};
    std::uint64_t offset = 0;
};

// One FileMeshSkinning record: subset-local bone bytes and weights (/255).
struct Envelope {
    std::array<std::uint8_t, 4> bones;
    std::array<std::uint8_t, 4> weights;
};
static_assert(sizeof(Envelope) == 8);

class Builder {
public:
    Builder(DecodeContext& ctx, const VersionLine& version);

    DecodeContext& ctx;
    Asset& asset;
    VersionLine version;
    int root = -1;  // the "file" node
    Mesh& mesh() { return asset.meshes[0]; }

    int addNode(std::string name, std::string kind, int parent, std::uint64_t offset = 0,
                std::uint64_t length = 0);
    void setBytes(int node, std::uint64_t offset, std::uint64_t length);
    void property(int node, std::string name, std::string type, Value value,
                  std::uint64_t offset = 0, std::uint64_t length = 0);

    // Reads one scalar header field: maps it, and shows it as a property of `node`.
    template <typename T>
    T field(ByteReader& r, int node, const char* name) {
        const std::uint64_t at = r.offset();
        const T v = r.read<T>(name);
        ctx.mapRange(at, sizeof(T), RangeKind::Field, name, node);
        property(node, name, typeName<T>(), std::int64_t(v), at, sizeof(T));
        return v;
    }

    // Pieces resolved by finish(), whichever order the layout stored them in.
    std::vector<Envelope> envelopes;
    std::uint64_t envelopesOffset = 0;
    bool haveSkinning = false;
    std::vector<Subset> subsets;
    int lodsNode = -1;  // "LODs" node (made by readLodOffsets, else by finish under the root)
    std::uint64_t lodOffsetsOffset = 0;
    std::uint64_t facesOffset = 0;  // first face record, when the faces are stored plainly
    std::uint32_t faceSize = 0;     // 0 when the faces have no bytes of their own (v1, Draco)
    int skeletonNode = -1;
    std::uint64_t vertexOffset = 0;            // first vertex record (for warnings)
    std::size_t zeroTangents = 0;              // vertices whose tangent bytes are all zero
    std::vector<std::uint32_t> boneNameIndex;  // pending bone names
    std::vector<int> boneNodes;
    std::vector<int> faceBoneNodes;  // readFacs's, by rig row (finish() says which move vertices)
    std::uint64_t faceBonesOffset = 0;
    // Non-finite positions, counted by scanPositions() while the arrays are filled (finish()
    // counts them itself when no reader did).
    bool positionsScanned = false;
    std::size_t nonFinite = 0, firstNonFinite = 0;
    // DecodeOptions::loadGeometry false: the plain vertex and face arrays (v2 to v6) are checked
    // and scanned where they lie, and only counted (Mesh::unloaded); v1 text and Draco load.
    bool leaveArrays = false;

    // Counts the non-finite positions among mesh().positions[begin, end) and adds the finite ones
    // to mesh().bounds; a reader calls it on each block it has just written (still in cache).
    void scanPositions(std::size_t begin, std::size_t end);
    // The same over `count` stored points, `stride` bytes apart from `p`, the first of them
    // vertex `first` (positions scanned in the file's own records).
    void scanPoints(const std::uint8_t* p, std::size_t stride, std::size_t first,
                    std::size_t count);

    // Resolves LODs, surfaces, skin influences, missing tangents; warns about NaN vertices.
    void finish();

private:
    template <typename T>
    static const char* typeName() {
        if constexpr (sizeof(T) == 1)
            return "uint8";
        else if constexpr (sizeof(T) == 2)
            return "uint16";
        else if constexpr (sizeof(T) == 4)
            return "uint32";
        else
            return "uint64";
    }
    void resolveLods();
    void resolveSurfaces();
    void resolveSkin();
    void generateTangents();
    // Each face bone's count of weighted vertices (a property), and an Info when face bones of
    // the mesh's skeleton move no vertex (FACS controls that change nothing).
    void reportUnweightedFaceBones();
};

// Shared readers. Each maps its bytes and adds its node under `parent`.
// A vertex block: `count` records of `vertexSize` bytes (36 or 40, or longer with extra bytes).
void readVertices(ByteReader& r, Builder& b, std::uint64_t count, std::uint32_t vertexSize,
                  int parent);
// A face block: `count` records of `faceSize` bytes (12, or longer); indices are checked against
// the vertex count read before.
void readFaces(ByteReader& r, Builder& b, std::uint64_t count, std::uint32_t faceSize, int parent);
// Fails with the offset of the first index >= the vertex count among the face records of
// `block` (stored at `at`, `faceSize` bytes each); call it when one exists.
[[noreturn]] void failFaceIndex(Builder& b, std::uint64_t at, ByteSpan block,
                                std::uint32_t faceSize);
void readLodOffsets(ByteReader& r, Builder& b, std::uint64_t count, std::uint32_t entrySize,
                    int parent);
// Converts the 4 stored tangent bytes. They are unsigned: t = b / 127 - 1 (0 → -1, 127 → 0,
// 254 → +1); real files fit this far better than signed bytes (FORMAT-NOTES: on a v4.01 sphere
// the length error is 0.002 against 0.17). The fourth byte is the sign: 0 → -1, 254/255 → +1.
// A table of the 256 values keeps the per-vertex work to three loads.
inline constexpr std::array<float, 256> kTangentTable = [] {
    std::array<float, 256> t{};
    for (int i = 0; i < 256; ++i) t[i] = float(i) * (1.0f / 127.0f) - 1.0f;
    return t;
}();
inline Vec4 tangentFromBytes(const std::uint8_t* t) {
    return {kTangentTable[t[0]], kTangentTable[t[1]], kTangentTable[t[2]],
            t[3] < 127 ? -1.0f : 1.0f};
}

// Arrays are filled in blocks of this many elements: each block is grown (value-initialised)
// and overwritten while it is still in cache, so a large array is not zero-filled through
// memory before being written again.
inline constexpr std::size_t kFillBlock = 512;
// Long array loops look at the cancel flag once every this many blocks (32768 elements: a few
// tens of microseconds of work), so a cancelled decode of a huge mesh stops within milliseconds.
inline constexpr std::size_t kCancelBlocks = 64;

// A random-access iterator over records of `stride` bytes that yields read(record): only what
// vector::insert needs of one.
template <typename T, typename Read>
struct RecordIterator {
    using iterator_category = std::random_access_iterator_tag;
    using value_type = T;
    using difference_type = std::ptrdiff_t;
    using pointer = void;
    using reference = T;
    const std::uint8_t* p;
    std::size_t stride;
    const Read* read;
    T operator*() const { return (*read)(p); }
    RecordIterator& operator++() {
        p += stride;
        return *this;
    }
    RecordIterator operator++(int) {
        RecordIterator t = *this;
        p += stride;
        return t;
    }
    RecordIterator& operator--() {
        p -= stride;
        return *this;
    }
    RecordIterator& operator+=(difference_type n) {
        p += n * difference_type(stride);
        return *this;
    }
    difference_type operator-(const RecordIterator& o) const {
        return (p - o.p) / difference_type(stride);
    }
    bool operator==(const RecordIterator& o) const { return p == o.p; }
};

// Appends `count` records of `stride` bytes from `p` to `out`, each converted by `read(record)`.
// The elements are constructed straight from the records (vector::insert over a random-access
// range): no value-initialisation pass before they are written.
template <typename T, typename Read>
void appendRecords(std::vector<T>& out, const std::uint8_t* p, std::size_t count,
                   std::size_t stride, const Read& read) {
    using It = RecordIterator<T, Read>;
    out.insert(out.end(), It{p, stride, &read}, It{p + count * stride, stride, &read});
}

void readEnvelopes(ByteReader& r, Builder& b, std::uint64_t count, int parent);
// Bones (60-byte records), then the NUL-separated name table they index.
void readBones(ByteReader& r, Builder& b, std::uint64_t count, int parent);
void readBoneNames(ByteReader& r, Builder& b, std::uint64_t size, int parent);
void readSubsets(ByteReader& r, Builder& b, std::uint64_t count, int parent);
// The FACS blob (FileMeshFacsData) of `size` bytes: fills a FacsRig in asset.facs.
void readFacs(ByteReader& r, Builder& b, std::uint64_t size, int parent);

// The three on-disk layouts.
void decodeTextV1(Builder& b);      // 1.00, 1.01
void decodeFixedV2V5(Builder& b);   // 2.00 … 5.00
void decodeChunksV6V7(Builder& b);  // 6.00, 7.00

}  // namespace meshscope::filemesh
