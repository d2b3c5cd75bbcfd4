// Reads and decodes one file off the GUI thread, with progress and cancellation (core's
// DecodeOptions::progress and ::cancel), and resolves a Roblox model's part meshes from the asset
// folders there too (core's resolvePartMeshes). Emits finished() on the GUI thread exactly once.
#pragma once

#include <QByteArray>
#include <QObject>
#include <QString>
#include <QStringList>
#include <atomic>
#include <functional>
#include <memory>

#include "meshscope/core/decode.h"
#include "meshscope/core/part_meshes.h"

class QThread;

namespace meshscope::shell {

struct DecodeOutcome {
    QString path;  // the file, or a ":/..." resource path for the built-in sample
    QString displayName;
    QByteArray bytes;
    DecodeResult result;
    // A Roblox model's parts and their meshes (diagnostics included; the document adds them to
    // the asset's). Empty for other formats and failed decodes.
    PartMeshes parts;
    QString readError;  // set when the file could not be read at all
    bool cancelled = false;
};

class DecodeJob : public QObject {
    Q_OBJECT
public:
    // `assetFolders`: where mesh references are looked up (settings::searchAssetFolders(), read
    // on the GUI thread).
    explicit DecodeJob(QString path, QStringList assetFolders = {}, QObject* parent = nullptr);
    ~DecodeJob() override;

    const QString& path() const { return path_; }
    // A place's parts outside Workspace are drawn too (PartMeshOptions::allServices). Before
    // start().
    void setPartsOutsideWorkspace(bool on) { partsOutsideWorkspace_ = on; }
    void start();
    void cancel();
    bool running() const { return thread_ != nullptr; }

    // Decodes on the calling thread (for the command line and tests); mesh references are looked
    // up in `assetFolders` only (none: every part is drawn as its shape, each reference warned).
    // `partsOutsideWorkspace`: a place's parts outside Workspace are drawn too.
    static DecodeOutcome decodeNow(const QString& path, const std::atomic<bool>* cancel = nullptr,
                                   std::function<void(double)> progress = {},
                                   const QStringList& assetFolders = {},
                                   bool partsOutsideWorkspace = false);

signals:
    void progress(double fraction);
    void finished(std::shared_ptr<meshscope::shell::DecodeOutcome> outcome);

private:
    QString path_;
    QStringList assetFolders_;
    bool partsOutsideWorkspace_ = false;
    QThread* thread_ = nullptr;
    std::atomic<bool> cancel_{false};
    std::shared_ptr<DecodeOutcome> outcome_;
};

}  // namespace meshscope::shell
