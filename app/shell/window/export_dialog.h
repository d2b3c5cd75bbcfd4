// File › Export…: writes the open asset as glTF binary (.glb), glTF (.gltf + .bin), Wavefront OBJ
// (.obj + .mtl; both the level of detail currently drawn) or Roblox FileMesh (.mesh, version 2.00
// to 7.00) through core's exporter and FileMesh writer. Refuses to overwrite the file that is open.
#pragma once

#include <QString>
#include <QStringList>
#include <cstddef>

class QWidget;

namespace meshscope {
struct Asset;
}

namespace meshscope::shell {

enum class ExportKind { Glb, Gltf, Obj, FileMesh };

struct ExportRequest {
    QString path;
    ExportKind kind = ExportKind::Glb;
    QString fileMeshVersion = QStringLiteral("4.00");  // FileMesh only
    int lod = -1;          // the level to write (-1 = LOD 0), for glTF and OBJ
    bool allLods = false;  // glTF: the other levels as MSFT_lod alternates
    // Where a union's AssetId is looked up (the viewer's asset folders,
    // settings::searchAssetFolders()), as the decode used them.
    QStringList assetFolders;
};

struct ExportOutcome {
    bool ok = false;
    QString error;
    QStringList warnings;
    QStringList files;
    // What was written, for the message shown when the export finishes.
    std::size_t meshes = 0, triangles = 0, parts = 0;
    // "Wrote FILE: 3 meshes, 1 200 triangles, 2 warnings." (empty when not ok).
    QString summary() const;
};

// The FileMesh versions the writer accepts, oldest first.
QStringList fileMeshVersions();
// The kind a file name asks for (by extension); Glb when unknown.
ExportKind exportKindForPath(const QString& path);

// Writes `asset` as `request` says. `inputPath` is the open file: no file the export would write
// may be it (the export fails instead).
ExportOutcome exportAssetTo(const Asset& asset, const QString& inputPath,
                            const ExportRequest& request);

// Asks for a file name, type and (FileMesh) version, exports, and shows the outcome (warnings and
// errors in a message box). `drawnLod` is the level the view draws now.
void exportInteractive(QWidget* parent, const Asset& asset, const QString& inputPath,
                       const QString& displayName, int drawnLod);

}  // namespace meshscope::shell
