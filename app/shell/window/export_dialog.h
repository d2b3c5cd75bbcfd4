// File › Export…: writes the open asset as glTF binary (.glb), glTF (.gltf + .bin), Wavefront OBJ
// (.obj + .mtl; both the level of detail currently drawn) or Roblox FileMesh (.mesh, version 2.00
// to 7.00) through core's exporter and FileMesh writer. Refuses to overwrite the file that is open.
// For glTF it asks which animations go in: the asset's own, the one loaded with File › Load
// Animation, and any "From file…", added as meshscope-cli export --animation adds them.
#pragma once

#include <QString>
#include <QStringList>
#include <cstddef>
#include <optional>
#include <vector>

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
    // glTF only. The asset's own animations to write, by index into Asset::animations (unset:
    // all of them), and files whose animations are put on the asset first with core's
    // addAnimationsFrom (Roblox KeyframeSequences and CurveAnimations baked on its rig, Unigine
    // .sanim / .anim by bone names), as meshscope-cli export --animation does.
    std::optional<std::vector<int>> ownAnimations;
    QStringList animationFiles;
};

struct ExportOutcome {
    bool ok = false;
    QString error;
    QStringList warnings;
    QStringList files;
    // What was written, for the message shown when the export finishes.
    std::size_t meshes = 0, triangles = 0, parts = 0, animations = 0;
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

// The glTF animation choice: one checkable row per animation of the asset (checked), one per
// `loadedAnimationFiles` (File › Load Animation; checked) and a "From file…" button that adds
// rows. Fills ownAnimations and animationFiles of a request.
struct ExportAnimationChoice {
    QString label;
    int ownIndex = -1;  // >= 0: Asset::animations[ownIndex]
    QString file;       // otherwise: a file whose animations are added
    bool checked = true;
};
std::vector<ExportAnimationChoice> exportAnimationChoices(const Asset& asset,
                                                          const QStringList& loadedAnimationFiles);
void applyAnimationChoices(const std::vector<ExportAnimationChoice>& choices,
                           ExportRequest& request);

// Asks for a file name, type and (FileMesh) version, for glTF which animations go in, exports,
// and shows the outcome (what was written; warnings and errors in a message box). `drawnLod` is
// the level the view draws now; `loadedAnimationFiles` the files File › Load Animation put on the
// open rig.
void exportInteractive(QWidget* parent, const Asset& asset, const QString& inputPath,
                       const QString& displayName, int drawnLod,
                       const QStringList& loadedAnimationFiles = {});

}  // namespace meshscope::shell
