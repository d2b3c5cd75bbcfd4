// Reads and decodes one file off the GUI thread, with progress and cancellation (core's
// DecodeOptions::progress and ::cancel). Emits finished() on the GUI thread exactly once.
#pragma once

#include <QByteArray>
#include <QObject>
#include <QString>
#include <atomic>
#include <functional>
#include <memory>

#include "meshscope/core/decode.h"

class QThread;

namespace meshscope::shell {

struct DecodeOutcome {
    QString path;  // the file, or a ":/..." resource path for the built-in sample
    QString displayName;
    QByteArray bytes;
    DecodeResult result;
    QString readError;  // set when the file could not be read at all
    bool cancelled = false;
};

class DecodeJob : public QObject {
    Q_OBJECT
public:
    explicit DecodeJob(QString path, QObject* parent = nullptr);
    ~DecodeJob() override;

    const QString& path() const { return path_; }
    void start();
    void cancel();
    bool running() const { return thread_ != nullptr; }

    // Decodes on the calling thread (for the command line and tests).
    static DecodeOutcome decodeNow(const QString& path, const std::atomic<bool>* cancel = nullptr,
                                   std::function<void(double)> progress = {});

signals:
    void progress(double fraction);
    void finished(std::shared_ptr<meshscope::shell::DecodeOutcome> outcome);

private:
    QString path_;
    QThread* thread_ = nullptr;
    std::atomic<bool> cancel_{false};
    std::shared_ptr<DecodeOutcome> outcome_;
};

}  // namespace meshscope::shell
