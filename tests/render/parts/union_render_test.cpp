// CSG unions in the 3D view (needs a display: run under xvfb-run): a union whose MeshData holds a
// CSGMDL blob is drawn as that geometry fitted to its Size, in its own vertex colours when
// UsePartColor is false; a union without geometry is drawn as a translucent box with one warning;
// a NegateOperation is not drawn.
#include <gtest/gtest.h>

#include <QApplication>
#include <QImage>
#include <QProcess>

#include "meshscope/core/decode.h"
#include "meshscope/core/part_meshes.h"
#include "meshscope/core/roblox_csg.h"
#include "meshscope/core/roblox_model_writer.h"
#include "meshscope/render/asset_scene.h"
#include "meshscope/render/roblox_parts.h"
#include "meshscope/render/viewport.h"
#include "support/csg_fixtures.h"
#include "support/image_baseline.h"
#include "support/test_support.h"

using namespace meshscope;

namespace {

using meshscope::test::prop;

Asset unionsModel(const Mesh& local) {
    Asset a;
    a.format = "roblox-model";
    const int model = a.addNode("Unions", "Model");
    const Bytes blob = writeCsgGraphics(local);
    auto add = [&](const char* name, const char* cls, Vec3 pos, bool withBlob) {
        const int n = a.addNode(name, cls, model);
        a.addChild(model, n);
        CFrame cf;
        cf.position = pos;
        a.addProperty(n, prop("Name", "string", std::string(name)));
        a.addProperty(n, prop("CFrame", "CFrame", cf));
        a.addProperty(n, prop("size", "Vector3", Vec3{4, 2, 4}));
        a.addProperty(n, prop("Color3uint8", "Color3uint8", Vec3{0, 0, 1}));
        a.addProperty(n, prop("UsePartColor", "bool", false));
        if (withBlob)
            a.addProperty(n,
                          prop("MeshData", "BinaryString", std::string(blob.begin(), blob.end())));
    };
    add("Drawn", "UnionOperation", {0, 1, 0}, true);
    add("Boxed", "UnionOperation", {8, 1, 0}, false);
    add("Cut", "NegateOperation", {-8, 1, 0}, true);
    return a;
}

TEST(UnionRender, DecodedGeometryTranslucentBoxAndNoNegate) {
    Mesh local = test::csg::fixtureMesh();
    local.colors.assign(local.positions.size(), Rgba8{250, 20, 20, 255});
    const auto written = writeRobloxModel(unionsModel(local));
    ASSERT_TRUE(written.ok());
    const DecodeResult d = decodeBytes(written.bytes);
    ASSERT_TRUE(d.ok());

    render::Viewport view;
    view.resize(640, 480);
    view.show();
    for (int i = 0; i < 20; ++i) QApplication::processEvents();
    // Unions are resolved by the core step the decode job runs (resolvePartMeshes).
    const PartMeshes resolved = resolvePartMeshes(d.asset);
    ASSERT_EQ(resolved.meshes.size(), 1u);
    ASSERT_EQ(resolved.diagnostics.size(), 1u);
    EXPECT_EQ(resolved.diagnostics[0].code, std::string(kUnionUnresolved));
    EXPECT_NE(resolved.diagnostics[0].message.find("1 union is drawn as translucent boxes"),
              std::string::npos)
        << resolved.diagnostics[0].message;
    EXPECT_NE(resolved.diagnostics[0].message.find("Boxed"), std::string::npos);
    view.setAsset(d.asset, &resolved);
    render::RobloxPartsView* parts = view.robloxParts();
    EXPECT_EQ(parts->resolvedMeshCount(), 1);
    // The union's mesh: its own triangles, fitted to 4 × 2 × 4 at the origin, red.
    const Asset& scene = parts->sceneAsset();
    const Mesh* drawn = nullptr;
    for (const Mesh& m : scene.meshes)
        if (m.name == "Drawn") drawn = &m;
    ASSERT_NE(drawn, nullptr);
    EXPECT_EQ(drawn->triangleCount(), local.triangleCount());
    EXPECT_NEAR(drawn->bounds.max.x, 2, 1e-3);
    EXPECT_NEAR(drawn->bounds.max.y, 2, 1e-3);
    EXPECT_EQ(drawn->colors.at(0), (Rgba8{250, 20, 20, 255}));
    // The box is translucent; the NegateOperation at x = -8 is nowhere in the scene.
    EXPECT_FALSE(parts->translucentMeshes().empty());
    EXPECT_GT(view.scene()->bounds().min.x, -5.0f);
}

// Several opaque unions share one batched scene mesh (a place with a thousand unions would
// otherwise make a thousand entities and materials); a translucent one keeps a mesh of its own,
// so it can be sorted. Every union's triangles are drawn, and each still frames the view as a box
// of its own.
TEST(UnionRender, OpaqueUnionsShareABatchedMesh) {
    Mesh local = test::csg::fixtureMesh();
    local.colors.assign(local.positions.size(), Rgba8{250, 20, 20, 255});
    const Bytes blob = writeCsgGraphics(local);
    Asset a;
    a.format = "roblox-model";
    const int model = a.addNode("Unions", "Model");
    const int opaque = 6;
    for (int i = 0; i <= opaque; ++i) {
        const int n = a.addNode(i < opaque ? "Solid" : "Glass", "UnionOperation", model);
        CFrame cf;
        cf.position = {float(i) * 8, 1, 0};
        a.addProperty(n, prop("Name", "string", std::string(i < opaque ? "Solid" : "Glass")));
        a.addProperty(n, prop("CFrame", "CFrame", cf));
        a.addProperty(n, prop("size", "Vector3", Vec3{4, 2, 4}));
        a.addProperty(n, prop("Color3uint8", "Color3uint8", Vec3{0, 0, 1}));
        a.addProperty(n, prop("Transparency", "float", i < opaque ? 0.0 : 0.5));
        a.addProperty(n, prop("UsePartColor", "bool", false));
        a.addProperty(n, prop("MeshData", "BinaryString", std::string(blob.begin(), blob.end())));
    }
    const auto written = writeRobloxModel(a);
    ASSERT_TRUE(written.ok());
    const DecodeResult d = decodeBytes(written.bytes);
    ASSERT_TRUE(d.ok());
    const PartMeshes resolved = resolvePartMeshes(d.asset);
    ASSERT_EQ(resolved.meshes.size(), std::size_t(opaque + 1));

    render::Viewport view;
    view.resize(640, 480);
    view.setAsset(d.asset, &resolved);
    render::RobloxPartsView* parts = view.robloxParts();
    EXPECT_EQ(parts->resolvedMeshCount(), opaque + 1);
    ASSERT_EQ(view.scene()->meshCount(), 2) << "one batch and the translucent union";
    const Asset& scene = parts->sceneAsset();
    ASSERT_EQ(scene.meshes.size(), 2u);
    const Mesh& batch = scene.meshes[0];
    EXPECT_EQ(batch.name, "part meshes");
    EXPECT_EQ(batch.triangleCount(), opaque * local.triangleCount());
    EXPECT_EQ(batch.positions.size(), opaque * local.positions.size());
    EXPECT_EQ(batch.colors.size(), batch.positions.size());
    EXPECT_EQ(batch.colors.back(), (Rgba8{250, 20, 20, 255}));
    // The last solid union's vertices sit at x = 40 ± 2, and its triangles point at them.
    EXPECT_NEAR(batch.bounds.max.x, 8 * (opaque - 1) + 2, 1e-3);
    EXPECT_GE(batch.indices.back(), std::uint32_t((opaque - 1) * local.positions.size()));
    EXPECT_LT(batch.indices.back(), std::uint32_t(batch.positions.size()));
    EXPECT_EQ(scene.meshes[1].name, "Glass");
    EXPECT_EQ(parts->translucentMeshes(), std::vector<int>{1});
    EXPECT_EQ(view.scene()->stats().triangles, std::uint64_t(opaque + 1) * local.triangleCount());
    EXPECT_EQ(view.scene()->framingItems().size(), std::size_t(opaque + 1))
        << "each union frames the view as its own box";
}

// `meshscope --screenshot` of the fixture: the decoded union (its own red vertex colours) and
// the translucent blue box of the union without geometry, compared with a stored baseline
// (tests/data/baselines/union_model.png; MESHSCOPE_UPDATE_BASELINES=1 rewrites it).
TEST(UnionRender, ScreenshotMatchesBaseline) {
    Mesh local = test::csg::fixtureMesh();
    local.colors.assign(local.positions.size(), Rgba8{250, 20, 20, 255});
    const auto written = writeRobloxModel(unionsModel(local));
    ASSERT_TRUE(written.ok());
    const auto fixture = test::tempDir("union_render") / "unions.rbxm";
    test::writeFile(fixture, written.bytes);
    const auto out = fixture.parent_path() / "shot.png";
    QProcess p;
    p.start(QStringLiteral(MESHSCOPE_VIEWER_PATH),
            {"--screenshot", QString::fromStdString(out.string()), "--size", "400x300",
             QString::fromStdString(fixture.string())});
    ASSERT_TRUE(p.waitForFinished(60000));
    ASSERT_EQ(p.exitCode(), 0) << p.readAllStandardError().toStdString();
    const QImage shot = QImage(QString::fromStdString(out.string()));
    ASSERT_FALSE(shot.isNull());
    // Independent of the baseline: the union's red shows, and the box's blue (see-through).
    EXPECT_GT(test::pixelsOfHue(shot, 0), 200);
    test::expectMatchesBaseline(shot, "union_model.png", {24, 0.03});
}

}  // namespace
