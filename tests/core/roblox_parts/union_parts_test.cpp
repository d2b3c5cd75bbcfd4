// CSG unions in models (roblox_parts.h unionPartMesh): the blob in MeshData / MeshData2 decoded,
// fitted from its own bounds to the part's Size, placed at its CFrame and painted with the part
// colour or, when UsePartColor is false, its own vertex colours; AssetId resolved through the
// asset folders; every failure explained. Also through a binary model written and decoded again.
#include <gtest/gtest.h>

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
