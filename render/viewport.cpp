// The 3D view (see viewport.h).
#include "meshscope/render/viewport.h"

#include <QCoreApplication>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QKeyEvent>
#include <QMimeData>
#include <QOffscreenSurface>
#include <QOpenGLContext>
#include <QOpenGLFunctions>
#include <QSurfaceFormat>
#include <QTimer>
#include <QVBoxLayout>
#include <Qt3DCore/QAttribute>
#include <Qt3DCore/QBuffer>
#include <Qt3DCore/QEntity>
#include <Qt3DCore/QGeometry>
#include <Qt3DExtras/Qt3DWindow>
#include <Qt3DLogic/QFrameAction>
#include <Qt3DRender/QCamera>
#include <Qt3DRender/QCameraSelector>
#include <Qt3DRender/QClearBuffers>
#include <Qt3DRender/QGeometryRenderer>
#include <Qt3DRender/QLayer>
#include <Qt3DRender/QLayerFilter>
#include <Qt3DRender/QNoDraw>
#include <Qt3DRender/QRenderCapture>
#include <Qt3DRender/QRenderSettings>
#include <Qt3DRender/QRenderSurfaceSelector>
#include <Qt3DRender/QRenderTarget>
#include <Qt3DRender/QRenderTargetOutput>
#include <Qt3DRender/QRenderTargetSelector>
#include <Qt3DRender/QSortPolicy>
#include <Qt3DRender/QSubtreeEnabler>
#include <Qt3DRender/QTexture>
#include <Qt3DRender/QViewport>
#include <algorithm>

#include "meshscope/render/asset_scene.h"
#include "meshscope/render/camera_controller.h"
#include "meshscope/render/ground_grid.h"
#include "meshscope/render/materials.h"
#include "meshscope/render/overlays.h"
#include "meshscope/render/roblox_parts.h"

namespace meshscope::render {

using namespace Qt3DRender;

namespace {

const QColor kTop(58, 64, 76);
const QColor kBottom(22, 24, 29);
constexpr int kMaxCaptureAttempts = 8;
// Physics shapes (union hulls, a file's physics meshes): translucent orange.
const QColor kPhysicsColor(255, 140, 40, 110);

// Clears, then draws the background layer, then the opaque scene (everything on none of the
// layers), then the translucent layer back to front (its materials blend and write no depth),
// then the on-top layer (overlays drawn over everything, such as the skeleton), from `camera`.
// A capture reads the target after the last branch.
QRenderCapture* addViewBranches(QFrameGraphNode* parent, QLayer* backgroundLayer,
                                QLayer* translucentLayer, QLayer* onTopLayer, QCamera* camera,
                                QClearBuffers** clearOut, QSubtreeEnabler** backgroundOut,
                                bool withCapture) {
    auto* clear = new QClearBuffers(parent);
    clear->setBuffers(QClearBuffers::ColorDepthBuffer);
    clear->setClearColor(kBottom);
    new QNoDraw(clear);
    if (clearOut) *clearOut = clear;

    auto* bgEnabler = new QSubtreeEnabler(parent);
    auto* bgFilter = new QLayerFilter(bgEnabler);
    bgFilter->addLayer(backgroundLayer);
    auto* bgCamera = new QCameraSelector(bgFilter);
    bgCamera->setCamera(camera);
    if (backgroundOut) *backgroundOut = bgEnabler;

    auto* sceneFilter = new QLayerFilter(parent);
    sceneFilter->addLayer(backgroundLayer);
    sceneFilter->addLayer(translucentLayer);
    sceneFilter->addLayer(onTopLayer);
    sceneFilter->setFilterMode(QLayerFilter::DiscardAnyMatchingLayers);
    auto* sceneCamera = new QCameraSelector(sceneFilter);
    sceneCamera->setCamera(camera);

    auto* translucentFilter = new QLayerFilter(parent);
    translucentFilter->addLayer(translucentLayer);
    auto* translucentCamera = new QCameraSelector(translucentFilter);
    translucentCamera->setCamera(camera);
    auto* sort = new QSortPolicy(translucentCamera);
    sort->setSortTypes(QList<QSortPolicy::SortType>{QSortPolicy::BackToFront});

    // Last, so that nothing drawn in the same pass can hide it (the order of one pass's draws
    // is the renderer's).
    auto* onTopFilter = new QLayerFilter(parent);
    onTopFilter->addLayer(onTopLayer);
    auto* onTopCamera = new QCameraSelector(onTopFilter);
    onTopCamera->setCamera(camera);
    return withCapture ? new QRenderCapture(onTopCamera) : nullptr;
}

bool holdsMoreThanClear(const QImage& image, QRgb clear) {
    if (image.isNull()) return false;
    for (int y = 0; y < image.height(); ++y) {
        const QRgb* row = reinterpret_cast<const QRgb*>(image.constScanLine(y));
        for (int x = 0; x < image.width(); ++x)
            if (row[x] != clear) return true;
    }
    return false;
}

}  // namespace

int& Viewport::windowSamples() {
    static int samples = -1;
    return samples;
}

void Viewport::setWindowSamples(int samples) {
    windowSamples() = samples;
}

bool Viewport::isSoftwareRendererName(std::string_view renderer) {
    for (std::string_view name :
         {"llvmpipe", "softpipe", "Software Rasterizer", "swrast", "SwiftShader", "GDI Generic"})
        if (renderer.find(name) != std::string_view::npos) return true;
    return false;
}

bool Viewport::softwareRenderer() {
    static const bool software = [] {
        QOpenGLContext context;
        if (!context.create()) return false;
        QOffscreenSurface surface;
        surface.setFormat(context.format());
        surface.create();
        if (!surface.isValid() || !context.makeCurrent(&surface)) return false;
        const auto* name =
            reinterpret_cast<const char*>(context.functions()->glGetString(GL_RENDERER));
        const bool result = name && isSoftwareRendererName(name);
        context.doneCurrent();
        return result;
    }();
    return software;
}

Viewport::Viewport(QWidget* parent) : QWidget(parent) {
    window_ = new Qt3DExtras::Qt3DWindow(nullptr, Qt3DRender::API::OpenGL);
    if (const int samples = windowSamples(); samples >= 0) {
        // Qt3DWindow asks for a 4-sample surface and makes that the default format, which Qt 3D
        // creates its GL context with: both must change before the window is shown.
        QSurfaceFormat format = window_->format();
        format.setSamples(samples);
        window_->setFormat(format);
        QSurfaceFormat::setDefaultFormat(format);
    }
    window_->installEventFilter(this);
    container_ = QWidget::createWindowContainer(window_, this);
    container_->setFocusPolicy(Qt::StrongFocus);
    container_->setMinimumSize(160, 120);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(container_);
    setAcceptDrops(true);

    root_ = new Qt3DCore::QEntity();
    root_->setObjectName(QStringLiteral("root"));

    // Background: one screen-covering triangle on its own layer, drawn first.
    backgroundLayer_ = new QLayer(root_);
    auto* bg = new Qt3DCore::QEntity(root_);
    bg->setObjectName(QStringLiteral("background"));
    auto* bgGeometry = new Qt3DCore::QGeometry(bg);
    auto* bgBuffer = new Qt3DCore::QBuffer(bgGeometry);
    const float tri[] = {-1, -1, 0, 3, -1, 0, -1, 3, 0};
    bgBuffer->setData(QByteArray(reinterpret_cast<const char*>(tri), sizeof tri));
    bgGeometry->addAttribute(
        new Qt3DCore::QAttribute(bgBuffer, Qt3DCore::QAttribute::defaultPositionAttributeName(),
                                 Qt3DCore::QAttribute::Float, 3, 3, 0, 12, bgGeometry));
    auto* bgRenderer = new QGeometryRenderer(bg);
    bgRenderer->setGeometry(bgGeometry);
    bgRenderer->setVertexCount(3);
    background_ = new BackgroundMaterial(bg);
    background_->setColors(kTop, kBottom);
    bg->addComponent(bgRenderer);
    bg->addComponent(background_);
    bg->addComponent(backgroundLayer_);

    onTopLayer_ = new QLayer(root_);
    onTopLayer_->setObjectName(QStringLiteral("on top"));

    grid_ = new GroundGrid(root_);
    scene_ = new AssetScene(root_, nullptr, this);
    overlays_ = new Overlays(root_, this);
    parts_ = new RobloxPartsView(root_, window_, window_->camera(), this);
    selectionScene_ = new AssetScene(root_, nullptr, this);
    physicsScene_ = new AssetScene(root_, nullptr, this);
    connect(scene_, &AssetScene::statsChanged, this, &Viewport::statsChanged);

    auto* frame = new Qt3DLogic::QFrameAction(root_);
    root_->addComponent(frame);
    connect(frame, &Qt3DLogic::QFrameAction::triggered, this, [this](float dt) {
        // Exponential average so the status bar does not flicker.
        const double ms = double(dt) * 1000.0;
        frameTimeMs_ = frameTimeMs_ == 0 ? ms : frameTimeMs_ * 0.9 + ms * 0.1;
        static QElapsedTimer throttle;
        if (!throttle.isValid() || throttle.elapsed() > 500) {
            throttle.restart();
            emit frameTimeChanged(frameTimeMs_);
        }
    });

    QCamera* cam = window_->camera();
    cam->lens()->setPerspectiveProjection(40.f, 16.f / 9.f, 0.01f, 1000.f);
    controller_ = new CameraController(cam, this);
    captureCamera_ = new QCamera(root_);

    buildFrameGraph();
    window_->renderSettings()->setRenderPolicy(QRenderSettings::OnDemand);
    window_->setRootEntity(root_);
    controller_->fit({}, true);
}

Viewport::~Viewport() {
    window_->removeEventFilter(this);
}

void Viewport::buildFrameGraph() {
    auto* surface = new QRenderSurfaceSelector();
    surface->setSurface(window_);

    auto* onscreen = new QViewport(surface);
    onscreen->setNormalizedRect(QRectF(0, 0, 1, 1));
    // The window's own picture; a screenshot run switches it off (setOnscreenDrawing) so each
    // frame renders the scene once, into the capture target.
    onscreenBranch_ = new QSubtreeEnabler(onscreen);
    addViewBranches(onscreenBranch_, backgroundLayer_, parts_->translucentLayer(), onTopLayer_,
                    window_->camera(), nullptr, nullptr, false);
    auto* idleClear = new QClearBuffers(onscreen);
    idleClear->setBuffers(QClearBuffers::ColorDepthBuffer);
    idleClear->setClearColor(kBottom);
    new QNoDraw(idleClear);
    idleClear->setEnabled(false);
    onscreenIdleClear_ = idleClear;

    // Offscreen branch, enabled only while capturing: a colour + depth texture target.
    captureBranch_ = new QSubtreeEnabler(surface);
    captureBranch_->setEnabled(false);
    auto* targetSelector = new QRenderTargetSelector(captureBranch_);
    auto* target = new QRenderTarget(targetSelector);
    captureColor_ = new QTexture2D(target);
    captureColor_->setFormat(QAbstractTexture::RGBA8_UNorm);
    captureColor_->setSize(64, 64);
    captureColor_->setGenerateMipMaps(false);
    captureColor_->setMinificationFilter(QAbstractTexture::Linear);
    captureColor_->setMagnificationFilter(QAbstractTexture::Linear);
    captureDepth_ = new QTexture2D(target);
    captureDepth_->setFormat(QAbstractTexture::D24);
    captureDepth_->setSize(64, 64);
    captureDepth_->setGenerateMipMaps(false);
    auto* colorOut = new QRenderTargetOutput(target);
    colorOut->setAttachmentPoint(QRenderTargetOutput::Color0);
    colorOut->setTexture(captureColor_);
    auto* depthOut = new QRenderTargetOutput(target);
    depthOut->setAttachmentPoint(QRenderTargetOutput::Depth);
    depthOut->setTexture(captureDepth_);
    target->addOutput(colorOut);
    target->addOutput(depthOut);
    targetSelector->setTarget(target);
    auto* offscreen = new QViewport(targetSelector);
    offscreen->setNormalizedRect(QRectF(0, 0, 1, 1));
    capture_ = addViewBranches(offscreen, backgroundLayer_, parts_->translucentLayer(), onTopLayer_,
                               captureCamera_, &captureClear_, &captureBackground_, true);

    window_->setActiveFrameGraph(surface);
}

QCamera* Viewport::camera() const {
    return window_->camera();
}
QWindow* Viewport::renderWindow() const {
    return window_;
}

void Viewport::setAsset(const Asset& asset, const PartMeshes* partMeshes) {
    setSelectionMeshes({});
    setPhysicsMeshes({});
    // Roblox models and places show their parts; everything else its meshes.
    if (!parts_->show(asset, partMeshes, scene_)) scene_->setAsset(asset);
    overlays_->setAsset(asset);
    const Bounds framed = scene_->framingBounds();
    upAxis_ = upAxisOf(asset);
    grid_->setBounds(framed, upAxis_);
    controller_->setUpAxis(upAxis_);
    controller_->setDefaultYaw(frontViewYawDegrees(asset));
    motionBounds_.clear();
    controller_->fit(framed, scene_->framingItems(), true);
    emit assetShown();
}

void Viewport::setSelectionMeshes(std::vector<Mesh> meshes) {
    selectionScene_->clear();
    selectionAsset_ = {};
    if (meshes.empty()) return;
    selectionAsset_.meshes = std::move(meshes);
    selectionScene_->setAsset(selectionAsset_);
    for (int m = 0; m < selectionScene_->meshCount(); ++m) {
        selectionScene_->meshMaterial(m)->setBaseColor(QColor(255, 255, 255));
        const Mesh& mesh = selectionAsset_.meshes[std::size_t(m)];
        if (mesh.colors.empty() || mesh.colors.front().a == 255) continue;
        selectionScene_->meshMaterial(m)->setTranslucent(true);
        selectionScene_->meshEntity(m)->addComponent(parts_->translucentLayer());
    }
    selectionScene_->setWireframe(scene_->wireframe());
}

int Viewport::selectionMeshCount() const {
    return selectionScene_->meshCount();
}

void Viewport::setPhysicsMeshes(std::vector<Mesh> meshes) {
    physicsScene_->clear();
    physicsAsset_ = {};
    if (meshes.empty()) return;
    physicsAsset_.meshes = std::move(meshes);
    physicsScene_->setAsset(physicsAsset_);
    physicsScene_->setWireframe(true);
    for (int m = 0; m < physicsScene_->meshCount(); ++m) {
        LitMaterial* material = physicsScene_->meshMaterial(m);
        material->setBaseColor(kPhysicsColor);
        material->setTranslucent(true);
        physicsScene_->meshEntity(m)->addComponent(parts_->translucentLayer());
    }
}

void Viewport::showStoredPhysicsMeshes(const std::vector<int>& meshes, bool on) {
    for (int m : meshes) {
        if (m < 0 || m >= scene_->meshCount()) continue;
        scene_->setMeshVisible(m, on);
        if (!on) continue;
        LitMaterial* material = scene_->meshMaterial(m);
        material->setBaseColor(kPhysicsColor);
        material->setTranslucent(true);
        // Edges over a physics mesh's faces; a wireframe hull is edges already (the wire pass
        // would draw its lines again in the edges' grey).
        if (scene_->meshRenderer(m)->primitiveType() == Qt3DRender::QGeometryRenderer::Triangles)
            material->setWireframe(true);
        scene_->meshEntity(m)->addComponent(parts_->translucentLayer());  // once: Qt 3D checks
    }
}

int Viewport::physicsMeshCount() const {
    return physicsScene_->meshCount();
}

void Viewport::frameSelectionMeshes() {
    const Bounds b = selectionScene_->framingBounds();
    if (b.valid()) controller_->fit(b, selectionScene_->framingItems(), false);
}

void Viewport::clearAsset() {
    setSelectionMeshes({});
    setPhysicsMeshes({});
    scene_->clear();
    parts_->clear();
    overlays_->clear();
    upAxis_ = UpAxis::Y;
    controller_->setDefaultYaw(OrbitState().yawDegrees);
    grid_->setBounds({});
    controller_->setUpAxis(upAxis_);
    motionBounds_.clear();
    controller_->fit({}, true);
    emit assetShown();
}

void Viewport::fitToView() {
    fitScene(false);
}
void Viewport::resetView() {
    fitScene(true);
}
void Viewport::fitScene(bool resetAngles) {
    Bounds framed = scene_->framingBounds();
    std::vector<Bounds> items = scene_->framingItems();
    for (const Bounds& b : motionBounds_) {
        if (!b.valid()) continue;
        framed.add(b);
        items.push_back(b);
    }
    controller_->fit(framed, items, resetAngles);
}

void Viewport::setOnscreenDrawing(bool on) {
    onscreenBranch_->setEnabled(on);
    onscreenIdleClear_->setEnabled(!on);
}

bool Viewport::onscreenDrawing() const {
    return onscreenBranch_->isEnabled();
}

void Viewport::setGridVisible(bool visible) {
    gridVisible_ = visible;
    grid_->setEnabled(visible);
}

bool Viewport::gridVisible() const {
    return gridVisible_;
}

void Viewport::setWireframe(bool on) {
    scene_->setWireframe(on);
    selectionScene_->setWireframe(on);
    emit statsChanged();
}

bool Viewport::wireframe() const {
    return scene_->wireframe();
}

void Viewport::captureImage(const CaptureOptions& options,
                            std::function<void(const QImage&)> done) {
    if (pending_.active) {
        done(QImage());
        return;
    }
    pending_ = PendingCapture();
    pending_.options = options;
    pending_.done = std::move(done);
    pending_.active = true;
    if (!pending_.options.size.isValid() || pending_.options.size.isEmpty())
        pending_.options.size = container_->size() * container_->devicePixelRatioF();
    const QSize s = pending_.options.size.boundedTo(QSize(maxCaptureSize(), maxCaptureSize()))
                        .expandedTo(QSize(1, 1));
    pending_.options.size = s;

    captureColor_->setSize(s.width(), s.height());
    captureDepth_->setSize(s.width(), s.height());
    QCamera* cam = window_->camera();
    captureCamera_->setProjectionType(cam->projectionType());
    captureCamera_->setFieldOfView(cam->fieldOfView());
    captureCamera_->setNearPlane(cam->nearPlane());
    captureCamera_->setFarPlane(cam->farPlane());
    captureCamera_->setAspectRatio(float(s.width()) / float(s.height()));
    captureCamera_->setPosition(cam->position());
    captureCamera_->setViewCenter(cam->viewCenter());
    captureCamera_->setUpVector(cam->upVector());
    const bool transparent = pending_.options.transparentBackground;
    captureBackground_->setEnabled(!transparent);
    captureClear_->setClearColor(transparent ? QColor(0, 0, 0, 0) : kBottom);
    grid_->setEnabled(gridVisible_ && !transparent);
    captureBranch_->setEnabled(true);
    startCapture();
}

void Viewport::startCapture() {
    ++pending_.attempts;
    QRenderCaptureReply* reply = capture_->requestCapture();
    connect(reply, &QRenderCaptureReply::completed, this, [this, reply]() {
        const QImage image = reply->image();
        reply->deleteLater();
        finishCapture(image);
    });
}

void Viewport::finishCapture(const QImage& raw) {
    if (!pending_.active) return;
    const QSize want = pending_.options.size;
    QImage image = raw;
    if (pending_.options.transparentBackground) {
        // Blending "over" a transparent clear leaves premultiplied colour in the target (opaque
        // and empty pixels read the same either way): read it as such, so that translucent
        // pixels keep their colour when converted to straight ARGB.
        if (image.format() == QImage::Format_RGBA8888)
            image.reinterpretAsFormat(QImage::Format_RGBA8888_Premultiplied);
        else if (image.format() == QImage::Format_ARGB32)
            image.reinterpretAsFormat(QImage::Format_ARGB32_Premultiplied);
    }
    // An opaque capture is opaque: blending writes alpha too (a grid line leaves alpha 90 over
    // the background), which an image viewer would show as holes. Without an alpha channel the
    // PNG is also a quarter smaller and faster to write (1280 × 960: 95 vs 119 ms).
    image = image.convertToFormat(pending_.options.transparentBackground ? QImage::Format_ARGB32
                                                                         : QImage::Format_RGB32);
    const QRgb clear = pending_.options.transparentBackground ? qRgba(0, 0, 0, 0) : kBottom.rgba();
    // The first captures after a change hold only the clear colour, or a frame rendered before
    // the buffers or the target size arrived: accept a frame only when it holds something and
    // the next frame is the same. A frame that drew nothing at all is one whose materials' shaders
    // were still being built (Qt 3D skips those draws for a frame); every material that existed
    // then draws in the next frame, so a frame after one that held only the clear colour is
    // accepted as it is (a --screenshot run: one full render instead of two).
    const bool holds = image.size() == want && holdsMoreThanClear(image, clear);
    const bool good = holds && (image == pending_.previous || pending_.afterEmptyFrame);
    if (!good && pending_.attempts < kMaxCaptureAttempts) {
        pending_.afterEmptyFrame = image.size() == want && !holds;
        pending_.previous = image;
        QTimer::singleShot(0, this, [this]() { startCapture(); });
        return;
    }
    captureBranch_->setEnabled(false);
    grid_->setEnabled(gridVisible_);
    auto done = std::move(pending_.done);
    pending_ = {};
    if (image.size() != want) image = QImage();
    done(image);
}

QImage Viewport::captureImageBlocking(const CaptureOptions& options, int timeoutMs) {
    QImage result;
    bool finished = false;
    QEventLoop loop;
    captureImage(options, [&](const QImage& image) {
        result = image;
        finished = true;
        loop.quit();
    });
    if (!finished) {
        QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
        loop.exec();
    }
    if (!finished) {
        // Abandon the request; a late reply finds nothing pending.
        captureBranch_->setEnabled(false);
        grid_->setEnabled(gridVisible_);
        pending_ = {};
    }
    return result;
}

bool Viewport::eventFilter(QObject* watched, QEvent* event) {
    if (watched != window_) return QWidget::eventFilter(watched, event);
    switch (event->type()) {
        case QEvent::MouseButtonPress:
        case QEvent::MouseButtonRelease:
        case QEvent::MouseMove:
        case QEvent::Wheel:
            if (event->type() == QEvent::MouseButtonPress) container_->setFocus();
            return controller_->handleEvent(event, window_->height());
        case QEvent::DragEnter: {
            auto* e = static_cast<QDragEnterEvent*>(event);
            if (e->mimeData()->hasUrls()) e->acceptProposedAction();
            return true;
        }
        case QEvent::DragMove: {
            auto* e = static_cast<QDragMoveEvent*>(event);
            if (e->mimeData()->hasUrls()) e->acceptProposedAction();
            return true;
        }
        case QEvent::Drop: {
            auto* e = static_cast<QDropEvent*>(event);
            if (!e->mimeData()->hasUrls()) return false;
            e->acceptProposedAction();
            emit filesDropped(e->mimeData()->urls());
            return true;
        }
        case QEvent::KeyPress:
        case QEvent::ShortcutOverride:
            // Keys typed while the 3D window has focus go to the widget tree, so the main window's
            // shortcuts (F, W, G ...) work from the view.
            QCoreApplication::sendEvent(this, event);
            return event->isAccepted();
        default:
            return QWidget::eventFilter(watched, event);
    }
}

}  // namespace meshscope::render
