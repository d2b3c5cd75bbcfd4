// Part extraction, BrickColor palette, shape meshes, batching and CPU picking (roblox_parts.h).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "meshscope/core/decode.h"
#include "meshscope/core/export.h"
#include "meshscope/core/mesh_generators.h"
#include "meshscope/core/part_meshes.h"
#include "meshscope/core/roblox_mesh_writer.h"
#include "meshscope/core/roblox_model_writer.h"
#include "meshscope/core/roblox_parts.h"
#include "support/test_support.h"

namespace meshscope {
namespace {

using test::prop;

int addPart(Asset& a, const std::string& cls, Vec3 pos, Vec3 size, int parent = -1) {
    const int n = a.addNode(cls, cls, parent);
    CFrame cf;
    cf.position = pos;
    a.propertyList(n) = {prop("Name", "string", cls), prop("CFrame", "CFrame", cf),
                         prop("size", "Vector3", size)};
    return n;
}

// A place draws what is in Workspace, as Roblox Studio does: parts kept in ReplicatedStorage
// or ServerStorage are left out (unless asked for); a model without a Workspace keeps them all;
// the part meshes say how many were left out; export warns and --all-services writes them.
TEST(RobloxParts, PlacesDrawOnlyWorkspace) {
    Asset a;
    a.format = "roblox-model";
    const int ws = a.addNode("Workspace", "Workspace");
    const int rs = a.addNode("ReplicatedStorage", "ReplicatedStorage");
    const int inWorld = a.addNode("Floor", "Part", ws);
    a.addChild(ws, inWorld);
    const int folder = a.addNode("Kept", "Folder", rs);
    a.addChild(rs, folder);
    const int stored = a.addNode("Spare", "Part", folder);
    a.addChild(folder, stored);
    for (int p : {inWorld, stored}) {
        a.addProperty(p, prop("CFrame", "CFrame", CFrame{}));
        a.addProperty(p, prop("size", "Vector3", Vec3{4, 1, 2}));
    }
    const auto drawn = extractRobloxParts(a);
    ASSERT_EQ(drawn.size(), 1u);
    EXPECT_EQ(drawn[0].node, inWorld);
    EXPECT_EQ(extractRobloxParts(a, true).size(), 2u);
    const PartMeshes meshes = resolvePartMeshes(a);
    ASSERT_FALSE(meshes.diagnostics.empty());
    EXPECT_EQ(meshes.diagnostics.back().code, std::string(kPartsOutsideWorkspace));
    EXPECT_EQ(meshes.diagnostics.back().severity, Severity::Info);
    EXPECT_NE(meshes.diagnostics.back().message.find("1 part(s)"), std::string::npos)
        << meshes.diagnostics.back().message;
    EXPECT_EQ(meshes.outsideWorkspace, 1u);
    PartMeshOptions everything;
    everything.allServices = true;
    const PartMeshes every = resolvePartMeshes(a, everything);
    EXPECT_EQ(every.parts.size(), 2u);
    EXPECT_EQ(every.outsideWorkspace, 0u);
    EXPECT_TRUE(std::none_of(every.diagnostics.begin(), every.diagnostics.end(), [](const auto& d) {
        return d.code == std::string(kPartsOutsideWorkspace);
    }));

    // A model (no Workspace root) draws every part.
    Asset model;
    model.format = "roblox-model";
    const int m = model.addNode("Model", "Model");
    const int p = model.addNode("Part", "Part", m);
    model.addChild(m, p);
    EXPECT_EQ(extractRobloxParts(model).size(), 1u);

    // Export: the place's stored part only with allServices.
    ExportOptions o;
    o.format = ExportFormat::Glb;
    const ExportResult world = exportAsset(a, (test::tempDir("ws_only") / "w.glb").string(), o);
    ASSERT_TRUE(world.ok()) << *world.error;
    EXPECT_EQ(world.stats.parts, 1u);
    EXPECT_TRUE(std::any_of(world.warnings.begin(), world.warnings.end(), [](const auto& w) {
        return w.find("outside Workspace") != std::string::npos;
    }));
    o.allServices = true;
    const ExportResult all = exportAsset(a, (test::tempDir("ws_only") / "a.glb").string(), o);
    ASSERT_TRUE(all.ok()) << *all.error;
    EXPECT_EQ(all.stats.parts, 2u);
}

TEST(RobloxParts, DefaultInsertedPartFromCorpus) {
    MESHSCOPE_REQUIRE_CORPUS(corpus);
    // Studio's default part: 4×1×2 studs, Medium stone grey (163,162,165), Block. The XML file
    // places it at (-14, 15.5, -7) (its CoordinateFrame text); the binary twin was inserted
    // elsewhere, so the position is checked for the XML file only.
    for (const char* file : {"binary.rbxm", "xml.rbxmx"}) {
        const auto r = decodeFile(
            (corpus / "rbxm/rbx-test-files/models/default-inserted-part" / file).string());
        const auto parts = extractRobloxParts(r.asset);
        ASSERT_EQ(parts.size(), 1u) << file;
        const RobloxPart& p = parts[0];
        EXPECT_EQ(p.className, "Part");
        EXPECT_EQ(p.shape, PartShape::Block);
        EXPECT_EQ(p.size, (Vec3{4, 1, 2}));
        if (std::string(file) == "xml.rbxmx") {
            EXPECT_EQ(p.cframe.position, (Vec3{-14, 15.5f, -7}));
        }
        EXPECT_NEAR(p.color.x * 255, 163, 0.01);
        EXPECT_NEAR(p.color.y * 255, 162, 0.01);
        EXPECT_NEAR(p.color.z * 255, 165, 0.01);
        EXPECT_EQ(p.transparency, 0);
    }
}

TEST(RobloxParts, ShapesByClassAndEnumAndMeshReferences) {
    Asset a;
    const int model = a.addNode("Model", "Model");
    const int ball = addPart(a, "Part", {0, 0, 0}, {3, 3, 3}, model);
    a.addProperty(ball, prop("shape", "Enum", std::int64_t(0)));
    const int cyl = addPart(a, "Part", {5, 0, 0}, {4, 2, 2}, model);
    a.addProperty(cyl, prop("Shape", "Enum", std::int64_t(2)));
    addPart(a, "WedgePart", {10, 0, 0}, {2, 2, 2}, model);
    addPart(a, "CornerWedgePart", {15, 0, 0}, {2, 2, 2}, model);
    const int mp = addPart(a, "MeshPart", {20, 0, 0}, {2, 2, 2}, model);
    a.addProperty(mp, prop("MeshId", "Content", std::string("rbxassetid://123")));
    const int sp = addPart(a, "Part", {25, 0, 0}, {1, 1, 1}, model);
    const int sm = a.addNode("Mesh", "SpecialMesh", sp);
    a.propertyList(sm) = {
        prop("MeshType", "Enum", std::int64_t(5)),
        prop("MeshId", "Content", std::string("http://www.roblox.com/asset/?id=456")),
        prop("Scale", "Vector3", Vec3{2, 2, 2}), prop("Offset", "Vector3", Vec3{0, 1, 0})};
    const int brick = addPart(a, "Part", {30, 0, 0}, {1, 1, 1}, model);
    a.addProperty(brick, prop("BrickColor", "BrickColor", std::int64_t(21)));
    a.addNode("Script", "Script", model);  // not a part

    const auto parts = extractRobloxParts(a);
    ASSERT_EQ(parts.size(), 7u);
    EXPECT_EQ(parts[0].shape, PartShape::Ball);
    EXPECT_EQ(parts[1].shape, PartShape::Cylinder);
    EXPECT_EQ(parts[2].shape, PartShape::Wedge);
    EXPECT_EQ(parts[3].shape, PartShape::CornerWedge);
    EXPECT_EQ(parts[4].meshId, "rbxassetid://123");
    EXPECT_FALSE(parts[4].specialMesh);
    EXPECT_EQ(parts[5].meshId, "http://www.roblox.com/asset/?id=456");
    EXPECT_TRUE(parts[5].specialMesh);
    EXPECT_EQ(parts[5].meshScale, (Vec3{2, 2, 2}));
    EXPECT_EQ(parts[5].meshOffset, (Vec3{0, 1, 0}));
    // BrickColor 21 is "Bright red", RGB (196, 40, 28) in Roblox's BrickColor codes table.
    EXPECT_NEAR(parts[6].color.x * 255, 196, 0.01);
    EXPECT_NEAR(parts[6].color.y * 255, 40, 0.01);
    EXPECT_NEAR(parts[6].color.z * 255, 28, 0.01);
    EXPECT_EQ(parts[6].node, brick);

    // Placements: the same parts, where they are, without the colours and mesh ids.
    const int blockMeshed = addPart(a, "Part", {35, 0, 0}, {2, 2, 2}, model);
    const int block = a.addNode("Mesh", "BlockMesh", blockMeshed);
    a.propertyList(block) = {prop("Scale", "Vector3", Vec3{2, 1, 1}),
                             prop("Offset", "Vector3", Vec3{0, 3, 0})};
    const auto full = extractRobloxParts(a);
    const auto placed = extractRobloxPartPlacements(a);
    ASSERT_EQ(full.size(), 8u);
    ASSERT_EQ(placed.size(), full.size());
    for (std::size_t i = 0; i < full.size(); ++i) {
        EXPECT_EQ(placed[i].node, full[i].node) << i;
        EXPECT_EQ(placed[i].className, full[i].className) << i;
        EXPECT_EQ(placed[i].cframe, full[i].cframe) << i;
        EXPECT_EQ(placed[i].size, full[i].size) << i;
        EXPECT_TRUE(placed[i].meshId.empty()) << i;
    }
    // The BlockMesh's Scale and Offset are in both.
    EXPECT_EQ(placed[7].size, (Vec3{4, 2, 2}));
    EXPECT_EQ(placed[7].cframe.position, (Vec3{35, 3, 0}));
    EXPECT_EQ(placed[6].color, RobloxPart{}.color);  // the BrickColor is not read
}

TEST(RobloxParts, BrickColorPalette) {
    EXPECT_STREQ(brickColorName(194), "Medium stone grey");
    EXPECT_STREQ(brickColorName(1004), "Really red");
    EXPECT_EQ(brickColorRgb(1004), (Vec3{1, 0, 0}));
    EXPECT_FALSE(brickColorRgb(99999).has_value());
    EXPECT_EQ(brickColorName(-1), nullptr);
}

TEST(RobloxParts, ShapeMeshesAreClosedAndInsideTheUnitBox) {
    for (int s = 0; s < 5; ++s) {
        const Mesh m = partShapeMesh(PartShape(s));
        SCOPED_TRACE(m.name);
        ASSERT_GT(m.triangleCount(), 0u);
        ASSERT_EQ(m.normals.size(), m.positions.size());
        for (const Vec3& p : m.positions) {
            EXPECT_LE(std::fabs(p.x), 0.5f + 1e-5f);
            EXPECT_LE(std::fabs(p.y), 0.5f + 1e-5f);
            EXPECT_LE(std::fabs(p.z), 0.5f + 1e-5f);
        }
        // Outward winding: the signed volume (divergence theorem) is positive.
        double volume = 0;
        for (std::size_t i = 0; i + 2 < m.indices.size(); i += 3) {
            const Vec3 a = m.positions[m.indices[i]], b = m.positions[m.indices[i + 1]],
                       c = m.positions[m.indices[i + 2]];
            volume += (a.x * (b.y * c.z - b.z * c.y) - a.y * (b.x * c.z - b.z * c.x) +
                       a.z * (b.x * c.y - b.y * c.x)) /
                      6.0;
        }
        // Block 1, wedge 1/2, corner wedge 1/3, ball π/6, cylinder π/4 (polygonal: a bit less).
        const double expected[] = {M_PI / 6, 1.0, M_PI / 4, 0.5, 1.0 / 3};
        EXPECT_NEAR(volume, expected[s], expected[s] * 0.05);
    }
}

TEST(RobloxParts, CylindersLieAlongX) {
    const Mesh m = partShapeMesh(PartShape::Cylinder);
    EXPECT_NEAR(m.bounds.min.x, -0.5, 1e-6);
    EXPECT_NEAR(m.bounds.max.x, 0.5, 1e-6);
    RobloxPart p;
    p.shape = PartShape::Cylinder;
    p.size = {6, 2, 3};  // diameter = min(Y, Z)
    const auto meshes = buildPartMeshes({p});
    ASSERT_EQ(meshes.size(), 1u);
    EXPECT_NEAR(meshes[0].bounds.size().x, 6, 1e-4);
    EXPECT_NEAR(meshes[0].bounds.size().y, 2, 1e-4);
    EXPECT_NEAR(meshes[0].bounds.size().z, 2, 1e-4);
}

TEST(RobloxParts, BatchingPlacesColoursAndSplits) {
    std::vector<RobloxPart> parts(10);
    for (int i = 0; i < 10; ++i) {
        parts[std::size_t(i)].cframe.position = {float(i) * 10, 0, 0};
        parts[std::size_t(i)].color = {1, 0, 0};
    }
    parts[3].transparency = 1;  // invisible
    // A 90° rotation about Y: a 4×1×2 block becomes 2 wide along X.
    parts[9].cframe.rotation = {0, 0, 1, 0, 1, 0, -1, 0, 0};
    const auto one = buildPartMeshes(parts);
    ASSERT_EQ(one.size(), 1u);
    EXPECT_EQ(one[0].positions.size(), 9u * 24u);
    EXPECT_EQ(one[0].colors.front(), (Rgba8{255, 0, 0, 255}));
    EXPECT_NEAR(one[0].bounds.max.x, 91, 1e-4);  // rotated last part: half width 1
    EXPECT_NEAR(one[0].bounds.min.x, -2, 1e-4);
    const auto split = buildPartMeshes(parts, 24 * 4);
    EXPECT_EQ(split.size(), 3u);  // 9 visible parts, 4 per mesh
    std::size_t triangles = 0;
    for (const Mesh& m : split) triangles += m.triangleCount();
    EXPECT_EQ(triangles, one[0].triangleCount());
}

// Instanced drawing places each unit vertex where the baked batch puts it: the instance
// transform applied to partShapeMesh(shape) gives buildPartMeshes' positions for that part, and
// the instance colour its vertex colour.
TEST(RobloxParts, InstancesPlaceUnitShapesLikeTheBakedBatch) {
    std::vector<RobloxPart> parts(7);
    const float c = std::cos(0.6f), s = std::sin(0.6f);
    for (std::size_t i = 0; i < parts.size(); ++i) {
        RobloxPart& p = parts[i];
        p.shape = PartShape(i % 5);
        p.size = {1.5f + float(i), 2.5f, 3.0f + 0.5f * float(i)};
        p.cframe.position = {float(i) * 10, float(i), -float(i)};
        p.cframe.rotation = {c, 0, s, 0, 1, 0, -s, 0, c};  // about Y
        p.color = {0.1f * float(i), 0.5f, 1.0f};
        p.transparency = i == 6 ? 0.25f : 0.0f;
    }
    parts[5].transparency = 1;  // left out
    const auto groups = groupShapeInstances(parts);
    ASSERT_EQ(groups.size(), 5u);  // every shape occurs: in PartShape order
    std::size_t instances = 0;
    for (std::size_t g = 0; g < groups.size(); ++g) {
        EXPECT_EQ(groups[g].shape, PartShape(g));
        const Mesh unit = partShapeMesh(groups[g].shape);
        for (const ShapeInstance& in : groups[g].instances) {
            ++instances;
            ASSERT_LT(in.part, parts.size());
            EXPECT_EQ(parts[in.part].shape, groups[g].shape);
            const Mesh baked = buildPartMeshes({parts[in.part]}).at(0);
            ASSERT_EQ(baked.positions.size(), unit.positions.size());
            const auto& m = in.transform;
            for (std::size_t v = 0; v < unit.positions.size(); ++v) {
                const Vec3 p = unit.positions[v];
                const Vec3 placed{m[0] * p.x + m[1] * p.y + m[2] * p.z + m[3],
                                  m[4] * p.x + m[5] * p.y + m[6] * p.z + m[7],
                                  m[8] * p.x + m[9] * p.y + m[10] * p.z + m[11]};
                EXPECT_NEAR(placed.x, baked.positions[v].x, 1e-4) << in.part << " " << v;
                EXPECT_NEAR(placed.y, baked.positions[v].y, 1e-4) << in.part << " " << v;
                EXPECT_NEAR(placed.z, baked.positions[v].z, 1e-4) << in.part << " " << v;
            }
            EXPECT_EQ(in.color, baked.colors.front()) << in.part;
        }
    }
    EXPECT_EQ(instances, 6u);
    // Block group: parts 1 and 6 (shape 1), in part order; part 6 keeps its alpha.
    ASSERT_EQ(groups[1].instances.size(), 2u);
    EXPECT_EQ(groups[1].instances[0].part, 1u);
    EXPECT_EQ(groups[1].instances[1].part, 6u);
    EXPECT_EQ(groups[1].instances[1].color.a, 191);
    EXPECT_TRUE(groupShapeInstances({}).empty());
    // A subset by index, in the order given; indices past the parts are ignored.
    const std::size_t which[] = {6, 2, 1, 99};
    const auto some = groupShapeInstances(parts, which);
    ASSERT_EQ(some.size(), 2u);
    EXPECT_EQ(some[0].shape, PartShape::Block);
    ASSERT_EQ(some[0].instances.size(), 2u);
    EXPECT_EQ(some[0].instances[0].part, 6u);
    EXPECT_EQ(some[0].instances[1].part, 1u);
    EXPECT_EQ(some[0].instances[0].transform, partInstanceTransform(parts[6]));
    EXPECT_EQ(some[1].shape, PartShape::Cylinder);
}

TEST(RobloxParts, InstancesBackToFrontPutFarInstancesFirst) {
    std::vector<ShapeInstance> instances(5);
    const float zs[] = {2, 9, 5, 9, std::numeric_limits<float>::quiet_NaN()};
    for (std::size_t i = 0; i < 5; ++i) instances[i].transform[11] = zs[i];
    // Looking along +Z from z = 0: z 9 (twice, in their order), 5, 2; the NaN counts as the eye.
    EXPECT_EQ(instancesBackToFront(instances, {0, 0, 0}, {0, 0, 1}),
              (std::vector<std::uint32_t>{1, 3, 2, 0, 4}));
    // From z = 20 looking back: the nearest-to-origin ones are now far.
    EXPECT_EQ(instancesBackToFront(instances, {0, 0, 20}, {0, 0, -1}),
              (std::vector<std::uint32_t>{0, 2, 1, 3, 4}));
    EXPECT_TRUE(instancesBackToFront({}, {}, {0, 0, 1}).empty());
}

TEST(RobloxParts, BatchIndexRangesCoverEachDrawnPartOnce) {
    std::vector<RobloxPart> parts(7);
    for (std::size_t i = 0; i < parts.size(); ++i) {
        parts[i].cframe.position = {float(i) * 10, 0, 0};
        parts[i].shape = i % 2 ? PartShape::Ball : PartShape::Block;
    }
    parts[2].transparency = 1;  // left out: no range
    std::vector<PartIndexRange> ranges;
    // Room for one ball and one block per mesh: the batch splits.
    const std::size_t room = partShapeMesh(PartShape::Ball).positions.size() +
                             partShapeMesh(PartShape::Block).positions.size();
    const auto meshes = buildPartMeshes(parts, room, &ranges);
    ASSERT_GE(meshes.size(), 3u);
    ASSERT_EQ(ranges.size(), 6u);
    std::vector<std::size_t> covered(meshes.size(), 0);
    for (std::size_t r = 0; r < ranges.size(); ++r) {
        const PartIndexRange& pr = ranges[r];
        EXPECT_EQ(pr.part, r < 2 ? r : r + 1);
        ASSERT_LT(pr.mesh, meshes.size());
        EXPECT_EQ(pr.firstIndex, covered[pr.mesh]) << "ranges are contiguous, in index order";
        covered[pr.mesh] += pr.indexCount;
        EXPECT_EQ(pr.center.x, parts[pr.part].cframe.position.x);
        // Every vertex of the range lies within the part's own bounds (radius < 5 studs).
        const Mesh& m = meshes[pr.mesh];
        for (std::uint32_t i = pr.firstIndex; i < pr.firstIndex + pr.indexCount; ++i)
            EXPECT_LT(std::abs(m.positions[m.indices[i]].x - pr.center.x), 5.f);
    }
    for (std::size_t m = 0; m < meshes.size(); ++m) EXPECT_EQ(covered[m], meshes[m].indices.size());
}

TEST(RobloxParts, PartIndicesBackToFrontPutFarPartsFirst) {
    // Three blocks on the Z axis, written nearest first as seen from z = -100 looking along +Z.
    std::vector<RobloxPart> parts(3);
    for (std::size_t i = 0; i < 3; ++i) parts[i].cframe.position = {0, 0, float(i) * 10};
    std::vector<PartIndexRange> ranges;
    const auto meshes = buildPartMeshes(parts, 4'000'000, &ranges);
    ASSERT_EQ(meshes.size(), 1u);
    const auto& idx = meshes[0].indices;
    const std::uint32_t n = ranges[0].indexCount;
    const auto sorted = partIndicesBackToFront(idx, ranges, {0, 0, -100}, {0, 0, 1});
    ASSERT_EQ(sorted.size(), idx.size());
    // The farthest block (the last written) first, the nearest last.
    EXPECT_TRUE(std::equal(sorted.begin(), sorted.begin() + n, idx.begin() + 2 * n));
    EXPECT_TRUE(std::equal(sorted.begin() + n, sorted.begin() + 2 * n, idx.begin() + n));
    EXPECT_TRUE(std::equal(sorted.begin() + 2 * n, sorted.end(), idx.begin()));
    // Seen from the other side the file order is already back to front.
    EXPECT_EQ(partIndicesBackToFront(idx, ranges, {0, 0, 100}, {0, 0, -1}), idx);
    // Ranges past the end or overlapping an earlier one are not moved; nothing is lost.
    auto broken = ranges;
    broken[1].firstIndex = std::uint32_t(idx.size());
    broken[2].firstIndex = 0;
    const auto kept = partIndicesBackToFront(idx, broken, {0, 0, -100}, {0, 0, 1});
    EXPECT_EQ(kept, idx);
    auto a = kept, b = idx;
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    EXPECT_EQ(a, b);
}

TEST(RobloxParts, PickNearestAlongTheRay) {
    std::vector<RobloxPart> parts(3);
    parts[0].cframe.position = {0, 0, 0};
    parts[1].cframe.position = {0, 0, -10};
    parts[2].cframe.position = {20, 0, 0};
    float t = 0;
    EXPECT_EQ(pickPart(parts, {0, 0, 20}, {0, 0, -1}, &t), 0);
    EXPECT_NEAR(t, 19, 1e-4);  // front face at z = +1 (size Z 2)
    EXPECT_EQ(pickPart(parts, {0, 0, -30}, {0, 0, 1}), 1);
    EXPECT_EQ(pickPart(parts, {20, 10, 0}, {0, -1, 0}, &t), 2);
    EXPECT_NEAR(t, 9.5, 1e-4);
    EXPECT_EQ(pickPart(parts, {50, 50, 50}, {0, 0, -1}), -1);
    // Rotated 90° about Y: the 4-stud X extent now lies along Z.
    parts[0].cframe.rotation = {0, 0, 1, 0, 1, 0, -1, 0, 0};
    EXPECT_EQ(pickPart(parts, {0, 10, 1.9f}, {0, -1, 0}), 0);
    EXPECT_EQ(pickPart(parts, {1.9f, 10, 0}, {0, -1, 0}), -1);
}

TEST(RobloxParts, GeneratedPlaceExtractsEveryPart) {
    const Asset place = makeRobloxPlace(1000);
    const auto written = writeRobloxModel(place);
    ASSERT_TRUE(written.ok());
    const auto r = decodeBytes(ByteSpan(written.bytes.data(), written.bytes.size()));
    const auto parts = extractRobloxParts(r.asset);
    EXPECT_EQ(parts.size(), 1000u);
    // Every tenth part of the generator has Transparency 0.5.
    EXPECT_EQ(std::count_if(parts.begin(), parts.end(),
                            [](const RobloxPart& p) { return p.transparency == 0.5f; }),
              100);
}

}  // namespace
}  // namespace meshscope

namespace meshscope {
namespace {

// The same red block as a binary model (writer) and as an XML model (hand-written, the layout
// of Studio's .rbxmx): both are Roblox models and give the same part.
TEST(RobloxParts, BinaryAndXmlModelsBothGiveTheirParts) {
    const std::string xml =
        "<roblox version=\"4\"><Item class=\"Part\" referent=\"RBX0\"><Properties>"
        "<string name=\"Name\">Block</string><CoordinateFrame name=\"CFrame\"><X>1</X><Y>2</Y>"
        "<Z>3</Z><R00>1</R00><R01>0</R01><R02>0</R02><R10>0</R10><R11>1</R11><R12>0</R12>"
        "<R20>0</R20><R21>0</R21><R22>1</R22></CoordinateFrame><Vector3 name=\"size\"><X>4</X>"
        "<Y>2</Y><Z>6</Z></Vector3><Color3 name=\"Color\"><R>1</R><G>0</G><B>0</B></Color3>"
        "<float name=\"Transparency\">0.25</float></Properties></Item></roblox>";
    const DecodeResult fromXml =
        decodeBytes(ByteSpan(reinterpret_cast<const std::uint8_t*>(xml.data()), xml.size()),
                    {.fileName = "block.rbxmx"});
    ASSERT_TRUE(fromXml.ok()) << fromXml.error->toString();
    EXPECT_EQ(fromXml.asset.format, "roblox-model-xml");
    EXPECT_TRUE(isRobloxModel(fromXml.asset));

    const RobloxModelWriteResult binary = writeRobloxModel(fromXml.asset);
    ASSERT_TRUE(binary.ok());
    const DecodeResult fromBinary = decodeBytes(binary.bytes, {.fileName = "block.rbxm"});
    ASSERT_TRUE(fromBinary.ok()) << fromBinary.error->toString();
    EXPECT_EQ(fromBinary.asset.format, "roblox-model");
    EXPECT_TRUE(isRobloxModel(fromBinary.asset));

    for (const DecodeResult* r : {&fromXml, &fromBinary}) {
        const std::vector<RobloxPart> parts = extractRobloxParts(r->asset);
        ASSERT_EQ(parts.size(), 1u) << r->asset.format;
        EXPECT_EQ(parts[0].cframe.position, (Vec3{1, 2, 3}));
        EXPECT_EQ(parts[0].size, (Vec3{4, 2, 6}));
        EXPECT_EQ(parts[0].color, (Vec3{1, 0, 0}));
        EXPECT_FLOAT_EQ(parts[0].transparency, 0.25f);
    }

    FileMeshWriteOptions options;
    const DecodeResult mesh = decodeBytes(writeFileMesh(makeUvSphere(), 0, options).bytes);
    ASSERT_TRUE(mesh.ok());
    EXPECT_FALSE(isRobloxModel(mesh.asset));
}

}  // namespace
}  // namespace meshscope
