// Decoding entry points: content sniffing, the decoder registry and the result type.
// Decoders are picked by content (magic bytes → score); the file extension is only a hint that
// breaks ties. No exception crosses these functions.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "meshscope/core/asset.h"
#include "meshscope/core/limits.h"

namespace meshscope {

using ByteSpan = std::span<const std::uint8_t>;

struct DecodeOptions {
    Limits limits;
    std::string fileName;  // hint only (extension breaks ties; used in messages)
    const std::atomic<bool>* cancel = nullptr;  // set to true to stop decoding
    std::function<void(double)> progress;       // 0..1, called from the decoding thread
    // Roblox places: mesh Terrain.SmoothGrid into "terrain" and "water" meshes (a second
    // progress phase from 0 to 1).
    bool robloxTerrain = true;
    // false: the result's byte map is left empty, for a caller that never reads it (the CLI's
    // `info`). Decoding is otherwise the same (same tree, meshes and diagnostics); on a binary
    // place of thousands of chunks the map is about a third of the decode.
    bool byteMap = true;
    // false: a decoder that can count and check a mesh's stored arrays without loading them
    // leaves them in the file (Mesh::unloaded holds the counts; bounds, LODs, skin and every
    // diagnostic are as in a full decode). For a caller that prints no geometry (the CLI's
    // `info` and `tree`): the FileMesh decoder then reads a 1M-triangle mesh in one pass over
    // its bytes instead of writing 36 MB of streams. Other decoders load as usual.
    bool loadGeometry = true;
};

// The asset holds whatever was decoded, also when `error` is set (a partial result: the byte map
// up to the failure, the nodes and meshes completed before it).
struct DecodeResult {
    Asset asset;
    std::optional<DecodeError> error;
    // Set when the file was gzip-wrapped: the inflated bytes that offsets and the byte map
    // refer to (show these in a hex view, not the file's bytes).
    std::optional<Bytes> innerBytes;
    // What a cancelled decode had built (its partial asset, a parsed XML document ...), handed
    // back instead of freed, so that "cancelled" comes without waiting for hundreds of MB to
    // be released; dropping the result frees it. A caller that answers a user's Cancel drops it
    // where waiting does not matter (the viewer: on a pool thread). Empty unless cancelled.
    std::shared_ptr<void> discarded;
    bool ok() const { return !error.has_value(); }
};

class DecodeContext;

struct FormatDecoder {
    const char* id;                       // "roblox-mesh"
    const char* name;                     // "Roblox FileMesh"
    std::vector<std::string> extensions;  // lower case, with dot: ".mesh"
    // 0 = not this format; 100 = certain. Must be cheap and safe on any bytes.
    int (*probe)(ByteSpan bytes);
    // Fills ctx.asset(); throws nothing out (failures go through the context / byte reader).
    void (*decode)(DecodeContext& ctx);
};

const std::vector<FormatDecoder>& decoders();

struct SniffResult {
    const FormatDecoder* decoder = nullptr;  // null when nothing matched
    int score = 0;
    std::string reason;  // when nothing matched: what the bytes look like ("Git LFS pointer" ...)
};

SniffResult sniff(ByteSpan bytes, const std::string& fileName = {});

// Decode bytes already in memory. gzip-wrapped input (1f 8b) is inflated first (within the
// decompression budget) and decoded as its contents.
DecodeResult decodeBytes(ByteSpan bytes, const DecodeOptions& options = {});

// Decode with one named decoder (FormatDecoder::id), skipping the sniffing: for fuzzing and for
// forcing a format. An unknown id is an error.
DecodeResult decodeAs(const std::string& formatId, ByteSpan bytes,
                      const DecodeOptions& options = {});

// What the registry does to every decoder's result, for an asset made or changed elsewhere:
// mesh streams and indices cut to agree, every node, mesh, bone, list and name handle out of range
// dropped, node cycles and chains deeper than limits.maxDepth cut (with warnings), child lists
// agreeing with the parents, the byte map sorted (over asset.fileSize bytes).
void sanitizeAsset(Asset& asset, const Limits& limits = {});

// Read a file (read-only) and decode it.
DecodeResult decodeFile(const std::string& path, const DecodeOptions& options = {});

// Library version string, "0.1.0".
const char* version();

}  // namespace meshscope
