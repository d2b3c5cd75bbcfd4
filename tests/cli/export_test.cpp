// meshscope-cli export / convert: end to end on FileMeshes written by the project's own writer
// (exit status, files written, warnings on stderr), usage errors (exit 2), and the guard that
// never lets an output overwrite the input.
#include <gtest/gtest.h>

#include <sstream>

#include "cli_commands.h"
#include "export/tinygltf_config.h"
#include "meshscope/core/decode.h"
#include "meshscope/core/mesh_generators.h"
#include "meshscope/core/roblox_mesh_writer.h"
#include "support/test_support.h"

using namespace meshscope;

namespace {

struct Output {
    int status;
    std::string out, err;
};

Output runCli(std::vector<std::string> args) {
    std::ostringstream out, err;
    const int status = cli::run(args, out, err);
    return {status, out.str(), err.str()};
}

// A v5.00 FACS head on disk.
std::filesystem::path headFile(const std::filesystem::path& dir) {
    FileMeshWriteOptions o;
    o.version = "5.00";
    const auto w = writeFileMesh(makeFacsHead(), 0, o);
    EXPECT_TRUE(w.ok());
    const auto path = dir / "head.mesh";
    test::writeFile(path, w.bytes);
    return path;
}

}  // namespace

TEST(CliExport, GlbGltfAndObjAreWritten) {
    const auto dir = test::tempDir("cli_export_formats");
    const auto head = headFile(dir);
    const Asset src = makeFacsHead();
    auto r = runCli({"export", "--to", "glb", head.string(), (dir / "head.glb").string()});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("wrote"), std::string::npos);
    EXPECT_NE(r.err.find("warning: "), std::string::npos);  // the FACS correctives
    tinygltf::TinyGLTF loader;
    tinygltf::Model m;
    std::string err, warn;
    ASSERT_TRUE(loader.LoadBinaryFromFile(&m, &err, &warn, (dir / "head.glb").string())) << err;
    ASSERT_EQ(m.meshes.size(), 1u);
    EXPECT_EQ(m.accessors[std::size_t(m.meshes[0].primitives[0].attributes.at("POSITION"))].count,
              src.meshes[0].positions.size());
    EXPECT_EQ(m.skins.size(), 1u);
    EXPECT_EQ(m.meshes[0].primitives[0].targets.size(), src.facs[0].controlNames.size());

    r = runCli({"export", "--to=gltf", head.string(), (dir / "head.gltf").string()});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(std::filesystem::exists(dir / "head.gltf"));
    EXPECT_TRUE(std::filesystem::exists(dir / "head.bin"));

    r = runCli({"export", "--to", "obj", "--lod", "0", head.string(), (dir / "head.obj").string()});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(std::filesystem::exists(dir / "head.mtl"));
    EXPECT_NE(r.err.find("OBJ holds no skeleton"), std::string::npos) << r.err;
}

TEST(CliExport, UsageErrorsExitTwo) {
    const auto dir = test::tempDir("cli_export_usage");
    const auto head = headFile(dir);
    const auto out = (dir / "x.glb").string();
    EXPECT_EQ(runCli({"export", head.string(), out}).status, 2);                 // no --to
    EXPECT_EQ(runCli({"export", "--to", "fbx", head.string(), out}).status, 2);  // format
    EXPECT_EQ(runCli({"export", "--to", "glb", "--lod", "-1", head.string(), out}).status, 2);
    EXPECT_EQ(runCli({"export", "--to", "glb", "--lod", "x", head.string(), out}).status, 2);
    EXPECT_EQ(runCli({"export", "--to", "glb", head.string()}).status, 2);  // no OUT
    EXPECT_EQ(runCli({"export", "--to", "glb", "--frob", head.string(), out}).status, 2);
    EXPECT_EQ(runCli({"convert", "--to", "1.00", head.string(), out}).status, 2);  // text
    EXPECT_EQ(runCli({"convert", "--to", "9.00", head.string(), out}).status, 2);
    EXPECT_EQ(runCli({"convert", "--lod", "1", "--to", "4.00", head.string(), out}).status, 2);
    EXPECT_FALSE(std::filesystem::exists(out));
    // Unreadable input: exit 1.
    EXPECT_EQ(runCli({"export", "--to", "glb", (dir / "missing.mesh").string(), out}).status, 1);
    // The usage lists both commands.
    const auto help = runCli({"--help"});
    EXPECT_NE(help.out.find("export --to glb|gltf|obj"), std::string::npos);
    EXPECT_NE(help.out.find("convert --to 2.00"), std::string::npos);
}

TEST(CliExport, NeverOverwritesTheInput) {
    const auto dir = test::tempDir("cli_export_guard");
    const auto head = headFile(dir);
    const auto before = test::readFile(head);
    // OUT is the input; and a .gltf whose .bin sidecar would be the input ("head.bin" beside
    // "head.gltf", the way real v7 files are named *.bin).
    const auto bin = dir / "head.bin";
    std::filesystem::copy_file(head, bin);
    EXPECT_EQ(runCli({"export", "--to", "glb", head.string(), head.string()}).status, 2);
    auto r = runCli({"export", "--to", "gltf", bin.string(), (dir / "head.gltf").string()});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("is the input file"), std::string::npos) << r.err;
    EXPECT_EQ(runCli({"convert", "--to", "4.00", head.string(), head.string()}).status, 2);
    EXPECT_EQ(test::readFile(head), before);
    EXPECT_EQ(test::readFile(bin), before);
    EXPECT_FALSE(std::filesystem::exists(dir / "head.gltf"));
}

TEST(CliConvert, DroppedFeaturesAreWarnedOnStderrAndTheResultDecodes) {
    const auto dir = test::tempDir("cli_convert");
    const auto head = headFile(dir);
    const auto out = dir / "head2.mesh";
    auto r = runCli({"convert", "--to", "2.00", head.string(), out.string()});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.err.find("warning: version 2.00 cannot hold bones or skin weights: dropped"),
              std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("warning: version 2.00 cannot hold a FACS rig: dropped"),
              std::string::npos)
        << r.err;
    const DecodeResult d = decodeFile(out.string());
    ASSERT_TRUE(d.ok());
    EXPECT_EQ(d.asset.version, "2.00");
    EXPECT_EQ(d.asset.meshes[0].indices.size(), makeFacsHead().meshes[0].indices.size());
    // Up to 7.00 everything fits: no warning.
    r = runCli({"convert", "--to", "7.00", head.string(), (dir / "head7.mesh").string()});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.err.find("warning"), std::string::npos) << r.err;
    const DecodeResult d7 = decodeFile((dir / "head7.mesh").string());
    ASSERT_TRUE(d7.ok());
    EXPECT_EQ(d7.asset.version, "7.00");
    EXPECT_EQ(d7.asset.facs.size(), 1u);
}
