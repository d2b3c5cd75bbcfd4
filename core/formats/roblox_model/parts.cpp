// Renderable parts of a Roblox instance tree (see roblox_parts.h): property lookup by serialized
// and current names, the BrickColor palette, unit shape meshes, batching and CPU picking.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <numbers>
#include <string_view>

#include "meshscope/core/roblox_parts.h"

namespace meshscope {

namespace {

bool equalsNoCase(std::string_view a, std::string_view b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return (x | 0x20) == (y | 0x20);
           });
}

// The name lists parts are read by: serialized and current names, tried in order.
enum class Names : std::uint8_t {
    CFrame,
    Size,
    Color,
    BrickColor,
    Transparency,
    Shape,
    MeshContentOrId,
    MeshId,
    Scale,
    Offset,
    MeshType,
    UsePartColor,
    Count
};
constexpr std::array<std::array<std::string_view, 2>, std::size_t(Names::Count)> kNames = {{
    {"CFrame", "CoordinateFrame"},
    {"size", "Size"},
    {"Color3uint8", "Color"},
    {"BrickColor", "brickColor"},
    {"Transparency", {}},
    {"shape", "Shape"},
    {"MeshContent", "MeshId"},
    {"MeshId", {}},
    {"Scale", {}},
    {"Offset", {}},
    {"MeshType", {}},
    {"UsePartColor", {}},
}};

// Looks a node's properties up by one of those lists: the first property whose name matches a
// name of the list (case-insensitively, names in list order) and holds a T, the node's own list
// first, then its table's columns (Asset::properties order). Which columns of a table match a
// list is found once per table, not once per node: a place's 600 000 parts share a few tables of
// ~20 columns each.
class PropertyFinder {
public:
    explicit PropertyFinder(const Asset& asset)
        : asset_(asset), tables_(asset.propertyTables.size()) {}

    // Where a found value's bytes are (a node's own property, or its column's source range).
    struct Source {
        std::uint64_t offset = 0;
        std::uint64_t length = 0;
    };

    template <typename T>
    std::optional<T> get(int node, Names names, Source* source = nullptr) {
        const Node& n = asset_.nodes[std::size_t(node)];
        const auto& list = kNames[std::size_t(names)];
        const bool hasTable = n.table >= 0 && std::size_t(n.table) < tables_.size();
        const std::vector<Match>* matches = hasTable ? &columnsOf(n.table, names) : nullptr;
        for (std::size_t k = 0; k < list.size(); ++k) {
            if (list[k].empty()) continue;
            for (const Property& p : asset_.ownProperties(node))
                if (equalsNoCase(p.name, list[k]))
                    if (const T* v = std::get_if<T>(&p.value)) {
                        if (source) *source = {p.offset, p.length};
                        return *v;
                    }
            if (!matches) continue;
            const PropertyTable& table = asset_.propertyTables[std::size_t(n.table)];
            for (const Match& m : *matches) {
                if (m.name != k) continue;
                const PropertyColumn& c = table.columns[m.column];
                if (n.row >= c.rows()) continue;
                Value v = c.value(n.row);
                if (T* t = std::get_if<T>(&v)) {
                    if (source) *source = {c.offset, c.length};
                    return std::move(*t);
                }
            }
        }
        return std::nullopt;
    }

private:
    struct Match {
        std::size_t name;    // index into the list
        std::size_t column;  // index into the table's columns
    };
    struct Slot {
        bool ready = false;
        std::vector<Match> matches;  // by name index, then column order
    };

    const std::vector<Match>& columnsOf(int table, Names names) {
        Slot& slot = tables_[std::size_t(table)][std::size_t(names)];
        if (!slot.ready) {
            slot.ready = true;
            const auto& list = kNames[std::size_t(names)];
            const auto& columns = asset_.propertyTables[std::size_t(table)].columns;
            for (std::size_t k = 0; k < list.size(); ++k)
                for (std::size_t c = 0; !list[k].empty() && c < columns.size(); ++c)
                    if (equalsNoCase(columns[c].name, list[k])) slot.matches.push_back({k, c});
        }
        return slot.matches;
    }

    const Asset& asset_;
    std::vector<std::array<Slot, std::size_t(Names::Count)>> tables_;
};

struct BrickColorEntry {
    int number;
    const char* name;
    std::uint8_t r, g, b;
};

// Roblox BrickColor codes (developer reference "BrickColor codes"): the classic palette and
// the 1001-1032 additions.
constexpr BrickColorEntry kBrickColors[] = {
    {1, "White", 242, 243, 243},
    {2, "Grey", 161, 165, 162},
    {5, "Brick yellow", 215, 197, 154},
    {9, "Light reddish violet", 232, 186, 200},
    {11, "Pastel Blue", 128, 187, 219},
    {18, "Nougat", 204, 142, 105},
    {21, "Bright red", 196, 40, 28},
    {23, "Bright blue", 13, 105, 172},
    {24, "Bright yellow", 245, 205, 48},
    {26, "Black", 27, 42, 53},
    {28, "Dark green", 40, 127, 71},
    {29, "Medium green", 161, 196, 140},
    {37, "Bright green", 75, 151, 75},
    {38, "Dark orange", 160, 95, 53},
    {45, "Light blue", 180, 210, 228},
    {101, "Medium red", 218, 134, 122},
    {102, "Medium blue", 110, 153, 202},
    {104, "Bright violet", 107, 50, 124},
    {105, "Br. yellowish orange", 226, 155, 64},
    {106, "Bright orange", 218, 133, 65},
    {107, "Bright bluish green", 0, 143, 156},
    {119, "Br. yellowish green", 164, 189, 71},
    {125, "Light orange", 234, 184, 146},
    {135, "Sand blue", 116, 134, 157},
    {141, "Earth green", 39, 70, 45},
    {151, "Sand green", 120, 144, 130},
    {153, "Sand red", 149, 121, 119},
    {192, "Reddish brown", 105, 64, 40},
    {194, "Medium stone grey", 163, 162, 165},
    {199, "Dark stone grey", 99, 95, 98},
    {208, "Light stone grey", 229, 228, 223},
    {217, "Brown", 124, 92, 70},
    {226, "Cool yellow", 253, 234, 141},
    {1001, "Institutional white", 248, 248, 248},
    {1002, "Mid gray", 205, 205, 205},
    {1003, "Really black", 17, 17, 17},
    {1004, "Really red", 255, 0, 0},
    {1005, "Deep orange", 255, 176, 0},
    {1006, "Alder", 180, 128, 255},
    {1007, "Dusty Rose", 163, 75, 75},
    {1008, "Olive", 193, 190, 66},
    {1009, "New Yeller", 255, 255, 0},
    {1010, "Really blue", 0, 0, 255},
    {1011, "Navy blue", 0, 32, 96},
    {1012, "Deep blue", 33, 84, 185},
    {1013, "Cyan", 4, 175, 236},
    {1014, "CGA brown", 170, 85, 0},
    {1015, "Magenta", 170, 0, 170},
    {1016, "Pink", 255, 102, 204},
    {1018, "Teal", 18, 238, 212},
    {1019, "Toothpaste", 0, 255, 255},
    {1020, "Lime green", 0, 255, 0},
    {1021, "Camo", 58, 125, 21},
    {1022, "Grime", 127, 142, 100},
    {1023, "Lavender", 140, 91, 159},
    {1024, "Pastel light blue", 175, 221, 255},
    {1025, "Pastel orange", 255, 201, 201},
    {1026, "Pastel violet", 177, 167, 255},
    {1027, "Pastel blue-green", 159, 243, 233},
    {1028, "Pastel green", 204, 255, 204},
    {1029, "Pastel yellow", 255, 255, 204},
    {1030, "Pastel brown", 255, 204, 153},
    {1031, "Royal purple", 98, 37, 209},
    {1032, "Hot pink", 255, 0, 191},
};

const BrickColorEntry* brickEntry(int number) {
    for (const auto& e : kBrickColors)
        if (e.number == number) return &e;
    return nullptr;
}

Vec3 cross(Vec3 a, Vec3 b) {
    return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
float dot(Vec3 a, Vec3 b) {
    return a.x * b.x + a.y * b.y + a.z * b.z;
}
Vec3 normalized(Vec3 v) {
    const float l = std::sqrt(dot(v, v));
    return l > 0 ? v * (1 / l) : Vec3{0, 1, 0};
}

// Adds a convex planar polygon (fan-triangulated) with a flat normal facing away from `inside`;
// quads get the corners of the texture, triangles its bottom corners and top middle.
void addFace(Mesh& m, std::initializer_list<Vec3> poly, Vec3 inside) {
    static constexpr Vec2 kQuadUv[] = {{0, 1}, {1, 1}, {1, 0}, {0, 0}};
    static constexpr Vec2 kTriUv[] = {{0, 1}, {1, 1}, {0.5f, 0}};
    const std::vector<Vec3> v(poly);
    Vec3 n = normalized(cross(v[1] - v[0], v[2] - v[0]));
    Vec3 c;
    for (const Vec3& p : v) c = c + p;
    c = c * (1.0f / float(v.size()));
    const bool flip = dot(n, c - inside) < 0;
    if (flip) n = n * -1;
    const auto base = std::uint32_t(m.positions.size());
    for (std::size_t i = 0; i < v.size(); ++i) {
        m.positions.push_back(v[i]);
        m.normals.push_back(n);
        m.uv0.push_back(v.size() == 3 ? kTriUv[i] : kQuadUv[i % 4]);
    }
    for (std::uint32_t i = 1; i + 1 < v.size(); ++i) {
        m.indices.insert(m.indices.end(),
                         {base, flip ? base + i + 1 : base + i, flip ? base + i : base + i + 1});
    }
}

// Scale applied to the unit shape: balls are spheres of the smallest dimension, cylinders lie
// along X with the smaller of Y/Z as diameter (Roblox's rules).
Vec3 shapeScale(const RobloxPart& p) {
    return partShapeScale(p.shape, p.size);
}

Vec3 rotate(const CFrame& cf, Vec3 v) {
    const auto& r = cf.rotation;
    return {r[0] * v.x + r[1] * v.y + r[2] * v.z, r[3] * v.x + r[4] * v.y + r[5] * v.z,
            r[6] * v.x + r[7] * v.y + r[8] * v.z};
}
Vec3 rotateInverse(const CFrame& cf, Vec3 v) {
    const auto& r = cf.rotation;
    return {r[0] * v.x + r[3] * v.y + r[6] * v.z, r[1] * v.x + r[4] * v.y + r[7] * v.z,
            r[2] * v.x + r[5] * v.y + r[8] * v.z};
}

// How far `p` lies along `forward` from `eye` (back-to-front sorting); 0 when not finite.
float depthAlong(Vec3 p, Vec3 eye, Vec3 forward) {
    const float d = dot(p - eye, forward);
    return std::isfinite(d) ? d : 0.0f;
}

Rgba8 rgba(const RobloxPart& p) {
    const auto c = [](float f) {
        return std::uint8_t(std::lround(std::clamp(f, 0.0f, 1.0f) * 255.0f));
    };
    return {c(p.color.x), c(p.color.y), c(p.color.z), c(1.0f - p.transparency)};
}

// Appends `unit` (a [-0.5,0.5]³ mesh, or any mesh with a local transform given by scale and
// offset) to `out`, placed at the part.
void appendPlaced(Mesh& out, const Mesh& unit, const RobloxPart& part, Vec3 scale, Vec3 offset) {
    const auto base = std::uint32_t(out.positions.size());
    const Rgba8 color = rgba(part);
    const Vec3 inv{scale.x != 0 ? 1 / scale.x : 0, scale.y != 0 ? 1 / scale.y : 0,
                   scale.z != 0 ? 1 / scale.z : 0};
    for (std::size_t i = 0; i < unit.positions.size(); ++i) {
        const Vec3 p = unit.positions[i];
        const Vec3 local{p.x * scale.x + offset.x, p.y * scale.y + offset.y,
                         p.z * scale.z + offset.z};
        out.positions.push_back(rotate(part.cframe, local) + part.cframe.position);
        const Vec3 n = i < unit.normals.size() ? unit.normals[i] : Vec3{0, 1, 0};
        out.normals.push_back(
            normalized(rotate(part.cframe, {n.x * inv.x, n.y * inv.y, n.z * inv.z})));
        out.colors.push_back(color);
    }
    for (std::uint32_t idx : unit.indices) out.indices.push_back(base + idx);
}

void finishMesh(Mesh& m) {
    m.lods.push_back({0, std::uint32_t(m.indices.size() / 3), "LOD0"});
    m.computeBounds();
}

}  // namespace

const char* partShapeName(PartShape shape) {
    switch (shape) {
        case PartShape::Ball:
            return "Ball";
        case PartShape::Block:
            return "Block";
        case PartShape::Cylinder:
            return "Cylinder";
        case PartShape::Wedge:
            return "Wedge";
        case PartShape::CornerWedge:
            return "CornerWedge";
        case PartShape::Head:
            return "Head";
        case PartShape::Torso:
            return "Torso";
    }
    return "Block";
}

bool isRobloxModel(const Asset& asset) {
    return asset.format == "roblox-model" || asset.format == "roblox-model-xml";
}

bool isRenderablePartClass(std::string_view c) {
    static constexpr std::string_view kClasses[] = {"Part",
                                                    "WedgePart",
                                                    "CornerWedgePart",
                                                    "TrussPart",
                                                    "SpawnLocation",
                                                    "Seat",
                                                    "VehicleSeat",
                                                    "MeshPart",
                                                    "UnionOperation",
                                                    "NegateOperation",
                                                    "IntersectOperation",
                                                    "SkateboardPlatform",
                                                    "PartOperation",
                                                    "FlagStand",
                                                    "Platform"};
    return std::find(std::begin(kClasses), std::end(kClasses), c) != std::end(kClasses);
}

std::optional<Vec3> brickColorRgb(int number) {
    const BrickColorEntry* e = brickEntry(number);
    if (!e) return std::nullopt;
    return Vec3{e->r / 255.0f, e->g / 255.0f, e->b / 255.0f};
}

const char* brickColorName(int number) {
    const BrickColorEntry* e = brickEntry(number);
    return e ? e->name : nullptr;
}

namespace {

// A shape mesh child (BlockMesh, CylinderMesh, a SpecialMesh Brick / Wedge / Sphere / Cylinder /
// Head) drawn as the part's shape scaled by the mesh's Scale and moved by its Offset (in the
// part's frame): both are baked into the part's size and CFrame, so that every consumer
// (instancing, batching, export, picking) draws the shape the mesh gives. A CylinderMesh (and the
// Head) stands along Y (a Cylinder part lies along X): its frame is turned 90° about Z and its
// size's X and Y swapped.
void applyShapeMesh(RobloxPart& p, bool yCylinder) {
    const Vec3 s = p.meshScale, o = p.meshOffset;
    p.cframe.position = p.cframe.position + rotate(p.cframe, o);
    p.size = {p.size.x * s.x, p.size.y * s.y, p.size.z * s.z};
    if (yCylinder) {
        auto& r = p.cframe.rotation;
        for (int row = 0; row < 3; ++row) {
            const float x = r[std::size_t(row * 3)], y = r[std::size_t(row * 3 + 1)];
            r[std::size_t(row * 3)] = y;       // local X now points along the old Y
            r[std::size_t(row * 3 + 1)] = -x;  // local Y along the old −X
        }
        p.size = {p.size.y, p.size.x, p.size.z};
    }
    p.meshScale = {1, 1, 1};
    p.meshOffset = {};
}

}  // namespace

namespace {

// Calls fn(node) for every node under a root other than Workspace, when the tree is a place
// (has a Workspace root); nothing for a model.
template <class Fn>
void forEachNodeOutsideWorkspace(const Asset& asset, Fn fn) {
    const std::vector<int> roots = asset.roots();
    if (std::none_of(roots.begin(), roots.end(),
                     [&](int r) { return asset.kind(r) == "Workspace"; }))
        return;
    // Each node once, however many child lists name it (and however they loop).
    std::vector<bool> seen(asset.nodes.size());
    std::vector<int> stack;
    for (int r : roots)
        if (asset.kind(r) != "Workspace") stack.push_back(r);
    while (!stack.empty()) {
        const int n = stack.back();
        stack.pop_back();
        if (n < 0 || std::size_t(n) >= asset.nodes.size() || seen[std::size_t(n)]) continue;
        seen[std::size_t(n)] = true;
        fn(n);
        for (int c : asset.children(n)) stack.push_back(c);
    }
}

bool isDrawnPartNode(const Asset& asset, int n) {
    return isRenderablePartClass(asset.kind(n)) && !asset.nodes[std::size_t(n)].embedded;
}

}  // namespace

std::size_t countPartsOutsideWorkspace(const Asset& asset) {
    std::size_t n = 0;
    forEachNodeOutsideWorkspace(asset, [&](int node) { n += isDrawnPartNode(asset, node); });
    return n;
}

namespace {

// `full` false: each part's node, class, CFrame and Size only (extractRobloxPartPlacements).
std::vector<RobloxPart> extractParts(const Asset& asset, bool allServices, bool full) {
    // Which nodes are parts, found once: the vector is then allocated at its size (growing it by
    // doubling left a 600 000-part place with 193 MB of RobloxParts instead of ~110).
    // Classes are asked about once each.
    std::vector<std::uint8_t> partKind(asset.kinds.size());
    for (std::uint32_t k = 0; k < asset.kinds.size(); ++k)
        partKind[k] = isRenderablePartClass(asset.kinds[k]);
    std::vector<std::uint8_t> isPart(asset.nodes.size());
    std::size_t count = 0;
    for (std::size_t i = 0; i < asset.nodes.size(); ++i) {
        const std::uint32_t k = asset.nodes[i].kindId;
        // A union's original parts (ChildData, Node::embedded) are not drawn: the union is.
        count += isPart[i] = k < partKind.size() && partKind[k] && !asset.nodes[i].embedded;
    }
    // A place: what lies outside Workspace is not in the world (Studio does not draw it).
    if (!allServices)
        forEachNodeOutsideWorkspace(asset, [&](int n) {
            count -= isPart[std::size_t(n)];
            isPart[std::size_t(n)] = 0;
        });
    std::vector<RobloxPart> parts;
    parts.reserve(count);
    PropertyFinder find(asset);
    for (std::size_t i = 0; i < asset.nodes.size(); ++i) {
        if (!isPart[i]) continue;
        const std::string_view kind = asset.kind(int(i));
        RobloxPart p;
        p.node = int(i);
        p.className = kind;
        if (const auto cf = find.get<CFrame>(int(i), Names::CFrame)) p.cframe = *cf;
        if (const auto s = find.get<Vec3>(int(i), Names::Size)) p.size = *s;
        PropertyFinder::Source source;
        // Placements only: colour, shape, union and mesh id are left at their defaults (a shape
        // mesh child below still scales and moves the part, as for the full part).
        if (full) {
            if (const auto c = find.get<Vec3>(int(i), Names::Color)) {
                p.color = *c;
            } else if (const auto b = find.get<std::int64_t>(int(i), Names::BrickColor)) {
                if (auto rgb = brickColorRgb(int(*b))) p.color = *rgb;
            }
            if (const auto t = find.get<double>(int(i), Names::Transparency))
                p.transparency = float(std::clamp(*t, 0.0, 1.0));
            if (kind == "WedgePart") {
                p.shape = PartShape::Wedge;
            } else if (kind == "CornerWedgePart") {
                p.shape = PartShape::CornerWedge;
            } else if (kind == "Part" || kind == "SpawnLocation" || kind == "Seat" ||
                       kind == "VehicleSeat") {
                // Part.Shape / FormFactor-era "shape" token (a few classes inherit it from Part).
                if (const auto s = find.get<std::int64_t>(int(i), Names::Shape))
                    if (*s >= 0 && *s <= 4) p.shape = PartShape(*s);
            }
            if (isUnionClass(kind)) {
                if (const auto u = find.get<bool>(int(i), Names::UsePartColor)) p.usePartColor = *u;
            }
            if (kind == "MeshPart") {
                if (const auto id = find.get<std::string>(int(i), Names::MeshContentOrId, &source))
                    p.meshId = *id;
                if (p.meshId.empty())
                    if (const auto id = find.get<std::string>(int(i), Names::MeshId, &source))
                        p.meshId = *id;
                if (!p.meshId.empty()) p.meshNode = int(i);
            }
        }
        // A SpecialMesh / FileMesh / BlockMesh / CylinderMesh child replaces the part's shape.
        for (int c : asset.children(int(i))) {
            const std::string_view childKind = asset.kind(c);
            const bool block = childKind == "BlockMesh", cylinder = childKind == "CylinderMesh";
            if (childKind != "SpecialMesh" && childKind != "FileMesh" && !block && !cylinder)
                continue;
            if (const auto s = find.get<Vec3>(c, Names::Scale)) p.meshScale = *s;
            if (const auto o = find.get<Vec3>(c, Names::Offset)) p.meshOffset = *o;
            // MeshType: 0 Head, 1 Torso, 2 Wedge, 3 Sphere, 4 Cylinder, 5 FileMesh, 6 Brick
            // (the deprecated 7..11 keep the part's shape).
            const auto type = find.get<std::int64_t>(c, Names::MeshType);
            const std::int64_t mt = block      ? 6
                                    : cylinder ? -2
                                    : type     ? *type
                                               : (childKind == "FileMesh" ? 5 : -1);
            if (mt == 0) p.shape = PartShape::Head;
            if (mt == 1) p.shape = PartShape::Torso;
            if (mt == 4) p.shape = PartShape::Cylinder;
            if (mt == 2) p.shape = PartShape::Wedge;
            if (mt == 3) p.shape = PartShape::Ball;
            if (mt == 6) p.shape = PartShape::Block;
            PropertyFinder::Source at;
            if (mt == -2) p.shape = PartShape::Cylinder;
            if (mt == 5) {
                if (!full) break;
                if (const auto id = find.get<std::string>(c, Names::MeshId, &at);
                    id && !id->empty()) {
                    p.meshId = *id;
                    p.meshNode = c;
                    source = at;
                    p.specialMesh = true;
                }
            } else if ((mt >= 0 && mt <= 4) || mt == 6 || mt == -2) {
                applyShapeMesh(p, mt == -2);
            }
            break;
        }
        if (p.meshNode >= 0) {
            p.meshIdOffset = source.offset;
            p.meshIdLength = source.length;
        }
        parts.push_back(std::move(p));
    }
    return parts;
}

}  // namespace

std::vector<RobloxPart> extractRobloxParts(const Asset& asset, bool allServices) {
    return extractParts(asset, allServices, true);
}

std::vector<RobloxPart> extractRobloxPartPlacements(const Asset& asset, bool allServices) {
    return extractParts(asset, allServices, false);
}

Vec3 partShapeScale(PartShape shape, Vec3 s) {
    switch (shape) {
        case PartShape::Ball: {
            const float d = std::min({s.x, s.y, s.z});
            return {d, d, d};
        }
        case PartShape::Cylinder: {
            const float d = std::min(s.y, s.z);
            return {s.x, d, d};
        }
        case PartShape::Head: {
            // Round in XZ: the classic 2 × 1 × 1 head part with Scale 1.25 is a head 1.25
            // across and 1.25 tall, not a 2.5-wide oval.
            const float d = std::min(s.x, s.z);
            return {d, s.y, d};
        }
        default:
            return s;
    }
}

Mesh partShapeMesh(PartShape shape) {
    Mesh m;
    m.name = partShapeName(shape);
    const float h = 0.5f;
    switch (shape) {
        case PartShape::Block: {
            const Vec3 o{};
            addFace(m, {{-h, -h, h}, {h, -h, h}, {h, h, h}, {-h, h, h}}, o);
            addFace(m, {{h, -h, -h}, {-h, -h, -h}, {-h, h, -h}, {h, h, -h}}, o);
            addFace(m, {{h, -h, h}, {h, -h, -h}, {h, h, -h}, {h, h, h}}, o);
            addFace(m, {{-h, -h, -h}, {-h, -h, h}, {-h, h, h}, {-h, h, -h}}, o);
            addFace(m, {{-h, h, h}, {h, h, h}, {h, h, -h}, {-h, h, -h}}, o);
            addFace(m, {{-h, -h, -h}, {h, -h, -h}, {h, -h, h}, {-h, -h, h}}, o);
            break;
        }
        case PartShape::Wedge: {
            // Roblox wedge: full bottom, vertical back face (+Z), slope rising from the front
            // bottom edge (-Z) to the back top edge.
            const Vec3 o{0, -h / 3, h / 3};
            addFace(m, {{-h, -h, -h}, {h, -h, -h}, {h, -h, h}, {-h, -h, h}}, o);
            addFace(m, {{-h, -h, h}, {h, -h, h}, {h, h, h}, {-h, h, h}}, o);
            addFace(m, {{-h, -h, -h}, {h, -h, -h}, {h, h, h}, {-h, h, h}}, o);
            addFace(m, {{h, -h, -h}, {h, -h, h}, {h, h, h}}, o);
            addFace(m, {{-h, -h, -h}, {-h, -h, h}, {-h, h, h}}, o);
            break;
        }
        case PartShape::CornerWedge: {
            // Apex above the (+X, -Z) bottom corner; vertical faces on +X and -Z.
            const Vec3 apex{h, h, -h};
            const Vec3 o{h / 5, -h * 3 / 5, -h / 5};
            addFace(m, {{-h, -h, -h}, {h, -h, -h}, {h, -h, h}, {-h, -h, h}}, o);
            addFace(m, {{h, -h, -h}, {h, -h, h}, apex}, o);
            addFace(m, {{-h, -h, -h}, {h, -h, -h}, apex}, o);
            addFace(m, {{-h, -h, h}, {h, -h, h}, apex}, o);
            addFace(m, {{-h, -h, -h}, {-h, -h, h}, apex}, o);
            break;
        }
        case PartShape::Head: {
            // A vertical cylinder whose top and bottom quarters are half-ellipses (radius 0.5,
            // height 0.25): the legacy Roblox head, filling the unit box. Rows run from the top
            // pole down, as the ball's do (same winding).
            constexpr int kSeg = 24, kCapRows = 6;
            struct Row {
                float rho, y;
                Vec3 normal;  // with the direction (1, ·, 0)
            };
            std::vector<Row> rows;
            for (int half = 0; half < 2; ++half)
                for (int k = 0; k <= kCapRows; ++k) {
                    const float a = std::numbers::pi_v<float> * 0.5f *
                                    (half == 0 ? float(k) / kCapRows : 1.0f + float(k) / kCapRows);
                    const float yc = half == 0 ? 0.25f : -0.25f;
                    const Vec3 g = normalized(Vec3{2.0f * std::sin(a), 4.0f * std::cos(a), 0});
                    rows.push_back({0.5f * std::sin(a), yc + 0.25f * std::cos(a), g});
                }
            for (std::size_t r = 0; r < rows.size(); ++r)
                for (int s = 0; s <= kSeg; ++s) {
                    const float th = 2 * std::numbers::pi_v<float> * float(s) / kSeg;
                    const float c = std::cos(th), sn = std::sin(th);
                    m.positions.push_back({rows[r].rho * c, rows[r].y, rows[r].rho * sn});
                    m.normals.push_back(
                        {rows[r].normal.x * c, rows[r].normal.y, rows[r].normal.x * sn});
                    m.uv0.push_back({float(s) / kSeg, float(r) / float(rows.size() - 1)});
                }
            for (std::size_t r = 0; r + 1 < rows.size(); ++r)
                for (int s = 0; s < kSeg; ++s) {
                    const auto a = std::uint32_t(r * (kSeg + 1) + std::size_t(s)), b = a + kSeg + 1;
                    m.indices.insert(m.indices.end(), {a, a + 1, b, b, a + 1, b + 1});
                }
            break;
        }
        case PartShape::Torso: {
            // A block whose bottom is 0.8 as wide as its top (the legacy torso), depth kept.
            const float b = h * 0.8f;
            const Vec3 o{};
            addFace(m, {{-h, h, h}, {h, h, h}, {h, h, -h}, {-h, h, -h}}, o);      // top
            addFace(m, {{-b, -h, -h}, {b, -h, -h}, {b, -h, h}, {-b, -h, h}}, o);  // bottom
            addFace(m, {{-b, -h, h}, {b, -h, h}, {h, h, h}, {-h, h, h}}, o);      // +Z
            addFace(m, {{b, -h, -h}, {-b, -h, -h}, {-h, h, -h}, {h, h, -h}}, o);  // -Z
            addFace(m, {{b, -h, h}, {b, -h, -h}, {h, h, -h}, {h, h, h}}, o);      // +X
            addFace(m, {{-b, -h, -h}, {-b, -h, h}, {-h, h, h}, {-h, h, -h}}, o);  // -X
            break;
        }
        case PartShape::Ball: {
            constexpr int kSeg = 24, kRings = 12;
            for (int r = 0; r <= kRings; ++r) {
                const float phi = std::numbers::pi_v<float> * float(r) / kRings;
                for (int s = 0; s <= kSeg; ++s) {
                    const float th = 2 * std::numbers::pi_v<float> * float(s) / kSeg;
                    const Vec3 n{std::sin(phi) * std::cos(th), std::cos(phi),
                                 std::sin(phi) * std::sin(th)};
                    m.positions.push_back(n * h);
                    m.normals.push_back(n);
                    m.uv0.push_back({float(s) / kSeg, float(r) / kRings});
                }
            }
            for (int r = 0; r < kRings; ++r)
                for (int s = 0; s < kSeg; ++s) {
                    const auto a = std::uint32_t(r * (kSeg + 1) + s), b = a + kSeg + 1;
                    m.indices.insert(m.indices.end(), {a, a + 1, b, b, a + 1, b + 1});
                }
            break;
        }
        case PartShape::Cylinder: {
            // Along X, like Roblox cylinders.
            constexpr int kSeg = 24;
            const auto ring = [&](float x, bool side) {
                for (int s = 0; s <= kSeg; ++s) {
                    const float th = 2 * std::numbers::pi_v<float> * float(s) / kSeg;
                    const float y = std::cos(th), z = std::sin(th);
                    m.positions.push_back({x, y * h, z * h});
                    m.normals.push_back(side ? Vec3{0, y, z} : Vec3{x > 0 ? 1.0f : -1.0f, 0, 0});
                    m.uv0.push_back(side ? Vec2{float(s) / kSeg, x > 0 ? 0.0f : 1.0f}
                                         : Vec2{0.5f + 0.5f * y, 0.5f + 0.5f * z});
                }
            };
            ring(-h, true);
            ring(h, true);
            for (std::uint32_t s = 0; s < kSeg; ++s) {
                const std::uint32_t a = s, b = s + kSeg + 1;
                m.indices.insert(m.indices.end(), {a, a + 1, b, a + 1, b + 1, b});
            }
            for (float x : {-h, h}) {
                const auto center = std::uint32_t(m.positions.size());
                m.positions.push_back({x, 0, 0});
                m.normals.push_back({x > 0 ? 1.0f : -1.0f, 0, 0});
                m.uv0.push_back({0.5f, 0.5f});
                ring(x, false);
                for (std::uint32_t s = 0; s < kSeg; ++s) {
                    const std::uint32_t a = center + 1 + s;
                    if (x > 0)
                        m.indices.insert(m.indices.end(), {center, a, a + 1});
                    else
                        m.indices.insert(m.indices.end(), {center, a + 1, a});
                }
            }
            break;
        }
    }
    finishMesh(m);
    return m;
}

std::vector<Mesh> buildPartMeshes(const std::vector<RobloxPart>& parts,
                                  std::size_t maxVerticesPerMesh,
                                  std::vector<PartIndexRange>* ranges) {
    if (ranges) ranges->clear();
    std::array<Mesh, kPartShapeCount> units;
    for (std::size_t s = 0; s < kPartShapeCount; ++s) units[s] = partShapeMesh(PartShape(s));
    std::vector<Mesh> out;
    const auto startMesh = [&]() {
        Mesh m;
        m.name = out.empty() ? "parts" : "parts " + std::to_string(out.size() + 1);
        out.push_back(std::move(m));
    };
    for (std::size_t i = 0; i < parts.size(); ++i) {
        const RobloxPart& p = parts[i];
        if (p.transparency >= 0.999f) continue;
        const Mesh& unit = units[std::size_t(p.shape)];
        if (out.empty() || out.back().positions.size() + unit.positions.size() > maxVerticesPerMesh)
            startMesh();
        if (ranges)
            ranges->push_back({i, std::uint32_t(out.size() - 1),
                               std::uint32_t(out.back().indices.size()),
                               std::uint32_t(unit.indices.size()), p.cframe.position});
        appendPlaced(out.back(), unit, p, shapeScale(p), {});
    }
    for (Mesh& m : out) finishMesh(m);
    return out;
}

std::array<float, 12> partInstanceTransform(const RobloxPart& part) {
    const Vec3 s = shapeScale(part);
    const auto& r = part.cframe.rotation;
    const Vec3& t = part.cframe.position;
    return {r[0] * s.x, r[1] * s.y, r[2] * s.z, t.x,  //
            r[3] * s.x, r[4] * s.y, r[5] * s.z, t.y,  //
            r[6] * s.x, r[7] * s.y, r[8] * s.z, t.z};
}

std::vector<ShapeInstanceGroup> groupShapeInstances(const std::vector<RobloxPart>& parts,
                                                    std::span<const std::size_t> which) {
    constexpr std::size_t kShapes = kPartShapeCount;
    const auto drawn = [&](std::size_t i) {
        return i < parts.size() && parts[i].transparency < 0.999f;
    };
    std::array<std::size_t, kShapes> counts{};
    for (std::size_t i : which)
        if (drawn(i)) ++counts[std::size_t(parts[i].shape) % kShapes];
    std::array<int, kShapes> groupOf{};
    std::vector<ShapeInstanceGroup> groups;
    for (std::size_t s = 0; s < kShapes; ++s) {
        groupOf[s] = counts[s] ? int(groups.size()) : -1;
        if (!counts[s]) continue;
        ShapeInstanceGroup& g = groups.emplace_back();
        g.shape = PartShape(s);
        g.instances.reserve(counts[s]);
    }
    for (std::size_t i : which) {
        if (!drawn(i)) continue;
        const RobloxPart& p = parts[i];
        groups[std::size_t(groupOf[std::size_t(p.shape) % kShapes])].instances.push_back(
            {partInstanceTransform(p), rgba(p), i});
    }
    return groups;
}

std::vector<ShapeInstanceGroup> groupShapeInstances(const std::vector<RobloxPart>& parts) {
    std::vector<std::size_t> all(parts.size());
    for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
    return groupShapeInstances(parts, all);
}

std::vector<std::uint32_t> instancesBackToFront(const std::vector<ShapeInstance>& instances,
                                                Vec3 eye, Vec3 forward) {
    std::vector<std::pair<float, std::uint32_t>> depth(instances.size());
    for (std::size_t i = 0; i < instances.size(); ++i) {
        const auto& m = instances[i].transform;
        depth[i] = {depthAlong({m[3], m[7], m[11]}, eye, forward), std::uint32_t(i)};
    }
    std::stable_sort(depth.begin(), depth.end(),
                     [](const auto& a, const auto& b) { return a.first > b.first; });
    std::vector<std::uint32_t> order(depth.size());
    for (std::size_t i = 0; i < depth.size(); ++i) order[i] = depth[i].second;
    return order;
}

std::vector<std::uint32_t> partIndicesBackToFront(const std::vector<std::uint32_t>& indices,
                                                  const std::vector<PartIndexRange>& ranges,
                                                  Vec3 eye, Vec3 forward) {
    // Ranges in index order, each within `indices` and after the one before, are sorted; the
    // indices between and after them (and those of ranges out of order or out of bounds) stay
    // in their order at the end.
    struct Run {
        float depth;
        std::size_t first, count;
    };
    std::vector<Run> runs, rest;
    runs.reserve(ranges.size());
    std::size_t next = 0;
    for (const PartIndexRange& pr : ranges) {
        const std::uint64_t end = std::uint64_t(pr.firstIndex) + pr.indexCount;
        if (pr.firstIndex < next || end > indices.size()) continue;
        if (pr.firstIndex > next) rest.push_back({0, next, pr.firstIndex - next});
        runs.push_back({depthAlong(pr.center, eye, forward), pr.firstIndex, pr.indexCount});
        next = std::size_t(end);
    }
    if (next < indices.size()) rest.push_back({0, next, indices.size() - next});
    std::stable_sort(runs.begin(), runs.end(),
                     [](const Run& a, const Run& b) { return a.depth > b.depth; });
    std::vector<std::uint32_t> out;
    out.reserve(indices.size());
    for (const auto* list : {&runs, &rest})
        for (const Run& r : *list) {
            const auto from = indices.begin() + std::ptrdiff_t(r.first);
            out.insert(out.end(), from, from + std::ptrdiff_t(r.count));
        }
    return out;
}

namespace {

// The scale and offset placePartMesh applies to `mesh` before the CFrame.
void meshScaleOffset(const Mesh& mesh, const RobloxPart& part, Vec3& scale, Vec3& offset) {
    scale = part.meshScale;
    offset = part.meshOffset;
    if (!part.specialMesh) {
        // MeshPart: the mesh is fitted to the part's size (Size / InitialSize, and InitialSize
        // is the mesh's extent).
        Bounds b = mesh.bounds;
        if (!b.valid())
            for (const Vec3& p : mesh.positions) b.add(p);
        const Vec3 e = b.valid() ? b.size() : Vec3{1, 1, 1};
        scale = {e.x > 0 ? part.size.x / e.x : 1, e.y > 0 ? part.size.y / e.y : 1,
                 e.z > 0 ? part.size.z / e.z : 1};
        const Vec3 c = b.valid() ? b.center() : Vec3{};
        offset = {-c.x * scale.x, -c.y * scale.y, -c.z * scale.z};
    }
}

}  // namespace

Mat4 partMeshPlacement(const Mesh& mesh, const RobloxPart& part) {
    Vec3 scale, offset;
    meshScaleOffset(mesh, part, scale, offset);
    Mat4 m;
    const auto& r = part.cframe.rotation;
    const float s[3] = {scale.x, scale.y, scale.z};
    for (int row = 0; row < 3; ++row)
        for (int col = 0; col < 3; ++col) m.at(row, col) = r[std::size_t(row * 3 + col)] * s[col];
    const Vec3 t = rotate(part.cframe, offset) + part.cframe.position;
    m.at(0, 3) = t.x, m.at(1, 3) = t.y, m.at(2, 3) = t.z;
    return m;
}

Skeleton placePartSkeleton(const Skeleton& skeleton, const Mat4& placement) {
    Skeleton out = skeleton;
    const Mat4 undo = inverse(placement);
    for (Bone& b : out.bones) {
        b.world = placement * b.world;
        if (b.inverseBind) b.inverseBind = *b.inverseBind * undo;
    }
    return out;
}

Mesh placePartMesh(const Mesh& mesh, const RobloxPart& part, int lod) {
    Mesh out;
    out.name = mesh.name.empty() ? part.className : mesh.name;
    Vec3 scale, offset;
    meshScaleOffset(mesh, part, scale, offset);
    // Only LOD `lod` (clamped) is placed.
    Mesh unit;
    unit.positions = mesh.positions;
    unit.normals = mesh.normals;
    if (!mesh.lods.empty()) {
        const LodLevel& l =
            mesh.lods[std::min(std::size_t(std::max(lod, 0)), mesh.lods.size() - 1)];
        const std::size_t first = std::size_t(l.firstTriangle) * 3;
        const std::size_t end =
            std::min(mesh.indices.size(), first + std::size_t(l.triangleCount) * 3);
        if (first < end)
            unit.indices.assign(mesh.indices.begin() + std::ptrdiff_t(first),
                                mesh.indices.begin() + std::ptrdiff_t(end));
    } else {
        unit.indices = mesh.indices;
    }
    std::erase_if(unit.indices, [&](std::uint32_t i) { return i >= unit.positions.size(); });
    unit.indices.resize(unit.indices.size() / 3 * 3);
    appendPlaced(out, unit, part, scale, offset);
    // Every vertex is kept in order, so the UVs (for the part's texture) and the skin weights
    // still apply (skinned with the
    // skeleton placed by placePartSkeleton).
    if (mesh.uv0.size() == mesh.positions.size()) out.uv0 = mesh.uv0;
    if (mesh.skin.size() == mesh.positions.size()) out.skin = mesh.skin;
    finishMesh(out);
    return out;
}

std::array<Vec3, 8> partCorners(const RobloxPart& part) {
    const Vec3 s = shapeScale(part) * 0.5f;
    std::array<Vec3, 8> c;
    for (int i = 0; i < 8; ++i) {
        const Vec3 l{i & 1 ? s.x : -s.x, i & 2 ? s.y : -s.y, i & 4 ? s.z : -s.z};
        c[std::size_t(i)] = rotate(part.cframe, l) + part.cframe.position;
    }
    return c;
}

int pickPart(const std::vector<RobloxPart>& parts, Vec3 origin, Vec3 direction, float* distance) {
    int best = -1;
    float bestT = std::numeric_limits<float>::infinity();
    for (std::size_t i = 0; i < parts.size(); ++i) {
        const RobloxPart& p = parts[i];
        if (p.transparency >= 0.999f) continue;
        // Slab test in the part's frame (the rotation is orthonormal, so t carries over).
        const Vec3 o = rotateInverse(p.cframe, origin - p.cframe.position);
        const Vec3 d = rotateInverse(p.cframe, direction);
        const Vec3 half = shapeScale(p) * 0.5f;
        float t0 = 0, t1 = bestT;
        bool hit = true;
        for (int a = 0; a < 3 && hit; ++a) {
            const float oa = a == 0 ? o.x : a == 1 ? o.y : o.z;
            const float da = a == 0 ? d.x : a == 1 ? d.y : d.z;
            const float ha = a == 0 ? half.x : a == 1 ? half.y : half.z;
            if (std::fabs(da) < 1e-12f) {
                if (oa < -ha || oa > ha) hit = false;
                continue;
            }
            float ta = (-ha - oa) / da, tb = (ha - oa) / da;
            if (ta > tb) std::swap(ta, tb);
            t0 = std::max(t0, ta);
            t1 = std::min(t1, tb);
            if (t0 > t1) hit = false;
        }
        if (hit && t0 < bestT) {
            bestT = t0;
            best = int(i);
        }
    }
    if (distance && best >= 0) *distance = bestT;
    return best;
}

}  // namespace meshscope
