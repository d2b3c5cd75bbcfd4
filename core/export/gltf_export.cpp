// glTF 2.0 export through tinygltf: meshes (one glTF mesh and node per LOD), skeletons as joint
// hierarchies with skins, FACS controls as morph targets, and model parts as nodes carrying their
// CFrames. See export.h for what is written; exportAsset() and exportGlb() are the entry points
// (exportAsset also dispatches OBJ to obj_export.cpp).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "export/export_internal.h"
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
        model.asset.version = "2.0";
        model.asset.generator = std::string("Meshscope ") + version();
        model.buffers.resize(1);
        model.scenes.resize(1);
        model.defaultScene = 0;
        const PartTree parts = collectParts(asset_, result_.warnings);
        // tinygltf::Node is large: reserve so that growing the vector never moves them all.
        std::size_t nodes = parts.nodes.size();
        for (const Skeleton& s : asset_.skeletons) nodes += s.bones.size();
        for (const Mesh& m : asset_.meshes) nodes += std::max<std::size_t>(1, m.lods.size());
        model.nodes.reserve(nodes);
        for (std::size_t s = 0; s < asset_.skeletons.size(); ++s) addSkeleton(int(s));
        for (std::size_t m = 0; m < asset_.meshes.size(); ++m) addMesh(int(m));
        addParts(parts);
        if (!asset_.animations.empty())
            result_.warnings.push_back(std::to_string(asset_.animations.size()) +
                                       " animation(s) not exported");
        result_.stats.nodes = model.nodes.size();
        result_.stats.meshes = model.meshes.size();
        result_.stats.skins = model.skins.size();
        if (model.nodes.empty())
            throw std::runtime_error(
                "nothing to export: the file holds no meshes, skeletons or visible parts");
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
        if (parent < 0)
            model.scenes[0].nodes.push_back(index);
        else
            model.nodes[std::size_t(parent)].children.push_back(index);
        return index;
    }

    // -- skeletons -------------------------------------------------------------------------------

    struct SkeletonNodes {
        std::vector<int> joints;  // node per bone
        int root = -1;            // the single root bone's node, or -1
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
        }
        auto& nodes = skeletons_.back().joints;
        nodes.assign(sk.bones.size(), -1);
        int roots = 0;
        for (int b : order.order) {
            const int parent = order.parent[std::size_t(b)];
            tinygltf::Node n;
            n.name = validUtf8(sk.bones[std::size_t(b)].name);
            const Mat4 local = parent < 0
                                   ? world[std::size_t(b)]
                                   : inverse(world[std::size_t(parent)]) * world[std::size_t(b)];
            setTransform(n, local);
            nodes[std::size_t(b)] =
                addNode(std::move(n), parent < 0 ? -1 : nodes[std::size_t(parent)]);
            if (parent < 0) {
                ++roots;
                skeletons_.back().root = nodes[std::size_t(b)];
            }
        }
        if (roots != 1) skeletons_.back().root = -1;
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
            ibm[b] = m;
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

    // -- meshes ----------------------------------------------------------------------------------

    struct Facs {
        std::vector<std::string> names;
        std::vector<std::vector<Vec3>> deltas;  // per control, per vertex
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

    void addMesh(int mi) {
        const Mesh& mesh = asset_.meshes[std::size_t(mi)];
        const std::string name = meshName(asset_, mi);
        auto& warn = result_.warnings;
        const std::size_t nv = mesh.positions.size();
        if (nv == 0 || mesh.indices.empty()) {
            warn.push_back("mesh \"" + name + "\" has no vertices or no faces: not exported");
            return;
        }
        auto sized = [&](std::size_t n, const char* what) {
            if (n == 0 || n == nv) return n == nv;
            warn.push_back("mesh \"" + name + "\": " + what + " has " + std::to_string(n) +
                           " entries for " + std::to_string(nv) + " vertices: dropped");
            return false;
        };
        const std::vector<Vec3> positions = cleanPositions(mesh, name, warn);
        std::vector<Vec3> normals;
        if (sized(mesh.normals.size(), "the normal stream"))
            normals = cleanNormals(mesh, name, warn);
        std::vector<Vec4> tangents;
        if (sized(mesh.tangents.size(), "the tangent stream")) {
            if (normals.empty())
                warn.push_back("mesh \"" + name + "\": tangents without normals dropped");
            else
                tangents = cleanTangents(mesh, normals, name, warn);
        }
        std::vector<Vec2> uv0, uv1;
        if (sized(mesh.uv0.size(), "UV set 0")) uv0 = cleanUvs(mesh.uv0);
        if (sized(mesh.uv1.size(), "UV set 1")) uv1 = cleanUvs(mesh.uv1);
        const bool colors = sized(mesh.colors.size(), "the colour stream");

        if (mesh.primitive == Primitive::Lines) {
            addLines(mesh, name, positions, colors);
            return;
        }

        // Skin: joints index the skeleton's bones, which are the skin's joints in order.
        const bool hasSkeleton = mesh.skeleton >= 0 &&
                                 std::size_t(mesh.skeleton) < asset_.skeletons.size() &&
                                 !asset_.skeletons[std::size_t(mesh.skeleton)].bones.empty();
        bool skinned = false;
        std::vector<std::array<std::uint16_t, 4>> joints;
        std::vector<Vec4> weights;
        if (!mesh.skin.empty()) {
            if (!hasSkeleton)
                warn.push_back("mesh \"" + name + "\": skin weights without a skeleton dropped");
            else if (sized(mesh.skin.size(), "the skin"))
                skinned = true;
        }
        if (skinned) {
            const Skeleton& sk = asset_.skeletons[std::size_t(mesh.skeleton)];
            const std::size_t bones = sk.bones.size();
            if (bones > 0xFFFF) {
                warn.push_back("mesh \"" + name + "\": more than 65535 bones, skin dropped");
                skinned = false;
            } else {
                const BoneOrder order = boneOrder(sk);
                const auto root = std::uint16_t(order.order.empty() ? 0 : order.order.front());
                std::size_t unweighted = 0, badJoints = 0;
                joints.resize(nv);
                weights.resize(nv);
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
                        joints[v][std::size_t(k)] = w[k] > 0 ? j : 0;
                        sum += w[k];
                    }
                    if (!(sum > 0)) {
                        ++unweighted;
                        joints[v] = {root, 0, 0, 0};
                        weights[v] = {1, 0, 0, 0};
                    } else {
                        weights[v] = {w[0] / sum, w[1] / sum, w[2] / sum, w[3] / sum};
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
        const int skin = skinned ? skinFor(mesh.skeleton) : -1;
        const Facs facs = facsTargets(mesh, name, skinned);

        const std::vector<LodSlice> slices = selectLods(asset_, mi, options_.lod, warn);
        const bool multi = mesh.lods.size() > 1;
        for (const LodSlice& slice : slices) {
            const std::vector<std::uint32_t> idx = sliceIndices(mesh, slice);
            if (idx.empty()) {
                warn.push_back("mesh \"" + name + "\" " + slice.name +
                               " has no triangles: not exported");
                continue;
            }
            const std::size_t count = sliceVertexCount(mesh, slice);
            tinygltf::Primitive prim;
            prim.mode = TINYGLTF_MODE_TRIANGLES;
            prim.attributes["POSITION"] = vec3Accessor(gather(positions, slice), true);
            if (!normals.empty())
                prim.attributes["NORMAL"] = vec3Accessor(gather(normals, slice), false);
            if (!tangents.empty())
                prim.attributes["TANGENT"] = plainAccessor(
                    gather(tangents, slice), TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_VEC4);
            if (!uv0.empty())
                prim.attributes["TEXCOORD_0"] = plainAccessor(
                    gather(uv0, slice), TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_VEC2);
            if (!uv1.empty())
                prim.attributes["TEXCOORD_1"] = plainAccessor(
                    gather(uv1, slice), TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_VEC2);
            if (colors) {
                prim.attributes["COLOR_0"] =
                    plainAccessor(gather(mesh.colors, slice), TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE,
                                  TINYGLTF_TYPE_VEC4, true);
                // Translucent vertex colours (a place's water surface) need a blended material.
                if (std::any_of(mesh.colors.begin(), mesh.colors.end(),
                                [](Rgba8 c) { return c.a < 255; }))
                    prim.material = blendMaterial();
            }
            if (skinned) {
                prim.attributes["JOINTS_0"] =
                    plainAccessor(gather(joints, slice), TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT,
                                  TINYGLTF_TYPE_VEC4);
                prim.attributes["WEIGHTS_0"] = plainAccessor(
                    gather(weights, slice), TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_VEC4);
                result_.stats.skinnedVertices += count;
            }
            for (const auto& d : facs.deltas)
                prim.targets.push_back({{"POSITION", vec3Accessor(gather(d, slice), true)}});
            prim.indices = indexAccessor(idx, count);

            tinygltf::Mesh gm;
            gm.name = multi || slices.size() > 1 ? name + " " + slice.name : name;
            gm.primitives.push_back(std::move(prim));
            if (!facs.names.empty()) {
                gm.weights.assign(facs.names.size(), 0.0);
                tinygltf::Value::Array names;
                for (const auto& n : facs.names) names.emplace_back(n);
                tinygltf::Value::Object extras;
                extras["targetNames"] = tinygltf::Value(std::move(names));
                gm.extras = tinygltf::Value(std::move(extras));
                result_.stats.morphTargets += facs.names.size();
            }
            tinygltf::Node node;
            node.name = gm.name;
            model.meshes.push_back(std::move(gm));
            node.mesh = int(model.meshes.size()) - 1;
            node.skin = skin;
            addNode(std::move(node), -1);
            result_.stats.vertices += count;
            result_.stats.triangles += idx.size() / 3;
        }
    }

    void addLines(const Mesh& mesh, const std::string& name, const std::vector<Vec3>& positions,
                  bool colors) {
        const std::size_t nv = positions.size();
        std::vector<std::uint32_t> idx;
        idx.reserve(mesh.indices.size());
        std::size_t bad = 0;
        for (std::size_t i = 0; i + 1 < mesh.indices.size(); i += 2) {
            if (mesh.indices[i] >= nv || mesh.indices[i + 1] >= nv) {
                ++bad;
                continue;
            }
            idx.push_back(mesh.indices[i]);
            idx.push_back(mesh.indices[i + 1]);
        }
        if (bad)
            result_.warnings.push_back(
                "line mesh \"" + name + "\": " + std::to_string(bad) +
                " segment(s) with an index beyond the vertex count left out");
        if (idx.empty()) {
            result_.warnings.push_back("line mesh \"" + name + "\" has no segments: not exported");
            return;
        }
        tinygltf::Primitive prim;
        prim.mode = TINYGLTF_MODE_LINE;
        prim.attributes["POSITION"] = vec3Accessor(positions, true);
        if (colors)
            prim.attributes["COLOR_0"] = plainAccessor(
                mesh.colors, TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE, TINYGLTF_TYPE_VEC4, true);
        prim.indices = indexAccessor(idx, nv);
        tinygltf::Mesh gm;
        gm.name = name;
        gm.primitives.push_back(std::move(prim));
        model.meshes.push_back(std::move(gm));
        tinygltf::Node node;
        node.name = name;
        node.mesh = int(model.meshes.size()) - 1;
        addNode(std::move(node), -1);
        result_.stats.vertices += nv;
        result_.stats.lines += idx.size() / 2;
    }

    // -- model parts -----------------------------------------------------------------------------

    struct PrimitiveAccessors {
        int position = -1, normal = -1, uv = -1, indices = -1;
        std::size_t vertices = 0, triangles = 0;
    };
    std::map<PartShape, PrimitiveAccessors> primitives_;
    std::map<std::uint32_t, int> materials_;               // packed RGBA → material
    std::map<std::pair<PartShape, int>, int> partMeshes_;  // (shape, material) → mesh

    static double linear(std::uint8_t c) {
        const double s = c / 255.0;
        return s <= 0.04045 ? s / 12.92 : std::pow((s + 0.055) / 1.055, 2.4);
    }

    int material(Rgba8 c) {
        const std::uint32_t key =
            std::uint32_t(c.r) << 24 | std::uint32_t(c.g) << 16 | std::uint32_t(c.b) << 8 | c.a;
        if (auto it = materials_.find(key); it != materials_.end()) return it->second;
        tinygltf::Material m;
        char name[32];
        std::snprintf(name, sizeof name, "Color %u %u %u", unsigned(c.r), unsigned(c.g),
                      unsigned(c.b));
        m.name = name;
        if (c.a < 255) {
            m.name += " alpha " + std::to_string(c.a);
            m.alphaMode = "BLEND";
        }
        // Part colours are sRGB; glTF factors are linear.
        m.pbrMetallicRoughness.baseColorFactor = {linear(c.r), linear(c.g), linear(c.b),
                                                  c.a / 255.0};
        m.pbrMetallicRoughness.metallicFactor = 0.0;
        m.pbrMetallicRoughness.roughnessFactor = 0.8;
        model.materials.push_back(std::move(m));
        materials_[key] = int(model.materials.size()) - 1;
        return materials_[key];
    }

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

    int partMesh(PartShape shape, Rgba8 color) {
        const int mat = material(color);
        if (auto it = partMeshes_.find({shape, mat}); it != partMeshes_.end()) return it->second;
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
        tinygltf::Mesh gm;
        gm.name = partShapeName(shape);
        gm.primitives.push_back(std::move(prim));
        model.meshes.push_back(std::move(gm));
        const int index = int(model.meshes.size()) - 1;
        partMeshes_[{shape, mat}] = index;
        return index;
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
                n.mesh = partMesh(p.shape, p.color);
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
                const Vec3 s = partShapeScale(p.shape, p.size);
                n.scale = {s.x, s.y, s.z};
                const PrimitiveAccessors& pa = primitives_[p.shape];
                result_.stats.vertices += pa.vertices;
                result_.stats.triangles += pa.triangles;
                ++result_.stats.parts;
            }
            const int parent = tn.parent < 0 ? -1 : nodeOf[std::size_t(tn.parent)];
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
        model.buffers[0].uri = std::filesystem::path(files[1]).filename().string();
        tinygltf::TinyGLTF writer;
        if (!writer.WriteGltfSceneToFile(&model, path, false, false, true, false))
            throw std::runtime_error("cannot write " + path + " or " + files[1]);
        result.files = files;
    } catch (const std::exception& e) {
        result.error = std::string("glTF export failed: ") + e.what();
    } catch (...) {
        result.error = "glTF export failed";
    }
    return result;
}

}  // namespace meshscope
