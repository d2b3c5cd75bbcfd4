// meshscope-cli info --json on generated mi08 and ms08 files: one mesh entry per surface, the
// bones, and the warnings. Runs the real executable (target meshscope-cli) when it is built.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "meshscope/core/unigine_writer.h"
#include "support/test_support.h"
#include "unigine_test_helpers.h"

using namespace meshscope;
using namespace meshscope::test;

namespace {

std::filesystem::path cliPath() {
    return std::filesystem::path(MESHSCOPE_BINARY_DIR) / "app" / "cli" / "meshscope-cli";
}

// Runs `meshscope-cli info --json file` and parses its output.
nlohmann::json infoJson(const std::filesystem::path& file) {
    const std::string command =
        "\"" + cliPath().string() + "\" info --json \"" + file.string() + "\"";
    FILE* pipe = popen(command.c_str(), "r");
    if (!pipe) return nullptr;
    std::string out;
    char buf[4096];
    while (std::size_t n = fread(buf, 1, sizeof buf, pipe)) out.append(buf, n);
    const int status = pclose(pipe);
    EXPECT_EQ(status, 0) << out;
    return nlohmann::json::parse(out, nullptr, false);
}

}  // namespace

TEST(UnigineCli, InfoJsonListsSurfacesBonesAndWarnings) {
    if (!std::filesystem::exists(cliPath()))
        GTEST_SKIP() << "SKIPPED: meshscope-cli is not built (ninja meshscope-cli)";
    const auto dir = tempDir("unigine_cli");

    Asset a;
    a.meshes.push_back(makeGrid("hull", 2, 2, 0));
    a.meshes.push_back(makeGrid("turret", 1, 1, 1));
    a.meshes.push_back(makeGrid("barrel", 1, 3, 2));
    writeFile(dir / "tank.mesh", writeUnigineMesh(a).bytes);
    nlohmann::json j = infoJson(dir / "tank.mesh");
    ASSERT_TRUE(j.is_object());
    EXPECT_EQ(j["format"], "unigine");
    EXPECT_EQ(j["version"], "mi08");
    ASSERT_EQ(j["meshes"].size(), 3u);
    EXPECT_EQ(j["meshes"][0]["name"], "hull");
    EXPECT_EQ(j["meshes"][1]["name"], "turret");
    EXPECT_EQ(j["meshes"][2]["name"], "barrel");
    EXPECT_EQ(j["meshes"][2]["vertices"], 2 * 4);
    EXPECT_EQ(j["meshes"][2]["triangles"], 2 * 3);
    EXPECT_TRUE(j["warnings"].empty());

    // ms08 with three bones; one weight names bone 9, which the decoder reports.
    Skeleton s;
    s.bones.push_back({"pelvis", -1});
    s.bones.push_back({"spine", 0});
    s.bones.push_back({"neck", 1});
    a.skeletons.push_back(s);
    for (auto& m : a.meshes)
        m.skin.assign(m.positions.size(), VertexInfluences{{1, 0, 0, 0}, {1, 0, 0, 0}});
    a.meshes[0].skin[0].joints[0] = 9;
    writeFile(dir / "soldier.smesh", writeUnigineSkinnedMesh(a).bytes);
    j = infoJson(dir / "soldier.smesh");
    ASSERT_TRUE(j.is_object());
    EXPECT_EQ(j["version"], "ms08");
    ASSERT_EQ(j["meshes"].size(), 3u);
    EXPECT_EQ(j["meshes"][0]["skinned"], true);
    EXPECT_EQ(j["bones"], (nlohmann::json{"pelvis", "spine", "neck"}));
    ASSERT_EQ(j["warnings"].size(), 1u);
    EXPECT_NE(j["warnings"][0].get<std::string>().find("bone"), std::string::npos);
}

TEST(UnigineCli, InfoJsonOnRealUnigine2Files) {
    if (!std::filesystem::exists(cliPath()))
        GTEST_SKIP() << "SKIPPED: meshscope-cli is not built (ninja meshscope-cli)";
    MESHSCOPE_REQUIRE_CORPUS(corpus);
    const auto mesh = corpus / "unigine/wakqaz4_Unigine_FPS_Demo1/source/meshes/actor_00.mesh";
    const auto anim =
        corpus / "unigine/wakqaz4_Unigine_FPS_Demo1/source/meshes/actor_00/walk_fwd.anim";
    if (!std::filesystem::exists(mesh) || !std::filesystem::exists(anim))
        GTEST_SKIP() << "SKIPPED: actor_00 files held out";
    const nlohmann::json m = infoJson(mesh);
    ASSERT_TRUE(m.is_object());
    EXPECT_EQ(m["version"], "ms11");
    // One entry per surface, named; the 54 bones of the file's bone table.
    ASSERT_EQ(m["meshes"].size(), 3u);
    EXPECT_EQ(m["meshes"][0]["name"], "agent_body_lod1");
    EXPECT_EQ(m["meshes"][0]["skinned"], true);
    EXPECT_EQ(m["bones"].size(), 54u);
    EXPECT_TRUE(m["warnings"].empty());
    EXPECT_FALSE(m.contains("frames"));
    const nlohmann::json a = infoJson(anim);
    ASSERT_TRUE(a.is_object());
    EXPECT_EQ(a["version"], "an10");
    EXPECT_TRUE(a["meshes"].empty());
    EXPECT_EQ(a["bones"].size(), 53u);
    EXPECT_EQ(a["frames"], 26);
    ASSERT_EQ(a["animations"].size(), 1u);
    EXPECT_EQ(a["animations"][0]["name"], "walk_fwd");
    EXPECT_EQ(a["animations"][0]["tracks"], 53);
}
