// Posing assets with several skinned meshes: every mesh bound to the posed skeleton follows it
// (Second Life LODs sharing one skin, Unigine .smesh surfaces sharing one skeleton), and a mesh
// bound to another copy of the rig follows the posed skeleton's bones by name. Each mesh's
// uploaded vertices are compared with core's skinning of that mesh with its own skeleton.
#include <gtest/gtest.h>

#include <QTest>
#include <cmath>
#include <cstring>

#include "asset_document.h"
#include "main_window.h"
#include "meshscope/core/decode.h"
#include "meshscope/core/mesh_generators.h"
#include "meshscope/core/pose.h"
#include "meshscope/core/unigine_writer.h"
#include "meshscope/render/mesh_packing.h"
#include "pose_controller.h"
#include "support/test_support.h"

using namespace meshscope;
using namespace meshscope::shell;

namespace {

std::vector<Vec3> positionsOf(const QByteArray& vertices) {
    std::vector<Vec3> out(std::size_t(vertices.size()) / render::VertexLayout::kStride);
    for (std::size_t i = 0; i < out.size(); ++i)
        std::memcpy(&out[i], vertices.constData() + i * render::VertexLayout::kStride,
                    sizeof(Vec3));
    return out;
}

float maxDistance(const std::vector<Vec3>& a, const std::vector<Vec3>& b) {
    float worst = a.size() == b.size() ? 0.0f : INFINITY;
    for (std::size_t i = 0; i < a.size() && i < b.size(); ++i)
        worst = std::max({worst, std::fabs(a[i].x - b[i].x), std::fabs(a[i].y - b[i].y),
                          std::fabs(a[i].z - b[i].z)});
    return worst;
}

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
        float rgba[4];
        std::memcpy(
            rgba,
            up.constData() + i * render::VertexLayout::kStride + render::VertexLayout::kColorOffset,
            sizeof rgba);
        EXPECT_GT(rgba[0], 0.9f) << i;
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
