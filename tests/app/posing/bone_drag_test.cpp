// Posing a bone with the mouse: the drag maths (screen angle, Euler decomposition, turning and
// moving a bone edit in its frame) against hand-computed values and core's own rotations, and a
// synthesized Ctrl + drag in a shown window that turns the selected bone about the view axis
// (checked against the camera with Qt's quaternions), Ctrl + Shift + drag that moves the joint
// with the cursor, a Ctrl + click on a joint that selects its bone, and a plain drag that still
// orbits the camera.
#include <gtest/gtest.h>

#include <QAction>
#include <QCheckBox>
#include <QCoreApplication>
#include <QDoubleSpinBox>
#include <QMouseEvent>
#include <QPushButton>
#include <QQuaternion>
#include <QTest>
#include <QWindow>
#include <Qt3DRender/QCamera>
#include <cmath>
#include <cstring>

#include "document/asset_document.h"
#include "meshscope/core/mesh_generators.h"
#include "meshscope/core/pose.h"
#include "meshscope/core/roblox_mesh_writer.h"
#include "meshscope/render/camera_controller.h"
#include "meshscope/render/mesh_packing.h"
#include "meshscope/render/skeleton_view.h"
#include "meshscope/render/viewport.h"
#include "posing/bone_drag_controller.h"
#include "posing/pose_controller.h"
#include "posing/skeleton_dock.h"
#include "support/test_support.h"
#include "vertex_compare.h"
#include "window/main_window.h"

using namespace meshscope;
using namespace meshscope::shell;
using meshscope::test::maxDistance;
using meshscope::test::positionsOf;

namespace {

void expectMatrixNear(const Mat4& a, const Mat4& b, float eps, const char* what) {
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) EXPECT_NEAR(a.at(r, c), b.at(r, c), eps) << what << r << c;
}

void expectVecNear(const Vec3& a, const Vec3& b, float eps) {
    EXPECT_NEAR(a.x, b.x, eps);
    EXPECT_NEAR(a.y, b.y, eps);
    EXPECT_NEAR(a.z, b.z, eps);
}

}  // namespace

TEST(BoneDragMaths, ModifiersChooseTheDrag) {
    EXPECT_EQ(boneDragMode(Qt::LeftButton, Qt::ControlModifier), BoneDragMode::Rotate);
    EXPECT_EQ(boneDragMode(Qt::LeftButton, Qt::ControlModifier | Qt::ShiftModifier),
              BoneDragMode::Translate);
    EXPECT_EQ(boneDragMode(Qt::LeftButton, Qt::NoModifier), BoneDragMode::None);
    EXPECT_EQ(boneDragMode(Qt::LeftButton, Qt::ShiftModifier), BoneDragMode::None);
    EXPECT_EQ(boneDragMode(Qt::RightButton, Qt::ControlModifier), BoneDragMode::None);
}

TEST(BoneDragMaths, ScreenAngleIsCounterClockwisePositive) {
    // y grows downwards: from the right of the pivot to above it is a quarter turn
    // counter-clockwise as seen on screen.
    EXPECT_NEAR(screenAngleDegrees({0, 0}, {10, 0}, {0, -10}), 90.0f, 1e-4f);
    EXPECT_NEAR(screenAngleDegrees({0, 0}, {10, 0}, {0, 10}), -90.0f, 1e-4f);
    EXPECT_NEAR(screenAngleDegrees({5, 5}, {15, 5}, {15, -5}), 45.0f, 1e-4f);
    EXPECT_EQ(screenAngleDegrees({0, 0}, {1, 0}, {0, 10}), 0.0f) << "too close to the pivot";
}

TEST(BoneDragMaths, AxisAngleMatchesCoreRotations) {
    expectMatrixNear(axisAngleRotation({0, 0, 1}, 90), rotationZDegrees(90), 1e-6f, "z");
    expectMatrixNear(axisAngleRotation({2, 0, 0}, -30), rotationXDegrees(-30), 1e-6f, "x");
    expectMatrixNear(axisAngleRotation({0, 1, 0}, 75), rotationYDegrees(75), 1e-6f, "y");
    expectMatrixNear(axisAngleRotation({0, 0, 0}, 75), Mat4::identity(), 0, "null axis");
}

TEST(BoneDragMaths, EulerDecompositionInvertsEulerXyzDegrees) {
    for (const Vec3 e : {Vec3{10, 20, 30}, Vec3{-45, 60, 170}, Vec3{120, -30, -100}, Vec3{0, 0, 0},
                         Vec3{5, -85, 0}}) {
        const Vec3 back = eulerXyzFromMatrix(eulerXyzDegrees(e), e);
        expectVecNear(back, e, 1e-2f);
    }
    // Without a hint the principal solution (|Y| <= 90) comes back.
    expectVecNear(eulerXyzFromMatrix(eulerXyzDegrees({10, 20, 30})), {10, 20, 30}, 1e-3f);
    // The same rotation as (180, 160, 180) - (0, 0, 0): near a hint on that side, that solution.
    const Vec3 other = eulerXyzFromMatrix(eulerXyzDegrees({10, 20, 30}), {190, 160, 210});
    expectVecNear(other, {190, 160, 210}, 1e-2f);
    // Gimbal lock (Y = 90°): X + Z is what is defined; Z stays at the hint.
    const Vec3 locked = eulerXyzFromMatrix(eulerXyzDegrees({30, 90, 0}), {0, 90, 0});
    expectVecNear(locked, {30, 90, 0}, 1e-2f);
}

TEST(BoneDragMaths, TurningAnEditAboutAModelAxis) {
    // Identity frame: a turn about Z adds to the Z angle.
    expectVecNear(rotateEditAboutAxis(Mat4::identity(), {0, 0, 0}, {0, 0, 1}, 90), {0, 0, 90},
                  1e-3f);
    expectVecNear(rotateEditAboutAxis(Mat4::identity(), {0, 0, 30}, {0, 0, 1}, 60), {0, 0, 90},
                  1e-3f);
    // The edit's frame is turned 90° about X (its Y axis is the model's Z): the model's Y axis is
    // the frame's -Z, so a 90° turn about model Y is -90° about the frame's Z.
    expectVecNear(rotateEditAboutAxis(rotationXDegrees(90), {0, 0, 0}, {0, 1, 0}, 90), {0, 0, -90},
                  1e-3f);
    // A scaled frame turns the same way (scale is not rotation).
    Mat4 scaled = rotationXDegrees(90);
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) scaled.at(r, c) *= 3;
    expectVecNear(rotateEditAboutAxis(scaled, {0, 0, 0}, {0, 1, 0}, 90), {0, 0, -90}, 1e-3f);
}

TEST(BoneDragMaths, MovingAnEditInTheModelFrame) {
    // Frame turned 90° about Z: model +X is the frame's -Y.
    expectVecNear(translateEdit(rotationZDegrees(90), {0, 0, 1}, {1, 0, 0}), {0, -1, 1}, 1e-5f);
    // A frame scaled by 2 needs half the edit; its translation plays no part.
    Mat4 scaled = translationMatrix({7, 8, 9});
    scaled.at(0, 0) = scaled.at(1, 1) = scaled.at(2, 2) = 2;
    expectVecNear(translateEdit(scaled, {0, 0, 0}, {1, 0, 0}), {0.5f, 0, 0}, 1e-5f);
    // A view-plane drag: 10 px right and 20 px up at 0.1 units per pixel.
    DragView view;
    view.unitsPerPixel = 0.1f;
    const BoneEdit moved = applyBoneDrag(BoneDragMode::Translate, {}, Mat4::identity(), view,
                                         {0, 0}, {0, 0}, {10, -20});
    expectVecNear(moved.translation, {1, 2, 0}, 1e-5f);
    expectVecNear(moved.rotation, {0, 0, 0}, 0);
}

namespace {

QString writeCylinder(const std::string& name, int bones) {
    FileMeshWriteOptions options;
    options.version = "4.00";
    const FileMeshWriteResult written = writeFileMesh(makeSkinnedCylinder(bones), 0, options);
    EXPECT_TRUE(written.ok());
    const auto path = test::tempDir("app_bone_drag") / name;
    test::writeFile(path, written.bytes);
    return QString::fromStdString(path.string());
}

void sendMouse(QWindow* w, QEvent::Type type, QPointF pos, Qt::MouseButton button,
               Qt::KeyboardModifiers modifiers) {
    const Qt::MouseButtons buttons =
        type == QEvent::MouseButtonRelease ? Qt::NoButton : Qt::MouseButtons(Qt::LeftButton);
    QMouseEvent e(type, pos, w->mapToGlobal(pos), type == QEvent::MouseMove ? Qt::NoButton : button,
                  buttons, modifiers);
    QCoreApplication::sendEvent(w, &e);
}

// A left drag from `from` to `to` in the render window; modifiers only on the press, as a user
// may let go of the keys while dragging.
void drag(QWindow* w, QPointF from, QPointF to, Qt::KeyboardModifiers modifiers) {
    sendMouse(w, QEvent::MouseButtonPress, from, Qt::LeftButton, modifiers);
    sendMouse(w, QEvent::MouseMove, to, Qt::LeftButton, Qt::NoModifier);
    sendMouse(w, QEvent::MouseButtonRelease, to, Qt::LeftButton, Qt::NoModifier);
}

Mat4 linear(const Mat4& m) {
    Mat4 r = m;
    r.at(0, 3) = r.at(1, 3) = r.at(2, 3) = 0;
    return r;
}

class BoneDrag : public ::testing::Test {
protected:
    void SetUp() override {
        window_.setInteractive(false);
        window_.resize(900, 700);
        window_.show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(&window_));
        QString error;
        ASSERT_TRUE(window_.openFileNow(writeCylinder("drag.mesh", 3), &error))
            << error.toStdString();
        pose_ = window_.poseController();
        controller_ = window_.findChild<BoneDragController*>();
        ASSERT_NE(controller_, nullptr);
        ASSERT_EQ(pose_->boneCount(), 3);
        render_ = window_.viewport()->renderWindow();
        ASSERT_NE(render_, nullptr);
    }
    MainWindow window_;
    PoseController* pose_ = nullptr;
    BoneDragController* controller_ = nullptr;
    QWindow* render_ = nullptr;
};

}  // namespace

TEST_F(BoneDrag, CtrlDragTurnsTheSelectedBoneAboutTheViewAxis) {
    window_.skeletonDock()->selectBone(2);
    ASSERT_EQ(pose_->selectedBone(), 2);
    const render::OrbitState camera = window_.viewport()->cameraController()->state();
    const Mat4 before = pose_->posedWorld()[2];
    QPointF joint;
    ASSERT_TRUE(controller_->jointPosition(2, &joint));
    // From the right of the joint to above it: a quarter turn counter-clockwise on screen.
    drag(render_, joint + QPointF(60, 0), joint + QPointF(0, -60), Qt::ControlModifier);

    const BoneEdit edit = pose_->boneEdit(2);
    EXPECT_FALSE(edit.isIdentity());
    // The bone turned 90° about the axis from the joint towards the viewer (Qt's quaternion).
    Qt3DRender::QCamera* cam = window_.viewport()->camera();
    const QVector3D toward = (cam->position() - cam->viewCenter()).normalized();
    const QMatrix3x3 q = QQuaternion::fromAxisAndAngle(toward, 90).toRotationMatrix();
    Mat4 turn;
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) turn.at(r, c) = q(r, c);
    expectMatrixNear(linear(pose_->posedWorld()[2]), turn * linear(before), 2e-3f, "world");
    // The joint stays where it was.
    for (int r = 0; r < 3; ++r)
        EXPECT_NEAR(pose_->posedWorld()[2].at(r, 3), before.at(r, 3), 1e-4f);
    // The camera did not orbit.
    EXPECT_EQ(window_.viewport()->cameraController()->state().yawDegrees, camera.yawDegrees);
    EXPECT_EQ(window_.viewport()->cameraController()->state().pitchDegrees, camera.pitchDegrees);
    // The dock's fields show the new edit.
    EXPECT_NEAR(window_.skeletonDock()->rotationField(0)->value(), edit.rotation.x, 0.05);
    EXPECT_NEAR(window_.skeletonDock()->rotationField(1)->value(), edit.rotation.y, 0.05);
    EXPECT_NEAR(window_.skeletonDock()->rotationField(2)->value(), edit.rotation.z, 0.05);
    // The skinned vertices are core's skinning with that edit.
    const Asset& asset = window_.document()->asset();
    const Skeleton& skeleton = asset.skeletons[std::size_t(pose_->skeletonIndex())];
    Pose expected = Pose::bind(skeleton);
    poseBone(expected, 2, edit.rotation, edit.translation);
    std::vector<Vec3> want;
    skinVertices(asset.meshes[0], skinningMatrices(skeleton, expected), want);
    const std::vector<Vec3> uploaded = positionsOf(pose_->uploadedVertices(0));
    EXPECT_LT(maxDistance(uploaded, want), 1e-4f);
    EXPECT_GT(maxDistance(uploaded, asset.meshes[0].positions), 0.1f);
    // For review: the posed view with the bone overlay, and the panel.
    const auto out = test::tempDir("app_bone_drag_out");
    render::CaptureOptions options;
    options.size = QSize(400, 300);
    window_.viewport()->captureImageBlocking(options).save(
        QString::fromStdString((out / "dragged.png").string()));
    window_.skeletonDock()->grab().save(QString::fromStdString((out / "dock.png").string()));

    // Reset Bone brings the bind pose back, and the fields follow.
    QPushButton* resetBone = nullptr;
    for (QPushButton* b : window_.skeletonDock()->findChildren<QPushButton*>())
        if (b->text() == QStringLiteral("Reset Bone")) resetBone = b;
    ASSERT_NE(resetBone, nullptr);
    resetBone->click();
    EXPECT_TRUE(pose_->boneEdit(2).isIdentity());
    EXPECT_EQ(window_.skeletonDock()->rotationField(2)->value(), 0.0);
    EXPECT_LT(maxDistance(positionsOf(pose_->uploadedVertices(0)), asset.meshes[0].positions),
              1e-5f);
}

TEST_F(BoneDrag, CtrlShiftDragMovesTheJointWithTheCursor) {
    window_.skeletonDock()->selectBone(1);
    QPointF joint;
    ASSERT_TRUE(controller_->jointPosition(1, &joint));
    const QPointF grab = joint + QPointF(50, 50);  // away from every joint: no re-selection
    drag(render_, grab, grab + QPointF(30, -20), Qt::ControlModifier | Qt::ShiftModifier);
    EXPECT_EQ(pose_->selectedBone(), 1);
    EXPECT_TRUE(pose_->boneEdit(1).rotation.x == 0 && pose_->boneEdit(1).rotation.z == 0);
    QPointF moved;
    ASSERT_TRUE(controller_->jointPosition(1, &moved));
    // Moved in the view plane at the joint's depth: it follows the cursor on screen.
    EXPECT_NEAR(moved.x(), joint.x() + 30, 1.0);
    EXPECT_NEAR(moved.y(), joint.y() - 20, 1.0);
    EXPECT_NEAR(window_.skeletonDock()->translationField(0)->value(),
                pose_->boneEdit(1).translation.x, 1e-3);
}

TEST_F(BoneDrag, CtrlClickOnAJointSelectsItsBone) {
    window_.skeletonDock()->selectBone(2);
    QPointF joint;
    ASSERT_TRUE(controller_->jointPosition(1, &joint));
    ASSERT_EQ(controller_->pickJoint(joint), 1);
    sendMouse(render_, QEvent::MouseButtonPress, joint + QPointF(2, 1), Qt::LeftButton,
              Qt::ControlModifier);
    sendMouse(render_, QEvent::MouseButtonRelease, joint + QPointF(2, 1), Qt::LeftButton,
              Qt::NoModifier);
    EXPECT_EQ(pose_->selectedBone(), 1);
    EXPECT_TRUE(pose_->boneEdit(1).isIdentity()) << "a click without moving poses nothing";
}

TEST_F(BoneDrag, PlainDragStillOrbitsAndLeavesTheBones) {
    window_.skeletonDock()->selectBone(2);
    const float yaw = window_.viewport()->cameraController()->state().yawDegrees;
    QPointF joint;
    ASSERT_TRUE(controller_->jointPosition(2, &joint));
    drag(render_, joint + QPointF(60, 0), joint + QPointF(0, -60), Qt::NoModifier);
    EXPECT_NE(window_.viewport()->cameraController()->state().yawDegrees, yaw);
    EXPECT_TRUE(pose_->boneEdit(2).isIdentity());
    // Ctrl + drag with no bone selected and no joint under the cursor orbits too.
    window_.skeletonDock()->selectBone(-1);
    const float yaw2 = window_.viewport()->cameraController()->state().yawDegrees;
    drag(render_, QPointF(5, 5), QPointF(45, 5), Qt::ControlModifier);
    EXPECT_NE(window_.viewport()->cameraController()->state().yawDegrees, yaw2);
    for (int b = 0; b < 3; ++b) EXPECT_TRUE(pose_->boneEdit(b).isIdentity()) << b;
}

TEST_F(BoneDrag, TheOneBoneOverlayFollowsThePoseAndTheViewMenu) {
    render::SkeletonView* view = pose_->skeletonView();
    ASSERT_NE(view, nullptr);
    // Per bone a cross of three lines at its joint, and a line to its parent (two of three
    // bones have one).
    EXPECT_EQ(view->lineCount(), 3 * 3 + 2);
    // Posing bone 1 carries bone 2's joint along: the overlay holds its posed position.
    pose_->setBoneEdit(1, {{0, 0, 45}, {}});
    const Mat4& w = pose_->posedWorld()[2];
    const QByteArray v = view->vertices();
    bool found = false;
    for (qsizetype at = 0; at + 12 <= v.size(); at += 12 * 4) {
        float p[3];
        std::memcpy(p, v.constData() + at, sizeof p);
        found =
            found || (std::fabs(p[0] - w.at(0, 3)) < 1e-4f &&
                      std::fabs(p[1] - w.at(1, 3)) < 1e-4f && std::fabs(p[2] - w.at(2, 3)) < 1e-4f);
    }
    EXPECT_TRUE(found);
    // View › Bones (K) switches that overlay, and the skeleton dock's check box follows.
    QAction* bones = window_.findChild<QAction*>(QStringLiteral("bonesAction"));
    ASSERT_NE(bones, nullptr);
    EXPECT_TRUE(bones->isChecked());
    bones->trigger();
    EXPECT_FALSE(pose_->skeletonVisible());
    EXPECT_EQ(view->lineCount(), 0);
    QCheckBox* show = window_.skeletonDock()->findChild<QCheckBox*>();
    ASSERT_NE(show, nullptr);
    EXPECT_FALSE(show->isChecked());
    show->setChecked(true);
    EXPECT_TRUE(bones->isChecked());
    EXPECT_EQ(view->lineCount(), 3 * 3 + 2);
}
