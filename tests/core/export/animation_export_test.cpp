// glTF export of animations: one glTF animation per Animation, translation / rotation / scale
// channels on the joint nodes with one key per frame, frame 0 of a track holding the bind pose
// equal to the node's own transform (Y-up and turned Z-up sources alike), and a warning for an
// animation that names no bone.
#include <gtest/gtest.h>

#include <cmath>

#include "export_test_util.h"
#include "meshscope/core/export.h"
#include "meshscope/core/mesh_generators.h"
#include "support/rig_fixtures.h"

using namespace meshscope;
using namespace meshscope::test;

namespace {

std::vector<float> floats(const tinygltf::Model& m, int accessor) {
    const tinygltf::Accessor& a = m.accessors.at(std::size_t(accessor));
    const tinygltf::BufferView& v = m.bufferViews.at(std::size_t(a.bufferView));
    const int comps = a.type == TINYGLTF_TYPE_SCALAR ? 1 : a.type == TINYGLTF_TYPE_VEC3 ? 3 : 4;
    std::vector<float> out(a.count * std::size_t(comps));
    std::memcpy(out.data(), m.buffers[0].data.data() + v.byteOffset + a.byteOffset,
                out.size() * sizeof(float));
    return out;
}

}  // namespace

TEST(GltfAnimationExport, TracksBecomeChannelsAndFrameZeroIsTheBindPose) {
    for (const char* format : {"", "unigine"}) {  // "unigine" is Z-up: the export turns it
        SCOPED_TRACE(format);
        const Asset a = risingCylinder(format, 4, /*rotations=*/false);
        const GlbBytes glb = exportGlb(a);
        ASSERT_TRUE(glb.report.ok()) << glb.report.error.value_or("");
        for (const auto& w : glb.report.warnings)
            EXPECT_EQ(w.find("animation"), std::string::npos) << w;
        tinygltf::Model m;
        std::string err;
        ASSERT_TRUE(loadGlb(glb.bytes, m, err)) << err;
        ASSERT_EQ(m.animations.size(), 1u);
        const tinygltf::Animation& ga = m.animations[0];
        EXPECT_EQ(ga.name, "rise");
        ASSERT_EQ(ga.channels.size(), 3 * a.skeletons[0].bones.size());
        for (const auto& c : ga.channels) {
            const tinygltf::AnimationSampler& sm = ga.samplers.at(std::size_t(c.sampler));
            const std::vector<float> times = floats(m, sm.input);
            ASSERT_EQ(times.size(), 4u);
            EXPECT_FLOAT_EQ(times[3], 3.0f / 25);
            const std::vector<float> out = floats(m, sm.output);
            const tinygltf::Node& node = m.nodes.at(std::size_t(c.target_node));
            // Frame 0 of the translation is the node's bind translation; every rotation key is
            // the node's bind rotation (the track has none).
            if (c.target_path == "translation") {
                std::vector<double> t = node.translation;
                if (t.empty()) t = {0, 0, 0};
                for (int k = 0; k < 3; ++k)
                    EXPECT_NEAR(out[std::size_t(k)], t[std::size_t(k)], 1e-5);
                // Frame 3 moved 0.3 along the parent's y: 0.3 away, whatever the turn.
                const float dx = out[9] - out[0], dy = out[10] - out[1], dz = out[11] - out[2];
                EXPECT_NEAR(std::sqrt(dx * dx + dy * dy + dz * dz), 0.3, 1e-5);
            } else if (c.target_path == "rotation") {
                for (std::size_t f = 0; f < 4; ++f) {
                    const float* q = out.data() + f * 4;
                    EXPECT_NEAR(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3], 1, 1e-5);
                }
                std::vector<double> r = node.rotation;
                if (r.empty()) r = {0, 0, 0, 1};
                for (std::size_t f = 0; f < 4; ++f) {
                    const float* q = out.data() + f * 4;
                    const double dot = q[0] * r[0] + q[1] * r[1] + q[2] * r[2] + q[3] * r[3];
                    EXPECT_NEAR(std::fabs(dot), 1, 1e-5);
                }
            } else {
                EXPECT_EQ(c.target_path, "scale");
                for (float v : out) EXPECT_NEAR(v, 1, 1e-5);
            }
        }
    }
}

TEST(GltfAnimationExport, AnAnimationNamingNoBoneIsReported) {
    Asset a = risingCylinder("", 2, /*rotations=*/false);
    for (BoneTrack& t : a.animations[0].tracks) t.bone = "no such bone " + t.bone;
    a.animations[0].skeleton = -1;
    const GlbBytes glb = exportGlb(a);
    ASSERT_TRUE(glb.report.ok());
    bool reported = false;
    for (const auto& w : glb.report.warnings)
        reported = reported || w.find("1 animation(s) not exported") != std::string::npos;
    EXPECT_TRUE(reported);
    tinygltf::Model m;
    std::string err;
    ASSERT_TRUE(loadGlb(glb.bytes, m, err)) << err;
    EXPECT_TRUE(m.animations.empty());
}
