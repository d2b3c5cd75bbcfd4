// The viewer's main window: the 3D view in the centre, dock panels around it (structure,
// properties, diagnostics, and any inspector another part adds with addInspectorDock), menus,
// recent files, drag and drop, background decoding with progress and cancel, and screenshots.
// Every panel follows the one AssetDocument.
#pragma once

#include <QMainWindow>
#include <QPointer>
#include <QStringList>
#include <atomic>
#include <memory>
#include <vector>

#include "meshscope/core/types.h"

class QLabel;
class QMenu;
class QProgressBar;
class QToolButton;

namespace meshscope::render {
class Viewport;
}

namespace meshscope::shell {

class AssetDocument;
class DecodeJob;
class DiagnosticsDock;
class HexDock;
class AnimationDock;
class FacsDock;
class PoseController;
class SkeletonDock;
class LodDock;
class PropertiesDock;
class StructureDock;
struct DecodeOutcome;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    AssetDocument* document() const { return document_; }
    render::Viewport* viewport() const { return viewport_; }
    StructureDock* structureDock() const { return structureDock_; }
    PropertiesDock* propertiesDock() const { return propertiesDock_; }
    DiagnosticsDock* diagnosticsDock() const { return diagnosticsDock_; }
    HexDock* hexDock() const { return hexDock_; }
    // Posing: bone poses, FACS weights and animation playback of the open asset.
    PoseController* poseController() const { return poseController_; }
    SkeletonDock* skeletonDock() const { return skeletonDock_; }
    FacsDock* facsDock() const { return facsDock_; }
    AnimationDock* animationDock() const { return animationDock_; }
    LodDock* lodDock() const { return lodDock_; }

    // Opens what the user chose (File › Open, drops): folders are added to the asset folders;
    // the first file opens here when this window shows nothing yet (or `replace` is true), every
    // other file in a new window. Returns the windows opened (this one included when used).
    QList<MainWindow*> openPaths(const QStringList& paths, bool replace = false);
    // Loads view options, window geometry and dock layout from QSettings and saves them when the
    // window closes (the interactive viewer; tests and --screenshot leave settings alone).
    void restoreSettings();

    // Adds a panel that follows document() (the hex inspector ...) and lists it in View › Panels.
    void addInspectorDock(QDockWidget* dock, Qt::DockWidgetArea area);

    // When false, open errors are not shown in message boxes (command line, tests); they are
    // still reported through openFailed().
    void setInteractive(bool interactive) { interactive_ = interactive; }

    // Decodes `path` in the background; the current document stays until it succeeds.
    void openFile(const QString& path);
    // Decodes `path` on the calling thread; returns false (and sets `error`) when it fails.
    bool openFileNow(const QString& path, QString* error = nullptr);
    // Shows a decode made elsewhere (DecodeJob::decodeNow on another thread); false (and
    // `error`) when it failed. Takes the outcome's bytes and result.
    bool openDecoded(DecodeOutcome& outcome, QString* error = nullptr);
    void openSample();
    bool isDecoding() const;

    // Renders the view at `size` offscreen and writes PNG or JPEG (by extension). Returns false
    // and sets `error` on failure.
    bool exportScreenshot(const QString& path, QSize size, bool transparentBackground,
                          QString* error = nullptr);

    QStringList recentFiles() const;
    // View › Wireframe (kept across files).
    void setWireframe(bool on);
    // View › Fit to View (F) and Reset View (Home): frames the scene, the shown animation's
    // whole motion and the current pose (a bone turned by hand), keeping or resetting the angles.
    void frameScene(bool resetAngles);
    // View > Parts Outside Workspace: a place's parts kept outside Workspace (ReplicatedStorage,
    // ServerStorage ...) are drawn too. Changing it opens the shown place again.
    void setPartsOutsideWorkspace(bool on);
    bool partsOutsideWorkspace() const;

signals:
    void fileOpened(const QString& path);
    void windowOpened(MainWindow* window);
    void assetFolderAdded(const QString& folder);
    void openFailed(const QString& path, const QString& message);

protected:
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;
    void showEvent(QShowEvent* event) override;
    void childEvent(QChildEvent* event) override;
    void closeEvent(QCloseEvent* event) override;

private:
    void createActions();
    void onDecodeFinished(const std::shared_ptr<DecodeOutcome>& outcome);
    // Applies a finished decode: the document on success, a message otherwise.
    bool applyOutcome(DecodeOutcome& outcome, QString* error);
    void showOpenError(const QString& path, const QString& message, DecodeOutcome* partial);
    // Closes a window opened for one file (openPaths) when that file failed and nothing else
    // was opened in it, instead of leaving an empty "No file" window behind.
    void closeIfLeftEmpty();
    // The document's asset into the 3D view (or the view cleared).
    void showAsset();
    // Title and status bar for the document (also after a failed or cancelled open).
    void onAssetChanged();
    void onSelectionChanged(int node);
    // A selected TerrainRegion's saved terrain, meshed on a worker and drawn beside the scene
    // until the selection moves on (-1 or another node clears it).
    void showTerrainRegion(int node);
    // View › Physics Hulls: the unions' PhysicsData hulls over the scene, or none.
    void showPhysicsHulls();
    // The viewport's motion bounds: where animation `animation` (-1: none) takes the posed
    // meshes. Computed when the animation changes, or `again` (a new asset or animation file).
    void updateMotionBounds(int animation, bool again);
    int motionAnimation_ = -1;
    std::vector<Bounds> animationBounds_;  // of the animation motionAnimation_
    void updateStats();
    void addRecentFile(const QString& path);
    void rebuildRecentMenu();
    void exportScreenshotInteractive();
    void openDroppedUrls(const QList<QUrl>& urls);
    // Whether a dropped file is an animation to play on the open rig rather than a file to open.
    static bool looksLikeAnimation(const QString& path);

    AssetDocument* document_ = nullptr;
    render::Viewport* viewport_ = nullptr;
    StructureDock* structureDock_ = nullptr;
    PropertiesDock* propertiesDock_ = nullptr;
    DiagnosticsDock* diagnosticsDock_ = nullptr;
    HexDock* hexDock_ = nullptr;
    PoseController* poseController_ = nullptr;
    SkeletonDock* skeletonDock_ = nullptr;
    FacsDock* facsDock_ = nullptr;
    AnimationDock* animationDock_ = nullptr;
    LodDock* lodDock_ = nullptr;
    QAction* gridAction_ = nullptr;
    bool settingsRestored_ = false;
    QMenu* recentMenu_ = nullptr;
    QMenu* panelsMenu_ = nullptr;
    QAction* wireframeAction_ = nullptr;
    QAction* physicsAction_ = nullptr;
    QAction* partsOutsideAction_ = nullptr;

    QLabel* fileLabel_ = nullptr;
    QLabel* statsLabel_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QToolButton* cancel_ = nullptr;

    DecodeJob* job_ = nullptr;
    bool interactive_ = true;
    bool closeIfOpenFails_ = false;
    double frameMs_ = 0;
    bool docksSized_ = false;
    quint64 regionTicket_ = 0;  // the TerrainRegion meshing whose result is still wanted
    std::shared_ptr<std::atomic<bool>> regionCancel_;
};

}  // namespace meshscope::shell
