// Renderable parts of a Roblox instance tree: every BasePart-derived instance (Part, WedgePart,
// CornerWedgePart, TrussPart, SpawnLocation, Seat, VehicleSeat, MeshPart, UnionOperation ...)
// with its world CFrame, size, shape, colour, transparency and mesh reference; the BrickColor
// palette; unit shape meshes merged into a few batched meshes or grouped for instanced drawing
// (and their back-to-front orders); and a CPU ray cast against the parts' oriented boxes
// (picking). Pure functions over Asset::nodes; no Qt.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "meshscope/core/asset.h"

namespace meshscope {

// Part.Shape enum values as stored ("shape" token): 0 Ball, 1 Block, 2 Cylinder, 3 Wedge,
// 4 CornerWedge. WedgePart/CornerWedgePart/TrussPart map to their shape by class.
// Head and Torso: SpecialMesh MeshType Head / Torso, the legacy character shapes (a vertical
// cylinder with rounded ends; a block narrowing towards the bottom), filling the part's box.
enum class PartShape : std::uint8_t { Ball, Block, Cylinder, Wedge, CornerWedge, Head, Torso };
inline constexpr std::size_t kPartShapeCount = std::size_t(PartShape::Torso) + 1;

const char* partShapeName(PartShape shape);

struct RobloxPart {
    int node = -1;  // Asset::nodes index of the instance
    std::string className;
    PartShape shape = PartShape::Block;
    CFrame cframe;                      // world transform (Roblox parts store world CFrames)
    Vec3 size{4, 1, 2};                 // studs; Roblox's default part size
    Vec3 color{0.64f, 0.635f, 0.647f};  // 0..1 (Medium stone grey when nothing is stored)
    float transparency = 0;
    // Mesh reference: MeshPart MeshId/MeshContent, or a SpecialMesh/FileMesh child's MeshId.
    std::string meshId;
    int meshNode = -1;  // the node whose property holds meshId (the part or its SpecialMesh)
    // Where that property's bytes are (its value, or the column it is stored in; 0 when unknown).
    std::uint64_t meshIdOffset = 0;
    std::uint64_t meshIdLength = 0;
    bool specialMesh = false;  // meshId came from a SpecialMesh child (scale/offset apply)
    // A FileMesh's Scale and Offset. A shape mesh child (BlockMesh, CylinderMesh, SpecialMesh
    // Brick / Wedge / Sphere) has its Scale and Offset baked into `size` and `cframe` instead (a
    // CylinderMesh, which stands along Y, also turns the frame so the X-axis Cylinder stands up).
    Vec3 meshScale{1, 1, 1};
    Vec3 meshOffset;
    // Unions (UnionOperation ...): UsePartColor; false paints the union's own vertex colours.
    bool usePartColor = true;
};

// True for the BasePart-derived class names the viewer draws.
bool isRenderablePartClass(std::string_view className);

// True for the CSG classes whose geometry is a union blob: UnionOperation, NegateOperation,
// IntersectOperation, PartOperation.
bool isUnionClass(std::string_view className);

// True for a Roblox model or place, binary ("roblox-model") or XML ("roblox-model-xml"): an
// instance tree whose nodes are Roblox classes.
bool isRobloxModel(const Asset& asset);

// Every renderable part of the tree, in node order. Properties are looked up by their
// serialized names as well as their current names (size/Size, shape/Shape, Color3uint8/Color,
// BrickColor/brickColor), because files in the wild hold either.
// In a place (a tree with a Workspace root) only the parts under Workspace are drawn, as Roblox
// Studio draws them: parts kept in ReplicatedStorage, ServerStorage, Lighting ... are left out
// unless `allServices`. A model without a Workspace root gives all its parts.
std::vector<RobloxPart> extractRobloxParts(const Asset& asset, bool allServices = false);
// The same parts with where they are and no more, for code such as a rig's joints: node,
// className, cframe and size are those extractRobloxParts gives (a shape mesh child's Scale and
// Offset applied); colour, transparency, Shape and mesh ids are not read, and the other fields
// are not to be relied on. Cheaper: no strings are copied out of the properties.
std::vector<RobloxPart> extractRobloxPartPlacements(const Asset& asset, bool allServices = false);
// How many parts extractRobloxParts leaves out of a place for lying outside Workspace (0 for a
// model), without reading their properties.
std::size_t countPartsOutsideWorkspace(const Asset& asset);

// BrickColor palette (the numbers Roblox documents, e.g. 194 Medium stone grey, 21 Bright red).
// nullopt for a number outside the table.
std::optional<Vec3> brickColorRgb(int number);
const char* brickColorName(int number);  // nullptr when unknown

// Unit mesh of a shape spanning [-0.5, 0.5]³ with normals (flat on flat faces), UVs and one LOD;
// triangles wind counter-clockwise seen from outside. Wedge: full height at the back (+Z), slope
// facing front (-Z) and up. CornerWedge: apex above the (+X, -Z) bottom corner, vertical faces
// right (+X) and front (-Z). Cylinder: axis along X, like Roblox.
Mesh partShapeMesh(PartShape shape);
// The scale applied to the unit mesh: `size`, except that a Ball is a sphere of the smallest
// dimension and a Cylinder's diameter is the smaller of Y and Z (as Roblox draws them).
Vec3 partShapeScale(PartShape shape, Vec3 size);

// One part drawn by instancing its shape's unit mesh (partShapeMesh): `transform` holds
// the rows of the 3×4 matrix [R·S | t], row-major (R the CFrame rotation, S partShapeScale, t the
// CFrame position), so a unit vertex p is placed at R·(S·p) + t exactly as buildPartMeshes
// places it; `color` is the part's colour, alpha 1 - transparency.
struct ShapeInstance {
    std::array<float, 12> transform{};
    Rgba8 color;
    std::size_t part = 0;  // index into the `parts` given
};

// The instances of one shape.
struct ShapeInstanceGroup {
    PartShape shape = PartShape::Block;
    std::vector<ShapeInstance> instances;
};

// The parts grouped by shape, for instanced drawing: one group per shape that occurs, in
// PartShape order, instances in part order. A viewer draws the group's unit mesh once per
// instance (a 64-byte record a part instead of the ~800 bytes of baked vertices and indices
// buildPartMeshes gives it). Parts with transparency >= 1 are left out, as buildPartMeshes does.
std::vector<ShapeInstanceGroup> groupShapeInstances(const std::vector<RobloxPart>& parts);
// The same for the parts whose indices `which` lists (in that order), without copying them.
std::vector<ShapeInstanceGroup> groupShapeInstances(const std::vector<RobloxPart>& parts,
                                                    std::span<const std::size_t> which);
// The order in which to draw `instances` (indices into it) so that those whose position (the
// transform's translation) lies farther along `forward` from `eye` come first; equal depths keep
// their order. Drawn in that order, translucent instances composite back to front.
std::vector<std::uint32_t> instancesBackToFront(const std::vector<ShapeInstance>& instances,
                                                Vec3 eye, Vec3 forward);
// A part's instance transform (see ShapeInstance).
std::array<float, 12> partInstanceTransform(const RobloxPart& part);

// Where one part's triangles lie in the meshes buildPartMeshes returns: a contiguous run of
// indices, so that a viewer can reorder whole parts (back to front for translucent ones).
struct PartIndexRange {
    std::size_t part = 0;          // index into the `parts` given
    std::uint32_t mesh = 0;        // index into the meshes returned
    std::uint32_t firstIndex = 0;  // into that mesh's `indices`
    std::uint32_t indexCount = 0;
    Vec3 center;  // the part's position (its CFrame's)
};

// The parts merged into a few meshes (one per batch of at most `maxVerticesPerMesh`), each part
// scaled by its size, placed at its CFrame and painted with its colour as vertex colour. Parts
// with transparency >= 1 are left out. Meshes are named "parts" / "parts N" and have node -1.
// `ranges`, when given, receives each drawn part's index range, in mesh and index order.
std::vector<Mesh> buildPartMeshes(const std::vector<RobloxPart>& parts,
                                  std::size_t maxVerticesPerMesh = 4'000'000,
                                  std::vector<PartIndexRange>* ranges = nullptr);

// `indices` (one mesh of buildPartMeshes) with the runs of `ranges` (that mesh's, in index
// order, as buildPartMeshes gave them) reordered so that parts farther along `forward` from
// `eye` come first; parts at the same depth keep their order. Drawn in that order, translucent
// parts composite back to front however many share the mesh. Indices outside the ranges, and
// ranges that do not fit `indices`, are kept as they are, after the sorted ones.
std::vector<std::uint32_t> partIndicesBackToFront(const std::vector<std::uint32_t>& indices,
                                                  const std::vector<PartIndexRange>& ranges,
                                                  Vec3 eye, Vec3 forward);

// A mesh placed like a part: `mesh`'s positions (FileMesh units) scaled by the SpecialMesh scale
// (MeshParts: fitted to the part's size), moved by the offset and transformed by the CFrame.
// Vertex colours get the part's colour; skin weights are kept (the skeleton index is not: place
// the skeleton with placePartSkeleton and set it). Of a mesh with LODs only the triangles of
// level `lod` are placed (clamped to the last level; every vertex is kept).
Mesh placePartMesh(const Mesh& mesh, const RobloxPart& part, int lod = 0);
// The transform placePartMesh applies to `mesh`'s positions: scale, offset, then the CFrame.
Mat4 partMeshPlacement(const Mesh& mesh, const RobloxPart& part);
// `skeleton` moved by `placement` (bind transforms and stored inverse binds), so that a placed
// skinned mesh skins in place: its posed vertices are placement × the unplaced posed vertices.
Skeleton placePartSkeleton(const Skeleton& skeleton, const Mat4& placement);

// ---------------------------------------------------------------------------------------------
// CSG unions

class AssetResolver;

// A union's geometry. `local` is the decoded mesh as stored (union space); `placed` is it
// scaled from its own bounds to the part's Size (as Roblox fits a union to Size), moved by the
// CFrame and painted: the part's colour, or the blob's per-vertex colours when UsePartColor is
// false (alpha from Transparency either way).
struct UnionMesh {
    std::optional<Mesh> local;
    std::optional<Mesh> placed;
    std::string source;  // "MeshData2", "MeshData", "AssetId <path>"
    std::string format;  // "CSGMDL2" ...
    // When there is no mesh: why, as one sentence ("its MeshData is a CSGK reference ...").
    std::string why;
    bool ok() const { return placed.has_value(); }
};

// What the SharedString blobs of one asset decoded to, by shared-string index: a place's unions
// share a few MeshData2 blobs (the 57 000-instance bench place: 1 095 unions, 100 blobs), each
// decoded once when unionPartMesh is given the same cache for every part of that asset.
struct UnionBlobCache {
    struct Entry {
        std::optional<Mesh> mesh;
        std::string format, why;
        bool reference = false;
    };
    std::unordered_map<std::uint32_t, Entry> shared;
};

// The geometry of union part `part` (isUnionClass): its MeshData2 (SharedString) blob, else its
// MeshData (BinaryString) blob; when neither holds geometry (empty, or a CSGK reference) and a
// resolver is given, its AssetId through the asset folders (a file holding the bare blob, or a
// model whose PartOperationAsset / union instance holds it). `cache`, when given, must only ever
// serve parts of `asset`. Never throws.
UnionMesh unionPartMesh(const Asset& asset, const RobloxPart& part,
                        const AssetResolver* resolver = nullptr, UnionBlobCache* cache = nullptr);
// `local` placed and painted like unionPartMesh's `placed`.
Mesh placeUnionMesh(const Mesh& local, const RobloxPart& part);

// The physics hulls (PhysicsData, CSGPHS) of the visible unions among `parts`, placed as their
// graphics are (fitted from the hulls' bounds to the part's Size: a convex decomposition spans
// the same box as the geometry it covers), one mesh per union named after it, `node` the union.
// Unions without a decodable PhysicsData blob are skipped.
std::vector<Mesh> unionPhysicsMeshes(const Asset& asset, const std::vector<RobloxPart>& parts);

// The part's 8 box corners in world space.
std::array<Vec3, 8> partCorners(const RobloxPart& part);

// CPU ray cast: index into `parts` of the nearest part whose oriented box the ray
// origin + t·direction (t ≥ 0) hits, or -1. `distance` receives t when given.
int pickPart(const std::vector<RobloxPart>& parts, Vec3 origin, Vec3 direction,
             float* distance = nullptr);

}  // namespace meshscope
