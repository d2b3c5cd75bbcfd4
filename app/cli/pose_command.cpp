// meshscope-cli pose (see pose_command.h): parsing of --pose / --bone, the pose report, and the
// command itself. All posing maths is core's (meshscope/core/pose.h).
#include "pose_command.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <ostream>

#include "json_report.h"
#include "meshscope/core/decode.h"
#include "meshscope/core/pose.h"
#include "meshscope/core/roblox_animation.h"
#include "meshscope/core/roblox_parts.h"

namespace meshscope::cli {

using Json = nlohmann::ordered_json;

namespace {

Json number(float v) {
    if (!std::isfinite(v)) return nullptr;
    // Seven significant digits: what a float holds, without 0.30000001192092896 noise.
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.7g", double(v));
    return std::strtod(buf, nullptr);
}

Json vec3(const Vec3& v) {
    return Json::array({number(v.x), number(v.y), number(v.z)});
}

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return s;
}

std::optional<float> parseFloat(std::string_view s) {
    s = trim(s);
    if (!s.empty() && s.front() == '+') s.remove_prefix(1);
    float v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (s.empty() || ec != std::errc() || end != s.data() + s.size() || !std::isfinite(v))
        return std::nullopt;
    return v;
}

// The mesh to pose: the first with a skeleton or face rig, else the first.
int pickMesh(const Asset& a) {
    for (std::size_t i = 0; i < a.meshes.size(); ++i)
        if (a.meshes[i].skinned() || a.meshes[i].facs >= 0 || a.meshes[i].skeleton >= 0)
            return int(i);
    return a.meshes.empty() ? -1 : 0;
}

constexpr const char* kPoseUsage =
    "Usage: meshscope-cli pose [--json] [--pose CONTROL=WEIGHT,...] [--bone NAME=rx,ry,rz]... "
    "FILE\n"
    "       meshscope-cli pose [--json] [--animation ANIM] [--time SECONDS] RIG\n"
    "  RIG is a Roblox model whose parts are joined by Motor6D (or RigAttachment pairs); ANIM a\n"
    "  model holding a KeyframeSequence or CurveAnimation (default: RIG's own). Joints match\n"
    "  Pose (or curve folder) names by part name; unmatched tracks are listed as warnings.\n"
    "  CONTROL is a FACS abbreviation (c_JD) or FaceControls name (JawDrop); WEIGHT in [0, 1].\n"
    "  Bone angles are degrees, Roblox XYZ order (CFrame.Angles). --bone may repeat.\n"
    "  A skinned mesh (Unigine .smesh, .mesh ms10/ms11) is posed by ANIM (Unigine .sanim /\n"
    "  .anim / .smesh frames, bones matched by name) at --time, or with --time alone by its own\n"
    "  frames; --pose and --bone apply on top.\n";

}  // namespace

std::optional<std::string> parseControls(std::string_view text, PoseRequest& request) {
    while (!text.empty()) {
        const auto comma = text.find(',');
        const std::string_view item = trim(text.substr(0, comma));
        text = comma == std::string_view::npos ? std::string_view{} : text.substr(comma + 1);
        if (item.empty()) continue;
        const auto eq = item.find('=');
        if (eq == std::string_view::npos)
            return "--pose: \"" + std::string(item) + "\" is not CONTROL=WEIGHT";
        const std::string name(trim(item.substr(0, eq)));
        if (!findFacsControl(name))
            return "--pose: unknown FACS control \"" + name +
                   "\" (use an abbreviation such as c_JD or a name such as JawDrop)";
        const auto w = parseFloat(item.substr(eq + 1));
        if (!w || *w < 0 || *w > 1)
            return "--pose: weight of " + name + " must be a number between 0 and 1";
        request.controls.emplace_back(name, *w);
    }
    return std::nullopt;
}

std::optional<std::string> parseBone(std::string_view text, PoseRequest& request) {
    const auto eq = text.rfind('=');
    if (eq == std::string_view::npos || trim(text.substr(0, eq)).empty())
        return "--bone: \"" + std::string(text) + "\" is not NAME=rx,ry,rz";
    float v[3];
    std::string_view rest = text.substr(eq + 1);
    for (int i = 0; i < 3; ++i) {
        const auto comma = rest.find(',');
        if ((i < 2) == (comma == std::string_view::npos))
            return "--bone: \"" + std::string(text) + "\" needs three angles rx,ry,rz";
        const auto f = parseFloat(rest.substr(0, comma));
        if (!f) return "--bone: \"" + std::string(text) + "\" has an angle that is not a number";
        v[i] = *f;
        rest = i < 2 ? rest.substr(comma + 1) : std::string_view{};
    }
    request.bones.emplace_back(std::string(trim(text.substr(0, eq))), Vec3{v[0], v[1], v[2]});
    return std::nullopt;
}

std::optional<Json> poseJson(const Asset& asset, const PoseRequest& request, std::string& error) {
    const int meshIndex = pickMesh(asset);
    static const Skeleton kNoSkeleton;
    const Mesh* mesh = meshIndex >= 0 ? &asset.meshes[std::size_t(meshIndex)] : nullptr;
    const Skeleton& skeleton =
        mesh && mesh->skeleton >= 0 && std::size_t(mesh->skeleton) < asset.skeletons.size()
            ? asset.skeletons[std::size_t(mesh->skeleton)]
            : kNoSkeleton;
    const FacsRig* rig = mesh && mesh->facs >= 0 && std::size_t(mesh->facs) < asset.facs.size()
                             ? &asset.facs[std::size_t(mesh->facs)]
                             : nullptr;

    Pose pose = Pose::bind(skeleton);
    // An animation first: its frame at the requested time (looped or clamped like the timeline).
    Json animationJson;
    Json warnings = Json::array();
    double animationFrame = -1;
    if (const Animation* anim = request.animation) {
        const float fps = anim->framesPerSecond > 0 && std::isfinite(anim->framesPerSecond)
                              ? anim->framesPerSecond
                              : 30.0f;
        const float length = anim->frameCount > 1 ? float(anim->frameCount - 1) / fps : 0.0f;
        float t = std::isfinite(request.time) ? request.time : 0.0f;
        if (!(length > 0))
            t = 0;
        else if (anim->loop) {
            t = std::fmod(t, length);
            if (t < 0) t += length;
        } else
            t = std::clamp(t, 0.0f, length);
        const double frame = double(t) * fps;
        animationFrame = frame;
        const int applied = sampleAnimation(*anim, skeleton, frame, pose);
        std::vector<std::string> unmatched;
        for (const BoneTrack& tr : anim->tracks)
            if (skeleton.find(tr.bone) < 0 &&
                (!tr.positions.empty() || !tr.rotations.empty() || !tr.scales.empty()))
                unmatched.push_back(tr.bone);
        if (!unmatched.empty())
            warnings.push_back("animation: " + std::to_string(unmatched.size()) +
                               " track(s) name no bone of the skeleton");
        animationJson = {{"name", anim->name},
                         {"kind", "frames"},
                         {"loop", anim->loop},
                         {"length", number(length)},
                         {"time", number(request.time)},
                         {"sampledTime", number(t)},
                         {"frame", number(float(frame))},
                         {"frames", anim->frameCount},
                         {"framesPerSecond", number(fps)},
                         {"tracks", anim->tracks.size()},
                         {"applied", applied},
                         {"unmatched", unmatched}};
    }
    for (const auto& [name, euler] : request.bones) {
        const int b = skeleton.find(name);
        if (b < 0) {
            error = "--bone: the skeleton has no bone named \"" + name + "\"";
            return std::nullopt;
        }
        // On top of the animated pose (the bind pose without one).
        Pose turn;
        poseBone(turn, b, euler);
        if (std::size_t(b) >= pose.local.size()) pose.local.resize(std::size_t(b) + 1);
        pose.local[std::size_t(b)] = pose.local[std::size_t(b)] * turn.local[std::size_t(b)];
    }
    std::vector<float> weights(rig ? rig->controlNames.size() : 0, 0.0f);
    std::vector<std::string> absent;
    // An animation's FACS channels (a CurveAnimation's FaceControls) at its frame, lerped.
    if (const Animation* anim = request.animation; anim && rig && animationFrame >= 0) {
        for (const FacsChannel& ch : anim->facsChannels) {
            const int c = findRigControl(*rig, ch.control);
            if (c < 0) {
                absent.push_back(ch.control);
                continue;
            }
            if (ch.weights.empty()) continue;
            const double f = std::min(animationFrame, double(ch.weights.size() - 1));
            const auto a = std::size_t(f);
            const std::size_t b = std::min(a + 1, ch.weights.size() - 1);
            const float t = float(f - double(a));
            weights[std::size_t(c)] = ch.weights[a] + (ch.weights[b] - ch.weights[a]) * t;
        }
    }
    for (const auto& [name, w] : request.controls) {
        const int c = rig ? findRigControl(*rig, name) : -1;
        if (c >= 0)
            weights[std::size_t(c)] = w;
        else
            absent.emplace_back(findFacsControl(name)->name);
    }

    PoseEvaluator eval(skeleton, rig);
    eval.update(pose, weights);

    Json j;
    j["mesh"] = meshIndex >= 0 ? Json(meshIndex) : Json(nullptr);
    Json bones = Json::array();
    for (std::size_t i = 0; i < skeleton.bones.size(); ++i) {
        const Mat4& w = eval.world()[i];
        Json rot = Json::array();
        for (int r = 0; r < 3; ++r)
            for (int c = 0; c < 3; ++c) rot.push_back(number(w.at(r, c)));
        Json world = Json::array();
        for (float v : w.m) world.push_back(number(v));
        bones.push_back({{"name", skeleton.bones[i].name},
                         {"parent", eval.order().parent[i]},
                         {"position", vec3({w.at(0, 3), w.at(1, 3), w.at(2, 3)})},
                         {"rotation", std::move(rot)},
                         {"world", std::move(world)}});
    }
    j["bones"] = std::move(bones);

    if (rig) {
        Json ws = Json::object();
        for (std::size_t c = 0; c < rig->controlNames.size(); ++c)
            ws[std::string(facsDisplayName(rig->controlNames[c]))] = number(weights[c]);
        Json correctives = Json::object();
        const auto cw = correctiveWeights(*rig, weights);
        const auto names = rig->columnNames();
        for (std::size_t c = 0; c < cw.size(); ++c)
            correctives[names[rig->controlNames.size() + c]] = number(cw[c]);
        j["facs"] = {{"weights", std::move(ws)},
                     {"correctives", std::move(correctives)},
                     {"unmatched", eval.facsBinding().unmatched},
                     {"absent", absent}};
    } else {
        j["facs"] = nullptr;
    }

    Bounds bounds;
    if (mesh) {
        std::vector<Vec3> posed;
        eval.skin(*mesh, posed);
        bounds = boundsOf(posed);
    }
    j["bounds"] =
        bounds.valid() ? Json{{"min", vec3(bounds.min)}, {"max", vec3(bounds.max)}} : Json(nullptr);
    j["skeleton"] = {{"cycles", eval.order().cycleBones},
                     {"invalidParents", eval.order().invalidParents}};
    if (request.animation) {
        j["animation"] = std::move(animationJson);
        j["warnings"] = std::move(warnings);
    }
    return j;
}

std::optional<Json> rigPoseJson(const Asset& asset, const Asset* animation, float time,
                                std::string& error) {
    const RobloxRig rig = extractRobloxRig(asset);
    if (rig.empty()) {
        error = "no Roblox rig (parts joined by Motor6D or RigAttachment pairs)";
        return std::nullopt;
    }
    const Asset& source = animation ? *animation : asset;
    const auto sequences = extractKeyframeSequences(source);
    const KeyframeSequence* seq = sequences.empty() ? nullptr : &sequences.front();
    // A CurveAnimation is used when the file holds no KeyframeSequence.
    const auto curveAnimations =
        seq ? std::vector<CurveAnimation>{} : extractCurveAnimations(source);
    const CurveAnimation* curves = curveAnimations.empty() ? nullptr : &curveAnimations.front();
    RigSample sample;
    if (seq)
        sampleOnRig(*seq, rig, time, sample);
    else if (curves)
        sampleCurvesOnRig(*curves, rig, time, sample);
    Bounds bounds;
    const auto world =
        posedRigWorld(rig, seq || curves ? sample.jointTransforms : std::vector<Mat4>{}, &bounds);
    const BoneOrder order = boneOrder(rig.skeleton);

    Json j;
    j["mesh"] = nullptr;
    Json bones = Json::array();
    for (std::size_t i = 0; i < rig.skeleton.bones.size(); ++i) {
        const Mat4& w = world[i];
        Json rot = Json::array();
        for (int r = 0; r < 3; ++r)
            for (int c = 0; c < 3; ++c) rot.push_back(number(w.at(r, c)));
        Json m = Json::array();
        for (float v : w.m) m.push_back(number(v));
        const int joint = rig.jointOfBone[i];
        bones.push_back(
            {{"name", rig.skeleton.bones[i].name},
             {"parent", rig.skeleton.bones[i].parent},
             {"position", vec3({w.at(0, 3), w.at(1, 3), w.at(2, 3)})},
             {"rotation", std::move(rot)},
             {"world", std::move(m)},
             {"joint", joint >= 0 ? Json(rig.joints[std::size_t(joint)].name) : Json(nullptr)}});
    }
    j["bones"] = std::move(bones);
    // FACS: a CurveAnimation's FaceControls curves, or a KeyframeSequence's FaceControls
    // NumberPoses, at the sampled time (the rig has no face rig of its own, so every control is
    // reported by its name).
    const bool faceControls =
        (curves && !curves->faceControls.empty()) || (seq && !seq->faceControls.empty());
    if (faceControls) {
        Json ws = Json::object();
        std::vector<std::string> unknown;
        for (const auto& [name, w] : seq ? sampleFaceControls(*seq, sample.time)
                                         : sampleFaceControls(*curves, sample.time)) {
            const FacsControlInfo* c = findFacsControl(name);
            if (!c) unknown.push_back(name);
            ws[c ? std::string(c->name) : name] = number(w);
        }
        j["facs"] = {{"weights", std::move(ws)},   {"correctives", Json::object()},
                     {"unmatched", Json::array()}, {"absent", Json::array()},
                     {"source", "FaceControls"},   {"unknown", unknown}};
    } else {
        j["facs"] = nullptr;
    }
    j["bounds"] =
        bounds.valid() ? Json{{"min", vec3(bounds.min)}, {"max", vec3(bounds.max)}} : Json(nullptr);
    j["skeleton"] = {{"cycles", order.cycleBones}, {"invalidParents", order.invalidParents}};
    j["rig"] = {{"source", rig.fromAttachments ? "attachments" : "motor6d"},
                {"joints", rig.joints.size()},
                {"warnings", rig.warnings}};
    Json warnings = Json::array();
    for (const auto& w : rig.warnings) warnings.push_back("rig: " + w);
    if (seq) {
        j["animation"] = {{"name", seq->name},
                          {"kind", "KeyframeSequence"},
                          {"loop", seq->loop},
                          {"priority", seq->priority},
                          {"length", number(seq->length)},
                          {"time", number(time)},
                          {"sampledTime", number(sample.time)},
                          {"keyframes", seq->keyframeTimes.size()},
                          {"tracks", seq->tracks.size()},
                          {"faceControls", seq->faceControls.size()},
                          {"unmatched", sample.unmatchedTracks},
                          {"unanimated", sample.unanimatedJoints},
                          {"rootTracks", sample.rootTracks}};
        for (const auto& w : seq->warnings) warnings.push_back("animation: " + w);
        for (const auto& name : sample.unmatchedTracks)
            warnings.push_back("animation track \"" + name + "\" matches no rig part");
        if (sequences.size() > 1)
            warnings.push_back("animation: " + std::to_string(sequences.size()) +
                               " KeyframeSequences; the first (\"" + seq->name + "\") is used");
    } else if (curves) {
        j["animation"] = {{"name", curves->name},
                          {"kind", "CurveAnimation"},
                          {"loop", curves->loop},
                          {"priority", curves->priority},
                          {"length", number(curves->length)},
                          {"time", number(time)},
                          {"sampledTime", number(sample.time)},
                          {"keyframes", curves->keyTimes.size()},
                          {"tracks", curves->joints.size()},
                          {"faceControls", curves->faceControls.size()},
                          {"markers", curves->markers.size()},
                          {"unmatched", sample.unmatchedTracks},
                          {"unanimated", sample.unanimatedJoints},
                          {"rootTracks", sample.rootTracks}};
        for (const auto& w : curves->warnings) warnings.push_back("animation: " + w);
        for (const auto& name : sample.unmatchedTracks)
            warnings.push_back("animation curves \"" + name + "\" match no rig part");
        if (curveAnimations.size() > 1)
            warnings.push_back("animation: " + std::to_string(curveAnimations.size()) +
                               " CurveAnimations; the first (\"" + curves->name + "\") is used");
    } else {
        j["animation"] = nullptr;
        if (animation)
            warnings.push_back("animation: the file holds no KeyframeSequence or CurveAnimation");
    }
    j["warnings"] = std::move(warnings);
    return j;
}

int runPose(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    bool json = false;
    PoseRequest request;
    std::optional<std::string> animationFile;
    float time = 0;
    bool timeGiven = false;
    std::vector<std::string> files;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        auto value = [&](std::string_view flag) -> std::optional<std::string> {
            if (a.size() > flag.size() && a.starts_with(flag) && a[flag.size()] == '=')
                return a.substr(flag.size() + 1);
            if (a == flag && i + 1 < args.size()) return args[++i];
            return std::nullopt;
        };
        std::optional<std::string> problem;
        if (a == "--json") {
            json = true;
        } else if (a == "-h" || a == "--help") {
            out << kPoseUsage;
            return 0;
        } else if (a.starts_with("--pose")) {
            const auto v = value("--pose");
            problem = v ? parseControls(*v, request) : "--pose needs CONTROL=WEIGHT,...";
        } else if (a.starts_with("--bone")) {
            const auto v = value("--bone");
            problem = v ? parseBone(*v, request) : "--bone needs NAME=rx,ry,rz";
        } else if (a.starts_with("--animation")) {
            animationFile = value("--animation");
            if (!animationFile) problem = "--animation needs a file";
        } else if (a.starts_with("--time")) {
            const auto v = value("--time");
            const auto t = v ? parseFloat(*v) : std::nullopt;
            if (!t)
                problem = "--time needs a number of seconds";
            else
                time = *t, timeGiven = true;
        } else if (a.size() > 1 && a[0] == '-') {
            problem = "unknown option " + a;
        } else {
            files.push_back(a);
        }
        if (problem) {
            err << "meshscope-cli pose: " << *problem << "\n" << kPoseUsage;
            return 2;
        }
    }
    if (files.size() != 1) {
        err << "meshscope-cli pose: takes exactly one FILE\n" << kPoseUsage;
        return 2;
    }
    const DecodeResult result = decodeFile(files.front());
    if (!result.ok()) {
        err << files.front() << ": " << result.error->toString() << "\n";
        return 1;
    }
    std::string error;
    std::optional<Json> report;
    // Roblox rigs: posed by an animation, or shown in their bind pose.
    const bool rigRequest = animationFile || result.asset.meshes.empty();
    if (rigRequest && isRobloxModel(result.asset) && request.controls.empty() &&
        request.bones.empty()) {
        std::optional<DecodeResult> anim;
        if (animationFile) {
            anim = decodeFile(*animationFile);
            if (!anim->ok()) {
                err << *animationFile << ": " << anim->error->toString() << "\n";
                return 1;
            }
        }
        report = rigPoseJson(result.asset, anim ? &anim->asset : nullptr, time, error);
        if (!report) {
            err << files.front() << ": " << error << "\n";
            return 1;
        }
        if (animationFile && (*report)["animation"].is_null()) {
            err << *animationFile << ": no KeyframeSequence or CurveAnimation\n";
            return 1;
        }
    } else if (result.asset.meshes.empty()) {
        err << files.front() << ": no mesh to pose\n";
        return 1;
    } else {
        // A skinned mesh posed by an animation: ANIM's (Unigine .sanim / .anim / .smesh frames,
        // put on the skeleton naming its bones), else with --time FILE's own (.smesh frames).
        Asset posed;
        const Asset* asset = &result.asset;
        if (animationFile || (timeGiven && !result.asset.animations.empty())) {
            const int mi = pickMesh(result.asset);
            const int skeleton = mi >= 0 ? result.asset.meshes[std::size_t(mi)].skeleton : -1;
            if (skeleton < 0 && (mi < 0 || result.asset.meshes[std::size_t(mi)].facs < 0)) {
                err << files.front() << ": no skinned mesh with a skeleton to animate\n";
                return 1;
            }
            std::size_t first = 0;
            if (animationFile) {
                const DecodeResult anim = decodeFile(*animationFile);
                if (!anim.ok()) {
                    err << *animationFile << ": " << anim.error->toString() << "\n";
                    return 1;
                }
                posed = result.asset;
                const AnimationTransfer t = addAnimationsFrom(posed, anim.asset);
                if (!t.ok()) {
                    err << *animationFile << ": " << t.error << "\n";
                    return 1;
                }
                first = t.firstAdded;
                asset = &posed;
            }
            for (std::size_t a = first; a < asset->animations.size() && !request.animation; ++a)
                if (asset->animations[a].skeleton == skeleton || asset->animations[a].skeleton < 0)
                    request.animation = &asset->animations[a];
            if (!request.animation) {
                err << (animationFile ? *animationFile : files.front())
                    << ": no animation of the posed mesh's skeleton\n";
                return 1;
            }
            request.time = time;
        }
        report = poseJson(*asset, request, error);
    }
    if (!report) {
        err << "meshscope-cli pose: " << error << "\n";
        return 2;
    }
    if (json) {
        out << dumpJson(*report) << "\n";
        return 0;
    }
    // Text: one line per bone with its posed position, then the bounds.
    for (const auto& b : (*report)["bones"])
        out << b["name"].get<std::string>() << "  " << b["position"].dump() << "\n";
    if (report->contains("warnings"))
        for (const auto& w : (*report)["warnings"])
            out << "warning: " << w.get<std::string>() << "\n";
    if (!(*report)["bounds"].is_null())
        out << "bounds " << (*report)["bounds"]["min"].dump() << " "
            << (*report)["bounds"]["max"].dump() << "\n";
    return 0;
}

}  // namespace meshscope::cli
