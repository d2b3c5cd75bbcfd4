// The viewer's persistent settings (see settings.h).
#include "document/settings.h"

#include <QDir>
#include <QFileInfo>
#include <QSettings>

namespace meshscope::shell::settings {

QStringList assetFolders() {
    return QSettings().value(QLatin1String(kAssetFoldersKey)).toStringList();
}

void setAssetFolders(const QStringList& folders) {
    QStringList clean;
    for (const QString& f : folders) {
        const QString abs = QDir::cleanPath(QFileInfo(f).absoluteFilePath());
        if (!abs.isEmpty() && !clean.contains(abs)) clean << abs;
    }
    QSettings().setValue(QLatin1String(kAssetFoldersKey), clean);
}

bool addAssetFolder(const QString& folder) {
    if (!QFileInfo(folder).isDir()) return false;
    QStringList list = assetFolders();
    list << folder;
    setAssetFolders(list);
    return true;
}

namespace {
QStringList& sessionFolders() {
    static QStringList folders;
    return folders;
}
}  // namespace

void addSessionAssetFolder(const QString& folder) {
    const QString abs = QDir::cleanPath(QFileInfo(folder).absoluteFilePath());
    if (!sessionFolders().contains(abs)) sessionFolders().append(abs);
}

QStringList searchAssetFolders() {
    QStringList folders = assetFolders();
    for (const QString& f : sessionFolders())
        if (!folders.contains(f)) folders.append(f);
    return folders;
}

bool wireframe() {
    return QSettings().value(QLatin1String(kWireframeKey), false).toBool();
}
void setWireframe(bool on) {
    QSettings().setValue(QLatin1String(kWireframeKey), on);
}
bool gridVisible() {
    return QSettings().value(QLatin1String(kGridKey), true).toBool();
}
void setGridVisible(bool on) {
    QSettings().setValue(QLatin1String(kGridKey), on);
}

bool partsOutsideWorkspace() {
    return QSettings().value(QLatin1String(kPartsOutsideWorkspaceKey), false).toBool();
}
void setPartsOutsideWorkspace(bool on) {
    QSettings().setValue(QLatin1String(kPartsOutsideWorkspaceKey), on);
}

QByteArray windowGeometry() {
    return QSettings().value(QLatin1String(kGeometryKey)).toByteArray();
}
QByteArray windowState() {
    return QSettings().value(QLatin1String(kStateKey)).toByteArray();
}
void setWindowLayout(const QByteArray& geometry, const QByteArray& state) {
    QSettings s;
    s.setValue(QLatin1String(kGeometryKey), geometry);
    s.setValue(QLatin1String(kStateKey), state);
}

}  // namespace meshscope::shell::settings
