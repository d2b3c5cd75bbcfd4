// glTF export of generated assets, read back with tinygltf: vertex, triangle, joint, weight and
// morph-target counts, the vertex data itself, skins (joints, inverse bind matrices, normalized
// weights), one mesh per LOD, FACS controls as morph targets with the correctives reported, and
// the .gltf + .bin pair. `assimp info` (when installed) must report the same counts.
#include <gtest/gtest.h>

#include <cmath>

#include "export_test_util.h"
#include "meshscope/core/export.h"
#include "meshscope/core/mesh_generators.h"
#include "meshscope/core/pose.h"
#include "support/test_support.h"

using namespace meshscope;
using namespace meshscope::test;

namespace {

tinygltf::Model roundTrip(const Asset& asset, ExportResult* report = nullptr,
                          ExportOptions options = {}) {
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

const tinygltf::Node* nodeNamed(const tinygltf::Model& m, const std::string& name) {
    for (const auto& n : m.nodes)
        if (n.name == name) return &n;
    return nullptr;
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
            if (in.weights[std::size_t(k)] > 0)
                EXPECT_EQ(joints[v][std::size_t(k)], in.joints[std::size_t(k)]);
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

TEST(GltfExport, EveryLodIsItsOwnMeshAndNode) {
    const Asset a = makeLodSphere(3);
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
    // --lod 1 exports only that level.
    ExportOptions one;
    one.lod = 1;
    const auto m1 = roundTrip(a, nullptr, one);
    EXPECT_EQ(gltfCounts(m1), expectedMeshCounts(a, 1));
    EXPECT_EQ(m1.meshes.size(), 1u);
    // A level beyond the last gives the last, with a warning.
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
            ExportOptions o;
            o.format = f;
            const auto path = dir / (name + "." + exportFormatName(f));
            const ExportResult r = exportAsset(asset, path.string(), o);
            ASSERT_TRUE(r.ok()) << r.error.value_or("");
            const AssimpInfo info = assimpInfo(path);
            ASSERT_TRUE(info.ok) << info.text;
            const Counts c = expectedMeshCounts(asset);
            EXPECT_EQ(info.meshes, c.meshes) << name << "\n" << info.text;
            EXPECT_EQ(info.vertices, c.vertices) << name << "\n" << info.text;
            EXPECT_EQ(info.faces, c.triangles) << name << "\n" << info.text;
            EXPECT_EQ(info.bones, c.meshJoints) << name << "\n" << info.text;
        }
    }
}

TEST(GltfExport, BlenderImportsWhenInstalled) {
    if (std::system("blender --version > /dev/null 2>&1") != 0)
        GTEST_SKIP() << "SKIPPED: Blender is not installed; the glTF files are checked with "
                        "tinygltf and assimp only";
    const auto dir = tempDir("export_blender");
    const Asset a = makeFacsHead();
    const auto path = dir / "head.glb";
    ASSERT_TRUE(exportAsset(a, path.string()).ok());
    const auto script = dir / "count.py";
    std::ofstream(script) << "import bpy, sys\n"
                             "bpy.ops.wm.read_factory_settings(use_empty=True)\n"
                             "bpy.ops.import_scene.gltf(filepath=sys.argv[-1])\n"
                             "m=[o for o in bpy.data.objects if o.type=='MESH']\n"
                             "print('MESHSCOPE', len(m), sum(len(o.data.polygons) for o in m))\n";
    const std::string cmd = "blender -b --factory-startup --python \"" + script.string() +
                            "\" -- \"" + path.string() + "\" 2>&1";
    std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(cmd.c_str(), "r"), pclose);
    ASSERT_TRUE(pipe);
    std::string text;
    std::array<char, 4096> buf;
    while (std::fgets(buf.data(), int(buf.size()), pipe.get())) text += buf.data();
    const Counts c = expectedMeshCounts(a);
    EXPECT_NE(
        text.find("MESHSCOPE " + std::to_string(c.meshes) + " " + std::to_string(c.triangles)),
        std::string::npos)
        << text;
}
