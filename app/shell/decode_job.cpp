// Background decoding (see decode_job.h).
#include "decode_job.h"

#include <QFile>
#include <QFileInfo>
#include <QMetaObject>
#include <QPointer>
#include <QThread>

namespace meshscope::shell {

DecodeJob::DecodeJob(QString path, QObject* parent) : QObject(parent), path_(std::move(path)) {}

DecodeJob::~DecodeJob() {
    if (thread_) {
        cancel_ = true;
        thread_->wait();
        delete thread_;
    }
}

DecodeOutcome DecodeJob::decodeNow(const QString& path, const std::atomic<bool>* cancel,
                                   std::function<void(double)> progress) {
    DecodeOutcome out;
    out.path = path;
    out.displayName = path.startsWith(QLatin1String(":/")) ? QStringLiteral("Sample")
                                                           : QFileInfo(path).fileName();
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        out.readError = file.errorString();
        return out;
    }
    out.bytes = file.readAll();
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
    out.cancelled = out.result.error && out.result.error->code == "cancelled";
    return out;
}

void DecodeJob::start() {
    if (thread_) return;
    outcome_ = std::make_shared<DecodeOutcome>();
    QPointer<DecodeJob> self(this);
    thread_ = QThread::create([this, self]() {
        *outcome_ = decodeNow(path_, &cancel_, [self, this](double f) {
            // Throttled by the receiver; queued to the GUI thread.
            QMetaObject::invokeMethod(
                this,
                [self, f]() {
                    if (self) emit self->progress(f);
                },
                Qt::QueuedConnection);
        });
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
