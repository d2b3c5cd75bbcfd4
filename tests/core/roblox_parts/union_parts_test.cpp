// CSG unions in models (roblox_parts.h unionPartMesh): the blob in MeshData / MeshData2 decoded,
// fitted from its own bounds to the part's Size, placed at its CFrame and painted with the part
// colour or, when UsePartColor is false, its own vertex colours; AssetId resolved through the
// asset folders; every failure explained. Also through a binary model written and decoded again.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "meshscope/core/asset_resolver.h"
#include "meshscope/core/decode.h"
#include "meshscope/core/mesh_generators.h"
#include "meshscope/core/roblox_csg.h"
#include "meshscope/core/roblox_model_writer.h"
#include "meshscope/core/roblox_parts.h"
#include "support/csg_fixtures.h"
#include "support/test_support.h"

namespace meshscope {
namespace {

using test::prop;

std::string asString(const Bytes& b) {
    return std::string(b.begin(), b.end());
}

// A mesh spanning [-1, 3] × [0, 1] × [-2, 2] (centre (1, 0.5, 0)) with red/green vertex colours.
Mesh unionLocal() {
    Mesh m = test::csg::fixtureMesh();  // sphere of radius 1.5
    for (Vec3& p : m.positions) p = {p.x / 1.5f * 2 + 1, p.y / 3 + 0.5f, p.z / 1.5f * 2};
    m.colors.assign(m.positions.size(), Rgba8{255, 0, 0, 255});
    m.colors[0] = {0, 255, 0, 255};
    return m;
}

// A model: Workspace → a union (class `cls`) at (10, 0, 0) rotated 90° about Y, Size 8 × 2 × 4.
Asset unionModel(const std::string& cls, const std::string& blobProperty, const Bytes& blob,
                 bool usePartColor = true, const std::string& assetId = {}) {
    Asset a;
    a.format = "roblox-model";
    const int ws = a.addNode("Workspace", "Workspace");
    a.nodes[ws].service = true;
    const int u = a.addNode("Union", cls, ws);
    a.addChild(ws, u);
    CFrame cf;
    cf.position = {10, 0, 0};
    cf.rotation = {0, 0, 1, 0, 1, 0, -1, 0, 0};
    a.addProperty(u, prop("Name", "string", std::string("Union")));
    a.addProperty(u, prop("CFrame", "CFrame", cf));
    a.addProperty(u, prop("size", "Vector3", Vec3{8, 2, 4}));
    a.addProperty(u, prop("Color3uint8", "Color3uint8", Vec3{0, 0, 1}));
    a.addProperty(u, prop("UsePartColor", "bool", usePartColor));
    if (!blobProperty.empty())
        a.addProperty(
            u, prop(blobProperty, blobProperty == "MeshData2" ? "SharedString" : "BinaryString",
                    asString(blob)));
    a.addProperty(u, prop("AssetId", "Content", assetId));
    return a;
}

RobloxPart onlyPart(const Asset& a) {
    const auto parts = extractRobloxParts(a);
    EXPECT_EQ(parts.size(), 1u);
    return parts.at(0);
}

TEST(UnionParts, MeshDataIsFittedToSizeAndPlaced) {
    const Mesh local = unionLocal();
    const Asset a = unionModel("UnionOperation", "MeshData", writeCsgGraphics(local));
    const RobloxPart p = onlyPart(a);
    EXPECT_TRUE(isUnionClass(p.className));
    const UnionMesh u = unionPartMesh(a, p);
    ASSERT_TRUE(u.ok()) << u.why;
    EXPECT_EQ(u.source, "MeshData");
    EXPECT_EQ(u.format, "CSGMDL2");
    EXPECT_EQ(u.placed->triangleCount(), local.triangleCount());
    // Size 8 × 2 × 4, rotated 90° about Y (local X → world −Z), centred at (10, 0, 0).
    const Bounds b = u.placed->bounds;
    EXPECT_NEAR(b.min.x, 10 - 2, 1e-3);
    EXPECT_NEAR(b.max.x, 10 + 2, 1e-3);
    EXPECT_NEAR(b.min.y, -1, 1e-3);
    EXPECT_NEAR(b.max.y, 1, 1e-3);
    EXPECT_NEAR(b.min.z, -4, 1e-3);
    EXPECT_NEAR(b.max.z, 4, 1e-3);
    // The part colour (blue), opaque.
    for (const Rgba8& c : u.placed->colors) ASSERT_EQ(c, (Rgba8{0, 0, 255, 255}));
}

// The physics hulls (PhysicsData) of a union, for the viewer's overlay: decoded and placed as
// the graphics are; unions without PhysicsData and invisible ones give none.
TEST(UnionParts, PhysicsHullsArePlacedLikeTheGraphics) {
    Mesh hull;  // a box hull over the same span as unionLocal
    for (int c = 0; c < 8; ++c)
        hull.positions.push_back({c & 1 ? 3.f : -1.f, c & 2 ? 1.f : 0.f, c & 4 ? 2.f : -2.f});
    hull.indices = {0, 2, 1, 1, 2, 3, 4, 5, 6, 5, 7, 6, 0, 1, 4, 1, 5, 4,
                    2, 6, 3, 3, 6, 7, 0, 4, 2, 2, 4, 6, 1, 3, 5, 3, 7, 5};
    Asset a = unionModel("UnionOperation", "MeshData", writeCsgGraphics(unionLocal()));
    const int u = a.roots()[0] >= 0 ? a.children(a.roots()[0])[0] : -1;
    ASSERT_GE(u, 0);
    EXPECT_TRUE(unionPhysicsMeshes(a, extractRobloxParts(a)).empty()) << "no PhysicsData yet";
    a.addProperty(u, prop("PhysicsData", "BinaryString", asString(writeCsgPhysics({hull}, 3))));
    const std::vector<Mesh> hulls = unionPhysicsMeshes(a, extractRobloxParts(a));
    ASSERT_EQ(hulls.size(), 1u);
    EXPECT_EQ(hulls[0].node, u);
    EXPECT_EQ(hulls[0].triangleCount(), 12u);
    const Bounds b = hulls[0].bounds;  // the same box the graphics fill
    EXPECT_NEAR(b.min.x, 8, 1e-3);
    EXPECT_NEAR(b.max.x, 12, 1e-3);
    EXPECT_NEAR(b.min.z, -4, 1e-3);
    EXPECT_NEAR(b.max.z, 4, 1e-3);
    // A negated union is not drawn, so neither are its hulls.
    std::vector<RobloxPart> parts = extractRobloxParts(a);
    parts[0].transparency = 1;
    EXPECT_TRUE(unionPhysicsMeshes(a, parts).empty());
}

TEST(UnionParts, UsePartColorFalseKeepsVertexColours) {
    const Mesh local = unionLocal();
    const Asset a =
        unionModel("UnionOperation", "MeshData2", writeCsgGraphics(local, {.version = 4}), false);
    const UnionMesh u = unionPartMesh(a, onlyPart(a));
    ASSERT_TRUE(u.ok()) << u.why;
    EXPECT_EQ(u.source, "MeshData2");
    EXPECT_EQ(u.placed->colors[0], (Rgba8{0, 255, 0, 255}));
    EXPECT_EQ(u.placed->colors[1], (Rgba8{255, 0, 0, 255}));
}

TEST(UnionParts, Version5BlobsWorkToo) {
    const Mesh local = unionLocal();
    const Asset a = unionModel("NegateOperation", "MeshData", test::csg::writeMdl5(local));
    const UnionMesh u = unionPartMesh(a, onlyPart(a));
    ASSERT_TRUE(u.ok()) << u.why;
    EXPECT_EQ(u.format, "CSGMDL5");
    EXPECT_NEAR(u.placed->bounds.max.z, 4, 1e-3);
}

TEST(UnionParts, NothingResolvesSaysWhy) {
    {
        const Asset a = unionModel("UnionOperation", "", {}, true, "rbxassetid://4242");
        const UnionMesh u = unionPartMesh(a, onlyPart(a));
        EXPECT_FALSE(u.ok());
        EXPECT_NE(u.why.find("outside this file (AssetId rbxassetid://4242)"), std::string::npos)
            << u.why;
    }
    {
        const Bytes csgk = [] {
            const std::string s = "CSGK0123456789abcdef0123456789abcdef";
            return Bytes(s.begin(), s.end());
        }();
        const Asset a = unionModel("UnionOperation", "MeshData", csgk);
        const UnionMesh u = unionPartMesh(a, onlyPart(a));
        EXPECT_FALSE(u.ok());
        EXPECT_NE(u.why.find("its MeshData blob is a CSGK reference"), std::string::npos) << u.why;
    }
    {
        Bytes broken = writeCsgGraphics(unionLocal());
        broken.resize(100);
        const Asset a = unionModel("UnionOperation", "MeshData", broken);
        const UnionMesh u = unionPartMesh(a, onlyPart(a));
        EXPECT_FALSE(u.ok());
        EXPECT_NE(u.why.find("does not decode"), std::string::npos) << u.why;
    }
}

TEST(UnionParts, AssetIdResolvesABareBlobOrAModel) {
    const auto dir = test::tempDir("union_assets");
    const Mesh local = unionLocal();
    test::writeFile(dir / "555", writeCsgGraphics(local));
    // A PartOperationAsset model holding the blob in MeshData.
    Asset holder;
    holder.format = "roblox-model";
    const int n = holder.addNode("PartOperationAsset", "PartOperationAsset");
    holder.addProperty(n, prop("MeshData", "BinaryString", asString(writeCsgGraphics(local))));
    const RobloxModelWriteResult w = writeRobloxModel(holder);
    ASSERT_TRUE(w.ok());
    test::writeFile(dir / "556", w.bytes);
    const AssetResolver resolver({dir});
    for (const char* id : {"rbxassetid://555", "http://www.roblox.com/asset/?id=556"}) {
        SCOPED_TRACE(id);
        const Asset a = unionModel("UnionOperation", "", {}, true, id);
        EXPECT_FALSE(unionPartMesh(a, onlyPart(a)).ok());  // no resolver: outside the file
        const UnionMesh u = unionPartMesh(a, onlyPart(a), &resolver);
        ASSERT_TRUE(u.ok()) << u.why;
        EXPECT_NE(u.source.find("AssetId"), std::string::npos);
        EXPECT_EQ(u.placed->triangleCount(), local.triangleCount());
    }
    const Asset missing = unionModel("UnionOperation", "", {}, true, "rbxassetid://557");
    const UnionMesh u = unionPartMesh(missing, onlyPart(missing), &resolver);
    EXPECT_FALSE(u.ok());
    EXPECT_NE(u.why.find("not in the asset folders"), std::string::npos) << u.why;
}

// Through a binary model file: BinaryString and SharedString values survive write → decode.
TEST(UnionParts, BinaryModelRoundTrip) {
    const Mesh local = unionLocal();
    for (const char* property : {"MeshData", "MeshData2"}) {
        SCOPED_TRACE(property);
        const Asset a = unionModel("UnionOperation", property, writeCsgGraphics(local), false);
        const RobloxModelWriteResult w = writeRobloxModel(a);
        ASSERT_TRUE(w.ok()) << *w.error;
        const DecodeResult d = decodeBytes(w.bytes);
        ASSERT_TRUE(d.ok()) << d.error->toString();
        const auto parts = extractRobloxParts(d.asset);
        ASSERT_EQ(parts.size(), 1u);
        EXPECT_FALSE(parts[0].usePartColor);
        const UnionMesh u = unionPartMesh(d.asset, parts[0]);
        ASSERT_TRUE(u.ok()) << u.why;
        EXPECT_EQ(u.placed->colors[0], (Rgba8{0, 255, 0, 255}));
        // MESHSCOPE_WRITE_UNION_FIXTURE=path writes this model (for a viewer screenshot).
        // It adds a second union without geometry beside it (drawn as a translucent box).
        if (const char* out = std::getenv("MESHSCOPE_WRITE_UNION_FIXTURE"))
            if (std::string(property) == "MeshData") {
                Asset two = a;
                const int ws = two.roots().at(0);
                const int empty = two.addNode("No geometry", "UnionOperation", ws);
                two.addChild(ws, empty);
                CFrame cf;
                cf.position = {-2, 0, 0};
                two.addProperty(empty, prop("CFrame", "CFrame", cf));
                two.addProperty(empty, prop("size", "Vector3", Vec3{4, 4, 4}));
                two.addProperty(empty, prop("Color3uint8", "Color3uint8", Vec3{1, 1, 0}));
                two.addProperty(empty, prop("AssetId", "Content", std::string("rbxassetid://1")));
                const RobloxModelWriteResult w2 = writeRobloxModel(two);
                ASSERT_TRUE(w2.ok());
                test::writeFile(out, w2.bytes);
            }
    }
}

}  // namespace
}  // namespace meshscope

namespace meshscope {
namespace {

// Unions sharing one MeshData2 (a SharedString) through one cache: the blob is decoded once and
// each union gets the same local mesh, placed at its own CFrame; a broken shared blob gives each
// union the same reason. Without a cache the result is the same.
TEST(UnionParts, SharedMeshData2IsDecodedOncePerCache) {
    const Mesh local = unionLocal();
    Asset a = unionModel("UnionOperation", "MeshData2", writeCsgGraphics(local), false);
    const int ws = a.roots().at(0);
    const int second = a.addNode("Union2", "UnionOperation", ws);
    CFrame cf;
    cf.position = {-20, 0, 0};
    a.addProperty(second, prop("CFrame", "CFrame", cf));
    a.addProperty(second, prop("size", "Vector3", Vec3{8, 2, 4}));
    a.addProperty(second, prop("UsePartColor", "bool", false));
    a.addProperty(second, prop("MeshData2", "SharedString", asString(writeCsgGraphics(local))));
    const int broken = a.addNode("Broken", "UnionOperation", ws);
    a.addProperty(broken, prop("size", "Vector3", Vec3{1, 1, 1}));
    a.addProperty(broken, prop("MeshData2", "SharedString", std::string("CSGMDL\x02garbage")));
    const RobloxModelWriteResult w = writeRobloxModel(a);
    ASSERT_TRUE(w.ok()) << *w.error;
    const DecodeResult d = decodeBytes(w.bytes);
    ASSERT_TRUE(d.ok()) << d.error->toString();
    ASSERT_EQ(d.asset.sharedStrings.size(), 2u) << "equal blobs are one shared string";
    const auto parts = extractRobloxParts(d.asset);
    ASSERT_EQ(parts.size(), 3u);

    UnionBlobCache cache;
    std::vector<UnionMesh> cached, plain;
    for (const RobloxPart& p : parts) {
        cached.push_back(unionPartMesh(d.asset, p, nullptr, &cache));
        plain.push_back(unionPartMesh(d.asset, p));
    }
    EXPECT_EQ(cache.shared.size(), 2u) << "one entry per shared string, not per union";
    for (std::size_t i = 0; i < parts.size(); ++i) {
        SCOPED_TRACE(i);
        EXPECT_EQ(cached[i].ok(), plain[i].ok());
        EXPECT_EQ(cached[i].why, plain[i].why);
        EXPECT_EQ(cached[i].format, plain[i].format);
        if (!plain[i].ok()) continue;
        EXPECT_EQ(cached[i].source, "MeshData2");
        EXPECT_EQ(cached[i].placed->positions, plain[i].placed->positions);
        EXPECT_EQ(cached[i].placed->indices, plain[i].placed->indices);
    }
    ASSERT_TRUE(cached[0].ok() && cached[1].ok());
    EXPECT_FALSE(cached[2].ok());
    EXPECT_FALSE(cached[2].why.empty());
    EXPECT_EQ(cached[0].local->positions, cached[1].local->positions);
    EXPECT_NEAR(cached[1].placed->bounds.center().x - cached[0].placed->bounds.center().x, -30,
                1e-3)
        << "each placed at its own CFrame";
}

// A place of 500 unions (a 418-vertex, 720-triangle blob each, in MeshData): every union
// resolves, and the time to decode the place and then all its unions is printed (the figure in
// the notes: decoding the unions next to decoding the place without them).
TEST(UnionParts, PlaceOfManyUnionsResolvesEveryUnion) {
    const Mesh local = makeUvSphere(16, 24).meshes.at(0);
    const Bytes blob = writeCsgGraphics(local);
    Asset a;
    a.format = "roblox-model";
    const int ws = a.addNode("Workspace", "Workspace");
    a.nodes[ws].service = true;
    constexpr int kUnions = 500;
    for (int i = 0; i < kUnions; ++i) {
        const int u = a.addNode("Union", "UnionOperation", ws);
        a.addChild(ws, u);
        CFrame cf;
        cf.position = {float(i % 50) * 5, 0, float(i / 50) * 5};
        a.addProperty(u, prop("CFrame", "CFrame", cf));
        a.addProperty(u, prop("size", "Vector3", Vec3{4, 4, 4}));
        a.addProperty(u, prop("MeshData", "BinaryString", asString(blob)));
    }
    // Uncompressed: 500 identical blobs would inflate past the decompression budget's ratio.
    const RobloxModelWriteResult w =
        writeRobloxModel(a, {.compression = RobloxChunkCompression::None});
    ASSERT_TRUE(w.ok());
    const auto t0 = std::chrono::steady_clock::now();
    const DecodeResult d = decodeBytes(w.bytes);
    const auto t1 = std::chrono::steady_clock::now();
    ASSERT_TRUE(d.ok()) << d.error->toString();
    const auto parts = extractRobloxParts(d.asset);
    ASSERT_EQ(parts.size(), std::size_t(kUnions));
    std::size_t triangles = 0;
    for (const RobloxPart& p : parts) {
        const UnionMesh u = unionPartMesh(d.asset, p);
        ASSERT_TRUE(u.ok()) << u.why;
        triangles += u.placed->triangleCount();
    }
    const auto t2 = std::chrono::steady_clock::now();
    EXPECT_EQ(triangles, std::size_t(kUnions) * local.triangleCount());
    const auto ms = [](auto a, auto b) {
        return std::chrono::duration<double, std::milli>(b - a).count();
    };
    std::printf(
        "%d unions (%zu-byte blobs, %zu bytes of place): place decoded in %.1f ms, "
        "unions decoded and placed in %.1f ms\n",
        kUnions, blob.size(), w.bytes.size(), ms(t0, t1), ms(t1, t2));
}

}  // namespace
}  // namespace meshscope

namespace meshscope {
namespace {

// ChildData (#21): the union's original parts, an embedded binary model, shown under the union;
// the union's blobs mapped inside the file when their bytes are the file's own.

// The original parts: Model "Originals" → Part "Left" → Decal "Mark", and Part "Right".
Bytes childDataModel() {
    Asset a;
    const int model = a.addNode("Originals", "Model");
    a.addProperty(model, test::prop("Name", "string", std::string("Originals")));
    for (const char* name : {"Left", "Right"}) {
        const int p = a.addNode(name, "Part", model);
        a.addProperty(p, test::prop("Name", "string", std::string(name)));
        a.addProperty(p, test::prop("size", "Vector3", Vec3{4, 1, 2}));
        if (std::string(name) == "Left") {
            const int d = a.addNode("Mark", "Decal", p);
            a.addProperty(d, test::prop("Name", "string", std::string("Mark")));
        }
    }
    RobloxModelWriteOptions o;
    o.compression = RobloxChunkCompression::None;
    const RobloxModelWriteResult w = writeRobloxModel(a, o);
    EXPECT_TRUE(w.ok());
    return w.bytes;
}

// Where `needle` is in `hay` (the test's own bytes, unique there).
std::uint64_t findIn(const Bytes& hay, const Bytes& needle) {
    const auto it = std::search(hay.begin(), hay.end(), needle.begin(), needle.end());
    EXPECT_NE(it, hay.end());
    EXPECT_EQ(std::search(it + 1, hay.end(), needle.begin(), needle.end()), hay.end());
    return std::uint64_t(it - hay.begin());
}

int childNamed(const Asset& a, int parent, std::string_view name) {
    for (int c : a.children(parent))
        if (a.name(c) == name) return c;
    return -1;
}

int unionNode(const Asset& a) {
    for (std::size_t i = 0; i < a.nodes.size(); ++i)
        if (a.kind(int(i)) == "UnionOperation") return int(i);
    return -1;
}

bool hasRange(const Asset& a, std::uint64_t offset, std::uint64_t length, RangeKind kind,
              int node) {
    for (const ByteRange& r : a.byteMap.ranges())
        if (r.offset == offset && r.length == length && r.kind == kind && r.node == node)
            return true;
    return false;
}

Bytes unionWithChildData(const Bytes& childData, const Bytes& meshData,
                         RobloxChunkCompression compression) {
    Asset a = unionModel("UnionOperation", "MeshData", meshData);
    a.addProperty(1, prop("ChildData", "BinaryString", asString(childData)));
    RobloxModelWriteOptions o;
    o.compression = compression;
    const RobloxModelWriteResult w = writeRobloxModel(a, o);
    EXPECT_TRUE(w.ok());
    return w.bytes;
}

TEST(UnionContents, UncompressedChildDataAndMeshDataAtTheirOwnBytes) {
    const Bytes child = childDataModel();
    const Bytes mesh = writeCsgGraphics(unionLocal());
    const Bytes file = unionWithChildData(child, mesh, RobloxChunkCompression::None);
    // MESHSCOPE_WRITE_CHILDDATA_FIXTURE=path writes this model (to look at it in the viewer or
    // with meshscope-cli tree / map).
    if (const char* out = std::getenv("MESHSCOPE_WRITE_CHILDDATA_FIXTURE"))
        test::writeFile(out, file);
    const DecodeResult d = decodeBytes(file);
    ASSERT_TRUE(d.ok()) << d.error->toString();
    const Asset& a = d.asset;
    EXPECT_EQ(a.warningCount(), 0u);
    const int u = unionNode(a);
    ASSERT_GE(u, 0);
    ASSERT_EQ(a.name(u), "Union");

    // The embedded model alone, to compare with.
    const DecodeResult inner = decodeBytes(child);
    ASSERT_TRUE(inner.ok());
    const std::uint64_t at = findIn(file, child);

    const int model = childNamed(a, u, "Originals (ChildData)");
    ASSERT_GE(model, 0);
    EXPECT_EQ(a.kind(model), "Model");
    EXPECT_TRUE(a.nodes[model].embedded);
    const int left = childNamed(a, model, "Left");
    const int right = childNamed(a, model, "Right");
    ASSERT_GE(left, 0);
    ASSERT_GE(right, 0);
    EXPECT_EQ(a.kind(left), "Part");
    const int mark = childNamed(a, left, "Mark");
    ASSERT_GE(mark, 0);
    EXPECT_EQ(a.kind(mark), "Decal");
    EXPECT_EQ(a.nodes[mark].parent, left);
    const auto size = a.property(right, "size");
    ASSERT_TRUE(size);
    EXPECT_EQ(std::get<Vec3>(size->value), (Vec3{4, 1, 2}));

    // Node ranges: the embedded model's own, moved to where its bytes are in the file.
    for (const auto& [mine, name] :
         {std::pair{model, "Originals"}, std::pair{left, "Left"}, std::pair{mark, "Mark"}}) {
        int theirs = -1;
        for (std::size_t i = 0; i < inner.asset.nodes.size(); ++i)
            if (inner.asset.name(int(i)) == name) theirs = int(i);
        ASSERT_GE(theirs, 0) << name;
        EXPECT_GT(inner.asset.nodes[theirs].length, 0u) << name;
        EXPECT_EQ(a.nodes[mine].offset, at + inner.asset.nodes[theirs].offset) << name;
        EXPECT_EQ(a.nodes[mine].length, inner.asset.nodes[theirs].length) << name;
    }
    // The value as one range, and the embedded model's header inside it.
    EXPECT_TRUE(hasRange(a, at, child.size(), RangeKind::Payload, u));
    EXPECT_TRUE(hasRange(a, at, 32, RangeKind::Header, u));

    // MeshData: every range of the blob decoded alone, at its place in the file, on the union.
    const std::uint64_t meshAt = findIn(file, mesh);
    const DecodeResult blob = decodeBytes(mesh);
    ASSERT_TRUE(blob.ok());
    std::size_t checked = 0;
    for (const ByteRange& r : blob.asset.byteMap.ranges()) {
        if (r.kind == RangeKind::Unparsed) continue;
        EXPECT_TRUE(hasRange(a, meshAt + r.offset, r.length, r.kind, u)) << r.path;
        ++checked;
    }
    EXPECT_GT(checked, 3u);
    bool vertices = false;
    for (const ByteRange& r : a.byteMap.ranges())
        vertices |= r.node == u && r.path.find("MeshData") != std::string::npos &&
                    r.path.find("vert") != std::string::npos;
    EXPECT_TRUE(vertices);

    // The original parts are not drawn: only the union is a part.
    EXPECT_EQ(extractRobloxParts(a).size(), 1u);

    // Written again, they stay in the ChildData value (not written as instances too).
    const RobloxModelWriteResult again = writeRobloxModel(a);
    ASSERT_TRUE(again.ok());
    const DecodeResult d2 = decodeBytes(again.bytes);
    ASSERT_TRUE(d2.ok()) << d2.error->toString();
    EXPECT_EQ(d2.asset.nodes.size(), a.nodes.size());
    const int u2 = unionNode(d2.asset);
    ASSERT_GE(u2, 0);
    EXPECT_EQ(d2.asset.children(u2).size(), 1u);
    EXPECT_GE(childNamed(d2.asset, u2, "Originals (ChildData)"), 0);
}

TEST(UnionContents, CompressedChildDataNodesTakeThePropertysRange) {
    const Bytes child = childDataModel();
    const Bytes mesh = writeCsgGraphics(unionLocal());
    const Bytes file = unionWithChildData(child, mesh, RobloxChunkCompression::Lz4);
    const DecodeResult d = decodeBytes(file);
    ASSERT_TRUE(d.ok()) << d.error->toString();
    const Asset& a = d.asset;
    const int u = unionNode(a);
    ASSERT_GE(u, 0);
    const auto p = a.property(u, "ChildData");
    ASSERT_TRUE(p);
    ASSERT_GT(p->length, 0u);
    const int model = childNamed(a, u, "Originals (ChildData)");
    ASSERT_GE(model, 0);
    const int left = childNamed(a, model, "Left");
    ASSERT_GE(left, 0);
    ASSERT_GE(childNamed(a, left, "Mark"), 0);
    for (int n : {model, left}) {
        EXPECT_EQ(a.nodes[n].offset, p->offset);
        EXPECT_EQ(a.nodes[n].length, p->length);
    }
    // No ranges inside the compressed values.
    for (const ByteRange& r : a.byteMap.ranges()) {
        EXPECT_EQ(r.path.find("Union \xE2\x80\xBA MeshData"), std::string::npos) << r.path;
        EXPECT_EQ(r.path.find("Union \xE2\x80\xBA ChildData"), std::string::npos) << r.path;
    }
    EXPECT_EQ(extractRobloxParts(a).size(), 1u);
}

TEST(UnionContents, BrokenChildDataIsAWarningAtItsAbsoluteOffset) {
    const Bytes child = childDataModel();
    // Cut inside the embedded model: its decoder fails at an offset of its own.
    const Bytes cut(child.begin(), child.begin() + std::ptrdiff_t(child.size() * 2 / 3));
    const DecodeResult alone = decodeBytes(cut);
    ASSERT_FALSE(alone.ok());
    const Bytes file = unionWithChildData(cut, {}, RobloxChunkCompression::None);
    const DecodeResult d = decodeBytes(file);
    ASSERT_TRUE(d.ok()) << d.error->toString();
    const std::uint64_t at = findIn(file, cut);
    bool found = false;
    for (const Diagnostic& g : d.asset.diagnostics)
        if (g.severity == Severity::Warning && g.context.find("ChildData") != std::string::npos &&
            g.code == alone.error->code) {
            EXPECT_EQ(g.offset, at + alone.error->offset) << g.toString();
            found = true;
        }
    EXPECT_TRUE(found);
    // Not a model at all: one warning, nothing added.
    const Bytes junk = {'n', 'o', 't', ' ', 'a', ' ', 'm', 'o', 'd', 'e', 'l'};
    const DecodeResult j = decodeBytes(unionWithChildData(junk, {}, RobloxChunkCompression::None));
    ASSERT_TRUE(j.ok());
    const int u = unionNode(j.asset);
    ASSERT_GE(u, 0);
    EXPECT_TRUE(j.asset.children(u).empty());
    EXPECT_EQ(j.asset.warningCount(), 1u);
}

TEST(UnionContents, NestedChildDataIsBounded) {
    // A union whose ChildData holds a union whose ChildData holds ... 8 deep.
    Bytes inner = childDataModel();
    for (int i = 0; i < 8; ++i) inner = unionWithChildData(inner, {}, RobloxChunkCompression::None);
    const DecodeResult d = decodeBytes(inner);
    ASSERT_TRUE(d.ok()) << d.error->toString();
    std::size_t unions = 0;
    for (std::size_t i = 0; i < d.asset.nodes.size(); ++i)
        unions += d.asset.kind(int(i)) == "UnionOperation";
    EXPECT_GE(unions, 2u);
    EXPECT_LT(unions, 8u);
    bool limited = false;
    for (const Diagnostic& g : d.asset.diagnostics) limited |= g.code == "limit";
    EXPECT_TRUE(limited);
}

}  // namespace
}  // namespace meshscope

namespace meshscope {
namespace {

// A model of one union whose MeshData2 (a SharedString) is `mesh`, written with uncompressed
// chunks so that the blob's bytes stand in the file as they are.
RobloxModelWriteResult writeUncompressedUnion(const Bytes& mesh) {
    RobloxModelWriteOptions o;
    o.compression = RobloxChunkCompression::None;
    return writeRobloxModel(unionModel("UnionOperation", "MeshData2", mesh), o);
}

// MeshData2 (a SharedString) in an uncompressed SSTR chunk: its ranges at its bytes there.
TEST(UnionContents, SharedStringMeshDataMappedInTheSstrChunk) {
    const Bytes mesh = writeCsgGraphics(unionLocal());
    const RobloxModelWriteResult w = writeUncompressedUnion(mesh);
    ASSERT_TRUE(w.ok());
    const DecodeResult d = decodeBytes(w.bytes);
    ASSERT_TRUE(d.ok()) << d.error->toString();
    int u = -1;
    for (std::size_t i = 0; i < d.asset.nodes.size(); ++i)
        if (d.asset.kind(int(i)) == "UnionOperation") u = int(i);
    ASSERT_GE(u, 0);
    const auto it = std::search(w.bytes.begin(), w.bytes.end(), mesh.begin(), mesh.end());
    ASSERT_NE(it, w.bytes.end());
    const std::uint64_t at = std::uint64_t(it - w.bytes.begin());
    const DecodeResult blob = decodeBytes(mesh);
    ASSERT_TRUE(blob.ok());
    std::size_t found = 0, expected = 0;
    for (const ByteRange& r : blob.asset.byteMap.ranges()) {
        if (r.kind == RangeKind::Unparsed) continue;
        ++expected;
        for (const ByteRange& m : d.asset.byteMap.ranges())
            if (m.offset == at + r.offset && m.length == r.length && m.kind == r.kind &&
                m.node == u) {
                ++found;
                break;
            }
    }
    EXPECT_GT(expected, 3u);
    EXPECT_EQ(found, expected);
}

// Without a byte map (DecodeOptions::byteMap = false, the CLI's info and tree) a SharedString
// blob is still found at its bytes in the SSTR chunk: a broken MeshData2's warning is the same,
// at the same absolute offset, as with the map.
TEST(UnionContents, WithoutByteMapSharedStringBlobsAreStillFound) {
    const Bytes mesh = writeCsgGraphics(unionLocal());
    const Bytes cut(mesh.begin(), mesh.begin() + std::ptrdiff_t(mesh.size() * 2 / 3));
    const RobloxModelWriteResult w = writeUncompressedUnion(cut);
    ASSERT_TRUE(w.ok());
    const DecodeResult with = decodeBytes(w.bytes);
    const DecodeResult without = decodeBytes(w.bytes, {.byteMap = false});
    ASSERT_TRUE(with.ok()) << with.error->toString();
    ASSERT_TRUE(without.ok()) << without.error->toString();
    EXPECT_TRUE(without.asset.byteMap.empty());
    std::vector<std::string> a, b;
    for (const Diagnostic& g : with.asset.diagnostics) a.push_back(g.toString());
    for (const Diagnostic& g : without.asset.diagnostics) b.push_back(g.toString());
    EXPECT_EQ(a, b);
    // The blob's warning, at its bytes in the SSTR chunk (not at the property's).
    const std::uint64_t at = findIn(w.bytes, cut);
    bool found = false;
    for (const Diagnostic& g : without.asset.diagnostics)
        found |= g.severity == Severity::Warning &&
                 g.context.find("MeshData2") != std::string::npos && g.offset >= at &&
                 g.offset <= at + cut.size();
    EXPECT_TRUE(found) << ::testing::PrintToString(b);
}

// PhysicsData (CSGPHS 3 hulls) in a raw PROP chunk: its hull ranges at their bytes.
TEST(UnionContents, PhysicsDataHullsMapped) {
    const Mesh hull = unionLocal();
    const Bytes physics = writeCsgPhysics({hull, hull}, 3);
    ASSERT_FALSE(physics.empty());
    Asset model = unionModel("UnionOperation", "", {});
    model.addProperty(1, prop("PhysicsData", "BinaryString", asString(physics)));
    RobloxModelWriteOptions o;
    o.compression = RobloxChunkCompression::None;
    const RobloxModelWriteResult w = writeRobloxModel(model, o);
    ASSERT_TRUE(w.ok());
    const DecodeResult d = decodeBytes(w.bytes);
    ASSERT_TRUE(d.ok()) << d.error->toString();
    const auto it = std::search(w.bytes.begin(), w.bytes.end(), physics.begin(), physics.end());
    ASSERT_NE(it, w.bytes.end());
    const std::uint64_t at = std::uint64_t(it - w.bytes.begin());
    const DecodeResult blob = decodeBytes(physics);
    ASSERT_TRUE(blob.ok());
    std::size_t hulls = 0;
    for (const ByteRange& r : blob.asset.byteMap.ranges()) {
        if (r.kind == RangeKind::Unparsed) continue;
        bool found = false;
        for (const ByteRange& m : d.asset.byteMap.ranges())
            found |= m.offset == at + r.offset && m.length == r.length && m.kind == r.kind &&
                     m.node == 1 && m.path.find("PhysicsData") != std::string::npos;
        EXPECT_TRUE(found) << r.path;
        hulls += r.path.find("hull") != std::string::npos;
    }
    EXPECT_GT(hulls, 0u);
}

}  // namespace
}  // namespace meshscope
