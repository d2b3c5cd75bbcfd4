// How the open document is being viewed, as opposed to what it holds: the animation shown (its
// index, the current frame, playing, loop and speed), the level of detail pinned per model, the
// FACS control weights, the user's bone edits and the selected bone. Owned by AssetDocument
// (AssetDocument::viewState()); the Animation, Face and LOD docks and the PoseController read and
// write it and follow its signals, so that no panel keeps a private copy. Reset when a new file is
// opened (AssetDocument::setDecoded, clear); an animation loaded onto the open rig keeps it.
#pragma once

#include <QObject>
#include <map>
#include <vector>

#include "meshscope/core/types.h"

namespace meshscope::shell {

// A user's pose of one bone, on top of the animation: rotation then translation in the bone's
// bind frame.
struct BoneEdit {
    Vec3 rotation;     // degrees, Roblox XYZ Euler order (core's eulerXyzDegrees)
    Vec3 translation;  // in the bone's bind frame
    bool isIdentity() const;
    bool operator==(const BoneEdit&) const = default;
};

class ViewState : public QObject {
    Q_OBJECT
public:
    explicit ViewState(QObject* parent = nullptr);

    // --- Animation --------------------------------------------------------------------------
    // The animation shown (an index into PoseController's list; -1: none, the bind pose) and
    // its frame (fractional frames interpolate).
    int animationIndex() const { return animation_; }
    double animationFrame() const { return frame_; }
    void setAnimation(int index, double frame);
    bool playing() const { return playing_; }
    void setPlaying(bool playing);
    bool loop() const { return loop_; }
    void setLoop(bool loop);
    double speed() const { return speed_; }
    void setSpeed(double speed);  // clamped to [0.05, 8]

    // --- Level of detail --------------------------------------------------------------------
    // The level pinned for model `model` of the LOD panel; -1 when it is chosen from the camera.
    int pinnedLod(int model) const;
    void setPinnedLod(int model, int level);  // level < 0: back to Auto
    const std::map<int, int>& pinnedLods() const { return pinnedLods_; }

    // --- FACS -------------------------------------------------------------------------------
    // One weight (0..1) per base control of the posed FACS rig; empty without a rig.
    const std::vector<float>& facsWeights() const { return facsWeights_; }
    float facsWeight(int control) const;
    void setFacsWeights(std::vector<float> weights);  // clamped to [0, 1]
    void setFacsWeight(int control, float weight);    // ignored outside the list

    // --- Bones ------------------------------------------------------------------------------
    // One edit per bone of the posed skeleton (empty without one), and the selected bone
    // (highlighted, its weights shown as a heat map; -1: none).
    const std::vector<BoneEdit>& boneEdits() const { return boneEdits_; }
    BoneEdit boneEdit(int bone) const;  // identity outside the list
    void setBoneEdits(std::vector<BoneEdit> edits);
    void setBoneEdit(int bone, const BoneEdit& edit);  // ignored outside the list
    int selectedBone() const { return selectedBone_; }
    void setSelectedBone(int bone);  // < 0 or past the bone edits: none

    // Back to nothing shown: no animation, frame 0, paused, loop on, speed 1, nothing pinned,
    // no weights, no bone edits, no bone selected. Emits only wasReset(): the document calls it
    // before it replaces its asset, and what follows the asset rebuilds from assetChanged /
    // Viewport::assetShown.
    void reset();

signals:
    void animationChanged(int index, double frame);
    void playbackChanged();  // playing, loop or speed
    void pinnedLodChanged(int model, int level);
    void facsWeightsChanged();
    void boneEditsChanged();
    void selectedBoneChanged(int bone);
    void wasReset();

private:
    int animation_ = -1;
    double frame_ = 0;
    bool playing_ = false;
    bool loop_ = true;
    double speed_ = 1;
    std::map<int, int> pinnedLods_;
    std::vector<float> facsWeights_;
    std::vector<BoneEdit> boneEdits_;
    int selectedBone_ = -1;
};

}  // namespace meshscope::shell
