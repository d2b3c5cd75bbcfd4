// File › Export… (see export_dialog.h).
#include "window/export_dialog.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QLocale>
#include <QMessageBox>
#include <QSaveFile>
#include <QWidget>

#include "document/settings.h"
#include "meshscope/core/export.h"
#include "meshscope/core/roblox_mesh_writer.h"

namespace meshscope::shell {

namespace {

const QString kGlbFilter = QObject::tr("glTF binary (*.glb)");
const QString kGltfFilter = QObject::tr("glTF with separate buffer (*.gltf)");
const QString kObjFilter = QObject::tr("Wavefront OBJ (*.obj)");
const QString kMeshFilter = QObject::tr("Roblox FileMesh (*.mesh)");

// True when `a` and `b` name the same file (canonical paths when they exist).
bool sameFile(const QString& a, const QString& b) {
    if (a.isEmpty() || b.isEmpty()) return false;
    const QFileInfo fa(a), fb(b);
    const QString ca = fa.exists() ? fa.canonicalFilePath() : fa.absoluteFilePath();
    const QString cb = fb.exists() ? fb.canonicalFilePath() : fb.absoluteFilePath();
    return ca == cb;
}

QStringList toQStrings(const std::vector<std::string>& list) {
    QStringList out;
    for (const std::string& s : list) out << QString::fromStdString(s);
    return out;
}

QString withSuffix(QString path, const QString& suffix) {
    if (QFileInfo(path).suffix().compare(suffix, Qt::CaseInsensitive) != 0)
        path += QLatin1Char('.') + suffix;
    return path;
}

}  // namespace

QString ExportOutcome::summary() const {
    if (!ok) return {};
    QString text = QObject::tr("Wrote %1").arg(files.join(QStringLiteral(", ")));
    if (meshes || triangles) {
        const QLocale locale;
        text += QObject::tr(": %n mesh(es), ", nullptr, int(meshes)) +
                QObject::tr("%1 triangles").arg(locale.toString(qulonglong(triangles)));
        if (parts) text += QObject::tr(", %1 parts").arg(locale.toString(qulonglong(parts)));
    }
    text += QObject::tr(", %n warning(s).", nullptr, int(warnings.size()));
    return text;
}

QStringList fileMeshVersions() {
    return {QStringLiteral("2.00"), QStringLiteral("3.00"), QStringLiteral("3.01"),
            QStringLiteral("4.00"), QStringLiteral("4.01"), QStringLiteral("5.00"),
            QStringLiteral("6.00"), QStringLiteral("7.00")};
}

ExportKind exportKindForPath(const QString& path) {
    const QString s = QFileInfo(path).suffix().toLower();
    if (s == QLatin1String("gltf")) return ExportKind::Gltf;
    if (s == QLatin1String("obj")) return ExportKind::Obj;
    if (s == QLatin1String("mesh")) return ExportKind::FileMesh;
    return ExportKind::Glb;
}

ExportOutcome exportAssetTo(const Asset& asset, const QString& inputPath,
                            const ExportRequest& request) {
    ExportOutcome out;
    if (request.kind == ExportKind::FileMesh) {
        if (sameFile(request.path, inputPath)) {
            out.error = QObject::tr("%1 is the open file; choose another name").arg(request.path);
            return out;
        }
        const FileMeshWriteResult written =
            convertToFileMesh(asset, request.fileMeshVersion.toStdString());
        out.warnings = toQStrings(written.warnings);
        if (!written.ok()) {
            out.error = QString::fromStdString(*written.error);
            return out;
        }
        QSaveFile file(request.path);
        if (!file.open(QIODevice::WriteOnly) ||
            file.write(reinterpret_cast<const char*>(written.bytes.data()),
                       qint64(written.bytes.size())) != qint64(written.bytes.size()) ||
            !file.commit()) {
            out.error = file.errorString();
            return out;
        }
        out.files << request.path;
        out.ok = true;
        return out;
    }

    ExportOptions options;
    options.format = request.kind == ExportKind::Gltf  ? ExportFormat::Gltf
                     : request.kind == ExportKind::Obj ? ExportFormat::Obj
                                                       : ExportFormat::Glb;
    if (request.lod >= 0) options.lod = request.lod;
    options.allLods = request.allLods;
    for (const QString& folder : request.assetFolders)
        options.assetFolders.push_back(folder.toStdString());
    const std::string path = request.path.toStdString();
    for (const std::string& f : exportFilePaths(path, options.format)) {
        if (sameFile(QString::fromStdString(f), inputPath)) {
            out.error = QObject::tr("the export would overwrite the open file %1")
                            .arg(QString::fromStdString(f));
            return out;
        }
    }
    const ExportResult result = exportAsset(asset, path, options);
    out.warnings = toQStrings(result.warnings);
    out.files = toQStrings(result.files);
    out.meshes = result.stats.meshes;
    out.triangles = result.stats.triangles;
    out.parts = result.stats.parts;
    if (!result.ok()) {
        out.error = QString::fromStdString(*result.error);
        return out;
    }
    out.ok = true;
    return out;
}

void exportInteractive(QWidget* parent, const Asset& asset, const QString& inputPath,
                       const QString& displayName, int drawnLod) {
    const QString base = displayName.isEmpty() ? QStringLiteral("meshscope")
                                               : QFileInfo(displayName).completeBaseName();
    const QString dir = inputPath.isEmpty() ? QString() : QFileInfo(inputPath).absolutePath();
    QString filter = kGlbFilter;
    QString path = QFileDialog::getSaveFileName(
        parent, QObject::tr("Export"), dir.isEmpty() ? base + ".glb" : dir + "/" + base + ".glb",
        QStringList{kGlbFilter, kGltfFilter, kObjFilter, kMeshFilter}.join(QStringLiteral(";;")),
        &filter);
    if (path.isEmpty()) return;

    ExportRequest request;
    if (filter == kGltfFilter)
        request.kind = ExportKind::Gltf;
    else if (filter == kObjFilter)
        request.kind = ExportKind::Obj;
    else if (filter == kMeshFilter)
        request.kind = ExportKind::FileMesh;
    else
        request.kind = exportKindForPath(path);
    static const char* const suffixes[] = {"glb", "gltf", "obj", "mesh"};
    request.path = withSuffix(path, QLatin1String(suffixes[int(request.kind)]));
    request.lod = drawnLod;
    request.assetFolders = settings::searchAssetFolders();
    if (request.kind == ExportKind::FileMesh) {
        bool ok = false;
        const QStringList versions = fileMeshVersions();
        const QString version = QInputDialog::getItem(
            parent, QObject::tr("Export FileMesh"), QObject::tr("FileMesh version:"), versions,
            int(versions.indexOf(QStringLiteral("4.00"))), false, &ok);
        if (!ok) return;
        request.fileMeshVersion = version;
    }

    const ExportOutcome outcome = exportAssetTo(asset, inputPath, request);
    if (!outcome.ok) {
        QString text = QObject::tr("The export failed: %1").arg(outcome.error);
        if (!outcome.warnings.isEmpty())
            text += QStringLiteral("\n\n") + outcome.warnings.join(QLatin1Char('\n'));
        QMessageBox::warning(parent, QObject::tr("Export"), text);
        return;
    }
    // Always say what was written; the warnings, when there are any, below it.
    QMessageBox box(QMessageBox::Information, QObject::tr("Export"), outcome.summary(),
                    QMessageBox::Ok, parent);
    if (!outcome.warnings.isEmpty()) {
        box.setDetailedText(outcome.warnings.join(QLatin1Char('\n')));
        box.setInformativeText(outcome.warnings.mid(0, 5).join(QLatin1Char('\n')));
    }
    box.exec();
}

}  // namespace meshscope::shell
