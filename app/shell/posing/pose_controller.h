// The posing state of the open document and what applies it: user bone poses (rotation in
// degrees + translation per bone), FACS control weights, the playing animation frame and the
// selected bone. Every change runs core's PoseEvaluator and skinVertices on the CPU and uploads
// only the skinned positions/normals into the scene's vertex buffers (SkinnedMeshUpdater); the
// skeleton overlay follows the posed bones and the selected bone's weights are shown as a heat
// map. The state itself — bone edits, selected bone, FACS weights and the animation shown (index
// and frame) — lives in the document's ViewState: the skeleton dock and the bone drag in the 3D
// view edit bones through this object, the Face and Animation docks write the view state, and
// this object follows every change (and writes the weights back while an animation's
// FaceControls curves move the face).
//
// Every skinned mesh is posed: meshes bound to the posed skeleton directly, and meshes bound to
// another skeleton of the asset through the bones of that skeleton that have the same names as
// bones of the posed one (assets that carry one copy of the rig per mesh).
#pragma once

#include <QObject>
#include <QString>
#include <QStringList>
#include <functional>
#include <memory>
#include <vector>

#include "document/view_state.h"
#include "meshscope/core/decode.h"
#include "meshscope/core/pose.h"
#include "meshscope/render/skinned_mesh_updater.h"

namespace Qt3DRender {
class QLayer;
}

namespace meshscope::render {
class AssetScene;
class SkeletonView;
}  // namespace meshscope::render

namespace meshscope::shell {

class AssetDocument;

class PoseController : public QObject {
    Q_OBJECT
public:
    PoseController(AssetDocument* document, render::AssetScene* scene, QObject* parent = nullptr);
    ~PoseController() override;

    // Rebuilds everything for the document's current asset (connected to assetChanged; call it
    // directly after AssetScene::setAsset when the order of slots matters).
    void reload();
    AssetDocument* document() const { return document_; }

    // The asset that is posed: the one shown in the scene (setShownAsset), else the document's.
    const Asset& asset() const;
    // Where the scene's asset comes from when it is not the document's (Roblox models show a
    // scene asset built from their parts); the function returns nullptr when it is the document's.
    void setShownAsset(std::function<const Asset*()> shown) { shown_ = std::move(shown); }
    // The skeleton that is posed: the first one a skinned mesh uses, else the first one; -1 none.
    int skeletonIndex() const { return skeleton_; }
    const Skeleton* skeleton() const;
    int boneCount() const;

    BoneEdit boneEdit(int bone) const;
    void setBoneEdit(int bone, const BoneEdit& edit);
    void resetBone(int bone);
    void resetAll();  // bones, FACS weights and animation

    // Selected bone: highlighted in the overlay, its weights shown as a heat map (-1: none).
    int selectedBone() const;
    void setSelectedBone(int bone);
    // The viewport's layer drawn over everything (Viewport::onTopLayer): the skeleton overlay is
    // put on it, so that the meshes never hide it.
    void setOverlayLayer(Qt3DRender::QLayer* layer) { overlayLayer_ = layer; }
    void setSkeletonVisible(bool visible);
    bool skeletonVisible() const { return skeletonVisible_; }
    // Half the size of the overlay's joint crosses (scene units): in proportion to the skeleton
    // and the meshes it moves, not to the whole scene (a place's baseplate).
    float jointSize() const { return jointSize_; }

    // FACS: the rig of the first mesh that has one (nullptr when none).
    const FacsRig* facsRig() const;
    // The weights are the document's (ViewState::facsWeights); these write them there.
    const std::vector<float>& facsWeights() const;
    void setFacsWeight(int control, float weight);
    void setFacsWeights(const std::vector<float>& weights);
    std::vector<float> facsCorrectiveWeights() const;
    // Face bones of the rig without a bone of that name in the skeleton.
    QStringList unmatchedFaceBones() const;
    // The rig's controls that move no vertex (core facsWeightReport, over the meshes that use
    // the rig: a control still in one of them but moving another is not listed).
    std::vector<int> stillFacsControls() const;
    // Sets a control by full name or abbreviation; false when the rig has no such control.
    bool setFacsByName(const QString& name, float weight);

    // Animations: the document's own (a model holding its rig and KeyframeSequences has them
    // baked), then those of a loaded file: a .sanim or .anim, or a Roblox model holding
    // KeyframeSequences, baked on the open rig (joints matched by part name).
    int animationCount() const;
    const Animation* animation(int index) const;
    QString animationName(int index) const;
    bool loadAnimationFile(const QString& path, QString* error = nullptr);
    // What the last successful load could not match: tracks that name no bone of the open
    // skeleton or rig (listed in the Animation panel).
    const QStringList& loadWarnings() const { return loadWarnings_; }
    // The file the loaded animations came from ("" when none is loaded): File › Export offers
    // it for glTF.
    const QString& loadedAnimationFile() const { return loadedFile_; }
    // Shows `frame` (fractional frames interpolate) of animation `index`; -1 stops animating.
    // Writes the document's ViewState (animationIndex, animationFrame).
    void setAnimationFrame(int index, double frame);
    // The animation shown: the ViewState's index when this controller has that animation, else -1.
    int animationIndex() const;
    // Where animation `index` takes each posed mesh (posedMeshes() order) over its frames (at
    // most 64 of them, evenly spread; no bone edits or face weights): boxes that contain every
    // skinned vertex, for framing the whole motion. Empty when nothing is posed or there is no
    // such animation.
    std::vector<Bounds> animationBounds(int index) const;
    // Each posed mesh's box as last uploaded (bone edits, face and animation frame applied).
    std::vector<Bounds> posedBounds() const;

    // Skinned vertices last uploaded for `mesh` (read back from the vertex buffer).
    QByteArray uploadedVertices(int mesh) const { return updater_.uploaded(mesh); }
    // Posed model-space bone transforms of the last update.
    const std::vector<Mat4>& posedWorld() const { return world_; }
    // The model-space frame in which bone `bone`'s edit applies: its posed world transform with
    // the edit (translation, then rotation) taken off. Identity for an invalid bone.
    Mat4 boneEditFrame(int bone) const;
    // Mesh indices that follow the posed skeleton (directly or through bone names).
    std::vector<int> posedMeshes() const;
    render::SkeletonView* skeletonView() const { return view_; }

signals:
    void reloaded();     // new asset: docks rebuild their lists
    void poseChanged();  // any pose, weight or frame change was applied
    void selectedBoneChanged(int bone);
    void skeletonVisibleChanged(bool visible);

private:
    void apply();
    ViewState& state() const;
    // Applies a change of the view state made by a dock (not while apply() writes it itself).
    void viewStateChanged();
    bool applying_ = false;
    void updateOverlay();
    void updateHeatMap();

    AssetDocument* document_;
    std::function<const Asset*()> shown_;
    QStringList loadWarnings_;
    QString loadedFile_;
    const Asset& animationSource() const;
    render::AssetScene* scene_;
    render::SkinnedMeshUpdater updater_;
    render::SkeletonView* view_ = nullptr;

    int skeleton_ = -1;
    int facs_ = -1;
    bool skeletonVisible_ = true;

    struct MeshPose {
        int mesh = -1;
        // For a mesh bound to another skeleton: per bone of that skeleton, the posed skeleton's
        // bone of the same name (-1: none); empty when the mesh uses the posed skeleton.
        std::vector<int> boneMap;
        Pose pose;  // the mapped pose (boneMap only)
        std::unique_ptr<PoseEvaluator> evaluator;
        std::vector<Vec3> positions, normals;
        bool usesFacs = false;
    };
    std::vector<MeshPose> meshes_;
    // `pose` (of the posed skeleton) as `mp` takes it: itself, or mapped by bone name into
    // `mapped` for a mesh bound to another copy of the rig.
    static const Pose& posedFor(const MeshPose& mp, const Pose& pose, Pose& mapped);
    std::unique_ptr<PoseEvaluator> overlayEvaluator_;
    std::vector<Mat4> world_;
    Pose pose_;
    // Half the size of the overlay's joint crosses: 1.2 % of what the skeleton moves.
    float jointHalfSize(const Asset& a, const Skeleton& s) const;
    float jointSize_ = 0.02f;
    Qt3DRender::QLayer* overlayLayer_ = nullptr;

    std::unique_ptr<DecodeResult> external_;  // a loaded .sanim or .anim
    // Sets the FACS weights that `anim`'s FaceControls channels drive at frame_.
    void applyFacsChannels(const Animation& anim);
};

// Applies the viewer's --pose ("JawDrop=1,l_EC=0.5": FACS controls by full name or
// abbreviation, weight 1 when no "=W" is given) and --bone ("NAME=rx,ry,rz" in degrees)
// arguments. Returns false with a message naming the bad part.
bool applyPoseArguments(PoseController& controller, const QString& pose, const QStringList& bones,
                        QString* error = nullptr);

}  // namespace meshscope::shell
