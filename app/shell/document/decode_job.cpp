// Background decoding (see decode_job.h).
#include "document/decode_job.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QMetaObject>
#include <QPointer>
#include <QThread>
#include <QThreadPool>
#include <algorithm>

#include "meshscope/core/error_codes.h"

namespace meshscope::shell {

DecodeJob::DecodeJob(QString path, QStringList assetFolders, QObject* parent)
    : QObject(parent), path_(std::move(path)), assetFolders_(std::move(assetFolders)) {}

DecodeJob::~DecodeJob() {
    if (thread_) {
        cancel_ = true;
        thread_->wait();
        delete thread_;
    }
}

DecodeOutcome DecodeJob::decodeNow(const QString& path, const std::atomic<bool>* cancel,
                                   std::function<void(double)> progress,
                                   const QStringList& assetFolders, bool partsOutsideWorkspace) {
    DecodeOutcome out;
    out.path = path;
    out.displayName = path.startsWith(QLatin1String(":/")) ? QStringLiteral("Sample")
                                                           : QFileInfo(path).fileName();
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        out.readError = file.errorString();
        return out;
    }
    // Read in 8 MiB steps so that Cancel also stops the read of a large file (~0.1 s for
    // 100 MB here).
    constexpr qint64 kStep = qint64(8) << 20;
    const qint64 size = file.size();
    if (size > kStep) {
        out.bytes = QByteArray(size, Qt::Uninitialized);  // resize() would round up to 2^n
        qint64 done = 0;
        while (done < size) {
            if (cancel && cancel->load(std::memory_order_relaxed)) {
                out.bytes = QByteArray();
                out.cancelled = true;
                out.result.error = DecodeError{errc::kCancelled, std::uint64_t(done), "",
                                               "decoding was cancelled"};
                return out;
            }
            const qint64 n = file.read(out.bytes.data() + done, std::min(kStep, size - done));
            if (n <= 0) break;
            done += n;
        }
        out.bytes.resize(done);
    } else {
        out.bytes = file.readAll();
    }
    if (file.error() != QFileDevice::NoError) {
        out.readError = file.errorString();
        return out;
    }
    DecodeOptions options;
    options.fileName = QFileInfo(path).fileName().toStdString();
    options.cancel = cancel;
    options.progress = std::move(progress);
    const auto* data = reinterpret_cast<const std::uint8_t*>(out.bytes.constData());
    out.result = decodeBytes(ByteSpan(data, static_cast<std::size_t>(out.bytes.size())), options);
    out.cancelled = out.result.error && out.result.error->code == errc::kCancelled;
    if (!out.result.error && isRobloxModel(out.result.asset)) {
        PartMeshOptions parts;
        for (const QString& f : assetFolders)
            parts.folders.emplace_back(QFile::encodeName(QDir(f).absolutePath()).toStdString());
        parts.limits = options.limits;
        parts.cancel = cancel;
        parts.allServices = partsOutsideWorkspace;
        out.parts = resolvePartMeshes(out.result.asset, parts);
        if (out.parts.cancelled) {
            // As a cancelled decode does: what was built is handed back to be freed elsewhere.
            out.cancelled = true;
            out.result.error = DecodeError{errc::kCancelled, 0, "", "decoding was cancelled"};
            out.result.discarded = std::make_shared<std::pair<Asset, PartMeshes>>(
                std::move(out.result.asset), std::move(out.parts));
            out.result.asset = Asset{};
            out.parts = PartMeshes{};
        }
    }
    return out;
}

void DecodeJob::start() {
    if (thread_) return;
    outcome_ = std::make_shared<DecodeOutcome>();
    QPointer<DecodeJob> self(this);
    thread_ = QThread::create([this, self]() {
        *outcome_ = decodeNow(
            path_, &cancel_,
            [self, this](double f) {
                // Throttled by the receiver; queued to the GUI thread.
                QMetaObject::invokeMethod(
                    this,
                    [self, f]() {
                        if (self) emit self->progress(f);
                    },
                    Qt::QueuedConnection);
            },
            assetFolders_, partsOutsideWorkspace_);
        // A cancelled decode hands back what it had built instead of freeing it (for a large
        // model, 0.1 s or more): free it on a pool thread so that "cancelled" reaches the window
        // at once.
        if (std::shared_ptr<void> garbage = std::move(outcome_->result.discarded))
            QThreadPool::globalInstance()->start([garbage]() mutable { garbage.reset(); });
    });
    connect(thread_, &QThread::finished, this, [this]() {
        thread_->deleteLater();
        thread_ = nullptr;
        emit finished(outcome_);
    });
    thread_->start();
}

void DecodeJob::cancel() {
    cancel_ = true;
}

}  // namespace meshscope::shell
