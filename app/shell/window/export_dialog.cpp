// File › Export… (see export_dialog.h).
#include "window/export_dialog.h"

#include <QDialog>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QLabel>
#include <QListWidget>
#include <QLocale>
#include <QMessageBox>
#include <QPushButton>
#include <QSaveFile>
#include <QVBoxLayout>
#include <QWidget>

#include "document/settings.h"
#include "meshscope/core/decode.h"
#include "meshscope/core/export.h"
#include "meshscope/core/roblox_animation.h"
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
        if (animations) text += QObject::tr(", %n animation(s)", nullptr, int(animations));
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
    // The animations asked for: a copy of the asset with only the chosen own ones, and those of
    // the files put on it by core (meshscope-cli export --animation does the same).
    const bool chooses = request.ownAnimations || !request.animationFiles.isEmpty();
    if (chooses && options.format == ExportFormat::Obj && !request.animationFiles.isEmpty()) {
        out.error = QObject::tr("OBJ holds no animation; export glTF to include %1")
                        .arg(request.animationFiles.join(QStringLiteral(", ")));
        return out;
    }
    std::optional<Asset> withAnimations;
    if (chooses && options.format != ExportFormat::Obj) {
        withAnimations = asset;
        if (request.ownAnimations) {
            std::vector<Animation> kept;
            for (const int i : *request.ownAnimations)
                if (i >= 0 && i < int(asset.animations.size()))
                    kept.push_back(asset.animations[std::size_t(i)]);
            withAnimations->animations = std::move(kept);
        }
        for (const QString& file : request.animationFiles) {
            const DecodeResult source = decodeFile(file.toStdString());
            if (!source.ok()) {
                out.error = QObject::tr("%1: %2").arg(
                    file, QString::fromStdString(source.error->toString()));
                return out;
            }
            const AnimationTransfer t = addAnimationsFrom(*withAnimations, source.asset);
            for (const std::string& w : t.warnings)
                out.warnings << QObject::tr("%1: %2").arg(file, QString::fromStdString(w));
            if (!t.ok()) {
                out.error = QObject::tr("%1: %2").arg(file, QString::fromStdString(t.error));
                return out;
            }
        }
    }
    const ExportResult result =
        exportAsset(withAnimations ? *withAnimations : asset, path, options);
    out.warnings << toQStrings(result.warnings);
    out.files = toQStrings(result.files);
    out.animations = result.stats.animations;
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

std::vector<ExportAnimationChoice> exportAnimationChoices(const Asset& asset,
                                                          const QStringList& loadedAnimationFiles) {
    std::vector<ExportAnimationChoice> out;
    for (int i = 0; i < int(asset.animations.size()); ++i) {
        const Animation& a = asset.animations[std::size_t(i)];
        ExportAnimationChoice c;
        c.ownIndex = i;
        c.label =
            a.name.empty() ? QObject::tr("animation %1").arg(i) : QString::fromStdString(a.name);
        out.push_back(c);
    }
    for (const QString& file : loadedAnimationFiles) {
        ExportAnimationChoice c;
        c.file = file;
        c.label = QObject::tr("%1 (loaded)").arg(QFileInfo(file).fileName());
        out.push_back(c);
    }
    return out;
}

void applyAnimationChoices(const std::vector<ExportAnimationChoice>& choices,
                           ExportRequest& request) {
    request.ownAnimations.emplace();
    request.animationFiles.clear();
    for (const ExportAnimationChoice& c : choices) {
        if (!c.checked) continue;
        if (c.ownIndex >= 0)
            request.ownAnimations->push_back(c.ownIndex);
        else if (!c.file.isEmpty())
            request.animationFiles << c.file;
    }
}

namespace {

// The animation dialog: the choices as checkable rows and "From file…". False when cancelled.
bool askAnimations(QWidget* parent, std::vector<ExportAnimationChoice>& choices) {
    QDialog dialog(parent);
    dialog.setWindowTitle(QObject::tr("Export Animations"));
    auto* layout = new QVBoxLayout(&dialog);
    layout->addWidget(new QLabel(QObject::tr("Animations written to the glTF file:"), &dialog));
    auto* list = new QListWidget(&dialog);
    const auto addRow = [list](const ExportAnimationChoice& c) {
        auto* item = new QListWidgetItem(c.label, list);
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        item->setCheckState(c.checked ? Qt::Checked : Qt::Unchecked);
        if (!c.file.isEmpty()) item->setToolTip(c.file);
    };
    for (const ExportAnimationChoice& c : choices) addRow(c);
    layout->addWidget(list, 1);
    auto* fromFile = new QPushButton(QObject::tr("From File…"), &dialog);
    layout->addWidget(fromFile);
    QObject::connect(fromFile, &QPushButton::clicked, &dialog, [&]() {
        const QString file = QFileDialog::getOpenFileName(
            &dialog, QObject::tr("Animation File"), {},
            QObject::tr("Animations (*.sanim *.anim *.rbxm *.rbxmx);;All files (*)"));
        if (file.isEmpty()) return;
        ExportAnimationChoice c;
        c.file = file;
        c.label = QFileInfo(file).fileName();
        choices.push_back(c);
        addRow(c);
    });
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    QObject::connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    QObject::connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    layout->addWidget(buttons);
    if (dialog.exec() != QDialog::Accepted) return false;
    for (int i = 0; i < list->count() && i < int(choices.size()); ++i)
        choices[std::size_t(i)].checked = list->item(i)->checkState() == Qt::Checked;
    return true;
}

}  // namespace

void exportInteractive(QWidget* parent, const Asset& asset, const QString& inputPath,
                       const QString& displayName, int drawnLod,
                       const QStringList& loadedAnimationFiles) {
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
    // glTF: which animations go in (offered when there is a skeleton to play them on).
    if ((request.kind == ExportKind::Glb || request.kind == ExportKind::Gltf) &&
        (!asset.animations.empty() || !asset.skeletons.empty() ||
         !loadedAnimationFiles.isEmpty())) {
        std::vector<ExportAnimationChoice> choices =
            exportAnimationChoices(asset, loadedAnimationFiles);
        if (!askAnimations(parent, choices)) return;
        applyAnimationChoices(choices, request);
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
