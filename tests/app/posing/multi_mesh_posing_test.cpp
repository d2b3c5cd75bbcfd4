// Posing assets with several skinned meshes: every mesh bound to the posed skeleton follows it
// (Second Life LODs sharing one skin, Unigine .smesh surfaces sharing one skeleton), and a mesh
// bound to another copy of the rig follows the posed skeleton's bones by name (a Roblox model
// whose MeshParts each place a copy of the mesh's skeleton). Each mesh's
// uploaded vertices are compared with core's skinning of that mesh with its own skeleton.
#include <gtest/gtest.h>

#include <QTest>
#include <cmath>
#include <cstring>

#include "document/asset_document.h"
#include "document/settings.h"
#include "meshscope/core/decode.h"
#include "meshscope/core/mesh_generators.h"
#include "meshscope/core/pose.h"
#include "meshscope/core/roblox_mesh_writer.h"
#include "meshscope/core/roblox_model_writer.h"
#include "meshscope/core/roblox_parts.h"
#include "meshscope/core/unigine_writer.h"
#include "meshscope/render/mesh_packing.h"
#include "meshscope/render/roblox_parts.h"
#include "meshscope/render/viewport.h"
#include "posing/pose_controller.h"
#include "support/test_support.h"
#include "vertex_compare.h"
#include "window/main_window.h"

using namespace meshscope;
using namespace meshscope::shell;
using meshscope::test::maxDistance;
using meshscope::test::positionsOf;

namespace {

void showWindow(MainWindow& window) {
    window.setInteractive(false);
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
}

// Core's skinning of mesh `m` with the bones named `names` of the mesh's own skeleton turned by
// `euler`.
std::vector<Vec3> expectedSkin(const Asset& asset, int m, const std::vector<std::string>& names,
                               const Vec3& euler) {
    const Mesh& mesh = asset.meshes[std::size_t(m)];
    const Skeleton& skeleton = asset.skeletons[std::size_t(mesh.skeleton)];
    Pose pose = Pose::bind(skeleton);
    for (const std::string& name : names) poseBone(pose, skeleton.find(name), euler);
    std::vector<Vec3> out;
    skinVertices(mesh, skinningMatrices(skeleton, pose), out);
    return out;
}

// Poses `bones` of the posed skeleton and checks every skinned mesh of the asset.
void expectEveryMeshPosed(PoseController* pose, const Asset& asset, const std::vector<int>& bones,
                          const Vec3& euler) {
    std::vector<std::string> names;
    for (int bone : bones) {
        names.push_back(pose->skeleton()->bones[std::size_t(bone)].name);
        pose->setBoneEdit(bone, {euler, {}});
    }
    int skinned = 0;
    for (int m = 0; m < int(asset.meshes.size()); ++m) {
        const Mesh& mesh = asset.meshes[std::size_t(m)];
        if (!mesh.skinned()) continue;
        ++skinned;
        const std::vector<Vec3> uploaded = positionsOf(pose->uploadedVertices(m));
        EXPECT_LT(maxDistance(uploaded, expectedSkin(asset, m, names, euler)), 1e-3f)
            << "mesh " << m << " " << mesh.name;
        EXPECT_GT(maxDistance(uploaded, mesh.positions), 1e-3f)
            << "mesh " << m << " " << mesh.name << " moved";
    }
    EXPECT_GE(skinned, 2);
    EXPECT_EQ(int(pose->posedMeshes().size()), skinned);
}

}  // namespace

TEST(MultiMeshPosing, MeshOnACopyOfTheRigFollowsTheBonesByName) {
    // Three meshes: two on skeleton 0, one on skeleton 1 (the same bones, moved 3 units along X
    // and listed in reverse order, so indices differ and only names match).
    Asset a = makeSkinnedCylinder(3);
    const Mesh tube = a.meshes[0];
    const Skeleton rig = a.skeletons[0];
    Mesh second = tube;
    second.name = "second";
    a.meshes.push_back(second);
    Skeleton copy;
    const int n = int(rig.bones.size());
    std::vector<int> newIndex(static_cast<std::size_t>(n));
    for (int b = 0; b < n; ++b) newIndex[std::size_t(b)] = n - 1 - b;
    for (int b = n - 1; b >= 0; --b) {
        Bone bone = rig.bones[std::size_t(b)];
        bone.world = translationMatrix({3, 0, 0}) * bone.world;
        bone.inverseBind.reset();
        if (bone.parent >= 0) bone.parent = newIndex[std::size_t(bone.parent)];
        copy.bones.push_back(bone);
    }
    a.skeletons.push_back(copy);
    Mesh third = tube;
    third.name = "third";
    third.skeleton = 1;
    for (Vec3& p : third.positions) p.x += 3;
    for (VertexInfluences& inf : third.skin)
        for (int k = 0; k < 4; ++k)
            if (inf.weights[std::size_t(k)] > 0)
                inf.joints[std::size_t(k)] =
                    std::uint16_t(newIndex[std::size_t(inf.joints[std::size_t(k)])]);
    third.computeBounds();
    a.meshes.push_back(third);

    MainWindow window;
    showWindow(window);
    DecodeResult result;
    result.asset = a;
    window.document()->setDecoded(QString(), QStringLiteral("generated"), {}, std::move(result));
    PoseController* pose = window.poseController();
    const Asset& shown = window.document()->asset();
    ASSERT_EQ(shown.meshes.size(), 3u);
    ASSERT_EQ(pose->skeletonIndex(), 0);
    expectEveryMeshPosed(pose, shown, {1}, {0, 0, 40});

    // The heat map of the copy colours by its own bone of that name: vertices fully on it are red.
    pose->setSelectedBone(1);
    const QByteArray up = pose->uploadedVertices(2);
    const int own = shown.skeletons[1].find(rig.bones[1].name);
    ASSERT_GE(own, 0);
    bool sawRed = false;
    for (std::size_t i = 0; i < third.skin.size(); ++i) {
        const VertexInfluences& inf = third.skin[i];
        float w = 0;
        for (int k = 0; k < 4; ++k)
            if (int(inf.joints[std::size_t(k)]) == own) w += inf.weights[std::size_t(k)];
        if (w < 0.999f) continue;
        std::uint8_t rgba[4];
        std::memcpy(
            rgba,
            up.constData() + i * render::VertexLayout::kStride + render::VertexLayout::kColorOffset,
            sizeof rgba);
        EXPECT_GT(rgba[0] / 255.f, 0.9f) << i;
        sawRed = true;
    }
    EXPECT_TRUE(sawRed);
}

TEST(MultiMeshPosing, UnigineSmeshSurfacesShareTheSkeleton) {
    Asset a = makeSkinnedCylinder(3);
    Mesh other = a.meshes[0];
    other.name = "other";
    for (Vec3& p : other.positions) p.z += 2;
    other.computeBounds();
    a.meshes.push_back(other);
    const UnigineWriteResult written = writeUnigineSkinnedMesh(a);
    ASSERT_TRUE(written.ok()) << *written.error;
    const auto file = test::tempDir("app_multi_mesh") / "two_surfaces.smesh";
    test::writeFile(file, written.bytes);

    MainWindow window;
    showWindow(window);
    QString error;
    ASSERT_TRUE(window.openFileNow(QString::fromStdString(file.string()), &error))
        << error.toStdString();
    const Asset& shown = window.document()->asset();
    ASSERT_EQ(shown.meshes.size(), 2u);
    expectEveryMeshPosed(window.poseController(), shown, {2}, {25, 0, 0});
}

TEST(MultiMeshPosing, SecondLifeLodsShareTheSkin) {
    MESHSCOPE_REQUIRE_CORPUS(corpus);
    const auto file =
        corpus / "secondlife/benthic-mmo_metaverse_client/crates/messages/tests/data/mesh_data.txt";
    if (!std::filesystem::exists(file)) GTEST_SKIP() << "SKIPPED: " << file << " is absent";
    MainWindow window;
    showWindow(window);
    QString error;
    ASSERT_TRUE(window.openFileNow(QString::fromStdString(file.string()), &error))
        << error.toStdString();
    const Asset& shown = window.document()->asset();
    PoseController* pose = window.poseController();
    ASSERT_NE(pose->skeleton(), nullptr);
    // Turning every root bone (the skin's joints hang from the default avatar skeleton, which
    // may leave several roots) moves every weighted vertex of every LOD.
    std::vector<int> roots;
    const BoneOrder order = boneOrder(*pose->skeleton());
    for (int b = 0; b < pose->boneCount(); ++b)
        if (order.parent[std::size_t(b)] < 0) roots.push_back(b);
    ASSERT_FALSE(roots.empty());
    expectEveryMeshPosed(pose, shown, roots, {30, 0, 0});
}

namespace {

using meshscope::test::prop;

}  // namespace

// Runs last in this file: the session asset folder it adds stays for the process.
TEST(MultiMeshPosing, RobloxModelMeshPartsEachFollowThePose) {
    // A skinned three-bone tube as a FileMesh in an asset folder, and a model with two MeshParts
    // using it: one upright at the origin, one twice as tall, 8 studs along X and turned 90°
    // about Y.
    const Asset tube = makeSkinnedCylinder(3);
    FileMeshWriteOptions options;
    options.version = "4.00";
    const FileMeshWriteResult mesh = writeFileMesh(tube, 0, options);
    ASSERT_TRUE(mesh.ok());
    const auto folder = test::tempDir("app_multi_mesh_assets");
    test::writeFile(folder / "5151515151.mesh", mesh.bytes);
    settings::addSessionAssetFolder(QString::fromStdString(folder.string()));

    Asset model;
    model.format = "roblox-model";
    const int root = model.addNode("Rig", "Model");
    model.addProperty(root, prop("Name", "string", std::string("Rig")));
    const Vec3 extent = tube.meshes[0].bounds.size();
    for (int i = 0; i < 2; ++i) {
        const int n = model.addNode("MeshPart", "MeshPart", root);
        CFrame cf;
        cf.position = {8.0f * float(i), 2, 0};
        if (i == 1) cf.rotation = {0, 0, 1, 0, 1, 0, -1, 0, 0};  // 90° about Y
        const Vec3 size = i == 0 ? extent : Vec3{extent.x, extent.y * 2, extent.z};
        model.propertyList(n) = {prop("Name", "string", std::string("Tube") + std::to_string(i)),
                                 prop("CFrame", "CFrame", cf), prop("size", "Vector3", size),
                                 prop("Color3uint8", "Color3uint8", Vec3{0.8f, 0.8f, 0.8f}),
                                 prop("MeshId", "Content", std::string("rbxassetid://5151515151"))};
    }
    const auto written = writeRobloxModel(model);
    ASSERT_TRUE(written.ok());
    const auto file = test::tempDir("app_multi_mesh_model") / "rig.rbxm";
    test::writeFile(file, written.bytes);

    MainWindow window;
    showWindow(window);
    QString error;
    ASSERT_TRUE(window.openFileNow(QString::fromStdString(file.string()), &error))
        << error.toStdString();
    const render::RobloxPartsView* parts = window.viewport()->robloxParts();
    ASSERT_EQ(parts->resolvedMeshCount(), 2) << window.document()->asset().diagnostics.size();
    PoseController* pose = window.poseController();
    ASSERT_EQ(pose->boneCount(), 3);
    const Asset& shown = parts->sceneAsset();
    ASSERT_EQ(shown.meshes.size(), 2u);
    expectEveryMeshPosed(pose, shown, {1}, {0, 0, 50});

    // Independently of the placed skeletons: each part's posed vertices are its placement
    // applied to the unplaced tube (as decoded: weights are stored as bytes) posed the same way.
    const DecodeResult decoded = decodeFile((folder / "5151515151.mesh").string());
    ASSERT_TRUE(decoded.ok());
    const Mesh& fileMesh = decoded.asset.meshes[0];
    const Skeleton& rig = decoded.asset.skeletons[std::size_t(fileMesh.skeleton)];
    Pose p = Pose::bind(rig);
    poseBone(p, rig.find(tube.skeletons[0].bones[1].name), {0, 0, 50});
    std::vector<Vec3> unplaced;
    skinVertices(fileMesh, skinningMatrices(rig, p), unplaced);
    for (int m = 0; m < 2; ++m) {
        const Mat4 placement = partMeshPlacement(fileMesh, parts->parts()[std::size_t(m)]);
        std::vector<Vec3> want;
        for (const Vec3& v : unplaced) want.push_back(transformPoint(placement, v));
        EXPECT_LT(maxDistance(positionsOf(pose->uploadedVertices(m)), want), 1e-3f) << m;
    }
}
