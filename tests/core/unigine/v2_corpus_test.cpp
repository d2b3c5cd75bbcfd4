// The real UNIGINE 2 meshes (ms10, ms11, ms14) of the corpus: every byte is claimed, the bounding
// box the header stores agrees with the vertices, and the counts match what the files hold (read
// independently of the decoder: names and counts are visible in a hex dump, see format.md).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <map>

#include "meshscope/core/decode.h"
#include "support/test_support.h"

using namespace meshscope;

namespace {

int findNode(const Asset& a, const std::string& kind) {
    for (std::size_t i = 0; i < a.nodes.size(); ++i)
        if (a.kind(static_cast<int>(i)) == kind) return static_cast<int>(i);
    return -1;
}

bool isUnigine2Mesh(const std::vector<std::uint8_t>& b) {
    if (b.size() < 4) return false;
    const std::string s(b.begin(), b.begin() + 4);
    return s == "ms10" || s == "ms11" || s == "ms14";
}

}  // namespace

TEST(Unigine2Corpus, EveryMeshIsConsumedAndAgreesWithItsHeaderBounds) {
    MESHSCOPE_REQUIRE_CORPUS(corpus);
    const auto dir = corpus / "unigine";
    if (!std::filesystem::is_directory(dir)) GTEST_SKIP() << "SKIPPED: no corpus/unigine";
    std::size_t files = 0;
    for (const auto& e : std::filesystem::recursive_directory_iterator(dir)) {
        if (!e.is_regular_file()) continue;
        const auto bytes = test::readFile(e.path());
        if (!isUnigine2Mesh(bytes)) continue;
        ++files;
        SCOPED_TRACE(e.path().string());
        const DecodeResult r = decodeBytes(bytes);
        ASSERT_TRUE(r.ok()) << r.error->toString();
        EXPECT_EQ(r.asset.warningCount(), 0u);
        // Every byte is claimed by a decoded structure, up to the last.
        std::uint64_t end = 0;
        for (const auto& range : r.asset.byteMap.ranges()) {
            EXPECT_NE(range.kind, RangeKind::Unparsed) << range.offset;
            end = std::max(end, range.end());
        }
        EXPECT_EQ(end, bytes.size());
        // The header's bounding box (offset 4, or 5 after ms14's compact int) = the union of the
        // surfaces' vertex bounds.
        const std::size_t at = bytes[3] == '4' ? 5 : 4;
        float stored[6];
        std::memcpy(stored, bytes.data() + at, sizeof stored);
        Bounds all;
        for (const Mesh& m : r.asset.meshes) {
            ASSERT_TRUE(m.bounds.valid()) << m.name;
            all.add(m.bounds.min);
            all.add(m.bounds.max);
        }
        EXPECT_FLOAT_EQ(all.min.x, stored[0]);
        EXPECT_FLOAT_EQ(all.min.y, stored[1]);
        EXPECT_FLOAT_EQ(all.min.z, stored[2]);
        EXPECT_FLOAT_EQ(all.max.x, stored[3]);
        EXPECT_FLOAT_EQ(all.max.y, stored[4]);
        EXPECT_FLOAT_EQ(all.max.z, stored[5]);
        const int header = findNode(r.asset, "header");
        const Property* agree = r.asset.ownProperty(header, "boundsAgree");
        ASSERT_NE(agree, nullptr);
        EXPECT_EQ(std::get<bool>(agree->value), true);
        for (const Mesh& m : r.asset.meshes) {
            // Every stream is per vertex; normals from the tangent quaternions are unit length
            // and face the way the triangle winding does (counter-clockwise) on most triangles.
            ASSERT_EQ(m.normals.size(), m.vertexCount());
            ASSERT_EQ(m.uv0.size(), m.vertexCount());
            for (const Vec3& n : m.normals)
                EXPECT_NEAR(std::sqrt(n.x * n.x + n.y * n.y + n.z * n.z), 1, 1e-3);
            std::size_t agreeing = 0, triangles = 0;
            for (std::size_t t = 0; t + 2 < m.indices.size(); t += 3) {
                const Vec3 a = m.positions[m.indices[t]], b = m.positions[m.indices[t + 1]],
                           c = m.positions[m.indices[t + 2]];
                const Vec3 e1{b.x - a.x, b.y - a.y, b.z - a.z}, e2{c.x - a.x, c.y - a.y, c.z - a.z};
                const Vec3 f{e1.y * e2.z - e1.z * e2.y, e1.z * e2.x - e1.x * e2.z,
                             e1.x * e2.y - e1.y * e2.x};
                const Vec3 n = m.normals[m.indices[t]];
                if (f.x * f.x + f.y * f.y + f.z * f.z == 0) continue;
                ++triangles;
                if (f.x * n.x + f.y * n.y + f.z * n.z > 0) ++agreeing;
            }
            EXPECT_GT(agreeing, triangles * 9 / 10) << m.name;
            // The tangent follows increasing u, and w × (normal × tangent) increasing v, on
            // (nearly) every triangle with a proper UV mapping: the handedness is right.
            ASSERT_EQ(m.tangents.size(), m.vertexCount());
            std::size_t alongU = 0, alongV = 0, mapped = 0;
            for (std::size_t t = 0; t + 2 < m.indices.size(); t += 3) {
                const std::uint32_t i0 = m.indices[t], i1 = m.indices[t + 1], i2 = m.indices[t + 2];
                const Vec3 e1 = m.positions[i1] - m.positions[i0];
                const Vec3 e2 = m.positions[i2] - m.positions[i0];
                const float du1 = m.uv0[i1].x - m.uv0[i0].x, dv1 = m.uv0[i1].y - m.uv0[i0].y;
                const float du2 = m.uv0[i2].x - m.uv0[i0].x, dv2 = m.uv0[i2].y - m.uv0[i0].y;
                const float det = du1 * dv2 - du2 * dv1;
                if (std::fabs(det) < 1e-12f) continue;
                ++mapped;
                const Vec3 pu = (e1 * dv2 - e2 * dv1) * (1 / det);
                const Vec3 pv = (e2 * du1 - e1 * du2) * (1 / det);
                const Vec4 tg = m.tangents[i0];
                const Vec3 n = m.normals[i0];
                const Vec3 b{(n.y * tg.z - n.z * tg.y) * tg.w, (n.z * tg.x - n.x * tg.z) * tg.w,
                             (n.x * tg.y - n.y * tg.x) * tg.w};
                if (tg.x * pu.x + tg.y * pu.y + tg.z * pu.z > 0) ++alongU;
                if (b.x * pv.x + b.y * pv.y + b.z * pv.z > 0) ++alongV;
            }
            EXPECT_GE(alongU, mapped * 95 / 100) << m.name;
            EXPECT_GE(alongV, mapped * 95 / 100) << m.name;
            if (m.skinned()) {
                ASSERT_GE(m.skeleton, 0);
                for (const auto& s : m.skin) {
                    const float sum = s.weights[0] + s.weights[1] + s.weights[2] + s.weights[3];
                    EXPECT_NEAR(sum, 1, 2e-3);
                }
            }
        }
    }
    // MANIFEST: one ms10, six ms11 and six ms14 meshes are in the public part of the corpus.
    EXPECT_GE(files, 12u);
}

namespace {
struct Expected {
    const char* path;
    const char* version;
    std::size_t surfaces, bones, firstTriangles;
    const char* firstName;
};
// Names and counts read off a hex dump of each file (compact counts and NUL-ended names).
const Expected kFiles[] = {
    {"unigine/wakqaz4_Unigine_FPS_Demo1/data/editor/resources/meshes/box.mesh", "ms10", 1, 0, 12,
     "Box01"},
    {"unigine/wakqaz4_Unigine_FPS_Demo1/data/FPS_Demo1/meshes/plane.mesh", "ms11", 1, 0, 2,
     "plane"},
    {"unigine/wakqaz4_Unigine_FPS_Demo1/source/meshes/actor_00.mesh", "ms11", 3, 54, 2217,
     "agent_body_lod1"},
    {"unigine/trinet-fasie_unigine-mockup/data/vr_sample/props/animation/meshes/agent.mesh", "ms11",
     4, 56, 5553, "agent_body_lod0"},
    {"unigine/unigine-engine_cpp-api-samples/data/cpp_samples/basics/trigger_buttons/meshes/"
     "box.mesh",
     "ms14", 1, 0, 12, "box"},
    {"unigine/unigine-engine_cpp-api-samples/data/cpp_samples/systems/cad_like_view/viewcube/"
     "viewcube.mesh",
     "ms14", 26, 0, 6, "py_nx_nz"},
};
}  // namespace

TEST(Unigine2Corpus, CountsOfKnownFiles) {
    MESHSCOPE_REQUIRE_CORPUS(corpus);
    for (const Expected& x : kFiles) {
        const auto path = corpus / x.path;
        if (!std::filesystem::exists(path)) {
            std::cout << "SKIPPED (held out): " << path << "\n";
            continue;
        }
        SCOPED_TRACE(x.path);
        const DecodeResult r = decodeFile(path.string());
        ASSERT_TRUE(r.ok()) << r.error->toString();
        EXPECT_EQ(r.asset.version, x.version);
        ASSERT_EQ(r.asset.meshes.size(), x.surfaces);
        EXPECT_EQ(r.asset.meshes[0].name, x.firstName);
        EXPECT_EQ(r.asset.meshes[0].triangleCount(), x.firstTriangles);
        if (x.bones) {
            ASSERT_EQ(r.asset.skeletons.size(), 1u);
            EXPECT_EQ(r.asset.skeletons[0].bones.size(), x.bones);
            for (const Mesh& m : r.asset.meshes) EXPECT_TRUE(m.skinned()) << m.name;
        } else {
            EXPECT_TRUE(r.asset.skeletons.empty());
        }
    }
}

TEST(Unigine2Corpus, ActorSkeletonStandsUpright) {
    MESHSCOPE_REQUIRE_CORPUS(corpus);
    const auto path = corpus / kFiles[2].path;
    if (!std::filesystem::exists(path)) GTEST_SKIP() << "SKIPPED: no " << path;
    const DecodeResult r = decodeFile(path.string());
    ASSERT_TRUE(r.ok()) << r.error->toString();
    ASSERT_EQ(r.asset.skeletons.size(), 1u);
    const Skeleton& s = r.asset.skeletons[0];
    // The bind pose is local to the parent: composed, the head is near the top of the mesh
    // (z up to 1.74) and the toes near the ground, inside the mesh bounds.
    const int head = s.find("Bip01 Head"), toe = s.find("Bip01 L Toe0");
    ASSERT_GE(head, 0);
    ASSERT_GE(toe, 0);
    EXPECT_GT(s.bones[head].world.at(2, 3), 1.4f);
    EXPECT_LT(s.bones[head].world.at(2, 3), 1.75f);
    EXPECT_LT(s.bones[toe].world.at(2, 3), 0.2f);
    EXPECT_GT(s.bones[toe].world.at(2, 3), -0.05f);
    EXPECT_EQ(s.bones[s.find("root")].parent, -1);
}

TEST(Unigine2Corpus, AnimationsDecodeAndStartAtTheirBindPose) {
    MESHSCOPE_REQUIRE_CORPUS(corpus);
    const auto dir = corpus / "unigine";
    if (!std::filesystem::is_directory(dir)) GTEST_SKIP() << "SKIPPED: no corpus/unigine";
    // Names and frame counts read off the files (the name after the bone table, the compact
    // frame count after the 48 bytes of quantization ranges).
    const std::map<std::string, std::pair<std::string, std::uint32_t>> expected = {
        {"walk_fwd.anim", {"walk_fwd", 26}},
        {"idle.anim", {"idle", 56}},
        {"agent_walk.anim", {"agent_walk", 26}},
    };
    std::size_t files = 0;
    for (const auto& e : std::filesystem::recursive_directory_iterator(dir)) {
        if (!e.is_regular_file() || e.path().extension() != ".anim") continue;
        ++files;
        SCOPED_TRACE(e.path().string());
        const auto bytes = test::readFile(e.path());
        const DecodeResult r = decodeBytes(bytes);
        ASSERT_TRUE(r.ok()) << r.error->toString();
        EXPECT_EQ(r.asset.version, "an10");
        EXPECT_EQ(r.asset.warningCount(), 0u);
        std::uint64_t end = 0;
        for (const auto& range : r.asset.byteMap.ranges()) {
            EXPECT_NE(range.kind, RangeKind::Unparsed) << range.offset;
            end = std::max(end, range.end());
        }
        EXPECT_EQ(end, bytes.size());
        ASSERT_EQ(r.asset.animations.size(), 1u);
        ASSERT_EQ(r.asset.skeletons.size(), 1u);
        const Animation& anim = r.asset.animations[0];
        const Skeleton& skel = r.asset.skeletons[0];
        const auto it = expected.find(e.path().filename().string());
        if (it != expected.end()) {
            EXPECT_EQ(anim.name, it->second.first);
            EXPECT_EQ(anim.frameCount, it->second.second);
        }
        EXPECT_EQ(anim.tracks.size(), skel.bones.size());
        // Every rotation is a unit quaternion (four shorts / 32767), and the root's first frame
        // is the root's bind pose (both stored independently: floats vs quantized shorts).
        for (const BoneTrack& t : anim.tracks) {
            ASSERT_EQ(t.rotations.size(), anim.frameCount);
            for (const Vec4& q : t.rotations)
                EXPECT_NEAR(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w, 1, 1e-3) << t.bone;
        }
        const int rootBone = skel.find("root");
        ASSERT_GE(rootBone, 0);
        const BoneTrack* rootTrack = nullptr;
        for (const BoneTrack& t : anim.tracks)
            if (t.bone == "root") rootTrack = &t;
        ASSERT_NE(rootTrack, nullptr);
        const Mat4& bind = skel.bones[rootBone].world;
        EXPECT_NEAR(rootTrack->positions[0].x, bind.at(0, 3), 1e-3);
        EXPECT_NEAR(rootTrack->positions[0].y, bind.at(1, 3), 1e-3);
        EXPECT_NEAR(rootTrack->positions[0].z, bind.at(2, 3), 1e-3);
        const float bindScale =
            std::sqrt(bind.at(0, 0) * bind.at(0, 0) + bind.at(1, 0) * bind.at(1, 0) +
                      bind.at(2, 0) * bind.at(2, 0));
        EXPECT_NEAR(rootTrack->scales[0].x, bindScale, 1e-3);
    }
    EXPECT_GE(files, 3u);
}

TEST(Unigine2Corpus, WalkAnimationPosesTheActorByBoneName) {
    MESHSCOPE_REQUIRE_CORPUS(corpus);
    const auto meshPath = corpus / "unigine/wakqaz4_Unigine_FPS_Demo1/source/meshes/actor_00.mesh";
    const auto animPath =
        corpus / "unigine/wakqaz4_Unigine_FPS_Demo1/source/meshes/actor_00/walk_fwd.anim";
    if (!std::filesystem::exists(meshPath) || !std::filesystem::exists(animPath))
        GTEST_SKIP() << "SKIPPED: actor_00 files held out";
    const DecodeResult mesh = decodeFile(meshPath.string());
    const DecodeResult anim = decodeFile(animPath.string());
    ASSERT_TRUE(mesh.ok() && anim.ok());
    const Skeleton& s = mesh.asset.skeletons.at(0);
    const Animation& a = anim.asset.animations.at(0);
    // Every track names a bone of the mesh (the .anim lists 53 of the mesh's 54 bones, in
    // another order).
    std::vector<const BoneTrack*> trackOf(s.bones.size(), nullptr);
    for (const BoneTrack& t : a.tracks) {
        const int b = s.find(t.bone);
        ASSERT_GE(b, 0) << t.bone;
        trackOf[std::size_t(b)] = &t;
    }
    // Tracks are parent-relative TRS like the bind pose: frame 0 composed down the mesh's
    // hierarchy stands the actor up (head near the bind head, feet near the ground).
    auto trs = [](const Vec3& p, const Vec4& q, const Vec3& sc) {
        const float x = q.x, y = q.y, z = q.z, w = q.w;
        Mat4 m;
        m.at(0, 0) = (1 - 2 * (y * y + z * z)) * sc.x;
        m.at(0, 1) = 2 * (x * y - z * w) * sc.y;
        m.at(0, 2) = 2 * (x * z + y * w) * sc.z;
        m.at(1, 0) = 2 * (x * y + z * w) * sc.x;
        m.at(1, 1) = (1 - 2 * (x * x + z * z)) * sc.y;
        m.at(1, 2) = 2 * (y * z - x * w) * sc.z;
        m.at(2, 0) = 2 * (x * z - y * w) * sc.x;
        m.at(2, 1) = 2 * (y * z + x * w) * sc.y;
        m.at(2, 2) = (1 - 2 * (x * x + y * y)) * sc.z;
        m.at(0, 3) = p.x, m.at(1, 3) = p.y, m.at(2, 3) = p.z;
        return m;
    };
    std::vector<Mat4> world(s.bones.size());
    std::vector<bool> done(s.bones.size(), false);
    for (std::size_t pass = 0; pass < s.bones.size(); ++pass) {
        for (std::size_t b = 0; b < s.bones.size(); ++b) {
            const int parent = s.bones[b].parent;
            if (done[b] || (parent >= 0 && !done[std::size_t(parent)])) continue;
            Mat4 local = parent >= 0
                             ? inverse(s.bones[std::size_t(parent)].world) * s.bones[b].world
                             : s.bones[b].world;
            if (const BoneTrack* t = trackOf[b])
                local = trs(t->positions[0], t->rotations[0], t->scales[0]);
            world[b] = parent >= 0 ? world[std::size_t(parent)] * local : local;
            done[b] = true;
        }
    }
    const std::size_t head = std::size_t(s.find("Bip01 Head"));
    const std::size_t toe = std::size_t(s.find("Bip01 R Toe0"));
    EXPECT_NEAR(world[head].at(2, 3), s.bones[head].world.at(2, 3), 0.1);
    EXPECT_GT(world[head].at(2, 3), 1.3f);
    EXPECT_LT(world[toe].at(2, 3), 0.25f);
    EXPECT_GT(world[toe].at(2, 3), -0.05f);
}
