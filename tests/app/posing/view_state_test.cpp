// The document's view state (AssetDocument::viewState): what the Animation and Face docks show
// lives there, the docks and the PoseController write and follow it, a new file resets it and an
// animation loaded onto the open rig keeps it.
#include "document/view_state.h"

#include <gtest/gtest.h>

#include <QDoubleSpinBox>
#include <QSignalSpy>
#include <QSlider>
#include <QTest>
#include <cmath>

#include "document/asset_document.h"
#include "meshscope/core/mesh_generators.h"
#include "meshscope/core/pose.h"
#include "meshscope/core/roblox_mesh_writer.h"
#include "meshscope/core/unigine_writer.h"
#include "posing/animation_dock.h"
#include "posing/facs_dock.h"
#include "posing/lod_dock.h"
#include "posing/pose_controller.h"
#include "posing/skeleton_dock.h"
#include "support/rig_fixtures.h"
#include "support/test_support.h"
#include "support/window_test_support.h"
#include "vertex_compare.h"
#include "window/main_window.h"

using namespace meshscope;
using namespace meshscope::shell;
using meshscope::test::maxDistance;
using meshscope::test::positionsOf;

namespace {

using test::openShown;

QString writeTube(const char* file) {
    const UnigineWriteResult written =
        writeUnigineSkinnedMesh(test::bendingTube(4, "bend", 0.5f / 4));
    EXPECT_TRUE(written.ok());
    const auto path = test::tempDir("app_view_state") / file;
    test::writeFile(path, written.bytes);
    return QString::fromStdString(path.string());
}

QString writeFacsHead() {
    return QString::fromStdString(
        test::writeFileMeshFixture("app_view_state", "head.mesh", makeFacsHead(), "5.00").string());
}

// A shown main window and the file it has open: the document's view state and the posing that
// follows it.
class ViewStateWindow : public ::testing::Test {
protected:
    void open(const QString& path) { openShown(window, path); }
    ViewState& state() { return window.document()->viewState(); }
    PoseController* pose() { return window.poseController(); }
    MainWindow window;
};

}  // namespace

TEST(ViewState, SettersClampAndSignalOnlyOnChange) {
    ViewState state;
    QSignalSpy animation(&state, &ViewState::animationChanged);
    QSignalSpy playback(&state, &ViewState::playbackChanged);
    QSignalSpy lods(&state, &ViewState::pinnedLodChanged);
    QSignalSpy weights(&state, &ViewState::facsWeightsChanged);
    EXPECT_EQ(state.animationIndex(), -1);
    state.setAnimation(2, 1.5);
    state.setAnimation(2, 1.5);
    EXPECT_EQ(animation.count(), 1);
    EXPECT_EQ(state.animationFrame(), 1.5);
    state.setAnimation(-7, 3);  // no animation: frame 0
    EXPECT_EQ(state.animationIndex(), -1);
    EXPECT_EQ(state.animationFrame(), 0.0);
    state.setSpeed(100);
    EXPECT_EQ(state.speed(), 8.0);
    state.setLoop(true);  // already on
    EXPECT_EQ(playback.count(), 1);
    state.setPinnedLod(3, 2);
    EXPECT_EQ(state.pinnedLod(3), 2);
    EXPECT_EQ(state.pinnedLod(0), -1);
    state.setPinnedLod(3, -5);
    EXPECT_EQ(state.pinnedLod(3), -1);
    EXPECT_EQ(lods.count(), 2);
    state.setFacsWeights({2.0f, -1.0f, 0.25f});
    EXPECT_EQ(state.facsWeights(), (std::vector<float>{1.0f, 0.0f, 0.25f}));
    state.setFacsWeight(7, 1.0f);  // outside the list
    state.setFacsWeight(1, 0.25f);
    EXPECT_EQ(weights.count(), 2);
    EXPECT_FLOAT_EQ(state.facsWeight(1), 0.25f);
    state.setPinnedLod(1, 1);
    state.setPlaying(true);
    QSignalSpy reset(&state, &ViewState::wasReset);
    state.reset();
    EXPECT_EQ(reset.count(), 1);
    EXPECT_FALSE(state.playing());
    EXPECT_TRUE(state.pinnedLods().empty());
    EXPECT_TRUE(state.facsWeights().empty());
    EXPECT_EQ(state.speed(), 1.0);
}

TEST(ViewState, BoneEditsAndSelectionStayInsideTheSkeleton) {
    ViewState state;
    QSignalSpy edits(&state, &ViewState::boneEditsChanged);
    QSignalSpy selected(&state, &ViewState::selectedBoneChanged);
    state.setBoneEdit(0, {{10, 0, 0}, {}});  // no skeleton yet: ignored
    state.setSelectedBone(0);
    EXPECT_EQ(edits.count(), 0);
    EXPECT_EQ(state.selectedBone(), -1);
    state.setBoneEdits(std::vector<BoneEdit>(3));
    state.setBoneEdit(2, {{0, 45, 0}, {0, 1, 0}});
    state.setBoneEdit(2, {{0, 45, 0}, {0, 1, 0}});  // unchanged: no signal
    EXPECT_EQ(edits.count(), 2);
    EXPECT_EQ(state.boneEdit(2).rotation.y, 45.0f);
    EXPECT_TRUE(state.boneEdit(9).isIdentity());
    state.setSelectedBone(2);
    EXPECT_EQ(state.selectedBone(), 2);
    state.setBoneEdits(std::vector<BoneEdit>(2));  // a smaller skeleton drops the selection
    EXPECT_EQ(state.selectedBone(), -1);
    EXPECT_EQ(selected.count(), 2);
    state.setSelectedBone(1);
    state.reset();
    EXPECT_TRUE(state.boneEdits().empty());
    EXPECT_EQ(state.selectedBone(), -1);
}

TEST_F(ViewStateWindow, SkeletonDockEditsTheDocumentsBonesAndANewFileResetsThem) {
    ASSERT_NO_FATAL_FAILURE(open(writeTube("bones.smesh")));
    ViewState& state = this->state();
    PoseController* pose = this->pose();
    SkeletonDock* dock = window.skeletonDock();
    ASSERT_GE(pose->boneCount(), 2);
    ASSERT_EQ(state.boneEdits().size(), std::size_t(pose->boneCount()));
    const std::vector<Vec3> rest = positionsOf(pose->uploadedVertices(0));

    // The dock's selection and fields write the document's state.
    dock->selectBone(1);
    EXPECT_EQ(state.selectedBone(), 1);
    EXPECT_EQ(pose->selectedBone(), 1);
    dock->rotationField(2)->setValue(60.0);
    EXPECT_FLOAT_EQ(state.boneEdit(1).rotation.z, 60.0f);
    const std::vector<Vec3> bent = positionsOf(pose->uploadedVertices(0));
    EXPECT_GT(maxDistance(bent, rest), 1e-3f);

    // Written by someone else, the state poses the mesh and the dock shows it.
    state.setBoneEdit(1, {});
    EXPECT_LT(maxDistance(positionsOf(pose->uploadedVertices(0)), rest), 1e-5f);
    EXPECT_EQ(dock->rotationField(2)->value(), 0.0);
    state.setSelectedBone(0);
    EXPECT_EQ(pose->selectedBone(), 0);

    // An animation loaded onto the open rig keeps the edits and the selection.
    state.setBoneEdit(0, {{0, 0, 30}, {}});
    const UnigineWriteResult anim = writeUnigineAnimation(test::bendingTube(6, "more", 0.5f / 6));
    ASSERT_TRUE(anim.ok()) << *anim.error;
    const auto animPath = test::tempDir("app_view_state") / "bones.sanim";
    test::writeFile(animPath, anim.bytes);
    QString error;
    ASSERT_TRUE(window.animationDock()->loadFile(QString::fromStdString(animPath.string()), &error))
        << error.toStdString();
    EXPECT_FLOAT_EQ(state.boneEdit(0).rotation.z, 30.0f);
    EXPECT_EQ(state.selectedBone(), 0);

    // A new file starts from nothing.
    ASSERT_NO_FATAL_FAILURE(open(writeTube("other_bones.smesh")));
    EXPECT_EQ(state.selectedBone(), -1);
    ASSERT_EQ(state.boneEdits().size(), std::size_t(pose->boneCount()));
    for (const BoneEdit& e : state.boneEdits()) EXPECT_TRUE(e.isIdentity());
}

TEST_F(ViewStateWindow, AnimationDockScrubsTheDocumentsStateAndANewFileResetsIt) {
    ASSERT_NO_FATAL_FAILURE(open(writeTube("tube.smesh")));
    ViewState& state = this->state();
    AnimationDock* dock = window.animationDock();
    PoseController* pose = this->pose();
    ASSERT_EQ(pose->animationCount(), 1);
    EXPECT_EQ(state.animationIndex(), -1) << "nothing plays until asked";

    dock->setCurrentAnimation(0);
    QSignalSpy changed(&state, &ViewState::animationChanged);
    dock->timeline()->setFocus();
    QTest::keyClick(dock->timeline(), Qt::Key_End);  // scrub to the last frame
    EXPECT_GE(changed.count(), 1);
    EXPECT_EQ(state.animationIndex(), 0);
    EXPECT_EQ(state.animationFrame(), 3.0);
    EXPECT_EQ(pose->animationIndex(), 0);
    const std::vector<Vec3> atEnd = positionsOf(pose->uploadedVertices(0));

    // Written by someone else, the state poses the mesh and moves the dock's play head.
    state.setAnimation(0, 0.0);
    EXPECT_EQ(dock->frame(), 0.0);
    EXPECT_EQ(dock->timeline()->frame(), 0.0);
    EXPECT_GT(maxDistance(positionsOf(pose->uploadedVertices(0)), atEnd), 1e-3f);

    // Playback settings are the state's too.
    dock->setPlaying(true);
    EXPECT_TRUE(state.playing());
    state.setSpeed(2.0);
    state.setLoop(false);
    dock->advance(10.0);  // past the end without looping: stops at the last frame
    EXPECT_FALSE(state.playing());
    EXPECT_EQ(state.animationFrame(), 3.0);

    // An animation loaded onto the open rig keeps the state (speed, loop) and shows its own.
    const UnigineWriteResult anim = writeUnigineAnimation(test::bendingTube(6, "more", 0.5f / 6));
    ASSERT_TRUE(anim.ok()) << *anim.error;
    const auto animPath = test::tempDir("app_view_state") / "more.sanim";
    test::writeFile(animPath, anim.bytes);
    QString error;
    ASSERT_TRUE(dock->loadFile(QString::fromStdString(animPath.string()), &error))
        << error.toStdString();
    EXPECT_EQ(state.animationIndex(), 1);
    EXPECT_EQ(state.speed(), 2.0);

    // A new file starts from nothing.
    ASSERT_NO_FATAL_FAILURE(open(writeTube("other.smesh")));
    EXPECT_EQ(state.animationIndex(), -1);
    EXPECT_EQ(state.animationFrame(), 0.0);
    EXPECT_EQ(state.speed(), 1.0);
    EXPECT_FALSE(state.playing());
}

TEST_F(ViewStateWindow, FaceDockShowsAndWritesTheDocumentsWeights) {
    ASSERT_NO_FATAL_FAILURE(open(writeFacsHead()));
    ViewState& state = this->state();
    FacsDock* dock = window.facsDock();
    PoseController* pose = this->pose();
    ASSERT_NE(pose->facsRig(), nullptr);
    ASSERT_EQ(state.facsWeights().size(), pose->facsRig()->controlNames.size());
    ASSERT_GE(dock->sliderCount(), 2);
    const std::vector<Vec3> rest = positionsOf(pose->uploadedVertices(0));

    // The document's weights move the slider and pose the head.
    state.setFacsWeight(0, 1.0f);  // JawDrop
    EXPECT_EQ(dock->slider(0)->value(), dock->slider(0)->maximum());
    EXPECT_FLOAT_EQ(pose->facsWeights()[0], 1.0f);
    EXPECT_GT(maxDistance(positionsOf(pose->uploadedVertices(0)), rest), 1e-3f);

    // The slider writes the document's weights.
    dock->slider(1)->setValue(dock->slider(1)->maximum() / 2);
    EXPECT_FLOAT_EQ(state.facsWeight(1), 0.5f);

    // Another file (no rig) empties them.
    ASSERT_NO_FATAL_FAILURE(open(writeTube("after_head.smesh")));
    EXPECT_TRUE(state.facsWeights().empty());
}

TEST_F(ViewStateWindow, PinnedLevelsOfDetailAreTheDocumentsAndSurviveARebuildOfTheLodPanel) {
    const QString path = QString::fromStdString(
        test::writeFileMeshFixture("app_view_state", "lods.mesh", makeLodSphere(3), "4.00")
            .string());
    ASSERT_NO_FATAL_FAILURE(open(path));
    ViewState& state = this->state();
    LodDock* dock = window.lodDock();
    ASSERT_EQ(dock->modelCount(), 1);
    ASSERT_EQ(dock->levelCount(), 3);
    EXPECT_EQ(state.pinnedLod(0), -1);
    dock->pinLevel(2);
    EXPECT_EQ(state.pinnedLod(0), 2);
    // Written by someone else, the panel and the scene follow.
    state.setPinnedLod(0, 1);
    EXPECT_FALSE(dock->isAuto());
    EXPECT_EQ(dock->drawnLevel(), 1);
    // The panel's models are rebuilt from the document: the pin is kept.
    dock->setAsset(&window.document()->asset());
    EXPECT_EQ(dock->drawnLevel(), 1);
    EXPECT_FALSE(dock->isAuto());
    dock->setAuto(true);
    EXPECT_EQ(state.pinnedLod(0), -1);
    dock->pinLevel(2);
    // Another file forgets it.
    ASSERT_NO_FATAL_FAILURE(open(path));
    EXPECT_EQ(state.pinnedLod(0), -1);
    EXPECT_TRUE(dock->isAuto());
}
