// Translucent Roblox parts (needs a display: run under xvfb-run): a generated model with an
// opaque red block behind a blue block of Transparency 0.5 (and a green one of Transparency 1,
// which must not show). The picture is compared with a stored baseline
// (tests/data/baselines/parts_translucent.png; refresh with MESHSCOPE_UPDATE_BASELINES=1), and
// independently of it: where the blue block covers the red one, the pixel is the average of the
// two parts as each renders alone (alpha 0.5 "over"), so the red block shows through; with a
// transparent background the blue block alone has coverage ½ and keeps its colour; two
// translucent blocks written front first still composite back to front; the selection box and
// the wireframe still show on the translucent part.
#include <gtest/gtest.h>

#include <QApplication>
#include <QImage>
#include <Qt3DCore/QBuffer>
#include <Qt3DRender/QCamera>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <optional>

#include "meshscope/core/decode.h"
#include "meshscope/core/mesh_generators.h"
#include "meshscope/core/roblox_model_writer.h"
#include "meshscope/core/roblox_parts.h"
#include "meshscope/render/asset_scene.h"
#include "meshscope/render/materials.h"
#include "meshscope/render/mesh_packing.h"
#include "meshscope/render/roblox_parts.h"
#include "meshscope/render/viewport.h"
#include "support/image_baseline.h"
#include "support/test_support.h"

using namespace meshscope;

namespace {

using meshscope::test::prop;

struct Block {
    Vec3 position;
    Vec3 size;
    Vec3 color;
    std::optional<double> transparency;  // none: not stored (opaque)
    std::string meshId = {};             // set: a MeshPart showing that mesh
    std::int64_t shape = 1;              // Part.Shape: 1 Block, 0 Ball ...
};

// The blocks written to a binary model and decoded again (the viewer's path).
Asset model(const std::vector<Block>& blocks) {
    Asset a;
    a.format = "roblox-model";
    const int root = a.addNode("Translucency", "Model");
    for (const Block& b : blocks) {
        const char* cls = b.meshId.empty() ? "Part" : "MeshPart";
        const int n = a.addNode(cls, cls, root);
        CFrame cf;
        cf.position = b.position;
        std::vector<Property>& properties = a.propertyList(n);
        properties = {prop("Name", "string", std::string("Part")), prop("CFrame", "CFrame", cf),
                      prop("size", "Vector3", b.size), prop("Color3uint8", "Color3uint8", b.color),
                      prop("shape", "Enum", b.shape)};
        if (b.transparency) properties.push_back(prop("Transparency", "float", *b.transparency));
        if (!b.meshId.empty()) properties.push_back(prop("MeshId", "Content", b.meshId));
    }
    const auto written = writeRobloxModel(a);
    EXPECT_TRUE(written.ok());
    return decodeBytes(ByteSpan(written.bytes.data(), written.bytes.size())).asset;
}

// The default camera (yaw 145°, pitch 22°) looks from -Z, +X and above: the blue block at
// z = -1.5 stands in front of the red one at z = +2.
const Block kRed{{0, 2, 2}, {8, 4, 1}, {0.9f, 0.1f, 0.1f}, std::nullopt};
const Block kBlue{{0, 2, -1.5f}, {3, 3, 1}, {0.1f, 0.2f, 0.9f}, 0.5};
const Block kGreenHidden{{-2, 1, -4}, {2, 2, 2}, {0.1f, 0.9f, 0.1f}, 1.0};
// A point on the blue block's upper left (+X is on the left, seen from -Z) that lies in front of
// the red block: the block's centre, framed closely, falls below the red one's edge.
const Vec3 kBlueOverRed{kBlue.position.x + 0.75f, kBlue.position.y + 1.0f, kBlue.position.z};

using test::pixelsOfHue;

class TranslucentParts : public ::testing::Test {
protected:
    void SetUp() override {
        view_.resize(640, 480);
        view_.show();
        view_.setGridVisible(false);
        for (int i = 0; i < 20; ++i) QApplication::processEvents();
    }

    // Shows `blocks` framed as the full model is (so every picture has the same camera).
    // Shows `blocks` as the viewer does: the meshes they name resolved from folders_ first.
    void show(const std::vector<Block>& blocks) {
        asset_ = model(blocks);
        PartMeshOptions options;
        options.folders = folders_;
        meshes_ = resolvePartMeshes(asset_, options);
        view_.setAsset(asset_, &meshes_);
    }

    QImage render(const std::vector<Block>& blocks, bool transparentBackground = false) {
        show(blocks);
        view_.camera()->setPosition(eye_);
        view_.camera()->setViewCenter(center_);
        render::CaptureOptions options;
        options.size = kSize;
        options.transparentBackground = transparentBackground;
        return view_.captureImageBlocking(options).convertToFormat(QImage::Format_ARGB32);
    }

    // Frames `blocks` (by default the full model) and remembers the camera.
    void frameFullModel(const std::vector<Block>& blocks = {kRed, kBlue, kGreenHidden}) {
        show(blocks);
        eye_ = view_.camera()->position();
        center_ = view_.camera()->viewCenter();
    }

    // Pixel of the capture where world point `p` projects (the capture camera copies the
    // view's camera with the capture's aspect ratio).
    QPoint project(Vec3 p) const {
        const Qt3DRender::QCamera* cam = view_.camera();
        QMatrix4x4 proj;
        proj.perspective(cam->fieldOfView(), float(kSize.width()) / float(kSize.height()),
                         cam->nearPlane(), cam->farPlane());
        const QVector3D ndc = (proj * cam->viewMatrix()).map(QVector3D(p.x, p.y, p.z));
        return {int(std::lround((ndc.x() + 1) / 2 * kSize.width())),
                int(std::lround((1 - ndc.y()) / 2 * kSize.height()))};
    }

    void expectFrontBlockOverBackBlock(const std::vector<Block>& fillers);

    static constexpr QSize kSize{400, 300};
    render::Viewport view_;
    std::vector<std::filesystem::path> folders_;  // asset folders for MeshIds
    Asset asset_;
    PartMeshes meshes_;
    QVector3D eye_, center_;
};

TEST_F(TranslucentParts, OpaqueShowsThroughAndMatchesBaseline) {
    frameFullModel();
    ASSERT_EQ(view_.robloxParts()->parts().size(), 3u);
    // Transparency 1 is left out; the translucent block is a mesh of its own on the layer.
    EXPECT_EQ(view_.robloxParts()->translucentMeshes().size(), 1u);
    EXPECT_EQ(view_.scene()->meshCount(), 2);

    const QImage both = render({kRed, kBlue, kGreenHidden});
    Block opaqueBlue = kBlue;
    opaqueBlue.transparency.reset();
    const QImage blueOpaque = render({kRed, opaqueBlue});
    const QImage redOnly = render({kRed});
    ASSERT_FALSE(both.isNull());
    ASSERT_FALSE(blueOpaque.isNull());
    ASSERT_FALSE(redOnly.isNull());
    if (qEnvironmentVariableIsSet("MESHSCOPE_KEEP_IMAGES")) {
        both.save("/tmp/parts_translucent.png");
        blueOpaque.save("/tmp/parts_blue_opaque.png");
        redOnly.save("/tmp/parts_red_only.png");
    }

    // A point of the blue block in front of the red block (red there when blue is absent).
    const QPoint centre = project(kBlueOverRed);
    ASSERT_TRUE(QRect(QPoint(0, 0), kSize).contains(centre));
    const QRgb red = redOnly.pixel(centre), blue = blueOpaque.pixel(centre),
               mixed = both.pixel(centre);
    EXPECT_GT(qRed(red), 2 * qBlue(red)) << "red block not behind the blue one";
    EXPECT_GT(qBlue(blue), 2 * qRed(blue)) << "blue block not in front";
    // Alpha ½ over the red block: each channel halfway between the two parts' own colours
    // (strictly between them, and the red block visibly contributes).
    using Channel = int (*)(QRgb);
    const Channel channels[] = {qRed, qGreen, qBlue};
    for (Channel channel : channels) {
        const int lo = std::min(channel(red), channel(blue)),
                  hi = std::max(channel(red), channel(blue));
        EXPECT_NEAR(channel(mixed), (channel(red) + channel(blue)) / 2.0, 4.0);
        if (hi - lo > 10) {
            EXPECT_GT(channel(mixed), lo);
            EXPECT_LT(channel(mixed), hi);
        }
    }
    // The fully transparent green block does not show at all.
    EXPECT_EQ(pixelsOfHue(both, 120, 20), 0);

    test::expectMatchesBaseline(both, "parts_translucent.png", {24, 0.02});
}

TEST_F(TranslucentParts, TransparentBackgroundKeepsCoverageAndColour) {
    frameFullModel();
    Block opaqueBlue = kBlue;
    opaqueBlue.transparency.reset();
    // Only the blue block, the red one out of the way: alone over nothing.
    const QImage alone = render({kBlue}, true);
    const QImage aloneOpaque = render({opaqueBlue}, true);
    const QImage overRed = render({kRed, kBlue}, true);
    ASSERT_FALSE(alone.isNull());
    if (qEnvironmentVariableIsSet("MESHSCOPE_KEEP_IMAGES")) {
        alone.save("/tmp/parts_translucent_alone_transparent.png");
        overRed.save("/tmp/parts_translucent_transparent.png");
    }
    const QPoint centre = project(kBlueOverRed);
    const QRgb a = alone.pixel(centre), o = aloneOpaque.pixel(centre);
    EXPECT_NEAR(qAlpha(a), 128, 3);
    EXPECT_EQ(qAlpha(o), 255);
    // Straight colour: the part's own lit colour, not darkened by the coverage.
    EXPECT_NEAR(qRed(a), qRed(o), 4);
    EXPECT_NEAR(qGreen(a), qGreen(o), 4);
    EXPECT_NEAR(qBlue(a), qBlue(o), 4);
    // Over the opaque red block the pixel is fully covered.
    EXPECT_EQ(qAlpha(overRed.pixel(centre)), 255);
    // The corners stay empty.
    EXPECT_EQ(qAlpha(alone.pixel(0, 0)), 0);
}

// A yellow block in front of a blue one, both Transparency 0.5, before a grey wall; the file
// lists the front block first, so drawing in file order would blend them the wrong way round.
// `fillers` are more translucent parts, out of view, written after them.
void TranslucentParts::expectFrontBlockOverBackBlock(const std::vector<Block>& fillers) {
    const Block wall{{0, 2, 3}, {10, 6, 1}, {0.6f, 0.6f, 0.6f}, std::nullopt};
    const Block front{{0, 2, -3}, {3, 3, 1}, {0.9f, 0.8f, 0.1f}, 0.5};
    const Block back{{0, 2, 0}, {3, 3, 1}, {0.1f, 0.2f, 0.9f}, 0.5};
    frameFullModel({wall, front, back});
    // Each block's own lit colour at the test pixel, and the wall's.
    Block frontOpaque = front, backOpaque = back;
    frontOpaque.transparency.reset();
    backOpaque.transparency.reset();
    std::vector<Block> all{wall, front, back};
    all.insert(all.end(), fillers.begin(), fillers.end());
    const QImage both = render(all);
    const bool batched = !view_.robloxParts()->partSortedMeshes().empty() ||
                         view_.robloxParts()->instanceSortedMesh() >= 0;
    EXPECT_EQ(batched, all.size() - 1 > render::RobloxPartsView::kMaxSortedTranslucentParts);
    const QImage f = render({wall, frontOpaque});
    const QImage b = render({wall, backOpaque});
    const QImage w = render({wall});
    ASSERT_FALSE(both.isNull());
    if (qEnvironmentVariableIsSet("MESHSCOPE_KEEP_IMAGES"))
        both.save(batched ? "/tmp/parts_many_translucent.png" : "/tmp/parts_two_translucent.png");
    // A pixel where both blocks are drawn (each changes the wall picture there), away from
    // their edges: the middle one of the overlap, with its 7×7 neighbourhood inside it too.
    const auto covers = [&](const QImage& img, int x, int y) {
        return test::differingPixels(img, w, 40, QRect(x, y, 1, 1)) == 1;
    };
    std::vector<QPoint> overlap;
    for (int y = 3; y < kSize.height() - 3; ++y)
        for (int x = 3; x < kSize.width() - 3; ++x) {
            bool inside = true;
            for (int dy = -3; dy <= 3 && inside; dy += 3)
                for (int dx = -3; dx <= 3 && inside; dx += 3)
                    inside = covers(f, x + dx, y + dy) && covers(b, x + dx, y + dy);
            if (inside) overlap.emplace_back(x, y);
        }
    ASSERT_GT(overlap.size(), 50u) << "the blocks do not overlap on screen";
    const QPoint pixel = overlap[overlap.size() / 2];
    const QRgb cf = f.pixel(pixel), cb = b.pixel(pixel), cw = w.pixel(pixel),
               got = both.pixel(pixel);
    EXPECT_GT(qRed(cf), 2 * qBlue(cf)) << "front block not at the pixel";
    EXPECT_GT(qBlue(cb), 2 * qRed(cb)) << "back block not at the pixel";
    // Back to front: wall, then back block (½), then front block (½) on top.
    SCOPED_TRACE(
        QStringLiteral("front %1 back %2 wall %3 got %4")
            .arg(QColor(cf).name(), QColor(cb).name(), QColor(cw).name(), QColor(got).name())
            .toStdString());
    using Channel = int (*)(QRgb);
    const Channel channels[] = {qRed, qGreen, qBlue};
    for (Channel channel : channels)
        EXPECT_NEAR(channel(got), 0.5 * channel(cf) + 0.25 * channel(cb) + 0.25 * channel(cw), 5.0);
}

TEST_F(TranslucentParts, TwoTranslucentPartsCompositeBackToFront) {
    expectFrontBlockOverBackBlock({});
}

// Beyond kMaxSortedTranslucentParts the translucent parts share one instanced mesh (all blocks
// here); they are still drawn back to front (the instance records are reordered for the camera),
// so the two blocks, written front first, composite as before. The 300 small fillers stand just
// behind the opaque wall, hidden by it (far away they would change the camera's near plane).
TEST_F(TranslucentParts, ManyTranslucentPartsStillCompositeBackToFront) {
    std::vector<Block> fillers;
    for (int i = 0; i < 300; ++i)
        fillers.push_back(
            {{-4 + 0.4f * float(i % 15), 0.5f + 0.25f * float(i / 15 % 10), 5.f + float(i / 150)},
             {0.2f, 0.2f, 0.2f},
             {0.9f, 0.1f, 0.9f},
             0.5});
    expectFrontBlockOverBackBlock(fillers);
}

// Many translucent parts of one shape are one instanced mesh: moving the camera to the other
// side reorders its instance records, the farthest block first.
TEST_F(TranslucentParts, InstancedTranslucentPartsAreReorderedWhenTheCameraMoves) {
    std::vector<Block> blocks;
    for (int i = 0; i < 300; ++i)
        blocks.push_back({{0, 1, float(i) * 2}, {1, 1, 1}, {0.1f, 0.2f, 0.9f}, 0.5});
    show(blocks);
    render::RobloxPartsView* parts = view_.robloxParts();
    EXPECT_TRUE(parts->partSortedMeshes().empty());
    const int mesh = parts->instanceSortedMesh();
    ASSERT_GE(mesh, 0);
    EXPECT_EQ(view_.scene()->instanceCount(mesh), 300);
    EXPECT_TRUE(view_.scene()->meshMaterial(mesh)->translucent());
    // The z of each uploaded instance record (its translation), in draw order.
    const auto uploadedZ = [&]() {
        const QByteArray data = view_.scene()->instanceBuffer(mesh)->data();
        std::vector<float> z;
        for (qsizetype at = 0; at + render::kInstanceStride <= data.size();
             at += render::kInstanceStride) {
            float f;
            std::memcpy(&f, data.constData() + at + 11 * sizeof(float), sizeof f);
            z.push_back(f);
        }
        return z;
    };
    view_.camera()->setPosition({0, 1, -50});
    view_.camera()->setViewCenter({0, 1, 0});
    QApplication::processEvents();
    std::vector<float> z = uploadedZ();
    ASSERT_EQ(z.size(), 300u);
    EXPECT_TRUE(std::is_sorted(z.rbegin(), z.rend())) << "farthest (largest z) first";
    EXPECT_EQ(z.front(), 598.f);
    view_.camera()->setPosition({0, 1, 700});
    view_.camera()->setViewCenter({0, 1, 0});
    QApplication::processEvents();
    z = uploadedZ();
    EXPECT_TRUE(std::is_sorted(z.begin(), z.end())) << "file order is back to front from here";
    EXPECT_EQ(z.front(), 0.f);
    EXPECT_EQ(parts->sortTranslucentParts(), 0) << "nothing to rewrite when nothing moved";
}

// Of several shapes (one ball among the blocks), they share batched meshes with baked vertices:
// moving the camera to the other side reorders the index buffer part by part.
TEST_F(TranslucentParts, BatchedTranslucentPartsAreReorderedWhenTheCameraMoves) {
    std::vector<Block> blocks;
    for (int i = 0; i < 300; ++i)
        blocks.push_back({{0, 1, float(i) * 2}, {1, 1, 1}, {0.1f, 0.2f, 0.9f}, 0.5});
    blocks[150].shape = 0;  // a ball
    show(blocks);
    render::RobloxPartsView* parts = view_.robloxParts();
    EXPECT_EQ(parts->instanceSortedMesh(), -1);
    ASSERT_EQ(parts->partSortedMeshes().size(), 1u);
    const int mesh = parts->partSortedMeshes()[0];
    const auto uploaded = [&]() {
        const QByteArray data = view_.scene()->indexBuffer(mesh)->data();
        return std::vector<std::uint32_t>(
            reinterpret_cast<const std::uint32_t*>(data.constData()),
            reinterpret_cast<const std::uint32_t*>(data.constData()) + data.size() / 4);
    };
    const std::vector<std::uint32_t>& fileOrder = parts->sceneAsset().meshes[mesh].indices;
    const std::size_t n = partShapeMesh(PartShape::Block).indices.size();  // the last block's
    // Looking along +Z from in front of the first block: the last block is the farthest.
    view_.camera()->setPosition({0, 1, -50});
    view_.camera()->setViewCenter({0, 1, 0});
    QApplication::processEvents();
    std::vector<std::uint32_t> order = uploaded();
    ASSERT_EQ(order.size(), fileOrder.size());
    EXPECT_TRUE(std::equal(order.begin(), order.begin() + std::ptrdiff_t(n),
                           fileOrder.end() - std::ptrdiff_t(n)));
    // From the far end looking back along -Z: file order is back to front.
    view_.camera()->setPosition({0, 1, 700});
    view_.camera()->setViewCenter({0, 1, 0});
    QApplication::processEvents();
    EXPECT_EQ(uploaded(), fileOrder);
    EXPECT_EQ(parts->sortTranslucentParts(), 0) << "nothing to rewrite when nothing moved";
}

TEST_F(TranslucentParts, SelectionBoxAndWireframeShowOnTranslucentPart) {
    frameFullModel();
    const QImage before = render({kRed, kBlue, kGreenHidden});
    render::RobloxPartsView* parts = view_.robloxParts();
    ASSERT_EQ(parts->parts().size(), 3u);
    parts->setSelectedNode(parts->parts()[1].node);  // the blue block
    ASSERT_TRUE(parts->selectionBoxVisible());
    render::CaptureOptions options;
    options.size = kSize;
    const QImage selected = view_.captureImageBlocking(options);
    ASSERT_FALSE(selected.isNull());
    // The orange box (255, 170, 40: hue 40) around the blue block.
    EXPECT_GT(pixelsOfHue(selected, 40, 6), pixelsOfHue(before, 40, 6) + 20);
    parts->setSelectedNode(-1);

    view_.setWireframe(true);
    const QImage wire = view_.captureImageBlocking(options);
    view_.setWireframe(false);
    ASSERT_FALSE(wire.isNull());
    if (qEnvironmentVariableIsSet("MESHSCOPE_KEEP_IMAGES")) {
        selected.save("/tmp/parts_translucent_selected.png");
        wire.save("/tmp/parts_translucent_wire.png");
    }
    // The wireframe lines are dark grey: the blue block's silhouette edge pixels change. Count
    // pixels inside the blue block's projected area that differ between the two pictures.
    const QPoint c = project(kBlue.position);
    const QRect around(c - QPoint(60, 60), QSize(120, 120));
    EXPECT_GT(test::differingPixels(wire, before, 24, around), 20);
}

}  // namespace

// A MeshPart of Transparency 0.5 whose mesh resolves (a sphere written to
// an asset folder) is drawn on the translucent layer like a shape, and the red block behind it
// shows through by half.
TEST_F(TranslucentParts, TranslucentMeshPartBlendsOverWhatIsBehind) {
    const auto mesh = test::writeFileMeshFixture("translucent_meshpart_assets", "5151515151.mesh",
                                                 makeUvSphere());
    folders_ = {mesh.parent_path()};

    Block sphere{kBlue.position, {3, 3, 3}, kBlue.color, 0.5, "rbxassetid://5151515151"};
    frameFullModel({kRed, sphere});
    render::RobloxPartsView* parts = view_.robloxParts();
    EXPECT_TRUE(meshes_.diagnostics.empty()) << meshes_.diagnostics[0].toString();
    ASSERT_EQ(parts->resolvedMeshCount(), 1);
    // The resolved sphere is the one translucent mesh; the red block is batched, opaque.
    ASSERT_EQ(view_.scene()->meshCount(), 2);
    ASSERT_EQ(parts->translucentMeshes().size(), 1u);
    const std::vector<Mesh>& drawn = parts->sceneAsset().meshes;
    ASSERT_LT(std::size_t(parts->translucentMeshes()[0]), drawn.size());
    EXPECT_EQ(drawn[std::size_t(parts->translucentMeshes()[0])].triangleCount(),
              makeUvSphere().meshes[0].triangleCount());

    Block opaqueSphere = sphere;
    opaqueSphere.transparency.reset();
    const QImage both = render({kRed, sphere});
    const QImage sphereOpaque = render({kRed, opaqueSphere});
    const QImage redOnly = render({kRed});
    ASSERT_FALSE(both.isNull());
    if (qEnvironmentVariableIsSet("MESHSCOPE_KEEP_IMAGES"))
        both.save("/tmp/parts_translucent_meshpart.png");
    const QPoint centre = project(sphere.position);
    const QRgb red = redOnly.pixel(centre), blue = sphereOpaque.pixel(centre),
               mixed = both.pixel(centre);
    EXPECT_GT(qRed(red), 2 * qBlue(red)) << "red block not behind the sphere";
    EXPECT_GT(qBlue(blue), 2 * qRed(blue)) << "sphere not in front";
    using Channel = int (*)(QRgb);
    const Channel channels[] = {qRed, qGreen, qBlue};
    for (Channel channel : channels)
        EXPECT_NEAR(channel(mixed), (channel(red) + channel(blue)) / 2.0, 4.0);
}
