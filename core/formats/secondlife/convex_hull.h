// Wireframe of a convex hull: the edge set of the 3D convex hull of a small point cloud, used to
// draw Second Life physics_convex hulls (BoundingVerts and each HullList hull) as line meshes.
// Private to core.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "meshscope/core/types.h"

namespace meshscope {

// Returns pairs of indices into `points` (a, b with a < b, sorted), one pair per hull edge.
// Degenerate clouds get what they span: coplanar points the edges of their 2D hull polygon,
// collinear points one segment between the extremes, a single point nothing. Non-finite points
// are ignored. O(n × faces), meant for hulls of at most a few hundred points.
std::vector<std::uint32_t> convexHullEdges(std::span<const Vec3> points);

}  // namespace meshscope
