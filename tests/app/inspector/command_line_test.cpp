// The viewer's command line as the desktop entry uses it (`meshscope %F`): several files open in
// a window each, titled with its file; `--screenshot` with several files writes one numbered
// image per file. And a long load: the status bar's Cancel shows while the window keeps
// handling events.
#include <gtest/gtest.h>

#include <QElapsedTimer>
#include <QFileInfo>
#include <QImage>
#include <QProgressBar>
#include <QSignalSpy>
#include <QTest>
#include <QThread>
#include <QTimer>
#include <QToolButton>
#include <Qt3DRender/QCamera>
#include <algorithm>
#include <cstdio>

#include "document/asset_document.h"
#include "fixtures.h"
#include "meshscope/render/asset_scene.h"
#include "meshscope/render/viewport.h"
#include "support/image_baseline.h"
#include "viewer_app.h"
#include "window/main_window.h"

using namespace meshscope;
using namespace meshscope::shell;
using namespace meshscope::inspector_test;

namespace {

ViewerOptions parse(const QStringList& arguments) {
    ViewerOptions options;
    const auto exitCode =
        parseViewerOptions(QStringList{QStringLiteral("meshscope")} + arguments, options);
    EXPECT_FALSE(exitCode.has_value()) << arguments.join(' ').toStdString();
    return options;
}

// The status bar's Cancel button and progress bar of a shown, non-interactive main window.
struct StatusBarDecode {
    QToolButton* cancel = nullptr;
    QProgressBar* progress = nullptr;
};
StatusBarDecode showForDecoding(MainWindow& window) {
    window.setInteractive(false);
    window.show();
    EXPECT_TRUE(QTest::qWaitForWindowExposed(&window));
    StatusBarDecode s;
    for (QToolButton* b : window.findChildren<QToolButton*>())
        if (b->toolTip() == QStringLiteral("Cancel decoding")) s.cancel = b;
    s.progress = window.findChild<QProgressBar*>();
    return s;
}

}  // namespace

TEST(CommandLine, TwoFilesOpenTwoWindowsEachTitledWithItsFile) {
    const QString first = writeFileMeshFixture("cli_two_a", "first.mesh", makeUvSphere());
    const QString second = writeFileMeshFixture("cli_two_b", "second.mesh", makeLodSphere(2));
    const ViewerOptions options = parse({first, second});
    ASSERT_EQ(options.files.size(), 2);

    MainWindow window;
    window.setInteractive(false);
    const QList<MainWindow*> windows = openViewerWindows(window, options);
    ASSERT_EQ(windows.size(), 2);
    EXPECT_EQ(windows[0], &window) << "the first file opens in the first window";
    ASSERT_NE(windows[1], &window) << "the second file opens in a window of its own";
    for (MainWindow* w : windows) {
        EXPECT_TRUE(w->isVisible());
        ASSERT_TRUE(QTest::qWaitFor([w] { return w->document()->hasAsset(); }, 15000));
    }
    EXPECT_EQ(windows[0]->document()->filePath(), first);
    EXPECT_EQ(windows[1]->document()->filePath(), second);
    EXPECT_TRUE(windows[0]->windowTitle().startsWith(QStringLiteral("first.mesh")))
        << windows[0]->windowTitle().toStdString();
    EXPECT_TRUE(windows[1]->windowTitle().startsWith(QStringLiteral("second.mesh")))
        << windows[1]->windowTitle().toStdString();
    windows[1]->close();  // WA_DeleteOnClose
}

TEST(CommandLine, ScreenshotPathsAreNumberedOnlyForSeveralFiles) {
    EXPECT_EQ(screenshotPath(QStringLiteral("/tmp/shot.png"), 0, 1),
              QStringLiteral("/tmp/shot.png"));
    EXPECT_EQ(screenshotPath(QStringLiteral("/tmp/shot.png"), 0, 2),
              QStringLiteral("/tmp/shot-1.png"));
    EXPECT_EQ(screenshotPath(QStringLiteral("/tmp/shot.png"), 1, 2),
              QStringLiteral("/tmp/shot-2.png"));
    EXPECT_EQ(screenshotPath(QStringLiteral("out/a.b.jpg"), 2, 3), QStringLiteral("out/a.b-3.jpg"));
    EXPECT_EQ(screenshotPath(QStringLiteral("out/shot"), 0, 2), QStringLiteral("out/shot-1"));
}

TEST(CommandLine, ScreenshotOfTwoFilesWritesOneNumberedImageOfEach) {
    const QString sphere = writeFileMeshFixture("cli_shot_a", "sphere.mesh", makeUvSphere());
    const QString cylinder =
        writeFileMeshFixture("cli_shot_b", "cylinder.mesh", makeSkinnedCylinder(3));
    const QString dir = QString::fromStdString(test::tempDir("cli_shot_out").string());
    const QString out = dir + QStringLiteral("/shot.png");

    {
        MainWindow window;
        const ViewerOptions options =
            parse({QStringLiteral("--screenshot"), out, QStringLiteral("--size"),
                   QStringLiteral("160x120"), sphere, cylinder});
        ASSERT_EQ(writeScreenshots(window, options), 0);
    }
    EXPECT_FALSE(QFileInfo::exists(out)) << "with two files no image takes OUT's own name";
    const QImage first(dir + QStringLiteral("/shot-1.png"));
    const QImage second(dir + QStringLiteral("/shot-2.png"));
    ASSERT_FALSE(first.isNull());
    ASSERT_FALSE(second.isNull());
    EXPECT_EQ(first.size(), QSize(160, 120));
    EXPECT_EQ(second.size(), QSize(160, 120));

    // Each numbered image is the picture a run with that file alone makes.
    const QString alone[2] = {dir + QStringLiteral("/sphere_alone.png"),
                              dir + QStringLiteral("/cylinder_alone.png")};
    const QString files[2] = {sphere, cylinder};
    for (int i = 0; i < 2; ++i) {
        MainWindow window;
        const ViewerOptions options =
            parse({QStringLiteral("--screenshot"), alone[i], QStringLiteral("--size"),
                   QStringLiteral("160x120"), files[i]});
        ASSERT_EQ(writeScreenshots(window, options), 0);
    }
    const int pixels = 160 * 120;
    EXPECT_LT(test::differingPixels(first, QImage(alone[0]), 8), pixels / 100);
    EXPECT_LT(test::differingPixels(second, QImage(alone[1]), 8), pixels / 100);
    EXPECT_GT(test::differingPixels(first, second, 8), pixels / 100) << "two different meshes";
}

TEST(CommandLine, AFileThatCannotBeOpenedStillLeavesTheOthersScreenshots) {
    const QString sphere = writeFileMeshFixture("cli_shot_bad_a", "sphere.mesh", makeUvSphere());
    const QString missing =
        QString::fromStdString((test::tempDir("cli_shot_bad_b") / "no_such_file.mesh").string());
    const QString dir = QString::fromStdString(test::tempDir("cli_shot_bad_out").string());
    MainWindow window;
    const ViewerOptions options =
        parse({QStringLiteral("--screenshot"), dir + QStringLiteral("/shot.png"),
               QStringLiteral("--size"), QStringLiteral("64x48"), missing, sphere});
    EXPECT_EQ(writeScreenshots(window, options), 1);
    EXPECT_FALSE(QFileInfo::exists(dir + QStringLiteral("/shot-1.png")));
    EXPECT_EQ(QImage(dir + QStringLiteral("/shot-2.png")).size(), QSize(64, 48));
}

// A file the view options do not fit (here a --bone the sphere has no skeleton for) is reported
// and gets no image; the files after it are still written.
TEST(CommandLine, AFileTheOptionsDoNotFitStillLeavesTheOthersScreenshots) {
    const QString sphere = writeFileMeshFixture("cli_shot_fit_a", "sphere.mesh", makeUvSphere());
    const QString cylinder =
        writeFileMeshFixture("cli_shot_fit_b", "cylinder.mesh", makeSkinnedCylinder(3));
    const QString dir = QString::fromStdString(test::tempDir("cli_shot_fit_out").string());
    MainWindow window;
    const ViewerOptions options =
        parse({QStringLiteral("--screenshot"), dir + QStringLiteral("/shot.png"),
               QStringLiteral("--size"), QStringLiteral("64x48"), QStringLiteral("--bone"),
               QStringLiteral("Bone1=0,0,45"), sphere, cylinder});
    EXPECT_EQ(writeScreenshots(window, options), 1);
    EXPECT_FALSE(QFileInfo::exists(dir + QStringLiteral("/shot-1.png")));
    EXPECT_EQ(QImage(dir + QStringLiteral("/shot-2.png")).size(), QSize(64, 48));
}

// A --screenshot run frees the decoded vertex and index arrays of a mesh that cannot be posed once
// the view holds its packed copy (the peak memory of a 1M-triangle run is reached while llvmpipe
// renders), and the picture is the one a window that keeps them captures. A skinned mesh keeps
// its arrays: posing reads them.
TEST(CommandLine, ScreenshotRunFreesTheArraysOfMeshesThatCannotBePosed) {
    const Asset sphereAsset = makeUvSphere(16, 24);
    const QString sphere = writeFileMeshFixture("cli_shot_free_a", "sphere.mesh", sphereAsset);
    const QString cylinder =
        writeFileMeshFixture("cli_shot_free_b", "cylinder.mesh", makeSkinnedCylinder(3));
    const QString dir = QString::fromStdString(test::tempDir("cli_shot_free_out").string());

    QImage kept;
    {
        MainWindow window;
        window.setInteractive(false);
        window.viewport()->setOnscreenDrawing(false);
        window.show();
        window.viewport()->camera()->setAspectRatio(160.0f / 120.0f);
        ASSERT_TRUE(window.openFileNow(sphere));
        ASSERT_TRUE(QTest::qWaitForWindowExposed(window.viewport()->renderWindow()));
        ASSERT_TRUE(
            window.exportScreenshot(dir + QStringLiteral("/kept.png"), QSize(160, 120), false));
        EXPECT_EQ(window.document()->asset().meshes.at(0).positions.size(),
                  sphereAsset.meshes[0].positions.size())
            << "an interactive open keeps the decoded arrays";
        kept = QImage(dir + QStringLiteral("/kept.png"));
    }
    {
        MainWindow window;
        const ViewerOptions options =
            parse({QStringLiteral("--screenshot"), dir + QStringLiteral("/freed.png"),
                   QStringLiteral("--size"), QStringLiteral("160x120"), sphere});
        ASSERT_EQ(writeScreenshots(window, options), 0);
        ASSERT_TRUE(window.document()->hasAsset());
        const Mesh& m = window.document()->asset().meshes.at(0);
        EXPECT_TRUE(m.positions.empty());
        EXPECT_TRUE(m.normals.empty());
        EXPECT_TRUE(m.uv0.empty());
        EXPECT_TRUE(m.indices.empty());
        EXPECT_EQ(m.positions.capacity(), 0u) << "freed, not only cleared";
        EXPECT_TRUE(m.bounds.valid());
        EXPECT_NEAR(m.bounds.max.x, sphereAsset.meshes[0].bounds.max.x, 1e-3);
        EXPECT_EQ(window.viewport()->scene()->stats().triangles,
                  sphereAsset.meshes[0].triangleCount())
            << "the view still draws every triangle";
    }
    const QImage freed(dir + QStringLiteral("/freed.png"));
    ASSERT_EQ(freed.size(), QSize(160, 120));
    ASSERT_EQ(kept.size(), QSize(160, 120));
    EXPECT_LT(test::differingPixels(freed, kept, 8), 160 * 120 / 100);
    EXPECT_NE(freed.pixel(80, 60), freed.pixel(2, 2)) << "the mesh is drawn";
    {
        MainWindow window;
        const ViewerOptions options =
            parse({QStringLiteral("--screenshot"), dir + QStringLiteral("/skinned.png"),
                   QStringLiteral("--size"), QStringLiteral("64x48"), cylinder});
        ASSERT_EQ(writeScreenshots(window, options), 0);
        const Mesh& m = window.document()->asset().meshes.at(0);
        EXPECT_TRUE(m.skinned());
        EXPECT_FALSE(m.positions.empty()) << "a posable mesh keeps its arrays";
        EXPECT_FALSE(m.indices.empty());
    }
}

// A model large enough that decoding takes a while (about two seconds on the development
// machine): the Cancel button appears in the status bar while the event loop keeps running. The
// decode must outlast the first frames, which llvmpipe draws on the GUI thread and which can hold
// it for a second when other tests run beside this one; a shorter decode could end before the
// button's reveal timer gets its turn, and the test would skip. An XML model: a binary place that
// large now decodes in a fraction of a second (a 600 000-part place, 0.15 s).
TEST(LongLoad, TheCancelButtonShowsAndTheWindowKeepsRespondingWhileDecoding) {
    static const QString path = [] {
        const std::string doc = test::xmlPartsModel(250'000);
        const auto file = test::tempDir("long_load") / "parts.rbxmx";
        test::writeFile(file, Bytes(doc.begin(), doc.end()));
        return QString::fromStdString(file.string());
    }();
    MainWindow window;
    const auto [cancel, progress] = showForDecoding(window);
    ASSERT_NE(cancel, nullptr);
    ASSERT_NE(progress, nullptr);
    EXPECT_FALSE(cancel->isVisible()) << "nothing to cancel yet";

    // Counts event-loop turns on the GUI thread while the decode runs, and the longest wait.
    int ticks = 0;
    qint64 longestGap = 0;
    QElapsedTimer sinceTick;
    QTimer ticker;
    ticker.setInterval(5);
    QObject::connect(&ticker, &QTimer::timeout, [&] {
        ++ticks;
        longestGap = std::max(longestGap, sinceTick.restart());
    });
    QElapsedTimer sinceOpen;
    sinceOpen.start();
    sinceTick.start();
    ticker.start();
    window.openFile(path);
    ASSERT_TRUE(window.isDecoding());
    const bool shown =
        QTest::qWaitFor([&] { return cancel->isVisible() || !window.isDecoding(); }, 20000);
    ASSERT_TRUE(shown);
    if (!window.isDecoding())
        GTEST_SKIP() << "the decode finished in " << sinceOpen.elapsed()
                     << " ms, before the Cancel button's delay: nothing long to cancel here";
    const qint64 shownAfter = sinceOpen.elapsed();
    const int ticksWhileDecoding = ticks;
    EXPECT_TRUE(cancel->isVisible());
    EXPECT_TRUE(progress->isVisible());
    // The reveal timer fired and so did ours: the decode does not hold the GUI thread.
    EXPECT_GT(ticksWhileDecoding, 0)
        << "the GUI thread kept handling events while the file decoded";
    QTest::mouseClick(cancel, Qt::LeftButton);
    ASSERT_TRUE(QTest::qWaitFor([&] { return !window.isDecoding(); }, 10000));
    EXPECT_FALSE(cancel->isVisible()) << "the button goes once the decode has stopped";
    EXPECT_FALSE(progress->isVisible());
    std::printf(
        "[ measured ] Cancel shown %lld ms after opening; a 5 ms timer fired %d times meanwhile "
        "(longest gap %lld ms)\n",
        static_cast<long long>(shownAfter), ticksWhileDecoding, static_cast<long long>(longestGap));
}

// A decode that ends while the GUI thread is busy (here: asleep past the Cancel button's 250 ms
// delay) leaves both the finished signal and the reveal timer pending. Whichever runs first, the
// progress bar and the Cancel button stay hidden once the file is open; they used to come back
// when the timer ran after the finished signal, and stayed until the next file.
TEST(LongLoad, ProgressStaysHiddenWhenTheDecodeEndsWhileTheGuiThreadIsBusy) {
    const QString path =
        inspector_test::writeFileMeshFixture("progress_hidden", "sphere.mesh", makeUvSphere());
    MainWindow window;
    const auto [cancel, progress] = showForDecoding(window);
    ASSERT_NE(cancel, nullptr);
    ASSERT_NE(progress, nullptr);
    for (int attempt = 0; attempt < 3; ++attempt) {
        window.openFile(path);
        QThread::msleep(400);  // the decode ends meanwhile; the reveal timer falls due
        ASSERT_TRUE(QTest::qWaitFor([&] { return !window.isDecoding(); }, 10000));
        QTest::qWait(50);
        EXPECT_FALSE(progress->isVisible()) << "attempt " << attempt;
        EXPECT_FALSE(cancel->isVisible()) << "attempt " << attempt;
    }
}
