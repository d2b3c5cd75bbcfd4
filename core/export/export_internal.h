// Shared by the glTF and OBJ exporters: which triangles and vertices each LOD writes, cleaned
// vertex streams (exporters must not write NaN or zero-length normals), the visible parts of a
// model with their primitive meshes, and name / UTF-8 hygiene. Visible to the tests.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "meshscope/core/asset.h"
#include "meshscope/core/export.h"
#include "meshscope/core/roblox_parts.h"

namespace meshscope::exporting {

// ---------------------------------------------------------------------------------------------
// Names

// Replaces every byte sequence that is not valid UTF-8 with U+FFFD (JSON writers throw on it).
std::string validUtf8(std::string_view s);
// A file-name-safe stem for sidecar files: characters outside [A-Za-z0-9._-] become '_'.
std::string safeFileStem(std::string_view s);
std::string meshName(const Asset& asset, int meshIndex);

// ---------------------------------------------------------------------------------------------
// LOD selection

struct LodSlice {
    int lod = 0;       // LOD index in the mesh (0 when the mesh has none)
    std::string name;  // "LOD0" or the stored level name
    std::uint32_t firstTriangle = 0, triangleCount = 0;  // clamped to the index buffer
    // Vertices written, in ascending original order. Empty = every vertex of the mesh (a mesh
    // with one LOD keeps even unreferenced vertices; a level of a multi-LOD mesh holds only the
    // vertices its triangles use).
    std::vector<std::uint32_t> vertices;
    bool allVertices() const { return vertices.empty(); }
};

// The levels to write: `lod` < 0 every level, else level `lod` (clamped to the last one, with a
// warning naming the mesh). Triangles whose indices are out of range are left out (warning).
std::vector<LodSlice> selectLods(const Asset& asset, int meshIndex, int lod,
                                 std::vector<std::string>& warnings);
// The triangle indices of a slice, remapped to the slice's vertex numbering; triangles with an
// out-of-range index are skipped.
std::vector<std::uint32_t> sliceIndices(const Mesh& mesh, const LodSlice& slice);
std::size_t sliceVertexCount(const Mesh& mesh, const LodSlice& slice);
// The same triangles split by the mesh's surfaces (each triangle goes to the first surface whose
// range holds it; those no surface holds to surface -1), in surface order, empty groups left
// out. `split` false: one group, surface -1.
struct SurfaceIndices {
    int surface = -1;
    std::vector<std::uint32_t> indices;
};
std::vector<SurfaceIndices> sliceIndicesBySurface(const Mesh& mesh, const LodSlice& slice,
                                                  bool split);

// What a viewer shows as one model with levels: a mesh's LOD ranges, or a Second Life asset's
// high_lod ... lowest_lod meshes. `levels` finest first (one mesh and slice each).
struct MeshLevel {
    int mesh = -1;
    LodSlice slice;
};
struct ExportItem {
    std::string name;
    std::vector<MeshLevel> levels;
    bool physics = false;  // a physics mesh or hull (Second Life physics_mesh / physics_convex)
    bool lines = false;    // a line or point mesh (one level, the whole mesh)
};
// Every mesh with vertices and indices as an item (meshes without are reported and left out).
std::vector<ExportItem> exportItems(const Asset& asset, std::vector<std::string>& warnings);
// Picks level `lod` of each item, clamped to its last level; the items that have fewer levels
// are reported together (one warning per level count, naming them) by report().
class LevelChooser {
public:
    explicit LevelChooser(int lod) : lod_(lod < 0 ? 0 : std::size_t(lod)) {}
    std::size_t choose(const ExportItem& item);
    void report(std::vector<std::string>& warnings) const;

private:
    std::size_t lod_;
    std::map<std::size_t, std::vector<std::string>> short_;  // level count -> item names
};

// ---------------------------------------------------------------------------------------------
// Axes and units: every export is Y-up. Second Life and Unigine are Z-up (X forward, right
// handed): their positions turn by -90 degrees about X, (x, y, z) -> (x, z, -y), a rotation, so
// triangle winding and handedness are kept. Units stay the source's and are stated in
// asset.extras.

struct SourceAxes {
    bool zUp = false;
    std::string upAxis = "Y";    // of the source
    std::string unit = "metre";  // of the source ("stud" for Roblox)
    double metresPerUnit = 1.0;  // 0.28 for Roblox studs
    Vec3 point(const Vec3& p) const { return zUp ? Vec3{p.x, p.z, -p.y} : p; }
    Vec4 tangent(const Vec4& t) const { return zUp ? Vec4{t.x, t.z, -t.y, t.w} : t; }
    // R · m · Rᵀ: a bone's world or inverse bind matrix in the turned space.
    Mat4 matrix(const Mat4& m) const;
};
SourceAxes sourceAxes(const Asset& asset);

// ---------------------------------------------------------------------------------------------
// Clean streams (counts of repaired values go to warnings, once per mesh and stream)

// Non-finite positions become (0, 0, 0).
std::vector<Vec3> cleanPositions(const Mesh& mesh, const std::string& name,
                                 std::vector<std::string>& warnings);
// Unit length; non-finite or zero normals become (0, 1, 0).
std::vector<Vec3> cleanNormals(const Mesh& mesh, const std::string& name,
                               std::vector<std::string>& warnings);
// Unit xyz orthogonal to the normal where possible, w = ±1.
std::vector<Vec4> cleanTangents(const Mesh& mesh, const std::vector<Vec3>& normals,
                                const std::string& name, std::vector<std::string>& warnings);
// Per-vertex tangents from the UVs (summed over the triangles, w the handedness), for a normal
// map on a mesh that stores none; not yet unit (pass through cleanTangents). Empty when the mesh
// lacks UVs or normals.
std::vector<Vec4> uvTangents(const Mesh& mesh);
// Non-finite UVs become 0.
std::vector<Vec2> cleanUvs(const std::vector<Vec2>& uvs);

// ---------------------------------------------------------------------------------------------
// Model parts

struct PartTexture {
    std::string path;      // the file; empty when none
    std::string mimeType;  // "image/png" or "image/jpeg"
    bool ok() const { return !path.empty(); }
    friend auto operator<=>(const PartTexture&, const PartTexture&) = default;
};

// A Decal or Texture on one face of a box part, written as its own quad (decalQuad).
struct PartDecal {
    std::string name;
    PartTexture image;
    // Enum.NormalId: Right 0 (+X), Top 1 (+Y), Back 2 (+Z), Left 3 (-X), Bottom 4 (-Y),
    // Front 5 (-Z) of the part's own frame.
    int face = 5;
    bool tiled = false;       // a Texture: repeats every studsPerTile
    Vec2 studsPerTile{2, 2};  // StudsPerTileU / V (Texture)
    Vec2 offsetStuds{0, 0};   // OffsetStudsU / V (Texture)
    Vec3 color{1, 1, 1};      // Color3 tint, 0..1
    float transparency = 0;   // Transparency, 0..1
    int zIndex = 1;           // ZIndex: higher draws over lower on the same face
    int layer = 0;  // 0.. by ZIndex (then child order) among the part's decals on this face
    friend bool operator==(const PartDecal&, const PartDecal&) = default;
};

// The quad of a decal: the face of the part's unit box (the part's shape mesh before its
// partShapeScale), moved kDecalOffsetStuds × (layer + 1) outward along the face normal (so that
// it does not fight the box face, or a lower decal on that face, for depth; layer capped at 15),
// with normals and UVs (glTF convention, v down). The image's orientation on each face (as seen
// from outside): on the side faces its top is +Y; on Right its right edge is toward -Z, Back +X,
// Left +Z, Front -X; on Top and Bottom its top is toward the Front (-Z), right toward +X (Top) / -X
// (Bottom). A Decal stretches over the face; a Texture repeats every StudsPerTileU/V studs from the
// face's top-left corner, shifted by OffsetStudsU/V (UVs beyond 0..1; the sampler repeats). Empty
// when `size` has a zero or non-finite side.
inline constexpr float kDecalOffsetStuds = 0.01f;
Mesh decalQuad(const PartDecal& decal, Vec3 size);

struct PartInstance {
    int node = -1;  // Asset::nodes index
    std::string name;
    std::string className;
    PartShape shape = PartShape::Block;
    CFrame cframe;
    Vec3 size;
    Rgba8 color{163, 162, 165, 255};  // Medium stone grey when the part stores no Color
    bool unresolvedMesh = false;      // MeshPart / union written as a box
    // A union's decoded geometry in the part's own frame (fitted to Size; the CFrame is the
    // node's), with vertex colours; written instead of the shape when set.
    std::shared_ptr<const Mesh> mesh;
    bool vertexColors = false;    // UsePartColor false: the mesh's colours, not `color`
    std::int64_t material = 256;  // Enum.Material value (256 Plastic when none is stored)
    // Image files found through the asset folders (empty path: none): the colour map
    // (SurfaceAppearance ColorMap, else MeshPart TextureID, SpecialMesh TextureId, or the first
    // Decal / Texture child's Texture of a part that is not a box, stretched over it) and the
    // normal map (SurfaceAppearance NormalMap). PNG or JPEG, checked by their first bytes.
    PartTexture colorMap, normalMap;
    // SurfaceAppearance RoughnessMap / MetalnessMap (glTF packs them into one image, OBJ copies
    // them: map_Pr / map_Pm), with where their values are stored (for warnings: byte offset of
    // the property, and the SurfaceAppearance's instance path).
    PartTexture roughnessMap, metalnessMap;
    std::uint64_t roughnessOffset = 0, metalnessOffset = 0;
    std::string appearancePath;
    float reflectance = 0;  // Reflectance, 0..1
    // Decals and Textures of a box part (Block shape, no mesh), each on its face; those of other
    // parts stretch over the whole part as its colour map (one counted warning).
    std::vector<PartDecal> decals;
};

// An instance's path: its ancestors' names and its own, joined by '/'.
std::string instancePath(const Asset& asset, int node);

// A Roblox Enum.Material as a glTF metallic-roughness material.
struct RobloxMaterialLook {
    const char* name;  // "Plastic" ...; "Material <n>" style names are made by the caller
    float roughness = 0.8f;
    float metallic = 0;
    bool emissive = false;  // Neon glows in its colour
};
// nullopt for a value not in the table.
std::optional<RobloxMaterialLook> robloxMaterialLook(std::int64_t material);

// A node of the exported part tree: a part, or an instance that contains parts (kept so that
// Models and folders group their parts). Parts nested in parts hang under the nearest non-part
// ancestor, so that every part's transform is its world CFrame.
struct PartTreeNode {
    int node = -1;    // Asset::nodes index
    int parent = -1;  // index in PartTree::nodes
    int part = -1;    // index in PartTree::parts, -1 for a group
    std::vector<int> children;
};

struct PartTree {
    std::vector<PartInstance> parts;
    std::vector<PartTreeNode> nodes;  // parents before children
    std::vector<int> roots;
};

// Collects the visible parts (BasePart classes with a CFrame and a size; fully transparent parts
// are left out) in tree order. MeshPart and SpecialMesh meshes are resolved through
// `assetFolders` (resolvePartMeshes, as the viewer does) and written as their geometry (LOD 0,
// as the viewer draws them); those not found stay boxes of their Size, one counted warning per
// kind. Unions get their decoded geometry (MeshData2 / MeshData, else AssetId through
// `assetFolders`); NegateOperations are left out (they cut other parts, Roblox does not draw them).
// `lod`: the level written of a resolved FileMesh with LODs (clamped to its last, one counted
// warning for the parts whose files have fewer).
PartTree collectParts(const Asset& asset, std::vector<std::string>& warnings,
                      const std::vector<std::string>& assetFolders = {}, bool allServices = false,
                      int lod = 0);

// Shapes, their unit meshes (partShapeMesh) and scales (partShapeScale) are roblox_parts.h's.
// Column-major world transform of a CFrame (rotation and translation).
Mat4 cframeMatrix(const CFrame& cf);

}  // namespace meshscope::exporting
