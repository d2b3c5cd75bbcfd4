// End-to-end rendering: `meshscope --screenshot` of generated FileMesh fixtures (needs a display:
// run under xvfb-run). Checks the silhouette is where the camera puts it: the framed mesh covers
// the centre, the background (or transparency) remains at the edges.
#include <gtest/gtest.h>

#include <QImage>
#include <QProcess>
#include <fstream>
#include <set>

#include "meshscope/core/axes.h"
#include "meshscope/core/mesh_generators.h"
#include "meshscope/core/roblox_mesh_writer.h"
#include "meshscope/core/unigine_writer.h"
#include "meshscope/render/viewport.h"
#include "support/qt_test_support.h"
#include "support/test_support.h"

using namespace meshscope;

namespace {

std::filesystem::path writeFixture(const std::string& dir, const Asset& asset) {
    return test::writeFileMeshFixture(dir, "fixture.mesh", asset);
}

test::ProcessRun runViewer(const QStringList& args) {
    return test::runProcess(QStringLiteral(MESHSCOPE_VIEWER_PATH), args);
}

QImage shoot(const std::filesystem::path& fixture, const std::string& name, QStringList extra) {
    const auto out = fixture.parent_path() / name;
    QStringList args{"--screenshot", QString::fromStdString(out.string()), "--size", "320x240"};
    args += extra;
    args << QString::fromStdString(fixture.string());
    const test::ProcessRun r = runViewer(args);
    EXPECT_EQ(r.exitCode, 0) << r.stderrText.toStdString();
    return QImage(QString::fromStdString(out.string()));
}

int differingPixels(const QImage& a, const QImage& b) {
    int n = 0;
    for (int y = 0; y < a.height(); ++y)
        for (int x = 0; x < a.width(); ++x) n += a.pixel(x, y) != b.pixel(x, y);
    return n;
}

}  // namespace

TEST(Screenshot, TransparentBackgroundLeavesOnlyTheMeshOpaque) {
    const auto fixture = writeFixture("shot_transparent", makeUvSphere(16, 24, 1.0f));
    const QImage image = shoot(fixture, "sphere.png", {"--transparent"});
    ASSERT_FALSE(image.isNull());
    EXPECT_EQ(image.size(), QSize(320, 240));
    EXPECT_TRUE(image.hasAlphaChannel());
    // The framed sphere covers the centre; the corners are empty.
    EXPECT_EQ(qAlpha(image.pixel(160, 120)), 255);
    for (QPoint corner : {QPoint(0, 0), QPoint(319, 0), QPoint(0, 239), QPoint(319, 239)})
        EXPECT_EQ(qAlpha(image.pixel(corner)), 0) << corner.x() << "," << corner.y();
    // A lit sphere is not one flat colour.
    EXPECT_NE(image.pixel(160, 120), image.pixel(160, 60));
}

TEST(Screenshot, MeshStandsOutFromTheBackground) {
    const auto fixture = writeFixture("shot_background", makeUvSphere(16, 24, 1.0f));
    const QImage image = shoot(fixture, "sphere.png", {"--no-grid"});
    ASSERT_FALSE(image.isNull());
    EXPECT_EQ(image.size(), QSize(320, 240));
    // The background gradient is vertical: both ends of a row are the same colour.
    EXPECT_EQ(image.pixel(0, 0), image.pixel(319, 0));
    EXPECT_EQ(image.pixel(0, 239), image.pixel(319, 239));
    EXPECT_EQ(image.pixel(0, 120), image.pixel(319, 120));
    EXPECT_NE(image.pixel(160, 120), image.pixel(0, 120));
}

// A real point cloud (Draco's pc_color.drc, 7 733 coloured points): drawn as points in their own
// colours, framed in the picture.
TEST(Screenshot, ARealPointCloudIsDrawnInItsColours) {
    MESHSCOPE_REQUIRE_CORPUS(corpus);
    const auto file = corpus / "draco" / "google_draco" / "testdata" / "pc_color.drc";
    if (!std::filesystem::exists(file)) MESHSCOPE_CORPUS_ABSENT(file.string() + " is absent");
    const auto dir = test::tempDir("shot_points");
    const auto out = dir / "points.png";
    const test::ProcessRun r =
        runViewer({"--screenshot", QString::fromStdString(out.string()), "--size", "320x240",
                   "--transparent", QString::fromStdString(file.string())});
    ASSERT_EQ(r.exitCode, 0) << r.stderrText.toStdString();
    const QImage image(QString::fromStdString(out.string()));
    ASSERT_FALSE(image.isNull());
    int opaque = 0, left = 320, right = 0;
    std::set<QRgb> colours;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x) {
            if (qAlpha(image.pixel(x, y)) < 255) continue;
            ++opaque;
            left = std::min(left, x);
            right = std::max(right, x);
            colours.insert(image.pixel(x, y));
        }
    // Thousands of points of a few pixels each, spread over most of the width, in many colours
    // (one grey material would give a handful of shades).
    EXPECT_GT(opaque, 5000);
    EXPECT_LT(opaque, 320 * 240 * 9 / 10);
    EXPECT_GT(right - left, 320 / 2);
    EXPECT_GT(colours.size(), 200u);
}

TEST(Screenshot, LodAndWireframeChangeTheImage) {
    const auto fixture = writeFixture("shot_lod", makeLodSphere(3));
    const QImage fine = shoot(fixture, "lod0.png", {"--no-grid", "--lod", "0"});
    const QImage coarse = shoot(fixture, "lod2.png", {"--no-grid", "--lod", "2"});
    const QImage wire = shoot(fixture, "wire.png", {"--no-grid", "--lod", "0", "--wireframe"});
    ASSERT_FALSE(fine.isNull());
    ASSERT_FALSE(coarse.isNull());
    ASSERT_FALSE(wire.isNull());
    EXPECT_GT(differingPixels(fine, coarse), 100);
    EXPECT_GT(differingPixels(fine, wire), 100);
}

// Unigine and Second Life are Z-up: a figure standing along +Z in the file stands on screen
// (the camera orbits about Z), as its glTF export stands in Blender.
TEST(Screenshot, ZUpUnigineMeshStandsUp) {
    Asset tube = makeSkinnedCylinder(2, 4, 16, 4.0f, 0.5f);
    tube.skeletons.clear();
    Mesh& m = tube.meshes[0];
    m.skin.clear();
    m.bounds = {};
    for (Vec3& p : m.positions) {
        p = fromYUp(UpAxis::Z, p);
        m.bounds.add(p);
    }
    for (Vec3& n : m.normals) n = fromYUp(UpAxis::Z, n);
    const UnigineWriteResult written = writeUnigineMesh(tube);
    ASSERT_TRUE(written.ok()) << *written.error;
    const auto dir = test::tempDir("shot_zup");
    const auto file = dir / "tube.mesh";
    {
        std::ofstream out(file, std::ios::binary);
        out.write(reinterpret_cast<const char*>(written.bytes.data()),
                  std::streamsize(written.bytes.size()));
    }
    const QImage image = shoot(file, "tube.png", {"--transparent"});
    ASSERT_FALSE(image.isNull());
    int x0 = image.width(), x1 = -1, y0 = image.height(), y1 = -1;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x)
            if (qAlpha(image.pixel(x, y)) > 0) {
                x0 = std::min(x0, x), x1 = std::max(x1, x);
                y0 = std::min(y0, y), y1 = std::max(y1, y);
            }
    ASSERT_GE(x1, x0) << "nothing drawn";
    EXPECT_GT(y1 - y0, 2 * (x1 - x0))
        << (x1 - x0 + 1) << " × " << (y1 - y0 + 1) << ": lying on its back";
}

TEST(Screenshot, UnreadableFileFailsWithTheCoreMessage) {
    const auto dir = test::tempDir("shot_error");
    const auto bad = dir / "bad.mesh";
    test::writeFile(bad, {'v', 'e', 'r', 's', 'i', 'o', 'n', ' ', '2', '.', '0', '0', '\n', 12, 0});
    const test::ProcessRun r =
        runViewer({"--screenshot", QString::fromStdString((dir / "out.png").string()),
                   QString::fromStdString(bad.string())});
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_TRUE(r.stderrText.contains("offset 0x")) << r.stderrText.toStdString();
    EXPECT_FALSE(std::filesystem::exists(dir / "out.png"));
}

TEST(Screenshot, HelpAndVersion) {
    test::ProcessRun help = runViewer({"--help"});
    EXPECT_EQ(help.exitCode, 0);
    test::ProcessRun version = runViewer({"--version"});
    EXPECT_EQ(version.exitCode, 0);
    test::ProcessRun bad = runViewer({"--size", "12by3", "x.mesh", "--screenshot", "y.png"});
    EXPECT_EQ(bad.exitCode, 2);
    EXPECT_TRUE(bad.stderrText.contains("--size"));
}

// --animation ANIM --time T poses a rig before the picture is taken (#23): an R15 character at
// two times of LookAround is two different pictures; a bad time is a usage error.
TEST(Screenshot, RigPosedByAnAnimationAtTwoTimes) {
    MESHSCOPE_REQUIRE_CORPUS(corpus);
    const auto rig = corpus / "rbxm/AntiBoomz_BTRoblox/res/previewer/characterR15.rbxm";
    const QString anim = QString::fromStdString(
        (corpus /
         "rbxmx/MaximumADHD_Rbx2Source/Resources/AvatarData/R15/Animations/LookAround.rbxmx")
            .string());
    const QImage start =
        shoot(rig, "r15_t0.png", {"--no-grid", "--animation", anim, "--time", "0"});
    const QImage later =
        shoot(rig, "r15_t15.png", {"--no-grid", "--animation", anim, "--time", "1.5"});
    ASSERT_FALSE(start.isNull());
    ASSERT_FALSE(later.isNull());
    EXPECT_GT(differingPixels(start, later), 320 * 240 / 50) << "the pose did not change";
    const test::ProcessRun bad = runViewer(
        {"--screenshot", "/tmp/x.png", "--time", "soon", QString::fromStdString(rig.string())});
    EXPECT_EQ(bad.exitCode, 2);
    EXPECT_TRUE(bad.stderrText.contains("--time")) << bad.stderrText.toStdString();
}

// The viewer's window draws single-sampled on a software rasterizer (multisampling there costs
// the CPU several times each frame): the GL_RENDERER names that mean one.
TEST(Viewport, SoftwareRenderersAreToldByTheirGlRendererName) {
    for (const char* software :
         {"llvmpipe (LLVM 15.0.6, 256 bits)", "softpipe", "Software Rasterizer", "Mesa DRI swrast",
          "Google SwiftShader", "GDI Generic"})
        EXPECT_TRUE(render::Viewport::isSoftwareRendererName(software)) << software;
    for (const char* hardware : {"NVIDIA GeForce RTX 4070/PCIe/SSE2",
                                 "AMD Radeon RX 7800 XT (radeonsi, navi32, LLVM 15.0.7)",
                                 "Mesa Intel(R) UHD Graphics 620 (KBL GT2)", "Apple M2", ""})
        EXPECT_FALSE(render::Viewport::isSoftwareRendererName(hardware)) << hardware;
}
