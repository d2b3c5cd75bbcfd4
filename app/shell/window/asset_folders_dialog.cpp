// Edit › Asset Folders… (see asset_folders_dialog.h).
#include "window/asset_folders_dialog.h"

#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

#include "document/settings.h"

namespace meshscope::shell {

AssetFoldersDialog::AssetFoldersDialog(QWidget* parent) : QDialog(parent) {
    setWindowTitle(tr("Asset Folders"));
    auto* layout = new QVBoxLayout(this);
    auto* label = new QLabel(
        tr("Referenced assets (Roblox MeshIds and textures) are looked up in these folders. "
           "Dropping a folder on the window adds it here."),
        this);
    label->setWordWrap(true);
    layout->addWidget(label);
    auto* row = new QHBoxLayout;
    list_ = new QListWidget(this);
    for (const QString& f : settings::assetFolders()) list_->addItem(QDir::toNativeSeparators(f));
    row->addWidget(list_, 1);
    auto* buttons = new QVBoxLayout;
    auto* add = new QPushButton(tr("&Add…"), this);
    auto* remove = new QPushButton(tr("&Remove"), this);
    buttons->addWidget(add);
    buttons->addWidget(remove);
    buttons->addStretch(1);
    row->addLayout(buttons);
    layout->addLayout(row, 1);
    auto* box = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    layout->addWidget(box);
    connect(add, &QPushButton::clicked, this, [this]() {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Add Asset Folder"));
        if (!dir.isEmpty() &&
            list_->findItems(QDir::toNativeSeparators(dir), Qt::MatchExactly).isEmpty())
            list_->addItem(QDir::toNativeSeparators(dir));
    });
    connect(remove, &QPushButton::clicked, this, [this]() { delete list_->currentItem(); });
    connect(box, &QDialogButtonBox::accepted, this, [this]() {
        save();
        accept();
    });
    connect(box, &QDialogButtonBox::rejected, this, &QDialog::reject);
    resize(520, 320);
}

void AssetFoldersDialog::save() {
    QStringList folders;
    for (int i = 0; i < list_->count(); ++i)
        folders << QDir::fromNativeSeparators(list_->item(i)->text());
    settings::setAssetFolders(folders);
}

}  // namespace meshscope::shell
