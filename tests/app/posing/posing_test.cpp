// Posing in the viewer: the skinned vertices uploaded to the GPU equal core's skinning, posed
// renders change where the weights say they should (a bent cylinder, a dropped jaw), the FACS
// panel's sliders and corrective weights, expressions as JSON, animation frames from a Unigine
// .smesh, and the viewer's --pose / --bone arguments.
#include <gtest/gtest.h>

#include <QAction>
#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonObject>
#include <QLabel>
#include <QLayout>
#include <QScrollArea>
#include <QSignalSpy>
#include <QSlider>
#include <QTest>
#include <QToolButton>
#include <QTreeWidget>
#include <bit>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "document/asset_document.h"
#include "meshscope/core/mesh_generators.h"
#include "meshscope/core/pose.h"
#include "meshscope/core/roblox_mesh_writer.h"
#include "meshscope/core/roblox_model_writer.h"
#include "meshscope/core/unigine_writer.h"
#include "meshscope/render/asset_scene.h"
#include "meshscope/render/camera_controller.h"
#include "meshscope/render/mesh_packing.h"
#include "meshscope/render/skinned_mesh_updater.h"
#include "meshscope/render/viewport.h"
#include "posing/animation_dock.h"
#include "posing/facs_dock.h"
#include "posing/pose_controller.h"
#include "posing/skeleton_dock.h"
#include "support/qt_test_support.h"
#include "support/rig_fixtures.h"
#include "support/test_support.h"
#include "support/window_test_support.h"
#include "vertex_compare.h"
#include "viewer_app.h"
#include "window/main_window.h"

using namespace meshscope;
using namespace meshscope::shell;
using meshscope::test::maxDistance;
using meshscope::test::positionsOf;

namespace {

QString writeFileMeshFixture(const std::string& name, const Asset& asset,
                             const std::string& version) {
    return QString::fromStdString(
        test::writeFileMeshFixture("app_posing", name, asset, version).string());
}

QImage capture(MainWindow& window) {
    render::CaptureOptions options;
    options.size = QSize(320, 320);
    options.transparentBackground = true;  // alpha 0 where nothing is drawn, no grid
    return window.viewport()->captureImageBlocking(options);
}

struct Box {
    int top = 1 << 30, bottom = -1, left = 1 << 30, right = -1;
    bool valid() const { return bottom >= top; }
};

// Rows/columns covered by the mesh (alpha > 0).
Box coverage(const QImage& image) {
    Box b;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x)
            if (qAlpha(image.pixel(x, y)) > 0) {
                b.top = std::min(b.top, y), b.bottom = std::max(b.bottom, y);
                b.left = std::min(b.left, x), b.right = std::max(b.right, x);
            }
    return b;
}

bool pixelDiffers(const QImage& a, const QImage& b, int x, int y) {
    const QRgb p = a.pixel(x, y), q = b.pixel(x, y);
    return std::abs(qRed(p) - qRed(q)) + std::abs(qGreen(p) - qGreen(q)) +
               std::abs(qBlue(p) - qBlue(q)) + std::abs(qAlpha(p) - qAlpha(q)) >
           24;
}

// Differing pixels in rows [y0, y1) of the images.
int diffRows(const QImage& a, const QImage& b, int y0, int y1) {
    int n = 0;
    for (int y = std::max(0, y0); y < std::min(y1, a.height()); ++y)
        for (int x = 0; x < a.width(); ++x) n += pixelDiffers(a, b, x, y);
    return n;
}

using test::openShown;

}  // namespace

TEST(SkinnedUpload, WrittenVerticesCarryPositionsAndHeatColours) {
    Asset a = makeSkinnedCylinder(2, 4, 6);
    const Mesh& mesh = a.meshes[0];
    QByteArray packed = render::packMesh(mesh).vertices;
    std::vector<Vec3> moved(mesh.positions.size(), Vec3{1, 2, 3});
    render::writePositionsNormals(packed, moved);
    EXPECT_EQ(maxDistance(positionsOf(packed), moved), 0.0f);
    // Colours by the weight of bone 1: weight 1 is the heat map's red end, weight 0 its blue end.
    render::writeBoneWeightColors(packed, mesh, 1);
    for (std::size_t i = 0; i < mesh.skin.size(); ++i) {
        std::uint8_t rgba[4];
        std::memcpy(rgba,
                    packed.constData() + i * render::VertexLayout::kStride +
                        render::VertexLayout::kColorOffset,
                    sizeof rgba);
        const VertexInfluences& inf = mesh.skin[i];
        const float w = (inf.joints[0] == 1 ? inf.weights[0] : 0.f) +
                        (inf.joints[1] == 1 ? inf.weights[1] : 0.f);
        const QColor expected = render::weightHeatColor(w);
        EXPECT_NEAR(rgba[0] / 255.0, expected.redF(), 1.0 / 255) << i;
        EXPECT_NEAR(rgba[2] / 255.0, expected.blueF(), 1.0 / 255) << i;
    }
    EXPECT_GT(render::weightHeatColor(1).redF(), 0.9);
    EXPECT_GT(render::weightHeatColor(0).blueF(), 0.9);
}

TEST(SkinnedUpload, UploadedVerticesEqualCoreSkinningWithOneBoneRotated) {
    const QString path = writeFileMeshFixture("cylinder2.mesh", makeSkinnedCylinder(2), "4.00");
    MainWindow window;
    ASSERT_NO_FATAL_FAILURE(openShown(window, path));
    PoseController* pose = window.poseController();
    const Asset& asset = window.document()->asset();
    ASSERT_EQ(pose->skeletonIndex(), asset.meshes[0].skeleton);
    ASSERT_EQ(pose->boneCount(), 2);
    const Mesh& mesh = asset.meshes[0];
    ASSERT_TRUE(mesh.skinned());

    // Bind pose: the buffer holds the file's positions.
    EXPECT_LT(maxDistance(positionsOf(pose->uploadedVertices(0)), mesh.positions), 1e-5f);

    pose->setBoneEdit(1, {{0, 0, 50}, {}});
    Pose expectedPose = Pose::bind(asset.skeletons[std::size_t(pose->skeletonIndex())]);
    poseBone(expectedPose, 1, {0, 0, 50});
    std::vector<Vec3> expected;
    skinVertices(
        mesh, skinningMatrices(asset.skeletons[std::size_t(pose->skeletonIndex())], expectedPose),
        expected);
    const std::vector<Vec3> uploaded = positionsOf(pose->uploadedVertices(0));
    ASSERT_EQ(uploaded.size(), mesh.positions.size());
    EXPECT_LT(maxDistance(uploaded, expected), 1e-5f);
    EXPECT_GT(maxDistance(uploaded, mesh.positions), 0.1f) << "the rotation moved vertices";

    pose->resetAll();
    EXPECT_LT(maxDistance(positionsOf(pose->uploadedVertices(0)), mesh.positions), 1e-5f);
}

TEST(SkinnedUpload, RotatedBoneChangesTheImageAboveAndNotAtTheBase) {
    // Four bones at equal heights along the 4-unit tube (0, 4/3, 8/3, 4): the vertices below
    // 4/3 blend Bone0 and Bone1 only, so rotating Bone2 bends the top of the tube and leaves its
    // lower third exactly in place.
    const QString path = writeFileMeshFixture("cylinder_img.mesh", makeSkinnedCylinder(4), "4.00");
    MainWindow window;
    ASSERT_NO_FATAL_FAILURE(openShown(window, path));
    PoseController* pose = window.poseController();
    pose->setSkeletonVisible(false);
    const QImage bind = capture(window);
    pose->setBoneEdit(2, {{0, 0, 60}, {}});
    const QImage bent = capture(window);
    ASSERT_FALSE(bind.isNull());
    ASSERT_FALSE(bent.isNull());
    const auto out = test::tempDir("app_posing_cylinder");
    bind.save(QString::fromStdString((out / "bind.png").string()));
    bent.save(QString::fromStdString((out / "bent.png").string()));
    const Box box = coverage(bind);
    ASSERT_TRUE(box.valid());
    const int h = box.bottom - box.top + 1;
    const int upper = diffRows(bind, bent, box.top, box.top + h / 3);
    const int base = diffRows(bind, bent, box.bottom - h / 4, box.bottom + 1);
    EXPECT_GT(upper, 500) << "the upper third bends";
    EXPECT_EQ(base, 0) << "the lower quarter stays";
}

namespace {

// JawDrop = 1 against neutral: changes in the lower half of the head, none at its top.
void expectJawDropChangesOnlyTheLowerFace(MainWindow& window, const std::string& tag) {
    PoseController* pose = window.poseController();
    ASSERT_NE(pose->facsRig(), nullptr);
    pose->setSkeletonVisible(false);
    window.viewport()->resetView();
    const QImage neutral = capture(window);
    ASSERT_TRUE(pose->setFacsByName(QStringLiteral("JawDrop"), 1.0f));
    const QImage open = capture(window);
    ASSERT_FALSE(neutral.isNull());
    ASSERT_FALSE(open.isNull());
    open.save(
        QString::fromStdString((test::tempDir("app_posing_out") / (tag + "_jaw.png")).string()));
    const Box box = coverage(neutral);
    ASSERT_TRUE(box.valid());
    const int h = box.bottom - box.top + 1;
    const int lower = diffRows(neutral, open, box.top + h / 2, box.bottom + 1 + h / 4);
    const int top = diffRows(neutral, open, box.top - 2, box.top + h / 4);
    EXPECT_GT(lower, 30) << tag << ": the jaw moves";
    EXPECT_EQ(top, 0) << tag << ": the top of the head stays";
}

}  // namespace

TEST(FacsPosing, GeneratedHeadJawDropMovesTheLowerFaceOnly) {
    const QString path = writeFileMeshFixture("facs_head.mesh", makeFacsHead(), "5.00");
    MainWindow window;
    ASSERT_NO_FATAL_FAILURE(openShown(window, path));
    expectJawDropChangesOnlyTheLowerFace(window, "generated");
}

TEST(FacsPosing, RealV5HeadJawDropMovesTheLowerFaceOnly) {
    MESHSCOPE_REQUIRE_CORPUS(corpus);
    const auto file = corpus / "roblox-mesh/krakow10_rbx_mesh/meshes/13674780763";
    if (!std::filesystem::exists(file)) GTEST_SKIP() << "SKIPPED: " << file << " is absent";
    MainWindow window;
    ASSERT_NO_FATAL_FAILURE(openShown(window, QString::fromStdString(file.string())));
    expectJawDropChangesOnlyTheLowerFace(window, "real_v5");
}

// A real v5 head whose every vertex is weighted to Head (its face bones to none): JawDrop moves
// the jaw bone and not one pixel of the head, and the Face panel says so, greying every control;
// a head that moves keeps its labels and says nothing.
TEST(FacsPanel, ControlsThatMoveNoVertexAreGreyedAndNamed) {
    MESHSCOPE_REQUIRE_CORPUS(corpus);
    const auto still = corpus / "roblox-mesh/krakow10_rbx_mesh/meshes/15256456161";
    MainWindow window;
    ASSERT_NO_FATAL_FAILURE(openShown(window, QString::fromStdString(still.string())));
    FacsDock* dock = window.facsDock();
    PoseController* pose = window.poseController();
    ASSERT_NE(pose->facsRig(), nullptr);
    pose->setSkeletonVisible(false);
    const QImage neutral = capture(window);
    ASSERT_TRUE(pose->setFacsByName(QStringLiteral("JawDrop"), 1.0f));
    const QImage open = capture(window);
    ASSERT_FALSE(neutral.isNull());
    EXPECT_LT(diffRows(neutral, open, 0, neutral.height()), 10) << "nothing follows the jaw";
    EXPECT_EQ(pose->stillFacsControls().size(), pose->facsRig()->controlNames.size());
    EXPECT_TRUE(dock->notes().contains("No control moves this mesh"))
        << dock->notes().toStdString();
    int greyed = 0;
    for (QLabel* l : dock->findChildren<QLabel*>()) greyed += l->property("stillControl").toBool();
    EXPECT_EQ(greyed, dock->sliderCount());
    dock->show();
    dock->resize(360, 520);
    dock->grab().save(
        QString::fromStdString((test::tempDir("app_posing_out") / "facs_still.png").string()));

    // The generated head moves with every control.
    const QString moving = writeFileMeshFixture("facs_moving.mesh", makeFacsHead(), "5.00");
    ASSERT_NO_FATAL_FAILURE(openShown(window, moving));
    EXPECT_TRUE(pose->stillFacsControls().empty());
    EXPECT_TRUE(dock->notes().isEmpty()) << dock->notes().toStdString();
    greyed = 0;
    for (QLabel* l : dock->findChildren<QLabel*>()) greyed += l->property("stillControl").toBool();
    EXPECT_EQ(greyed, 0);
}

TEST(FacsPanel, OneSliderPerControlAndCorrectivesFollowTheSliders) {
    const QString path = writeFileMeshFixture("facs_panel.mesh", makeFacsHead(), "5.00");
    MainWindow window;
    ASSERT_NO_FATAL_FAILURE(openShown(window, path));
    FacsDock* dock = window.facsDock();
    const FacsRig* rig = window.poseController()->facsRig();
    ASSERT_NE(rig, nullptr);
    ASSERT_EQ(dock->sliderCount(), int(rig->controlNames.size()));
    // makeFacsHead: controls c_JD (JawDrop), l_EC (LeftEyeClosed); correctives (c_JD, l_EC)
    // and (l_EC, c_JD, l_EC).
    EXPECT_EQ(dock->slider(0)->objectName(), QStringLiteral("JawDrop"));
    EXPECT_EQ(dock->slider(1)->objectName(), QStringLiteral("LeftEyeClosed"));
    QTreeWidget* list = dock->correctiveList();
    ASSERT_EQ(list->topLevelItemCount(), 2);
    EXPECT_EQ(list->topLevelItem(0)->text(1).toDouble(), 0.0);
    dock->slider(0)->setValue(dock->slider(0)->maximum());
    dock->slider(1)->setValue(dock->slider(1)->maximum() / 2);
    EXPECT_FLOAT_EQ(window.poseController()->facsWeights()[0], 1.0f);
    EXPECT_FLOAT_EQ(window.poseController()->facsWeights()[1], 0.5f);
    EXPECT_NEAR(list->topLevelItem(0)->text(1).toDouble(), 1.0 * 0.5, 1e-3);
    EXPECT_NEAR(list->topLevelItem(1)->text(1).toDouble(), 0.5 * 1.0 * 0.5, 1e-3);
    // The corrective list is folded at first; its header counts them and opens it.
    dock->show();
    dock->resize(360, 560);
    QToolButton* header = dock->correctivesHeader();
    EXPECT_EQ(header->text(), QStringLiteral("Correctives (2)"));
    EXPECT_FALSE(list->isVisible());
    header->click();
    QTest::qWait(20);
    EXPECT_TRUE(list->isVisible());
    dock->grab().save(
        QString::fromStdString((test::tempDir("app_posing_facs_panel") / "facs.png").string()));
    // Open, it still leaves the sliders most of the height.
    auto* scroll = dock->findChild<QScrollArea*>();
    ASSERT_NE(scroll, nullptr);
    EXPECT_GE(scroll->height(), 2 * list->height())
        << "sliders " << scroll->height() << " px, correctives " << list->height() << " px";
    header->click();
    EXPECT_FALSE(list->isVisible());
}

// In the window as it first opens (default size and dock layout), the Face tab shows a long
// list of sliders: it showed about seven rows, beside an equally tall corrective list and a
// level-of-detail panel taking half the column.
TEST(FacsPanel, TheDefaultWindowShowsManySliderRows) {
    const QString path = writeFileMeshFixture("facs_rows.mesh", makeFacsHead(), "5.00");
    MainWindow window;
    ASSERT_NO_FATAL_FAILURE(openShown(window, path));
    ASSERT_EQ(window.size(), QSize(1280, 820)) << "the window's first size";
    FacsDock* dock = window.facsDock();
    dock->raise();
    QTest::qWait(50);
    ASSERT_GE(dock->sliderCount(), 2);
    auto* scroll = dock->findChild<QScrollArea*>();
    ASSERT_NE(scroll, nullptr);
    // One row's pitch: from the top of one slider to the next in the same group layout, or the
    // slider's height plus the grid's spacing.
    const QSlider* s = dock->slider(0);
    const int pitch = s->height() + 6;
    const int rows = scroll->viewport()->height() / pitch;
    window.grab().save(
        QString::fromStdString((test::tempDir("app_posing_facs_rows") / "window.png").string()));
    EXPECT_GE(rows, 12) << "viewport " << scroll->viewport()->height() << " px, row " << pitch
                        << " px, dock " << dock->height() << " px of window " << window.height();
}

TEST(FacsPanel, ExpressionsRoundTripThroughJson) {
    const QString path = writeFileMeshFixture("facs_expr.mesh", makeFacsHead(), "5.00");
    MainWindow window;
    ASSERT_NO_FATAL_FAILURE(openShown(window, path));
    FacsDock* dock = window.facsDock();
    EXPECT_TRUE(dock->expressionNames().contains(QStringLiteral("Smile")));
    EXPECT_TRUE(dock->expressionNames().contains(QStringLiteral("Blink")));
    EXPECT_TRUE(dock->expressionNames().contains(QStringLiteral("Surprise")));
    ASSERT_TRUE(dock->applyExpression(QStringLiteral("Blink")));
    EXPECT_FLOAT_EQ(window.poseController()->facsWeights()[1], 1.0f);  // LeftEyeClosed
    EXPECT_FLOAT_EQ(window.poseController()->facsWeights()[0], 0.0f);

    window.poseController()->setFacsWeights({0.25f, 0.75f});
    dock->storeExpression(QStringLiteral("Mine"));
    const QString json =
        QString::fromStdString((test::tempDir("app_posing_json") / "expressions.json").string());
    ASSERT_TRUE(dock->saveExpressions(json));

    MainWindow other;
    ASSERT_NO_FATAL_FAILURE(openShown(other, path));
    QFile::remove(json + QStringLiteral(".bad"));
    ASSERT_TRUE(other.facsDock()->loadExpressions(json));
    ASSERT_TRUE(other.facsDock()->applyExpression(QStringLiteral("Mine")));
    EXPECT_FLOAT_EQ(other.poseController()->facsWeights()[0], 0.25f);
    EXPECT_FLOAT_EQ(other.poseController()->facsWeights()[1], 0.75f);
    EXPECT_FALSE(other.facsDock()->loadExpressions(json + QStringLiteral(".missing")));
}

TEST(SkeletonPanel, ListsTheBonesAndPosesTheSelectedOne) {
    const QString path = writeFileMeshFixture("cylinder3.mesh", makeSkinnedCylinder(3), "4.00");
    MainWindow window;
    ASSERT_NO_FATAL_FAILURE(openShown(window, path));
    SkeletonDock* dock = window.skeletonDock();
    EXPECT_EQ(dock->boneCount(), 3);
    dock->selectBone(2);
    EXPECT_EQ(window.poseController()->selectedBone(), 2);
    dock->rotationField(0)->setValue(30);
    EXPECT_FLOAT_EQ(window.poseController()->boneEdit(2).rotation.x, 30.0f);
    // The selected bone's weights are a heat map: vertices fully on bone 2 are red.
    const Mesh& mesh = window.document()->asset().meshes[0];
    const QByteArray up = window.poseController()->uploadedVertices(0);
    bool sawRed = false;
    for (std::size_t i = 0; i < mesh.skin.size(); ++i) {
        const auto& inf = mesh.skin[i];
        if (!(inf.joints[1] == 2 && inf.weights[1] > 0.999f)) continue;
        std::uint8_t rgba[4];
        std::memcpy(
            rgba,
            up.constData() + i * render::VertexLayout::kStride + render::VertexLayout::kColorOffset,
            sizeof rgba);
        EXPECT_GT(rgba[0] / 255.f, 0.9f);
        EXPECT_LT(rgba[2] / 255.f, 0.2f);
        sawRed = true;
    }
    EXPECT_TRUE(sawRed);
    // Selecting a node that is not a bone ends the bone selection and its heat map.
    const Asset& a = window.document()->asset();
    int other = -1;
    for (int n = 0; n < int(a.nodes.size()) && other < 0; ++n)
        if (a.links(n).bone < 0) other = n;
    ASSERT_GE(other, 0);
    window.document()->selectNode(other);
    EXPECT_EQ(window.poseController()->selectedBone(), -1);
}

// On a file without bones the Skeleton panel says why it is empty, in a row that cannot be
// selected.
TEST(SkeletonPanel, SaysWhyItIsEmptyOnAFileWithoutBones) {
    const QString path = writeFileMeshFixture("sphere_nobones.mesh", makeUvSphere(), "2.00");
    MainWindow window;
    ASSERT_NO_FATAL_FAILURE(openShown(window, path));
    SkeletonDock* dock = window.skeletonDock();
    EXPECT_EQ(dock->boneCount(), 0);
    auto* tree = dock->findChild<QTreeWidget*>();
    ASSERT_NE(tree, nullptr);
    ASSERT_EQ(tree->topLevelItemCount(), 1);
    EXPECT_TRUE(tree->topLevelItem(0)->text(0).startsWith(QStringLiteral("No skeleton")));
    EXPECT_EQ(tree->topLevelItem(0)->flags(), Qt::NoItemFlags);
}

// --no-bones hides the skeleton overlay in screenshots and windows (on by default).
TEST(ViewerArguments, NoBonesHidesTheSkeletonOverlay) {
    ViewerOptions options;
    ASSERT_FALSE(
        parseViewerOptions({QStringLiteral("meshscope"), QStringLiteral("f.mesh")}, options));
    EXPECT_TRUE(options.bonesOverlay);
    ASSERT_FALSE(parseViewerOptions(
        {QStringLiteral("meshscope"), QStringLiteral("--no-bones"), QStringLiteral("f.mesh")},
        options));
    EXPECT_FALSE(options.bonesOverlay);
    const QString path =
        writeFileMeshFixture("cylinder_nobones.mesh", makeSkinnedCylinder(3), "4.00");
    MainWindow window;
    options.files = {path};
    const QList<MainWindow*> windows = openViewerWindows(window, options);
    ASSERT_FALSE(windows.isEmpty());
    QSignalSpy opened(&window, &MainWindow::fileOpened);
    ASSERT_TRUE(window.document()->hasAsset() || opened.wait(15000));
    EXPECT_EQ(window.poseController()->boneCount(), 3);
    EXPECT_FALSE(window.poseController()->skeletonVisible());
    EXPECT_FALSE(window.skeletonDock()->findChild<QCheckBox*>()->isChecked());
}

TEST(ViewerArguments, PoseAndBoneArgumentsPoseTheFaceAndTheSkeleton) {
    ViewerOptions options;
    ASSERT_FALSE(parseViewerOptions({QStringLiteral("meshscope"), QStringLiteral("--pose"),
                                     QStringLiteral("JawDrop=1,l_EC=0.5"), QStringLiteral("--bone"),
                                     QStringLiteral("Jaw=10,0,0"), QStringLiteral("f.mesh")},
                                    options));
    EXPECT_EQ(options.pose, QStringLiteral("JawDrop=1,l_EC=0.5"));
    ASSERT_EQ(options.bones.size(), 1);

    const QString path = writeFileMeshFixture("facs_args.mesh", makeFacsHead(), "5.00");
    MainWindow window;
    ASSERT_NO_FATAL_FAILURE(openShown(window, path));
    PoseController* pose = window.poseController();
    QString error;
    ASSERT_TRUE(applyPoseArguments(*pose, options.pose, options.bones, &error))
        << error.toStdString();
    EXPECT_FLOAT_EQ(pose->facsWeights()[0], 1.0f);
    EXPECT_FLOAT_EQ(pose->facsWeights()[1], 0.5f);
    const int jaw = pose->skeleton()->find("Jaw");
    ASSERT_GE(jaw, 0);
    EXPECT_FLOAT_EQ(pose->boneEdit(jaw).rotation.x, 10.0f);
    EXPECT_FALSE(applyPoseArguments(*pose, QStringLiteral("NoSuchControl=1"), {}, &error));
    EXPECT_TRUE(error.contains(QStringLiteral("NoSuchControl")));
    EXPECT_FALSE(applyPoseArguments(*pose, {}, {QStringLiteral("Nope=1,2,3")}, &error));
}

// A baked Roblox sequence's last frame is at its length, off the frame grid (Dance: 34 frames
// at 30 fps, the last at 1.0833 s, not 1.1 s): its last key sits at the end of the timeline, as
// the last key of an animation on the grid does, and the keys before it where their frames are.
TEST(AnimationPlayback, TheTimelinePutsAKeyAtTheLengthOnTheLastFrame) {
    AnimationTimeline offGrid, onGrid;
    offGrid.resize(400, 40);
    onGrid.resize(400, 40);
    offGrid.setAnimation(34, 30, {0.0f, 0.5f, 1.0f, 1.0833f}, 1.0833);
    onGrid.setAnimation(34, 30, {0.0f, 0.5f, 1.0f, 1.1f});
    const std::vector<int> a = offGrid.tickPositions(), b = onGrid.tickPositions();
    ASSERT_EQ(a.size(), 4u);
    ASSERT_EQ(b.size(), 4u);
    EXPECT_EQ(a[0], b[0]);
    EXPECT_EQ(a[1], b[1]);
    EXPECT_EQ(a[2], b[2]);
    EXPECT_EQ(a[3], b[3]) << "the last key is the last frame";
    EXPECT_GT(a[3], a[2]);
}

TEST(AnimationPlayback, SmeshFramesPoseTheMeshLikeCoreSkinning) {
    // A two-bone tube whose bones are not turned (bind frames are translations), and an
    // animation of two frames: Bone1 at its bind, then turned 90° about Z.
    Asset a = makeSkinnedCylinder(2);
    Skeleton& s = a.skeletons[0];
    for (Bone& b : s.bones) {
        const Vec3 t{b.world.at(0, 3), b.world.at(1, 3), b.world.at(2, 3)};
        b.world = translationMatrix(t);
        b.inverseBind.reset();
    }
    Animation anim;
    anim.name = "bend";
    anim.frameCount = 2;
    anim.skeleton = 0;
    const float h = std::sqrt(0.5f);
    for (int b = 0; b < 2; ++b) {
        BoneTrack t;
        t.bone = s.bones[std::size_t(b)].name;
        const Mat4 rel = b == 0 ? s.bones[0].world : inverse(s.bones[0].world) * s.bones[1].world;
        const Vec3 p{rel.at(0, 3), rel.at(1, 3), rel.at(2, 3)};
        t.positions = {p, p};
        t.rotations = {Vec4{0, 0, 0, 1}, b == 1 ? Vec4{0, 0, h, h} : Vec4{0, 0, 0, 1}};
        t.scales = {Vec3{1, 1, 1}, Vec3{1, 1, 1}};
        anim.tracks.push_back(t);
    }
    a.animations.push_back(anim);
    const UnigineWriteResult written = writeUnigineSkinnedMesh(a);
    ASSERT_TRUE(written.ok()) << *written.error;
    const auto file = test::tempDir("app_posing") / "bend.smesh";
    test::writeFile(file, written.bytes);

    MainWindow window;
    ASSERT_NO_FATAL_FAILURE(openShown(window, QString::fromStdString(file.string())));
    PoseController* pose = window.poseController();
    ASSERT_EQ(pose->animationCount(), 1);
    ASSERT_EQ(pose->animation(0)->frameCount, 2u);
    const Asset& decoded = window.document()->asset();
    ASSERT_FALSE(decoded.meshes.empty());
    const Mesh& mesh = decoded.meshes[0];
    const Skeleton& skel = decoded.skeletons[std::size_t(pose->skeletonIndex())];
    ASSERT_TRUE(mesh.skinned());

    window.animationDock()->setCurrentAnimation(0);
    window.animationDock()->setFrame(1);
    Pose expected = Pose::bind(skel);
    poseBone(expected, skel.find(s.bones[1].name), {0, 0, 90});
    std::vector<Vec3> want;
    skinVertices(mesh, skinningMatrices(skel, expected), want);
    EXPECT_LT(maxDistance(positionsOf(pose->uploadedVertices(0)), want), 1e-3f);

    // Halfway between the frames: 45°.
    window.animationDock()->setFrame(0.5);
    expected = Pose::bind(skel);
    poseBone(expected, skel.find(s.bones[1].name), {0, 0, 45});
    skinVertices(mesh, skinningMatrices(skel, expected), want);
    EXPECT_LT(maxDistance(positionsOf(pose->uploadedVertices(0)), want), 1e-3f);

    window.animationDock()->setFrame(0);
    EXPECT_LT(maxDistance(positionsOf(pose->uploadedVertices(0)), mesh.positions), 1e-3f);
}

TEST(SkinnedUpload, HundredThousandVerticesMatchCoreAndReportTheUpdateTime) {
    // 300 rings × 330 segments: (301 × 331) ≈ 100k vertices on 4 bones.
    const QString path =
        writeFileMeshFixture("cylinder100k.mesh", makeSkinnedCylinder(4, 300, 330), "4.00");
    MainWindow window;
    ASSERT_NO_FATAL_FAILURE(openShown(window, path));
    PoseController* pose = window.poseController();
    const Asset& asset = window.document()->asset();
    const Mesh& mesh = asset.meshes[0];
    ASSERT_GE(mesh.vertexCount(), 99000u);
    QElapsedTimer timer;
    timer.start();
    constexpr int kUpdates = 20;
    for (int i = 1; i <= kUpdates; ++i) pose->setBoneEdit(2, {{0, 0, float(i)}, {}});
    const double ms = double(timer.nsecsElapsed()) / 1e6 / kUpdates;
    std::printf("[ measured ] pose update (skin + upload) of %zu vertices: %.2f ms\n",
                mesh.vertexCount(), ms);
    Pose expected = Pose::bind(asset.skeletons[std::size_t(pose->skeletonIndex())]);
    poseBone(expected, 2, {0, 0, float(kUpdates)});
    std::vector<Vec3> want;
    skinVertices(mesh,
                 skinningMatrices(asset.skeletons[std::size_t(pose->skeletonIndex())], expected),
                 want);
    EXPECT_LT(maxDistance(positionsOf(pose->uploadedVertices(0)), want), 1e-4f);
}

// A Roblox rig (#23): an R15 character's parts move with a KeyframeSequence loaded onto it —
// baked on the rig, joints matched by part name, keyframes as the timeline's ticks, the time
// shown, and the parts drawn where the rig's posed bones put them.
TEST(RigAnimation, KeyframeSequenceLoadedOntoAnR15CharacterMovesItsParts) {
    MESHSCOPE_REQUIRE_CORPUS(corpus);
    const auto rig = corpus / "rbxm/AntiBoomz_BTRoblox/res/previewer/characterR15.rbxm";
    const auto anim =
        corpus /
        "rbxmx/MaximumADHD_Rbx2Source/Resources/AvatarData/R15/Animations/LookAround.rbxmx";
    MainWindow window;
    ASSERT_NO_FATAL_FAILURE(openShown(window, QString::fromStdString(rig.string())));
    PoseController* pose = window.poseController();
    ASSERT_GT(pose->boneCount(), 10) << "the R15 rig is the skeleton";
    // Every rig part is drawn as its own mesh skinned to its bone.
    const Asset& shown = pose->asset();
    int rigged = 0;
    for (const Mesh& m : shown.meshes) rigged += m.skinned();
    EXPECT_GE(rigged, 15);
    int moving = -1;
    for (int m = 0; m < int(shown.meshes.size()); ++m)
        if (shown.meshes[std::size_t(m)].skinned() && shown.meshes[std::size_t(m)].name == "Head")
            moving = m;
    ASSERT_GE(moving, 0) << "the Head part";

    AnimationDock* dock = window.animationDock();
    const int before = pose->animationCount();
    QString error;
    ASSERT_TRUE(dock->loadFile(QString::fromStdString(anim.string()), &error))
        << error.toStdString();
    ASSERT_EQ(pose->animationCount(), before + 1);
    const Animation* a = pose->animation(dock->currentAnimation());
    ASSERT_NE(a, nullptr);
    EXPECT_GT(a->frameCount, 30u);
    ASSERT_GT(a->keyTimes.size(), 2u);
    EXPECT_EQ(dock->timeline()->tickPositions().size(), a->keyTimes.size());
    EXPECT_TRUE(pose->loadWarnings().isEmpty()) << pose->loadWarnings().join("; ").toStdString();

    dock->setFrame(0);
    const std::vector<Vec3> atStart = positionsOf(pose->uploadedVertices(moving));
    ASSERT_FALSE(atStart.empty());
    dock->setFrame(a->framesPerSecond * 1.5);
    EXPECT_TRUE(dock->timeText().startsWith("1.50 s")) << dock->timeText().toStdString();
    dock->resize(420, 200);
    dock->grab().save(QString::fromStdString(
        (test::tempDir("app_rig_animation") / "animation_dock.png").string()));
    const std::vector<Vec3> later = positionsOf(pose->uploadedVertices(moving));
    EXPECT_GT(maxDistance(later, atStart), 0.05f) << "LookAround turns the head";
    // The head stays a rigid box: its vertices keep their distances.
    const auto dist = [](const Vec3& p, const Vec3& q) {
        return std::sqrt((p.x - q.x) * (p.x - q.x) + (p.y - q.y) * (p.y - q.y) +
                         (p.z - q.z) * (p.z - q.z));
    };
    for (std::size_t i = 1; i < atStart.size() && i < 40; ++i)
        EXPECT_NEAR(dist(later[i], later[0]), dist(atStart[i], atStart[0]), 1e-3f) << i;
}

// An animation that takes the rig past its rest pose (Dance swings the arms out): loading it
// frames the whole motion, and every frame's skinned vertices lie inside the motion bounds.
TEST(RigAnimation, ALoadedAnimationIsFramedWholeAtEveryFrame) {
    MESHSCOPE_REQUIRE_CORPUS(corpus);
    const auto rig = corpus / "rbxm/AntiBoomz_BTRoblox/res/previewer/characterR15.rbxm";
    const auto anim =
        corpus / "rbxmx/MaximumADHD_Rbx2Source/Resources/AvatarData/R15/Animations/Dance.rbxmx";
    MainWindow window;
    ASSERT_NO_FATAL_FAILURE(openShown(window, QString::fromStdString(rig.string())));
    render::Viewport* viewport = window.viewport();
    EXPECT_TRUE(viewport->motionBounds().empty()) << "no animation shown yet";
    const Bounds rest = viewport->scene()->framingBounds();
    ASSERT_TRUE(rest.valid());
    const float distanceAtRest = viewport->cameraController()->state().distance;

    QString error;
    ASSERT_TRUE(window.animationDock()->loadFile(QString::fromStdString(anim.string()), &error))
        << error.toStdString();
    PoseController* pose = window.poseController();
    const Animation* a = pose->animation(window.animationDock()->currentAnimation());
    ASSERT_NE(a, nullptr);
    ASSERT_GT(a->frameCount, 10u);
    const std::vector<int> posed = pose->posedMeshes();
    ASSERT_GE(posed.size(), 15u);
    const std::vector<Bounds> motion = viewport->motionBounds();
    ASSERT_EQ(motion.size(), posed.size()) << "a box per posed mesh";
    Bounds all;
    for (const Bounds& b : motion) all.add(b);
    // Past the rest pose somewhere, so the camera had to step back to keep it in view.
    EXPECT_TRUE(all.min.x < rest.min.x || all.min.y < rest.min.y || all.min.z < rest.min.z ||
                all.max.x > rest.max.x || all.max.y > rest.max.y || all.max.z > rest.max.z);
    EXPECT_GT(viewport->cameraController()->state().distance, distanceAtRest);

    constexpr float kSlack = 1e-3f;
    int checked = 0;
    for (std::uint32_t f = 0; f < a->frameCount; ++f) {
        window.animationDock()->setFrame(double(f));
        for (std::size_t k = 0; k < posed.size(); ++k) {
            const Bounds& box = motion[k];
            for (const Vec3& p : positionsOf(pose->uploadedVertices(posed[k]))) {
                ASSERT_TRUE(p.x >= box.min.x - kSlack && p.x <= box.max.x + kSlack &&
                            p.y >= box.min.y - kSlack && p.y <= box.max.y + kSlack &&
                            p.z >= box.min.z - kSlack && p.z <= box.max.z + kSlack)
                    << "frame " << f << " mesh " << posed[k] << " (" << p.x << ", " << p.y << ", "
                    << p.z << ")";
                ++checked;
            }
        }
    }
    EXPECT_GT(checked, 1000);
    // Another file forgets the motion.
    ASSERT_NO_FATAL_FAILURE(openShown(window, QString::fromStdString(rig.string())));
    EXPECT_TRUE(viewport->motionBounds().empty());
}

// A bone turned by hand past the rest pose: Fit to View (F) frames the pose shown, and at rest
// it frames exactly as the scene alone does.
TEST(RigAnimation, FitToViewFramesABoneTurnedByHand) {
    MESHSCOPE_REQUIRE_CORPUS(corpus);
    const auto rig = corpus / "rbxm/AntiBoomz_BTRoblox/res/previewer/characterR15.rbxm";
    MainWindow window;
    ASSERT_NO_FATAL_FAILURE(openShown(window, QString::fromStdString(rig.string())));
    render::Viewport* viewport = window.viewport();
    QAction* fit = window.findChild<QAction*>(QStringLiteral("fitAction"));
    ASSERT_NE(fit, nullptr);
    const render::OrbitState opened = viewport->cameraController()->state();
    fit->trigger();
    const render::OrbitState atRest = viewport->cameraController()->state();
    EXPECT_NEAR(atRest.distance, opened.distance, 1e-4f * opened.distance)
        << "the rest pose adds nothing to the scene's framing";

    PoseController* pose = window.poseController();
    const int arm = pose->skeleton()->find("LeftUpperArm");
    ASSERT_GE(arm, 0);
    BoneEdit raise;
    raise.rotation = {0, 0, -150};  // the arm swung up over the head
    raise.translation = {0, 6, 0};  // and lifted well clear of it
    pose->setBoneEdit(arm, raise);
    Bounds posed;
    for (const Bounds& b : pose->posedBounds()) posed.add(b);
    ASSERT_GT(posed.max.y, viewport->scene()->framingBounds().max.y + 1.0f)
        << "the arm reaches above the rest pose";
    fit->trigger();
    EXPECT_GT(viewport->cameraController()->state().distance, atRest.distance * 1.05f);
}

// A rig a few studs tall standing on a 2048-stud baseplate (as a place holds its characters):
// the overlay's joint crosses are sized by the rig, not by the whole scene, whose crosses would be
// tens of studs long.
TEST(SkeletonOverlay, JointCrossesAreSizedByTheRigNotTheScene) {
    test::TwoPartRigOptions rigOptions;
    rigOptions.sizes = true;
    Asset place = test::twoPartRig(rigOptions);
    const int baseplate = place.addNode("Baseplate", "Part");
    place.addProperty(baseplate, test::prop("CFrame", "CFrame", test::cframeAt({0, -8, 0})));
    place.addProperty(baseplate, test::prop("Size", "Vector3", Vec3{2048, 16, 2048}));
    const QString path =
        test::writeModelFixture("app_posing_overlay", "rig_on_baseplate.rbxm", place);
    ASSERT_FALSE(path.isEmpty());

    MainWindow window;
    ASSERT_NO_FATAL_FAILURE(openShown(window, path));
    PoseController* pose = window.poseController();
    ASSERT_EQ(pose->boneCount(), 2);
    ASSERT_TRUE(window.viewport()->scene()->bounds().valid());
    const Vec3 scene = window.viewport()->scene()->bounds().size();
    ASSERT_GT(std::max(scene.x, scene.z), 2000.0f) << "the baseplate is in the scene";
    // The rig (Torso 2×2×1 at the origin, Arm 1×2×1 above it) is 4 studs tall: 1.2 % of it.
    EXPECT_NEAR(pose->jointSize(), 4.0f * 0.012f, 0.01f);
}

namespace {

// Pixels of the skeleton overlay's bone colour (yellow: 1, 0.85, 0.2) in `image`.
int bonePixels(const QImage& image) {
    int n = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x) {
            const QRgb p = image.pixel(x, y);
            n += qRed(p) > 180 && qGreen(p) > 150 && qBlue(p) < 110;
        }
    return n;
}

}  // namespace

// The skeleton overlay is drawn over the meshes (its bones show inside a skinned mesh) whatever
// the window showed before: once a Roblox rig had been open in the window, the next file's bones
// were hidden inside its mesh (the overlay drew before the meshes).
TEST(SkeletonOverlay, BonesStayOverTheMeshAfterARobloxRig) {
    const QString mesh =
        writeFileMeshFixture("overlay_cylinder.mesh", makeSkinnedCylinder(3), "4.00");
    test::TwoPartRigOptions rigOptions;
    rigOptions.sizes = true;
    const QString rig = test::writeModelFixture("app_posing_overlay", "two_part_rig.rbxm",
                                                test::twoPartRig(rigOptions));
    ASSERT_FALSE(rig.isEmpty());

    MainWindow fresh;
    ASSERT_NO_FATAL_FAILURE(openShown(fresh, mesh));
    const int alone = bonePixels(capture(fresh));
    ASSERT_GT(alone, 20) << "the cylinder's bones show through it";

    MainWindow window;
    ASSERT_NO_FATAL_FAILURE(openShown(window, rig));
    ASSERT_EQ(window.poseController()->boneCount(), 2);
    EXPECT_GT(bonePixels(capture(window)), 0);
    QString error;
    ASSERT_TRUE(window.openFileNow(mesh, &error)) << error.toStdString();
    ASSERT_EQ(window.poseController()->boneCount(), 3);
    const QImage after = capture(window);
    after.save(QString::fromStdString(
        (test::tempDir("app_posing_overlay") / "cylinder_after_rig.png").string()));
    EXPECT_GE(bonePixels(after), alone * 8 / 10);
}

TEST(RigAnimation, SequencesNeedARig) {
    MESHSCOPE_REQUIRE_CORPUS(corpus);
    const auto anim =
        corpus / "rbxmx/MaximumADHD_Rbx2Source/Resources/AvatarData/R15/Animations/Idle.rbxmx";
    const QString path = writeFileMeshFixture("rigless.mesh", makeSkinnedCylinder(), "4.00");
    MainWindow window;
    ASSERT_NO_FATAL_FAILURE(openShown(window, path));
    QString error;
    EXPECT_FALSE(window.animationDock()->loadFile(QString::fromStdString(anim.string()), &error));
    EXPECT_TRUE(error.contains("no rig")) << error.toStdString();
}

// A CurveAnimation's FaceControls curves loaded onto a FACS head (no rig) move the Face sliders
// as the timeline plays: JawDrop goes 0 -> 1 over a second.
TEST(FacsAnimation, FaceControlsCurvesMoveTheFaceSliders) {
    const QString head = writeFileMeshFixture("facs_curves.mesh", makeFacsHead(), "5.00");
    Asset source;
    source.format = "roblox-model";
    const int anim = source.addNode("Talk", "CurveAnimation");
    const int folder = source.addNode("Head", "Folder", anim);
    const int face = source.addNode("FaceControls", "Folder", folder);
    const int jaw = source.addNode("JawDrop", "FloatCurve", face);
    source.addProperty(jaw, test::prop("ValuesAndTimes", "BinaryString",
                                       test::linearFloatCurve({{0.0f, 0}, {1.0f, 2400}})));
    const int unknown = source.addNode("NotAControl", "FloatCurve", face);
    source.addProperty(unknown, test::prop("ValuesAndTimes", "BinaryString",
                                           test::linearFloatCurve({{1.0f, 0}, {1.0f, 2400}})));
    const RobloxModelWriteResult written = writeRobloxModel(source);
    ASSERT_TRUE(written.ok()) << written.error.value_or("");
    const auto path = test::tempDir("app_posing_facs_curves") / "talk.rbxm";
    {
        QFile f(QString::fromStdString(path.string()));
        ASSERT_TRUE(f.open(QIODevice::WriteOnly));
        f.write(reinterpret_cast<const char*>(written.bytes.data()), qint64(written.bytes.size()));
    }

    MainWindow window;
    ASSERT_NO_FATAL_FAILURE(openShown(window, head));
    PoseController* pose = window.poseController();
    ASSERT_NE(pose->facsRig(), nullptr);
    QString error;
    ASSERT_TRUE(window.animationDock()->loadFile(QString::fromStdString(path.string()), &error))
        << error.toStdString();
    EXPECT_TRUE(pose->loadWarnings().join(" ").contains("NotAControl"))
        << pose->loadWarnings().join("; ").toStdString();
    const Animation* a = pose->animation(window.animationDock()->currentAnimation());
    ASSERT_NE(a, nullptr);
    ASSERT_FALSE(a->facsChannels.empty());
    // makeFacsHead: control 0 is JawDrop.
    window.animationDock()->setFrame(0);
    EXPECT_NEAR(pose->facsWeights()[0], 0.0f, 1e-5f);
    window.animationDock()->setFrame(a->framesPerSecond * 0.5);
    EXPECT_NEAR(pose->facsWeights()[0], 0.5f, 1e-3f);
    FacsDock* dock = window.facsDock();
    EXPECT_NEAR(double(dock->slider(0)->value()) / dock->slider(0)->maximum(), 0.5, 0.02)
        << "the Face slider follows the curve";
    window.animationDock()->setFrame(a->framesPerSecond * 1.0);
    EXPECT_NEAR(pose->facsWeights()[0], 1.0f, 1e-3f);
    EXPECT_NEAR(pose->facsWeights()[1], 0.0f, 1e-5f) << "LeftEyeClosed has no curve";
}

// A KeyframeSequence's FaceControls NumberPoses (Head Pose > FaceControls folder, as the Animation
// Editor saves face animation) loaded onto a FACS head without a rig play on the Face sliders too:
// JawDrop 0 at 0 s, 1 at 1 s, linear.
TEST(FacsAnimation, KeyframeSequenceNumberPosesMoveTheFaceSliders) {
    const QString head = writeFileMeshFixture("facs_numberposes.mesh", makeFacsHead(), "5.00");
    Asset source;
    source.format = "roblox-model";
    const int seq = source.addNode("Talk", "KeyframeSequence");
    for (double time : {0.0, 1.0}) {
        const int kf = source.addNode("Keyframe", "Keyframe", seq);
        source.addProperty(kf, test::prop("Time", "float", time));
        const int root = source.addNode("HumanoidRootPart", "Pose", kf);
        source.addProperty(root, test::prop("Weight", "float", 0.0));
        const int headPose = source.addNode("Head", "Pose", root);
        source.addProperty(headPose, test::prop("Weight", "float", 0.0));
        const int face = source.addNode("FaceControls", "Folder", headPose);
        const int jaw = source.addNode("JawDrop", "NumberPose", face);
        source.addProperty(jaw, test::prop("Value", "float", time));
        source.addProperty(jaw, test::prop("Weight", "float", 1.0));
    }
    const RobloxModelWriteResult written = writeRobloxModel(source);
    ASSERT_TRUE(written.ok()) << written.error.value_or("");
    const auto path = test::tempDir("app_posing_facs_numberposes") / "talk.rbxm";
    test::writeFile(path, written.bytes);

    MainWindow window;
    ASSERT_NO_FATAL_FAILURE(openShown(window, head));
    PoseController* pose = window.poseController();
    ASSERT_NE(pose->facsRig(), nullptr);
    QString error;
    ASSERT_TRUE(window.animationDock()->loadFile(QString::fromStdString(path.string()), &error))
        << error.toStdString();
    ASSERT_EQ(pose->animationCount(), 1) << "one face animation, not one per loop";
    const Animation* a = pose->animation(window.animationDock()->currentAnimation());
    ASSERT_NE(a, nullptr);
    ASSERT_FALSE(a->facsChannels.empty());
    window.animationDock()->setFrame(a->framesPerSecond * 0.5);
    EXPECT_NEAR(pose->facsWeights()[0], 0.5f, 1e-3f);  // makeFacsHead: control 0 is JawDrop
    FacsDock* dock = window.facsDock();
    EXPECT_NEAR(double(dock->slider(0)->value()) / dock->slider(0)->maximum(), 0.5, 0.02);
}
