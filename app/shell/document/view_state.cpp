// The document's view state: plain values with a change signal each.
#include "document/view_state.h"

#include <algorithm>

namespace meshscope::shell {

ViewState::ViewState(QObject* parent) : QObject(parent) {}

void ViewState::setAnimation(int index, double frame) {
    if (index < 0) {
        index = -1;
        frame = 0;
    }
    if (index == animation_ && frame == frame_) return;
    animation_ = index;
    frame_ = std::max(0.0, frame);
    emit animationChanged(animation_, frame_);
}

void ViewState::setPlaying(bool playing) {
    if (playing == playing_) return;
    playing_ = playing;
    emit playbackChanged();
}

void ViewState::setLoop(bool loop) {
    if (loop == loop_) return;
    loop_ = loop;
    emit playbackChanged();
}

void ViewState::setSpeed(double speed) {
    speed = std::clamp(speed, 0.05, 8.0);
    if (speed == speed_) return;
    speed_ = speed;
    emit playbackChanged();
}

int ViewState::pinnedLod(int model) const {
    const auto it = pinnedLods_.find(model);
    return it == pinnedLods_.end() ? -1 : it->second;
}

void ViewState::setPinnedLod(int model, int level) {
    if (model < 0 || pinnedLod(model) == std::max(level, -1)) return;
    if (level < 0)
        pinnedLods_.erase(model);
    else
        pinnedLods_[model] = level;
    emit pinnedLodChanged(model, std::max(level, -1));
}

float ViewState::facsWeight(int control) const {
    return control >= 0 && control < int(facsWeights_.size()) ? facsWeights_[std::size_t(control)]
                                                              : 0.0f;
}

void ViewState::setFacsWeights(std::vector<float> weights) {
    for (float& w : weights) w = std::clamp(w, 0.0f, 1.0f);
    if (weights == facsWeights_) return;
    facsWeights_ = std::move(weights);
    emit facsWeightsChanged();
}

void ViewState::setFacsWeight(int control, float weight) {
    if (control < 0 || control >= int(facsWeights_.size())) return;
    weight = std::clamp(weight, 0.0f, 1.0f);
    if (facsWeights_[std::size_t(control)] == weight) return;
    facsWeights_[std::size_t(control)] = weight;
    emit facsWeightsChanged();
}

bool BoneEdit::isIdentity() const {
    return rotation.x == 0 && rotation.y == 0 && rotation.z == 0 && translation.x == 0 &&
           translation.y == 0 && translation.z == 0;
}

BoneEdit ViewState::boneEdit(int bone) const {
    return bone >= 0 && bone < int(boneEdits_.size()) ? boneEdits_[std::size_t(bone)] : BoneEdit{};
}

void ViewState::setBoneEdits(std::vector<BoneEdit> edits) {
    if (edits == boneEdits_) return;
    boneEdits_ = std::move(edits);
    if (selectedBone_ >= int(boneEdits_.size())) setSelectedBone(-1);
    emit boneEditsChanged();
}

void ViewState::setBoneEdit(int bone, const BoneEdit& edit) {
    if (bone < 0 || bone >= int(boneEdits_.size()) || boneEdits_[std::size_t(bone)] == edit) return;
    boneEdits_[std::size_t(bone)] = edit;
    emit boneEditsChanged();
}

void ViewState::setSelectedBone(int bone) {
    if (bone < 0 || bone >= int(boneEdits_.size())) bone = -1;
    if (bone == selectedBone_) return;
    selectedBone_ = bone;
    emit selectedBoneChanged(bone);
}

void ViewState::reset() {
    animation_ = -1;
    frame_ = 0;
    playing_ = false;
    loop_ = true;
    speed_ = 1;
    pinnedLods_.clear();
    facsWeights_.clear();
    boneEdits_.clear();
    selectedBone_ = -1;
    emit wasReset();
}

}  // namespace meshscope::shell
