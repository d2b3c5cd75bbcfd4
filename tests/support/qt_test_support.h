// Shared helpers of the Qt test executables (tests/render, tests/app): paths as QString, running
// a program (the viewer) to completion, and dropping files on a widget the way a file manager
// does.
#pragma once

#include <gtest/gtest.h>

#include <QApplication>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QElapsedTimer>
#include <QMimeData>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <QUrl>
#include <QWidget>
#include <filesystem>
#include <string>

#include "meshscope/core/roblox_model_writer.h"
#include "support/test_support.h"

namespace meshscope::test {

inline QString qPath(const std::filesystem::path& path) {
    return QString::fromStdString(path.string());
}

// `model` written as a binary Roblox model (the writer's defaults) to tempDir(dir)/name; "" (and
// a failed expectation) when the writer refuses it.
inline QString writeModelFixture(const std::string& dir, const std::string& name,
                                 const Asset& model) {
    const RobloxModelWriteResult written = writeRobloxModel(model);
    EXPECT_TRUE(written.ok());
    if (!written.ok()) return {};
    const auto path = tempDir(dir) / name;
    writeFile(path, written.bytes);
    return qPath(path);
}

struct ProcessRun {
    int exitCode = -1;  // -1 when the program crashed or timed out
    QString stderrText;
    qint64 ms = 0;
};

// Runs `program` with `args` to its end (killed after `timeoutMs`).
inline ProcessRun runProcess(const QString& program, const QStringList& args,
                             int timeoutMs = 60000) {
    QProcess p;
    QElapsedTimer t;
    t.start();
    p.start(program, args);
    ProcessRun r;
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
        r.stderrText = QStringLiteral("timed out");
        return r;
    }
    r.ms = t.elapsed();
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.stderrText = QString::fromLocal8Bit(p.readAllStandardError());
    return r;
}

// Sends a drag-enter and a drop of `urls` to the centre of `target`; true when both were
// accepted.
inline bool dropUrls(QWidget& target, const QList<QUrl>& urls) {
    QMimeData mime;
    mime.setUrls(urls);
    const QPoint centre = target.rect().center();
    QDragEnterEvent enter(centre, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&target, &enter);
    EXPECT_TRUE(enter.isAccepted());
    if (!enter.isAccepted()) return false;
    QDropEvent drop(QPointF(centre), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&target, &drop);
    EXPECT_TRUE(drop.isAccepted());
    return drop.isAccepted();
}

}  // namespace meshscope::test
