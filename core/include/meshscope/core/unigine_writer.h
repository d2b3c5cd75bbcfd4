// Unigine writers for the documented versions (mi08 .mesh, ms08 .smesh, as08 .sanim) and the
// UNIGINE 2 ones the real files show (ms10/ms11/ms14 .mesh, an10 .anim), and the ones only the
// documentation describes (ms15 .mesh, sk10 .mesh_skinned, sn10 .skeleton, an12 .anim). Used by
// the tests to make fixtures and by conversion.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "meshscope/core/asset.h"

namespace meshscope {

struct UnigineWriteResult {
    Bytes bytes;
    std::vector<std::string> warnings;  // one per thing the format cannot hold (dropped)
    std::optional<std::string> error;   // set when nothing could be written
    bool ok() const { return !error.has_value(); }
};

// mi08: every triangle mesh of the asset becomes one surface named by the mesh. Normals are
// compressed to unsigned shorts; indices are 16-bit below 65536 vertices, else 32-bit.
UnigineWriteResult writeUnigineMesh(const Asset& asset);

struct UnigineSkinnedMeshWriteOptions {
    int skeleton = 0;  // Asset::skeletons index: the bones, frame 0 from their bind pose
    // Frames after the bind pose: the Asset::animations index, -1 for none; unset = the first
    // animation of `skeleton`, if any.
    std::optional<int> animation;
};

// ms08: bones and parents of one skeleton, frame 0 = bind pose (Bone::world made relative to the
// parent), frames 1.. from an animation, then every triangle mesh as a skinned surface (weights
// quantized to 1/255).
UnigineWriteResult writeUnigineSkinnedMesh(const Asset& asset,
                                           const UnigineSkinnedMeshWriteOptions& options = {});

// as08: the tracks of one animation (parents from the animation's skeleton when it has one),
// bounds from every frame, per frame and bone a change-flag byte and the 16-bit components that
// changed since the previous frame (frame 0 stores all of them).
UnigineWriteResult writeUnigineAnimation(const Asset& asset, int animation = 0);

// UNIGINE 2 "ms10", "ms11", "ms14", "ms15" .mesh or "sk10" .mesh_skinned (format.md): every
// triangle mesh as one surface with one morph target, coordinate and triangle indices both the
// mesh's indices, tangent-basis quaternions from the normals and tangents, and for ms10/ms11/sk10
// the skeleton of the skinned meshes (bind pose local to the parent; sk10 writes it as the rest
// pose too, and a placeholder shared-skeleton GUID and path) and for ms10/ms11 every animation
// of the asset. ms14/ms15/sk10 geometry blocks are LZ4-compressed (stored when that does not
// shrink them), ms14/ms15 with empty spatial trees.
UnigineWriteResult writeUnigine2Mesh(const Asset& asset, const std::string& version);

// UNIGINE 2 an10 .anim of one animation: its skeleton's bones and bind pose (one root bone per
// track when it has none), then the quantized frames.
UnigineWriteResult writeUnigine2Animation(const Asset& asset, int animation = 0);

// UNIGINE 2 an12 .anim of one animation (documented layout): its skeleton's joints, a
// placeholder shared-skeleton GUID and path, float frames (components equal to their default
// left out).
UnigineWriteResult writeUnigine2AnimationAn12(const Asset& asset, int animation = 0);

// UNIGINE 2 sn10 .skeleton (documented layout): joints, bind pose (local to the parent), one
// blend mask and one weight profile of 1.0 per joint, a "pose" retarget entry per joint.
UnigineWriteResult writeUnigine2Skeleton(const Asset& asset, int skeleton = 0);

}  // namespace meshscope
