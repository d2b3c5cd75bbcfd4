// Cancelling a background decode stops it promptly: a 2M-triangle FileMesh v4 (written by core's
// writer from makeGridMesh), a binary place and an XML model are decoded on the worker thread and
// cancelled while they run; the time from cancel() to the job's finished signal (what the window
// waits for) is measured and printed, never asserted.
#include <gtest/gtest.h>

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTest>
#include <QToolButton>
#include <cstdio>

#include "document/asset_document.h"
#include "document/decode_job.h"
#include "fixtures.h"
#include "meshscope/core/roblox_model_writer.h"
#include "window/main_window.h"

using namespace meshscope;
using namespace meshscope::shell;

namespace {

const QString& bigFile() {
    static const QString path = [] {
        return inspector_test::writeFileMeshFixture("insp_cancel", "grid2m.mesh",
                                                    makeGridMesh(2'000'000));
    }();
    return path;
}

}  // namespace

TEST(DecodeCancel, CancellingALongDecodeFinishesTheJobPromptly) {
    const QString path = bigFile();

    // Reference: the uncancelled decode of the same file.
    QElapsedTimer full;
    full.start();
    const DecodeOutcome complete = DecodeJob::decodeNow(path);
    const double fullMs = double(full.nsecsElapsed()) / 1e6;
    ASSERT_FALSE(complete.result.error.has_value());
    ASSERT_EQ(complete.result.asset.meshes.at(0).triangleCount(), 2'000'000u);

    DecodeJob job(path);
    QSignalSpy progress(&job, &DecodeJob::progress);
    QElapsedTimer sinceCancel;
    double cancelMs = -1;
    std::shared_ptr<DecodeOutcome> outcome;
    QObject::connect(&job, &DecodeJob::finished, &job,
                     [&](const std::shared_ptr<DecodeOutcome>& o) {
                         cancelMs = double(sinceCancel.nsecsElapsed()) / 1e6;
                         outcome = o;
                     });
    job.start();
    // Cancel once the decoder reports progress (it is under way), or after 20 ms.
    progress.wait(20);
    sinceCancel.start();
    job.cancel();
    ASSERT_TRUE(QTest::qWaitFor([&] { return outcome != nullptr; }, 10000));
    ASSERT_TRUE(outcome);
    std::printf(
        "[ measured ] cancel → job finished: %.1f ms (full decode %.1f ms, cancelled: %s)\n",
        cancelMs, fullMs, outcome->cancelled ? "yes" : "no, it had finished");
    // Either the decoder saw the cancel, or it had already finished with the whole mesh.
    if (!outcome->cancelled) {
        EXPECT_FALSE(outcome->result.error.has_value());
    }
}

TEST(DecodeCancel, TheStatusBarCancelButtonKeepsTheWindowEmpty) {
    const QString path = bigFile();
    MainWindow window;
    window.setInteractive(false);
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    QSignalSpy opened(&window, &MainWindow::fileOpened);
    window.openFile(path);
    ASSERT_TRUE(window.isDecoding());
    QToolButton* cancel = nullptr;
    for (QToolButton* b : window.findChildren<QToolButton*>())
        if (b->toolTip() == QStringLiteral("Cancel decoding")) cancel = b;
    ASSERT_NE(cancel, nullptr);
    QElapsedTimer sinceCancel;
    sinceCancel.start();
    cancel->click();
    ASSERT_TRUE(QTest::qWaitFor([&] { return !window.isDecoding(); }, 10000));
    const double ms = double(sinceCancel.nsecsElapsed()) / 1e6;
    std::printf("[ measured ] cancel button → window idle: %.1f ms\n", ms);
    if (opened.count() == 0) {
        EXPECT_FALSE(window.document()->hasAsset());
    }
}

namespace {

// Decodes `path` on a job and cancels it from the GUI thread when the job reports half its
// progress; prints the time from cancel() to the job's finished signal.
void cancelHalfWay(const char* what, const QString& path) {
    DecodeJob job(path);
    QElapsedTimer sinceCancel;
    double cancelMs = -1;
    std::shared_ptr<DecodeOutcome> outcome;
    QObject::connect(&job, &DecodeJob::progress, &job, [&](double f) {
        if (f >= 0.5 && !sinceCancel.isValid()) {
            sinceCancel.start();
            job.cancel();
        }
    });
    QObject::connect(&job, &DecodeJob::finished, &job,
                     [&](const std::shared_ptr<DecodeOutcome>& o) {
                         if (sinceCancel.isValid())
                             cancelMs = double(sinceCancel.nsecsElapsed()) / 1e6;
                         outcome = o;
                     });
    QElapsedTimer total;
    total.start();
    job.start();
    ASSERT_TRUE(QTest::qWaitFor([&] { return outcome != nullptr; }, 120000));
    ASSERT_TRUE(sinceCancel.isValid()) << what << ": the job reported no progress past half way";
    std::printf(
        "[ measured ] %s: cancel at half progress → job finished: %.1f ms (%s, %.0f ms "
        "in all)\n",
        what, cancelMs, outcome->cancelled ? "cancelled" : "it had finished first",
        double(total.elapsed()));
    if (outcome->cancelled) {
        EXPECT_TRUE(outcome->result.asset.nodes.empty()) << "a cancelled result shows nothing";
        EXPECT_EQ(outcome->result.discarded, nullptr)
            << "the job frees what the decoder handed back, off the GUI thread";
    } else {
        EXPECT_FALSE(outcome->result.error.has_value());
    }
}

}  // namespace

TEST(DecodeCancel, ALargeBinaryPlaceStopsHalfWay) {
    const RobloxModelWriteResult written = writeRobloxModel(makeRobloxPlace(400'000));
    ASSERT_TRUE(written.ok());
    const auto file = test::tempDir("insp_cancel_place") / "place.rbxl";
    test::writeFile(file, written.bytes);
    cancelHalfWay("binary place, 400 000 parts", QString::fromStdString(file.string()));
}

TEST(DecodeCancel, ALargeXmlModelStopsHalfWay) {
    const std::string doc = test::xmlPartsModel(150'000);
    const auto file = test::tempDir("insp_cancel_xml") / "model.rbxmx";
    test::writeFile(file, Bytes(doc.begin(), doc.end()));
    cancelHalfWay("XML model, 150 000 items", QString::fromStdString(file.string()));
}
