// Writes fuzzing seeds made by the project's own writers: small files of every version and
// feature of each format, one folder per fuzz target (roblox_mesh/, roblox_model/, ...).
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "meshscope/core/mesh_generators.h"
#include "meshscope/core/roblox_mesh_writer.h"
#include "meshscope/core/roblox_model_writer.h"
#include "meshscope/core/secondlife_writer.h"
#include "meshscope/core/unigine_writer.h"

using namespace meshscope;
namespace fs = std::filesystem;

namespace {

void save(const fs::path& dir, const std::string& name, const Bytes& bytes) {
    fs::create_directories(dir);
    std::ofstream(dir / name, std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
}

void fileMeshSeeds(const fs::path& dir) {
    const std::pair<const char*, Asset> assets[] = {
        {"sphere", makeUvSphere(4, 6)},
        {"skinned", makeSkinnedCylinder(3, 3, 5)},
        {"lods", makeLodSphere(3)},
        {"facs", makeFacsHead()},
    };
    for (const char* version : {"2.00", "3.00", "3.01", "4.00", "4.01", "5.00", "6.00", "7.00"}) {
        for (const auto& [name, asset] : assets) {
            FileMeshWriteOptions options;
            options.version = version;
            auto r = writeFileMesh(asset, 0, options);
            if (r.ok()) save(dir, std::string(name) + "-" + version + ".mesh", r.bytes);
        }
    }
}

void robloxModelSeeds(const fs::path& dir) {
    const Asset types = makeRobloxTypesModel();
    const Asset place = makeRobloxPlace(20);
    for (auto compression : {RobloxChunkCompression::None, RobloxChunkCompression::Lz4,
                             RobloxChunkCompression::Zstd}) {
        RobloxModelWriteOptions options;
        options.compression = compression;
        const std::string suffix = std::to_string(int(compression)) + ".rbxm";
        if (auto r = writeRobloxModel(types, options); r.ok()) save(dir, "types-" + suffix, r.bytes);
        if (auto r = writeRobloxModel(place, options); r.ok()) save(dir, "place-" + suffix, r.bytes);
    }
}

Asset renamed(Asset asset, const char* meshName) {
    asset.meshes.at(0).name = meshName;
    return asset;
}

void secondLifeSeeds(const fs::path& dir) {
    if (auto r = writeSecondLifeMesh(renamed(makeUvSphere(4, 6), "high_lod")); r.ok())
        save(dir, "sphere.llmesh", r.bytes);
    Asset skinned = renamed(makeSkinnedCylinder(3, 3, 5), "high_lod");
    SecondLifeWriteOptions options;
    options.llsdHeader = true;
    if (auto r = writeSecondLifeMesh(skinned, options); r.ok()) save(dir, "skinned.llmesh", r.bytes);
}

void unigineSeeds(const fs::path& dir) {
    if (auto r = writeUnigineMesh(makeUvSphere(4, 6)); r.ok()) save(dir, "sphere.mesh", r.bytes);
    Asset skinned = makeSkinnedCylinder(3, 3, 5);
    if (auto r = writeUnigineSkinnedMesh(skinned); r.ok()) save(dir, "tube.smesh", r.bytes);
    // A two-frame animation of the tube's bones.
    Animation anim;
    anim.name = "bend";
    anim.frameCount = 2;
    anim.skeleton = 0;
    for (const auto& bone : skinned.skeletons.at(0).bones) {
        BoneTrack t;
        t.bone = bone.name;
        t.positions = {{0, 0, 0}, {0, 0.5f, 0}};
        t.rotations = {{0, 0, 0, 1}, {0, 0.38268343f, 0, 0.92387953f}};
        t.scales = {{1, 1, 1}, {1, 1, 1}};
        anim.tracks.push_back(t);
    }
    skinned.animations.push_back(anim);
    if (auto r = writeUnigineAnimation(skinned, 0); r.ok()) save(dir, "bend.sanim", r.bytes);
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: make_seeds DIR\n");
        return 2;
    }
    const fs::path root = argv[1];
    fileMeshSeeds(root / "roblox_mesh");
    robloxModelSeeds(root / "roblox_model");
    secondLifeSeeds(root / "secondlife");
    unigineSeeds(root / "unigine");
    return 0;
}
