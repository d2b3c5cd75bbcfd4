// Which way is up in an asset's own coordinates. Roblox, FileMesh and glTF are Y-up; Second Life
// and Unigine are Z-up (X forward, right handed). Everything that shows or writes an asset the
// right way up — the viewer's camera and grid, thumbnails, the exporters — asks here, so they
// agree. The turn from Z-up to Y-up is -90 degrees about X: (x, y, z) -> (x, z, -y), a rotation,
// so winding and handedness are kept.
#pragma once

#include <string_view>

#include "meshscope/core/types.h"

namespace meshscope {

struct Asset;

enum class UpAxis { Y, Z };

// By the decoder's format name (Asset::format).
UpAxis upAxisOfFormat(std::string_view format);
UpAxis upAxisOf(const Asset& asset);

// The yaw (degrees about the up axis, in Y-up coordinates: 0 looks from +Z, 90 from +X) from
// which a view sees an asset's front three-quarters on, as the viewer's first view and the
// thumbnails do. Fronts, by what real files show: Roblox characters face -Z (yaw 145), Unigine
// characters face -Y (+Z once turned Y-up: yaw 325), Second Life avatars face +X (yaw 55).
float frontViewYawDegrees(const Asset& asset);

// A point or direction of a source whose up axis is `up`, in Y-up coordinates, and back.
constexpr Vec3 toYUp(UpAxis up, const Vec3& p) {
    return up == UpAxis::Z ? Vec3{p.x, p.z, -p.y} : p;
}
constexpr Vec3 fromYUp(UpAxis up, const Vec3& p) {
    return up == UpAxis::Z ? Vec3{p.x, -p.z, p.y} : p;
}

}  // namespace meshscope
