// Generated fixtures for the inspector tests: FileMesh and Second Life files written by core's
// writers from core's generators (no corpus needed).
#pragma once

#include <QString>
#include <string>

#include "meshscope/core/mesh_generators.h"
#include "meshscope/core/roblox_mesh_writer.h"
#include "meshscope/core/secondlife_writer.h"
#include "support/test_support.h"

namespace meshscope::inspector_test {

inline QString writeFileMeshFixture(const std::string& dir, const std::string& name,
                                    const Asset& asset, const std::string& version = "4.00") {
    return QString::fromStdString(test::writeFileMeshFixture(dir, name, asset, version).string());
}

// Four spheres of falling detail named as Second Life's LOD blocks.
inline Asset secondLifeLodAsset() {
    Asset asset;
    const int rings[4] = {16, 10, 6, 4};
    const char* names[4] = {"high_lod", "medium_lod", "low_lod", "lowest_lod"};
    for (int l = 0; l < 4; ++l) {
        Asset sphere = makeUvSphere(rings[l], rings[l] + 4);
        Mesh mesh = std::move(sphere.meshes.at(0));
        mesh.name = names[l];
        mesh.node = -1;
        mesh.lods = {{0, std::uint32_t(mesh.triangleCount()), names[l]}};
        asset.meshes.push_back(std::move(mesh));
    }
    return asset;
}

inline QString writeSecondLifeFixture(const std::string& dir, const std::string& name,
                                      const Asset& asset) {
    const SecondLifeWriteResult written = writeSecondLifeMesh(asset);
    EXPECT_TRUE(written.ok()) << (written.error ? *written.error : "");
    const auto path = test::tempDir(dir) / name;
    test::writeFile(path, written.bytes);
    return QString::fromStdString(path.string());
}

}  // namespace meshscope::inspector_test
