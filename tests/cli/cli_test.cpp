// meshscope-cli: usage, exit codes and the error line, in-process and through the executable.
#include <gtest/gtest.h>

#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli_commands.h"
#include "meshscope/core/roblox_model_writer.h"
#include "meshscope/core/roblox_terrain.h"
#include "support/test_support.h"

using meshscope::cli::run;

namespace {
struct Output {
    int status;
    std::string out, err;
};
Output cli(std::vector<std::string> args) {
    std::ostringstream out, err;
    const int status = run(args, out, err);
    return {status, out.str(), err.str()};
}
}  // namespace

TEST(Cli, HelpAndVersion) {
    auto h = cli({"--help"});
    EXPECT_EQ(h.status, 0);
    EXPECT_NE(h.out.find("info [--json] FILE"), std::string::npos);
    auto v = cli({"--version"});
    EXPECT_EQ(v.status, 0);
    EXPECT_EQ(v.out.rfind("meshscope-cli ", 0), 0u);
}

TEST(Cli, UsageErrorsExitTwo) {
    EXPECT_EQ(cli({}).status, 2);
    EXPECT_EQ(cli({"frobnicate", "x"}).status, 2);
    EXPECT_EQ(cli({"info"}).status, 2);
    EXPECT_EQ(cli({"info", "--bogus", "x"}).status, 2);
    EXPECT_EQ(cli({"info", "a", "b"}).status, 2);
}

TEST(Cli, UnreadableFileExitsOneWithOneLine) {
    auto dir = meshscope::test::tempDir("cli-unreadable");
    auto missing = cli({"info", (dir / "missing.mesh").string()});
    EXPECT_EQ(missing.status, 1);
    EXPECT_NE(missing.err.find("missing.mesh"), std::string::npos);

    const auto junk = dir / "junk.mesh";
    meshscope::test::writeFile(junk, {0xde, 0xad, 0xbe, 0xef, 0x00});
    auto r = cli({"info", "--json", junk.string()});
    EXPECT_EQ(r.status, 1);
    EXPECT_TRUE(r.out.empty());
    // One line: file name, byte offset, problem.
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1);
    EXPECT_NE(r.err.find(junk.string()), std::string::npos);
    EXPECT_NE(r.err.find("offset 0x0"), std::string::npos);
    EXPECT_NE(r.err.find("de ad be ef"), std::string::npos);
}

TEST(Cli, ExecutableReportsLfsPointer) {
    auto dir = meshscope::test::tempDir("cli-lfs");
    const auto lfs = dir / "sword.mesh";
    const std::string text = "version https://git-lfs.github.com/spec/v1\noid sha256:00\nsize 1\n";
    meshscope::test::writeFile(lfs, {text.begin(), text.end()});
    const std::string cmd = std::string(MESHSCOPE_CLI_EXE) + " info " + lfs.string() + " 2>&1";
    FILE* p = popen(cmd.c_str(), "r");
    ASSERT_NE(p, nullptr);
    std::string out;
    char buf[256];
    while (fgets(buf, sizeof buf, p)) out += buf;
    const int status = pclose(p);
    EXPECT_EQ(WEXITSTATUS(status), 1);
    EXPECT_NE(out.find("Git LFS pointer"), std::string::npos) << out;
}

// Names come from the file and need not be UTF-8 (real places carry Latin-1 and stray bytes);
// JSON text must be UTF-8, so the reports write U+FFFD for such bytes instead of failing.
TEST(Cli, JsonReportsReplaceInvalidUtf8InNames) {
    meshscope::Asset model = meshscope::makeRobloxTypesModel();
    ASSERT_FALSE(model.nodes.empty());
    model.setName(0, "caf\xe9 \xff");
    for (auto& property : model.propertyList(0))
        if (property.name == "Name") property.value = std::string(model.name(0));
    const auto written = meshscope::writeRobloxModel(model);
    ASSERT_TRUE(written.ok());
    const auto file = meshscope::test::tempDir("cli-utf8") / "latin1.rbxm";
    meshscope::test::writeFile(file, written.bytes);
    for (const char* command : {"tree", "info"}) {
        SCOPED_TRACE(command);
        const auto r = cli({command, "--json", file.string()});
        ASSERT_EQ(r.status, 0) << r.err;
        const auto parsed = nlohmann::json::parse(r.out, nullptr, false);
        ASSERT_FALSE(parsed.is_discarded());
        if (std::string(command) == "tree")
            EXPECT_NE(r.out.find("caf\xef\xbf\xbd \xef\xbf\xbd"), std::string::npos);
    }
}

// `info --json` reports a place's terrain (#22): null without one, counts by material with one.
TEST(Cli, InfoJsonReportsTerrain) {
    meshscope::TerrainChunkVoxels chunk;
    chunk.voxels.assign(32 * 32 * 32, {});
    for (int x = 0; x < 5; ++x) chunk.voxels[std::size_t(x)] = {2, 255, 0};  // 5 Grass
    chunk.voxels[100] = {6, 128, 0};                                         // 1 Sand
    chunk.voxels[200] = {1, 255, 0};                                         // 1 Water
    meshscope::Asset place;
    place.format = "roblox-model";
    const int ws = place.addNode("Workspace", "Workspace");
    const int terrain = place.addNode("Terrain", "Terrain", ws);
    place.addChild(ws, terrain);
    place.addProperty(terrain, meshscope::test::prop("SmoothGrid", "string",
                                                     meshscope::writeSmoothGrid({&chunk, 1})));
    const auto dir = meshscope::test::tempDir("cli-terrain");
    const auto written = meshscope::writeRobloxModel(place);
    ASSERT_TRUE(written.ok());
    meshscope::test::writeFile(dir / "terrain.rbxl", written.bytes);
    auto r = cli({"info", "--json", (dir / "terrain.rbxl").string()});
    ASSERT_EQ(r.status, 0) << r.err;
    auto j = nlohmann::json::parse(r.out);
    ASSERT_TRUE(j["terrain"].is_object()) << r.out;
    EXPECT_EQ(j["terrain"]["chunks"], 1);
    EXPECT_EQ(j["terrain"]["solidVoxels"], 6);
    EXPECT_EQ(j["terrain"]["waterVoxels"], 1);
    EXPECT_EQ(j["terrain"]["materials"]["Grass"], 5);
    EXPECT_EQ(j["terrain"]["materials"]["Sand"], 1);
    EXPECT_EQ(j["terrain"]["materials"]["Water"], 1);
    EXPECT_GT(j["terrain"]["triangles"].get<int>(), 0);
    EXPECT_GT(j["terrain"]["waterTriangles"].get<int>(), 0);

    const auto plain = meshscope::writeRobloxModel(meshscope::makeRobloxPlace(3));
    meshscope::test::writeFile(dir / "plain.rbxl", plain.bytes);
    r = cli({"info", "--json", (dir / "plain.rbxl").string()});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(nlohmann::json::parse(r.out)["terrain"].is_null());
}
