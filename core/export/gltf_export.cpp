// glTF 2.0 export through tinygltf: meshes (one glTF mesh and node per LOD), skeletons as joint
// hierarchies with skins, animations as joint-node channels, FACS controls as morph targets, and
// model parts as nodes carrying their CFrames. See export.h for what is written; exportAsset() and
// exportGlb() are the entry points (exportAsset also dispatches OBJ to obj_export.cpp).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

#include "export/export_internal.h"
#include "export/image_codec.h"
#include "export/tinygltf_config.h"
#include "meshscope/core/decode.h"
#include "meshscope/core/pose.h"

namespace meshscope {

namespace exporting {
// obj_export.cpp
ExportResult exportObj(const Asset& asset, const std::string& path, const ExportOptions& options);
}  // namespace exporting

namespace {

using namespace exporting;

bool finite(const Mat4& m) {
    return std::all_of(m.m.begin(), m.m.end(), [](float f) { return std::isfinite(f); });
}

std::vector<double> quaternionOf(const float r[3][3]) {
    // Shepperd's method on a rotation matrix (rows r[row][col]); returns x, y, z, w.
    double q[4];
    const double tr = double(r[0][0]) + r[1][1] + r[2][2];
    if (tr > 0) {
        const double s = std::sqrt(tr + 1.0) * 2;
        q[3] = 0.25 * s;
        q[0] = (r[2][1] - r[1][2]) / s;
        q[1] = (r[0][2] - r[2][0]) / s;
        q[2] = (r[1][0] - r[0][1]) / s;
    } else if (r[0][0] > r[1][1] && r[0][0] > r[2][2]) {
        const double s = std::sqrt(1.0 + r[0][0] - r[1][1] - r[2][2]) * 2;
        q[3] = (r[2][1] - r[1][2]) / s;
        q[0] = 0.25 * s;
        q[1] = (r[0][1] + r[1][0]) / s;
        q[2] = (r[0][2] + r[2][0]) / s;
    } else if (r[1][1] > r[2][2]) {
        const double s = std::sqrt(1.0 + r[1][1] - r[0][0] - r[2][2]) * 2;
        q[3] = (r[0][2] - r[2][0]) / s;
        q[0] = (r[0][1] + r[1][0]) / s;
        q[1] = 0.25 * s;
        q[2] = (r[1][2] + r[2][1]) / s;
    } else {
        const double s = std::sqrt(1.0 + r[2][2] - r[0][0] - r[1][1]) * 2;
        q[3] = (r[1][0] - r[0][1]) / s;
        q[0] = (r[0][2] + r[2][0]) / s;
        q[1] = (r[1][2] + r[2][1]) / s;
        q[2] = 0.25 * s;
    }
    const double n = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    if (!(n > 0) || !std::isfinite(n)) return {0, 0, 0, 1};
    return {q[0] / n, q[1] / n, q[2] / n, q[3] / n};
}

// `m` with its last row exactly (0, 0, 0, 1), as glTF requires of node and inverse bind
// matrices (products and inverses leave rounding noise there).
Mat4 affine(Mat4 m) {
    m.at(3, 0) = 0;
    m.at(3, 1) = 0;
    m.at(3, 2) = 0;
    m.at(3, 3) = 1;
    return m;
}

// Writes `m` as translation / rotation / scale when it decomposes (rotation times positive or
// mirrored scale), else as a matrix. Identity writes nothing.
void setTransform(tinygltf::Node& node, const Mat4& m) {
    if (m == Mat4::identity()) return;
    float c[3][3];  // columns
    float s[3];
    for (int col = 0; col < 3; ++col) {
        double l = 0;
        for (int row = 0; row < 3; ++row) l += double(m.at(row, col)) * m.at(row, col);
        s[col] = float(std::sqrt(l));
    }
    const float det = m.at(0, 0) * (m.at(1, 1) * m.at(2, 2) - m.at(2, 1) * m.at(1, 2)) -
                      m.at(0, 1) * (m.at(1, 0) * m.at(2, 2) - m.at(2, 0) * m.at(1, 2)) +
                      m.at(0, 2) * (m.at(1, 0) * m.at(2, 1) - m.at(2, 0) * m.at(1, 1));
    if (det < 0) s[0] = -s[0];
    bool trs = s[0] != 0 && s[1] != 0 && s[2] != 0 && m.at(3, 0) == 0 && m.at(3, 1) == 0 &&
               m.at(3, 2) == 0 && m.at(3, 3) == 1;
    if (trs) {
        for (int col = 0; col < 3; ++col)
            for (int row = 0; row < 3; ++row) c[col][row] = m.at(row, col) / s[col];
        for (int a = 0; a < 3 && trs; ++a)
            for (int b = a + 1; b < 3; ++b) {
                const float d = c[a][0] * c[b][0] + c[a][1] * c[b][1] + c[a][2] * c[b][2];
                if (std::fabs(d) > 1e-3f) trs = false;
            }
    }
    if (!trs) {
        node.matrix.assign(m.m.begin(), m.m.end());
        return;
    }
    if (m.at(0, 3) != 0 || m.at(1, 3) != 0 || m.at(2, 3) != 0)
        node.translation = {m.at(0, 3), m.at(1, 3), m.at(2, 3)};
    float r[3][3];
    for (int row = 0; row < 3; ++row)
        for (int col = 0; col < 3; ++col) r[row][col] = c[col][row];
    const auto q = quaternionOf(r);
    if (!(q[0] == 0 && q[1] == 0 && q[2] == 0)) node.rotation = q;
    if (std::fabs(s[0] - 1) > 1e-6f || std::fabs(s[1] - 1) > 1e-6f || std::fabs(s[2] - 1) > 1e-6f)
        node.scale = {s[0], s[1], s[2]};
}

template <typename T>
std::vector<T> gather(const std::vector<T>& src, const LodSlice& slice) {
    if (slice.allVertices()) return src;
    std::vector<T> out;
    out.reserve(slice.vertices.size());
    for (std::uint32_t v : slice.vertices) out.push_back(src[v]);
    return out;
}

class GltfBuilder {
public:
    GltfBuilder(const Asset& asset, const ExportOptions& options, ExportResult& result)
        : asset_(asset), options_(options), result_(result) {}

    void build() {
        axes_ = sourceAxes(asset_);
        levels_ = LevelChooser(options_.lod);
        model.asset.version = "2.0";
        model.asset.generator = std::string("Meshscope ") + version();
        {
            // Every export is Y-up; the unit is the source's, stated here.
            tinygltf::Value::Object extras;
            extras["sourceFormat"] = tinygltf::Value(validUtf8(asset_.format));
            extras["sourceUpAxis"] = tinygltf::Value(axes_.upAxis);
            extras["upAxis"] = tinygltf::Value(std::string("Y"));
            extras["unit"] = tinygltf::Value(axes_.unit);
            extras["metresPerUnit"] = tinygltf::Value(axes_.metresPerUnit);
            model.asset.extras = tinygltf::Value(std::move(extras));
        }
        model.buffers.resize(1);
        model.scenes.resize(1);
        model.defaultScene = 0;
        const PartTree parts = collectParts(asset_, result_.warnings, options_.assetFolders,
                                            options_.allServices, std::max(options_.lod, 0));
        // tinygltf::Node is large: reserve so that growing the vector never moves them all.
        std::size_t nodes = parts.nodes.size() + 1;
        for (const Skeleton& s : asset_.skeletons) nodes += s.bones.size();
        for (const Mesh& m : asset_.meshes) nodes += std::max<std::size_t>(1, m.lods.size());
        model.nodes.reserve(nodes);
        for (std::size_t s = 0; s < asset_.skeletons.size(); ++s) addSkeleton(int(s));
        addItems();
        addParts(parts);
        addAnimations();
        result_.stats.nodes = model.nodes.size();
        result_.stats.meshes = model.meshes.size();
        result_.stats.skins = model.skins.size();
        result_.stats.animations = model.animations.size();
        for (const auto& ga : model.animations)
            result_.stats.animationChannels += ga.channels.size();
        if (model.nodes.empty()) {
            result_.nothingToExport = true;
            throw std::runtime_error(
                "nothing to export: the file holds no meshes, skeletons or visible parts");
        }
        // A glTF buffer may not be empty (a skeleton alone has no binary data).
        if (model.buffers[0].data.empty()) model.buffers.clear();
        for (const std::string& e : usedExtensions_) model.extensionsUsed.push_back(e);
    }

    tinygltf::Model model;

private:
    // -- buffer, views, accessors --------------------------------------------------------------

    int view(const void* data, std::size_t bytes, int target) {
        auto& buf = model.buffers[0].data;
        while (buf.size() % 4) buf.push_back(0);
        if (buf.size() + bytes > 0xFFFF0000ull)
            throw std::runtime_error("the export needs more than 4 GiB of binary data");
        const std::size_t offset = buf.size();
        buf.resize(offset + bytes);
        if (bytes) std::memcpy(buf.data() + offset, data, bytes);
        tinygltf::BufferView v;
        v.buffer = 0;
        v.byteOffset = offset;
        v.byteLength = bytes;
        v.target = target;
        model.bufferViews.push_back(std::move(v));
        return int(model.bufferViews.size()) - 1;
    }

    int accessor(int viewIndex, int componentType, int type, std::size_t count,
                 bool normalized = false, std::vector<double> min = {},
                 std::vector<double> max = {}) {
        tinygltf::Accessor a;
        a.bufferView = viewIndex;
        a.byteOffset = 0;
        a.componentType = componentType;
        a.type = type;
        a.count = count;
        a.normalized = normalized;
        a.minValues = std::move(min);
        a.maxValues = std::move(max);
        model.accessors.push_back(std::move(a));
        return int(model.accessors.size()) - 1;
    }

    int vec3Accessor(const std::vector<Vec3>& v, bool minMax) {
        std::vector<double> mn, mx;
        if (minMax) {
            Vec3 lo = v.empty() ? Vec3{} : v[0], hi = lo;
            for (const Vec3& p : v) {
                lo = {std::min(lo.x, p.x), std::min(lo.y, p.y), std::min(lo.z, p.z)};
                hi = {std::max(hi.x, p.x), std::max(hi.y, p.y), std::max(hi.z, p.z)};
            }
            mn = {lo.x, lo.y, lo.z};
            mx = {hi.x, hi.y, hi.z};
        }
        const int vw = view(v.data(), v.size() * sizeof(Vec3), TINYGLTF_TARGET_ARRAY_BUFFER);
        return accessor(vw, TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_VEC3, v.size(), false,
                        std::move(mn), std::move(mx));
    }

    template <typename T>
    int plainAccessor(const std::vector<T>& v, int componentType, int type,
                      bool normalized = false) {
        const int vw = view(v.data(), v.size() * sizeof(T), TINYGLTF_TARGET_ARRAY_BUFFER);
        return accessor(vw, componentType, type, v.size(), normalized);
    }

    int indexAccessor(const std::vector<std::uint32_t>& idx, std::size_t vertexCount) {
        if (vertexCount <= 0xFFFF) {
            std::vector<std::uint16_t> small(idx.begin(), idx.end());
            const int vw =
                view(small.data(), small.size() * 2, TINYGLTF_TARGET_ELEMENT_ARRAY_BUFFER);
            return accessor(vw, TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT, TINYGLTF_TYPE_SCALAR,
                            idx.size());
        }
        const int vw = view(idx.data(), idx.size() * 4, TINYGLTF_TARGET_ELEMENT_ARRAY_BUFFER);
        return accessor(vw, TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT, TINYGLTF_TYPE_SCALAR, idx.size());
    }

    int addNode(tinygltf::Node node, int parent) {
        model.nodes.push_back(std::move(node));
        const int index = int(model.nodes.size()) - 1;
        attach(index, parent);
        return index;
    }

    // Puts node `index` into the scene, under `parent` (-1: as a root).
    void attach(int index, int parent) {
        if (parent < 0)
            model.scenes[0].nodes.push_back(index);
        else
            model.nodes[std::size_t(parent)].children.push_back(index);
    }

    SourceAxes axes_;

    // -- skeletons -------------------------------------------------------------------------------

    struct SkeletonNodes {
        std::vector<int> joints;  // node per bone
        int root = -1;            // the single root bone's node, or -1
        std::vector<Mat4> world;  // bone world matrices in the export's axes
        int skin = -1;
    };
    std::vector<SkeletonNodes> skeletons_;

    void addSkeleton(int s) {
        const Skeleton& sk = asset_.skeletons[std::size_t(s)];
        skeletons_.emplace_back();
        if (sk.bones.empty()) return;
        const BoneOrder order = boneOrder(sk);
        if (!order.clean())
            result_.warnings.push_back(
                "skeleton \"" + validUtf8(sk.name) +
                "\": " + std::to_string(order.cycleBones.size() + order.invalidParents.size()) +
                " bone(s) with a looping or missing parent exported as roots");
        std::size_t badMatrices = 0;
        std::vector<Mat4> world(sk.bones.size());
        for (std::size_t b = 0; b < sk.bones.size(); ++b) {
            world[b] = sk.bones[b].world;
            if (!finite(world[b])) {
                world[b] = Mat4::identity();
                ++badMatrices;
            }
            world[b] = affine(axes_.matrix(world[b]));
        }
        skeletons_.back().world = world;
        auto& nodes = skeletons_.back().joints;
        nodes.assign(sk.bones.size(), -1);
        int roots = 0;
        for (int b : order.order) {
            const int parent = order.parent[std::size_t(b)];
            tinygltf::Node n;
            n.name = validUtf8(sk.bones[std::size_t(b)].name);
            const Mat4 local =
                parent < 0 ? world[std::size_t(b)]
                           : affine(inverse(world[std::size_t(parent)]) * world[std::size_t(b)]);
            setTransform(n, local);
            nodes[std::size_t(b)] =
                addNode(std::move(n), parent < 0 ? -1 : nodes[std::size_t(parent)]);
            if (parent < 0) {
                ++roots;
                skeletons_.back().root = nodes[std::size_t(b)];
            }
        }
        if (roots != 1) {
            // glTF wants a skin's joints under one common root: a group node holds the roots.
            tinygltf::Node group;
            group.name = validUtf8(sk.name.empty() ? "skeleton" + std::to_string(s) : sk.name);
            const int g = addNode(std::move(group), -1);
            auto& sceneNodes = model.scenes[0].nodes;
            for (int b : order.order) {
                if (order.parent[std::size_t(b)] >= 0) continue;
                const int n = nodes[std::size_t(b)];
                sceneNodes.erase(std::remove(sceneNodes.begin(), sceneNodes.end(), n),
                                 sceneNodes.end());
                model.nodes[std::size_t(g)].children.push_back(n);
            }
            skeletons_.back().root = g;
        }
        if (badMatrices)
            result_.warnings.push_back("skeleton \"" + validUtf8(sk.name) +
                                       "\": " + std::to_string(badMatrices) +
                                       " non-finite bone matrices exported as identity");
    }

    int skinFor(int s) {
        SkeletonNodes& sn = skeletons_[std::size_t(s)];
        if (sn.skin >= 0) return sn.skin;
        const Skeleton& sk = asset_.skeletons[std::size_t(s)];
        std::vector<Mat4> ibm(sk.bones.size());
        for (std::size_t b = 0; b < sk.bones.size(); ++b) {
            const Bone& bone = sk.bones[b];
            Mat4 m = bone.inverseBind ? *bone.inverseBind : inverse(bone.world);
            if (!finite(m)) m = Mat4::identity();
            // glTF requires the last row to be exactly (0, 0, 0, 1).
            ibm[b] = affine(axes_.matrix(m));
        }
        tinygltf::Skin skin;
        skin.name = validUtf8(sk.name.empty() ? "skeleton" + std::to_string(s) : sk.name);
        skin.joints = sn.joints;
        skin.skeleton = sn.root;
        const int vw =
            view(ibm.data(), ibm.size() * sizeof(Mat4), 0);  // no target: not vertex data
        skin.inverseBindMatrices =
            accessor(vw, TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_MAT4, ibm.size());
        model.skins.push_back(std::move(skin));
        result_.stats.joints += sk.bones.size();
        sn.skin = int(model.skins.size()) - 1;
        return sn.skin;
    }

    // -- animations ------------------------------------------------------------------------------

    // Each animation's tracks as translation / rotation / scale channels of the joint nodes of
    // its skeleton (Animation::skeleton, else the first skeleton naming one of its bones), one
    // key per frame at Animation::framesPerSecond, linear. A track's frame is a transform
    // relative to the parent bone, like the nodes' bind transforms; a channel a track leaves
    // empty holds the bind value. In the turned space (Z-up sources) a local transform L
    // becomes R · L · Rᵀ, as the bind transforms do.
    void addAnimations() {
        std::size_t skipped = 0;
        for (const Animation& anim : asset_.animations) {
            int s = anim.skeleton;
            if (s < 0 || std::size_t(s) >= skeletons_.size()) {
                s = -1;
                for (std::size_t i = 0; i < asset_.skeletons.size() && s < 0; ++i)
                    for (const BoneTrack& t : anim.tracks)
                        if (asset_.skeletons[i].find(t.bone) >= 0) {
                            s = int(i);
                            break;
                        }
            }
            if ((s < 0 && anim.facsChannels.empty()) || anim.frameCount == 0 ||
                !addAnimation(anim, s))
                ++skipped;
        }
        if (skipped)
            result_.warnings.push_back(std::to_string(skipped) +
                                       " animation(s) not exported (no frames, or no track names "
                                       "a bone of an exported skeleton and no FACS channel a "
                                       "morph target)");
    }

    bool addAnimation(const Animation& anim, int s) {
        static const Skeleton kNoSkeleton;
        static const std::vector<int> kNoJoints;
        const Skeleton& sk = s >= 0 ? asset_.skeletons[std::size_t(s)] : kNoSkeleton;
        const std::vector<int>& joints = s >= 0 ? skeletons_[std::size_t(s)].joints : kNoJoints;
        const BoneOrder order = boneOrder(sk);
        const std::size_t frames = anim.frameCount;
        const float fps = anim.framesPerSecond > 0 ? anim.framesPerSecond : 30.0f;
        std::vector<float> times(frames);
        // Frame f at f / fps, or at min(f / fps, length) for a bake whose last frame is the
        // source's length (Animation::length); kept strictly increasing.
        for (std::size_t f = 0; f < frames; ++f) {
            times[f] = float(f) / fps;
            if (anim.length > 0 && std::isfinite(anim.length) && anim.length < times[f] &&
                (f == 0 || anim.length > times[f - 1]))
                times[f] = anim.length;
        }
        tinygltf::Animation ga;
        ga.name = validUtf8(anim.name);
        int input = -1;
        const auto makeInput = [&] {
            if (input >= 0) return;
            const int vw = view(times.data(), times.size() * sizeof(float), 0);
            input = accessor(vw, TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_SCALAR, times.size(),
                             false, {times.front()}, {times.back()});
        };
        for (const BoneTrack& track : anim.tracks) {
            const int b = sk.find(track.bone);
            if (b < 0 || joints[std::size_t(b)] < 0) continue;
            // The node's transform is relative to the effective parent; a track is relative to
            // the stored one. Where they differ (a cut cycle), the track is left out.
            if (order.parent[std::size_t(b)] != sk.bones[std::size_t(b)].parent) continue;
            const Bone& bone = sk.bones[std::size_t(b)];
            const Mat4 bind = bone.parent >= 0
                                  ? inverse(sk.bones[std::size_t(bone.parent)].world) * bone.world
                                  : bone.world;
            const Trs bindTrs = decomposeTrs(bind);
            std::vector<Vec3> translations(frames), scales(frames);
            std::vector<Vec4> rotations(frames);
            for (std::size_t f = 0; f < frames; ++f) {
                Trs t = bindTrs;
                if (track.positions.size() == frames) t.t = track.positions[f];
                if (track.rotations.size() == frames) t.r = track.rotations[f];
                if (track.scales.size() == frames) t.s = track.scales[f];
                const Trs g = decomposeTrs(affine(axes_.matrix(composeTrs(t))));
                translations[f] = g.t;
                rotations[f] = g.r;
                scales[f] = g.s;
            }
            makeInput();
            auto channel = [&](const void* data, std::size_t bytes, int type, const char* path) {
                const int vw = view(data, bytes, 0);
                tinygltf::AnimationSampler sampler;
                sampler.input = input;
                sampler.output = accessor(vw, TINYGLTF_COMPONENT_TYPE_FLOAT, type, frames);
                sampler.interpolation = "LINEAR";
                ga.samplers.push_back(std::move(sampler));
                tinygltf::AnimationChannel c;
                c.sampler = int(ga.samplers.size()) - 1;
                c.target_node = joints[std::size_t(b)];
                c.target_path = path;
                ga.channels.push_back(std::move(c));
            };
            channel(translations.data(), frames * sizeof(Vec3), TINYGLTF_TYPE_VEC3, "translation");
            channel(rotations.data(), frames * sizeof(Vec4), TINYGLTF_TYPE_VEC4, "rotation");
            channel(scales.data(), frames * sizeof(Vec3), TINYGLTF_TYPE_VEC3, "scale");
        }
        addFacsWeights(anim, ga, makeInput, input);
        if (ga.channels.empty()) return false;
        model.animations.push_back(std::move(ga));
        return true;
    }

    // FACS weight channels (Animation::facsChannels) as a "weights" channel on every node whose
    // mesh has FACS morph targets: frames × targets values, a target no channel names at 0.
    // Channels match targets by FACS control (abbreviation or name).
    template <class MakeInput>
    void addFacsWeights(const Animation& anim, tinygltf::Animation& ga, MakeInput&& makeInput,
                        const int& input) {
        if (anim.facsChannels.empty()) return;
        const std::size_t frames = anim.frameCount;
        auto controlOf = [](std::string_view name) -> std::string {
            const FacsControlInfo* c = findFacsControl(name);
            return c ? std::string(c->name) : std::string(name);
        };
        std::vector<std::string> channelControls;
        for (const FacsChannel& c : anim.facsChannels)
            channelControls.push_back(controlOf(c.control));
        std::size_t driven = 0;
        for (const MorphNode& mn : morphNodes_) {
            const auto& names = *mn.names;
            std::vector<float> values(frames * names.size(), 0.0f);
            bool any = false;
            for (std::size_t t = 0; t < names.size(); ++t) {
                const std::string target = controlOf(names[t]);
                for (std::size_t c = 0; c < channelControls.size(); ++c) {
                    if (channelControls[c] != target) continue;
                    const auto& w = anim.facsChannels[c].weights;
                    for (std::size_t f = 0; f < frames && f < w.size(); ++f)
                        values[f * names.size() + t] =
                            std::isfinite(w[f]) ? std::clamp(w[f], 0.0f, 1.0f) : 0.0f;
                    any = true;
                    break;
                }
            }
            if (!any) continue;
            makeInput();
            const int vw = view(values.data(), values.size() * sizeof(float), 0);
            tinygltf::AnimationSampler sampler;
            sampler.input = input;
            sampler.output =
                accessor(vw, TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_SCALAR, values.size());
            sampler.interpolation = "LINEAR";
            ga.samplers.push_back(std::move(sampler));
            tinygltf::AnimationChannel c;
            c.sampler = int(ga.samplers.size()) - 1;
            c.target_node = mn.node;
            c.target_path = "weights";
            ga.channels.push_back(std::move(c));
            ++driven;
        }
        if (driven == 0)
            result_.warnings.push_back("animation \"" + validUtf8(anim.name) +
                                       "\": " + std::to_string(anim.facsChannels.size()) +
                                       " FACS curve(s) move no exported morph target");
    }

    struct Trs {
        Vec3 t;
        Vec4 r{0, 0, 0, 1};
        Vec3 s{1, 1, 1};
    };

    static Mat4 composeTrs(const Trs& in) {
        float x = in.r.x, y = in.r.y, z = in.r.z, w = in.r.w;
        const float n = std::sqrt(x * x + y * y + z * z + w * w);
        if (n > 0 && std::isfinite(n))
            x /= n, y /= n, z /= n, w /= n;
        else
            x = y = z = 0, w = 1;
        Mat4 m;
        m.at(0, 0) = (1 - 2 * (y * y + z * z)) * in.s.x;
        m.at(0, 1) = 2 * (x * y - z * w) * in.s.y;
        m.at(0, 2) = 2 * (x * z + y * w) * in.s.z;
        m.at(1, 0) = 2 * (x * y + z * w) * in.s.x;
        m.at(1, 1) = (1 - 2 * (x * x + z * z)) * in.s.y;
        m.at(1, 2) = 2 * (y * z - x * w) * in.s.z;
        m.at(2, 0) = 2 * (x * z - y * w) * in.s.x;
        m.at(2, 1) = 2 * (y * z + x * w) * in.s.y;
        m.at(2, 2) = (1 - 2 * (x * x + y * y)) * in.s.z;
        m.at(0, 3) = in.t.x, m.at(1, 3) = in.t.y, m.at(2, 3) = in.t.z;
        return m;
    }

    // Translation, rotation (unit quaternion) and scale of an affine matrix without shear; a
    // mirroring goes into the x scale. A zero scale leaves the identity rotation.
    static Trs decomposeTrs(const Mat4& m) {
        Trs out;
        out.t = {m.at(0, 3), m.at(1, 3), m.at(2, 3)};
        float sc[3];
        for (int col = 0; col < 3; ++col)
            sc[col] = std::sqrt(m.at(0, col) * m.at(0, col) + m.at(1, col) * m.at(1, col) +
                                m.at(2, col) * m.at(2, col));
        const float det = m.at(0, 0) * (m.at(1, 1) * m.at(2, 2) - m.at(2, 1) * m.at(1, 2)) -
                          m.at(0, 1) * (m.at(1, 0) * m.at(2, 2) - m.at(2, 0) * m.at(1, 2)) +
                          m.at(0, 2) * (m.at(1, 0) * m.at(2, 1) - m.at(2, 0) * m.at(1, 1));
        if (det < 0) sc[0] = -sc[0];
        out.s = {sc[0], sc[1], sc[2]};
        if (sc[0] == 0 || sc[1] == 0 || sc[2] == 0) return out;
        float r[3][3];
        for (int row = 0; row < 3; ++row)
            for (int col = 0; col < 3; ++col) r[row][col] = m.at(row, col) / sc[col];
        const std::vector<double> q = quaternionOf(r);
        out.r = {float(q[0]), float(q[1]), float(q[2]), float(q[3])};
        return out;
    }

    // -- meshes ----------------------------------------------------------------------------------

    struct Facs {
        std::vector<std::string> names;
        std::vector<std::vector<Vec3>> deltas;   // per control, per vertex
        std::vector<std::vector<Vec3>> normals;  // per target: empty, or per vertex
    };

    Facs facsTargets(const Mesh& mesh, const std::string& name, bool skinned) {
        Facs out;
        if (mesh.facs < 0) return out;
        if (std::size_t(mesh.facs) >= asset_.facs.size()) return out;
        const FacsRig& rig = asset_.facs[std::size_t(mesh.facs)];
        const std::string why = "mesh \"" + name + "\": FACS rig not exported as morph targets: ";
        if (!options_.facsMorphTargets) {
            result_.warnings.push_back(why + "turned off");
            return out;
        }
        if (!skinned) {
            result_.warnings.push_back(
                why + "the mesh is not skinned to a skeleton, and FACS moves bones");
            return out;
        }
        const Skeleton& sk = asset_.skeletons[std::size_t(mesh.skeleton)];
        const FacsBinding binding = bindFacs(rig, sk);
        if (binding.unmatched.size() == rig.boneNames.size()) {
            result_.warnings.push_back(why + "none of its face bones is in the mesh's skeleton");
            return out;
        }
        if (!binding.unmatched.empty())
            result_.warnings.push_back(
                "mesh \"" + name + "\": " + std::to_string(binding.unmatched.size()) +
                " FACS face bone(s) not in the skeleton do not move the morph targets");
        if (!rig.correctives.empty())
            result_.warnings.push_back(
                "mesh \"" + name + "\": " + std::to_string(rig.correctives.size()) +
                " FACS corrective(s) not exported: a morph target is linear in its "
                "weight, a corrective is the product of its controls' weights");
        PoseEvaluator eval(sk, &rig);
        const Pose bind = Pose::bind(sk);
        std::vector<float> weights(rig.controlNames.size(), 0.0f);
        eval.update(bind, weights);
        std::vector<Vec3> rest, posed;
        eval.skin(mesh, rest);
        for (std::size_t c = 0; c < rig.controlNames.size(); ++c) {
            std::fill(weights.begin(), weights.end(), 0.0f);
            weights[c] = 1.0f;
            eval.update(bind, weights);
            eval.skin(mesh, posed);
            std::vector<Vec3> d(posed.size());
            for (std::size_t v = 0; v < posed.size(); ++v) {
                d[v] = posed[v] - rest[v];
                if (!d[v].finite()) d[v] = {};
            }
            out.names.push_back(validUtf8(facsDisplayName(rig.controlNames[c])));
            out.deltas.push_back(std::move(d));
        }
        return out;
    }

    // Cleaned vertex streams of one mesh, in the exported (Y-up) axes, made once and shared by
    // its levels.
    struct MeshStreams {
        bool ok = false;
        std::string name;
        std::vector<Vec3> positions, normals;
        std::vector<Vec4> tangents;
        std::vector<Vec2> uv0, uv1;
        bool colors = false;
        bool skinned = false;
        std::vector<std::array<std::uint16_t, 4>> joints;
        std::vector<Vec4> weights;
        int skin = -1;
        Facs facs;
    };
    std::map<int, MeshStreams> streams_;
    // Nodes whose mesh has FACS morph targets, and the targets' control names (in streams_).
    struct MorphNode {
        int node = -1;
        const std::vector<std::string>* names = nullptr;
    };
    std::vector<MorphNode> morphNodes_;

    const MeshStreams& streamsOf(int mi, bool allowSkin) {
        const int key = allowSkin ? mi : -1 - mi;
        if (auto it = streams_.find(key); it != streams_.end()) return it->second;
        MeshStreams& st = streams_[key];
        const Mesh& mesh = asset_.meshes[std::size_t(mi)];
        const std::string name = meshName(asset_, mi);
        st.name = name;
        // Warnings about a mesh's streams come once, not once per variant.
        std::vector<std::string> scratch;
        auto& warn = warnedStreams_.insert(mi).second ? result_.warnings : scratch;
        const std::size_t nv = mesh.positions.size();
        auto sized = [&](std::size_t n, const char* what) {
            if (n == 0 || n == nv) return n == nv;
            warn.push_back("mesh \"" + name + "\": " + what + " has " + std::to_string(n) +
                           " entries for " + std::to_string(nv) + " vertices: dropped");
            return false;
        };
        st.positions = cleanPositions(mesh, name, warn);
        for (Vec3& p : st.positions) p = axes_.point(p);
        if (sized(mesh.normals.size(), "the normal stream"))
            st.normals = cleanNormals(mesh, name, warn);
        if (sized(mesh.tangents.size(), "the tangent stream")) {
            if (st.normals.empty()) {
                warn.push_back("mesh \"" + name + "\": tangents without normals dropped");
            } else {
                st.tangents = cleanTangents(mesh, st.normals, name, warn);
                for (Vec4& t : st.tangents) t = axes_.tangent(t);
            }
        }
        for (Vec3& n : st.normals) n = axes_.point(n);
        if (sized(mesh.uv0.size(), "UV set 0")) st.uv0 = cleanUvs(mesh.uv0);
        if (sized(mesh.uv1.size(), "UV set 1")) st.uv1 = cleanUvs(mesh.uv1);
        st.colors = sized(mesh.colors.size(), "the colour stream");
        st.ok = true;
        if (mesh.primitive != Primitive::Triangles || !allowSkin) return st;

        // Skin: joints index the skeleton's bones, which are the skin's joints in order.
        const bool hasSkeleton = mesh.skeleton >= 0 &&
                                 std::size_t(mesh.skeleton) < asset_.skeletons.size() &&
                                 !asset_.skeletons[std::size_t(mesh.skeleton)].bones.empty();
        if (!mesh.skin.empty()) {
            if (!hasSkeleton)
                warn.push_back("mesh \"" + name + "\": skin weights without a skeleton dropped");
            else if (sized(mesh.skin.size(), "the skin"))
                st.skinned = true;
        }
        if (st.skinned) {
            const Skeleton& sk = asset_.skeletons[std::size_t(mesh.skeleton)];
            const std::size_t bones = sk.bones.size();
            if (bones > 0xFFFF) {
                warn.push_back("mesh \"" + name + "\": more than 65535 bones, skin dropped");
                st.skinned = false;
            } else {
                const BoneOrder order = boneOrder(sk);
                const auto root = std::uint16_t(order.order.empty() ? 0 : order.order.front());
                std::size_t unweighted = 0, badJoints = 0;
                st.joints.resize(nv);
                st.weights.resize(nv);
                for (std::size_t v = 0; v < nv; ++v) {
                    const VertexInfluences& in = mesh.skin[v];
                    float w[4];
                    float sum = 0;
                    for (int k = 0; k < 4; ++k) {
                        w[k] = std::isfinite(in.weights[std::size_t(k)]) &&
                                       in.weights[std::size_t(k)] > 0
                                   ? in.weights[std::size_t(k)]
                                   : 0.0f;
                        std::uint16_t j = in.joints[std::size_t(k)];
                        if (j >= bones) {
                            if (w[k] > 0) ++badJoints;
                            w[k] = 0;
                            j = 0;
                        }
                        st.joints[v][std::size_t(k)] = w[k] > 0 ? j : 0;
                        sum += w[k];
                    }
                    if (!(sum > 0)) {
                        ++unweighted;
                        st.joints[v] = {root, 0, 0, 0};
                        st.weights[v] = {1, 0, 0, 0};
                    } else {
                        st.weights[v] = {w[0] / sum, w[1] / sum, w[2] / sum, w[3] / sum};
                    }
                }
                if (badJoints)
                    warn.push_back("mesh \"" + name + "\": " + std::to_string(badJoints) +
                                   " skin influence(s) naming no bone dropped");
                if (unweighted)
                    warn.push_back("mesh \"" + name + "\": " + std::to_string(unweighted) +
                                   " vertices without skin weight bound to the root bone \"" +
                                   validUtf8(sk.bones[root].name) + "\"");
            }
        }
        st.skin = st.skinned ? skinFor(mesh.skeleton) : -1;
        st.facs = facsTargets(mesh, name, st.skinned);
        st.facs.normals.resize(st.facs.deltas.size());
        // The mesh's own blend shapes follow the FACS controls (a file has one or the other).
        for (const MorphTarget& t : mesh.morphTargets) {
            if (!sized(t.positionDeltas.size(), "a morph target") || nv == 0) continue;
            auto finite = [](std::vector<Vec3> d) {
                for (Vec3& v : d)
                    if (!v.finite()) v = {};
                return d;
            };
            st.facs.names.push_back(validUtf8(t.name));
            st.facs.deltas.push_back(finite(t.positionDeltas));
            st.facs.normals.push_back(!st.normals.empty() && t.normalDeltas.size() == nv
                                          ? finite(t.normalDeltas)
                                          : std::vector<Vec3>{});
        }
        for (auto& d : st.facs.deltas)
            for (Vec3& v : d) v = axes_.point(v);
        for (auto& d : st.facs.normals)
            for (Vec3& v : d) v = axes_.point(v);
        return st;
    }
    std::set<int> warnedStreams_;

    // White, alpha-blended: the vertex colours (COLOR_0, alpha included) give the colour.
    int blendMaterial() {
        if (blendMaterial_ >= 0) return blendMaterial_;
        tinygltf::Material m;
        m.name = "vertex colour blend";
        m.alphaMode = "BLEND";
        m.pbrMetallicRoughness.baseColorFactor = {1.0, 1.0, 1.0, 1.0};
        m.pbrMetallicRoughness.metallicFactor = 0.0;
        m.pbrMetallicRoughness.roughnessFactor = 0.3;
        model.materials.push_back(std::move(m));
        return blendMaterial_ = int(model.materials.size()) - 1;
    }
    int blendMaterial_ = -1;

    // The material of a mesh surface: named by the surface (Second Life faces, Unigine surfaces)
    // or the mesh, white so that vertex colours (COLOR_0) show as they are.
    int meshMaterial(const std::string& name) {
        if (auto it = meshMaterials_.find(name); it != meshMaterials_.end()) return it->second;
        tinygltf::Material m;
        m.name = name;
        m.pbrMetallicRoughness.baseColorFactor = {1, 1, 1, 1};
        m.pbrMetallicRoughness.metallicFactor = 0.0;
        m.pbrMetallicRoughness.roughnessFactor = 0.7;
        model.materials.push_back(std::move(m));
        return meshMaterials_[name] = int(model.materials.size()) - 1;
    }
    std::map<std::string, int> meshMaterials_;

    // Surfaces are material slots in Second Life and Unigine files; a FileMesh's subsets only
    // group bones.
    bool surfacesAreMaterials() const {
        return asset_.format == "secondlife-mesh" || asset_.format == "unigine";
    }

    // One level of an item as a node holding its mesh (not attached to the scene); -1 when the
    // level has nothing to draw.
    int levelNode(const ExportItem& item, const MeshLevel& level, bool levelled, bool allowSkin) {
        const Mesh& mesh = asset_.meshes[std::size_t(level.mesh)];
        const MeshStreams& st = streamsOf(level.mesh, allowSkin);
        if (!st.ok) return -1;
        if (item.lines) return linesNode(mesh, st);
        const LodSlice& slice = level.slice;
        const std::string& name = st.name;
        auto groups = sliceIndicesBySurface(mesh, slice, surfacesAreMaterials());
        if (groups.empty()) {
            result_.warnings.push_back("mesh \"" + name + "\" " + slice.name +
                                       " has no triangles: not exported");
            return -1;
        }
        const std::size_t count = sliceVertexCount(mesh, slice);
        std::map<std::string, int> attributes;
        attributes["POSITION"] = vec3Accessor(gather(st.positions, slice), true);
        if (!st.normals.empty())
            attributes["NORMAL"] = vec3Accessor(gather(st.normals, slice), false);
        if (!st.tangents.empty())
            attributes["TANGENT"] = plainAccessor(
                gather(st.tangents, slice), TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_VEC4);
        if (!st.uv0.empty())
            attributes["TEXCOORD_0"] = plainAccessor(
                gather(st.uv0, slice), TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_VEC2);
        if (!st.uv1.empty())
            attributes["TEXCOORD_1"] = plainAccessor(
                gather(st.uv1, slice), TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_VEC2);
        if (st.colors)
            attributes["COLOR_0"] =
                plainAccessor(gather(mesh.colors, slice), TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE,
                              TINYGLTF_TYPE_VEC4, true);
        if (st.skinned) {
            attributes["JOINTS_0"] =
                plainAccessor(gather(st.joints, slice), TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT,
                              TINYGLTF_TYPE_VEC4);
            attributes["WEIGHTS_0"] = plainAccessor(
                gather(st.weights, slice), TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_VEC4);
            result_.stats.skinnedVertices += count;
        }
        std::vector<std::map<std::string, int>> targets;
        for (std::size_t t = 0; t < st.facs.deltas.size(); ++t) {
            std::map<std::string, int> target{
                {"POSITION", vec3Accessor(gather(st.facs.deltas[t], slice), true)}};
            if (t < st.facs.normals.size() && !st.facs.normals[t].empty())
                target["NORMAL"] = vec3Accessor(gather(st.facs.normals[t], slice), false);
            targets.push_back(std::move(target));
        }

        tinygltf::Mesh gm;
        gm.name = levelled ? name + " " + slice.name : name;
        std::size_t triangles = 0;
        for (const SurfaceIndices& g : groups) {
            tinygltf::Primitive prim;
            prim.mode = TINYGLTF_MODE_TRIANGLES;
            prim.attributes = attributes;
            prim.targets = targets;
            prim.indices = indexAccessor(g.indices, count);
            std::string materialName = name;
            if (g.surface >= 0 && !mesh.surfaces[std::size_t(g.surface)].name.empty())
                materialName = validUtf8(mesh.surfaces[std::size_t(g.surface)].name);
            // Translucent vertex colours (a place's water surface) need a blended material.
            prim.material = st.colors && std::any_of(mesh.colors.begin(), mesh.colors.end(),
                                                     [](Rgba8 c) { return c.a < 255; })
                                ? blendMaterial()
                                : meshMaterial(materialName);
            triangles += g.indices.size() / 3;
            gm.primitives.push_back(std::move(prim));
        }
        if (!st.facs.names.empty()) {
            gm.weights.assign(st.facs.names.size(), 0.0);
            tinygltf::Value::Array names;
            for (const auto& n : st.facs.names) names.emplace_back(n);
            tinygltf::Value::Object extras;
            extras["targetNames"] = tinygltf::Value(std::move(names));
            gm.extras = tinygltf::Value(std::move(extras));
            result_.stats.morphTargets += st.facs.names.size();
        }
        tinygltf::Node node;
        node.name = gm.name;
        model.meshes.push_back(std::move(gm));
        node.mesh = int(model.meshes.size()) - 1;
        node.skin = st.skin;
        model.nodes.push_back(std::move(node));
        if (!st.facs.names.empty())
            morphNodes_.push_back({int(model.nodes.size()) - 1, &st.facs.names});
        result_.stats.vertices += count;
        result_.stats.triangles += triangles;
        return int(model.nodes.size()) - 1;
    }

    // A line mesh (LINES) or a point cloud (POINTS): positions, colours and the primitives whose
    // indices are all within the vertices.
    int linesNode(const Mesh& mesh, const MeshStreams& st) {
        const std::string& name = st.name;
        const std::size_t nv = st.positions.size();
        const bool points = mesh.primitive == Primitive::Points;
        const std::size_t per = indicesPerPrimitive(mesh.primitive);
        const char* what = points ? "point" : "line";
        std::vector<std::uint32_t> idx;
        idx.reserve(mesh.indices.size());
        std::size_t bad = 0;
        for (std::size_t i = 0; i + per <= mesh.indices.size(); i += per) {
            bool inside = true;
            for (std::size_t k = 0; k < per; ++k) inside = inside && mesh.indices[i + k] < nv;
            if (!inside) {
                ++bad;
                continue;
            }
            idx.insert(idx.end(), mesh.indices.begin() + std::ptrdiff_t(i),
                       mesh.indices.begin() + std::ptrdiff_t(i + per));
        }
        if (bad)
            result_.warnings.push_back(std::string(what) + " mesh \"" + name +
                                       "\": " + std::to_string(bad) +
                                       (points ? " point(s)" : " segment(s)") +
                                       " with an index beyond the vertex count left out");
        if (idx.empty()) {
            result_.warnings.push_back(std::string(what) + " mesh \"" + name + "\" has no " +
                                       (points ? "points" : "segments") + ": not exported");
            return -1;
        }
        tinygltf::Primitive prim;
        prim.mode = points ? TINYGLTF_MODE_POINTS : TINYGLTF_MODE_LINE;
        prim.attributes["POSITION"] = vec3Accessor(st.positions, true);
        if (st.colors)
            prim.attributes["COLOR_0"] = plainAccessor(
                mesh.colors, TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE, TINYGLTF_TYPE_VEC4, true);
        prim.indices = indexAccessor(idx, nv);
        prim.material = meshMaterial(name);
        tinygltf::Mesh gm;
        gm.name = name;
        gm.primitives.push_back(std::move(prim));
        model.meshes.push_back(std::move(gm));
        tinygltf::Node node;
        node.name = name;
        node.mesh = int(model.meshes.size()) - 1;
        model.nodes.push_back(std::move(node));
        result_.stats.vertices += nv;
        if (points)
            result_.stats.points += idx.size();
        else
            result_.stats.lines += idx.size() / 2;
        return int(model.nodes.size()) - 1;
    }

    // The chosen level in the scene (under `parent`, -1 for a root); with allLods the others as
    // MSFT_lod alternates: nodes outside the scene that only the extension names.
    void addItem(const ExportItem& item, int parent) {
        const bool levelled = item.levels.size() > 1;
        const std::size_t chosen = levels_.choose(item);
        const bool allowSkin = !item.physics;
        const int node = levelNode(item, item.levels[chosen], levelled, allowSkin);
        if (node < 0) return;
        attach(node, parent);
        if (!options_.allLods || !levelled) return;
        tinygltf::Value::Array ids;
        tinygltf::Value::Array coverage;
        for (std::size_t l = chosen + 1; l < item.levels.size(); ++l) {
            const int alt = levelNode(item, item.levels[l], levelled, allowSkin);
            if (alt < 0) continue;
            ids.emplace_back(alt);
            // Screen coverage thresholds: each coarser level takes over at half the size.
            coverage.emplace_back(0.5 / double(1 << std::min<std::size_t>(ids.size() - 1, 20)));
        }
        if (chosen > 0)
            result_.warnings.push_back("mesh \"" + item.name + "\": the " + std::to_string(chosen) +
                                       " level(s) finer than the chosen LOD are not written");
        if (ids.empty()) return;
        coverage.emplace_back(0.0);
        tinygltf::Value::Object ext;
        ext["ids"] = tinygltf::Value(std::move(ids));
        model.nodes[std::size_t(node)].extensions["MSFT_lod"] = tinygltf::Value(std::move(ext));
        tinygltf::Value::Object extras;
        if (model.nodes[std::size_t(node)].extras.IsObject())
            extras = model.nodes[std::size_t(node)].extras.Get<tinygltf::Value::Object>();
        extras["MSFT_screencoverage"] = tinygltf::Value(std::move(coverage));
        model.nodes[std::size_t(node)].extras = tinygltf::Value(std::move(extras));
        usedExtensions_.insert("MSFT_lod");
    }
    std::set<std::string> usedExtensions_;
    LevelChooser levels_{0};  // set in build(): options_ is initialized after it

    void addItems() {
        const std::vector<ExportItem> items = exportItems(asset_, result_.warnings);
        std::size_t physics = 0;
        for (const ExportItem& item : items) {
            if (item.physics) {
                ++physics;
                continue;
            }
            addItem(item, -1);
        }
        levels_.report(result_.warnings);
        if (!physics) return;
        if (!options_.physics) {
            result_.warnings.push_back(std::to_string(physics) +
                                       " physics mesh(es) left out (export with --physics)");
            return;
        }
        // Physics shapes under one group node, hidden: KHR_node_visibility for the importers
        // that know it, extras.hidden for the others.
        tinygltf::Node group;
        group.name = "physics";
        tinygltf::Value::Object vis;
        vis["visible"] = tinygltf::Value(false);
        group.extensions["KHR_node_visibility"] = tinygltf::Value(std::move(vis));
        tinygltf::Value::Object extras;
        extras["hidden"] = tinygltf::Value(true);
        group.extras = tinygltf::Value(std::move(extras));
        const int g = addNode(std::move(group), -1);
        usedExtensions_.insert("KHR_node_visibility");
        for (const ExportItem& item : items)
            if (item.physics) addItem(item, g);
    }

    // -- model parts -----------------------------------------------------------------------------

    struct PrimitiveAccessors {
        int position = -1, normal = -1, uv = -1, indices = -1;
        std::size_t vertices = 0, triangles = 0;
    };
    std::map<PartShape, PrimitiveAccessors> primitives_;
    // (packed RGBA, Material, Reflectance %, colour texture, normal texture) → material
    // (packed RGBA, Material, Reflectance %, colour, normal, metallic-roughness texture) → material
    std::map<std::tuple<std::uint32_t, std::int64_t, int, int, int, int>, int> materials_;
    std::map<std::string, int> textures_;  // image file → texture (-1: could not be read)
    int sampler_ = -1;

    // An image file's bytes (at most 256 MiB); false with a warning when it cannot be read.
    bool readImage(const std::string& path, std::vector<char>& bytes) {
        std::error_code ec;
        const auto size = std::filesystem::file_size(path, ec);
        constexpr std::uintmax_t kMaxImage = 256ull << 20;
        if (ec || size == 0 || size > kMaxImage) {
            result_.warnings.push_back("texture " + validUtf8(path) +
                                       (ec ? " cannot be read" : " is empty or over 256 MiB") +
                                       ": not embedded");
            return false;
        }
        bytes.resize(static_cast<std::size_t>(size));
        std::ifstream f(path, std::ios::binary);
        if (!f.read(bytes.data(), std::streamsize(bytes.size()))) {
            result_.warnings.push_back("texture " + validUtf8(path) +
                                       " cannot be read: not embedded");
            return false;
        }
        return true;
    }

    // An image (bufferView + mimeType) with one shared sampler (linear filtering, repeat) as a
    // texture; returns the texture index.
    int embedImage(const std::string& name, const void* data, std::size_t size,
                   const std::string& mimeType) {
        tinygltf::Image image;
        image.name = name;
        image.bufferView = view(data, size, 0);
        image.mimeType = mimeType;
        model.images.push_back(std::move(image));
        if (sampler_ < 0) {
            tinygltf::Sampler sampler;
            sampler.magFilter = TINYGLTF_TEXTURE_FILTER_LINEAR;
            sampler.minFilter = TINYGLTF_TEXTURE_FILTER_LINEAR_MIPMAP_LINEAR;
            sampler.wrapS = TINYGLTF_TEXTURE_WRAP_REPEAT;
            sampler.wrapT = TINYGLTF_TEXTURE_WRAP_REPEAT;
            model.samplers.push_back(sampler);
            sampler_ = int(model.samplers.size()) - 1;
        }
        tinygltf::Texture tex;
        tex.source = int(model.images.size()) - 1;
        tex.sampler = sampler_;
        model.textures.push_back(std::move(tex));
        return int(model.textures.size()) - 1;
    }

    // A part's image file embedded as stored; -1 when it cannot be read (said in a warning).
    int texture(const PartTexture& t) {
        if (!t.ok()) return -1;
        if (auto it = textures_.find(t.path); it != textures_.end()) return it->second;
        int& index = textures_[t.path];
        index = -1;
        std::vector<char> bytes;
        if (!readImage(t.path, bytes)) return -1;
        return index = embedImage(validUtf8(std::filesystem::path(t.path).filename().string()),
                                  bytes.data(), bytes.size(), t.mimeType);
    }

    // SurfaceAppearance RoughnessMap / MetalnessMap packed into one metallicRoughnessTexture
    // (roughness G, metalness B). A map that cannot be decoded is left out with a warning that
    // names its property's offset; its channel is 255 and the material keeps its factor.
    struct PackedMaps {
        int texture = -1;
        bool roughness = false, metalness = false;  // which channels hold a map
    };
    std::map<std::pair<std::string, std::string>, PackedMaps> packed_;
    GreyImage greyMap(const PartTexture& t, std::uint64_t offset, const std::string& context,
                      const char* property) {
        if (!t.ok()) return {};
        std::vector<char> bytes;
        if (!readImage(t.path, bytes)) return {};
        std::string error;
        GreyImage g = decodeGreyImage(
            std::span(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()), error);
        if (g.empty()) {
            Diagnostic d;
            d.severity = Severity::Warning;
            d.code = "image-not-decoded";
            d.offset = offset;
            d.context = context + " \u203a " + property;
            d.message = validUtf8(t.path) + ": " + validUtf8(error) + ": map not exported";
            result_.warnings.push_back(d.toString());
        }
        return g;
    }
    PackedMaps metallicRoughness(const PartInstance& p) {
        if (!p.roughnessMap.ok() && !p.metalnessMap.ok()) return {};
        const auto key = std::make_pair(p.roughnessMap.path, p.metalnessMap.path);
        if (auto it = packed_.find(key); it != packed_.end()) return it->second;
        PackedMaps& out = packed_[key];
        const GreyImage r =
            greyMap(p.roughnessMap, p.roughnessOffset, p.appearancePath, "RoughnessMap");
        const GreyImage m =
            greyMap(p.metalnessMap, p.metalnessOffset, p.appearancePath, "MetalnessMap");
        const PackedImage packed = packMetallicRoughness(r, m);
        if (packed.rgb.empty()) return out;
        std::string error;
        const std::vector<std::uint8_t> png =
            encodeRgbPng(packed.width, packed.height, packed.rgb, error);
        if (png.empty()) {
            result_.warnings.push_back("roughness / metalness maps of " + p.appearancePath +
                                       " not exported: " + error);
            return out;
        }
        out.roughness = !r.empty();
        out.metalness = !m.empty();
        out.texture = embedImage("metallicRoughness " + std::to_string(packed_.size()), png.data(),
                                 png.size(), "image/png");
        return out;
    }
    std::map<std::pair<PartShape, int>, int> partMeshes_;  // (shape, material) → mesh

    static double linear(std::uint8_t c) {
        const double s = c / 255.0;
        return s <= 0.04045 ? s / 12.92 : std::pow((s + 0.055) / 1.055, 2.4);
    }

    // A part's material: its Color (sRGB) and Transparency, its Material's roughness and
    // metalness, Reflectance making it smoother and more metallic, Neon glowing.
    int material(const PartInstance& p) {
        const Rgba8 c = p.color;
        const int reflectance = int(std::lround(p.reflectance * 100));
        const int colorMap = texture(p.colorMap), normalMap = texture(p.normalMap);
        const PackedMaps maps = metallicRoughness(p);
        const auto key = std::make_tuple(
            std::uint32_t(c.r) << 24 | std::uint32_t(c.g) << 16 | std::uint32_t(c.b) << 8 | c.a,
            p.material, reflectance, colorMap, normalMap, maps.texture);
        if (auto it = materials_.find(key); it != materials_.end()) return it->second;
        const auto look = robloxMaterialLook(p.material);
        tinygltf::Material m;
        char name[96];
        std::snprintf(name, sizeof name, "%s %u %u %u",
                      look ? look->name : ("Material " + std::to_string(p.material)).c_str(),
                      unsigned(c.r), unsigned(c.g), unsigned(c.b));
        m.name = name;
        if (c.a < 255) {
            m.name += " alpha " + std::to_string(c.a);
            m.alphaMode = "BLEND";
        }
        if (reflectance > 0) m.name += " reflectance " + std::to_string(reflectance) + "%";
        // Part colours are sRGB; glTF factors are linear.
        m.pbrMetallicRoughness.baseColorFactor = {linear(c.r), linear(c.g), linear(c.b),
                                                  c.a / 255.0};
        const double r = reflectance / 100.0;
        const double metallic = look ? look->metallic : 0.0;
        const double roughness = look ? look->roughness : 0.8;
        m.pbrMetallicRoughness.metallicFactor = std::max(metallic, r);
        m.pbrMetallicRoughness.roughnessFactor = roughness * (1.0 - r);
        if (look && look->emissive) m.emissiveFactor = {linear(c.r), linear(c.g), linear(c.b)};
        if (colorMap >= 0) {
            // The image is the colour (as Roblox draws a textured MeshPart); alpha stays.
            m.pbrMetallicRoughness.baseColorTexture.index = colorMap;
            m.pbrMetallicRoughness.baseColorFactor = {1, 1, 1, c.a / 255.0};
            m.name += " textured " + std::to_string(colorMap);
        }
        if (normalMap >= 0) {
            m.normalTexture.index = normalMap;
            m.name += " normal map " + std::to_string(normalMap);
        }
        if (maps.texture >= 0) {
            // glTF multiplies the channels by the factors: a channel that holds a map gets
            // factor 1; the other is 255 and keeps the Material's value as its factor.
            m.pbrMetallicRoughness.metallicRoughnessTexture.index = maps.texture;
            if (maps.roughness) m.pbrMetallicRoughness.roughnessFactor = 1;
            if (maps.metalness) m.pbrMetallicRoughness.metallicFactor = 1;
            m.name += " metallic roughness " + std::to_string(maps.texture);
        }
        model.materials.push_back(std::move(m));
        return materials_[key] = int(model.materials.size()) - 1;
    }

    tinygltf::Primitive shapePrimitive(PartShape shape, int mat) {
        PrimitiveAccessors& pa = primitives_[shape];
        if (pa.position < 0) {
            const Mesh m = partShapeMesh(shape);
            pa.position = vec3Accessor(m.positions, true);
            pa.normal = vec3Accessor(m.normals, false);
            pa.uv = plainAccessor(m.uv0, TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_VEC2);
            pa.indices = indexAccessor(m.indices, m.positions.size());
            pa.vertices = m.positions.size();
            pa.triangles = m.indices.size() / 3;
        }
        tinygltf::Primitive prim;
        prim.mode = TINYGLTF_MODE_TRIANGLES;
        prim.attributes["POSITION"] = pa.position;
        prim.attributes["NORMAL"] = pa.normal;
        prim.attributes["TEXCOORD_0"] = pa.uv;
        prim.indices = pa.indices;
        prim.material = mat;
        return prim;
    }

    // A decal's material: its image tinted by Color3 (sRGB), alpha 1 - Transparency, blended
    // (decal images have transparent parts); the part's Material roughness. -1 when the image
    // cannot be embedded.
    std::map<std::tuple<int, std::uint32_t, std::int64_t>, int> decalMaterials_;
    int decalMaterial(const PartDecal& d, const PartInstance& p) {
        const int tex = texture(d.image);
        if (tex < 0) return -1;
        auto byte = [](float f) {
            return std::uint8_t(std::lround(std::clamp(f, 0.0f, 1.0f) * 255));
        };
        const Rgba8 c{byte(d.color.x), byte(d.color.y), byte(d.color.z),
                      byte(1.0f - d.transparency)};
        const auto key = std::make_tuple(
            tex,
            std::uint32_t(c.r) << 24 | std::uint32_t(c.g) << 16 | std::uint32_t(c.b) << 8 | c.a,
            p.material);
        if (auto it = decalMaterials_.find(key); it != decalMaterials_.end()) return it->second;
        const auto look = robloxMaterialLook(p.material);
        tinygltf::Material m;
        m.name = (d.tiled ? "Texture " : "Decal ") +
                 validUtf8(std::filesystem::path(d.image.path).filename().string());
        if (c.r != 255 || c.g != 255 || c.b != 255)
            m.name += " tint " + std::to_string(c.r) + " " + std::to_string(c.g) + " " +
                      std::to_string(c.b);
        if (c.a < 255) m.name += " alpha " + std::to_string(c.a);
        m.alphaMode = "BLEND";
        m.pbrMetallicRoughness.baseColorFactor = {linear(c.r), linear(c.g), linear(c.b),
                                                  c.a / 255.0};
        m.pbrMetallicRoughness.baseColorTexture.index = tex;
        m.pbrMetallicRoughness.metallicFactor = 0;
        m.pbrMetallicRoughness.roughnessFactor = look ? look->roughness : 0.8;
        model.materials.push_back(std::move(m));
        return decalMaterials_[key] = int(model.materials.size()) - 1;
    }

    // A box part's mesh: the shared box primitive, and one quad primitive per decal on its face.
    // Returns the number of decal quads written in `decals`.
    int partMesh(const PartInstance& part, std::size_t& decals) {
        const PartShape shape = part.shape;
        const int mat = material(part);
        decals = 0;
        if (part.decals.empty())
            if (auto it = partMeshes_.find({shape, mat}); it != partMeshes_.end())
                return it->second;
        tinygltf::Mesh gm;
        gm.name = partShapeName(shape);
        gm.primitives.push_back(shapePrimitive(shape, mat));
        for (const PartDecal& d : part.decals) {
            const int dm = decalMaterial(d, part);
            const Mesh q = decalQuad(d, part.size);
            if (dm < 0 || q.positions.empty()) continue;
            tinygltf::Primitive prim;
            prim.mode = TINYGLTF_MODE_TRIANGLES;
            prim.attributes["POSITION"] = vec3Accessor(q.positions, true);
            prim.attributes["NORMAL"] = vec3Accessor(q.normals, false);
            prim.attributes["TEXCOORD_0"] =
                plainAccessor(q.uv0, TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_VEC2);
            prim.indices = indexAccessor(q.indices, q.positions.size());
            prim.material = dm;
            gm.primitives.push_back(std::move(prim));
            ++decals;
        }
        if (decals) gm.name = part.name;
        model.meshes.push_back(std::move(gm));
        const int index = int(model.meshes.size()) - 1;
        if (!decals) partMeshes_[{shape, mat}] = index;
        return index;
    }

    // A union's decoded geometry or a MeshPart / SpecialMesh's resolved mesh (one glTF mesh per
    // part, already fitted to it): the part's colour as material, or white with the blob's
    // colours as COLOR_0 when a union's UsePartColor is false.
    int unionMesh(const PartInstance& p) {
        const Mesh& m = *p.mesh;
        tinygltf::Primitive prim;
        prim.mode = TINYGLTF_MODE_TRIANGLES;
        prim.attributes["POSITION"] = vec3Accessor(m.positions, true);
        PartInstance look = p;  // the part's Material; white under the blob's own colours
        if (m.normals.size() == m.positions.size()) {
            const std::vector<Vec3> normals = cleanNormals(m, p.name, result_.warnings);
            prim.attributes["NORMAL"] = vec3Accessor(normals, false);
            // A normal map needs a tangent space: the mesh's tangents, else made from its UVs.
            if (p.normalMap.ok()) {
                Mesh withTangents;
                withTangents.tangents =
                    m.tangents.size() == m.positions.size() ? m.tangents : uvTangents(m);
                std::vector<std::string> quiet;  // degenerate ones (at UV seams) are expected
                if (withTangents.tangents.empty())
                    look.normalMap = {};
                else
                    prim.attributes["TANGENT"] =
                        plainAccessor(cleanTangents(withTangents, normals, p.name, quiet),
                                      TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_VEC4);
            }
        } else {
            look.normalMap = {};  // no normals, no tangent space
        }
        if (m.uv0.size() == m.positions.size())
            prim.attributes["TEXCOORD_0"] =
                plainAccessor(cleanUvs(m.uv0), TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_VEC2);
        else if (p.colorMap.ok() || p.normalMap.ok() || p.roughnessMap.ok() || p.metalnessMap.ok())
            // A texture needs coordinates: a mesh without UVs samples one texel.
            prim.attributes["TEXCOORD_0"] =
                plainAccessor(std::vector<Vec2>(m.positions.size()), TINYGLTF_COMPONENT_TYPE_FLOAT,
                              TINYGLTF_TYPE_VEC2);
        if (p.vertexColors && m.colors.size() == m.positions.size())
            prim.attributes["COLOR_0"] = plainAccessor(
                m.colors, TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE, TINYGLTF_TYPE_VEC4, true);
        prim.indices = indexAccessor(m.indices, m.positions.size());
        if (p.vertexColors) look.color = Rgba8{255, 255, 255, p.color.a};
        prim.material = material(look);
        tinygltf::Mesh gm;
        gm.name = p.name;
        gm.primitives.push_back(std::move(prim));
        model.meshes.push_back(std::move(gm));
        return int(model.meshes.size()) - 1;
    }

    // A part that is a bone of an exported skeleton (a Roblox rig part, linked by
    // addRigSkeleton) hangs under its joint node with its placement relative to the bone, so
    // that the skeleton's animations move it. Returns the parent node to use.
    int underJoint(const PartInstance& p, tinygltf::Node& n, int parent) {
        const NodeLinks& l = asset_.links(p.node);
        if (l.skeleton < 0 || std::size_t(l.skeleton) >= skeletons_.size() || l.bone < 0)
            return parent;
        const SkeletonNodes& sn = skeletons_[std::size_t(l.skeleton)];
        const auto b = std::size_t(l.bone);
        if (b >= sn.joints.size() || b >= sn.world.size() || sn.joints[b] < 0) return parent;
        const Mat4 local =
            affine(inverse(sn.world[b]) * affine(axes_.matrix(cframeMatrix(p.cframe))));
        for (float v : local.m)
            if (!std::isfinite(v)) return parent;
        n.translation.clear();
        n.rotation.clear();
        if (Vec3{local.at(0, 3), local.at(1, 3), local.at(2, 3)} != Vec3{})
            n.translation = {local.at(0, 3), local.at(1, 3), local.at(2, 3)};
        float r[3][3];
        for (int row = 0; row < 3; ++row)
            for (int col = 0; col < 3; ++col) r[row][col] = local.at(row, col);
        const auto q = quaternionOf(r);
        if (!(q[0] == 0 && q[1] == 0 && q[2] == 0)) n.rotation = q;
        ++result_.stats.rigParts;
        return sn.joints[b];
    }

    void addParts(const PartTree& tree) {
        if (tree.parts.empty()) return;
        std::vector<int> nodeOf(tree.nodes.size(), -1);
        for (std::size_t i = 0; i < tree.nodes.size(); ++i) {
            const PartTreeNode& tn = tree.nodes[i];
            tinygltf::Node n;
            if (tn.part < 0) {
                n.name = validUtf8(asset_.nameOrKind(tn.node));
            } else {
                const PartInstance& p = tree.parts[std::size_t(tn.part)];
                n.name = p.name;
                std::size_t decals = 0;
                n.mesh = p.mesh ? unionMesh(p) : partMesh(p, decals);
                if (p.cframe.position != Vec3{})
                    n.translation = {p.cframe.position.x, p.cframe.position.y, p.cframe.position.z};
                float r[3][3];
                bool rotationOk = true;
                for (int row = 0; row < 3; ++row)
                    for (int col = 0; col < 3; ++col) {
                        r[row][col] = p.cframe.rotation[std::size_t(row * 3 + col)];
                        rotationOk = rotationOk && std::isfinite(r[row][col]);
                    }
                if (rotationOk) {
                    const auto q = quaternionOf(r);
                    if (!(q[0] == 0 && q[1] == 0 && q[2] == 0)) n.rotation = q;
                }
                if (p.mesh) {
                    // The union's mesh is already fitted to Size.
                    result_.stats.vertices += p.mesh->positions.size();
                    result_.stats.triangles += p.mesh->indices.size() / 3;
                } else {
                    const Vec3 s = partShapeScale(p.shape, p.size);
                    n.scale = {s.x, s.y, s.z};
                    const PrimitiveAccessors& pa = primitives_[p.shape];
                    result_.stats.vertices += pa.vertices + 4 * decals;
                    result_.stats.triangles += pa.triangles + 2 * decals;
                }
                ++result_.stats.parts;
            }
            int parent = tn.parent < 0 ? -1 : nodeOf[std::size_t(tn.parent)];
            if (tn.part >= 0 && tn.children.empty())
                parent = underJoint(tree.parts[std::size_t(tn.part)], n, parent);
            nodeOf[i] = addNode(std::move(n), parent);
        }
    }

    const Asset& asset_;
    const ExportOptions& options_;
    ExportResult& result_;
};

bool buildModel(const Asset& asset, const ExportOptions& options, ExportResult& result,
                tinygltf::Model& model) {
    GltfBuilder builder(asset, options, result);
    builder.build();
    model = std::move(builder.model);
    return true;
}

}  // namespace

std::optional<ExportFormat> parseExportFormat(std::string_view name) {
    std::string lower(name);
    for (char& c : lower) c = char(std::tolower(static_cast<unsigned char>(c)));
    if (lower == "glb") return ExportFormat::Glb;
    if (lower == "gltf") return ExportFormat::Gltf;
    if (lower == "obj") return ExportFormat::Obj;
    return std::nullopt;
}

const char* exportFormatName(ExportFormat format) {
    switch (format) {
        case ExportFormat::Glb:
            return "glb";
        case ExportFormat::Gltf:
            return "gltf";
        case ExportFormat::Obj:
            return "obj";
    }
    return "glb";
}

std::vector<std::string> exportFilePaths(const std::string& path, ExportFormat format) {
    std::vector<std::string> files{path};
    if (format == ExportFormat::Glb) return files;
    const std::filesystem::path p(path);
    const std::string sidecar =
        safeFileStem(p.stem().string()) + (format == ExportFormat::Gltf ? ".bin" : ".mtl");
    files.push_back((p.parent_path() / sidecar).string());
    return files;
}

GlbBytes exportGlb(const Asset& asset, const ExportOptions& options) {
    GlbBytes out;
    try {
        tinygltf::Model model;
        buildModel(asset, options, out.report, model);
        std::ostringstream os(std::ios::binary);
        tinygltf::TinyGLTF writer;
        if (!writer.WriteGltfSceneToStream(&model, os, false, true))
            throw std::runtime_error("tinygltf could not write the binary glTF");
        const std::string s = os.str();
        out.bytes.assign(s.begin(), s.end());
    } catch (const std::exception& e) {
        out.bytes.clear();
        out.report.error = std::string("glTF export failed: ") + e.what();
    } catch (...) {
        out.bytes.clear();
        out.report.error = "glTF export failed";
    }
    return out;
}

ExportResult exportAsset(const Asset& asset, const std::string& path,
                         const ExportOptions& options) {
    if (options.format == ExportFormat::Obj) return exporting::exportObj(asset, path, options);
    ExportResult result;
    try {
        const auto files = exportFilePaths(path, options.format);
        if (options.format == ExportFormat::Glb) {
            GlbBytes glb = exportGlb(asset, options);
            result = std::move(glb.report);
            if (!result.ok()) return result;
            std::ofstream f(path, std::ios::binary | std::ios::trunc);
            f.write(reinterpret_cast<const char*>(glb.bytes.data()),
                    std::streamsize(glb.bytes.size()));
            f.close();
            if (!f) throw std::runtime_error("cannot write " + path);
            result.files = files;
            return result;
        }
        tinygltf::Model model;
        buildModel(asset, options, result, model);
        // A model with no binary data (an animation-only or skeleton-only asset) has no buffer
        // (buildModel drops an empty one): nothing to name, and no .bin is written.
        const bool hasBuffer = !model.buffers.empty();
        if (hasBuffer) model.buffers[0].uri = std::filesystem::path(files[1]).filename().string();
        tinygltf::TinyGLTF writer;
        if (!writer.WriteGltfSceneToFile(&model, path, false, false, true, false))
            throw std::runtime_error("cannot write " + path + (hasBuffer ? " or " + files[1] : ""));
        result.files = files;
        if (!hasBuffer) result.files.resize(1);
    } catch (const std::exception& e) {
        result.error = std::string("glTF export failed: ") + e.what();
    } catch (...) {
        result.error = "glTF export failed";
    }
    return result;
}

}  // namespace meshscope
