// Image baselines: each LOD of a generated three-level sphere, the wireframe overlay, and a
// transparent screenshot, rendered offscreen at 160×120 and compared with PNGs in
// tests/data/baselines/ with a per-channel tolerance and a maximum fraction of differing pixels
// (llvmpipe under Xvfb is deterministic enough; the tolerance absorbs small rasteriser changes).
//
// Refresh the baselines (after an intended change to the look), then review and commit the PNGs:
//   export MESHSCOPE_UPDATE_BASELINES=1
//   xvfb-run -a -s "-screen 0 1280x1024x24" ctest --test-dir build -R 'Baseline\.'
#include <gtest/gtest.h>

#include <QDir>
#include <QImage>
#include <QTest>
#include <Qt3DRender/QCamera>
#include <cstdio>
#include <cstdlib>

#include "fixtures.h"
#include "meshscope/render/viewport.h"
#include "posing/lod_dock.h"
#include "support/image_baseline.h"
#include "window/main_window.h"

using namespace meshscope;
using namespace meshscope::shell;

namespace {

const QSize kSize(160, 120);

// Per channel 24 of 255, at most 1 % of pixels beyond that (tests/support/image_baseline.h).
void expectMatchesBaseline(const QImage& rendered, const char* name) {
    test::expectMatchesBaseline(rendered, name, test::ImageTolerance{24, 0.01});
}

class Baseline : public ::testing::Test {
protected:
    void SetUp() override {
        path_ =
            inspector_test::writeFileMeshFixture("baseline_fixture", "lods.mesh", makeLodSphere(3));
        window_.setInteractive(false);
        window_.resize(800, 600);
        window_.show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(&window_));
        ASSERT_TRUE(window_.openFileNow(path_));
        ASSERT_EQ(window_.lodDock()->levelCount(), 3);
        // Frame for the capture's shape once the window's layout has settled: the framing
        // distance follows the 3D view's aspect, which the docks' size hints decide, so a
        // change to any panel's layout would otherwise move every baseline.
        QSize last;
        for (int stable = 0, i = 0; stable < 3 && i < 100; ++i) {
            QTest::qWait(10);
            const QSize now = window_.viewport()->renderWindow()->size();
            stable = now == last ? stable + 1 : 0;
            last = now;
        }
        window_.viewport()->camera()->setAspectRatio(float(kSize.width()) / float(kSize.height()));
        window_.viewport()->resetView();
    }
    QImage capture(bool transparent = false) {
        render::CaptureOptions options;
        options.size = kSize;
        options.transparentBackground = transparent;
        return window_.viewport()->captureImageBlocking(options);
    }
    QString path_;
    MainWindow window_;
};

}  // namespace

TEST_F(Baseline, EachLevelOfDetail) {
    const char* names[3] = {"lod_sphere_lod0.png", "lod_sphere_lod1.png", "lod_sphere_lod2.png"};
    QImage previous;
    for (int l = 0; l < 3; ++l) {
        window_.lodDock()->pinLevel(l);
        const QImage image = capture();
        expectMatchesBaseline(image, names[l]);
        // The levels really look different from each other (coarser silhouettes).
        if (!previous.isNull()) {
            EXPECT_NE(image, previous) << "level " << l;
        }
        previous = image;
    }
}

TEST_F(Baseline, WireframeOverlay) {
    window_.lodDock()->pinLevel(1);
    window_.setWireframe(true);
    expectMatchesBaseline(capture(), "lod_sphere_wireframe.png");
}

TEST_F(Baseline, TransparentScreenshot) {
    window_.lodDock()->pinLevel(0);
    const QImage image = capture(true).convertToFormat(QImage::Format_ARGB32);
    ASSERT_FALSE(image.isNull());
    EXPECT_EQ(qAlpha(image.pixel(0, 0)), 0) << "nothing drawn in the corner";
    EXPECT_EQ(qAlpha(image.pixel(kSize.width() / 2, kSize.height() / 2)), 255) << "the sphere";
    expectMatchesBaseline(image, "lod_sphere_transparent.png");
}

// A screenshot without the transparent option is opaque everywhere. Blending writes alpha as
// well as colour, so the grid's anti-aliased lines used to leave alpha 90 over the background
// (14 % of the pixels here), which image viewers show as holes.
TEST_F(Baseline, OpaqueScreenshotHasNoTranslucentPixels) {
    window_.lodDock()->pinLevel(0);
    ASSERT_TRUE(window_.viewport()->gridVisible());
    const QString out = QDir(QDir::tempPath()).filePath("meshscope_opaque_screenshot.png");
    QString error;
    ASSERT_TRUE(window_.exportScreenshot(out, kSize, false, &error)) << error.toStdString();
    const QImage image = QImage(out).convertToFormat(QImage::Format_ARGB32);
    ASSERT_EQ(image.size(), kSize);
    int translucent = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x) translucent += qAlpha(image.pixel(x, y)) != 255;
    EXPECT_EQ(translucent, 0);
    EXPECT_EQ(qAlpha(capture().pixel(0, 0)), 255) << "the capture itself, before any file";
}
