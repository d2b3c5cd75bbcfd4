// meshscope-cli pose: poses the first skinned mesh of a file with FACS control weights and bone
// rotations, then prints the posed bones, the FACS weights and the posed bounds.
#pragma once

#include <iosfwd>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "meshscope/core/asset.h"

namespace meshscope::cli {

struct PoseRequest {
    // Control (abbreviation or FaceControls name) → weight in [0, 1].
    std::vector<std::pair<std::string, float>> controls;
    // Bone name → Euler angles in degrees (Roblox XYZ order).
    std::vector<std::pair<std::string, Vec3>> bones;
    // An animation of the posed mesh's skeleton (Unigine .sanim / .anim / .smesh frames) sampled
    // at `time` seconds before the bones are applied (--bone turns on top of it); null: bind.
    const Animation* animation = nullptr;
    float time = 0;
};

// "JawDrop=1,LeftEyeClosed=0.5" → request.controls. Returns a message when the text is
// malformed, a weight is not a number in [0, 1], or a name is no FACS control.
std::optional<std::string> parseControls(std::string_view text, PoseRequest& request);
// "Head=0,45,0" → request.bones. Returns a message when malformed.
std::optional<std::string> parseBone(std::string_view text, PoseRequest& request);

// The pose report for `asset`: {"mesh", "bones": [{"name", "parent", "position", "rotation"
// (3x3 row-major), "world" (4x4 column-major)}], "facs": null | {"weights", "correctives",
// "unmatched", "absent"}, "bounds": {"min", "max"} | null, "skeleton": {"cycles",
// "invalidParents"}}; with request.animation also "animation": {"name", "kind": "frames", "loop",
// "length", "time", "sampledTime", "frame", "frames", "framesPerSecond", "tracks", "applied",
// "unmatched"} and "warnings". On a request that names a bone the skeleton lacks, returns nullopt
// and sets `error`.
std::optional<nlohmann::ordered_json> poseJson(const Asset& asset, const PoseRequest& request,
                                               std::string& error);

// The pose report for a Roblox rig (Motor6D joints or RigAttachment pairs) with the first
// KeyframeSequence of `animation` (the rig's own asset when null; none: the bind pose) sampled at
// `time` seconds: {"mesh": null, "bones": [{"name", "parent", "position", "rotation", "world",
// "joint"}], "facs": null, "bounds" (of the posed part boxes), "skeleton", "rig": {"source":
// "motor6d" | "attachments", "joints", "warnings"}, "animation": null | {"name", "loop",
// "priority", "length", "time" (requested), "sampledTime" (after looping / clamping),
// "keyframes", "tracks", "unmatched", "unanimated", "rootTracks"}, "warnings"}. Nullopt with
// `error` set when `rig` has no rig.
std::optional<nlohmann::ordered_json> rigPoseJson(const Asset& rig, const Asset* animation,
                                                  float time, std::string& error);

// `pose [--json] [--pose C=W,...] [--bone NAME=rx,ry,rz]... FILE`, or
// `pose [--json] [--animation ANIM] [--time SECONDS] FILE` for a Roblox rig; `args` follow the word
// "pose". Exit status as cli::run: 0, 1 (file unreadable or nothing to pose), 2 (usage).
int runPose(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace meshscope::cli
