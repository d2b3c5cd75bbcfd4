// What the open-to-first-frame path leaves out or shortens must not change what is shown: the
// normals overlay is built only when first shown; a window that does not draw the scene itself
// (the --screenshot run) captures the same picture as one that does; the first capture of a new
// window, taken while its shaders are still being built, equals one taken once everything has
// settled.
#include <gtest/gtest.h>

#include <QImage>
#include <QTest>
#include <QWindow>
#include <Qt3DCore/QBuffer>
#include <Qt3DCore/QEntity>
#include <Qt3DCore/QNode>
#include <algorithm>

#include "meshscope/core/mesh_generators.h"
#include "meshscope/render/asset_scene.h"
#include "meshscope/render/overlays.h"
#include "meshscope/render/viewport.h"
#include "support/image_baseline.h"

using namespace meshscope;

namespace {

// Bytes held by the normals overlay's vertex buffer (the overlays hang off the scene root, the
// grandparent of a mesh entity).
qsizetype normalsBufferBytes(render::Viewport& viewport) {
    Qt3DCore::QEntity* mesh = viewport.scene()->meshEntity(0);
    if (!mesh || !mesh->parentNode() || !mesh->parentNode()->parentNode()) return -1;
    Qt3DCore::QNode* root = mesh->parentNode()->parentNode();
    for (Qt3DCore::QEntity* e : root->findChildren<Qt3DCore::QEntity*>()) {
        if (e->objectName() != QStringLiteral("normals overlay")) continue;
        const auto buffers = e->findChildren<Qt3DCore::QBuffer*>();
        return buffers.isEmpty() ? -1 : buffers.first()->data().size();
    }
    return -1;
}

// The `captures`-th capture of `asset` in a new viewport (160 × 120); `samples` receives the
// window surface's samples per pixel.
QImage captureOf(const Asset& asset, bool onscreenDrawing, int captures, int* samples = nullptr) {
    render::Viewport viewport;
    viewport.resize(320, 240);
    viewport.setOnscreenDrawing(onscreenDrawing);
    EXPECT_EQ(viewport.onscreenDrawing(), onscreenDrawing);
    viewport.setAsset(asset);
    viewport.show();
    EXPECT_TRUE(QTest::qWaitForWindowExposed(viewport.renderWindow()));
    render::CaptureOptions options;
    options.size = QSize(160, 120);
    QImage image;
    for (int i = 0; i < captures; ++i) image = viewport.captureImageBlocking(options);
    if (samples) *samples = viewport.renderWindow()->format().samples();
    return image;
}

}  // namespace

TEST(FirstFrame, TheNormalsOverlayIsBuiltWhenFirstShown) {
    const Asset sphere = makeUvSphere();
    const Asset cylinder = makeSkinnedCylinder(3);
    render::Viewport viewport;
    viewport.setAsset(sphere);
    render::Overlays* overlays = viewport.overlays();
    ASSERT_FALSE(overlays->normalsVisible());
    EXPECT_EQ(normalsBufferBytes(viewport), 0) << "hidden normals hold no vertex data";

    overlays->setNormalsVisible(true);
    const std::size_t vertices = sphere.meshes[0].positions.size();
    // One line per vertex: two line vertices of position + RGBA colour (7 floats) each.
    EXPECT_EQ(normalsBufferBytes(viewport), qsizetype(vertices * 2 * 7 * sizeof(float)));
    EXPECT_EQ(overlays->normalLineCount(), vertices);

    // Shown normals follow a new asset at once; hidden ones wait until counted or shown.
    viewport.setAsset(cylinder);
    EXPECT_EQ(overlays->normalLineCount(), cylinder.meshes[0].positions.size());
    overlays->setNormalsVisible(false);
    viewport.setAsset(sphere);
    EXPECT_EQ(normalsBufferBytes(viewport), 0);
    EXPECT_EQ(overlays->normalLineCount(), vertices);
    viewport.clearAsset();
    EXPECT_EQ(overlays->normalLineCount(), 0u);
}

TEST(FirstFrame, AWindowThatDoesNotDrawTheSceneCapturesTheSamePicture) {
    const Asset sphere = makeLodSphere(2);
    const QImage drawn = captureOf(sphere, true, 1);
    const QImage captureOnly = captureOf(sphere, false, 1);
    ASSERT_EQ(drawn.size(), QSize(160, 120));
    ASSERT_EQ(captureOnly.size(), QSize(160, 120));
    EXPECT_LT(test::differingPixels(drawn, captureOnly, 8), 160 * 120 / 100);
}

// A --screenshot run gives its window a single-sampled surface (the capture target never was
// multisampled): the picture is the same, and llvmpipe compiles 6 shaders instead of 22.
TEST(FirstFrame, ASingleSampledWindowCapturesTheSamePicture) {
    const Asset sphere = makeLodSphere(2);
    int defaultSamples = -2, singleSamples = -2;
    const QImage multisampled = captureOf(sphere, false, 1, &defaultSamples);
    render::Viewport::setWindowSamples(0);
    const QImage single = captureOf(sphere, false, 1, &singleSamples);
    render::Viewport::setWindowSamples(-1);
    EXPECT_GT(defaultSamples, 1) << "Qt 3D's window asks for a multisampled surface";
    EXPECT_LE(singleSamples, 1);
    ASSERT_EQ(single.size(), QSize(160, 120));
    // llvmpipe itself alternates between two renders of some scenes (a few dozen pixels apart
    // here): the same tolerance as the other pictures of this file.
    EXPECT_LT(test::differingPixels(multisampled, single, 8), 160 * 120 / 100);
    EXPECT_NE(single.pixel(80, 60), single.pixel(2, 2)) << "the mesh is drawn";
    // Views created afterwards are multisampled again.
    int laterSamples = -2;
    captureOf(sphere, false, 1, &laterSamples);
    EXPECT_EQ(laterSamples, defaultSamples);
}

TEST(FirstFrame, TheFirstCaptureOfANewWindowEqualsALaterOne) {
    // The first capture is taken while the materials' shaders are being built (a frame that
    // draws nothing); the third long after.
    const Asset sphere = makeUvSphere();
    const QImage first = captureOf(sphere, false, 1);
    const QImage third = captureOf(sphere, false, 3);
    ASSERT_EQ(first.size(), QSize(160, 120));
    ASSERT_EQ(third.size(), QSize(160, 120));
    EXPECT_LT(test::differingPixels(first, third, 8), 160 * 120 / 100);
    // And it shows the mesh: the centre is not the background's colour.
    const QRgb centre = first.pixel(80, 60);
    const QRgb corner = first.pixel(2, 2);
    EXPECT_NE(centre, corner);
}
