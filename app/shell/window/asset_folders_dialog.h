// Edit › Asset Folders…: the list of folders where referenced assets (Roblox MeshIds ...) are
// looked up, stored in QSettings "assetFolders". Folders dropped on the window are added too.
#pragma once

#include <QDialog>

class QListWidget;

namespace meshscope::shell {

class AssetFoldersDialog : public QDialog {
    Q_OBJECT
public:
    explicit AssetFoldersDialog(QWidget* parent = nullptr);
    QListWidget* list() const { return list_; }
    // Writes the list to the settings (also done on OK).
    void save();

private:
    QListWidget* list_;
};

}  // namespace meshscope::shell
