// The Khronos glTF Validator (npm gltf-validator, run with Node through
// tests/support/gltf_validate.mjs) must report 0 errors and 0 warnings on the glTF export of every
// real file in the shared corpus, of every test fixture (the generated meshes and models, the
// files the writers make of them, and every file under tests/data/broken that decodes at least in
// part), in each export mode: default, every LOD, physics, .gltf + .bin. Skipped with a message
// only when Node or the package is missing.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "gltf_validator_util.h"
#include "meshscope/core/decode.h"
#include "meshscope/core/export.h"
#include "meshscope/core/mesh_generators.h"
#include "meshscope/core/pose.h"
#include "meshscope/core/roblox_mesh_writer.h"
#include "meshscope/core/roblox_model_writer.h"
#include "meshscope/core/secondlife_writer.h"
#include "meshscope/core/unigine_writer.h"
#include "support/test_support.h"

using namespace meshscope;
using namespace meshscope::test;

namespace {

struct Named {
    std::string name;
    Asset asset;
};

Asset decoded(const Bytes& bytes, const std::string& fileName) {
    DecodeOptions o;
    o.fileName = fileName;
    DecodeResult r = decodeBytes(bytes, o);
    EXPECT_TRUE(r.ok()) << fileName << ": " << (r.error ? r.error->toString() : "");
    return std::move(r.asset);
}

Asset animatedSkeleton() {
    Asset a;
    Skeleton s;
    const char* names[] = {"pelvis", "leg", "foot"};
    for (int b = 0; b < 3; ++b) {
        Bone bone;
        bone.name = names[b];
        bone.parent = b - 1;
        bone.world = translationMatrix({0, 1.0f - float(b), 0});
        s.bones.push_back(bone);
    }
    a.skeletons.push_back(s);
    Animation anim;
    anim.name = "run";
    anim.frameCount = 4;
    anim.skeleton = 0;
    for (int b = 0; b < 3; ++b) {
        BoneTrack t;
        t.bone = s.bones[std::size_t(b)].name;
        for (int f = 0; f < 4; ++f) {
            t.positions.push_back({b == 0 ? 0.5f * f : 1.0f, 2.0f - b, -3.0f});
            const float h = b == 1 ? 0.2f * f : 0.0f;
            t.rotations.push_back({0, 0, std::sin(h), std::cos(h)});
            t.scales.push_back({1, 1, 1});
        }
        anim.tracks.push_back(t);
    }
    a.animations.push_back(anim);
    return a;
}

// The generated assets and what the writers make of them, decoded again.
std::vector<Named> fixtures() {
    std::vector<Named> out;
    out.push_back({"uv_sphere", makeUvSphere(6, 8)});
    out.push_back({"skinned_cylinder", makeSkinnedCylinder(4)});
    out.push_back({"skinned_cylinder_30", makeSkinnedCylinder(30, 8, 8)});
    out.push_back({"lod_sphere", makeLodSphere(3)});
    out.push_back({"facs_head", makeFacsHead()});
    out.push_back({"grid", makeGridMesh(999)});
    out.push_back({"place", makeRobloxPlace(250)});
    out.push_back({"types_model", makeRobloxTypesModel()});
    const std::vector<std::pair<std::string, Asset>> sources = {
        {"uv_sphere", makeUvSphere(6, 8)},
        {"skinned_cylinder", makeSkinnedCylinder(4)},
        {"lod_sphere", makeLodSphere(3)},
        {"facs_head", makeFacsHead()}};
    for (const auto& [name, asset] : sources)
        for (const char* v : {"2.00", "3.00", "4.00", "5.00", "6.00", "7.00"}) {
            FileMeshWriteOptions o;
            o.version = v;
            const FileMeshWriteResult w = writeFileMesh(asset, 0, o);
            if (!w.ok()) continue;
            out.push_back({name + "_filemesh_" + v, decoded(w.bytes, name + ".mesh")});
        }
    for (const auto& [name, asset] : sources) {
        const UnigineWriteResult mi = writeUnigineMesh(asset);
        if (mi.ok()) out.push_back({name + "_mi08", decoded(mi.bytes, name + ".mesh")});
        const SecondLifeWriteResult sl = writeSecondLifeMesh(asset);
        if (sl.ok()) out.push_back({name + "_secondlife", decoded(sl.bytes, name + ".llmesh")});
    }
    const UnigineWriteResult ms = writeUnigineSkinnedMesh(makeSkinnedCylinder(4));
    EXPECT_TRUE(ms.ok());
    if (ms.ok()) out.push_back({"skinned_cylinder_ms08", decoded(ms.bytes, "cylinder.smesh")});
    const UnigineWriteResult as = writeUnigineAnimation(animatedSkeleton());
    EXPECT_TRUE(as.ok());
    if (as.ok()) out.push_back({"run_as08", decoded(as.bytes, "run.sanim")});
    {
        // UNIGINE 2 blend shapes (morph targets with position and normal deltas), skinned too.
        Asset morph = makeSkinnedCylinder(4);
        for (Mesh& m : morph.meshes) {
            MorphTarget grow{"grow", {}, {}};
            for (std::size_t v = 0; v < m.positions.size(); ++v) {
                grow.positionDeltas.push_back(m.normals.size() == m.positions.size()
                                                  ? m.normals[v] * 0.2f
                                                  : Vec3{0, 0, 0.2f});
                grow.normalDeltas.push_back({0, 0, 0});
            }
            m.morphTargets = {
                grow,
                MorphTarget{"lift", std::vector<Vec3>(m.positions.size(), Vec3{0, 0.5f, 0}), {}}};
        }
        for (const char* v : {"ms11", "ms14"}) {
            const UnigineWriteResult w = writeUnigine2Mesh(morph, v);
            EXPECT_TRUE(w.ok());
            if (w.ok())
                out.push_back({std::string("morph_cylinder_") + v, decoded(w.bytes, "morph.mesh")});
        }
    }
    const RobloxModelWriteResult place = writeRobloxModel(makeRobloxPlace(120));
    EXPECT_TRUE(place.ok());
    if (place.ok()) out.push_back({"place_rbxl", decoded(place.bytes, "place.rbxl")});
    // Broken files: whatever part decodes must still export as a valid glTF.
    const auto broken = testDataDir() / "broken";
    std::vector<std::filesystem::path> files;
    for (const auto& e : std::filesystem::recursive_directory_iterator(broken))
        if (e.is_regular_file()) files.push_back(e.path());
    std::sort(files.begin(), files.end());
    for (const auto& f : files) {
        DecodeResult r = decodeFile(f.string());
        out.push_back(
            {"broken_" + std::filesystem::relative(f, broken).string(), std::move(r.asset)});
    }
    return out;
}

std::string fileNameFor(const std::string& name) {
    std::string s = name;
    for (char& c : s)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '-') c = '_';
    return s;
}

// The export modes every file is checked in.
struct Mode {
    const char* name;
    ExportOptions options;
};
std::vector<Mode> modes() {
    std::vector<Mode> m(4);
    m[0].name = "default";
    m[1].name = "all_lods";
    m[1].options.allLods = true;
    m[2].name = "physics_lod1";
    m[2].options.physics = true;
    m[2].options.lod = 1;
    m[3].name = "gltf";
    m[3].options.format = ExportFormat::Gltf;
    m[3].options.allLods = true;
    m[3].options.physics = true;
    return m;
}

// Exports each asset in every mode into `dir`, runs the validator once over all of them and
// expects 0 errors and 0 warnings for each. Returns how many files were validated.
std::size_t validateAll(const std::vector<Named>& assets, const std::filesystem::path& dir,
                        bool* skipped) {
    std::vector<std::filesystem::path> files;
    std::map<std::string, std::string> origin;
    for (const auto& [name, asset] : assets) {
        for (const Mode& mode : modes()) {
            const std::string ext = mode.options.format == ExportFormat::Gltf ? ".gltf" : ".glb";
            const auto path = dir / (fileNameFor(name) + "." + mode.name + ext);
            const ExportResult r = exportAsset(asset, path.string(), mode.options);
            if (!r.ok()) {
                // Only an asset with nothing to draw may refuse.
                EXPECT_NE(r.error->find("nothing to export"), std::string::npos)
                    << name << " (" << mode.name << "): " << *r.error;
                continue;
            }
            files.push_back(path);
            origin[path.string()] = name + " (" + mode.name + ")";
        }
    }
    const ValidatorRun run = runGltfValidator(files);
    if (!run.unavailable.empty()) {
        *skipped = true;
        return 0;
    }
    for (const auto& f : files) {
        SCOPED_TRACE(origin[f.string()]);
        const auto it = run.reports.find(f.string());
        if (it == run.reports.end()) {
            ADD_FAILURE() << "no validator report for " << f << "\n" << run.output;
            continue;
        }
        EXPECT_EQ(it->second.errors, 0u) << it->second.json;
        EXPECT_EQ(it->second.warnings, 0u) << it->second.json;
    }
    return files.size();
}

#define MESHSCOPE_SKIP_WITHOUT_VALIDATOR(skipped)                           \
    if (skipped)                                                            \
    GTEST_SKIP() << "SKIPPED: the Khronos glTF Validator cannot run here: " \
                 << runGltfValidator({}).unavailable                        \
                 << " (npm install -g gltf-validator; ./setup.sh installs it when npm exists)"

}  // namespace

TEST(GltfValidator, EveryFixtureExportIsValid) {
    const auto dir = tempDir("export_validator_fixtures");
    const auto assets = fixtures();
    ASSERT_GE(assets.size(), 40u);
    bool skipped = false;
    const std::size_t n = validateAll(assets, dir, &skipped);
    MESHSCOPE_SKIP_WITHOUT_VALIDATOR(skipped);
    EXPECT_GE(n, 4u * 30u);
    std::cout << "validated " << n << " fixture exports\n";
}

TEST(GltfValidator, EveryCorpusExportIsValid) {
    MESHSCOPE_REQUIRE_CORPUS(corpus);
    std::vector<std::filesystem::path> files;
    for (const auto& e : std::filesystem::recursive_directory_iterator(corpus))
        if (e.is_regular_file()) files.push_back(e.path());
    std::sort(files.begin(), files.end());
    std::vector<Named> assets;
    for (const auto& f : files) {
        const auto ext = f.extension().string();
        if (ext == ".md" || ext == ".png" || ext == ".obj") continue;
        DecodeResult r = decodeFile(f.string());
        if (!r.ok()) continue;
        assets.push_back({std::filesystem::relative(f, corpus).string(), std::move(r.asset)});
    }
    ASSERT_GE(assets.size(), 30u);
    const auto dir = tempDir("export_validator_corpus");
    bool skipped = false;
    const std::size_t n = validateAll(assets, dir, &skipped);
    MESHSCOPE_SKIP_WITHOUT_VALIDATOR(skipped);
    // FileMeshes, Second Life, Unigine and models with parts give a glTF in every mode.
    EXPECT_GE(n, 4u * 40u);
    std::cout << "validated " << n << " corpus exports\n";
}
