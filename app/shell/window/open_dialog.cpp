#include "window/open_dialog.h"

#include <QFile>
#include <QFileDialog>
#include <QFileSystemModel>
#include <algorithm>
#include <array>
#include <cctype>

#include "meshscope/core/decode.h"

namespace meshscope::shell {

namespace {

const QString kSniffingFilter = QObject::tr("All supported files (*)");

// Extensions that say nothing about the content: sniff these like names without one.
bool genericSuffix(const QString& suffix) {
    static const QStringList generic = {QStringLiteral("txt"), QStringLiteral("bin"),
                                        QStringLiteral("dat"), QStringLiteral("asset"),
                                        QStringLiteral("tmp")};
    return generic.contains(suffix);
}

bool knownSuffix(const QString& suffix) {
    for (const FormatDecoder& d : decoders())
        for (const std::string& e : d.extensions)
            if (QString::fromStdString(e).mid(1) == suffix) return true;
    return false;
}

}  // namespace

bool isSupportedFile(const QFileInfo& file) {
    if (!file.isFile()) return false;
    // Names like "12345.678" (an asset id with a version) have a numeric "suffix".
    const QString suffix = file.suffix().toLower();
    bool numeric = false;
    suffix.toLongLong(&numeric);
    if (!suffix.isEmpty() && !numeric && !genericSuffix(suffix)) return knownSuffix(suffix);
    QFile f(file.filePath());
    if (!f.open(QIODevice::ReadOnly)) return false;
    // Enough for every probe's magic (the Second Life LLSD header comes first, then the map).
    std::array<char, 256> head{};
    const qint64 n = f.read(head.data(), qint64(head.size()));
    if (n <= 0) return false;
    const auto* bytes = reinterpret_cast<const std::uint8_t*>(head.data());
    return sniff(ByteSpan(bytes, std::size_t(n))).decoder != nullptr;
}

void SupportedFilesProxy::setSniffing(bool on) {
    if (on == sniffing_) return;
    sniffing_ = on;
    invalidateFilter();
}

bool SupportedFilesProxy::filterAcceptsRow(int row, const QModelIndex& parent) const {
    if (!sniffing_) return true;
    const auto* fs = qobject_cast<const QFileSystemModel*>(sourceModel());
    if (!fs) return true;
    const QFileInfo info = fs->fileInfo(fs->index(row, 0, parent));
    return info.isDir() || isSupportedFile(info);
}

QStringList openNameFilters() {
    return {kSniffingFilter,
            QObject::tr("Roblox meshes (*.mesh *.bin)"),
            QObject::tr("Roblox models and places (*.rbxm *.rbxl *.rbxmx *.rbxlx)"),
            QObject::tr("Unigine (*.mesh *.mesh_skinned *.skeleton *.smesh *.sanim *.anim)"),
            QObject::tr("Second Life mesh (*.llmesh *.slm *.txt)"),
            QObject::tr("All files (*)")};
}

QStringList getOpenAssetPaths(QWidget* parent) {
    QFileDialog dialog(parent, QObject::tr("Open Asset"));
    dialog.setFileMode(QFileDialog::ExistingFiles);
    // The proxy needs Qt's own dialog (a native one cannot filter by content).
    dialog.setOption(QFileDialog::DontUseNativeDialog);
    dialog.setNameFilters(openNameFilters());
    auto* proxy = new SupportedFilesProxy(&dialog);
    dialog.setProxyModel(proxy);
    QObject::connect(&dialog, &QFileDialog::filterSelected, proxy, [proxy](const QString& filter) {
        proxy->setSniffing(filter == kSniffingFilter);
    });
    if (dialog.exec() != QDialog::Accepted) return {};
    return dialog.selectedFiles();
}

}  // namespace meshscope::shell
