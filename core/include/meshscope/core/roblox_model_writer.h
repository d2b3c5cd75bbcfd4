// Roblox binary model writer (.rbxm/.rbxl, format version 0) and generators of test models.
// The writer turns an instance tree in Asset::nodes (Node.kind = ClassName, typed properties as
// the decoders produce them) back into a binary file, so decode → write → decode gives the same
// tree and values. Used by the tests, the benchmark and the viewer's sample places.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "meshscope/core/asset.h"

namespace meshscope {

enum class RobloxChunkCompression : std::uint8_t { None, Lz4, Zstd };

struct RobloxModelWriteOptions {
    RobloxChunkCompression compression = RobloxChunkCompression::Lz4;
    int zstdLevel = 3;
    // Write CFrame properties as type 0x11 (quaternion rotation) instead of 0x10. Quaternions
    // round to float precision, so rotations come back within ~1e-6, not bit for bit.
    bool quaternionCFrames = false;
};

struct RobloxModelWriteResult {
    Bytes bytes;
    std::vector<std::string> warnings;  // properties that could not be written (dropped)
    std::optional<std::string> error;   // set when nothing could be written
    bool ok() const { return !error.has_value(); }
};

// Every node of `asset` is written as an instance. Property types are Property::type names
// ("string", "int32", "CFrame", "Color3uint8", "Ref", "SharedString" ...); XML-only names
// (BinaryString, ProtectedString) are written as strings. SharedString entries get a zero MD5
// (Roblox Studio ignores the hash when loading).
RobloxModelWriteResult writeRobloxModel(const Asset& asset,
                                        const RobloxModelWriteOptions& options = {});

// A model that holds every binary type id (0x01-0x22; 0x11 through quaternionCFrames) with
// edge values: negative numbers, special and arbitrary CFrame rotations, nil and live Refs,
// absent OptionalCFrames, custom and default PhysicalProperties, repeated SharedStrings, a
// service instance and nested children.
Asset makeRobloxTypesModel();

// A place: Workspace (service) → Model groups of 100 → `partCount` Parts with about twenty
// properties each (CFrame, Size, Color, Material ...), plus Lighting. Deterministic.
Asset makeRobloxPlace(std::size_t partCount);

// A CFrame at `position`, turned `yawDegrees` about +Y (Roblox's up): for building models.
CFrame yawedCFrame(Vec3 position, float yawDegrees);

}  // namespace meshscope
