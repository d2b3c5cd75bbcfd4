// Export of a decoded Asset to glTF 2.0 (.glb, or .gltf + .bin, through tinygltf) and Wavefront
// OBJ (+ MTL), and conversion of a mesh between Roblox FileMesh versions. No exception crosses
// these functions: failures come back in the result's `error`, and everything that was changed
// or left out on the way comes back as one warning sentence each.
//
// What a glTF export holds (Y-up: Second Life and Unigine, which are Z-up, are turned by -90
// degrees about X, a rotation that keeps winding; the source's unit and up axis are stated in
// asset.extras: sourceFormat, sourceUpAxis, upAxis "Y", unit, metresPerUnit):
//  - of every triangle mesh the chosen LOD (ExportOptions::lod) as one glTF mesh and node, one
//    primitive per material (Second Life faces and Unigine surfaces are materials; other meshes
//    get one white material, so that vertex colours show): positions, normals, UV sets,
//    tangents, vertex colours (the stored RGBA bytes, normalized), and skin joints and weights;
//    with allLods the other levels as MSFT_lod alternates; line meshes as LINES primitives;
//    physics meshes and hulls only with `physics`, under a hidden "physics" node;
//  - every skeleton as a node hierarchy (local transforms from the bind pose; several root bones
//    under one group node) and, for the meshes it skins, a skin with joints and inverse bind
//    matrices (the file's own when stored);
//  - a FACS rig as one morph target per base control (position deltas of the FACS pose at weight
//    1, named in mesh.extras.targetNames by FaceControls name), or a warning saying why not;
//  - a model's or place's visible parts (BasePart classes with CFrame and size) as one node per
//    part carrying the part's CFrame, scaled primitive meshes shared between parts, materials
//    from the part's Color, Transparency, Material and Reflectance; CSG unions as their decoded
//    geometry (negated parts left out); MeshPart / SpecialMesh FileMeshes found in the asset
//    folders as their geometry (level ExportOptions::lod, clamped); textures from the asset
//    folders (colour, normal, and SurfaceAppearance roughness + metalness packed into one
//    metallicRoughnessTexture), and a box part's Decals / Textures as quads on their faces.
// UVs keep the core's convention (V grows downwards), which is glTF's; OBJ gets 1 - V.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "meshscope/core/asset.h"
#include "meshscope/core/roblox_mesh_writer.h"

namespace meshscope {

enum class ExportFormat : std::uint8_t { Glb, Gltf, Obj };

// "glb", "gltf", "obj" (any case); nullopt otherwise.
std::optional<ExportFormat> parseExportFormat(std::string_view name);
const char* exportFormatName(ExportFormat format);  // "glb" ...

struct ExportOptions {
    ExportFormat format = ExportFormat::Glb;
    // The level of detail written for every mesh (a FileMesh's LOD ranges; a Second Life asset's
    // high_lod / medium_lod / low_lod / lowest_lod meshes). A model with fewer levels gives its
    // last one, with one warning naming it. A negative value is read as 0 with allLods set.
    int lod = 0;
    // glTF: the other levels too, as MSFT_lod alternates of the chosen level's node (nodes
    // outside the scene that only MSFT_lod names, so that importers without the extension show
    // one level). OBJ writes the chosen level only.
    bool allLods = false;
    // Physics meshes and hulls (Second Life physics_mesh / physics_convex): left out unless set;
    // glTF puts them under a "physics" node that is marked hidden (KHR_node_visibility and
    // extras.hidden), OBJ in objects named physics_*.
    bool physics = false;
    bool facsMorphTargets = true;
    // Folders where a union's AssetId is looked up (roblox_parts.h unionPartMesh); unions whose
    // blob is inside the file need none.
    std::vector<std::string> assetFolders;
    // A place's parts outside Workspace (ReplicatedStorage, ServerStorage ...) too; by default
    // only what Studio draws.
    bool allServices = false;
};

// What was written, counted the way a reader sees it.
struct ExportStats {
    std::size_t meshes = 0;    // glTF meshes / OBJ objects
    std::size_t nodes = 0;     // glTF nodes (0 for OBJ)
    std::size_t vertices = 0;  // summed over meshes
    std::size_t triangles = 0;
    std::size_t lines = 0;   // line segments
    std::size_t points = 0;  // points of point clouds
    std::size_t skins = 0;
    std::size_t joints = 0;             // summed over skins
    std::size_t skinnedVertices = 0;    // vertices written with joints and weights
    std::size_t morphTargets = 0;       // summed over meshes
    std::size_t parts = 0;              // model parts written
    std::size_t rigParts = 0;           // of those, hung under their rig joint node (glTF)
    std::size_t animations = 0;         // glTF animations written
    std::size_t animationChannels = 0;  // summed over them
};

struct ExportResult {
    std::vector<std::string>
        files;  // every file written (glTF: .gltf then .bin, no .bin when the asset has no
                // binary data, e.g. a skeleton alone; OBJ: .obj then .mtl)
    std::vector<std::string> warnings;  // one sentence per thing changed or left out
    ExportStats stats;
    std::optional<std::string> error;  // set when nothing (usable) was written
    // Set with `error` when the asset holds nothing the format can hold (no mesh, skeleton or
    // visible part): the CLI exits with 3 then, not 1.
    bool nothingToExport = false;
    bool ok() const { return !error.has_value(); }
};

// The files an export to `path` writes, in ExportResult::files order, so that a caller can
// refuse to overwrite its input (a .gltf's .bin or an .obj's .mtl sits beside it, named after
// its stem, with characters that need URI escaping replaced by '_').
std::vector<std::string> exportFilePaths(const std::string& path, ExportFormat format);

ExportResult exportAsset(const Asset& asset, const std::string& path,
                         const ExportOptions& options = {});

// The same export as a .glb in memory (options.format is ignored). `files` stays empty.
struct GlbBytes {
    Bytes bytes;
    ExportResult report;
};
GlbBytes exportGlb(const Asset& asset, const ExportOptions& options = {});

// ---------------------------------------------------------------------------------------------
// FileMesh conversion

// Writes the asset's first triangle mesh as FileMesh `version` ("2.00" ... "7.00", also "3.01" and
// "4.01") through writeFileMesh. The warnings name every feature dropped: what the version cannot
// hold (from the writer), other meshes, animations and line meshes of the asset.
FileMeshWriteResult convertToFileMesh(const Asset& asset, const std::string& version,
                                      FileMeshWriteOptions options = {});

}  // namespace meshscope
