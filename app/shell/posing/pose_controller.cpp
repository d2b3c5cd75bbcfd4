// Posing state and its application to the scene (see pose_controller.h).
#include "posing/pose_controller.h"

#include <QFile>
#include <QFileInfo>
#include <Qt3DCore/QEntity>
#include <Qt3DRender/QLayer>
#include <algorithm>
#include <cmath>
#include <iterator>

#include "document/asset_document.h"
#include "document/view_state.h"
#include "meshscope/core/roblox_animation.h"
#include "meshscope/render/asset_scene.h"
#include "meshscope/render/skeleton_view.h"

namespace meshscope::shell {

PoseController::PoseController(AssetDocument* document, render::AssetScene* scene, QObject* parent)
    : QObject(parent), document_(document), scene_(scene), updater_(scene) {
    ViewState& s = state();
    connect(&s, &ViewState::facsWeightsChanged, this, &PoseController::viewStateChanged);
    connect(&s, &ViewState::animationChanged, this, &PoseController::viewStateChanged);
    connect(&s, &ViewState::boneEditsChanged, this, &PoseController::viewStateChanged);
    connect(&s, &ViewState::selectedBoneChanged, this, [this](int bone) {
        updateHeatMap();
        updateOverlay();
        emit selectedBoneChanged(bone);
    });
}

ViewState& PoseController::state() const {
    return document_->viewState();
}

void PoseController::viewStateChanged() {
    if (!applying_) apply();
}

const std::vector<float>& PoseController::facsWeights() const {
    return state().facsWeights();
}

int PoseController::animationIndex() const {
    const int index = state().animationIndex();
    return animation(index) ? index : -1;
}

PoseController::~PoseController() = default;

const Asset& PoseController::asset() const {
    if (shown_)
        if (const Asset* a = shown_()) return *a;
    return document_->asset();
}

const Skeleton* PoseController::skeleton() const {
    return skeleton_ >= 0 ? &asset().skeletons[std::size_t(skeleton_)] : nullptr;
}

int PoseController::boneCount() const {
    return skeleton() ? int(skeleton()->bones.size()) : 0;
}

const FacsRig* PoseController::facsRig() const {
    return facs_ >= 0 ? &asset().facs[std::size_t(facs_)] : nullptr;
}

void PoseController::reload() {
    meshes_.clear();
    overlayEvaluator_.reset();
    world_.clear();
    external_.reset();
    loadedFile_.clear();
    skeleton_ = facs_ = -1;
    view_ = nullptr;  // owned by the scene's entity tree, which setAsset replaced
    updater_.clear();

    const Asset& a = asset();
    for (const Mesh& m : a.meshes) {
        if (skeleton_ < 0 && m.skinned() && m.skeleton >= 0 && m.skeleton < int(a.skeletons.size()))
            skeleton_ = m.skeleton;
        if (facs_ < 0 && m.facs >= 0 && m.facs < int(a.facs.size())) facs_ = m.facs;
    }
    if (skeleton_ < 0 && !a.skeletons.empty()) skeleton_ = 0;
    if (facs_ < 0 && !a.facs.empty()) facs_ = 0;
    // The view state outlives a reload of the same document (a new file reset it already): keep
    // its weights when they fit the rig, and its animation when it is still there.
    applying_ = true;
    const std::size_t controls = facsRig() ? facsRig()->controlNames.size() : 0;
    if (state().facsWeights().size() != controls)
        state().setFacsWeights(std::vector<float>(controls, 0.0f));
    if (!animation(state().animationIndex())) state().setAnimation(-1, 0);
    // Bone edits and the selection likewise, when they fit the posed skeleton.
    if (state().boneEdits().size() != std::size_t(boneCount()))
        state().setBoneEdits(std::vector<BoneEdit>(std::size_t(boneCount())));
    applying_ = false;

    if (const Skeleton* s = skeleton()) {
        updater_.setAsset(a);
        for (int m = 0; m < int(a.meshes.size()); ++m) {
            const Mesh& mesh = a.meshes[std::size_t(m)];
            if (!mesh.skinned() || mesh.skeleton < 0 || mesh.skeleton >= int(a.skeletons.size()))
                continue;
            const Skeleton& bound = a.skeletons[std::size_t(mesh.skeleton)];
            MeshPose mp;
            mp.mesh = m;
            if (mesh.skeleton != skeleton_) {
                // Another copy of the rig: follow the posed skeleton's bones by name.
                int matched = 0;
                mp.boneMap.assign(bound.bones.size(), -1);
                for (std::size_t j = 0; j < bound.bones.size(); ++j) {
                    mp.boneMap[j] = s->find(bound.bones[j].name);
                    matched += mp.boneMap[j] >= 0;
                }
                if (matched == 0) continue;
            }
            mp.usesFacs = mesh.facs == facs_ && facs_ >= 0;
            mp.evaluator =
                std::make_unique<PoseEvaluator>(bound, mp.usesFacs ? facsRig() : nullptr);
            meshes_.push_back(std::move(mp));
        }
        overlayEvaluator_ = std::make_unique<PoseEvaluator>(*s, facsRig());
        jointSize_ = jointHalfSize(a, *s);
        // The overlay lives under the scene's asset entity, so it goes with the asset.
        if (Qt3DCore::QEntity* e = scene_->meshEntity(0)) {
            view_ = new render::SkeletonView(e->parentEntity());
            if (overlayLayer_) view_->addComponent(overlayLayer_);
        }
        if (state().selectedBone() >= 0) updateHeatMap();  // a selection kept from before
    }
    apply();
    emit reloaded();
}

float PoseController::jointHalfSize(const Asset& a, const Skeleton& s) const {
    // What the skeleton moves: its joints and the meshes it poses. A place's rig is a few studs
    // among a baseplate of thousands, which would give its joints crosses tens of studs long.
    Bounds rig;
    for (const Bone& bone : s.bones) {
        const Vec3 joint{bone.world.at(0, 3), bone.world.at(1, 3), bone.world.at(2, 3)};
        if (joint.finite()) rig.add(joint);
    }
    for (const MeshPose& mp : meshes_) {
        const Mesh& mesh = a.meshes[std::size_t(mp.mesh)];
        if (mesh.bounds.valid())
            rig.add(mesh.bounds);
        else
            for (const Vec3& p : mesh.positions)
                if (p.finite()) rig.add(p);
    }
    const auto largest = [](const Bounds& b) {
        const Vec3 size = b.size();
        return std::max({size.x, size.y, size.z});
    };
    if (rig.valid() && largest(rig) > 0) return largest(rig) * 0.012f;
    // One joint and nothing skinned: the size of what is shown.
    const Bounds shown = scene_->bounds().valid() ? scene_->bounds() : a.bounds();
    if (shown.valid() && largest(shown) > 0) return largest(shown) * 0.012f;
    return 0.02f;
}

BoneEdit PoseController::boneEdit(int bone) const {
    return state().boneEdit(bone);
}

void PoseController::setBoneEdit(int bone, const BoneEdit& edit) {
    state().setBoneEdit(bone, edit);  // viewStateChanged applies it
}

int PoseController::selectedBone() const {
    return state().selectedBone();
}

void PoseController::resetBone(int bone) {
    setBoneEdit(bone, {});
}

void PoseController::resetAll() {
    applying_ = true;
    state().setBoneEdits(std::vector<BoneEdit>(state().boneEdits().size()));
    state().setFacsWeights(std::vector<float>(state().facsWeights().size(), 0.0f));
    state().setAnimation(-1, 0);
    applying_ = false;
    apply();
}

void PoseController::setSelectedBone(int bone) {
    state().setSelectedBone(bone < boneCount() ? bone : -1);  // the connection updates the view
}

void PoseController::setSkeletonVisible(bool visible) {
    if (visible == skeletonVisible_) return;
    skeletonVisible_ = visible;
    updateOverlay();
    emit skeletonVisibleChanged(visible);
}

Mat4 PoseController::boneEditFrame(int bone) const {
    const Skeleton* s = skeleton();
    if (!s || !overlayEvaluator_ || bone < 0 || bone >= int(s->bones.size()) ||
        world_.size() != s->bones.size() || pose_.local.size() != s->bones.size())
        return Mat4::identity();
    // world[b] = world[parent] * inverse(bind[parent]) * bind[b] * local[b], and apply() builds
    // local[b] = animation * translation * rotation; the frame is everything before the edit.
    const BoneEdit e = state().boneEdit(bone);
    const Mat4 edit = translationMatrix(e.translation) * eulerXyzDegrees(e.rotation);
    const Mat4 animation = pose_.local[std::size_t(bone)] * inverse(edit);
    const Bone& b = s->bones[std::size_t(bone)];
    const int p = overlayEvaluator_->order().parent[std::size_t(bone)];
    if (p < 0) return b.world * animation;
    return world_[std::size_t(p)] * inverse(s->bones[std::size_t(p)].world) * b.world * animation;
}

std::vector<int> PoseController::posedMeshes() const {
    std::vector<int> out;
    for (const MeshPose& mp : meshes_) out.push_back(mp.mesh);
    return out;
}

void PoseController::setFacsWeight(int control, float weight) {
    state().setFacsWeight(control, weight);  // viewStateChanged applies it
}

void PoseController::setFacsWeights(const std::vector<float>& weights) {
    std::vector<float> w(state().facsWeights().size(), 0.0f);
    for (std::size_t i = 0; i < w.size() && i < weights.size(); ++i) w[i] = weights[i];
    state().setFacsWeights(std::move(w));
}

bool PoseController::setFacsByName(const QString& name, float weight) {
    const FacsRig* rig = facsRig();
    if (!rig) return false;
    const int c = findRigControl(*rig, name.toStdString());
    if (c < 0) return false;
    setFacsWeight(c, weight);
    return true;
}

std::vector<float> PoseController::facsCorrectiveWeights() const {
    const FacsRig* rig = facsRig();
    return rig && facsWeights().size() == rig->controlNames.size()
               ? correctiveWeights(*rig, facsWeights())
               : std::vector<float>{};
}

QStringList PoseController::unmatchedFaceBones() const {
    QStringList out;
    if (!overlayEvaluator_) {
        if (const FacsRig* rig = facsRig())
            for (const auto& n : rig->boneNames) out << QString::fromStdString(n);
        return out;
    }
    for (const auto& n : overlayEvaluator_->facsBinding().unmatched)
        out << QString::fromStdString(n);
    return out;
}

std::vector<int> PoseController::stillFacsControls() const {
    const FacsRig* rig = facsRig();
    if (!rig) return {};
    const Asset& a = asset();
    std::vector<int> still;
    bool first = true;
    for (const Mesh& mesh : a.meshes) {
        if (mesh.facs != facs_ || mesh.skeleton < 0 ||
            std::size_t(mesh.skeleton) >= a.skeletons.size())
            continue;
        const std::vector<int> here =
            facsWeightReport(*rig, a.skeletons[std::size_t(mesh.skeleton)], mesh).stillControls;
        if (first) {
            still = here;
            first = false;
            continue;
        }
        std::vector<int> both;
        std::set_intersection(still.begin(), still.end(), here.begin(), here.end(),
                              std::back_inserter(both));
        still = std::move(both);
    }
    return still;
}

const Asset& PoseController::animationSource() const {
    // The document: the shown asset of a Roblox model (its parts) holds no animations.
    return document_->hasAsset() && !document_->asset().animations.empty() ? document_->asset()
                                                                           : asset();
}

int PoseController::animationCount() const {
    return int(animationSource().animations.size()) +
           (external_ ? int(external_->asset.animations.size()) : 0);
}

const Animation* PoseController::animation(int index) const {
    const Asset& source = animationSource();
    const int own = int(source.animations.size());
    if (index < 0) return nullptr;
    if (index < own) return &source.animations[std::size_t(index)];
    if (external_ && index - own < int(external_->asset.animations.size()))
        return &external_->asset.animations[std::size_t(index - own)];
    return nullptr;
}

QString PoseController::animationName(int index) const {
    const Animation* a = animation(index);
    if (!a) return {};
    const QString name =
        a->name.empty() ? tr("animation %1").arg(index) : QString::fromStdString(a->name);
    return index >= int(animationSource().animations.size()) ? tr("%1 (loaded)").arg(name) : name;
}

bool PoseController::loadAnimationFile(const QString& path, QString* error) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        if (error) *error = file.errorString();
        return false;
    }
    const QByteArray bytes = file.readAll();
    DecodeOptions options;
    options.fileName = QFileInfo(path).fileName().toStdString();
    auto result = std::make_unique<DecodeResult>(
        decodeBytes(ByteSpan(reinterpret_cast<const std::uint8_t*>(bytes.constData()),
                             std::size_t(bytes.size())),
                    options));
    QStringList warnings;
    // Roblox KeyframeSequences (an .rbxm/.rbxmx as the Animation Editor saves them) are baked on
    // the open model's rig.
    if (result->asset.animations.empty() && document_->hasAsset()) {
        const std::vector<KeyframeSequence> sequences = extractKeyframeSequences(result->asset);
        const std::vector<CurveAnimation> curves = extractCurveAnimations(result->asset);
        if (!sequences.empty() || !curves.empty()) {
            const RobloxRig rig = extractRobloxRig(document_->asset());
            // A FACS head without a rig plays the face animation alone (face sliders): a
            // CurveAnimation's FaceControls curves or a KeyframeSequence's FaceControls
            // NumberPoses.
            const auto hasFace = [](const auto& a) { return !a.faceControls.empty(); };
            const bool faceOnly = rig.empty() && facsRig() &&
                                  (std::any_of(curves.begin(), curves.end(), hasFace) ||
                                   std::any_of(sequences.begin(), sequences.end(), hasFace));
            if (faceOnly) {
                for (const KeyframeSequence& seq : sequences)
                    if (hasFace(seq))
                        result->asset.animations.push_back(bakeKeyframeSequence(seq, rig, -1));
                for (const CurveAnimation& curve : curves)
                    if (hasFace(curve))
                        result->asset.animations.push_back(bakeCurveAnimation(curve, rig, -1));
            } else if (rig.empty()) {
                if (error)
                    *error =
                        tr("the file holds %n animation(s), but the open file has no rig "
                           "(parts joined by Motor6D) to play them on",
                           nullptr, int(sequences.size() + curves.size()));
                return false;
            } else {
                for (const KeyframeSequence& seq : sequences) {
                    RigSample sample;
                    sampleOnRig(seq, rig, 0, sample);
                    for (const std::string& t : sample.unmatchedTracks)
                        warnings << tr("%1: no rig joint drives the part \"%2\"")
                                        .arg(QString::fromStdString(seq.name),
                                             QString::fromStdString(t));
                    result->asset.animations.push_back(bakeKeyframeSequence(seq, rig, 0));
                }
                for (const CurveAnimation& curve : curves) {
                    RigSample sample;
                    sampleCurvesOnRig(curve, rig, 0, sample);
                    for (const std::string& t : sample.unmatchedTracks)
                        warnings << tr("%1: no rig joint drives the part \"%2\"")
                                        .arg(QString::fromStdString(curve.name),
                                             QString::fromStdString(t));
                    result->asset.animations.push_back(bakeCurveAnimation(curve, rig, 0));
                }
            }
        }
    }
    if (result->asset.animations.empty()) {
        if (error)
            *error = result->error ? QString::fromStdString(result->error->message)
                                   : tr("the file holds no animation");
        return false;
    }
    int matched = 0;
    // FACS channels the open face rig has (a CurveAnimation's FaceControls curves).
    if (const FacsRig* rig = facsRig())
        for (const FacsChannel& c : result->asset.animations.front().facsChannels) {
            if (findRigControl(*rig, c.control) >= 0)
                ++matched;
            else
                warnings << tr("FACS curve \"%1\" names no control of the open face")
                                .arg(QString::fromStdString(c.control));
        }
    if (const Skeleton* s = skeleton())
        for (const BoneTrack& t : result->asset.animations.front().tracks) {
            if (s->find(t.bone) >= 0)
                ++matched;
            else if (!t.positions.empty() || !t.rotations.empty())
                warnings << tr("track \"%1\" names no bone of the open skeleton")
                                .arg(QString::fromStdString(t.bone));
        }
    if (matched == 0) {
        if (error) *error = tr("no track of the animation names a bone of the open skeleton");
        return false;
    }
    warnings.removeDuplicates();
    loadWarnings_ = warnings;
    external_ = std::move(result);
    loadedFile_ = path;
    emit reloaded();
    return true;
}

void PoseController::setAnimationFrame(int index, double frame) {
    if (!animation(index)) index = -1;
    applying_ = true;
    state().setAnimation(index, frame);
    applying_ = false;
    apply();
}

void PoseController::applyFacsChannels(const Animation& anim) {
    const FacsRig* rig = facsRig();
    if (!rig || anim.facsChannels.empty()) return;
    // The FaceControls curves move the face sliders as the animation plays: each channel's
    // weight at this frame (lerped between frames) replaces its control's weight.
    for (const FacsChannel& ch : anim.facsChannels) {
        const int c = findRigControl(*rig, ch.control);
        if (c < 0 || std::size_t(c) >= facsWeights().size() || ch.weights.empty()) continue;
        const double f = std::clamp(state().animationFrame(), 0.0, double(ch.weights.size() - 1));
        const auto a = std::size_t(f);
        const std::size_t b = std::min(a + 1, ch.weights.size() - 1);
        const float t = float(f - double(a));
        state().setFacsWeight(c, ch.weights[a] + (ch.weights[b] - ch.weights[a]) * t);
    }
}

void PoseController::apply() {
    const Skeleton* s = skeleton();
    if (!s) return;
    const std::size_t n = s->bones.size();
    const bool wasApplying = applying_;
    applying_ = true;  // the FaceControls curves write the view state's weights
    if (const Animation* anim = animation(state().animationIndex())) {
        sampleAnimation(*anim, *s, state().animationFrame(), pose_);
        applyFacsChannels(*anim);
    } else {
        pose_.reset(n);
    }
    applying_ = wasApplying;
    // Weights that do not fit the rig (a reload is pending) pose nothing.
    const std::span<const float> weights =
        facsRig() && facsWeights().size() == facsRig()->controlNames.size()
            ? std::span<const float>(facsWeights())
            : std::span<const float>();
    const std::vector<BoneEdit>& edits = state().boneEdits();
    for (std::size_t b = 0; b < n && b < edits.size(); ++b) {
        const BoneEdit& e = edits[b];
        if (e.isIdentity()) continue;
        pose_.local[b] =
            pose_.local[b] * translationMatrix(e.translation) * eulerXyzDegrees(e.rotation);
    }
    const Asset& a = asset();
    for (MeshPose& mp : meshes_) {
        mp.evaluator->update(posedFor(mp, pose_, mp.pose),
                             mp.usesFacs ? weights : std::span<const float>());
        const Mesh& mesh = a.meshes[std::size_t(mp.mesh)];
        mp.evaluator->skin(mesh, mp.positions, &mp.normals);
        updater_.uploadSkinned(mp.mesh, mp.positions,
                               mesh.normals.empty() ? std::span<const Vec3>() : mp.normals);
    }
    if (overlayEvaluator_) {
        overlayEvaluator_->update(pose_, weights);
        world_ = overlayEvaluator_->world();
    }
    updateOverlay();
    emit poseChanged();
}

const Pose& PoseController::posedFor(const MeshPose& mp, const Pose& pose, Pose& mapped) {
    if (mp.boneMap.empty()) return pose;
    mapped.reset(mp.boneMap.size());
    for (std::size_t j = 0; j < mp.boneMap.size(); ++j)
        if (mp.boneMap[j] >= 0) mapped.local[j] = pose.local[std::size_t(mp.boneMap[j])];
    return mapped;
}

std::vector<Bounds> PoseController::posedBounds() const {
    std::vector<Bounds> out;
    out.reserve(meshes_.size());
    for (const MeshPose& mp : meshes_) out.push_back(boundsOf(mp.positions));
    return out;
}

std::vector<Bounds> PoseController::animationBounds(int index) const {
    std::vector<Bounds> out;
    const Skeleton* s = skeleton();
    const Animation* anim = animation(index);
    if (!s || !anim || meshes_.empty()) return out;
    const Asset& a = asset();
    // Evaluators of their own: the shown pose's keep their matrices.
    std::vector<InfluenceBoxes> boxes;
    std::vector<PoseEvaluator> evaluators;
    boxes.reserve(meshes_.size());
    evaluators.reserve(meshes_.size());
    for (const MeshPose& mp : meshes_) {
        const Mesh& mesh = a.meshes[std::size_t(mp.mesh)];
        boxes.push_back(influenceBoxes(mesh));
        evaluators.emplace_back(a.skeletons[std::size_t(mesh.skeleton)]);
    }
    out.resize(meshes_.size());
    constexpr std::uint32_t kMostSamples = 64;
    const std::uint32_t frames = std::max<std::uint32_t>(anim->frameCount, 1);
    const std::uint32_t samples = std::min(frames, kMostSamples);
    Pose pose, mapped;
    for (std::uint32_t i = 0; i < samples; ++i) {
        const double frame =
            samples == 1 ? 0.0 : double(frames - 1) * double(i) / double(samples - 1);
        sampleAnimation(*anim, *s, frame, pose);
        for (std::size_t k = 0; k < meshes_.size(); ++k) {
            const MeshPose& mp = meshes_[k];
            evaluators[k].update(posedFor(mp, pose, mapped));
            out[k].add(influenceBounds(boxes[k], a.meshes[std::size_t(mp.mesh)],
                                       evaluators[k].skinning()));
        }
    }
    return out;
}

void PoseController::updateOverlay() {
    if (!view_) return;
    const Skeleton* s = skeleton();
    if (!s || !skeletonVisible_ || !overlayEvaluator_) {
        view_->clearBones();
        return;
    }
    view_->setBones(world_, overlayEvaluator_->order().parent, jointSize_, state().selectedBone());
}

void PoseController::updateHeatMap() {
    const Asset& a = asset();
    for (const MeshPose& mp : meshes_) {
        int bone = state().selectedBone();
        if (!mp.boneMap.empty() && bone >= 0) {
            // The same-named bone of the mesh's own skeleton; one past the last bone (weight 0
            // everywhere) when it has none.
            const auto it = std::find(mp.boneMap.begin(), mp.boneMap.end(), bone);
            bone = int(it - mp.boneMap.begin());
        }
        updater_.setWeightHeatMap(mp.mesh, a.meshes[std::size_t(mp.mesh)], bone);
    }
}

bool applyPoseArguments(PoseController& controller, const QString& pose, const QStringList& bones,
                        QString* error) {
    auto fail = [error](const QString& message) {
        if (error) *error = message;
        return false;
    };
    if (!pose.trimmed().isEmpty()) {
        const FacsRig* rig = controller.facsRig();
        if (!rig) return fail(QObject::tr("--pose: the file has no FACS face rig"));
        std::vector<float> weights = controller.facsWeights();
        for (const QString& part : pose.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
            const QString name = part.section(QLatin1Char('='), 0, 0).trimmed();
            float w = 1.0f;
            if (part.contains(QLatin1Char('='))) {
                bool ok = false;
                w = part.section(QLatin1Char('='), 1).trimmed().toFloat(&ok);
                if (!ok || !std::isfinite(w))
                    return fail(QObject::tr("--pose: '%1' wants NAME=WEIGHT (0 to 1)").arg(part));
            }
            const int c = findRigControl(*rig, name.toStdString());
            if (c < 0)
                return fail(QObject::tr("--pose: the face rig has no control '%1'").arg(name));
            weights[std::size_t(c)] = std::clamp(w, 0.0f, 1.0f);
        }
        controller.setFacsWeights(weights);
    }
    for (const QString& arg : bones) {
        const Skeleton* s = controller.skeleton();
        if (!s) return fail(QObject::tr("--bone: the file has no skeleton"));
        const QString name = arg.section(QLatin1Char('='), 0, 0).trimmed();
        const QStringList angles = arg.section(QLatin1Char('='), 1).split(QLatin1Char(','));
        float v[3] = {0, 0, 0};
        bool ok = arg.contains(QLatin1Char('=')) && angles.size() == 3;
        for (int i = 0; ok && i < 3; ++i) v[i] = angles[i].trimmed().toFloat(&ok);
        if (!ok) return fail(QObject::tr("--bone: '%1' wants NAME=RX,RY,RZ (degrees)").arg(arg));
        int bone = s->find(name.toStdString());
        for (int b = 0; bone < 0 && b < int(s->bones.size()); ++b)
            if (QString::fromStdString(s->bones[std::size_t(b)].name)
                    .compare(name, Qt::CaseInsensitive) == 0)
                bone = b;
        if (bone < 0) return fail(QObject::tr("--bone: the skeleton has no bone '%1'").arg(name));
        BoneEdit e = controller.boneEdit(bone);
        e.rotation = {v[0], v[1], v[2]};
        controller.setBoneEdit(bone, e);
    }
    return true;
}

}  // namespace meshscope::shell
