// glTF export of generated assets, read back with tinygltf: vertex, triangle, joint, weight and
// morph-target counts, the vertex data itself, skins (joints, inverse bind matrices, normalized
// weights), one mesh per LOD, FACS controls as morph targets with the correctives reported, and
// the .gltf + .bin pair. `assimp info` (when installed) must report the same counts.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <sstream>

#include "blender_util.h"
#include "export_test_util.h"
#include "gltf_validator_util.h"
#include "meshscope/core/decode.h"
#include "meshscope/core/export.h"
#include "meshscope/core/mesh_generators.h"
#include "meshscope/core/pose.h"
#include "meshscope/core/unigine_writer.h"
#include "support/test_support.h"

using namespace meshscope;
using namespace meshscope::test;

namespace {

// Every level and physics shape: what expectedMeshCounts(asset) counts.
ExportOptions everything() {
    ExportOptions o;
    o.allLods = true;
    o.physics = true;
    return o;
}

tinygltf::Model roundTrip(const Asset& asset, ExportResult* report = nullptr,
                          ExportOptions options = everything()) {
    const GlbBytes glb = exportGlb(asset, options);
    EXPECT_TRUE(glb.report.ok()) << glb.report.error.value_or("");
    tinygltf::Model model;
    std::string err;
    EXPECT_TRUE(loadGlb(glb.bytes, model, err)) << err;
    if (report) *report = glb.report;
    return model;
}

bool hasWarning(const ExportResult& r, const std::string& needle) {
    for (const auto& w : r.warnings)
        if (w.find(needle) != std::string::npos) return true;
    return false;
}

}  // namespace

TEST(GltfExport, UvSphereKeepsEveryStreamExactly) {
    const Asset a = makeUvSphere(6, 8);
    const Mesh& src = a.meshes[0];
    ExportResult report;
    const auto m = roundTrip(a, &report);
    EXPECT_EQ(gltfCounts(m), expectedMeshCounts(a));
    ASSERT_EQ(m.meshes.size(), 1u);
    const auto& p = m.meshes[0].primitives[0];
    EXPECT_EQ(p.mode, TINYGLTF_MODE_TRIANGLES);
    for (const char* attr : {"POSITION", "NORMAL", "TEXCOORD_0", "TANGENT", "COLOR_0"})
        EXPECT_TRUE(p.attributes.contains(attr)) << attr;
    EXPECT_FALSE(p.attributes.contains("JOINTS_0"));
    EXPECT_EQ(accessorData<Vec3>(m, p.attributes.at("POSITION")), src.positions);
    EXPECT_EQ(accessorData<Vec2>(m, p.attributes.at("TEXCOORD_0")), src.uv0);
    EXPECT_EQ(accessorData<Rgba8>(m, p.attributes.at("COLOR_0")), src.colors);
    EXPECT_TRUE(m.accessors[std::size_t(p.attributes.at("COLOR_0"))].normalized);
    const auto normals = accessorData<Vec3>(m, p.attributes.at("NORMAL"));
    for (std::size_t i = 0; i < normals.size(); ++i) {
        EXPECT_NEAR(normals[i].x, src.normals[i].x, 1e-5f);
        EXPECT_NEAR(normals[i].y, src.normals[i].y, 1e-5f);
    }
    for (const Vec4& t : accessorData<Vec4>(m, p.attributes.at("TANGENT")))
        EXPECT_TRUE(t.w == 1.0f || t.w == -1.0f);
    // Indices: same triangles (16-bit since the sphere has fewer than 65536 vertices).
    const auto& ia = m.accessors[std::size_t(p.indices)];
    ASSERT_EQ(ia.componentType, TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT);
    const auto idx = accessorData<std::uint16_t>(m, p.indices);
    ASSERT_EQ(idx.size(), src.indices.size());
    for (std::size_t i = 0; i < idx.size(); ++i) ASSERT_EQ(idx[i], src.indices[i]);
    // POSITION min/max are the mesh bounds (required by glTF).
    const auto& pa = m.accessors[std::size_t(p.attributes.at("POSITION"))];
    ASSERT_EQ(pa.minValues.size(), 3u);
    EXPECT_FLOAT_EQ(float(pa.minValues[1]), src.bounds.min.y);
    EXPECT_FLOAT_EQ(float(pa.maxValues[0]), src.bounds.max.x);
    EXPECT_EQ(m.asset.version, "2.0");
}

TEST(GltfExport, SkinnedCylinderHasSkinJointsAndNormalizedWeights) {
    const Asset a = makeSkinnedCylinder(4);
    const Skeleton& sk = a.skeletons[0];
    const auto m = roundTrip(a);
    EXPECT_EQ(gltfCounts(m), expectedMeshCounts(a));
    ASSERT_EQ(m.skins.size(), 1u);
    const auto& skin = m.skins[0];
    ASSERT_EQ(skin.joints.size(), sk.bones.size());
    for (std::size_t b = 0; b < sk.bones.size(); ++b)
        EXPECT_EQ(m.nodes[std::size_t(skin.joints[b])].name, sk.bones[b].name);
    // Bone0 is the single root, and Bone1 is its child node.
    EXPECT_EQ(skin.skeleton, skin.joints[0]);
    const auto& root = m.nodes[std::size_t(skin.joints[0])];
    ASSERT_EQ(root.children.size(), 1u);
    EXPECT_EQ(root.children[0], skin.joints[1]);
    // Inverse bind matrices: inverse of each bone's bind transform.
    const auto ibm = accessorData<Mat4>(m, skin.inverseBindMatrices);
    ASSERT_EQ(ibm.size(), sk.bones.size());
    for (std::size_t b = 0; b < ibm.size(); ++b) {
        const Mat4 product = ibm[b] * sk.bones[b].world;
        for (int k = 0; k < 16; ++k)
            EXPECT_NEAR(product.m[std::size_t(k)], Mat4::identity().m[std::size_t(k)], 1e-4f);
    }
    // The mesh node uses the skin; weights sum to 1 and joints match the source influences.
    const tinygltf::Node* meshNode = nullptr;
    for (const auto& n : m.nodes)
        if (n.mesh >= 0) meshNode = &n;
    ASSERT_NE(meshNode, nullptr);
    EXPECT_EQ(meshNode->skin, 0);
    const auto& p = m.meshes[std::size_t(meshNode->mesh)].primitives[0];
    const auto joints = accessorData<std::array<std::uint16_t, 4>>(m, p.attributes.at("JOINTS_0"));
    const auto weights = accessorData<Vec4>(m, p.attributes.at("WEIGHTS_0"));
    ASSERT_EQ(weights.size(), a.meshes[0].skin.size());
    for (std::size_t v = 0; v < weights.size(); ++v) {
        EXPECT_NEAR(weights[v].x + weights[v].y + weights[v].z + weights[v].w, 1.0f, 1e-5f);
        const auto& in = a.meshes[0].skin[v];
        for (int k = 0; k < 4; ++k)
            if (in.weights[std::size_t(k)] > 0) {
                EXPECT_EQ(joints[v][std::size_t(k)], in.joints[std::size_t(k)]);
            }
    }
    // Bone nodes carry the bind pose: the joint world transforms reproduce Bone::world.
    std::vector<Mat4> world(sk.bones.size());
    for (std::size_t b = 0; b < sk.bones.size(); ++b) {
        const auto& n = m.nodes[std::size_t(skin.joints[b])];
        Mat4 local = translationMatrix(
            n.translation.empty()
                ? Vec3{}
                : Vec3{float(n.translation[0]), float(n.translation[1]), float(n.translation[2])});
        if (!n.rotation.empty()) {
            const float x = float(n.rotation[0]), y = float(n.rotation[1]),
                        z = float(n.rotation[2]), w = float(n.rotation[3]);
            Mat4 r;
            r.at(0, 0) = 1 - 2 * (y * y + z * z);
            r.at(0, 1) = 2 * (x * y - z * w);
            r.at(0, 2) = 2 * (x * z + y * w);
            r.at(1, 0) = 2 * (x * y + z * w);
            r.at(1, 1) = 1 - 2 * (x * x + z * z);
            r.at(1, 2) = 2 * (y * z - x * w);
            r.at(2, 0) = 2 * (x * z - y * w);
            r.at(2, 1) = 2 * (y * z + x * w);
            r.at(2, 2) = 1 - 2 * (x * x + y * y);
            local = local * r;
        }
        world[b] = sk.bones[b].parent < 0 ? local : world[std::size_t(sk.bones[b].parent)] * local;
        for (int k = 0; k < 16; ++k)
            EXPECT_NEAR(world[b].m[std::size_t(k)], sk.bones[b].world.m[std::size_t(k)], 1e-4f)
                << b;
    }
}

TEST(GltfExport, OnlyTheChosenLodUnlessAllLodsThenMsftLodAlternates) {
    const Asset a = makeLodSphere(3);
    // By default LOD 0 alone.
    const auto m0 = roundTrip(a, nullptr, ExportOptions{});
    EXPECT_EQ(gltfCounts(m0), expectedMeshCounts(a, 0));
    EXPECT_EQ(m0.meshes.size(), 1u);
    EXPECT_TRUE(m0.extensionsUsed.empty());
    // --all-lods: every level is its own mesh; LOD 0's node is in the scene and names the
    // others (outside the scene) through MSFT_lod.
    const auto m = roundTrip(a);
    EXPECT_EQ(gltfCounts(m), expectedMeshCounts(a));
    ASSERT_EQ(m.meshes.size(), 3u);
    for (int l = 0; l < 3; ++l) {
        const std::string name = "LOD" + std::to_string(l);
        bool found = false;
        for (const auto& n : m.nodes) found = found || (n.mesh >= 0 && n.name.ends_with(name));
        EXPECT_TRUE(found) << name;
        // Each level holds exactly the triangles of its range.
        const auto& p = m.meshes[std::size_t(l)].primitives[0];
        EXPECT_EQ(m.accessors[std::size_t(p.indices)].count,
                  std::size_t(a.meshes[0].lods[std::size_t(l)].triangleCount) * 3);
    }
    ASSERT_EQ(m.scenes[0].nodes.size(), 1u);
    const auto& top = m.nodes[std::size_t(m.scenes[0].nodes[0])];
    EXPECT_TRUE(top.name.ends_with("LOD0"));
    ASSERT_TRUE(top.extensions.contains("MSFT_lod"));
    const auto& ids = top.extensions.at("MSFT_lod").Get("ids");
    ASSERT_EQ(ids.ArrayLen(), 2u);
    EXPECT_TRUE(m.nodes[std::size_t(ids.Get(0).GetNumberAsInt())].name.ends_with("LOD1"));
    EXPECT_TRUE(m.nodes[std::size_t(ids.Get(1).GetNumberAsInt())].name.ends_with("LOD2"));
    EXPECT_EQ(top.extras.Get("MSFT_screencoverage").ArrayLen(), 3u);
    EXPECT_EQ(m.extensionsUsed, std::vector<std::string>{"MSFT_lod"});
    // --lod 1 exports only that level.
    ExportOptions one;
    one.lod = 1;
    const auto m1 = roundTrip(a, nullptr, one);
    EXPECT_EQ(gltfCounts(m1), expectedMeshCounts(a, 1));
    EXPECT_EQ(m1.meshes.size(), 1u);
    // A level beyond the last gives the last, with one warning.
    ExportResult report;
    one.lod = 9;
    const auto m9 = roundTrip(a, &report, one);
    EXPECT_EQ(gltfCounts(m9), expectedMeshCounts(a, 2));
    EXPECT_TRUE(hasWarning(report, "LOD 2 written instead of LOD 9"));
}

TEST(GltfExport, FacsControlsBecomeMorphTargetsCorrectivesAreReported) {
    const Asset a = makeFacsHead();
    const FacsRig& rig = a.facs[0];
    ExportResult report;
    const auto m = roundTrip(a, &report);
    Counts expected = expectedMeshCounts(a);
    expected.morphTargets = rig.controlNames.size();  // one mesh, one LOD
    EXPECT_EQ(gltfCounts(m), expected);
    ASSERT_EQ(m.meshes.size(), 1u);
    const auto& mesh = m.meshes[0];
    ASSERT_EQ(mesh.weights.size(), rig.controlNames.size());
    const auto& names = mesh.extras.Get("targetNames");
    ASSERT_TRUE(names.IsArray());
    ASSERT_EQ(names.ArrayLen(), 2u);
    EXPECT_EQ(names.Get(0).Get<std::string>(), "JawDrop");        // c_JD
    EXPECT_EQ(names.Get(1).Get<std::string>(), "LeftEyeClosed");  // l_EC
    EXPECT_TRUE(hasWarning(report, "2 FACS corrective(s) not exported"));
    // The JawDrop target equals the FACS pose with c_JD = 1 minus the bind pose (core's posing).
    PoseEvaluator eval(a.skeletons[0], &rig);
    const Pose bind = Pose::bind(a.skeletons[0]);
    std::vector<Vec3> rest, posed;
    eval.update(bind, std::vector<float>{0, 0});
    eval.skin(a.meshes[0], rest);
    eval.update(bind, std::vector<float>{1, 0});
    eval.skin(a.meshes[0], posed);
    const auto delta = accessorData<Vec3>(m, mesh.primitives[0].targets[0].at("POSITION"));
    ASSERT_EQ(delta.size(), posed.size());
    float largest = 0;
    for (std::size_t v = 0; v < delta.size(); ++v) {
        const Vec3 d = posed[v] - rest[v];
        EXPECT_NEAR(delta[v].x, d.x, 1e-5f);
        EXPECT_NEAR(delta[v].y, d.y, 1e-5f);
        EXPECT_NEAR(delta[v].z, d.z, 1e-5f);
        largest = std::max(largest, std::fabs(d.y) + std::fabs(d.z) + std::fabs(d.x));
    }
    EXPECT_GT(largest, 1e-3f) << "JawDrop moves the jaw's vertices";

    // Without a skin, FACS cannot move anything: a note says why.
    Asset unskinned = makeFacsHead();
    unskinned.meshes[0].skin.clear();
    ExportResult r2;
    const auto m2 = roundTrip(unskinned, &r2);
    EXPECT_EQ(gltfCounts(m2).morphTargets, 0u);
    EXPECT_TRUE(hasWarning(r2, "FACS rig not exported as morph targets: the mesh is not skinned"));
}

TEST(GltfExport, RepairsWhatGltfCannotHoldAndSaysSo) {
    Asset a = makeUvSphere(4, 6);
    Mesh& mesh = a.meshes[0];
    mesh.positions[3] = {NAN, 0, 0};
    mesh.normals[5] = {0, 0, 0};
    ExportResult report;
    const auto m = roundTrip(a, &report);
    EXPECT_TRUE(hasWarning(report, "1 non-finite vertex position(s)"));
    EXPECT_TRUE(hasWarning(report, "1 zero or non-finite normal(s)"));
    const auto& p = m.meshes[0].primitives[0];
    const auto pos = accessorData<Vec3>(m, p.attributes.at("POSITION"));
    EXPECT_EQ(pos[3], (Vec3{0, 0, 0}));
    for (double v : m.accessors[std::size_t(p.attributes.at("POSITION"))].minValues)
        EXPECT_TRUE(std::isfinite(v));
    // Invalid UTF-8 in a name is replaced, not thrown on.
    Asset named = makeUvSphere(4, 6);
    named.meshes[0].name = "bad\xff\xfename";
    const auto mn = roundTrip(named);
    ASSERT_EQ(mn.meshes.size(), 1u);
    EXPECT_EQ(mn.meshes[0].name, "bad\xEF\xBF\xBD\xEF\xBF\xBDname");
}

TEST(GltfExport, NothingToExportIsAnError) {
    Asset empty;
    const GlbBytes glb = exportGlb(empty);
    EXPECT_FALSE(glb.report.ok());
    EXPECT_TRUE(glb.bytes.empty());
}

TEST(GltfExport, GltfWritesJsonAndBinBeside) {
    const auto dir = tempDir("export_gltf_pair");
    const Asset a = makeSkinnedCylinder(3);
    ExportOptions o;
    o.format = ExportFormat::Gltf;
    const auto path = (dir / "my cylinder.gltf").string();
    const ExportResult r = exportAsset(a, path, o);
    ASSERT_TRUE(r.ok()) << r.error.value_or("");
    ASSERT_EQ(r.files.size(), 2u);
    EXPECT_EQ(r.files, exportFilePaths(path, ExportFormat::Gltf));
    EXPECT_EQ(std::filesystem::path(r.files[1]).filename(), "my_cylinder.bin");
    EXPECT_TRUE(std::filesystem::exists(r.files[1]));
    tinygltf::Model m;
    std::string err;
    ASSERT_TRUE(loadGltf(path, m, err)) << err;
    EXPECT_EQ(m.buffers[0].uri, "my_cylinder.bin");
    EXPECT_EQ(gltfCounts(m), expectedMeshCounts(a));
}

// A skeleton alone has no binary data: the .gltf holds no buffer, no .bin is written or reported
// (the buffer's name was once written into the dropped buffer's slot, which LeakSanitizer
// reported as a 54-byte leak).
TEST(GltfExport, GltfOfASkeletonAloneWritesNoBin) {
    const auto dir = tempDir("export_gltf_skeleton");
    Asset a;
    Skeleton s;
    for (int b = 0; b < 2; ++b) {
        Bone bone;
        bone.name = b == 0 ? "root" : "tip";
        bone.parent = b - 1;
        bone.world = translationMatrix({0, float(b), 0});
        s.bones.push_back(bone);
    }
    a.skeletons.push_back(s);
    ExportOptions o;
    o.format = ExportFormat::Gltf;
    const auto path = (dir / "bones.gltf").string();
    std::filesystem::remove(dir / "bones.bin");
    const ExportResult r = exportAsset(a, path, o);
    ASSERT_TRUE(r.ok()) << r.error.value_or("");
    ASSERT_EQ(r.files.size(), 1u);
    EXPECT_EQ(r.files[0], path);
    EXPECT_FALSE(std::filesystem::exists(dir / "bones.bin"));
    tinygltf::Model m;
    std::string err;
    ASSERT_TRUE(loadGltf(path, m, err)) << err;
    EXPECT_TRUE(m.buffers.empty());
    EXPECT_GE(m.nodes.size(), 2u);
}

TEST(GltfExport, AssimpReportsTheSameCounts) {
    if (!assimpAvailable())
        GTEST_SKIP() << "SKIPPED: assimp is not installed (Debian package assimp-utils)";
    const auto dir = tempDir("export_assimp");
    const std::vector<std::pair<std::string, Asset>> assets = {{"sphere", makeUvSphere(6, 8)},
                                                               {"cylinder", makeSkinnedCylinder(4)},
                                                               {"lods", makeLodSphere(3)},
                                                               {"head", makeFacsHead()}};
    for (const auto& [name, asset] : assets) {
        for (ExportFormat f : {ExportFormat::Glb, ExportFormat::Gltf}) {
            // The default export (LOD 0 alone): with --all-lods the other levels are MSFT_lod
            // alternates, which assimp (without the extension) rightly does not load.
            ExportOptions o;
            o.format = f;
            const auto path = dir / (name + "." + exportFormatName(f));
            const ExportResult r = exportAsset(asset, path.string(), o);
            ASSERT_TRUE(r.ok()) << r.error.value_or("");
            const AssimpInfo info = assimpInfo(path);
            ASSERT_TRUE(info.ok) << info.text;
            const Counts c = expectedMeshCounts(asset, 0);
            EXPECT_EQ(info.meshes, c.meshes) << name << "\n" << info.text;
            EXPECT_EQ(info.vertices, c.vertices) << name << "\n" << info.text;
            EXPECT_EQ(info.faces, c.triangles) << name << "\n" << info.text;
            EXPECT_EQ(info.bones, c.meshJoints) << name << "\n" << info.text;
        }
    }
}

TEST(GltfExport, ZUpSourcesAreTurnedToYUpWithWindingKept) {
    const Asset sphere = makeUvSphere(6, 8);
    const UnigineWriteResult mi = writeUnigineMesh(sphere);
    ASSERT_TRUE(mi.ok());
    DecodeOptions o;
    o.fileName = "sphere.mesh";
    const DecodeResult d = decodeBytes(mi.bytes, o);
    ASSERT_TRUE(d.ok());
    ASSERT_EQ(d.asset.format, "unigine");
    const Mesh& src = d.asset.meshes[0];
    const auto m = roundTrip(d.asset);
    EXPECT_EQ(m.asset.extras.Get("upAxis").Get<std::string>(), "Y");
    EXPECT_EQ(m.asset.extras.Get("sourceUpAxis").Get<std::string>(), "Z");
    EXPECT_EQ(m.asset.extras.Get("unit").Get<std::string>(), "metre");
    ASSERT_EQ(m.meshes.size(), 1u);
    const auto& p = m.meshes[0].primitives[0];
    const auto pos = accessorData<Vec3>(m, p.attributes.at("POSITION"));
    const auto nrm = accessorData<Vec3>(m, p.attributes.at("NORMAL"));
    ASSERT_EQ(pos.size(), src.positions.size());
    for (std::size_t v = 0; v < pos.size(); ++v) {
        // (x, y, z) Z-up -> (x, z, -y) Y-up.
        EXPECT_EQ(pos[v], (Vec3{src.positions[v].x, src.positions[v].z, -src.positions[v].y}));
        EXPECT_NEAR(nrm[v].y, src.normals[v].z, 1e-3f);
    }
    // Winding kept: faces still turn the same way relative to their vertex normals.
    auto outward = [](const std::vector<Vec3>& ps, const std::vector<Vec3>& ns,
                      const std::vector<std::uint32_t>& idx) {
        std::size_t n = 0;
        for (std::size_t i = 0; i + 2 < idx.size(); i += 3) {
            const Vec3 a = ps[idx[i]], b = ps[idx[i + 1]], c = ps[idx[i + 2]];
            const Vec3 e1 = b - a, e2 = c - a;
            const Vec3 f{e1.y * e2.z - e1.z * e2.y, e1.z * e2.x - e1.x * e2.z,
                         e1.x * e2.y - e1.y * e2.x};
            const Vec3 nn = ns[idx[i]];
            if (f.x * nn.x + f.y * nn.y + f.z * nn.z > 0) ++n;
        }
        return n;
    };
    std::vector<std::uint32_t> idx;
    for (std::uint16_t i : accessorData<std::uint16_t>(m, p.indices)) idx.push_back(i);
    EXPECT_EQ(outward(pos, nrm, idx), outward(src.positions, src.normals, src.indices));
    EXPECT_EQ(idx.size(), src.indices.size());
    // A Roblox FileMesh is Y-up already: unchanged, in studs.
    const auto fm = roundTrip(makeUvSphere(4, 6));
    EXPECT_EQ(fm.asset.extras.Get("sourceUpAxis").Get<std::string>(), "Y");
}

namespace {

// What Blender (run by runBlender, blender_util.h) reports for one imported file.
struct BlenderImport {
    bool ok = false;
    std::size_t meshes = 0, polygons = 0, materials = 0;
    std::size_t vertexColorMaterials = 0;  // materials whose shader reads the vertex colours
    Vec3 min, max;                         // world bounds of every mesh object, Blender axes (Z up)
};

// The Python body for runBlender: counts and world bounds of each imported file.
constexpr const char* kBlenderImportBody = R"(def inspect(path, arg):
    meshes = [o for o in bpy.data.objects if o.type == "MESH"]
    lo = [float("inf")] * 3
    hi = [float("-inf")] * 3
    for o in meshes:
        for v in o.data.vertices:
            w = o.matrix_world @ v.co
            for k in range(3):
                lo[k] = min(lo[k], w[k])
                hi[k] = max(hi[k], w[k])
    vc = [m for m in bpy.data.materials if m.node_tree and
          any(n.bl_idname == "ShaderNodeVertexColor" for n in m.node_tree.nodes)]
    report(len(meshes), sum(len(o.data.polygons) for o in meshes),
           len(bpy.data.materials), len(vc), *lo, *hi, path)
)";

// The reports of a runBlender run with kBlenderImportBody, by file path.
std::map<std::string, BlenderImport> blenderImports(const BlenderRun& run) {
    std::map<std::string, BlenderImport> out;
    for (const auto& f : run.reports) {
        if (f.size() != 11) continue;
        std::istringstream in(f[0] + " " + f[1] + " " + f[2] + " " + f[3] + " " + f[4] + " " +
                              f[5] + " " + f[6] + " " + f[7] + " " + f[8] + " " + f[9]);
        BlenderImport b;
        in >> b.meshes >> b.polygons >> b.materials >> b.vertexColorMaterials >> b.min.x >>
            b.min.y >> b.min.z >> b.max.x >> b.max.y >> b.max.z;
        b.ok = !in.fail() || !f[10].empty();
        out[f[10]] = b;
    }
    return out;
}

}  // namespace

TEST(GltfExport, BlenderImportsWhenInstalled) {
    const auto dir = tempDir("export_blender");
    auto write = [&](const std::string& name, const Asset& a, ExportOptions o = {}) {
        const auto path = dir / name;
        const ExportResult r = exportAsset(a, path.string(), o);
        EXPECT_TRUE(r.ok()) << name << ": " << r.error.value_or("");
        return path;
    };

    // A FACS head: one mesh, its triangles.
    const Asset head = makeFacsHead();
    const auto headGlb = write("head.glb", head);
    // A FileMesh (Y-up, Roblox): the skinned tube stands along +Y, 4 studs tall.
    const Asset tube = makeSkinnedCylinder(3);
    const auto tubeFile = writeFileMeshFixture("export_blender_filemesh", "tube.mesh", tube);
    const DecodeResult tubeDecoded = decodeFile(tubeFile.string());
    ASSERT_TRUE(tubeDecoded.ok());
    const auto tubeGlb = write("tube.glb", tubeDecoded.asset);
    // A standing Unigine mesh (Z-up): the same tube turned to stand along +Z, as two surfaces.
    Asset standing = makeSkinnedCylinder(3);
    standing.skeletons.clear();
    standing.meshes[0].skin.clear();
    standing.meshes[0].skeleton = -1;
    for (Vec3& p : standing.meshes[0].positions) p = {p.x, -p.z, p.y};
    for (Vec3& n : standing.meshes[0].normals) n = {n.x, -n.z, n.y};
    standing.meshes[0].tangents.clear();
    standing.meshes[0].computeBounds();
    standing.meshes.push_back(standing.meshes[0]);
    standing.meshes[0].name = "body";
    standing.meshes[1].name = "cap";
    for (Vec3& p : standing.meshes[1].positions) p.x += 2;
    const UnigineWriteResult mi = writeUnigineMesh(standing);
    ASSERT_TRUE(mi.ok());
    DecodeOptions miOptions;
    miOptions.fileName = "standing.mesh";
    const DecodeResult unigine = decodeBytes(mi.bytes, miOptions);
    ASSERT_TRUE(unigine.ok()) << unigine.error->toString();
    const auto unigineGlb = write("standing.glb", unigine.asset);
    // LODs: one level by default; --all-lods adds the others as MSFT_lod alternates, which
    // Blender 3.4 (without MSFT_lod) imports as further objects.
    const Asset lods = makeLodSphere(3);
    const auto lod0 = write("lods.glb", lods);
    ExportOptions all;
    all.allLods = true;
    const auto lodAll = write("lods_all.glb", lods, all);

    // Vertex colours show: the mesh has a material that uses COLOR_0.
    const auto colored = write("colored.glb", makeUvSphere(6, 8));

    // One Blender run; it first imports a trivial glTF, or says why it cannot check here.
    const BlenderRun run = runBlender(
        dir, kBlenderImportBody,
        {{headGlb, ""}, {tubeGlb, ""}, {unigineGlb, ""}, {lod0, ""}, {lodAll, ""}, {colored, ""}});
    if (!run.unavailable.empty())
        GTEST_SKIP() << "SKIPPED: " << run.unavailable
                     << "; the glTF files are checked with tinygltf, assimp and the Khronos "
                        "validator only";
    const std::string& text = run.output;
    auto got = blenderImports(run);
    EXPECT_EQ(got[colored.string()].vertexColorMaterials, 1u) << text;
    const Counts c = expectedMeshCounts(head);
    ASSERT_TRUE(got[headGlb.string()].ok) << text;
    EXPECT_EQ(got[headGlb.string()].meshes, c.meshes) << text;
    EXPECT_EQ(got[headGlb.string()].polygons, c.triangles) << text;
    EXPECT_GE(got[headGlb.string()].materials, 1u) << text;

    // Right way up: glTF Y (the FileMesh's Y) is Blender's Z; the source's Z is Blender's -Y.
    const BlenderImport& t = got[tubeGlb.string()];
    ASSERT_TRUE(t.ok) << text;
    const Bounds& tb = tubeDecoded.asset.meshes[0].bounds;
    EXPECT_NEAR(t.min.z, tb.min.y, 1e-3f) << text;
    EXPECT_NEAR(t.max.z, tb.max.y, 1e-3f) << text;
    EXPECT_NEAR(t.min.x, tb.min.x, 1e-3f) << text;
    EXPECT_NEAR(t.max.y, -tb.min.z, 1e-3f) << text;
    EXPECT_NEAR(t.max.z - t.min.z, 4.0f, 1e-3f) << "the tube stands 4 tall along Blender's Z";

    // The standing Unigine mesh stands in Blender too: its tallest axis is Z (glTF Y).
    const BlenderImport& u = got[unigineGlb.string()];
    ASSERT_TRUE(u.ok) << text;
    const float ux = u.max.x - u.min.x, uy = u.max.y - u.min.y, uz = u.max.z - u.min.z;
    EXPECT_GT(uz, ux) << text;
    EXPECT_GT(uz, uy) << text;
    EXPECT_NEAR(uz, 4.0f, 1e-3f) << text;
    EXPECT_GE(u.min.z, -1e-3f) << "the tube stands on the ground, not below it";
    EXPECT_EQ(u.meshes, 2u) << text;
    EXPECT_EQ(u.materials, 2u) << "one material per Unigine surface\n" << text;

    // LOD count.
    EXPECT_EQ(got[lod0.string()].meshes, 1u) << text;
    EXPECT_EQ(got[lodAll.string()].meshes, 3u) << text;
}

TEST(GltfExport, MeshMorphTargetsBecomePrimitiveTargetsWithTheAxisTurn) {
    // A UNIGINE 2 mesh (Z up) with two blend shapes, through the writer and the decoder.
    Asset src = makeSkinnedCylinder(4);
    src.skeletons.clear();
    for (Mesh& m : src.meshes) {
        m.skin.clear();
        m.skeleton = -1;
        MorphTarget up{"up", std::vector<Vec3>(m.positions.size(), Vec3{0, 0, 0.5f}), {}};
        MorphTarget side{"side", std::vector<Vec3>(m.positions.size(), Vec3{0.25f, -1, 0}), {}};
        m.morphTargets = {up, side};
    }
    const UnigineWriteResult w = writeUnigine2Mesh(src, "ms11");
    ASSERT_TRUE(w.ok());
    DecodeOptions o;
    o.fileName = "morph.mesh";
    const DecodeResult r = decodeBytes(w.bytes, o);
    ASSERT_TRUE(r.ok());
    ASSERT_EQ(r.asset.meshes[0].morphTargets.size(), 2u);
    ExportResult report;
    const auto m = roundTrip(r.asset, &report);
    EXPECT_EQ(gltfCounts(m).morphTargets, 2 * r.asset.meshes.size());
    ASSERT_FALSE(m.meshes.empty());
    const auto& mesh = m.meshes[0];
    EXPECT_EQ(mesh.weights, (std::vector<double>{0, 0}));
    const auto& names = mesh.extras.Get("targetNames");
    ASSERT_TRUE(names.IsArray());
    ASSERT_EQ(names.ArrayLen(), 2u);
    EXPECT_EQ(names.Get(0).Get<std::string>(), "up");
    EXPECT_EQ(names.Get(1).Get<std::string>(), "side");
    ASSERT_EQ(mesh.primitives[0].targets.size(), 2u);
    // Z up becomes Y up: (x, y, z) -> (x, z, -y), as for the positions.
    const auto upDelta = accessorData<Vec3>(m, mesh.primitives[0].targets[0].at("POSITION"));
    const auto sideDelta = accessorData<Vec3>(m, mesh.primitives[0].targets[1].at("POSITION"));
    ASSERT_FALSE(upDelta.empty());
    for (const Vec3& d : upDelta) {
        EXPECT_NEAR(d.x, 0, 1e-6);
        EXPECT_NEAR(d.y, 0.5, 1e-6);
        EXPECT_NEAR(d.z, 0, 1e-6);
    }
    for (const Vec3& d : sideDelta) {
        EXPECT_NEAR(d.x, 0.25, 1e-6);
        EXPECT_NEAR(d.y, 0, 1e-6);
        EXPECT_NEAR(d.z, 1, 1e-6);
    }
    // Min/max present on POSITION targets (the validator requires them).
    const auto& acc = m.accessors[std::size_t(mesh.primitives[0].targets[1].at("POSITION"))];
    ASSERT_EQ(acc.minValues.size(), 3u);
    EXPECT_NEAR(acc.minValues[2], 1, 1e-6);
}
