// What a camera frames when it fits a scene (F, Home, a file just opened, a screenshot).
#pragma once

#include <span>
#include <vector>

#include "meshscope/core/types.h"

namespace meshscope {

// The box to frame for a scene made of `items` (one box per part, per instance, per mesh): the
// union of all of them, except items whose centres lie far out from the rest — further from the
// median centre than three times the distance within which 90 % of the centres lie (and than
// four typical item diagonals). A place
// whose parts sit together but for a few far-away ones (a spawn box 10 000 studs out, a lost
// part) is framed on the parts people look at, instead of showing them all as a dot; a scene
// spread evenly keeps every item in view. Invalid boxes are ignored; no valid box gives an
// invalid result.
Bounds framingBounds(std::span<const Bounds> items);
// The items framingBounds keeps (valid ones, far outliers left out); their union is
// framingBounds(items). A camera fits these boxes' corners (a place's parts rather than the box
// around all of them, whose corners are often empty).
std::vector<Bounds> framingItems(std::span<const Bounds> items);

}  // namespace meshscope
