// The viewer's persistent settings in one place (QSettings keys and typed accessors): asset
// folders (where Roblox MeshIds and other references are looked up), view options, and window
// geometry / dock layout.
#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>

namespace meshscope::shell::settings {

// QSettings keys.
inline constexpr const char* kAssetFoldersKey = "assetFolders";
inline constexpr const char* kWireframeKey = "view/wireframe";
inline constexpr const char* kGridKey = "view/grid";
inline constexpr const char* kPartsOutsideWorkspaceKey = "view/partsOutsideWorkspace";
inline constexpr const char* kGeometryKey = "window/geometry";
inline constexpr const char* kStateKey = "window/state";

QStringList assetFolders();
void setAssetFolders(const QStringList& folders);
// Adds `folder` (absolute, without duplicates); returns false when it is not a directory.
bool addAssetFolder(const QString& folder);
// Folders added for this run only (--asset-folder), searched after the saved ones. GUI thread.
void addSessionAssetFolder(const QString& folder);
// Where mesh references are looked up: the saved folders, then this run's. Read it on the GUI
// thread and hand the list to the decode job.
QStringList searchAssetFolders();

bool wireframe();
void setWireframe(bool on);
bool gridVisible();
void setGridVisible(bool on);
// A place's parts outside Workspace drawn too (off by default, as Roblox Studio draws a place).
bool partsOutsideWorkspace();
void setPartsOutsideWorkspace(bool on);

QByteArray windowGeometry();
QByteArray windowState();
void setWindowLayout(const QByteArray& geometry, const QByteArray& state);

}  // namespace meshscope::shell::settings
