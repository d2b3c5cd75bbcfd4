// The meshes of a Roblox model's parts: every mesh reference (a MeshPart's MeshContent/MeshId, a
// SpecialMesh or FileMesh child's MeshId) resolved to a file inside the folders the user chose
// (AssetResolver), decoded, and placed like its part (placePartMesh). A step after decoding, run
// off the GUI thread with the decode, so that a viewer only draws what it returns. A reference that
// cannot be resolved, or whose file holds no mesh, becomes a Warning diagnostic at the bytes of
// its MeshId property; its parts are drawn as their shapes.
#pragma once

#include <atomic>
#include <cstddef>
#include <filesystem>
#include <vector>

#include "meshscope/core/asset.h"
#include "meshscope/core/limits.h"
#include "meshscope/core/roblox_parts.h"

namespace meshscope {

// Diagnostic codes of resolvePartMeshes.
inline constexpr const char* kMeshUnresolved = "mesh-unresolved";  // not found, or refused
inline constexpr const char* kMeshEmpty = "mesh-empty";  // resolved; the file holds no mesh
// CSG unions whose geometry is neither in the file nor in the asset folders (drawn as
// translucent boxes of their Size); one warning for all of them.
inline constexpr const char* kUnionUnresolved = "union-unresolved";
// Info: a place's parts outside Workspace, not drawn (as Roblox Studio draws a place).
inline constexpr const char* kPartsOutsideWorkspace = "parts-outside-workspace";

struct PartMesh {
    std::size_t part = 0;  // index into PartMeshes::parts
    Mesh mesh;             // the file's first mesh placed like the part (skin kept with a skeleton)
    int skeleton = -1;     // index into PartMeshes::skeletons, or -1
    int lod = 0;           // the level placed (PartMeshOptions::lod clamped to the file's last)
    int lodCount = 1;      // the levels the file's mesh has (1 when it stores none)
};

struct PartMeshes {
    std::vector<RobloxPart> parts;  // extractRobloxParts(asset); empty for anything else
    std::vector<PartMesh> meshes;   // the parts drawn as a mesh, in part order
    // The skeletons of skinned meshes, one placed copy per mesh (placePartSkeleton), so that
    // posing bends each in place.
    std::vector<Skeleton> skeletons;
    // One Warning per distinct reference that was not drawn (code kMeshUnresolved or
    // kMeshEmpty), at its first part's MeshId bytes, naming that part and how many use it.
    std::vector<Diagnostic> diagnostics;
    std::size_t references = 0;  // parts (visible ones) that name a mesh
    // A place's parts outside Workspace, left out (kPartsOutsideWorkspace); 0 with allServices.
    std::size_t outsideWorkspace = 0;
    bool cancelled = false;
};

struct PartMeshOptions {
    std::vector<std::filesystem::path> folders;  // searched in order
    Limits limits;                               // for decoding each referenced file
    const std::atomic<bool>* cancel = nullptr;   // stops between files
    // Parts outside a place's Workspace too (extractRobloxParts' allServices).
    bool allServices = false;
    // Meshes (and skeletons) placed in each part's own frame: scale and offset applied, the
    // CFrame not (an exporter places the part by its node's transform instead).
    bool partFrame = false;
    // The LOD placed of a FileMesh with levels (0, the finest, as the viewer draws); a file with
    // fewer levels gives its last (PartMesh::lod says which).
    int lod = 0;
};

// Parts of `asset` (a Roblox model; anything else gives an empty result) and their meshes.
// CSG unions get their decoded geometry (unionPartMesh: MeshData2, MeshData or the AssetId
// through the folders); NegateOperations are not drawn (transparency 1 in `parts`); unions
// without geometry are made at least 70 % transparent and named in one kUnionUnresolved warning.
// Each referenced file is read and decoded once, however many parts use it. Parts with
// transparency >= 1 are not resolved (they are not drawn).
PartMeshes resolvePartMeshes(const Asset& asset, const PartMeshOptions& options = {});

}  // namespace meshscope
