// File › Export: the export function behind the dialog (FileMesh, glTF and OBJ from the open
// asset, the level drawn, never over the open file) and its menu entry.
#include "window/export_dialog.h"

#include <gtest/gtest.h>

#include <QAction>
#include <filesystem>

#include "meshscope/core/decode.h"
#include "meshscope/core/mesh_generators.h"
#include "support/qt_test_support.h"
#include "support/test_support.h"
#include "window/main_window.h"

using namespace meshscope;

namespace {

QString qs(const std::filesystem::path& p) {
    return test::qPath(p);
}

}  // namespace

TEST(Export, FileMeshAndGlbFromTheExportFunction) {
    const Asset sphere = makeLodSphere(3);
    const auto dir = test::tempDir("export_dialog");
    shell::ExportRequest mesh;
    mesh.path = qs(dir / "out.mesh");
    mesh.kind = shell::ExportKind::FileMesh;
    mesh.fileMeshVersion = QStringLiteral("3.00");
    const shell::ExportOutcome m = shell::exportAssetTo(sphere, QString(), mesh);
    ASSERT_TRUE(m.ok) << m.error.toStdString();
    const DecodeResult back = decodeFile((dir / "out.mesh").string());
    ASSERT_TRUE(back.ok());
    ASSERT_EQ(back.asset.meshes.size(), 1u);
    EXPECT_EQ(back.asset.meshes[0].positions.size(), sphere.meshes[0].positions.size());

    shell::ExportRequest glb;
    glb.path = qs(dir / "out.glb");
    glb.kind = shell::ExportKind::Glb;
    const shell::ExportOutcome g = shell::exportAssetTo(sphere, QString(), glb);
    ASSERT_TRUE(g.ok) << g.error.toStdString();
    EXPECT_TRUE(std::filesystem::exists(dir / "out.glb"));
    EXPECT_GT(std::filesystem::file_size(dir / "out.glb"), 1000u);
    // The level drawn is the level written, and the summary says what was written.
    EXPECT_EQ(g.triangles, std::size_t(sphere.meshes[0].lods[0].triangleCount));
    EXPECT_EQ(g.meshes, 1u);
    glb.lod = 2;
    const shell::ExportOutcome g2 = shell::exportAssetTo(sphere, QString(), glb);
    ASSERT_TRUE(g2.ok) << g2.error.toStdString();
    EXPECT_EQ(g2.triangles, std::size_t(sphere.meshes[0].lods[2].triangleCount));
    EXPECT_TRUE(g2.summary().contains(QStringLiteral("1 mesh"))) << g2.summary().toStdString();
    EXPECT_TRUE(g2.summary().contains(QString::number(g2.triangles))) << g2.summary().toStdString();

    // Never over the open file: exporting onto the input fails and leaves it alone.
    const auto before = std::filesystem::file_size(dir / "out.mesh");
    mesh.fileMeshVersion = QStringLiteral("2.00");
    const shell::ExportOutcome same = shell::exportAssetTo(sphere, qs(dir / "out.mesh"), mesh);
    EXPECT_FALSE(same.ok);
    EXPECT_EQ(std::filesystem::file_size(dir / "out.mesh"), before);
    shell::ExportRequest obj;
    obj.path = qs(dir / "out.obj");
    obj.kind = shell::ExportKind::Obj;
    const shell::ExportOutcome o = shell::exportAssetTo(sphere, qs(dir / "out.mtl"), obj);
    EXPECT_FALSE(o.ok) << "the .mtl beside the .obj is the open file";
}

TEST(Export, FileMenuHasExportOnCtrlE) {
    shell::MainWindow window;
    QAction* found = nullptr;
    for (QAction* a : window.findChildren<QAction*>())
        if (a->shortcut() == QKeySequence(Qt::CTRL | Qt::Key_E)) found = a;
    ASSERT_NE(found, nullptr);
    EXPECT_TRUE(found->text().contains(QStringLiteral("Export")));
    EXPECT_FALSE(found->text().contains(QStringLiteral("Screenshot")));
}
