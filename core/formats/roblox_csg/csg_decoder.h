// Private to the Roblox CSG decoder: the obfuscation key, a small builder that every blob kind
// fills (a root node, one mesh per hull or graphics mesh, mapped fields) and the readers of the
// three blob families (graphics CSGMDL, physics CSGPHS, reference CSGK).
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "io/byte_reader.h"
#include "io/decode_context.h"

namespace meshscope::csg {

// CSGMDL blobs are XOR-ed with this 31-byte key repeated from file offset 0 (versions 2 and 4:
// the whole blob; version 5: only the 10-byte "CSGMDL" + version header).
inline constexpr std::array<std::uint8_t, 31> kObfuscationKey = {
    86, 46, 110, 88,  49, 32, 48, 4, 52, 105, 12, 119, 12, 1, 94, 0,
    26, 96, 55,  105, 29, 82, 43, 7, 79, 36,  89, 101, 83, 4, 122};

inline std::uint8_t keyAt(std::uint64_t offset) {
    return kObfuscationKey[offset % kObfuscationKey.size()];
}

// "CSGMDL" + u32 version, each byte XOR-ed with the key: the first 6 bytes of every graphics blob
// on disk are 15 7d 29 15 75 6c.
inline constexpr std::array<std::uint8_t, 6> kObfuscatedMagic = {0x15, 0x7d, 0x29,
                                                                 0x15, 0x75, 0x6c};

inline constexpr std::size_t kHeaderSize = 10;  // magic (6) + u32 version

struct Builder {
    Builder(DecodeContext& c, std::string version);
    DecodeContext& ctx;
    Asset& asset;
    int root = -1;

    int addNode(std::string name, std::string kind, int parent, std::uint64_t offset = 0,
                std::uint64_t length = 0);
    void property(int node, std::string name, std::string type, Value value,
                  std::uint64_t offset = 0, std::uint64_t length = 0);
    // A new mesh shown by a new node under `parent`; returns the mesh index.
    int addMesh(std::string name, int parent, std::uint64_t offset, std::uint64_t length);

    template <typename T>
    T field(ByteReader& r, int node, const char* name) {
        const std::uint64_t at = r.offset();
        const T v = r.read<T>(name);
        if (r.mapped()) ctx.mapRange(at, sizeof(T), RangeKind::Field, name, node);
        if constexpr (std::is_floating_point_v<T>)
            property(node, name, "float", double(v), at, sizeof(T));
        else
            property(node, name,
                     sizeof(T) == 1   ? "uint8"
                     : sizeof(T) == 2 ? "uint16"
                                      : "uint32",
                     std::int64_t(v), at, sizeof(T));
        return v;
    }
    // Warns about bytes left after the last structure, and maps them as padding.
    void trailing(ByteReader& r, int node);
};

// Bounds, the single LOD and surface, and a warning about non-finite positions.
void finishMesh(Builder& b, Mesh& m, std::uint64_t firstVertexAt);
// A u32 index count, then the u32 indices, each checked against `vertexCount` (fails at the
// first one past it); a partial last triangle is dropped with a warning.
void readIndexList(Builder& b, ByteReader& r, Mesh& m, std::size_t vertexCount, int node,
                   const char* what);

void decodeGraphicsV2V4(Builder& b, std::uint32_t version);
void decodeGraphicsV5(Builder& b);
void decodePhysics(Builder& b, std::uint32_t version);

}  // namespace meshscope::csg
