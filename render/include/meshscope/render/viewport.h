// The 3D view: a Qt3DExtras::Qt3DWindow inside a widget container, with its frame graph
// (gradient background, scene, offscreen capture branch), the asset scene, the ground grid and
// the orbit camera. Screenshots render offscreen at any size through a QRenderCapture.
#pragma once

#include <QImage>
#include <QList>
#include <QUrl>
#include <QWidget>
#include <functional>
#include <string_view>

#include "meshscope/core/asset.h"
#include "meshscope/core/axes.h"
#include "meshscope/core/part_meshes.h"

namespace Qt3DCore {
class QEntity;
}
namespace Qt3DExtras {
class Qt3DWindow;
}
namespace Qt3DRender {
class QCamera;
class QClearBuffers;
class QFrameGraphNode;
class QLayer;
class QRenderCapture;
class QSubtreeEnabler;
class QTexture2D;
}  // namespace Qt3DRender

namespace meshscope::render {

class AssetScene;
class BackgroundMaterial;
class CameraController;
class GroundGrid;
class Overlays;
class RobloxPartsView;

struct CaptureOptions {
    QSize size;                          // pixels; empty = the view's size
    bool transparentBackground = false;  // no gradient and no grid; alpha 0 where nothing is drawn
};

class Viewport : public QWidget {
    Q_OBJECT
public:
    explicit Viewport(QWidget* parent = nullptr);
    ~Viewport() override;

    // Samples per pixel of the 3D window's surface for views created after the call; -1 (the
    // default) keeps Qt 3D's 4. A run that only captures (--screenshot, thumbnails) sets 0: its
    // images come from a single-sampled target, and under llvmpipe a multisampled surface costs
    // 16 extra shader compilations (12 of them when the GL context is created), about a fifth
    // of the run's CPU time before the first frame.
    static void setWindowSamples(int samples);
    // Whether the OpenGL implementation windows get is a software rasterizer (Mesa's llvmpipe,
    // softpipe or swrast, SwiftShader, Microsoft's GDI Generic), where every sample is drawn by
    // the CPU. Asked once, of a small offscreen context; false when none can be made.
    static bool softwareRenderer();
    // The test behind it, on a GL_RENDERER string.
    static bool isSoftwareRendererName(std::string_view renderer);

    AssetScene* scene() const { return scene_; }
    // Normals and bounds (hidden until switched on); the bones are the pose controller's.
    Overlays* overlays() const { return overlays_; }
    // The layer drawn last, over everything else, in its own pass (the skeleton overlay): an
    // entity given it is never hidden by the scene, whatever order the scene's draws take.
    Qt3DRender::QLayer* onTopLayer() const { return onTopLayer_; }
    RobloxPartsView* robloxParts() const { return parts_; }
    CameraController* cameraController() const { return controller_; }
    Qt3DRender::QCamera* camera() const;
    QWindow* renderWindow() const;

    // Uploads the meshes and frames them; `asset` must outlive the next setAsset() or
    // clearAsset() (the normals overlay is built from it when first shown). A Roblox model shows
    // its parts, with the meshes `partMeshes` resolved for them (resolvePartMeshes of `asset`,
    // kept alive as long); without it every part is drawn as its shape.
    void setAsset(const Asset& asset, const PartMeshes* partMeshes = nullptr);
    void clearAsset();
    // Meshes drawn beside the scene only while their node is selected (a TerrainRegion's saved
    // terrain); translucent where their vertex colours are (water). Empty clears them. They do
    // not count in the scene's statistics or framing.
    void setSelectionMeshes(std::vector<Mesh> meshes);
    int selectionMeshCount() const;
    // Frames the selection meshes (angles kept); F or Home frame the scene again.
    void frameSelectionMeshes();
    // Physics shapes drawn over the scene (a union's convex hulls): translucent orange with
    // their edges, outside the scene's statistics and framing. Empty clears them.
    void setPhysicsMeshes(std::vector<Mesh> meshes);
    int physicsMeshCount() const;
    // The scene's meshes `meshes` that are physics shapes the file stores (isPhysicsMesh): drawn
    // as the physics hulls are (translucent orange wireframe) when `on`, hidden otherwise.
    void showStoredPhysicsMeshes(const std::vector<int>& meshes, bool on);
    // The up axis of the asset shown: Z for Second Life and Unigine, which then stand up as
    // their exports do (the camera orbits about Z and the grid lies in the XY plane).
    UpAxis upAxis() const { return upAxis_; }

    // Frame the scene (and the motion bounds) keeping the angles / from the default angles.
    void fitToView();
    void resetView();
    // Where the posed meshes go, a box per mesh (an animation's whole motion,
    // PoseController::animationBounds, or the pose shown): framed with the scene by fitToView
    // and resetView, so that a pose that reaches past the rest pose stays in the picture.
    // setAsset and clearAsset forget them; empty clears them.
    void setMotionBounds(std::vector<Bounds> boxes) { motionBounds_ = std::move(boxes); }
    const std::vector<Bounds>& motionBounds() const { return motionBounds_; }
    // Off: the window shows only the background colour and every frame renders the scene just
    // once, for captures (the command line's --screenshot: half the rasterising per frame).
    void setOnscreenDrawing(bool on);
    bool onscreenDrawing() const;
    void setGridVisible(bool visible);
    bool gridVisible() const;
    void setWireframe(bool on);
    bool wireframe() const;

    // Largest capture edge the GL implementation allows.
    int maxCaptureSize() const { return 16384; }
    // Renders the current view offscreen and calls `done` with the image (null on failure).
    // The first capture after a change can hold only the clear colour, so it captures until the
    // image holds something else (at most a few tries).
    void captureImage(const CaptureOptions& options, std::function<void(const QImage&)> done);
    // Same, waiting in a local event loop (for the command line and tests).
    QImage captureImageBlocking(const CaptureOptions& options, int timeoutMs = 20000);

    double frameTimeMs() const { return frameTimeMs_; }

signals:
    // setAsset() or clearAsset() has replaced the scene: panels that read the scene (levels of
    // detail, posing) rebuild from here rather than depending on the order of other slots.
    void assetShown();
    void statsChanged();
    void frameTimeChanged(double ms);
    void filesDropped(const QList<QUrl>& urls);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    static int& windowSamples();
    void buildFrameGraph();
    void startCapture();
    void finishCapture(const QImage& image);

    Qt3DExtras::Qt3DWindow* window_ = nullptr;
    QWidget* container_ = nullptr;
    Qt3DCore::QEntity* root_ = nullptr;
    Qt3DRender::QLayer* backgroundLayer_ = nullptr;
    Qt3DRender::QLayer* onTopLayer_ = nullptr;
    BackgroundMaterial* background_ = nullptr;
    GroundGrid* grid_ = nullptr;
    AssetScene* scene_ = nullptr;
    AssetScene* selectionScene_ = nullptr;
    Asset selectionAsset_;  // what selectionScene_ shows
    AssetScene* physicsScene_ = nullptr;
    Asset physicsAsset_;
    Overlays* overlays_ = nullptr;
    RobloxPartsView* parts_ = nullptr;
    CameraController* controller_ = nullptr;
    bool gridVisible_ = true;
    UpAxis upAxis_ = UpAxis::Y;  // of the asset shown (the camera and the grid follow it)
    std::vector<Bounds> motionBounds_;
    void fitScene(bool resetAngles);

    Qt3DRender::QSubtreeEnabler* onscreenBranch_ = nullptr;
    Qt3DRender::QFrameGraphNode* onscreenIdleClear_ = nullptr;

    // Offscreen capture branch.
    Qt3DRender::QCamera* captureCamera_ = nullptr;
    Qt3DRender::QSubtreeEnabler* captureBranch_ = nullptr;
    Qt3DRender::QSubtreeEnabler* captureBackground_ = nullptr;
    Qt3DRender::QClearBuffers* captureClear_ = nullptr;
    Qt3DRender::QTexture2D* captureColor_ = nullptr;
    Qt3DRender::QTexture2D* captureDepth_ = nullptr;
    Qt3DRender::QRenderCapture* capture_ = nullptr;
    struct PendingCapture {
        CaptureOptions options;
        std::function<void(const QImage&)> done;
        int attempts = 0;
        bool active = false;
        QImage previous;
        bool afterEmptyFrame = false;  // the previous attempt held only the clear colour
    } pending_;

    double frameTimeMs_ = 0;
};

}  // namespace meshscope::render
