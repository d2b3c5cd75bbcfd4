// Conversion of a decoded mesh to another Roblox FileMesh version through writeFileMesh: the
// writer reports what the target version cannot hold; this adds what a FileMesh cannot hold at all
// (further meshes, line meshes, animations).
#include "meshscope/core/export.h"

namespace meshscope {

FileMeshWriteResult convertToFileMesh(const Asset& asset, const std::string& version,
                                      FileMeshWriteOptions options) {
    FileMeshWriteResult result;
    try {
        int chosen = -1;
        std::size_t lineMeshes = 0;
        for (std::size_t i = 0; i < asset.meshes.size(); ++i) {
            if (asset.meshes[i].primitive != Primitive::Triangles)
                ++lineMeshes;
            else if (chosen < 0 && !asset.meshes[i].indices.empty())
                chosen = int(i);
        }
        if (chosen < 0) {
            result.error = "the file holds no triangle mesh to convert";
            return result;
        }
        options.version = version;
        result = writeFileMesh(asset, chosen, options);
        if (!result.ok()) return result;
        std::size_t others = 0;
        for (std::size_t i = 0; i < asset.meshes.size(); ++i)
            if (int(i) != chosen && asset.meshes[i].primitive == Primitive::Triangles) ++others;
        if (others)
            result.warnings.push_back("a FileMesh holds one mesh: " + std::to_string(others) +
                                      " other mesh(es) dropped (mesh " + std::to_string(chosen) +
                                      " written)");
        if (lineMeshes)
            result.warnings.push_back("a FileMesh holds triangles only: " +
                                      std::to_string(lineMeshes) + " line mesh(es) dropped");
        if (!asset.animations.empty())
            result.warnings.push_back("a FileMesh holds no animations: " +
                                      std::to_string(asset.animations.size()) + " dropped");
    } catch (const std::exception& e) {
        result.bytes.clear();
        result.error = std::string("conversion failed: ") + e.what();
    } catch (...) {
        result.bytes.clear();
        result.error = "conversion failed";
    }
    return result;
}

}  // namespace meshscope
