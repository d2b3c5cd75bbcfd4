// Widget tests of the viewer shell: opening a generated FileMesh, the structure tree, document
// selection, properties links, diagnostics jump-to-bytes, drag and drop, decode errors.
#include "window/main_window.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <QAction>
#include <QApplication>
#include <QDropEvent>
#include <QElapsedTimer>
#include <QGuiApplication>
#include <QHeaderView>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QMimeData>
#include <QScreen>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStatusBar>
#include <QTabBar>
#include <QTest>
#include <QTreeView>
#include <QTreeWidget>
#include <QUrl>
#include <algorithm>
#include <filesystem>

#include "document/asset_document.h"
#include "hex/hex_dock.h"
#include "hex/hex_view.h"
#include "meshscope/core/decode.h"
#include "meshscope/core/mesh_generators.h"
#include "meshscope/core/part_meshes.h"
#include "meshscope/core/roblox_csg.h"
#include "meshscope/core/roblox_mesh_writer.h"
#include "meshscope/core/roblox_model_writer.h"
#include "meshscope/core/roblox_terrain.h"
#include "meshscope/render/asset_scene.h"
#include "meshscope/render/viewport.h"
#include "support/qt_test_support.h"
#include "support/test_support.h"
#include "support/window_test_support.h"
#include "tree/diagnostics_dock.h"
#include "tree/node_tree_model.h"
#include "tree/properties_dock.h"
#include "tree/structure_dock.h"

using namespace meshscope;
using namespace meshscope::shell;

namespace {

QString writeFixture(const std::string& dir, const std::string& name, const Asset& asset,
                     const std::string& version = "4.00") {
    return test::qPath(test::writeFileMeshFixture(dir, name, asset, version));
}

// `model` written as a binary Roblox model to tempDir(dir)/name; a failed write fails the test
// (an empty path then).
using test::writeModelFixture;

// `data` as a gzip stream (zlib, windowBits 31).
std::vector<std::uint8_t> gzipBytes(const std::vector<std::uint8_t>& data) {
    z_stream zs{};
    if (deflateInit2(&zs, 6, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY) != Z_OK) return {};
    std::vector<std::uint8_t> out(deflateBound(&zs, uLong(data.size())) + 32);
    zs.next_in = const_cast<Bytef*>(data.data());
    zs.avail_in = uInt(data.size());
    zs.next_out = out.data();
    zs.avail_out = uInt(out.size());
    const int rc = deflate(&zs, Z_FINISH);
    out.resize(zs.total_out);
    deflateEnd(&zs);
    return rc == Z_STREAM_END ? out : std::vector<std::uint8_t>{};
}

int countRows(const QAbstractItemModel& model, const QModelIndex& parent = {}) {
    int n = 0;
    for (int r = 0; r < model.rowCount(parent); ++r)
        n += 1 + countRows(model, model.index(r, 0, parent));
    return n;
}

// A hand-made asset: two roots, a NodeRef property, a warning inside a mapped range.
DecodeResult handMadeResult() {
    DecodeResult r;
    Asset& a = r.asset;
    a.format = "test";
    a.formatName = "Hand-made";
    const int model = a.addNode("Model", "Model");
    const int part = a.addNode("Handle", "Part", model);
    const int weld = a.addNode("Weld", "Weld", model);
    a.addNode("Lighting", "Lighting");
    a.nodes[std::size_t(part)].offset = 16;
    a.nodes[std::size_t(part)].length = 8;
    Property ref;
    ref.name = "Part0";
    ref.type = "Ref";
    ref.value = NodeRef{part};
    a.addProperty(weld, ref);
    Property color;
    color.name = "Color";
    color.type = "Color3";
    color.value = Vec3{1.f, 0.5f, 0.f};
    a.addProperty(part, color);
    a.byteMap.add(0, 16, "header", RangeKind::Header, model);
    a.byteMap.add(16, 8, "Handle", RangeKind::Record, part);
    a.byteMap.add(20, 2, "Handle › field", RangeKind::Field, part);
    a.byteMap.finalize(32);
    a.fileSize = 32;
    a.diagnostics.push_back({Severity::Warning, "odd", 20, "Handle", "an odd field"});
    return r;
}

}  // namespace

TEST(MainWindow, OpensAGeneratedFileMeshAndShowsItsStructure) {
    const Asset asset = makeLodSphere(3);
    const QString path = writeFixture("app_open", "sphere.mesh", asset);
    MainWindow window;
    window.setInteractive(false);
    window.show();
    QString error;
    ASSERT_TRUE(window.openFileNow(path, &error)) << error.toStdString();

    AssetDocument* doc = window.document();
    EXPECT_EQ(doc->filePath(), path);
    EXPECT_EQ(doc->bytes().size(), qint64(std::filesystem::file_size(path.toStdString())));
    ASSERT_EQ(doc->asset().meshes.size(), 1u);
    EXPECT_EQ(doc->asset().meshes[0].vertexCount(), asset.meshes[0].vertexCount());

    // The tree shows every node once, roots at the top level.
    const NodeTreeModel* model = window.structureDock()->model();
    ASSERT_GT(doc->asset().nodes.size(), 0u);
    EXPECT_EQ(model->rowCount(), int(doc->asset().roots().size()));
    EXPECT_EQ(countRows(*model), int(doc->asset().nodes.size()));

    // The 3D scene holds the mesh with its three LODs.
    EXPECT_EQ(window.viewport()->scene()->meshCount(), 1);
    EXPECT_EQ(window.viewport()->scene()->lodCount(0), 3);
    EXPECT_TRUE(window.recentFiles().contains(QFileInfo(path).absoluteFilePath()));
}

// A gzip-wrapped file's byte map indexes the inflated bytes: the document keeps those, and the
// hex view shows under every range the bytes the decoder read there.
TEST(MainWindow, GzipWrappedFileShowsTheInflatedBytesTheMapDescribes) {
    const auto plainPath = test::writeFileMeshFixture("app_gzip", "plain.mesh", makeLodSphere(2));
    const std::vector<std::uint8_t> plain = test::readFile(plainPath);
    const std::vector<std::uint8_t> packed = gzipBytes(plain);
    ASSERT_FALSE(packed.empty());
    ASSERT_NE(packed.size(), plain.size());
    const auto packedPath = plainPath.parent_path() / "packed.mesh";
    test::writeFile(packedPath, packed);

    MainWindow window;
    window.setInteractive(false);
    window.show();
    QString error;
    ASSERT_TRUE(window.openFileNow(test::qPath(packedPath), &error)) << error.toStdString();
    AssetDocument* doc = window.document();
    EXPECT_TRUE(doc->inflated());
    EXPECT_EQ(doc->fileSize(), qint64(packed.size()));
    ASSERT_EQ(doc->bytes().size(), qint64(plain.size()));
    EXPECT_EQ(doc->asset().fileSize, plain.size());
    EXPECT_TRUE(std::equal(plain.begin(), plain.end(),
                           reinterpret_cast<const std::uint8_t*>(doc->bytes().constData())));

    // The hex view holds the same bytes: the FileMesh's version line at offset 0, not the gzip
    // magic 1f 8b.
    const auto shown = window.hexDock()->hexView()->bytes();
    ASSERT_EQ(shown.size(), plain.size());
    EXPECT_TRUE(std::equal(plain.begin(), plain.end(), shown.begin()));
    EXPECT_EQ(shown[0], std::uint8_t('v'));
    // Every mapped range lies inside the shown bytes.
    for (const ByteRange& r : doc->byteMap().ranges()) EXPECT_LE(r.end(), shown.size()) << r.path;
}

TEST(MainWindow, SelectingATreeRowSelectsTheNodeAndItsBytes) {
    MainWindow window;
    window.setInteractive(false);
    window.document()->setDecoded("hand.bin", "hand.bin", QByteArray(32, '\0'), handMadeResult());
    StructureDock* dock = window.structureDock();
    QTreeView* view = dock->view();
    QSignalSpy spy(window.document(), &AssetDocument::selectionChanged);

    // Row 0 = Model, its child row 0 = Handle (node 1).
    const QModelIndex modelRow = view->model()->index(0, 0);
    const QModelIndex handleRow = view->model()->index(0, 0, modelRow);
    ASSERT_TRUE(handleRow.isValid());
    view->setCurrentIndex(handleRow);
    EXPECT_EQ(window.document()->selectedNode(), 1);
    EXPECT_EQ(window.document()->selectionOffset(), 16u);
    EXPECT_EQ(window.document()->selectionLength(), 8u);
    ASSERT_GE(spy.count(), 1);
    EXPECT_EQ(spy.last().at(0).toInt(), 1);

    // And the other way round: the document's selection moves the tree's current row.
    window.document()->selectNode(3);
    EXPECT_EQ(
        NodeTreeModel::nodeOf(
            static_cast<QSortFilterProxyModel*>(view->model())->mapToSource(view->currentIndex())),
        3);

    // The filter keeps matching rows and their ancestors.
    dock->filterEdit()->setText("weld");
    EXPECT_EQ(view->model()->rowCount(), 1);
    EXPECT_EQ(view->model()->rowCount(view->model()->index(0, 0)), 1);
}

TEST(MainWindow, ReferencePropertyIsALinkThatSelectsItsTarget) {
    MainWindow window;
    window.document()->setDecoded("hand.bin", "hand.bin", QByteArray(32, '\0'), handMadeResult());
    window.document()->selectNode(2);  // the Weld
    QTreeWidget* props = window.propertiesDock()->view();
    QLabel* link = nullptr;
    for (QTreeWidgetItemIterator it(props); *it; ++it)
        if ((*it)->text(0) == "Part0") link = qobject_cast<QLabel*>(props->itemWidget(*it, 1));
    ASSERT_NE(link, nullptr);
    EXPECT_TRUE(link->text().contains("Handle"));
    emit link->linkActivated("1");
    EXPECT_EQ(window.document()->selectedNode(), 1);

    // The Handle's Color3 shows as a hex colour with a swatch.
    bool sawColor = false;
    for (QTreeWidgetItemIterator it(props); *it; ++it)
        if ((*it)->text(0) == "Color") {
            sawColor = true;
            EXPECT_TRUE((*it)->text(1).startsWith("#FF8000")) << (*it)->text(1).toStdString();
            EXPECT_FALSE((*it)->icon(1).isNull());
        }
    EXPECT_TRUE(sawColor);
}

// Long property names, types and kinds (BottomSurfaceInput, SecurityCapabilities,
// NonReplicatedCSGDictionaryService) still leave the values and names most of a narrow dock: the
// name and type columns take at most 2/5 and 1/4 of the properties view, the kind column at most
// 2/5 of the structure view. Sized to their contents, they left the values a few pixels.
TEST(MainWindow, LongNamesAndTypesLeaveRoomForValuesAndNames) {
    MainWindow window;
    window.resize(1200, 800);
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    DecodeResult r = handMadeResult();
    Asset& a = r.asset;
    const int service =
        a.addNode("NonReplicatedCSGDictionaryService", "NonReplicatedCSGDictionaryService");
    a.addNode("Handle", "NonReplicatedCSGDictionaryService", service);
    Property p;
    p.name = "BottomSurfaceInputWithAVeryLongNameIndeed";
    p.type = "SecurityCapabilitiesOfAVeryLongTypeName";
    p.value = std::int64_t(42);
    a.addProperty(1, p);
    window.document()->setDecoded("hand.bin", "hand.bin", QByteArray(32, '\0'), std::move(r));

    QTreeView* tree = window.structureDock()->view();
    window.structureDock()->resize(260, 600);
    QTest::qWait(50);
    const int treeWidth = tree->viewport()->width();
    ASSERT_GT(treeWidth, 100);
    EXPECT_LE(tree->header()->sectionSize(NodeTreeModel::KindColumn), treeWidth * 2 / 5);
    EXPECT_GE(tree->header()->sectionSize(NodeTreeModel::NameColumn), treeWidth / 2);

    window.document()->selectNode(1);
    QTreeWidget* props = window.propertiesDock()->view();
    window.propertiesDock()->resize(300, 600);
    QTest::qWait(50);
    const int width = props->viewport()->width();
    ASSERT_GT(width, 100);
    EXPECT_LE(props->header()->sectionSize(0), width * 2 / 5);
    EXPECT_LE(props->header()->sectionSize(2), width / 4);
    EXPECT_GE(props->header()->sectionSize(1), width / 3);
    // A short type column keeps its contents' width, not its share.
    window.document()->selectNode(0);
    EXPECT_LT(props->header()->sectionSize(2), width / 4);
}

TEST(MainWindow, ActivatingADiagnosticSelectsItsBytesAndNode) {
    MainWindow window;
    window.document()->setDecoded("hand.bin", "hand.bin", QByteArray(32, '\0'), handMadeResult());
    DiagnosticsDock* dock = window.diagnosticsDock();
    ASSERT_EQ(dock->view()->topLevelItemCount(), 1);
    EXPECT_EQ(dock->view()->topLevelItem(0)->text(1), "0x14");
    dock->activateRow(0);
    // Offset 20 lies in "Handle › field" (20..22), owned by node 1.
    EXPECT_EQ(window.document()->selectionOffset(), 20u);
    EXPECT_EQ(window.document()->selectionLength(), 2u);
    EXPECT_EQ(window.document()->selectedNode(), 1);
}

// One answer to "which node is at this byte" for the hex cursor, byte selections and diagnostics.
TEST(AssetDocument, NodeAtIsTheInnermostNodeOfTheByteMapOrOwnExtent) {
    AssetDocument doc;
    EXPECT_EQ(doc.nodeAt(0), -1);
    DecodeResult r = handMadeResult();
    // The Weld (node 2) has no range of its own in the map but an extent inside the header.
    r.asset.nodes[2].offset = 4;
    r.asset.nodes[2].length = 4;
    doc.setDecoded("hand.bin", "hand.bin", QByteArray(32, '\0'), std::move(r));
    EXPECT_EQ(doc.nodeAt(0), 0);    // "header", owned by the Model
    EXPECT_EQ(doc.nodeAt(5), 2);    // the Weld's own 4 bytes lie inside the 16-byte header
    EXPECT_EQ(doc.nodeAt(17), 1);   // the Handle's record and extent
    EXPECT_EQ(doc.nodeAt(21), 1);   // "Handle › field"
    EXPECT_EQ(doc.nodeAt(28), -1);  // unparsed bytes after the Handle
    EXPECT_EQ(doc.nodeAt(1000), -1);
    // selectBytes without a node picks the same one.
    doc.selectBytes(5, 2);
    EXPECT_EQ(doc.selectedNode(), 2);
}

// A MeshPart whose mesh is in no asset folder: the decode job's part step reports it, and the
// document lists it with the decoder's diagnostics, at the MeshId bytes, counted as a warning.
TEST(MainWindow, UnresolvedMeshIsAWarningOfTheDocumentAtItsMeshIdBytes) {
    Asset model;
    model.format = "roblox-model";
    const int root = model.addNode("Armory", "Model");
    model.addProperty(root, test::prop("Name", "string", std::string("Armory")));
    const int sword = model.addNode("Sword", "MeshPart", root);
    model.propertyList(sword) = {
        test::prop("Name", "string", std::string("Sword")),
        test::prop("MeshId", "Content", std::string("rbxassetid://9090909090909"))};
    RobloxModelWriteOptions options;
    options.compression = RobloxChunkCompression::None;
    const RobloxModelWriteResult written = writeRobloxModel(model, options);
    ASSERT_TRUE(written.ok());
    const auto path = test::tempDir("app_unresolved") / "armory.rbxm";
    test::writeFile(path, written.bytes);
    const std::size_t decoderWarnings = decodeFile(path.string()).asset.warningCount();

    MainWindow window;
    window.setInteractive(false);
    QString error;
    ASSERT_TRUE(window.openFileNow(test::qPath(path), &error)) << error.toStdString();
    const Asset& a = window.document()->asset();
    EXPECT_EQ(a.warningCount(), decoderWarnings + 1);
    const auto it = std::find_if(a.diagnostics.begin(), a.diagnostics.end(),
                                 [](const Diagnostic& d) { return d.code == kMeshUnresolved; });
    ASSERT_NE(it, a.diagnostics.end());
    EXPECT_EQ(it->severity, Severity::Warning);
    ASSERT_EQ(window.document()->partMeshes().parts.size(), 1u);
    const RobloxPart& part = window.document()->partMeshes().parts[0];
    EXPECT_EQ(it->offset, part.meshIdOffset);
    ASSERT_GT(part.meshIdLength, 0u);
    const QByteArray at =
        window.document()->bytes().mid(qsizetype(part.meshIdOffset), qsizetype(part.meshIdLength));
    EXPECT_TRUE(at.contains("rbxassetid://9090909090909"));

    // The Diagnostics dock lists it as a warning and counts it in its title.
    DiagnosticsDock* dock = window.diagnosticsDock();
    int row = -1;
    for (int r = 0; r < dock->view()->topLevelItemCount(); ++r)
        if (dock->view()->topLevelItem(r)->text(3).contains("Sword")) row = r;
    ASSERT_GE(row, 0);
    EXPECT_EQ(dock->view()->topLevelItem(row)->text(0), "Warning");
    EXPECT_TRUE(dock->windowTitle().contains(QString::number(a.warningCount())))
        << dock->windowTitle().toStdString();
    dock->activateRow(row);
    EXPECT_EQ(window.document()->selectionOffset(), part.meshIdOffset);
}

TEST(MainWindow, DroppingAFileOpensIt) {
    const QString first = writeFixture("app_drop", "first.mesh", makeUvSphere());
    const QString dropped = writeFixture("app_drop2", "dropped.mesh", makeLodSphere(2));
    MainWindow window;
    ASSERT_NO_FATAL_FAILURE(test::openShown(window, first));

    QSignalSpy opened(&window, &MainWindow::fileOpened);
    EXPECT_TRUE(test::dropUrls(window, {QUrl::fromLocalFile(dropped)}));
    // Decoding runs on a worker thread.
    ASSERT_TRUE(opened.count() > 0 || opened.wait(15000));
    EXPECT_EQ(window.document()->filePath(), dropped);
    EXPECT_EQ(window.viewport()->scene()->lodCount(0), 2);
}

TEST(MainWindow, ADecodeErrorKeepsThePreviousAssetAndNamesTheOffset) {
    const QString good = writeFixture("app_error", "good.mesh", makeUvSphere());
    // A FileMesh 2.00 header that promises more vertices than the file holds.
    FileMeshWriteOptions options;
    options.version = "2.00";
    FileMeshWriteResult written = writeFileMesh(makeUvSphere(), 0, options);
    ASSERT_TRUE(written.ok());
    written.bytes.resize(written.bytes.size() / 2);
    const auto badPath = test::tempDir("app_error_bad") / "truncated.mesh";
    test::writeFile(badPath, written.bytes);

    MainWindow window;
    window.setInteractive(false);
    ASSERT_TRUE(window.openFileNow(good));
    QSignalSpy failed(&window, &MainWindow::openFailed);
    QString error;
    EXPECT_FALSE(window.openFileNow(QString::fromStdString(badPath.string()), &error));
    EXPECT_TRUE(error.contains("offset 0x")) << error.toStdString();
    ASSERT_EQ(failed.count(), 1);
    EXPECT_EQ(window.document()->filePath(), good);
    EXPECT_EQ(window.viewport()->scene()->meshCount(), 1);
}

TEST(MainWindow, AddInspectorDockListsItUnderPanels) {
    MainWindow window;
    auto* dock = new QDockWidget("Hex", &window);
    window.addInspectorDock(dock, Qt::BottomDockWidgetArea);
    EXPECT_EQ(window.dockWidgetArea(dock), Qt::BottomDockWidgetArea);
    bool listed = false;
    for (QAction* a : window.findChildren<QAction*>()) listed |= a == dock->toggleViewAction();
    EXPECT_TRUE(listed);
}

TEST(MainWindow, SelectingALodNodeHighlightsTheMeshAndShowsThatLevel) {
    const QString path = writeFixture("app_highlight", "lods.mesh", makeLodSphere(3));
    MainWindow window;
    ASSERT_NO_FATAL_FAILURE(test::openShown(window, path));
    const Asset& asset = window.document()->asset();
    int lodNode = -1;
    for (std::size_t i = 0; i < asset.nodes.size(); ++i)
        if (asset.links(int(i)).lod == 2) lodNode = int(i);
    ASSERT_GE(lodNode, 0) << "the FileMesh decoder gives every LOD a node";

    render::CaptureOptions options;
    options.size = QSize(320, 240);
    const QImage before = window.viewport()->captureImageBlocking(options);
    window.document()->selectNode(lodNode);
    render::AssetScene* scene = window.viewport()->scene();
    EXPECT_EQ(scene->highlightedMesh(), 0);
    EXPECT_EQ(scene->lod(0), 2);
    const QImage after = window.viewport()->captureImageBlocking(options);
    ASSERT_FALSE(before.isNull());
    ASSERT_FALSE(after.isNull());
    after.save(QString::fromStdString(
        (test::tempDir("app_highlight_out") / "lod2_selected.png").string()));
    // The highlighted coarse level looks different from the plain fine one at the centre.
    EXPECT_NE(before.pixel(160, 120), after.pixel(160, 120));

    window.document()->selectNode(-1);
    EXPECT_EQ(scene->highlightedMesh(), -1);
}

TEST(MainWindow, ViewShortcutsWorkWhileTheThreeDViewHasFocus) {
    MainWindow window;
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    window.document()->setDecoded("hand.bin", "hand.bin", QByteArray(32, '\0'), handMadeResult());
    window.activateWindow();
    QWindow* view = window.viewport()->renderWindow();
    QTest::mouseClick(view, Qt::LeftButton, Qt::NoModifier, QPoint(20, 20));
    EXPECT_FALSE(window.viewport()->wireframe());
    QTest::keyClick(view, Qt::Key_W);
    EXPECT_TRUE(window.viewport()->wireframe());
    const bool grid = window.viewport()->gridVisible();
    QTest::keyClick(view, Qt::Key_G);
    EXPECT_NE(window.viewport()->gridVisible(), grid);
}

// On a 100 000-part place the filter runs once the typing pauses, not at every keystroke: four
// keystrokes in a row leave the tree as it was until the pause, then one pass keeps the typed
// part and its ancestors. Enter applies at once; clearing the box too.
TEST(MainWindow, FilterOnALargePlaceWaitsForAPauseInTheTyping) {
    const Asset place = makeRobloxPlace(100000);
    const auto written = writeRobloxModel(place);
    ASSERT_TRUE(written.ok());
    MainWindow window;
    window.setInteractive(false);
    window.document()->setDecoded(
        "place.rbxl", "place.rbxl",
        QByteArray(reinterpret_cast<const char*>(written.bytes.data()),
                   qsizetype(written.bytes.size())),
        decodeBytes(ByteSpan(written.bytes.data(), written.bytes.size())));
    ASSERT_GT(window.document()->asset().nodes.size(), StructureDock::kImmediateFilterNodes);
    StructureDock* dock = window.structureDock();
    QAbstractItemModel* model = dock->view()->model();
    const int roots = model->rowCount();
    ASSERT_EQ(roots, 2);  // Workspace, Lighting
    QElapsedTimer t;
    t.start();
    for (const char* typed : {"P", "Pa", "Par", "Part99999"}) {
        dock->filterEdit()->setText(typed);
        EXPECT_TRUE(dock->filterPending()) << typed;
        EXPECT_EQ(dock->appliedFilter(), QString()) << typed;
        EXPECT_EQ(model->rowCount(), roots) << typed;
    }
    const qint64 typing = t.restart();
    ASSERT_TRUE(QTest::qWaitFor([&] { return !dock->filterPending(); }, 5000));
    std::printf("4 keystrokes: %lld ms; the one filtering pass after the pause: %lld ms\n",
                static_cast<long long>(typing), static_cast<long long>(t.elapsed()));
    EXPECT_EQ(dock->appliedFilter(), QStringLiteral("Part99999"));
    // Workspace > Group999 > Part99999, one row at each level.
    ASSERT_EQ(model->rowCount(), 1);
    const QModelIndex workspace = model->index(0, 0);
    EXPECT_EQ(workspace.data().toString(), QStringLiteral("Workspace"));
    ASSERT_EQ(model->rowCount(workspace), 1);
    const QModelIndex group = model->index(0, 0, workspace);
    EXPECT_EQ(group.data().toString(), QStringLiteral("Group999"));
    ASSERT_EQ(model->rowCount(group), 1);
    EXPECT_EQ(model->index(0, 0, group).data().toString(), QStringLiteral("Part99999"));

    // Enter applies what is typed without waiting.
    dock->filterEdit()->setText("Group12");
    EXPECT_TRUE(dock->filterPending());
    emit dock->filterEdit()->returnPressed();
    EXPECT_FALSE(dock->filterPending());
    EXPECT_EQ(dock->appliedFilter(), QStringLiteral("Group12"));
    ASSERT_EQ(model->rowCount(), 1);
    EXPECT_EQ(model->rowCount(model->index(0, 0)), 11);  // Group12, Group120 ... Group129
    // Clearing shows the whole tree at once.
    dock->filterEdit()->clear();
    EXPECT_FALSE(dock->filterPending());
    EXPECT_EQ(model->rowCount(), roots);
}

// Decoders give Color3uint8 as floats 0..1 (binary and XML alike): the swatch and the hex name
// are the colour's bytes, not those floats read as bytes (a grey part showed as #010101).
TEST(PropertiesDock, Color3uint8ShowsTheColoursBytes) {
    const Asset place = makeRobloxPlace(1);
    const auto written = writeRobloxModel(place);
    ASSERT_TRUE(written.ok());
    const DecodeResult decoded = decodeBytes(ByteSpan(written.bytes.data(), written.bytes.size()));
    ASSERT_TRUE(decoded.ok());
    int checked = 0;
    for (std::size_t n = 0; n < decoded.asset.nodes.size(); ++n) {
        for (const Property& p : decoded.asset.properties(int(n))) {
            if (p.type != "Color3uint8") continue;
            const auto* v = std::get_if<Vec3>(&p.value);
            ASSERT_NE(v, nullptr);
            const QString want =
                QColor(qRound(v->x * 255), qRound(v->y * 255), qRound(v->z * 255)).name().toUpper();
            EXPECT_TRUE(PropertiesDock::valueText(p).startsWith(want))
                << PropertiesDock::valueText(p).toStdString() << " want " << want.toStdString();
            ++checked;
        }
    }
    EXPECT_GT(checked, 0) << "makeRobloxPlace wrote no Color3uint8 property";
}

// Tabified docks show whole titles ("Properties", "Face (FACS)"), not "Proper…".
TEST(MainWindow, DockTabsShowWholeTitles) {
    MainWindow window;
    window.setInteractive(false);
    window.resize(1000, 700);
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    QApplication::processEvents();
    int tabs = 0;
    for (QTabBar* bar : window.findChildren<QTabBar*>()) {
        if (!bar->isVisible()) continue;
        for (int i = 0; i < bar->count(); ++i) {
            EXPECT_GE(bar->tabRect(i).width(),
                      bar->fontMetrics().horizontalAdvance(bar->tabText(i)))
                << bar->tabText(i).toStdString();
            ++tabs;
        }
    }
    EXPECT_GE(tabs, 2) << "no tabified docks found";
}

// F3 repeats the hex view's last search while the focus is elsewhere in the window (the
// structure tree here), not only in the hex view.
TEST(MainWindow, FindNextWorksFromAnyPanel) {
    const QString path = writeFixture("app_find_next", "sphere.mesh", makeLodSphere(2));
    MainWindow window;
    ASSERT_NO_FATAL_FAILURE(test::openShown(window, path));
    HexView* hex = window.hexDock()->hexView();
    // "version" occurs once: every F3 finds it again (wrapping), at offset 0.
    ASSERT_TRUE(hex->find("ersion"));
    ASSERT_EQ(hex->selectionOffset(), 1u);
    hex->selectRange(4, 1);
    QTreeView* tree = window.structureDock()->view();
    tree->setFocus();
    window.activateWindow();
    QApplication::processEvents();
    QTest::keyClick(tree, Qt::Key_F3);
    EXPECT_EQ(hex->selectionOffset(), 1u) << "F3 with the tree focused did not find again";
}

namespace {
// The viewport as the screen shows it (the on-screen frame, not a capture: a capture changes
// the frame graph, which hid the wireframe bug below).
QImage onScreen(QWidget* view) {
    const QPoint g = view->mapToGlobal(QPoint(0, 0));
    return QGuiApplication::primaryScreen()
        ->grabWindow(0, g.x(), g.y(), view->width(), view->height())
        .toImage()
        .convertToFormat(QImage::Format_RGB32);
}

// Waits until two grabs 200 ms apart agree (the on-demand renderer has drawn what changed).
QImage settledOnScreen(QWidget* view) {
    QImage last = onScreen(view);
    for (int i = 0; i < 25; ++i) {
        QTest::qWait(200);
        QImage next = onScreen(view);
        if (next == last) return next;
        last = std::move(next);
    }
    return last;
}

// Grabs until `done(grab)` holds on a settled screen (two grabs 200 ms apart agree), for up to
// 50 tries 200 ms apart: a loaded machine may take seconds to draw the next frame, and may hold a
// passing one (a whole view of another frame, seen once in CI) for a grab or two after the frame
// that was waited for. Returns the last grab.
template <typename Done>
QImage onScreenWhen(QWidget* view, Done&& done) {
    QImage grab = onScreen(view);
    for (int i = 0; i < 50; ++i) {
        if (done(grab)) {
            grab = settledOnScreen(view);
            if (done(grab)) return grab;
        }
        QTest::qWait(200);
        grab = onScreen(view);
    }
    return grab;
}

int differing(const QImage& a, const QImage& b) {
    if (a.size() != b.size()) return a.width() * a.height();
    int n = 0;
    for (int y = 0; y < a.height(); ++y)
        for (int x = 0; x < a.width(); ++x) n += a.pixel(x, y) != b.pixel(x, y);
    return n;
}
}  // namespace

// W draws the triangle edges on screen at once, and W again takes them away.
TEST(MainWindow, WireframeToggleShowsOnScreen) {
    const QString path = writeFixture("app_wire_screen", "sphere.mesh", makeUvSphere(16, 24, 1.0f));
    MainWindow window;
    window.setInteractive(false);
    window.resize(1100, 750);
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    ASSERT_TRUE(window.openFileNow(path));
    window.setWireframe(false);
    const auto drawnIn = [](const QImage& image) {
        if (image.isNull()) return 0;
        const QRgb corner = image.pixel(2, 2);
        int drawn = 0;
        for (int y = 0; y < image.height(); y += 4)
            for (int x = 0; x < image.width(); x += 4) drawn += image.pixel(x, y) != corner;
        return drawn;
    };
    // Each step waits for the frame it expects (a first frame may take seconds on a loaded
    // machine), then for the screen to settle; a frame that never comes fails below.
    const QImage shaded =
        onScreenWhen(window.viewport(), [&](const QImage& g) { return drawnIn(g) > 50; });
    ASSERT_FALSE(shaded.isNull());
    ASSERT_GT(drawnIn(shaded), 50) << "the screen grab shows no scene (no GL on this display?)";
    window.setWireframe(true);
    const QImage wire = onScreenWhen(window.viewport(),
                                     [&](const QImage& g) { return differing(shaded, g) > 200; });
    EXPECT_GT(differing(shaded, wire), 200) << "W drew no lines on screen";
    window.setWireframe(false);
    const QImage back =
        onScreenWhen(window.viewport(), [&](const QImage& g) { return differing(shaded, g) < 50; });
    EXPECT_LT(differing(shaded, back), 50) << "the lines stayed after W again";
}

// A place that keeps its parts outside Workspace (ReplicatedStorage) shows an empty world, as
// Roblox Studio does, and the status bar says how many parts were left out and where to turn
// them on; View > Parts Outside Workspace opens the place again with them drawn, and off again.
TEST(MainWindow, PartsOutsideWorkspaceAreCountedAndDrawnOnRequest) {
    Asset place;
    place.format = "roblox-model";
    place.addNode("Workspace", "Workspace");
    const int rs = place.addNode("ReplicatedStorage", "ReplicatedStorage");
    const int folder = place.addNode("Maps", "Folder", rs);
    place.addChild(rs, folder);
    for (int i = 0; i < 2; ++i) test::addPart(place, folder, "Spare", {float(4 * i), 0, 0});
    const QString path = writeModelFixture("app_outside_ws", "stored.rbxl", place);
    ASSERT_FALSE(path.isEmpty());

    MainWindow window;
    ASSERT_NO_FATAL_FAILURE(test::openShown(window, path));
    EXPECT_FALSE(window.partsOutsideWorkspace());
    EXPECT_TRUE(window.document()->partMeshes().parts.empty());
    EXPECT_EQ(window.document()->partMeshes().outsideWorkspace, 2u);
    EXPECT_EQ(window.viewport()->scene()->stats().triangles, 0u);
    const auto statusSays = [&](const QString& text) {
        for (const QLabel* label : window.statusBar()->findChildren<QLabel*>())
            if (label->text().contains(text)) return true;
        return false;
    };
    EXPECT_TRUE(statusSays(QStringLiteral("2 parts outside Workspace not drawn")));
    QAction* action = window.findChild<QAction*>(QStringLiteral("partsOutsideWorkspaceAction"));
    ASSERT_NE(action, nullptr);
    EXPECT_TRUE(action->isCheckable());

    // On: the place opens again (on the worker) with both parts drawn.
    QSignalSpy opened(&window, &MainWindow::fileOpened);
    action->setChecked(true);
    ASSERT_TRUE(opened.count() > 0 || opened.wait(15000));
    EXPECT_TRUE(window.partsOutsideWorkspace());
    EXPECT_EQ(window.document()->partMeshes().parts.size(), 2u);
    EXPECT_EQ(window.document()->partMeshes().outsideWorkspace, 0u);
    EXPECT_GT(window.viewport()->scene()->stats().triangles, 0u);
    EXPECT_FALSE(statusSays(QStringLiteral("outside Workspace")));

    // Off again: left out again.
    opened.clear();
    action->setChecked(false);
    ASSERT_TRUE(opened.count() > 0 || opened.wait(15000));
    EXPECT_TRUE(window.document()->partMeshes().parts.empty());
    EXPECT_TRUE(statusSays(QStringLiteral("2 parts outside Workspace not drawn")));

    // A decode started before the choice runs again with it.
    opened.clear();
    window.openFile(path);
    action->setChecked(true);
    ASSERT_TRUE(opened.wait(15000));
    QTest::qWait(50);  // the first, cancelled job reports nothing
    EXPECT_EQ(opened.count(), 1);
    EXPECT_EQ(window.document()->partMeshes().parts.size(), 2u);
}

// A place with every part in Workspace draws the same either way: the toggle leaves it open as
// it is (no decode again, the selection kept) and only remembers the choice.
TEST(MainWindow, PartsOutsideWorkspaceToggleLeavesAPlaceWithNoneOpen) {
    Asset place;
    place.format = "roblox-model";
    const int ws = place.addNode("Workspace", "Workspace");
    test::addPart(place, ws, "Floor", {0, 0, 0});
    const QString path = writeModelFixture("app_inside_ws", "inside.rbxl", place);
    ASSERT_FALSE(path.isEmpty());

    MainWindow window;
    ASSERT_NO_FATAL_FAILURE(test::openShown(window, path));
    ASSERT_EQ(window.document()->partMeshes().parts.size(), 1u);
    EXPECT_EQ(window.document()->partMeshes().outsideWorkspace, 0u);
    const Asset* before = &window.document()->asset();
    QAction* action = window.findChild<QAction*>(QStringLiteral("partsOutsideWorkspaceAction"));
    ASSERT_NE(action, nullptr);

    QSignalSpy opened(&window, &MainWindow::fileOpened);
    action->setChecked(true);
    EXPECT_FALSE(opened.wait(300));
    EXPECT_TRUE(window.partsOutsideWorkspace());
    EXPECT_EQ(&window.document()->asset(), before);
    EXPECT_EQ(window.document()->partMeshes().parts.size(), 1u);
    action->setChecked(false);
    EXPECT_FALSE(opened.wait(300));
    EXPECT_EQ(opened.count(), 0);
}

// A place with terrain (#22): the Terrain row counts its chunks and voxels (materials in its
// tooltip), selecting it selects the SmoothGrid's bytes, and the view draws terrain and water.
TEST(MainWindow, TerrainRowCountsVoxelsAndSelectsTheGrid) {
    std::vector<TerrainChunkVoxels> chunks(2);
    chunks[1].x = 1;
    for (TerrainChunkVoxels& c : chunks) c.voxels.assign(32 * 32 * 32, {});
    for (int x = 0; x < 5; ++x) chunks[0].voxels[std::size_t(x + 32 * 40)] = {2, 255, 0};
    chunks[1].voxels[std::size_t(3 + 32 * 40)] = {1, 255, 0};
    const std::string grid = writeSmoothGrid(chunks);
    Asset place;
    place.format = "roblox-model";
    const int ws = place.addNode("Workspace", "Workspace");
    const int terrain = place.addNode("Terrain", "Terrain", ws);
    place.addChild(ws, terrain);
    place.addProperty(terrain, test::prop("Name", "string", std::string("Terrain")));
    place.addProperty(terrain, test::prop("SmoothGrid", "string", grid));
    RobloxModelWriteOptions options;
    options.compression = RobloxChunkCompression::None;
    const RobloxModelWriteResult written = writeRobloxModel(place, options);
    ASSERT_TRUE(written.ok());
    const auto path = test::tempDir("app_terrain") / "terrain.rbxl";
    test::writeFile(path, written.bytes);

    MainWindow window;
    window.setInteractive(false);
    window.show();
    QString error;
    ASSERT_TRUE(window.openFileNow(QString::fromStdString(path.string()), &error))
        << error.toStdString();
    const Asset& asset = window.document()->asset();
    const int node = findTerrainNode(asset);
    ASSERT_GE(node, 0);
    const NodeTreeModel* model = window.structureDock()->model();
    const QString kind =
        model->data(model->indexForNode(node, NodeTreeModel::KindColumn)).toString();
    EXPECT_TRUE(kind.contains("2 chunks")) << kind.toStdString();
    EXPECT_TRUE(kind.contains("5 solid voxels")) << kind.toStdString();
    EXPECT_TRUE(kind.contains("1 water voxels")) << kind.toStdString();
    const QString tip =
        model->data(model->indexForNode(node, NodeTreeModel::NameColumn), Qt::ToolTipRole)
            .toString();
    EXPECT_TRUE(tip.contains("Grass: 5 voxels")) << tip.toStdString();

    window.document()->selectNode(node);
    const Bytes needle(grid.begin(), grid.end());
    const auto at =
        std::search(written.bytes.begin(), written.bytes.end(), needle.begin(), needle.end());
    ASSERT_NE(at, written.bytes.end());
    EXPECT_EQ(window.document()->selectionOffset(), std::uint64_t(at - written.bytes.begin()));
    EXPECT_EQ(window.document()->selectionLength(), grid.size());

    // Terrain and water in the scene.
    EXPECT_GE(window.viewport()->scene()->meshCount(), 2);
}

// A TerrainRegion (a saved copy of terrain, #22) is drawn while it is selected: meshed on a
// worker, shown beside the scene, gone when the selection moves on.
TEST(MainWindow, SelectedTerrainRegionIsDrawnUntilTheSelectionMovesOn) {
    std::vector<TerrainChunkVoxels> chunks(1);
    chunks[0].voxels.assign(32 * 32 * 32, {});
    for (int x = 0; x < 4; ++x) chunks[0].voxels[std::size_t(x + 32 * 40)] = {2, 255, 0};
    Asset place;
    place.format = "roblox-model";
    const int ws = place.addNode("Workspace", "Workspace");
    const int part = place.addNode("Part", "Part", ws);
    place.addChild(ws, part);
    place.addProperty(part, test::prop("Name", "string", std::string("Part")));
    const int region = place.addNode("TerrainRegion", "TerrainRegion", ws);
    place.addChild(ws, region);
    place.addProperty(region, test::prop("Name", "string", std::string("Saved")));
    place.addProperty(region, test::prop("SmoothGrid", "string", writeSmoothGrid(chunks)));
    const RobloxModelWriteResult written = writeRobloxModel(place);
    ASSERT_TRUE(written.ok());
    const auto path = test::tempDir("app_terrain_region") / "region.rbxm";
    test::writeFile(path, written.bytes);

    MainWindow window;
    window.setInteractive(false);
    window.show();
    QString error;
    ASSERT_TRUE(window.openFileNow(QString::fromStdString(path.string()), &error))
        << error.toStdString();
    const Asset& asset = window.document()->asset();
    int node = -1, partNode = -1;
    for (int i = 0; i < int(asset.nodes.size()); ++i) {
        if (asset.kind(i) == "TerrainRegion") node = i;
        if (asset.kind(i) == "Part") partNode = i;
    }
    ASSERT_GE(node, 0);
    ASSERT_GE(partNode, 0);
    render::Viewport* view = window.viewport();
    EXPECT_EQ(view->selectionMeshCount(), 0) << "not drawn before it is selected";
    const int sceneMeshes = view->scene()->meshCount();
    window.document()->selectNode(node);
    QElapsedTimer clock;
    clock.start();
    while (view->selectionMeshCount() == 0 && clock.elapsed() < 5000) QTest::qWait(10);
    EXPECT_EQ(view->selectionMeshCount(), 1) << "the region's terrain surface (no water)";
    EXPECT_EQ(view->scene()->meshCount(), sceneMeshes) << "the scene itself is unchanged";
    render::CaptureOptions shot;
    shot.size = QSize(320, 240);
    const QImage withRegion = view->captureImageBlocking(shot);
    withRegion.save(test::qPath(test::tempDir("app_terrain_region") / "selected.png"));
    window.document()->selectNode(-1);
    EXPECT_EQ(view->selectionMeshCount(), 0);
    const QImage without = view->captureImageBlocking(shot);
    ASSERT_FALSE(withRegion.isNull());
    ASSERT_EQ(without.size(), withRegion.size());
    int differing = 0;
    for (int y = 0; y < without.height(); ++y)
        for (int x = 0; x < without.width(); ++x)
            differing += without.pixel(x, y) != withRegion.pixel(x, y);
    EXPECT_GT(differing, 100) << "the region's surface was drawn";
    window.document()->selectNode(node);
    clock.restart();
    while (view->selectionMeshCount() == 0 && clock.elapsed() < 5000) QTest::qWait(10);
    window.document()->selectNode(partNode);
    EXPECT_EQ(view->selectionMeshCount(), 0) << "another node selected";
    // A result that arrives after the selection moved on is dropped.
    window.document()->selectNode(node);
    window.document()->selectNode(-1);
    QTest::qWait(300);
    EXPECT_EQ(view->selectionMeshCount(), 0);
}

// View › Physics Hulls (#21): a union's PhysicsData hulls drawn over the scene while checked.
TEST(MainWindow, PhysicsHullsOfUnionsAreShownOnRequest) {
    Mesh hull;
    for (int c = 0; c < 8; ++c)
        hull.positions.push_back({c & 1 ? 1.f : -1.f, c & 2 ? 1.f : -1.f, c & 4 ? 1.f : -1.f});
    hull.indices = {0, 2, 1, 1, 2, 3, 4, 5, 6, 5, 7, 6, 0, 1, 4, 1, 5, 4,
                    2, 6, 3, 3, 6, 7, 0, 4, 2, 2, 4, 6, 1, 3, 5, 3, 7, 5};
    const Bytes physics = writeCsgPhysics({hull}, 3);
    Asset place;
    place.format = "roblox-model";
    const int ws = place.addNode("Workspace", "Workspace");
    const int u = place.addNode("Union", "UnionOperation", ws);
    place.addChild(ws, u);
    place.addProperty(u, test::prop("Name", "string", std::string("Union")));
    place.addProperty(u, test::prop("size", "Vector3", Vec3{4, 4, 4}));
    place.addProperty(
        u, test::prop("PhysicsData", "BinaryString", std::string(physics.begin(), physics.end())));
    const RobloxModelWriteResult written = writeRobloxModel(place);
    ASSERT_TRUE(written.ok());
    const auto path = test::tempDir("app_physics") / "union.rbxm";
    test::writeFile(path, written.bytes);

    MainWindow window;
    window.setInteractive(false);
    window.show();
    QString error;
    ASSERT_TRUE(window.openFileNow(QString::fromStdString(path.string()), &error))
        << error.toStdString();
    QAction* action = nullptr;
    for (QAction* a : window.findChildren<QAction*>())
        if (a->text().contains("Physics")) action = a;
    ASSERT_NE(action, nullptr);
    EXPECT_EQ(window.viewport()->physicsMeshCount(), 0);
    action->setChecked(true);
    EXPECT_EQ(window.viewport()->physicsMeshCount(), 1);
    action->setChecked(false);
    EXPECT_EQ(window.viewport()->physicsMeshCount(), 0);
}
