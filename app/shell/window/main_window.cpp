// The viewer's main window (see main_window.h).
#include "window/main_window.h"

#include <QAction>
#include <QApplication>
#include <QChildEvent>
#include <QCloseEvent>
#include <QDir>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QImageWriter>
#include <QLabel>
#include <QLayout>
#include <QLocale>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSignalBlocker>
#include <QStatusBar>
#include <QStyle>
#include <QTabBar>
#include <QThreadPool>
#include <QTimer>
#include <QToolButton>
#include <QTreeWidget>
#include <QWindow>

#include "document/asset_document.h"
#include "document/decode_job.h"
#include "document/settings.h"
#include "hex/hex_dock.h"
#include "meshscope/core/decode.h"
#include "meshscope/core/roblox_parts.h"
#include "meshscope/core/roblox_terrain.h"
#include "meshscope/render/asset_scene.h"
#include "meshscope/render/overlays.h"
#include "meshscope/render/roblox_parts.h"
#include "meshscope/render/viewport.h"
#include "meshscope/resources/resources.h"
#include "posing/animation_dock.h"
#include "posing/bone_drag_controller.h"
#include "posing/facs_dock.h"
#include "posing/lod_dock.h"
#include "posing/pose_controller.h"
#include "posing/skeleton_dock.h"
#include "tree/diagnostics_dock.h"
#include "tree/properties_dock.h"
#include "tree/structure_dock.h"
#include "window/asset_folders_dialog.h"
#include "window/export_dialog.h"
#include "window/open_dialog.h"
#include "window/screenshot_dialog.h"

namespace meshscope::shell {

namespace {

constexpr int kMaxRecent = 10;
const char* const kRecentKey = "recentFiles";

QString humanSize(qint64 bytes) {
    return QLocale().formattedDataSize(bytes);
}

}  // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    resources::initialize();
    setWindowIcon(QIcon(QString::fromLatin1(resources::kIconPath)));
    setAcceptDrops(true);
    setDockOptions(AnimatedDocks | AllowNestedDocks | AllowTabbedDocks);

    document_ = new AssetDocument(this);
    viewport_ = new render::Viewport(this);
    setCentralWidget(viewport_);

    structureDock_ = new StructureDock(this);
    propertiesDock_ = new PropertiesDock(this);
    diagnosticsDock_ = new DiagnosticsDock(this);
    structureDock_->setDocument(document_);
    propertiesDock_->setDocument(document_);
    diagnosticsDock_->setDocument(document_);
    addDockWidget(Qt::LeftDockWidgetArea, structureDock_);
    addDockWidget(Qt::RightDockWidgetArea, propertiesDock_);
    addDockWidget(Qt::BottomDockWidgetArea, diagnosticsDock_);

    fileLabel_ = new QLabel(this);
    statsLabel_ = new QLabel(this);
    progress_ = new QProgressBar(this);
    progress_->setRange(0, 1000);
    progress_->setMaximumWidth(180);
    progress_->setTextVisible(false);
    progress_->hide();
    cancel_ = new QToolButton(this);
    cancel_->setIcon(style()->standardIcon(QStyle::SP_DialogCancelButton));
    cancel_->setToolTip(tr("Cancel decoding"));
    cancel_->setAutoRaise(true);
    cancel_->hide();
    statusBar()->addWidget(fileLabel_, 1);
    statusBar()->addPermanentWidget(progress_);
    statusBar()->addPermanentWidget(cancel_);
    statusBar()->addPermanentWidget(statsLabel_);
    connect(cancel_, &QToolButton::clicked, this, [this]() {
        if (job_) job_->cancel();
    });

    createActions();

    // The hex inspector follows the document like every other panel.
    hexDock_ = new HexDock(this);
    hexDock_->setDocument(document_);
    addInspectorDock(hexDock_, Qt::BottomDockWidgetArea);
    tabifyDockWidget(diagnosticsDock_, hexDock_);

    // The 3D view shows the document's asset (with the part meshes resolved for it); what reads
    // the scene rebuilds when the view says it has shown it (Viewport::assetShown).
    connect(document_, &AssetDocument::assetChanged, this, &MainWindow::showAsset);
    connect(document_, &AssetDocument::assetChanged, this, &MainWindow::onAssetChanged);
    // Posing (skeleton, face, animation) poses the meshes of the scene.
    poseController_ = new PoseController(document_, viewport_->scene(), this);
    poseController_->setOverlayLayer(viewport_->onTopLayer());
    connect(viewport_, &render::Viewport::assetShown, poseController_, &PoseController::reload);
    // A Roblox model's scene is built from its parts: skinned MeshPart meshes are posed there.
    poseController_->setShownAsset([this]() -> const Asset* {
        const render::RobloxPartsView* parts = viewport_->robloxParts();
        return parts->parts().empty() ? nullptr : &parts->sceneAsset();
    });
    // Ctrl + drag in the 3D view poses the selected bone (before the camera sees the events).
    auto* boneDrag = new BoneDragController(viewport_, poseController_, this);
    connect(boneDrag, &BoneDragController::message, this,
            [this](const QString& text, int ms) { statusBar()->showMessage(text, ms); });
    if (auto* bones = findChild<QAction*>(QStringLiteral("bonesAction")))
        connect(poseController_, &PoseController::skeletonVisibleChanged, bones,
                &QAction::setChecked);
    skeletonDock_ = new SkeletonDock(poseController_, this);
    skeletonDock_->setDocument(document_);
    facsDock_ = new FacsDock(poseController_, this);
    facsDock_->setDocument(document_);
    animationDock_ = new AnimationDock(poseController_, this);
    animationDock_->setDocument(document_);
    // The camera frames an animation's whole motion (F, Home), and a loaded one at once.
    connect(&document_->viewState(), &ViewState::animationChanged, this,
            [this](int index, double) { updateMotionBounds(index, false); });
    connect(poseController_, &PoseController::reloaded, this,
            [this]() { updateMotionBounds(poseController_->animationIndex(), true); });
    connect(animationDock_, &AnimationDock::fileLoaded, this, [this]() {
        updateMotionBounds(poseController_->animationIndex(), true);
        viewport_->fitToView();
    });
    addInspectorDock(skeletonDock_, Qt::RightDockWidgetArea);
    addInspectorDock(facsDock_, Qt::RightDockWidgetArea);
    addInspectorDock(animationDock_, Qt::RightDockWidgetArea);
    tabifyDockWidget(propertiesDock_, skeletonDock_);
    tabifyDockWidget(skeletonDock_, facsDock_);
    tabifyDockWidget(facsDock_, animationDock_);
    propertiesDock_->raise();
    lodDock_ = new LodDock(viewport_, this);
    lodDock_->setDocument(document_);
    addInspectorDock(lodDock_, Qt::RightDockWidgetArea);
    connect(document_, &AssetDocument::selectionChanged, this,
            [this](int node, quint64, quint64) { onSelectionChanged(node); });
    connect(viewport_, &render::Viewport::statsChanged, this, &MainWindow::updateStats);
    connect(viewport_, &render::Viewport::frameTimeChanged, this, [this](double ms) {
        frameMs_ = ms;
        updateStats();
    });
    connect(viewport_, &render::Viewport::filesDropped, this, &MainWindow::openDroppedUrls);
    // A click on a Roblox part selects its instance (tree, properties and hex follow).
    connect(viewport_->robloxParts(), &render::RobloxPartsView::nodePicked, document_,
            &AssetDocument::selectNode);
    connect(diagnosticsDock_, &DiagnosticsDock::countChanged, this,
            [this](int errors, int warnings) {
                if (errors + warnings > 0) diagnosticsDock_->raise();
            });

    setWindowTitle(tr("Meshscope"));
    // Lay the docks out first: resizing before the layout has settled its minimum (tabified
    // docks count once) left the window 70 px taller than asked.
    layout()->activate();
    resize(1280, 820);
    updateStats();
}

MainWindow::~MainWindow() {
    if (job_) job_->cancel();
    if (regionCancel_) regionCancel_->store(true);
}

void MainWindow::createActions() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* open = file->addAction(style()->standardIcon(QStyle::SP_DialogOpenButton),
                                    tr("&Open…"), this, [this]() {
                                        const QStringList paths = getOpenAssetPaths(this);
                                        if (!paths.isEmpty()) openPaths(paths);
                                    });
    open->setShortcut(QKeySequence::Open);
    recentMenu_ = file->addMenu(tr("Open &Recent"));
    file->addAction(tr("Open &Sample"), this, &MainWindow::openSample);
    file->addAction(tr("Load &Animation…"), this, [this]() { animationDock_->loadInteractive(); });
    file->addSeparator();
    QAction* shot =
        file->addAction(tr("Export &Screenshot…"), this, &MainWindow::exportScreenshotInteractive);
    shot->setShortcut(Qt::Key_F12);
    QAction* exportAction = file->addAction(tr("&Export…"), this, [this]() {
        if (!document_->hasAsset()) return;
        render::AssetScene* scene = viewport_->scene();
        const int lod = scene->lodCount(0) > 0 ? scene->lod(0) : -1;
        const QString loaded = poseController_->loadedAnimationFile();
        exportInteractive(this, document_->asset(), document_->filePath(), document_->displayName(),
                          lod, loaded.isEmpty() ? QStringList() : QStringList{loaded});
    });
    exportAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    file->addSeparator();
    QAction* closeWindow = file->addAction(tr("&Close Window"), this, &QWidget::close);
    closeWindow->setShortcut(QKeySequence::Close);
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);
    rebuildRecentMenu();

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    edit->addAction(tr("&Asset Folders…"), this, [this]() {
        AssetFoldersDialog dialog(this);
        dialog.exec();
    });

    QMenu* view = menuBar()->addMenu(tr("&View"));
    QAction* fit = view->addAction(tr("&Fit to View"), this, [this]() { frameScene(false); });
    fit->setObjectName(QStringLiteral("fitAction"));
    fit->setShortcut(Qt::Key_F);
    QAction* reset = view->addAction(tr("&Reset View"), this, [this]() { frameScene(true); });
    reset->setObjectName(QStringLiteral("resetViewAction"));
    reset->setShortcut(Qt::Key_Home);
    view->addSeparator();
    wireframeAction_ = view->addAction(tr("&Wireframe"));
    wireframeAction_->setCheckable(true);
    wireframeAction_->setShortcut(Qt::Key_W);
    connect(wireframeAction_, &QAction::toggled, viewport_, &render::Viewport::setWireframe);
    QAction* grid = gridAction_ = view->addAction(tr("Ground &Grid"));
    grid->setCheckable(true);
    grid->setChecked(true);
    grid->setShortcut(Qt::Key_G);
    connect(grid, &QAction::toggled, viewport_, &render::Viewport::setGridVisible);
    QAction* normals = view->addAction(tr("&Normals"));
    normals->setCheckable(true);
    normals->setShortcut(Qt::Key_N);
    connect(normals, &QAction::toggled, viewport_->overlays(),
            &render::Overlays::setNormalsVisible);
    QAction* bounds = view->addAction(tr("&Bounds"));
    bounds->setCheckable(true);
    bounds->setShortcut(Qt::Key_B);
    connect(bounds, &QAction::toggled, viewport_->overlays(), &render::Overlays::setBoundsVisible);
    physicsAction_ = view->addAction(tr("&Physics Hulls"));
    physicsAction_->setCheckable(true);
    physicsAction_->setObjectName(QStringLiteral("physicsHullsAction"));
    physicsAction_->setShortcut(Qt::Key_H);
    physicsAction_->setToolTip(
        tr("Show the physics shapes: the convex hulls of Roblox unions' "
           "PhysicsData, a Second Life mesh's physics mesh and hulls"));
    connect(physicsAction_, &QAction::toggled, this, [this]() { showPhysicsHulls(); });
    partsOutsideAction_ = view->addAction(tr("Parts Outside &Workspace"));
    partsOutsideAction_->setCheckable(true);
    partsOutsideAction_->setObjectName(QStringLiteral("partsOutsideWorkspaceAction"));
    partsOutsideAction_->setToolTip(
        tr("Draw a place's parts kept outside Workspace too (ReplicatedStorage, ServerStorage "
           "…); Roblox Studio draws only Workspace"));
    connect(partsOutsideAction_, &QAction::toggled, this, [this]() {
        // The parts and their meshes are made with the decode: open the place again (or start
        // the decode under way again with the new choice). An open file with no part outside
        // Workspace draws the same either way, and is left as it is (camera, selection, pose).
        QString path;
        if (job_)
            path = job_->path();
        else if (document_->hasAsset() && isRobloxModel(document_->asset()) &&
                 countPartsOutsideWorkspace(document_->asset()) > 0)
            path = document_->filePath();  // empty for the built-in sample
        if (!path.isEmpty()) openFile(path);
    });
    // Remembered when the user chooses it from the menu, not when the command line's
    // --all-services turns it on for one run (setPartsOutsideWorkspace).
    connect(partsOutsideAction_, &QAction::triggered, this, [this](bool on) {
        if (settingsRestored_) settings::setPartsOutsideWorkspace(on);
    });
    QAction* bones = view->addAction(tr("B&ones"));
    bones->setCheckable(true);
    bones->setObjectName(QStringLiteral("bonesAction"));
    bones->setChecked(true);  // the pose controller's skeleton overlay starts visible
    bones->setShortcut(Qt::Key_K);
    bones->setToolTip(BoneDragController::usageHint());
    connect(bones, &QAction::toggled, this,
            [this](bool on) { poseController_->setSkeletonVisible(on); });
    view->addSeparator();
    QAction* finer =
        view->addAction(tr("&Higher Detail (LOD −1)"), this, [this]() { lodDock_->stepLevel(-1); });
    finer->setShortcut(Qt::Key_BracketLeft);
    QAction* coarser =
        view->addAction(tr("&Lower Detail (LOD +1)"), this, [this]() { lodDock_->stepLevel(1); });
    coarser->setShortcut(Qt::Key_BracketRight);
    QAction* autoLod =
        view->addAction(tr("&Automatic Detail"), this, [this]() { lodDock_->setAuto(true); });
    autoLod->setShortcut(Qt::Key_Backslash);
    view->addSeparator();
    QAction* fullScreen = view->addAction(tr("F&ull Screen"));
    fullScreen->setCheckable(true);
    fullScreen->setShortcut(Qt::Key_F11);
    connect(fullScreen, &QAction::toggled, this,
            [this](bool on) { setWindowState(windowState().setFlag(Qt::WindowFullScreen, on)); });
    view->addSeparator();
    panelsMenu_ = view->addMenu(tr("&Panels"));
    for (QDockWidget* dock :
         {static_cast<QDockWidget*>(structureDock_), static_cast<QDockWidget*>(propertiesDock_),
          static_cast<QDockWidget*>(diagnosticsDock_)})
        panelsMenu_->addAction(dock->toggleViewAction());

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About Meshscope"), this, [this]() {
        QMessageBox::about(
            this, tr("About Meshscope"),
            tr("<h3>Meshscope %1</h3><p>A viewer and inspector for game-engine asset files: "
               "Roblox FileMesh, Roblox models and places, Unigine meshes and animations, "
               "Second Life mesh assets.</p>"
               "<p><b>Mouse:</b> left drag orbits, middle or Shift + left drag pans, the wheel "
               "zooms.<br><b>Keys:</b> F fit, Home reset, W wireframe, G grid, [ ] level of "
               "detail, F12 screenshot.</p>")
                .arg(QCoreApplication::applicationVersion()));
    });
    help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
}

void MainWindow::addInspectorDock(QDockWidget* dock, Qt::DockWidgetArea area) {
    if (dock->objectName().isEmpty()) dock->setObjectName(dock->windowTitle());
    addDockWidget(area, dock);
    panelsMenu_->addAction(dock->toggleViewAction());
}

bool MainWindow::isDecoding() const {
    return job_ != nullptr;
}

void MainWindow::openFile(const QString& path) {
    if (job_) {
        job_->cancel();
        job_->disconnect(this);
        job_->deleteLater();
        job_ = nullptr;
    }
    job_ = new DecodeJob(path, settings::searchAssetFolders(), this);
    job_->setPartsOutsideWorkspace(partsOutsideAction_->isChecked());
    progress_->setValue(0);
    fileLabel_->setText(tr("Opening %1…").arg(QFileInfo(path).fileName()));
    // Small files finish before the progress bar is worth showing.
    QTimer* reveal = new QTimer(job_);
    reveal->setSingleShot(true);
    // The job may have finished before the timer runs (the GUI thread was busy past the delay,
    // and the finished signal came first): then there is nothing left to show.
    connect(reveal, &QTimer::timeout, this, [this, job = job_]() {
        if (job_ != job) return;
        progress_->show();
        cancel_->show();
    });
    reveal->start(250);
    connect(job_, &DecodeJob::progress, this,
            [this](double f) { progress_->setValue(int(f * 1000)); });
    connect(job_, &DecodeJob::finished, this, &MainWindow::onDecodeFinished);
    job_->start();
}

void MainWindow::onDecodeFinished(const std::shared_ptr<DecodeOutcome>& outcome) {
    if (job_) {
        job_->deleteLater();
        job_ = nullptr;
    }
    progress_->hide();
    cancel_->hide();
    applyOutcome(*outcome, nullptr);
}

bool MainWindow::openFileNow(const QString& path, QString* error) {
    DecodeOutcome outcome = DecodeJob::decodeNow(path, nullptr, {}, settings::searchAssetFolders(),
                                                 partsOutsideAction_->isChecked());
    return applyOutcome(outcome, error);
}

bool MainWindow::openDecoded(DecodeOutcome& outcome, QString* error) {
    return applyOutcome(outcome, error);
}

void MainWindow::openSample() {
    openFile(QString::fromLatin1(resources::kSamplePath));
}

bool MainWindow::applyOutcome(DecodeOutcome& outcome, QString* error) {
    QString message;
    if (!outcome.readError.isEmpty()) {
        message = tr("Cannot read the file: %1").arg(outcome.readError);
    } else if (outcome.cancelled) {
        fileLabel_->setText(tr("Opening %1 was cancelled").arg(outcome.displayName));
        onAssetChanged();
        if (error) *error = tr("cancelled");
        return false;
    } else if (outcome.result.error) {
        message = QString::fromStdString(outcome.result.error->toString());
    }
    if (!message.isEmpty()) {
        if (error) *error = message;
        showOpenError(outcome.path, message, &outcome);
        return false;
    }
    const bool isResource = outcome.path.startsWith(QLatin1String(":/"));
    document_->setDecoded(isResource ? QString() : outcome.path, outcome.displayName,
                          std::move(outcome.bytes), std::move(outcome.result),
                          std::move(outcome.parts));
    closeIfOpenFails_ = false;
    if (!isResource) addRecentFile(outcome.path);
    emit fileOpened(outcome.path);
    return true;
}

void MainWindow::showOpenError(const QString& path, const QString& message,
                               DecodeOutcome* partial) {
    onAssetChanged();  // restores the status bar text of the document still open
    emit openFailed(path, message);
    if (!interactive_) {
        closeIfLeftEmpty();
        return;
    }
    auto* box = new QMessageBox(
        QMessageBox::Warning, tr("Cannot open file"),
        tr("<b>%1</b> could not be opened.").arg(QFileInfo(path).fileName().toHtmlEscaped()),
        QMessageBox::Ok, this);
    box->setInformativeText(message);
    box->setAttribute(Qt::WA_DeleteOnClose);
    // A decoder keeps what it read before the failure: offer it (the byte map and the nodes
    // up to the error are often what the user came for).
    if (partial && partial->readError.isEmpty() &&
        (!partial->result.asset.nodes.empty() || !partial->result.asset.byteMap.empty())) {
        auto shared = std::make_shared<DecodeOutcome>(std::move(*partial));
        QPushButton* show = box->addButton(tr("Show Partial Result"), QMessageBox::AcceptRole);
        connect(show, &QPushButton::clicked, this, [this, shared]() {
            document_->setDecoded(shared->path, shared->displayName + tr(" (partial)"),
                                  std::move(shared->bytes), std::move(shared->result),
                                  std::move(shared->parts));
        });
    }
    // A window opened only for this file has nothing left to show once the message is read.
    connect(box, &QMessageBox::finished, this, &MainWindow::closeIfLeftEmpty);
    box->open();
}

void MainWindow::showAsset() {
    if (!document_->hasAsset()) {
        viewport_->clearAsset();
        return;
    }
    viewport_->setAsset(document_->asset(), &document_->partMeshes());
    viewport_->setWireframe(wireframeAction_->isChecked());
    showPhysicsHulls();  // the file's own physics meshes are hidden unless it is on
}

void MainWindow::closeIfLeftEmpty() {
    if (closeIfOpenFails_ && !document_->hasAsset() && !job_) close();
}

void MainWindow::onAssetChanged() {
    const Asset& a = document_->asset();
    if (!document_->hasAsset()) {
        setWindowTitle(tr("Meshscope"));
        fileLabel_->setText(tr("No file"));
        updateStats();
        return;
    }
    setWindowTitle(tr("%1 — Meshscope").arg(document_->displayName()));
    setWindowFilePath(document_->filePath());
    QString info = QStringLiteral("%1 %2 · %3")
                       .arg(QString::fromStdString(a.formatName), QString::fromStdString(a.version),
                            humanSize(document_->fileSize()));
    if (document_->inflated())
        info += tr(" (gzip, %1 inflated)").arg(humanSize(document_->bytes().size()));
    if (const auto w = a.warningCount())
        info += w == 1 ? tr(" · 1 warning") : tr(" · %1 warnings").arg(w);
    // A place whose parts are all kept outside Workspace shows an empty world: say why.
    QString tip;
    if (const std::size_t outside = document_->partMeshes().outsideWorkspace) {
        info += outside == 1 ? tr(" · 1 part outside Workspace not drawn")
                             : tr(" · %1 parts outside Workspace not drawn").arg(outside);
        tip = tr("View ▸ Parts Outside Workspace draws them");
    }
    fileLabel_->setText(info);
    fileLabel_->setToolTip(tip);
    updateStats();
}

void MainWindow::onSelectionChanged(int node) {
    const Asset& a = document_->asset();
    render::AssetScene* scene = viewport_->scene();
    viewport_->robloxParts()->setSelectedNode(node);
    showTerrainRegion(node);
    if (node < 0 || node >= int(a.nodes.size())) {
        scene->setHighlightedMesh(-1);
        return;
    }
    const NodeLinks& links = a.links(node);
    const int mesh = document_->meshOfNode(node);
    scene->setHighlightedMesh(mesh);
    if (mesh >= 0 && links.lod >= 0) scene->setLod(mesh, links.lod);
}

void MainWindow::updateMotionBounds(int animation, bool again) {
    if (animation == motionAnimation_ && !again) return;
    motionAnimation_ = animation;
    animationBounds_ =
        animation >= 0 ? poseController_->animationBounds(animation) : std::vector<Bounds>();
    viewport_->setMotionBounds(animationBounds_);
}

void MainWindow::frameScene(bool resetAngles) {
    // The animation's whole motion and the pose shown now (a bone turned by hand).
    std::vector<Bounds> motion = animationBounds_;
    for (const Bounds& b : poseController_->posedBounds()) motion.push_back(b);
    viewport_->setMotionBounds(std::move(motion));
    if (resetAngles)
        viewport_->resetView();
    else
        viewport_->fitToView();
}

void MainWindow::showPhysicsHulls() {
    const bool on = physicsAction_->isChecked() && document_->hasAsset();
    // Physics shapes the file stores as meshes of its own (Second Life): shown in the hulls'
    // colour with this on, hidden otherwise (as exports leave them out unless asked).
    QStringList stored;
    if (document_->hasAsset() && !isRobloxModel(document_->asset())) {
        const Asset& a = document_->asset();
        std::vector<int> physics;
        for (int m = 0; m < int(a.meshes.size()); ++m) {
            const Mesh& mesh = a.meshes[std::size_t(m)];
            if (!isPhysicsMesh(a, mesh)) continue;
            physics.push_back(m);
            if (!on) continue;  // only the status line below reads the names
            stored << (mesh.primitive == Primitive::Lines
                           ? tr("%1 (%n line(s))", nullptr, int(mesh.indexCount() / 2))
                           : tr("%1 (%n triangle(s))", nullptr, int(mesh.triangleCount())))
                          .arg(QString::fromStdString(mesh.name));
        }
        viewport_->showStoredPhysicsMeshes(physics, on);
    }
    if (!on) {
        viewport_->setPhysicsMeshes({});
        return;
    }
    if (!stored.isEmpty()) {
        statusBar()->showMessage(tr("Physics shapes: %1").arg(stored.join(QStringLiteral(", "))),
                                 5000);
        return;
    }
    // A few hulls per union, decoded on demand (most people never look at them).
    std::vector<Mesh> hulls = unionPhysicsMeshes(document_->asset(), document_->partMeshes().parts);
    std::size_t triangles = 0;
    for (const Mesh& m : hulls) triangles += m.triangleCount();
    statusBar()->showMessage(
        hulls.empty() ? tr("No union in this file holds physics hulls (PhysicsData)")
                      : tr("Physics hulls of %n union(s), %1 triangles", nullptr, int(hulls.size()))
                            .arg(QLocale().toString(qulonglong(triangles))),
        5000);
    viewport_->setPhysicsMeshes(std::move(hulls));
}

void MainWindow::showTerrainRegion(int node) {
    const quint64 ticket = ++regionTicket_;
    if (regionCancel_) regionCancel_->store(true);
    regionCancel_.reset();
    if (viewport_->selectionMeshCount() > 0) viewport_->setSelectionMeshes({});
    if (!document_->hasAsset()) return;
    const Asset& a = document_->asset();
    if (node < 0 || node >= int(a.nodes.size()) || a.kind(node) != "TerrainRegion") return;
    // The grid's runs are walked here (one pass, no voxel array); the meshing, which expands
    // every chunk, runs on a worker with the grid's own copy of the bytes.
    auto info = std::make_shared<std::optional<TerrainInfo>>(readTerrain(a, node));
    if (!*info || (*info)->grid.chunks.empty()) {
        statusBar()->showMessage(tr("This TerrainRegion holds no terrain"), 4000);
        return;
    }
    auto cancel = std::make_shared<std::atomic<bool>>(false);
    regionCancel_ = cancel;
    statusBar()->showMessage(
        tr("Meshing the TerrainRegion's %n chunk(s)…", nullptr, int((*info)->grid.chunks.size())));
    QPointer<MainWindow> self(this);
    QThreadPool::globalInstance()->start([self, info, cancel, ticket, node]() {
        const TerrainInfo& t = **info;
        TerrainMeshOptions o;
        o.colors = t.colors;
        o.waterColor = t.waterColor;
        o.cancel = cancel.get();
        auto meshes = std::make_shared<TerrainMeshes>(meshTerrain(
            std::span(reinterpret_cast<const std::uint8_t*>(t.blob.data()), t.blob.size()), t.grid,
            o));
        QMetaObject::invokeMethod(
            qApp,
            [self, meshes, ticket, node]() {
                if (!self || self->regionTicket_ != ticket || meshes->cancelled) return;
                std::vector<Mesh> out;
                std::size_t triangles = 0;
                for (Mesh* m : {&meshes->terrain, &meshes->water}) {
                    if (m->indices.empty()) continue;
                    m->node = node;
                    triangles += m->triangleCount();
                    out.push_back(std::move(*m));
                }
                self->viewport_->setSelectionMeshes(std::move(out));
                self->viewport_->frameSelectionMeshes();
                self->statusBar()->showMessage(
                    tr("TerrainRegion: %1 triangles drawn while it is selected")
                        .arg(QLocale().toString(qulonglong(triangles))),
                    6000);
            },
            Qt::QueuedConnection);
    });
}

void MainWindow::updateStats() {
    const render::SceneStats s = viewport_->scene()->stats();
    QLocale loc;
    QString text =
        tr("%1 vertices · %2 triangles")
            .arg(loc.toString(qulonglong(s.vertices)), loc.toString(qulonglong(s.triangles)));
    if (s.points) text += tr(" · %1 points").arg(loc.toString(qulonglong(s.points)));
    text += tr(" · %1 %2")
                .arg(QString::number(s.drawCalls),
                     s.drawCalls == 1 ? tr("draw call") : tr("draw calls"));
    if (frameMs_ > 0) text += tr(" · %1 ms/frame").arg(frameMs_, 0, 'f', 1);
    statsLabel_->setText(text);
}

void MainWindow::setWireframe(bool on) {
    wireframeAction_->setChecked(on);
}

void MainWindow::setPartsOutsideWorkspace(bool on) {
    partsOutsideAction_->setChecked(on);
}

bool MainWindow::partsOutsideWorkspace() const {
    return partsOutsideAction_->isChecked();
}

QStringList MainWindow::recentFiles() const {
    return QSettings().value(QLatin1String(kRecentKey)).toStringList();
}

void MainWindow::addRecentFile(const QString& path) {
    QStringList list = recentFiles();
    const QString abs = QFileInfo(path).absoluteFilePath();
    list.removeAll(abs);
    list.prepend(abs);
    while (list.size() > kMaxRecent) list.removeLast();
    QSettings().setValue(QLatin1String(kRecentKey), list);
    rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu() {
    recentMenu_->clear();
    const QStringList list = recentFiles();
    for (int i = 0; i < list.size(); ++i) {
        const QString path = list[i];
        QAction* a = recentMenu_->addAction(
            QStringLiteral("&%1  %2").arg(i + 1 < 10 ? QString::number(i + 1) : QStringLiteral("0"),
                                          QFileInfo(path).fileName()),
            this, [this, path]() { openFile(path); });
        a->setToolTip(path);
        a->setStatusTip(path);
        a->setEnabled(QFileInfo::exists(path));
    }
    if (!list.isEmpty()) recentMenu_->addSeparator();
    QAction* clear = recentMenu_->addAction(tr("&Clear List"), this, [this]() {
        QSettings().remove(QLatin1String(kRecentKey));
        rebuildRecentMenu();
    });
    clear->setEnabled(!list.isEmpty());
}

bool MainWindow::exportScreenshot(const QString& path, QSize size, bool transparentBackground,
                                  QString* error) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    const bool jpeg = suffix == QLatin1String("jpg") || suffix == QLatin1String("jpeg");
    render::CaptureOptions options;
    options.size = size;
    options.transparentBackground = transparentBackground && !jpeg;
    QImage image = viewport_->captureImageBlocking(options);
    if (image.isNull()) {
        if (error) *error = tr("the 3D view could not be captured (no OpenGL rendering?)");
        return false;
    }
    if (jpeg) image = image.convertToFormat(QImage::Format_RGB32);
    QImageWriter writer(path, jpeg ? QByteArray("jpg") : QByteArray("png"));
    // PNG: Qt maps quality 50 to zlib level 4: two thirds of the time of the default level 6,
    // files about 15 % larger (a 1280 × 960 render: 67 vs 103 ms).
    writer.setQuality(jpeg ? 92 : 50);
    if (!writer.write(image)) {
        if (error) *error = writer.errorString();
        return false;
    }
    return true;
}

void MainWindow::exportScreenshotInteractive() {
    QString suggested = document_->displayName().isEmpty()
                            ? QStringLiteral("meshscope.png")
                            : QFileInfo(document_->displayName()).completeBaseName() + ".png";
    const QString path =
        QFileDialog::getSaveFileName(this, tr("Export Screenshot"), suggested,
                                     tr("PNG image (*.png);;JPEG image (*.jpg *.jpeg)"));
    if (path.isEmpty()) return;
    const QString suffix = QFileInfo(path).suffix().toLower();
    const bool jpeg = suffix == QLatin1String("jpg") || suffix == QLatin1String("jpeg");
    const QSize viewSize = viewport_->size() * viewport_->devicePixelRatioF();
    ScreenshotDialog dialog(viewSize, !jpeg, this);
    if (dialog.exec() != QDialog::Accepted) return;
    QString error;
    if (!exportScreenshot(path, dialog.imageSize(), dialog.transparentBackground(), &error))
        QMessageBox::warning(this, tr("Export Screenshot"),
                             tr("The screenshot could not be written: %1").arg(error));
    else
        statusBar()->showMessage(tr("Saved %1").arg(QDir::toNativeSeparators(path)), 4000);
}

bool MainWindow::looksLikeAnimation(const QString& path) {
    const QString ext = QFileInfo(path).suffix().toLower();
    if (ext == QLatin1String("sanim") || ext == QLatin1String("anim")) return true;
    if (ext != QLatin1String("rbxm") && ext != QLatin1String("rbxmx")) return false;
    // A Roblox model holding KeyframeSequences and no parts: an Animation Editor save (small;
    // decoded here to look, then again by the Animation panel).
    if (QFileInfo(path).size() > (16 << 20)) return false;
    const DecodeResult r = decodeFile(path.toStdString());
    if (!r.ok()) return false;
    bool sequence = false;
    for (int i = 0; i < int(r.asset.nodes.size()); ++i) {
        const std::string_view kind = r.asset.kind(i);
        if (kind == "KeyframeSequence" || kind == "CurveAnimation") sequence = true;
        if (kind == "Part" || kind == "MeshPart" || kind == "UnionOperation") return false;
    }
    return sequence;
}

void MainWindow::openDroppedUrls(const QList<QUrl>& urls) {
    QStringList paths;
    for (const QUrl& url : urls)
        if (url.isLocalFile()) paths << url.toLocalFile();
    // An animation dropped on a window showing a skeleton or rig plays on it: a Unigine .sanim
    // or .anim, or a Roblox model holding KeyframeSequences and no parts of its own.
    if (paths.size() == 1 && poseController_->boneCount() > 0 && looksLikeAnimation(paths[0])) {
        QString error;
        if (animationDock_->loadFile(paths[0], &error)) {
            statusBar()->showMessage(
                tr("Playing %1 on the open rig").arg(QFileInfo(paths[0]).fileName()), 5000);
            return;
        }
    }
    // A dropped file replaces what this window shows; more files open in new windows.
    if (!paths.isEmpty()) openPaths(paths, true);
}

QList<MainWindow*> MainWindow::openPaths(const QStringList& paths, bool replace) {
    QList<MainWindow*> windows;
    bool here = replace || (!document_->hasAsset() && !job_);
    for (const QString& path : paths) {
        if (QFileInfo(path).isDir()) {
            if (settings::addAssetFolder(path)) {
                statusBar()->showMessage(
                    tr("Added asset folder %1").arg(QDir::toNativeSeparators(path)), 4000);
                emit assetFolderAdded(QFileInfo(path).absoluteFilePath());
            }
            continue;
        }
        if (here) {
            here = false;
            openFile(path);
            windows << this;
            continue;
        }
        auto* window = new MainWindow;
        window->setAttribute(Qt::WA_DeleteOnClose);
        window->closeIfOpenFails_ = true;
        window->setInteractive(interactive_);
        window->setWireframe(wireframeAction_->isChecked());
        window->gridAction_->setChecked(gridAction_->isChecked());
        window->partsOutsideAction_->setChecked(partsOutsideAction_->isChecked());
        const QPoint offset(32, 32);
        window->resize(size());
        window->move(pos() + offset * int(windows.size() + 1));
        window->show();
        window->openFile(path);
        windows << window;
        emit windowOpened(window);
    }
    return windows;
}

void MainWindow::restoreSettings() {
    settingsRestored_ = true;
    setWireframe(settings::wireframe());
    gridAction_->setChecked(settings::gridVisible());
    {
        // Read before any file opens (the toggle opens the shown place again).
        const QSignalBlocker quiet(partsOutsideAction_);
        partsOutsideAction_->setChecked(settings::partsOutsideWorkspace());
    }
    restoreGeometry(settings::windowGeometry());
    if (restoreState(settings::windowState())) docksSized_ = true;
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    if (event->mimeData()->hasUrls()) event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
    if (!event->mimeData()->hasUrls()) return;
    event->acceptProposedAction();
    openDroppedUrls(event->mimeData()->urls());
}

void MainWindow::childEvent(QChildEvent* event) {
    QMainWindow::childEvent(event);
    // The tab bars QMainWindow makes for tabified docks (made lazily, and again when docks are
    // dragged together) would cut "Properties" to "Proper…": show whole titles and let the bar
    // scroll instead.
    if (event->type() == QEvent::ChildPolished)
        if (auto* bar = qobject_cast<QTabBar*>(event->child())) {
            bar->setElideMode(Qt::ElideNone);
            bar->setUsesScrollButtons(true);
        }
}

void MainWindow::showEvent(QShowEvent* event) {
    QMainWindow::showEvent(event);
    if (docksSized_) return;
    docksSized_ = true;
    resizeDocks({structureDock_, propertiesDock_}, {330, 390}, Qt::Horizontal);
    resizeDocks({diagnosticsDock_}, {230}, Qt::Vertical);
    // The level list needs a few rows; the tabs above it (Properties, Skeleton, Face, Animation)
    // hold long lists and get the rest of the column.
    resizeDocks({propertiesDock_, lodDock_}, {height(), 150}, Qt::Vertical);
}

void MainWindow::closeEvent(QCloseEvent* event) {
    if (job_) job_->cancel();
    if (settingsRestored_) {
        settings::setWireframe(wireframeAction_->isChecked());
        settings::setGridVisible(gridAction_->isChecked());
        settings::setWindowLayout(saveGeometry(), saveState());
    }
    QMainWindow::closeEvent(event);
}

}  // namespace meshscope::shell
