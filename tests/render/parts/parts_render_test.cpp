// Roblox parts in the 3D view (needs a display: run under xvfb-run): a generated model with a
// part of every shape rendered by `meshscope --screenshot` and compared with a stored baseline
// (tests/data/baselines/parts_shapes.png; refresh with MESHSCOPE_UPDATE_BASELINES=1), the
// selection box following the selected node, a CPU pick at a part's projected centre, and a
// 100 000-part place drawn as two instanced meshes (its opaque and its translucent blocks).
#include <gtest/gtest.h>

#include <QApplication>
#include <QElapsedTimer>
#include <QImage>
#include <QProcess>
#include <QWindow>
#include <Qt3DRender/QCamera>
#include <cmath>

#include "meshscope/core/decode.h"
#include "meshscope/core/mesh_generators.h"
#include "meshscope/core/roblox_model_writer.h"
#include "meshscope/core/roblox_parts.h"
#include "meshscope/render/asset_scene.h"
#include "meshscope/render/materials.h"
#include "meshscope/render/roblox_parts.h"
#include "meshscope/render/viewport.h"
#include "support/image_baseline.h"
#include "support/qt_test_support.h"
#include "support/test_support.h"

using namespace meshscope;

namespace {

using meshscope::test::prop;

// One part of each shape in a row along X, each in its own primary-ish colour, plus a
// MeshPart whose mesh cannot be resolved (drawn as its box).
Asset shapesModel() {
    Asset a;
    a.format = "roblox-model";
    const int model = a.addNode("Shapes", "Model");
    a.addProperty(model, prop("Name", "string", std::string("Shapes")));
    struct Spec {
        const char* cls;
        int shape;  // -1: none stored
        Vec3 size;
        Vec3 color;
    };
    const Spec specs[] = {
        {"Part", 1, {4, 2, 4}, {0.9f, 0.1f, 0.1f}},              // Block, red
        {"Part", 0, {4, 4, 4}, {0.1f, 0.8f, 0.1f}},              // Ball, green
        {"Part", 2, {4, 3, 3}, {0.1f, 0.2f, 0.9f}},              // Cylinder along X, blue
        {"WedgePart", -1, {4, 3, 4}, {0.95f, 0.85f, 0.1f}},      // yellow
        {"CornerWedgePart", -1, {4, 3, 4}, {0.9f, 0.1f, 0.9f}},  // magenta
        {"MeshPart", -1, {3, 3, 3}, {0.1f, 0.85f, 0.9f}},        // cyan, unresolved mesh
    };
    float x = 0;
    for (const Spec& s : specs) {
        const int n = a.addNode(s.cls, s.cls, model);
        std::vector<Property>& properties = a.propertyList(n);
        CFrame cf;
        cf.position = {x, s.size.y / 2, 0};
        x += 6;
        properties = {prop("Name", "string", std::string(s.cls)), prop("CFrame", "CFrame", cf),
                      prop("size", "Vector3", s.size), prop("Color3uint8", "Color3uint8", s.color)};
        if (s.shape >= 0) properties.push_back(prop("shape", "Enum", std::int64_t(s.shape)));
        if (std::string(s.cls) == "MeshPart")
            properties.push_back(prop("MeshId", "Content", std::string("rbxassetid://4242424242")));
    }
    return a;
}

std::filesystem::path writeModel(const std::string& dir, const Asset& asset) {
    const auto written = writeRobloxModel(asset);
    EXPECT_TRUE(written.ok());
    const auto path = test::tempDir(dir) / "shapes.rbxm";
    test::writeFile(path, written.bytes);
    return path;
}

Asset decoded(const std::filesystem::path& path) {
    return decodeFile(path.string()).asset;
}

using test::pixelsOfHue;

TEST(PartsRender, ScreenshotMatchesBaseline) {
    const auto fixture = writeModel("parts_render", shapesModel());
    const auto out = fixture.parent_path() / "shot.png";
    QProcess p;
    p.start(QStringLiteral(MESHSCOPE_VIEWER_PATH),
            {"--screenshot", QString::fromStdString(out.string()), "--size", "400x300",
             QString::fromStdString(fixture.string())});
    ASSERT_TRUE(p.waitForFinished(60000));
    ASSERT_EQ(p.exitCode(), 0) << p.readAllStandardError().toStdString();
    const QImage shot =
        QImage(QString::fromStdString(out.string())).convertToFormat(QImage::Format_RGB32);
    ASSERT_FALSE(shot.isNull());

    // Independent of the baseline: every part's colour shows (red block, green ball, blue
    // cylinder, yellow wedge, magenta corner wedge, cyan MeshPart box).
    for (int hue : {0, 120, 228, 54, 300, 184})
        EXPECT_GT(pixelsOfHue(shot, hue), 40) << "hue " << hue;

    const auto baselinePath = test::testDataDir() / "baselines" / "parts_shapes.png";
    if (qEnvironmentVariable("MESHSCOPE_UPDATE_BASELINES") == QLatin1String("1")) {
        ASSERT_TRUE(shot.save(QString::fromStdString(baselinePath.string())));
        GTEST_SKIP() << "baseline written: " << baselinePath;
    }
    const QImage baseline =
        QImage(QString::fromStdString(baselinePath.string())).convertToFormat(QImage::Format_RGB32);
    ASSERT_FALSE(baseline.isNull())
        << baselinePath << " is missing; create it with MESHSCOPE_UPDATE_BASELINES=1";
    ASSERT_EQ(shot.size(), baseline.size());
    // Drivers round shading differently; a few percent of pixels may move by more than 24.
    EXPECT_LT(double(test::differingPixels(shot, baseline, 24)) / (shot.width() * shot.height()),
              0.03);
}

// An XML model (.rbxmx) is drawn like a binary one: a red block fills the middle of the shot.
TEST(PartsRender, XmlModelPartsAreDrawn) {
    const std::string xml =
        "<roblox version=\"4\"><Item class=\"Part\" referent=\"RBX0\"><Properties>"
        "<string name=\"Name\">Block</string><Vector3 name=\"size\"><X>4</X><Y>4</Y><Z>4</Z>"
        "</Vector3><Color3 name=\"Color\"><R>1</R><G>0</G><B>0</B></Color3></Properties>"
        "</Item></roblox>";
    const auto dir = test::tempDir("parts_render_xml");
    const auto fixture = dir / "block.rbxmx";
    test::writeFile(fixture, Bytes(xml.begin(), xml.end()));
    const auto out = dir / "shot.png";
    const test::ProcessRun run = test::runProcess(
        QStringLiteral(MESHSCOPE_VIEWER_PATH),
        {"--screenshot", test::qPath(out), "--size", "200x150", test::qPath(fixture)});
    ASSERT_EQ(run.exitCode, 0) << run.stderrText.toStdString();
    const QImage shot = QImage(test::qPath(out)).convertToFormat(QImage::Format_RGB32);
    ASSERT_FALSE(shot.isNull());
    // The framed block covers much of the image; the background and grid have no red.
    EXPECT_GT(pixelsOfHue(shot, 0), 200 * 150 / 10);
}

// A place whose only part is kept in ReplicatedStorage: `--screenshot` draws an empty world, as
// Roblox Studio does; with --all-services the red block fills the middle of the shot.
TEST(PartsRender, AllServicesDrawsPartsOutsideWorkspace) {
    Asset place;
    place.format = "roblox-model";
    place.addNode("Workspace", "Workspace");
    const int rs = place.addNode("ReplicatedStorage", "ReplicatedStorage");
    test::addPart(place, rs, "Block", {0, 0, 0}, {4, 4, 4}, Vec3{1, 0, 0});
    const RobloxModelWriteResult written = writeRobloxModel(place);
    ASSERT_TRUE(written.ok());
    const auto dir = test::tempDir("parts_render_services");
    const auto fixture = dir / "stored.rbxl";
    test::writeFile(fixture, written.bytes);
    const auto shoot = [&](const std::filesystem::path& out, QStringList extra) {
        // No grid: its X axis is red.
        QStringList args{"--screenshot", test::qPath(out), "--size", "200x150", "--no-grid"};
        args << extra << test::qPath(fixture);
        const test::ProcessRun run = test::runProcess(QStringLiteral(MESHSCOPE_VIEWER_PATH), args);
        EXPECT_EQ(run.exitCode, 0) << run.stderrText.toStdString();
        return QImage(test::qPath(out)).convertToFormat(QImage::Format_RGB32);
    };
    const QImage workspaceOnly = shoot(dir / "workspace.png", {});
    const QImage all = shoot(dir / "all.png", {"--all-services"});
    ASSERT_FALSE(workspaceOnly.isNull());
    ASSERT_FALSE(all.isNull());
    EXPECT_EQ(pixelsOfHue(workspaceOnly, 0), 0);
    EXPECT_GT(pixelsOfHue(all, 0), 200 * 150 / 10);
}

class PartsViewport : public ::testing::Test {
protected:
    void SetUp() override {
        view_.resize(640, 480);
        view_.show();
        for (int i = 0; i < 20; ++i) QApplication::processEvents();
    }
    render::Viewport view_;
};

TEST_F(PartsViewport, SelectionBoxAndPickAtProjectedCentre) {
    const Asset asset = decoded(writeModel("parts_pick", shapesModel()));
    const PartMeshes meshes = resolvePartMeshes(asset);  // no asset folder: nothing resolves
    view_.setAsset(asset, &meshes);
    render::RobloxPartsView* parts = view_.robloxParts();
    ASSERT_EQ(parts->parts().size(), 6u);
    // One instanced mesh per shape, nothing resolved: five meshes, six instances (the MeshPart
    // whose mesh is missing is drawn as a block, beside the Block part).
    ASSERT_EQ(view_.scene()->meshCount(), 5);
    int instances = 0;
    std::uint64_t triangles = 0;
    for (int m = 0; m < 5; ++m) {
        instances += view_.scene()->instanceCount(m);
        triangles += std::uint64_t(view_.scene()->instanceCount(m)) *
                     parts->sceneAsset().meshes[std::size_t(m)].triangleCount();
    }
    EXPECT_EQ(instances, 6);
    EXPECT_EQ(view_.scene()->instanceCount(0), 1);  // PartShape order: Ball first
    EXPECT_EQ(view_.scene()->instanceCount(1), 2);  // Block: the Part and the MeshPart's box
    EXPECT_EQ(view_.scene()->stats().triangles, triangles);
    ASSERT_EQ(meshes.diagnostics.size(), 1u);  // the MeshPart's mesh: no asset folder has it
    EXPECT_NE(meshes.diagnostics[0].message.find("4242424242"), std::string::npos);

    const RobloxPart& ball = parts->parts()[1];
    render::CaptureOptions capture;
    capture.size = QSize(400, 300);
    const QImage before = view_.captureImageBlocking(capture);
    parts->setSelectedNode(ball.node);
    EXPECT_EQ(parts->selectedPart(), 1);
    EXPECT_TRUE(parts->selectionBoxVisible());
    // The orange selection box edges (255, 170, 40: hue 40) appear in the image.
    const QImage after = view_.captureImageBlocking(capture);
    ASSERT_FALSE(after.isNull());
    if (qEnvironmentVariableIsSet("MESHSCOPE_KEEP_IMAGES")) after.save("/tmp/parts_selected.png");
    EXPECT_GT(pixelsOfHue(after, 40, 6), pixelsOfHue(before, 40, 6) + 20);
    parts->setSelectedNode(0);  // the Model: no part
    EXPECT_EQ(parts->selectedPart(), -1);
    EXPECT_FALSE(parts->selectionBoxVisible());

    // Project each part's centre with the camera and pick there.
    for (int i : {0, 1, 2, 5}) {
        const RobloxPart& p = parts->parts()[std::size_t(i)];
        const QWindow* w = view_.renderWindow();
        const QMatrix4x4 vp = view_.camera()->projectionMatrix() * view_.camera()->viewMatrix();
        const QVector3D ndc =
            vp.map(QVector3D(p.cframe.position.x, p.cframe.position.y, p.cframe.position.z));
        const QPointF pos((ndc.x() + 1) / 2 * w->width(), (1 - ndc.y()) / 2 * w->height());
        EXPECT_EQ(parts->pickNode(pos), p.node) << "part " << i;
    }
    EXPECT_EQ(parts->pickNode(QPointF(2, 2)), -1);  // a corner: background
}

// Instanced parts look exactly like the same parts with their vertices baked (the path the
// translucent parts still take): rotated, non-uniformly scaled blocks and a ball, drawn both ways
// from the same camera. The instance transform places the vertices, the shader's inverse
// transpose turns the normals (lighting shows any error in them).
TEST_F(PartsViewport, InstancedPartsMatchTheirBakedVertices) {
    const auto rotation = [](Vec3 axis, float degrees) {
        const float a = degrees * 3.14159265f / 180, c = std::cos(a), s = std::sin(a);
        const float x = axis.x, y = axis.y, z = axis.z, t = 1 - c;
        return std::array<float, 9>{t * x * x + c,     t * x * y - s * z, t * x * z + s * y,
                                    t * x * y + s * z, t * y * y + c,     t * y * z - s * x,
                                    t * x * z - s * y, t * y * z + s * x, t * z * z + c};
    };
    struct Spec {
        int shape;
        Vec3 position, size, color;
        std::array<float, 9> rotation;
    };
    const Spec specs[] = {
        {1, {0, 1, 0}, {6, 2, 3}, {0.9f, 0.1f, 0.1f}, rotation({0, 1, 0}, 30)},
        {1, {8, 2.5f, 2}, {2, 5, 2}, {0.1f, 0.8f, 0.1f}, rotation({0, 0, 1}, 20)},
        {0, {-7, 1.5f, 0}, {3, 3, 3}, {0.1f, 0.2f, 0.9f}, rotation({0, 1, 0}, 0)},
        {1, {0, 0.5f, -8}, {4, 1, 8}, {0.95f, 0.85f, 0.1f}, rotation({1, 0, 0}, 15)},
    };
    Asset a;
    a.format = "roblox-model";
    a.addNode("Rotated", "Model");
    for (const Spec& sp : specs) {
        const int n = a.addNode("Part", "Part", 0);
        CFrame cf;
        cf.position = sp.position;
        cf.rotation = sp.rotation;
        a.propertyList(n) = {prop("Name", "string", std::string("Part")),
                             prop("CFrame", "CFrame", cf), prop("size", "Vector3", sp.size),
                             prop("Color3uint8", "Color3uint8", sp.color),
                             prop("shape", "Enum", std::int64_t(sp.shape))};
    }
    const Asset model = decoded(writeModel("parts_instanced", a));
    view_.setGridVisible(false);
    render::CaptureOptions capture;
    capture.size = QSize(400, 300);

    view_.setAsset(model);
    ASSERT_EQ(view_.scene()->meshCount(), 2);  // Ball, Block
    EXPECT_EQ(view_.scene()->instanceCount(1), 3);
    const QVector3D eye = view_.camera()->position(), center = view_.camera()->viewCenter();
    const QImage instanced =
        view_.captureImageBlocking(capture).convertToFormat(QImage::Format_RGB32);

    Asset baked;
    baked.format = "test-baked-parts";
    baked.meshes = buildPartMeshes(extractRobloxParts(model));
    view_.setAsset(baked);
    ASSERT_EQ(view_.scene()->meshCount(), 1);
    EXPECT_EQ(view_.scene()->instanceCount(0), 0);
    view_.scene()->meshMaterial(0)->setBaseColor(QColor(255, 255, 255));  // as parts are drawn
    view_.camera()->setPosition(eye);
    view_.camera()->setViewCenter(center);
    const QImage bakedShot =
        view_.captureImageBlocking(capture).convertToFormat(QImage::Format_RGB32);
    if (qEnvironmentVariableIsSet("MESHSCOPE_KEEP_IMAGES")) {
        instanced.save("/tmp/parts_instanced.png");
        bakedShot.save("/tmp/parts_baked.png");
    }
    for (int hue : {0, 120, 228, 54}) EXPECT_GT(pixelsOfHue(instanced, hue), 100) << "hue " << hue;
    ASSERT_EQ(instanced.size(), bakedShot.size());
    EXPECT_LT(test::differingPixels(instanced, bakedShot, 8), 400 * 300 / 1000);
}

TEST_F(PartsViewport, HundredThousandPartsAreTwoInstancedMeshes) {
    const Asset place = makeRobloxPlace(100000);
    const auto written = writeRobloxModel(place);
    ASSERT_TRUE(written.ok());
    const Asset asset = decodeBytes(ByteSpan(written.bytes.data(), written.bytes.size())).asset;
    QElapsedTimer t;
    t.start();
    view_.setAsset(asset);
    const qint64 ms = t.elapsed();
    EXPECT_EQ(view_.robloxParts()->parts().size(), 100000u);
    // The 90 000 opaque blocks are one instanced mesh, the 10 000 translucent ones (every tenth
    // part) another, sorted by instance. 12 triangles a block.
    ASSERT_EQ(view_.scene()->meshCount(), 2);
    const int translucent = view_.robloxParts()->instanceSortedMesh();
    ASSERT_GE(translucent, 0);
    EXPECT_EQ(view_.scene()->instanceCount(translucent), 10000);
    EXPECT_EQ(view_.scene()->instanceCount(1 - translucent), 90000);
    EXPECT_EQ(view_.scene()->stats().triangles, 1'200'000u);
    std::printf("100000 parts: scene built in %lld ms, %d meshes, %llu triangles\n",
                static_cast<long long>(ms), view_.scene()->meshCount(),
                static_cast<unsigned long long>(view_.scene()->stats().triangles));
}

}  // namespace

namespace {

// The view draws the meshes core resolved (resolvePartMeshes); it reads no folder itself.
TEST_F(PartsViewport, MeshPartResolvedFromAssetFolderIsFittedToItsSize) {
    const auto mesh = test::writeFileMeshFixture("parts_assets", "4242424242.mesh", makeUvSphere());
    const Asset asset = decoded(writeModel("parts_resolved", shapesModel()));
    PartMeshOptions options;
    options.folders = {mesh.parent_path()};
    const PartMeshes meshes = resolvePartMeshes(asset, options);
    EXPECT_TRUE(meshes.diagnostics.empty()) << meshes.diagnostics[0].toString();
    view_.setAsset(asset, &meshes);
    render::RobloxPartsView* parts = view_.robloxParts();
    EXPECT_EQ(parts->resolvedMeshCount(), 1);
    ASSERT_EQ(view_.scene()->meshCount(), 6);       // the placed sphere + one mesh per shape
    EXPECT_EQ(view_.scene()->instanceCount(0), 0);  // the sphere, placed by its vertices
    // The MeshPart is 3×3×3 studs at (30, 1.5, 0): the radius-1 sphere is scaled to fit it.
    const Bounds b = view_.scene()->bounds();
    EXPECT_NEAR(b.max.x, 31.5, 0.05);
}

}  // namespace

// A place whose parts sit together but for two far-away ones opens framed on the parts people
// look at (it opened as a dot; F did not help), and F frames them again after the camera moved.
TEST_F(PartsViewport, FarAwayOutliersDoNotShrinkTheFraming) {
    Asset a;
    a.format = "roblox-model";
    const int model = a.addNode("Place", "Model");
    a.addProperty(model, prop("Name", "string", std::string("Place")));
    auto part = [&](Vec3 at) {
        const int n = a.addNode("Part", "Part", model);
        CFrame cf;
        cf.position = at;
        a.propertyList(n) = {prop("Name", "string", std::string("Part")),
                             prop("CFrame", "CFrame", cf), prop("size", "Vector3", Vec3{4, 4, 4})};
    };
    for (int i = 0; i < 30; ++i) part({float(i % 6) * 6, 2, float(i / 6) * 6});
    part({20000, 2, 0});
    part({0, 2, -15000});
    const Asset asset = decoded(writeModel("parts_outliers", a));
    view_.setAsset(asset);
    const float cluster = 40;  // the 30 parts span about 34 studs
    auto distance = [&]() {
        const QVector3D d = view_.camera()->position() - view_.camera()->viewCenter();
        return d.length();
    };
    EXPECT_LT(distance(), cluster * 4) << "framed on the outliers";
    EXPECT_GT(view_.scene()->bounds().size().x, 19000.f);  // they are still in the scene
    view_.camera()->setPosition(QVector3D(5000, 5000, 5000));
    view_.fitToView();
    EXPECT_LT(distance(), cluster * 4);
}
