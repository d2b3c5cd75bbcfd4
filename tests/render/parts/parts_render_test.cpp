// Roblox parts in the 3D view (needs a display: run under xvfb-run): a generated model with a
// part of every shape rendered by `meshscope --screenshot` and compared with a stored baseline
// (tests/data/baselines/parts_shapes.png; refresh with MESHSCOPE_UPDATE_BASELINES=1), the
// selection box following the selected node, a CPU pick at a part's projected centre, and a
// 100 000-part place batched into a few meshes.
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
    a.nodes[0].properties.push_back(prop("Name", "string", std::string("Shapes")));
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
        Node& node = a.nodes[std::size_t(n)];
        CFrame cf;
        cf.position = {x, s.size.y / 2, 0};
        x += 6;
        node.properties = {prop("Name", "string", std::string(s.cls)), prop("CFrame", "CFrame", cf),
                           prop("size", "Vector3", s.size),
                           prop("Color3uint8", "Color3uint8", s.color)};
        if (s.shape >= 0) node.properties.push_back(prop("shape", "Enum", std::int64_t(s.shape)));
        if (std::string(s.cls) == "MeshPart")
            node.properties.push_back(
                prop("MeshId", "Content", std::string("rbxassetid://4242424242")));
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
    view_.setAsset(asset);
    render::RobloxPartsView* parts = view_.robloxParts();
    ASSERT_EQ(parts->parts().size(), 6u);
    // Five shapes batched in one mesh plus nothing resolved: one mesh drawn.
    EXPECT_EQ(view_.scene()->meshCount(), 1);
    ASSERT_EQ(parts->unresolved().size(), 1);  // the MeshPart's mesh: no asset folder has it
    EXPECT_TRUE(parts->unresolved().front().contains("4242424242"));

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

TEST_F(PartsViewport, HundredThousandPartsBatchIntoFewMeshes) {
    const Asset place = makeRobloxPlace(100000);
    const auto written = writeRobloxModel(place);
    ASSERT_TRUE(written.ok());
    const Asset asset = decodeBytes(ByteSpan(written.bytes.data(), written.bytes.size())).asset;
    QElapsedTimer t;
    t.start();
    view_.setAsset(asset);
    const qint64 ms = t.elapsed();
    EXPECT_EQ(view_.robloxParts()->parts().size(), 100000u);
    EXPECT_LE(view_.scene()->meshCount(), 4);
    EXPECT_GE(view_.scene()->meshCount(), 1);
    std::printf("100000 parts: scene built in %lld ms, %d meshes, %llu triangles\n",
                static_cast<long long>(ms), view_.scene()->meshCount(),
                static_cast<unsigned long long>(view_.scene()->stats().triangles));
}

}  // namespace

namespace {

// Runs last in this file: the session folder it adds stays for the process (ctest runs each
// test in its own process).
TEST_F(PartsViewport, MeshPartResolvedFromAssetFolderIsFittedToItsSize) {
    const auto mesh = test::writeFileMeshFixture("parts_assets", "4242424242.mesh", makeUvSphere());
    render::RobloxPartsView::addSessionFolder(QString::fromStdString(mesh.parent_path().string()));

    const Asset asset = decoded(writeModel("parts_resolved", shapesModel()));
    view_.setAsset(asset);
    render::RobloxPartsView* parts = view_.robloxParts();
    EXPECT_TRUE(parts->unresolved().isEmpty()) << parts->unresolved().join('\n').toStdString();
    EXPECT_EQ(parts->resolvedMeshCount(), 1);
    ASSERT_EQ(view_.scene()->meshCount(), 2);  // the placed sphere + the batched shapes
    // The MeshPart is 3×3×3 studs at (30, 1.5, 0): the radius-1 sphere is scaled to fit it.
    const Bounds b = view_.scene()->bounds();
    EXPECT_NEAR(b.max.x, 31.5, 0.05);
}

}  // namespace
