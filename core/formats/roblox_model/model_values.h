// Roblox model value types shared by the binary decoder, the XML decoder and the binary writer:
// type ids and names, the integer and float transformations of the binary format, byte
// (de)interleaving, the 24 special CFrame rotation ids, and the text forms used for values that
// have no numeric tuple (Font, UniqueId).
//
// Value conventions (both decoders produce exactly these, so a binary file and its XML twin give
// equal trees):
//   string, BinaryString, ProtectedString, legacy Content url  -> std::string (bytes as stored)
//   Content (0x22)  -> std::string uri ("" for None) or NodeRef (Object)
//   bool -> bool; int32, int64, Enum, BrickColor, Faces, Axes, SecurityCapabilities -> int64
//   float, double -> double; Vector2/Vector2int16 -> Vec2; Vector3/Vector3int16 -> Vec3
//   Color3 -> Vec3 (0..1); Color3uint8 -> Vec3 (component / 255)
//   UDim {scale, offset}; UDim2 {xScale, xOffset, yScale, yOffset}; Ray {origin, direction};
//   NumberRange {min, max}; Rect {minX, minY, maxX, maxY}; NumberSequence {t, v, envelope}*;
//   ColorSequence {t, r, g, b, envelope}*; PhysicalProperties {} (default) or {density,
//   friction, elasticity, frictionWeight, elasticityWeight, acousticAbsorption}  -> vector<double>
//   CFrame -> CFrame; OptionalCFrame -> CFrame or monostate; Ref -> NodeRef
//   SharedString -> SharedStringRef (its content stored once in Asset::sharedStrings; the
//   writer also takes a std::string); Bytecode -> Bytes (never interpreted)
//   UniqueId -> 32 hex digits as XML writes them: random (16), time (8), index (8)
//   Font -> "Family=<uri>; Weight=<n>; Style=<Normal|Italic>; CachedFaceId=<uri>"
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>

#include "meshscope/core/asset.h"
#include "meshscope/core/roblox_values.h"

namespace meshscope::rbx {

enum TypeId : std::uint8_t {
    kString = 0x01,
    kBool = 0x02,
    kInt32 = 0x03,
    kFloat32 = 0x04,
    kFloat64 = 0x05,
    kUDim = 0x06,
    kUDim2 = 0x07,
    kRay = 0x08,
    kFaces = 0x09,
    kAxes = 0x0A,
    kBrickColor = 0x0B,
    kColor3 = 0x0C,
    kVector2 = 0x0D,
    kVector3 = 0x0E,
    kVector2int16 = 0x0F,
    kCFrame = 0x10,
    kCFrameQuat = 0x11,
    kEnum = 0x12,
    kRef = 0x13,
    kVector3int16 = 0x14,
    kNumberSequence = 0x15,
    kColorSequence = 0x16,
    kNumberRange = 0x17,
    kRect = 0x18,
    kPhysicalProperties = 0x19,
    kColor3uint8 = 0x1A,
    kInt64 = 0x1B,
    kSharedString = 0x1C,
    kBytecode = 0x1D,
    kOptionalCFrame = 0x1E,
    kUniqueId = 0x1F,
    kFont = 0x20,
    kSecurityCapabilities = 0x21,
    kContent = 0x22,
};
inline constexpr std::uint8_t kLastTypeId = kContent;

// Property::type for a binary type id; nullptr for an unknown id.
const char* typeName(std::uint8_t id);
// Binary type id for a Property::type (the writer's direction); 0 when it has none.
std::uint8_t typeIdForName(std::string_view name);

// Zigzag integers and Roblox floats: meshscope/core/roblox_values.h.

// Interleaved arrays: `count` records of `width` bytes stored byte column by byte column.
// deinterleave: src column-major -> dst row-major (records); interleave the reverse.
void deinterleave(const std::uint8_t* src, std::size_t count, std::size_t width, std::uint8_t* dst);
void interleave(const std::uint8_t* src, std::size_t count, std::size_t width, std::uint8_t* dst);

inline std::uint32_t loadBe32(const std::uint8_t* p) {
    std::uint32_t v;
    std::memcpy(&v, p, 4);
    return std::byteswap(v);
}
inline std::uint64_t loadBe64(const std::uint8_t* p) {
    std::uint64_t v;
    std::memcpy(&v, p, 8);
    return std::byteswap(v);
}
inline void storeBe32(std::uint8_t* p, std::uint32_t v) {
    v = std::byteswap(v);
    std::memcpy(p, &v, 4);
}
inline void storeBe64(std::uint8_t* p, std::uint64_t v) {
    v = std::byteswap(v);
    std::memcpy(p, &v, 8);
}

// The 24 axis-aligned rotations that the binary format stores as one id byte. The id encodes
// the right vector (column 0) and up vector (column 1) as NormalIds (0..5 = +X +Y +Z -X -Y -Z):
// id = 6 * right + up + 1; the back vector is right × up. This reproduces every row of the
// document's Euler table (e.g. 0x03 = Rx(90), 0x07 = Ry(180)·Rz(90)).
std::optional<std::array<float, 9>> specialRotation(std::uint8_t id);
// The id for an exactly axis-aligned rotation matrix, or 0.
std::uint8_t specialRotationId(const std::array<float, 9>& m);

// Quaternion CFrame (type 0x11, RobloxAPI/rbxfile): x y z w -> row-major matrix, and back.
std::array<float, 9> quaternionToMatrix(float x, float y, float z, float w);
std::array<float, 4> matrixToQuaternion(const std::array<float, 9>& m);

std::string formatUniqueId(std::uint32_t index, std::uint32_t time, std::int64_t random);
// Parses 32 hex digits; false when malformed.
bool parseUniqueId(std::string_view text, std::uint32_t& index, std::uint32_t& time,
                   std::int64_t& random);

std::string formatFont(std::string_view family, unsigned weight, std::string_view style,
                       std::string_view cachedFaceId);
std::string fontStyleName(unsigned style);  // 0 Normal, 1 Italic, else the number
unsigned fontStyleValue(std::string_view name);
struct FontParts {
    std::string family, style, cachedFaceId;
    unsigned weight = 400;
};
FontParts parseFont(std::string_view text);

// True for classes Roblox marks as services at the top of a place.
bool isServiceClass(std::string_view className);

}  // namespace meshscope::rbx
