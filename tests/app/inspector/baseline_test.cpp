// Image baselines: each LOD of a generated three-level sphere, the wireframe overlay, and a
// transparent screenshot, rendered offscreen at 160×120 and compared with PNGs in
// tests/data/baselines/ with a per-channel tolerance and a maximum fraction of differing pixels
// (llvmpipe under Xvfb is deterministic enough; the tolerance absorbs small rasteriser changes).
//
// Refresh the baselines (after an intended change to the look), then review and commit the PNGs:
//   MESHSCOPE_UPDATE_BASELINES=1 xvfb-run -a -s "-screen 0 1280x1024x24" \
//       ctest --test-dir build -R 'Baseline\.' --output-on-failure
#include <gtest/gtest.h>

#include <QImage>
#include <QTest>
#include <cstdio>
#include <cstdlib>

#include "fixtures.h"
#include "lod_dock.h"
#include "main_window.h"
#include "meshscope/render/viewport.h"

using namespace meshscope;
using namespace meshscope::shell;

namespace {

constexpr int kTolerance = 24;          // per channel, of 255
constexpr double kMaxDifferent = 0.01;  // fraction of pixels allowed beyond the tolerance
const QSize kSize(160, 120);

bool updating() {
    return qEnvironmentVariableIntValue("MESHSCOPE_UPDATE_BASELINES") != 0;
}

QString baselinePath(const char* name) {
    return QString::fromStdString((test::testDataDir() / "baselines" / name).string());
}

// Compares with the stored baseline (or rewrites it when updating). Differing images are saved
// next to the test's temporary files for review.
void expectMatchesBaseline(const QImage& rendered, const char* name) {
    ASSERT_FALSE(rendered.isNull()) << name;
    const QImage image = rendered.convertToFormat(QImage::Format_ARGB32);
    const QString path = baselinePath(name);
    if (updating()) {
        ASSERT_TRUE(image.save(path)) << path.toStdString();
        std::printf("[ baseline ] wrote %s\n", path.toUtf8().constData());
        return;
    }
    QImage baseline(path);
    ASSERT_FALSE(baseline.isNull())
        << "missing baseline " << path.toStdString() << " (MESHSCOPE_UPDATE_BASELINES=1 writes it)";
    baseline = baseline.convertToFormat(QImage::Format_ARGB32);
    ASSERT_EQ(baseline.size(), image.size()) << name;
    std::size_t different = 0;
    int worst = 0;
    for (int y = 0; y < image.height(); ++y) {
        const auto* a = reinterpret_cast<const QRgb*>(image.constScanLine(y));
        const auto* b = reinterpret_cast<const QRgb*>(baseline.constScanLine(y));
        for (int x = 0; x < image.width(); ++x) {
            const int d = std::max(
                {std::abs(qRed(a[x]) - qRed(b[x])), std::abs(qGreen(a[x]) - qGreen(b[x])),
                 std::abs(qBlue(a[x]) - qBlue(b[x])), std::abs(qAlpha(a[x]) - qAlpha(b[x]))});
            worst = std::max(worst, d);
            if (d > kTolerance) ++different;
        }
    }
    const double fraction = double(different) / double(image.width() * image.height());
    std::printf("[ baseline ] %s: %.3f%% of pixels beyond ±%d (largest difference %d)\n", name,
                fraction * 100, kTolerance, worst);
    if (fraction > kMaxDifferent) {
        const auto out = test::tempDir(std::string("baseline_diff_") + name);
        image.save(QString::fromStdString((out / name).string()));
        ADD_FAILURE() << name << ": " << fraction * 100 << "% of pixels differ (limit "
                      << kMaxDifferent * 100 << "%); rendered image in " << out;
    }
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
        if (!previous.isNull()) EXPECT_NE(image, previous) << "level " << l;
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
