// meshscope-cli export / convert: end to end on FileMeshes written by the project's own writer
// (exit status, files written, warnings on stderr), usage errors (exit 2), and the guard that
// never lets an output overwrite the input.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "cli_commands.h"
#include "export/tinygltf_config.h"
#include "meshscope/core/decode.h"
#include "meshscope/core/mesh_generators.h"
#include "meshscope/core/roblox_mesh_writer.h"
#include "meshscope/core/roblox_model_writer.h"
#include "meshscope/core/secondlife_writer.h"
#include "support/rig_fixtures.h"
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

TEST(CliExport, NothingToExportExitsThreeNotOne) {
    const auto dir = test::tempDir("cli_export_nothing");
    // A model holding only a Folder: readable, but nothing to draw.
    Asset folder;
    folder.format = "roblox-model";
    folder.addNode("Stuff", "Folder");
    const auto w = writeRobloxModel(folder);
    ASSERT_TRUE(w.ok());
    const auto in = dir / "folder.rbxm";
    test::writeFile(in, w.bytes);
    ASSERT_TRUE(decodeFile(in.string()).ok());
    for (const char* to : {"glb", "obj"}) {
        const auto r =
            runCli({"export", "--to", to, in.string(), (dir / "out").string() + "." + to});
        EXPECT_EQ(r.status, 3) << to << ": " << r.err;
        EXPECT_NE(r.err.find("nothing to export"), std::string::npos) << r.err;
    }
    EXPECT_FALSE(std::filesystem::exists(dir / "out.glb"));
    const auto help = runCli({"export", "--help"});
    EXPECT_EQ(help.status, 0);
    EXPECT_NE(help.out.find("3 nothing to"), std::string::npos) << help.out;
}

TEST(CliExport, SecondLifeLodsPhysicsAndAllLods) {
    const auto dir = test::tempDir("cli_export_secondlife");
    // Four levels of different detail, and a physics mesh.
    Asset src;
    src.format = "generated";
    const char* names[] = {"high_lod", "medium_lod", "low_lod", "lowest_lod", "physics_mesh"};
    for (int l = 0; l < 5; ++l) {
        Asset s = makeUvSphere(12 >> std::min(l, 3), 16 >> std::min(l, 3));
        Mesh m = s.meshes[0];
        m.name = names[l];
        src.meshes.push_back(m);
    }
    const auto w = writeSecondLifeMesh(src);
    ASSERT_TRUE(w.ok());
    const auto in = dir / "sl.llmesh";
    test::writeFile(in, w.bytes);
    const DecodeResult d = decodeFile(in.string());
    ASSERT_TRUE(d.ok());
    auto load = [](const std::filesystem::path& p) {
        tinygltf::TinyGLTF loader;
        tinygltf::Model m;
        std::string err, warn;
        EXPECT_TRUE(loader.LoadBinaryFromFile(&m, &err, &warn, p.string())) << err;
        return m;
    };
    auto triangles = [](const tinygltf::Model& m) {
        std::size_t t = 0;
        for (const auto& mesh : m.meshes)
            for (const auto& p : mesh.primitives)
                t += m.accessors[std::size_t(p.indices)].count / 3;
        return t;
    };
    // --lod 2: low_lod alone, no warning about levels.
    auto r =
        runCli({"export", "--to", "glb", "--lod", "2", in.string(), (dir / "l2.glb").string()});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.err.find("LOD"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("1 physics mesh(es) left out"), std::string::npos) << r.err;
    auto m = load(dir / "l2.glb");
    ASSERT_EQ(m.meshes.size(), 1u);
    EXPECT_EQ(triangles(m), d.asset.meshes[2].indices.size() / 3);
    // --lod 9: the last level, one warning.
    r = runCli({"export", "--to", "glb", "--lod", "9", in.string(), (dir / "l9.glb").string()});
    ASSERT_EQ(r.status, 0) << r.err;
    std::size_t warnings = 0;
    for (std::size_t at = r.err.find("written instead of LOD 9"); at != std::string::npos;
         at = r.err.find("written instead of LOD 9", at + 1))
        ++warnings;
    EXPECT_EQ(warnings, 1u) << r.err;
    EXPECT_EQ(triangles(load(dir / "l9.glb")), d.asset.meshes[3].indices.size() / 3);
    // --all-lods --physics: four levels (one in the scene) and the physics mesh under a hidden
    // group node.
    r = runCli({"export", "--to", "glb", "--all-lods", "--physics", in.string(),
                (dir / "all.glb").string()});
    ASSERT_EQ(r.status, 0) << r.err;
    m = load(dir / "all.glb");
    EXPECT_EQ(m.meshes.size(), 5u);
    ASSERT_EQ(m.scenes[0].nodes.size(), 2u);
    const auto& top = m.nodes[std::size_t(m.scenes[0].nodes[0])];
    ASSERT_TRUE(top.extensions.contains("MSFT_lod"));
    EXPECT_EQ(top.extensions.at("MSFT_lod").Get("ids").ArrayLen(), 3u);
    const auto& physics = m.nodes[std::size_t(m.scenes[0].nodes[1])];
    EXPECT_EQ(physics.name, "physics");
    EXPECT_TRUE(physics.extras.Get("hidden").Get<bool>());
    ASSERT_EQ(physics.children.size(), 1u);
    EXPECT_EQ(m.nodes[std::size_t(physics.children[0])].name, "physics_mesh");
    // OBJ: the chosen level alone; the physics mesh only with --physics, named as such.
    r = runCli({"export", "--to", "obj", "--lod", "1", in.string(), (dir / "l1.obj").string()});
    ASSERT_EQ(r.status, 0) << r.err;
    auto objects = [](const std::filesystem::path& p) {
        std::ifstream f(p);
        std::vector<std::string> o;
        for (std::string line; std::getline(f, line);)
            if (line.starts_with("o ")) o.push_back(line.substr(2));
        return o;
    };
    EXPECT_EQ(objects(dir / "l1.obj"), std::vector<std::string>{"medium_lod"});
    r = runCli({"export", "--to", "obj", "--physics", in.string(), (dir / "p.obj").string()});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(objects(dir / "p.obj"), (std::vector<std::string>{"high_lod", "physics_mesh"}));
}

// export --animation: a KeyframeSequence in one file baked on the Motor6D rig of another (both
// written by the project's model writer) becomes one glTF animation on the joint nodes; a track
// naming no part is counted in one warning; OBJ and a rigless FILE are refused.
TEST(CliExport, AnimationOfAnotherFileOnTheRig) {
    const auto dir = test::tempDir("cli_export_animation");
    const Asset rig = test::twoPartRig({.model = "Character", .sizes = true});
    Asset anim;
    anim.format = "roblox-model";
    const int seq = anim.addNode("Slide", "KeyframeSequence");
    for (float time : {0.0f, 1.0f}) {
        const int kf = anim.addNode("Keyframe", "Keyframe", seq);
        anim.addProperty(kf, test::prop("Time", "float", double(time)));
        for (const char* part : {"Arm", "Wing"}) {
            const int pose = anim.addNode(part, "Pose", kf);
            anim.addProperty(pose,
                             test::prop("CFrame", "CFrame", test::cframeAt({2 * time, 0, 0})));
            anim.addProperty(pose, test::prop("Weight", "float", 1.0));
        }
    }
    const auto rigBytes = writeRobloxModel(rig);
    const auto animBytes = writeRobloxModel(anim);
    ASSERT_TRUE(rigBytes.ok() && animBytes.ok());
    const auto rigPath = dir / "rig.rbxm", animPath = dir / "slide.rbxm";
    test::writeFile(rigPath, rigBytes.bytes);
    test::writeFile(animPath, animBytes.bytes);
    const auto out = dir / "rig.glb";
    const auto r = runCli({"export", "--to", "glb", "--animation", animPath.string(),
                           rigPath.string(), out.string()});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("1 animations (6 channels)"), std::string::npos) << r.out;
    EXPECT_NE(r.err.find("1 of 2 animated track(s) name no rig part"), std::string::npos) << r.err;
    tinygltf::Model m;
    tinygltf::TinyGLTF loader;
    std::string err, warn;
    ASSERT_TRUE(loader.LoadBinaryFromFile(&m, &err, &warn, out.string())) << err;
    ASSERT_EQ(m.animations.size(), 1u);
    EXPECT_EQ(m.animations[0].name, "Slide");
    EXPECT_EQ(m.animations[0].channels.size(), 6u);
    // Without --animation the rig exports no animation.
    const auto plain = runCli({"export", "--to", "glb", rigPath.string(), out.string()});
    ASSERT_EQ(plain.status, 0) << plain.err;
    EXPECT_EQ(plain.out.find("animations"), std::string::npos) << plain.out;

    // OBJ holds no animation: usage error; an animation on a file without rig: exit 1.
    EXPECT_EQ(runCli({"export", "--to", "obj", "--animation", animPath.string(), rigPath.string(),
                      (dir / "rig.obj").string()})
                  .status,
              2);
    const auto noRig = runCli({"export", "--to", "glb", "--animation", animPath.string(),
                               headFile(dir).string(), (dir / "head.glb").string()});
    EXPECT_EQ(noRig.status, 1);
    EXPECT_NE(noRig.err.find("no Roblox rig"), std::string::npos) << noRig.err;
    EXPECT_NE(runCli({"export", "--help"}).out.find("--animation ANIM"), std::string::npos);
}
