// meshscope-cli: usage, exit codes and the error line, in-process and through the executable.
#include <gtest/gtest.h>

#include <cstdio>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "cli_commands.h"
#include "json_report.h"
#include "meshscope/core/mesh_generators.h"
#include "meshscope/core/roblox_model_writer.h"
#include "meshscope/core/roblox_terrain.h"
#include "meshscope/core/unigine_writer.h"
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
        if (std::string(command) == "tree") {
            EXPECT_NE(r.out.find("caf\xef\xbf\xbd \xef\xbf\xbd"), std::string::npos);
        }
    }
}

namespace {
std::string base64Of(std::string_view s) {
    static const char* t = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    for (std::size_t i = 0; i < s.size(); i += 3) {
        const auto b = [&](std::size_t k) {
            return k < s.size() ? std::uint32_t(std::uint8_t(s[k])) : 0u;
        };
        const std::uint32_t n = b(i) << 16 | b(i + 1) << 8 | b(i + 2);
        out += t[n >> 18 & 63];
        out += t[n >> 12 & 63];
        out += i + 1 < s.size() ? t[n >> 6 & 63] : '=';
        out += i + 2 < s.size() ? t[n & 63] : '=';
    }
    return out;
}

std::filesystem::path typesModelFile(const char* dir) {
    const auto written = meshscope::writeRobloxModel(meshscope::makeRobloxTypesModel());
    const auto file = meshscope::test::tempDir(dir) / "types.rbxm";
    meshscope::test::writeFile(file, written.bytes);
    return file;
}

// Calls f(node) for every node of a `tree --json` report.
template <typename F>
void eachNode(const nlohmann::json& nodes, F&& f) {
    for (const auto& n : nodes) {
        f(n);
        if (n.contains("children")) eachNode(n["children"], f);
    }
}
}  // namespace

// A SharedString's content is written once, in "sharedStrings"; values refer to it by index.
TEST(Cli, TreeJsonWritesEachSharedStringOnce) {
    const meshscope::Asset model = meshscope::makeRobloxTypesModel();
    std::set<std::string> contents;
    std::size_t uses = 0;
    for (int n = 0; n < int(model.nodes.size()); ++n)
        for (const auto& p : model.properties(n))
            if (p.type == "SharedString") {
                contents.insert(std::get<std::string>(p.value));
                ++uses;
            }
    ASSERT_LT(contents.size(), uses);
    const auto r = cli({"tree", "--json", typesModelFile("cli-shared").string()});
    ASSERT_EQ(r.status, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    ASSERT_TRUE(j.contains("sharedStrings"));
    const auto& table = j["sharedStrings"];
    ASSERT_EQ(table.size(), contents.size());
    std::set<std::string> tableContents;
    for (const auto& s : table) tableContents.insert(s["base64"].get<std::string>());
    std::set<std::string> expected;
    for (const auto& c : contents) expected.insert(base64Of(c));
    EXPECT_EQ(tableContents, expected);
    std::size_t refs = 0;
    eachNode(j["roots"], [&](const nlohmann::json& n) {
        if (!n["properties"].contains("Blob")) return;
        const auto& v = n["properties"]["Blob"];
        ASSERT_TRUE(v.is_object() && v.contains("sharedString")) << v.dump();
        const std::size_t k = v["sharedString"].get<std::size_t>();
        ASSERT_LT(k, table.size());
        ++refs;
    });
    EXPECT_EQ(refs, uses);
    // Each content appears once in the whole report.
    for (const auto& b : expected) {
        const auto first = r.out.find(b);
        ASSERT_NE(first, std::string::npos);
        EXPECT_EQ(r.out.find(b, first + 1), std::string::npos) << b;
    }
}

// A string value that is not UTF-8 is written as base64, not as text with U+FFFD.
TEST(Cli, TreeJsonWritesNonUtf8StringsAsBase64) {
    meshscope::Asset model = meshscope::makeRobloxTypesModel();
    const std::string raw("caf\xe9 \xff\x00!", 8);
    for (auto& property : model.propertyList(0))
        if (property.name == "Name") property.value = raw;
    model.setName(0, raw);
    const auto written = meshscope::writeRobloxModel(model);
    const auto file = meshscope::test::tempDir("cli-base64") / "bytes.rbxm";
    meshscope::test::writeFile(file, written.bytes);
    const auto r = cli({"tree", "--json", file.string()});
    ASSERT_EQ(r.status, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    bool found = false;
    eachNode(j["roots"], [&](const nlohmann::json& n) {
        if (n["id"] != 0) return;
        found = true;
        const auto& v = n["properties"]["Name"];
        ASSERT_TRUE(v.is_object()) << v.dump();
        EXPECT_EQ(v["base64"], base64Of(raw));
    });
    EXPECT_TRUE(found);
    EXPECT_TRUE(meshscope::cli::isUtf8("plain \xc3\xa9 text"));
    EXPECT_FALSE(meshscope::cli::isUtf8("caf\xe9"));
    EXPECT_FALSE(meshscope::cli::isUtf8("\xed\xa0\x80"));  // a surrogate
    EXPECT_FALSE(meshscope::cli::isUtf8("12345678\xc3"));  // cut short after an ASCII run
}

TEST(Cli, TreeJsonDepthAndNoValues) {
    const auto file = typesModelFile("cli-depth").string();
    const auto whole = nlohmann::json::parse(cli({"tree", "--json", file}).out);
    std::size_t all = 0;
    eachNode(whole["roots"], [&](const nlohmann::json&) { ++all; });

    const auto r0 = cli({"tree", "--json", "--depth", "0", file});
    ASSERT_EQ(r0.status, 0) << r0.err;
    const auto j0 = nlohmann::json::parse(r0.out);
    ASSERT_EQ(j0["roots"].size(), whole["roots"].size());
    std::size_t omitted = 0;
    for (std::size_t i = 0; i < j0["roots"].size(); ++i) {
        const auto& n = j0["roots"][i];
        EXPECT_TRUE(n["children"].empty());
        const std::size_t had = whole["roots"][i]["children"].size();
        if (had) {
            EXPECT_EQ(n["childrenOmitted"], had);
        } else {
            EXPECT_FALSE(n.contains("childrenOmitted"));
        }
        omitted += had;
    }
    EXPECT_GT(omitted, 0u) << "the model should have nested nodes";

    // Depth 1: roots and their children, no grandchildren.
    const auto j1 = nlohmann::json::parse(cli({"tree", "--json", "--depth", "1", file}).out);
    std::size_t count1 = 0;
    eachNode(j1["roots"], [&](const nlohmann::json&) { ++count1; });
    EXPECT_GT(count1, j0["roots"].size());
    EXPECT_LE(count1, all);
    for (const auto& root : j1["roots"])
        for (const auto& c : root["children"]) EXPECT_TRUE(c["children"].empty());

    const auto shape = cli({"tree", "--json", "--no-values", file});
    ASSERT_EQ(shape.status, 0) << shape.err;
    const auto js = nlohmann::json::parse(shape.out);
    EXPECT_FALSE(js.contains("sharedStrings"));
    std::size_t shapeNodes = 0;
    eachNode(js["roots"], [&](const nlohmann::json& n) {
        ++shapeNodes;
        EXPECT_FALSE(n.contains("properties"));
        EXPECT_TRUE(n.contains("class") && n.contains("name") && n.contains("id"));
    });
    EXPECT_EQ(shapeNodes, all);
    EXPECT_LT(shape.out.size(), cli({"tree", "--json", file}).out.size());

    EXPECT_EQ(cli({"tree", "--json", "--depth", file}).status, 2);
    EXPECT_EQ(cli({"tree", "--json", "--depth", "-1", file}).status, 2);
    EXPECT_EQ(cli({"tree", "--json", "--depth", "x", file}).status, 2);
    // The text tree honours --depth too.
    const auto text0 = cli({"tree", "--depth", "0", file});
    ASSERT_EQ(text0.status, 0);
    EXPECT_EQ(std::size_t(std::count(text0.out.begin(), text0.out.end(), '\n')),
              whole["roots"].size());
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

TEST(Cli, InfoJsonReportsMorphTargets) {
    meshscope::Asset a = meshscope::makeUvSphere(3, 4);
    meshscope::Mesh& m = a.meshes[0];
    m.morphTargets = {
        {"smile", std::vector<meshscope::Vec3>(m.positions.size(), {0, 0, 0.1f}), {}},
        {"blink", std::vector<meshscope::Vec3>(m.positions.size(), {0.1f, 0, 0}), {}}};
    const auto written = meshscope::writeUnigine2Mesh(a, "ms11");
    ASSERT_TRUE(written.ok());
    const auto dir = meshscope::test::tempDir("cli-morph");
    meshscope::test::writeFile(dir / "face.mesh", written.bytes);
    auto r = cli({"info", "--json", (dir / "face.mesh").string()});
    ASSERT_EQ(r.status, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    ASSERT_EQ(j["meshes"].size(), 1u);
    EXPECT_EQ(j["meshes"][0]["morphTargets"], 2);
    EXPECT_EQ(j["meshes"][0]["morphTargetNames"], nlohmann::json::array({"smile", "blink"}));

    // A mesh without morph targets has neither key (earlier reports are unchanged).
    a.meshes[0].morphTargets.clear();
    meshscope::test::writeFile(dir / "plain.mesh", meshscope::writeUnigine2Mesh(a, "ms11").bytes);
    r = cli({"info", "--json", (dir / "plain.mesh").string()});
    ASSERT_EQ(r.status, 0) << r.err;
    const auto plain = nlohmann::json::parse(r.out);
    EXPECT_FALSE(plain["meshes"][0].contains("morphTargets"));
    EXPECT_FALSE(plain["meshes"][0].contains("morphTargetNames"));
}
