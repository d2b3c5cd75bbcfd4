// The software preview renderer (thumbnails without a display): what it chooses to draw and
// what the picture holds.
#include "meshscope/core/preview.h"

#include <gtest/gtest.h>

#include "meshscope/core/axes.h"
#include "meshscope/core/decode.h"
#include "meshscope/core/mesh_generators.h"
#include "meshscope/core/roblox_model_writer.h"
#include "meshscope/core/secondlife_writer.h"
#include "support/test_support.h"

using namespace meshscope;

namespace {

std::uint8_t alphaAt(const PreviewImage& image, int x, int y) {
    return image.rgba[(std::size_t(y) * std::size_t(image.width) + std::size_t(x)) * 4 + 3];
}

int opaquePixels(const PreviewImage& image) {
    int n = 0;
    for (int y = 0; y < image.height; ++y)
        for (int x = 0; x < image.width; ++x) n += alphaAt(image, x, y) > 0;
    return n;
}

}  // namespace

TEST(Preview, SphereIsFramedLitAndTransparentAround) {
    const Asset sphere = makeUvSphere(16, 24, 1.0f);
    PreviewOptions o;
    o.width = o.height = 128;
    const PreviewImage image = renderPreview(previewMeshes(sphere), o);
    ASSERT_EQ(image.width, 128);
    ASSERT_EQ(image.rgba.size(), 128u * 128u * 4u);
    EXPECT_EQ(alphaAt(image, 64, 64), 255);
    for (auto [x, y] : {std::pair{0, 0}, {127, 0}, {0, 127}, {127, 127}})
        EXPECT_EQ(alphaAt(image, x, y), 0) << x << "," << y;
    const int opaque = opaquePixels(image);
    EXPECT_GT(opaque, 128 * 128 / 5) << "a speck, not framed";
    EXPECT_LT(opaque, 128 * 128 * 9 / 10) << "overfills the square";
    // Lit: the centre (facing the eye) is brighter than a point near the silhouette.
    const auto red = [&](int x, int y) {
        return int(image.rgba[(std::size_t(y) * 128 + std::size_t(x)) * 4]);
    };
    int edgeX = 64;
    while (edgeX < 127 && alphaAt(image, edgeX + 1, 64) == 255) ++edgeX;
    EXPECT_GT(red(64, 64), red(edgeX - 2, 64) + 20);
    EXPECT_GT(image.trianglesDrawn, 100u);
}

// A point cloud (what a Draco stream may hold) is drawn point by point, in its colours; lines
// (physics hulls, wireframes) are not drawn at all.
TEST(Preview, PointCloudsAreDrawnInTheirColours) {
    Asset asset;
    Mesh cloud;
    cloud.primitive = Primitive::Points;
    for (int i = 0; i < 400; ++i) {
        cloud.positions.push_back({float(i % 20), float(i / 20), 0});
        cloud.colors.push_back({255, 0, 0, 255});
        cloud.indices.push_back(std::uint32_t(i));
    }
    cloud.computeBounds();
    asset.meshes.push_back(cloud);
    Mesh lines = cloud;
    lines.primitive = Primitive::Lines;
    lines.indices = {0, 399};
    asset.meshes.push_back(lines);
    PreviewOptions o;
    o.width = o.height = 128;
    const PreviewImage image = renderPreview(previewMeshes(asset), o);
    EXPECT_EQ(image.trianglesDrawn, 0u);
    EXPECT_GT(image.pointsDrawn, 350u);
    const int opaque = opaquePixels(image);
    EXPECT_GT(opaque, 400);                 // 1.5 pixels a point at least
    EXPECT_LT(opaque, 128 * 128 * 6 / 10);  // points, not a filled square
    // Every drawn pixel is red: the points' colour, lit (the highlight adds as much green as
    // blue).
    for (int y = 0; y < 128; ++y)
        for (int x = 0; x < 128; ++x) {
            if (alphaAt(image, x, y) == 0) continue;
            const std::uint8_t* px = &image.rgba[(std::size_t(y) * 128 + std::size_t(x)) * 4];
            EXPECT_GT(int(px[0]), int(px[1]) + 60) << x << "," << y;
            EXPECT_EQ(int(px[1]), int(px[2])) << x << "," << y;
        }
}

TEST(Preview, OpaqueBackgroundFillsEveryPixel) {
    PreviewOptions o;
    o.width = 40;
    o.height = 30;
    o.transparentBackground = false;
    const PreviewImage image = renderPreview(previewMeshes(makeUvSphere()), o);
    ASSERT_EQ(image.height, 30);
    for (int y = 0; y < 30; ++y)
        for (int x = 0; x < 40; ++x) ASSERT_EQ(alphaAt(image, x, y), 255);
    EXPECT_EQ(image.rgba[0], o.background.r);
}

TEST(Preview, BadSizesGiveAnEmptyImageAndNothingDrawsNothing) {
    PreviewOptions o;
    o.width = 0;
    EXPECT_TRUE(renderPreview(previewMeshes(makeUvSphere()), o).empty());
    o.width = 9000;
    EXPECT_TRUE(renderPreview(previewMeshes(makeUvSphere()), o).empty());
    const PreviewImage none = renderPreview({}, PreviewOptions{});
    ASSERT_FALSE(none.empty());
    EXPECT_EQ(none.trianglesDrawn, 0u);
    EXPECT_EQ(opaquePixels(none), 0);
    // Indices past the vertices and non-finite positions are skipped, not read.
    Mesh broken = makeUvSphere().meshes[0];
    broken.indices.push_back(1u << 30);
    broken.indices.push_back(0);
    broken.indices.push_back(1);
    broken.positions[2] = {NAN, 0, INFINITY};
    const PreviewImage still = renderPreview({broken}, PreviewOptions{});
    EXPECT_GT(opaquePixels(still), 1000);
}

TEST(Preview, OnlyTheFinestLevelIsDrawn) {
    const Asset lods = makeLodSphere(3);
    ASSERT_EQ(lods.meshes[0].lods.size(), 3u);
    const std::vector<Mesh> shown = previewMeshes(lods);
    ASSERT_EQ(shown.size(), 1u);
    EXPECT_EQ(shown[0].triangleCount(), lods.meshes[0].lods[0].triangleCount);
}

// Second Life assets hold four levels as separate meshes plus a physics shape: a still picture
// shows the finest level once (drawing them all overlapped garbled the thumbnails).
TEST(Preview, SecondLifeShowsOneLevelAndNoPhysics) {
    Asset asset;
    const int rings[4] = {16, 10, 6, 4};
    const char* names[4] = {"high_lod", "medium_lod", "low_lod", "lowest_lod"};
    for (int l = 0; l < 4; ++l) {
        Mesh mesh = makeUvSphere(rings[l], rings[l] + 4).meshes.at(0);
        mesh.name = names[l];
        mesh.node = -1;
        mesh.lods = {{0, std::uint32_t(mesh.triangleCount()), names[l]}};
        asset.meshes.push_back(std::move(mesh));
    }
    const SecondLifeWriteResult written = writeSecondLifeMesh(asset);
    ASSERT_TRUE(written.ok());
    const DecodeResult decoded = decodeBytes(ByteSpan(written.bytes.data(), written.bytes.size()));
    ASSERT_TRUE(decoded.ok());
    const std::vector<Mesh> shown = previewMeshes(decoded.asset);
    ASSERT_EQ(shown.size(), 1u);
    EXPECT_EQ(shown[0].name, "high_lod");
    EXPECT_EQ(shown[0].triangleCount(), asset.meshes[0].triangleCount());
}

TEST(Preview, RobloxModelDrawsItsParts) {
    const Asset place = makeRobloxPlace(1);
    const auto written = writeRobloxModel(place);
    ASSERT_TRUE(written.ok());
    const DecodeResult decoded = decodeBytes(ByteSpan(written.bytes.data(), written.bytes.size()));
    ASSERT_TRUE(decoded.ok());
    const std::vector<Mesh> shown = previewMeshes(decoded.asset);
    ASSERT_FALSE(shown.empty());
    std::size_t triangles = 0;
    for (const Mesh& m : shown) triangles += m.triangleCount();
    EXPECT_GE(triangles, 12u);  // a box at least
    EXPECT_GT(opaquePixels(renderPreview(shown, PreviewOptions{})), 500);
}

// A place draws its Workspace; one whose Workspace has nothing to draw shows the parts it keeps
// elsewhere (a thumbnail of those says more than none), and one with a part in Workspace does not.
TEST(Preview, PlaceWithAnEmptyWorkspaceShowsItsStoredParts) {
    Asset place;
    place.format = "roblox-model";
    const int ws = place.addNode("Workspace", "Workspace");
    const int rs = place.addNode("ReplicatedStorage", "ReplicatedStorage");
    test::addPart(place, rs, "Block", {0, 0, 0});
    test::addPart(place, rs, "Block", {10, 0, 0});
    const auto triangles = [](const std::vector<Mesh>& meshes) {
        std::size_t n = 0;
        for (const Mesh& m : meshes) n += m.triangleCount();
        return n;
    };
    const std::size_t stored = triangles(previewMeshes(place));
    EXPECT_GE(stored, 24u);  // both boxes
    EXPECT_GT(opaquePixels(renderPreview(previewMeshes(place), PreviewOptions{})), 200);
    test::addPart(place, ws, "Block", {0, 5, 0});
    const std::size_t world = triangles(previewMeshes(place));
    EXPECT_GE(world, 12u);
    EXPECT_LT(world, stored);  // the Workspace part alone
}

// Colours as the viewer draws them: a Roblox part in its own colour (white base), a file's
// vertex colours tinting the viewer's grey; so a white part is drawn brighter than a white mesh.
TEST(Preview, PartsKeepTheirColourAndFileMeshesTintTheGrey) {
    Asset place;
    place.format = "roblox-model";
    const int ws = place.addNode("Workspace", "Workspace");
    test::addPart(place, ws, "Block", {0, 0, 0}, {2, 2, 2}, Vec3{1, 0.5f, 0.25f});
    const std::vector<Mesh> parts = previewMeshes(place);
    ASSERT_FALSE(parts.empty());
    ASSERT_FALSE(parts[0].colors.empty());
    EXPECT_EQ(parts[0].colors[0].r, 255);
    EXPECT_EQ(parts[0].colors[0].g, 128);

    Asset file = makeUvSphere(8, 12);
    ASSERT_EQ(file.meshes.size(), 1u);
    Mesh& cube = file.meshes[0];
    cube.colors.assign(cube.positions.size(), Rgba8{255, 255, 255, 255});
    const std::vector<Mesh> shown = previewMeshes(file);
    ASSERT_EQ(shown.size(), 1u);
    EXPECT_EQ(shown[0].colors[0].r, 200);  // the grey base, tinted by white
    EXPECT_EQ(shown[0].colors[0].a, 255);

    // The same sphere drawn white (as a part's colour is) and on the grey base: the first is
    // brighter at the centre.
    PreviewOptions o;
    o.width = o.height = 64;
    std::vector<Mesh> white = {cube};
    const PreviewImage bright = renderPreview(white, o);
    const PreviewImage grey = renderPreview(shown, o);
    const auto at = [](const PreviewImage& i) { return int(i.rgba[(32 * 64 + 32) * 4]); };
    EXPECT_GT(at(bright), at(grey) + 10);
}

// A cap on the work keeps huge meshes cheap and still draws the shape.
TEST(Preview, TriangleCapSkipsEvenly) {
    PreviewOptions o;
    o.width = o.height = 64;
    const std::vector<Mesh> shown = previewMeshes(makeUvSphere(64, 96));
    const PreviewImage full = renderPreview(shown, o);
    o.maxTriangles = shown[0].triangleCount() / 4;
    const PreviewImage capped = renderPreview(shown, o);
    EXPECT_LT(capped.trianglesDrawn, full.trianglesDrawn / 2);
    EXPECT_GT(opaquePixels(capped), opaquePixels(full) / 2);
}

namespace {

// A tube 4 long and 1 across standing along +Z, as a Z-up source (Unigine, Second Life) holds a
// standing figure.
Mesh standingTubeZUp() {
    Mesh m = makeSkinnedCylinder(2, 4, 16, 4.0f, 0.5f).meshes[0];
    m.skin = {};
    m.bounds = {};
    for (Vec3& p : m.positions) {
        p = fromYUp(UpAxis::Z, p);
        m.bounds.add(p);
    }
    for (Vec3& n : m.normals) n = fromYUp(UpAxis::Z, n);
    return m;
}

// Width and height of the opaque pixels' box.
std::pair<int, int> opaqueExtent(const PreviewImage& image) {
    int x0 = image.width, x1 = -1, y0 = image.height, y1 = -1;
    for (int y = 0; y < image.height; ++y)
        for (int x = 0; x < image.width; ++x)
            if (alphaAt(image, x, y) > 0) {
                x0 = std::min(x0, x), x1 = std::max(x1, x);
                y0 = std::min(y0, y), y1 = std::max(y1, y);
            }
    return {x1 - x0 + 1, y1 - y0 + 1};
}

}  // namespace

TEST(Preview, ZUpSourcesStandUp) {
    Asset asset;
    asset.meshes.push_back(standingTubeZUp());
    PreviewOptions o;
    o.width = o.height = 128;
    for (const char* format : {"unigine", "secondlife-mesh"}) {
        asset.format = format;
        ASSERT_EQ(upAxisOf(asset), UpAxis::Z);
        const auto [w, h] = opaqueExtent(renderPreview(previewMeshes(asset), o));
        EXPECT_GT(h, w * 2) << format << ": " << w << " × " << h << " (lying down?)";
    }
    // The same coordinates read as Y-up lie on the ground.
    asset.format = "roblox-mesh";
    ASSERT_EQ(upAxisOf(asset), UpAxis::Y);
    const auto [w, h] = opaqueExtent(renderPreview(previewMeshes(asset), o));
    EXPECT_GT(w, h) << w << " × " << h;
}

TEST(Axes, TurnsAreInverseRotationsAndFrontsFaceTheViewer) {
    const Vec3 p{1, 2, 3};
    EXPECT_EQ(toYUp(UpAxis::Z, p), (Vec3{1, 3, -2}));
    EXPECT_EQ(fromYUp(UpAxis::Z, toYUp(UpAxis::Z, p)), p);
    EXPECT_EQ(toYUp(UpAxis::Y, p), p);
    // Up (+Z) becomes +Y; a right-handed basis stays right-handed (x × y = z after the turn).
    EXPECT_EQ(toYUp(UpAxis::Z, Vec3{0, 0, 1}), (Vec3{0, 1, 0}));
    const Vec3 x = toYUp(UpAxis::Z, {1, 0, 0}), y = toYUp(UpAxis::Z, {0, 1, 0});
    EXPECT_EQ((Vec3{x.y * y.z - x.z * y.y, x.z * y.x - x.x * y.z, x.x * y.y - x.y * y.x}),
              toYUp(UpAxis::Z, {0, 0, 1}));
    EXPECT_EQ(upAxisOfFormat("unigine"), UpAxis::Z);
    EXPECT_EQ(upAxisOfFormat("secondlife-mesh"), UpAxis::Z);
    EXPECT_EQ(upAxisOfFormat("roblox-model"), UpAxis::Y);
    EXPECT_EQ(upAxisOfFormat("roblox-mesh"), UpAxis::Y);
    // The first view looks at each family's front from 35 degrees to its right.
    Asset a;
    a.format = "roblox-mesh";
    EXPECT_FLOAT_EQ(frontViewYawDegrees(a), 145.f);  // front -Z: yaw 180
    a.format = "unigine";
    EXPECT_FLOAT_EQ(frontViewYawDegrees(a), 325.f);  // front -Y, +Z once turned: yaw 0
    a.format = "secondlife-mesh";
    EXPECT_FLOAT_EQ(frontViewYawDegrees(a), 55.f);  // front +X: yaw 90
}
