// Entry points of the Roblox model decoders (binary .rbxm/.rbxl and XML .rbxmx/.rbxlx), called
// from the registry entries in model_format.cpp.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "io/decode_context.h"

namespace meshscope::rbx {

void decodeBinaryModel(DecodeContext& ctx);
void decodeXmlModel(DecodeContext& ctx);
// For the fuzz targets: whether a binary model's chunks are inflated on the worker thread is then
// picked by each input's bytes (the parity of its compressed size), not by its size, so that both
// paths are fuzzed with small inputs. Off by default; a runtime switch rather than a build flag,
// so one sanitizer build serves both the tests and the fuzzers.
void setInflatePathByInput(bool on);
// After a model's tree is whole: its Terrain's SmoothGrid meshed into asset meshes "terrain" and
// "water" (node: the Terrain), the grid's chunks in the byte map where the value's bytes are the
// file's, and its problems as warnings (terrain.cpp).
void addTerrain(DecodeContext& ctx);
// After a model's tree is whole: each CSG union's ChildData / ChildData2 (an embedded model)
// decoded and its instances added under the union (Node::embedded, roots named "… (ChildData)"),
// and its MeshData / MeshData2 / PhysicsData blobs' named ranges in the byte map where the
// value's bytes are the file's own; problems inside become warnings (union_contents.cpp).
// `sharedStringRecords`: per shared string, the file offset of its SSTR record (16-byte hash,
// u32 length, the bytes) where a binary model stores it uncompressed; empty for XML.
void addUnionContents(DecodeContext& ctx,
                      std::span<const std::optional<std::uint64_t>> sharedStringRecords = {});

}  // namespace meshscope::rbx
