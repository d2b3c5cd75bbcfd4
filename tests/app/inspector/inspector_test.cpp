// Inspector shell behaviours: tree ↔ hex selection, the LOD dock (FileMesh and Second Life
// levels), overlays, opening a second file in a new window, dropped folders as asset folders,
// persisted options and layout, standard shortcuts.
#include <gtest/gtest.h>

#include <QAction>
#include <QApplication>
#include <QDropEvent>
#include <QListWidget>
#include <QMimeData>
#include <QPointer>
#include <QSettings>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStatusBar>
#include <QTest>
#include <QTreeView>
#include <QUrl>
#include <Qt3DRender/QCamera>

#include "document/asset_document.h"
#include "document/settings.h"
#include "fixtures.h"
#include "hex/hex_dock.h"
#include "hex/hex_view.h"
#include "meshscope/render/asset_scene.h"
#include "meshscope/render/overlays.h"
#include "meshscope/render/viewport.h"
#include "posing/lod_dock.h"
#include "support/window_test_support.h"
#include "tree/node_tree_model.h"
#include "tree/structure_dock.h"
#include "window/main_window.h"
#include "window/open_dialog.h"

using namespace meshscope;
using namespace meshscope::shell;
using namespace meshscope::inspector_test;

namespace {

// The settings keys these tests write are removed again, so other test programs (same test
// organisation) start from defaults.
struct SettingsGuard {
    SettingsGuard() { clear(); }
    ~SettingsGuard() { clear(); }
    static void clear() {
        QSettings s;
        for (const char* key :
             {settings::kAssetFoldersKey, settings::kWireframeKey, settings::kGridKey,
              settings::kGeometryKey, settings::kStateKey, settings::kPartsOutsideWorkspaceKey})
            s.remove(QLatin1String(key));
    }
};

int nodeOfRow(QTreeView* view) {
    return NodeTreeModel::nodeOf(
        static_cast<QSortFilterProxyModel*>(view->model())->mapToSource(view->currentIndex()));
}

}  // namespace

TEST(Inspector, SelectingATreeNodeSelectsItsBytesInTheHexView) {
    const QString path = writeFileMeshFixture("insp_tree_hex", "lods.mesh", makeLodSphere(3));
    MainWindow window;
    window.setInteractive(false);
    ASSERT_TRUE(window.openFileNow(path));
    const Asset& a = window.document()->asset();
    // Pick the deepest node that has its own bytes (independent of the tree's row order).
    int node = -1;
    for (std::size_t i = 0; i < a.nodes.size(); ++i)
        if (a.nodes[i].length > 0 && a.nodes[i].parent >= 0) node = int(i);
    ASSERT_GE(node, 0);
    QTreeView* view = window.structureDock()->view();
    auto* proxy = static_cast<QSortFilterProxyModel*>(view->model());
    const QModelIndex row =
        proxy->mapFromSource(window.structureDock()->model()->indexForNode(node));
    ASSERT_TRUE(row.isValid());
    view->setCurrentIndex(row);
    EXPECT_EQ(window.document()->selectedNode(), node);
    HexView* hex = window.hexDock()->hexView();
    EXPECT_EQ(hex->selectionOffset(), a.nodes[std::size_t(node)].offset);
    EXPECT_EQ(hex->selectionLength(), a.nodes[std::size_t(node)].length);
}

TEST(Inspector, MovingTheHexCursorSelectsTheInnermostNodeCoveringIt) {
    const QString path = writeFileMeshFixture("insp_hex_tree", "lods.mesh", makeLodSphere(3));
    MainWindow window;
    window.setInteractive(false);
    ASSERT_TRUE(window.openFileNow(path));
    const Asset& a = window.document()->asset();
    EXPECT_EQ(window.document()->selectedNode(), -1) << "opening a file selects nothing";
    // Expected: among the nodes whose own [offset, offset + length) covers the byte, the
    // shortest one (every node of a FileMesh has its own bytes).
    auto innermost = [&](std::uint64_t offset) {
        int best = -1;
        for (std::size_t i = 0; i < a.nodes.size(); ++i) {
            const Node& n = a.nodes[i];
            if (n.length > 0 && offset >= n.offset && offset < n.offset + n.length &&
                (best < 0 || n.length < a.nodes[std::size_t(best)].length))
                best = int(i);
        }
        return best;
    };
    HexView* hex = window.hexDock()->hexView();
    int checked = 0;
    for (std::size_t i = 0; i < a.nodes.size() && checked < 4; ++i) {
        const Node& n = a.nodes[i];
        if (n.length < 2 || n.parent < 0) continue;
        const std::uint64_t offset = n.offset + n.length / 2;
        const int expected = innermost(offset);
        window.document()->selectNode(-1);
        hex->setCursorOffset(offset);
        EXPECT_EQ(window.document()->selectedNode(), expected) << "offset " << offset;
        EXPECT_EQ(nodeOfRow(window.structureDock()->view()), expected) << "offset " << offset;
        ++checked;
    }
    EXPECT_GT(checked, 0);
}

TEST(Inspector, LodDockListsTheLevelsAndSwitchesTheDrawnTriangles) {
    const Asset generated = makeLodSphere(3);
    const Mesh& mesh = generated.meshes.at(0);
    ASSERT_EQ(mesh.lods.size(), 3u);
    const QString path = writeFileMeshFixture("insp_lod", "lods.mesh", generated);
    MainWindow window;
    ASSERT_NO_FATAL_FAILURE(test::openShown(window, path));
    LodDock* dock = window.lodDock();
    ASSERT_EQ(dock->modelCount(), 1);
    ASSERT_EQ(dock->levelCount(), 3);
    EXPECT_EQ(dock->levelList()->count(), 3);
    render::AssetScene* scene = window.viewport()->scene();
    for (int l = 0; l < 3; ++l) {
        EXPECT_EQ(dock->triangleCount(l), int(mesh.lods[std::size_t(l)].triangleCount));
        // Clicking a row pins that level; only the drawn range changes.
        QListWidgetItem* item = dock->levelList()->item(l);
        ASSERT_NE(item, nullptr);
        emit dock->levelList()->itemClicked(item);
        EXPECT_FALSE(dock->isAuto());
        EXPECT_EQ(dock->drawnLevel(), l);
        EXPECT_EQ(scene->lod(0), l);
        EXPECT_EQ(scene->stats().triangles, mesh.lods[std::size_t(l)].triangleCount);
        EXPECT_TRUE(dock->levelList()->item(l)->text().contains(QStringLiteral("drawn")));
    }

    // Auto: the framed view shows LOD 0; far away (past 8 × 2^(k−1) radii) the coarsest.
    dock->setAuto(true);
    EXPECT_TRUE(dock->isAuto());
    EXPECT_EQ(dock->drawnLevel(), 0);
    Qt3DRender::QCamera* camera = window.viewport()->camera();
    const Vec3 c = mesh.bounds.center();
    const QVector3D centre(c.x, c.y, c.z);
    camera->setPosition(centre + QVector3D(0, 0, 1000.f));
    EXPECT_EQ(dock->drawnLevel(), 2);
    EXPECT_EQ(scene->stats().triangles, mesh.lods[2].triangleCount);
    camera->setPosition(centre + QVector3D(0, 0, 3.f));
    EXPECT_EQ(dock->drawnLevel(), 0);
    // The View menu's [ ] keys step the level and pin it.
    dock->stepLevel(1);
    EXPECT_EQ(dock->drawnLevel(), 1);
    EXPECT_FALSE(dock->isAuto());
    camera->setPosition(centre + QVector3D(0, 0, 1000.f));
    EXPECT_EQ(dock->drawnLevel(), 1) << "a pinned level ignores the camera";
}

TEST(Inspector, SecondLifeLodMeshesAreTheLevelsOfOneModel) {
    const Asset generated = secondLifeLodAsset();
    const QString path = writeSecondLifeFixture("insp_sl", "lods.llmesh", generated);
    MainWindow window;
    ASSERT_NO_FATAL_FAILURE(test::openShown(window, path));
    LodDock* dock = window.lodDock();
    ASSERT_GE(dock->modelCount(), 1);
    dock->setCurrentModel(0);
    ASSERT_EQ(dock->levelCount(), 4);
    render::AssetScene* scene = window.viewport()->scene();
    const Asset& decoded = window.document()->asset();
    for (int l = 0; l < 4; ++l) {
        const std::uint64_t triangles = generated.meshes[std::size_t(l)].triangleCount();
        EXPECT_EQ(dock->triangleCount(l), int(triangles)) << "level " << l;
        dock->pinLevel(l);
        EXPECT_EQ(dock->drawnLevel(), l);
        // Only the chosen level's mesh is shown.
        int visible = 0;
        for (int m = 0; m < scene->meshCount(); ++m) {
            const std::string& name = decoded.meshes[std::size_t(m)].name;
            if (name.find("_lod") == std::string::npos) continue;
            if (scene->meshVisible(m)) {
                ++visible;
                EXPECT_EQ(name, generated.meshes[std::size_t(l)].name);
            }
        }
        EXPECT_EQ(visible, 1);
        EXPECT_EQ(scene->stats().triangles, triangles);
    }
}

// A Second Life mesh's physics shapes (here its physics_convex wireframe) are not part of its
// picture: hidden until View > Physics Hulls, then drawn in the hulls' orange (lines lit, not
// the black of a line without a normal), and hidden again when it is turned off.
TEST(Inspector, SecondLifePhysicsShapesShowOnlyWithPhysicsHulls) {
    Asset generated = secondLifeLodAsset();
    Mesh hull;
    hull.name = "physics_convex";
    hull.primitive = Primitive::Lines;
    for (int c = 0; c < 8; ++c)  // a box around the sphere (radius 1)
        hull.positions.push_back(
            {c & 1 ? 1.6f : -1.6f, c & 2 ? 1.6f : -1.6f, c & 4 ? 1.6f : -1.6f});
    generated.meshes.push_back(hull);
    const QString path = writeSecondLifeFixture("insp_sl_physics", "physics.llmesh", generated);
    MainWindow window;
    ASSERT_NO_FATAL_FAILURE(test::openShown(window, path));
    const Asset& decoded = window.document()->asset();
    int physics = -1;
    for (int m = 0; m < int(decoded.meshes.size()); ++m)
        if (decoded.meshes[std::size_t(m)].name == "physics_convex") physics = m;
    ASSERT_GE(physics, 0);
    ASSERT_EQ(decoded.meshes[std::size_t(physics)].primitive, Primitive::Lines);
    ASSERT_GT(decoded.meshes[std::size_t(physics)].indexCount(), 0u);
    render::Viewport* viewport = window.viewport();
    render::AssetScene* scene = viewport->scene();
    ASSERT_LT(physics, scene->meshCount());
    render::CaptureOptions options;
    options.size = QSize(240, 240);
    options.transparentBackground = true;
    const auto orangePixels = [](const QImage& image) {
        int n = 0;
        for (int y = 0; y < image.height(); ++y)
            for (int x = 0; x < image.width(); ++x) {
                const QRgb p = image.pixel(x, y);
                n += qAlpha(p) > 0 && qRed(p) > qGreen(p) + 30 && qRed(p) > qBlue(p) + 80;
            }
        return n;
    };
    EXPECT_FALSE(scene->meshVisible(physics));
    EXPECT_EQ(orangePixels(viewport->captureImageBlocking(options)), 0);

    QAction* action = window.findChild<QAction*>(QStringLiteral("physicsHullsAction"));
    ASSERT_NE(action, nullptr);
    action->setChecked(true);
    EXPECT_TRUE(scene->meshVisible(physics));
    EXPECT_TRUE(window.statusBar()->currentMessage().contains(QStringLiteral("physics_convex")))
        << window.statusBar()->currentMessage().toStdString();
    const QImage shown = viewport->captureImageBlocking(options);
    shown.save(
        QString::fromStdString((test::tempDir("insp_sl_physics") / "physics_shown.png").string()));
    EXPECT_GT(orangePixels(shown), 30) << "the hull's edges, orange";

    action->setChecked(false);
    EXPECT_FALSE(scene->meshVisible(physics));
}

TEST(Inspector, OverlaysBuildNormalsAndBounds) {
    const Asset generated = makeSkinnedCylinder(4);
    MainWindow window;
    window.setInteractive(false);
    render::Viewport* viewport = window.viewport();
    viewport->setAsset(generated);
    render::Overlays* overlays = viewport->overlays();
    EXPECT_EQ(overlays->normalLineCount(), generated.meshes[0].positions.size());
    EXPECT_EQ(overlays->boundsLineCount(), 12u);
    // The bones are drawn by the pose controller's skeleton overlay (tests/app/posing).
    viewport->clearAsset();
    EXPECT_EQ(overlays->normalLineCount(), 0u);
    EXPECT_EQ(overlays->boundsLineCount(), 0u);
}

TEST(Inspector, OpeningASecondFileOpensANewWindow) {
    const QString first = writeFileMeshFixture("insp_second_a", "first.mesh", makeUvSphere());
    const QString second = writeFileMeshFixture("insp_second_b", "second.mesh", makeLodSphere(2));
    MainWindow window;
    window.setInteractive(false);
    ASSERT_TRUE(window.openFileNow(first));
    QSignalSpy windows(&window, &MainWindow::windowOpened);
    const QList<MainWindow*> opened = window.openPaths({second});
    ASSERT_EQ(opened.size(), 1);
    ASSERT_EQ(windows.count(), 1);
    MainWindow* other = opened.first();
    EXPECT_NE(other, &window);
    QSignalSpy loaded(other, &MainWindow::fileOpened);
    ASSERT_TRUE(loaded.count() > 0 || loaded.wait(15000));
    EXPECT_EQ(other->document()->filePath(), second);
    EXPECT_EQ(window.document()->filePath(), first) << "the first window keeps its file";
    other->close();  // WA_DeleteOnClose
}

// A window opened only for a file that fails to decode closes instead of staying as an empty
// "No file" window; the first window keeps its file.
TEST(Inspector, AWindowOpenedForAFailedFileCloses) {
    const QString first = writeFileMeshFixture("insp_failed_a", "first.mesh", makeUvSphere());
    const auto dir = test::tempDir("insp_failed_b");
    std::filesystem::create_directories(dir);
    const auto broken = dir / "broken.mesh";
    test::writeFile(broken,
                    Bytes{'v', 'e', 'r', 's', 'i', 'o', 'n', ' ', '4', '.', '0', '0', '\n', 1, 2});
    MainWindow window;
    window.setInteractive(false);
    ASSERT_TRUE(window.openFileNow(first));
    const QList<MainWindow*> opened = window.openPaths({QString::fromStdString(broken.string())});
    ASSERT_EQ(opened.size(), 1);
    QPointer<MainWindow> other = opened.first();
    QSignalSpy failed(other.data(), &MainWindow::openFailed);
    ASSERT_TRUE(failed.count() > 0 || failed.wait(15000));
    QTRY_VERIFY_WITH_TIMEOUT(other.isNull(), 5000);  // closed and deleted (WA_DeleteOnClose)
    EXPECT_EQ(window.document()->filePath(), first);
}

// "All supported files" lists files by content: an asset-id-named FileMesh without an
// extension, a Second Life asset saved as .txt; not a text note or an unknown extension.
TEST(Inspector, OpenDialogListsExtensionlessAssetsByContent) {
    const auto dir = test::tempDir("insp_open_filter");
    std::filesystem::create_directories(dir);
    const QString mesh = writeFileMeshFixture("insp_open_filter", "sphere.mesh", makeUvSphere());
    std::filesystem::copy_file(mesh.toStdString(), dir / "1818181818",
                               std::filesystem::copy_options::overwrite_existing);
    std::filesystem::copy_file(mesh.toStdString(), dir / "1818181818.2",
                               std::filesystem::copy_options::overwrite_existing);
    test::writeFile(dir / "notes", Bytes{'h', 'e', 'l', 'l', 'o', '\n'});
    test::writeFile(dir / "notes.txt", Bytes{'h', 'e', 'l', 'l', 'o', '\n'});
    std::filesystem::copy_file(mesh.toStdString(), dir / "sphere.xyz",
                               std::filesystem::copy_options::overwrite_existing);
    auto at = [&](const char* name) {
        return QFileInfo(QString::fromStdString((dir / name).string()));
    };
    EXPECT_TRUE(isSupportedFile(at("sphere.mesh")));
    EXPECT_TRUE(isSupportedFile(at("1818181818")));
    EXPECT_TRUE(isSupportedFile(at("1818181818.2")));
    EXPECT_FALSE(isSupportedFile(at("notes")));
    EXPECT_FALSE(isSupportedFile(at("notes.txt")));
    EXPECT_FALSE(isSupportedFile(at("sphere.xyz")));
    const auto corpus = test::corpusDir();
    if (!corpus) std::printf("corpus absent: Second Life .txt assets not checked\n");
    const auto sl = corpus ? *corpus / "secondlife" : std::filesystem::path();
    if (corpus && std::filesystem::exists(sl)) {
        int txt = 0;
        for (const auto& e : std::filesystem::recursive_directory_iterator(sl)) {
            if (e.path().extension() != ".txt") continue;
            const DecodeResult r = decodeFile(e.path().string());
            if (!r.ok() || r.asset.format != "secondlife-mesh") continue;
            EXPECT_TRUE(isSupportedFile(QFileInfo(QString::fromStdString(e.path().string()))))
                << e.path();
            ++txt;
        }
        std::printf("checked %d Second Life .txt assets\n", txt);
    }
    EXPECT_EQ(openNameFilters().first(), QObject::tr("All supported files (*)"));
}

TEST(Inspector, ADroppedFolderBecomesAnAssetFolder) {
    SettingsGuard guard;
    const auto folder = test::tempDir("insp_asset_folder");
    std::filesystem::create_directories(folder);
    MainWindow window;
    window.setInteractive(false);
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(QString::fromStdString(folder.string()))});
    QSignalSpy added(&window, &MainWindow::assetFolderAdded);
    const QPoint centre = window.rect().center();
    QDragEnterEvent enter(centre, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&window, &enter);
    EXPECT_TRUE(enter.isAccepted());
    QDropEvent drop(QPointF(centre), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&window, &drop);
    EXPECT_EQ(added.count(), 1);
    const QStringList folders = QSettings().value(QStringLiteral("assetFolders")).toStringList();
    ASSERT_EQ(folders.size(), 1);
    EXPECT_EQ(folders.first(),
              QDir::cleanPath(QString::fromStdString(std::filesystem::absolute(folder).string())));
    EXPECT_FALSE(window.document()->hasAsset()) << "a folder is not opened as a file";
    // Dropping it again adds no duplicate.
    QApplication::sendEvent(&window, &drop);
    EXPECT_EQ(settings::assetFolders().size(), 1);
}

// View > Parts Outside Workspace is remembered when chosen from the menu; turned on by the
// program (the command line's --all-services), it holds for that run only.
TEST(Inspector, PartsOutsideWorkspacePersistsWhenChosenFromTheMenu) {
    SettingsGuard guard;
    {
        MainWindow window;
        window.restoreSettings();
        EXPECT_FALSE(window.partsOutsideWorkspace());
        window.setPartsOutsideWorkspace(true);  // as --all-services does
        EXPECT_TRUE(window.partsOutsideWorkspace());
        window.close();
    }
    EXPECT_FALSE(settings::partsOutsideWorkspace());
    {
        MainWindow window;
        window.restoreSettings();
        QAction* action = window.findChild<QAction*>(QStringLiteral("partsOutsideWorkspaceAction"));
        ASSERT_NE(action, nullptr);
        action->trigger();  // the user's choice
        EXPECT_TRUE(window.partsOutsideWorkspace());
    }
    EXPECT_TRUE(settings::partsOutsideWorkspace());
    MainWindow again;
    again.restoreSettings();
    EXPECT_TRUE(again.partsOutsideWorkspace());
}

TEST(Inspector, OptionsAndLayoutPersistAcrossWindows) {
    SettingsGuard guard;
    {
        MainWindow window;
        window.restoreSettings();
        EXPECT_FALSE(window.viewport()->wireframe());
        EXPECT_TRUE(window.viewport()->gridVisible());
        window.setWireframe(true);
        for (QAction* a : window.findChildren<QAction*>())
            if (a->shortcut() == QKeySequence(Qt::Key_G)) a->trigger();
        window.lodDock()->hide();
        window.show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
        window.close();
    }
    EXPECT_TRUE(settings::wireframe());
    EXPECT_FALSE(settings::gridVisible());
    EXPECT_FALSE(settings::windowState().isEmpty());
    MainWindow again;
    again.restoreSettings();
    EXPECT_TRUE(again.viewport()->wireframe());
    EXPECT_FALSE(again.viewport()->gridVisible());
    again.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&again));
    EXPECT_FALSE(again.lodDock()->isVisible()) << "the dock layout came back";
    again.close();
}

TEST(Inspector, StandardShortcutsExist) {
    MainWindow window;
    QList<QKeySequence> shortcuts;
    for (QAction* a : window.findChildren<QAction*>()) shortcuts << a->shortcuts();
    for (const QKeySequence& k :
         {QKeySequence(QKeySequence::Open), QKeySequence(QKeySequence::Close),
          QKeySequence(Qt::Key_F), QKeySequence(Qt::Key_F11), QKeySequence(Qt::Key_F12)})
        EXPECT_TRUE(shortcuts.contains(k)) << k.toString().toStdString();
}
