// File › Open: a file dialog whose "All supported files" filter sniffs content, so that the
// files people actually have show up — downloaded Roblox meshes named by their numeric asset id
// (no extension), Second Life assets saved as .txt or raw blobs — not only known extensions.
#pragma once

#include <QFileInfo>
#include <QSortFilterProxyModel>
#include <QStringList>

class QWidget;

namespace meshscope::shell {

// Whether the open dialog lists this file under "All supported files": a known extension, or
// (for names without one, numeric names and generic extensions such as .txt/.bin/.dat) content
// that one of the decoders recognises in its first bytes.
bool isSupportedFile(const QFileInfo& file);

// The proxy the dialog uses: folders always, files when isSupportedFile() or when the active
// filter is not the sniffing one.
class SupportedFilesProxy : public QSortFilterProxyModel {
    Q_OBJECT
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;
    void setSniffing(bool on);
    bool sniffing() const { return sniffing_; }

protected:
    bool filterAcceptsRow(int row, const QModelIndex& parent) const override;

private:
    bool sniffing_ = true;
};

// The name filters of the open dialog; the first is the sniffing "All supported files (*)".
QStringList openNameFilters();

// Runs the dialog; returns the chosen files (empty when cancelled).
QStringList getOpenAssetPaths(QWidget* parent);

}  // namespace meshscope::shell
