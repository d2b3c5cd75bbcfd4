// The meshscope command line (see viewer_app.h).
#include "viewer_app.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QIcon>
#include <QRegularExpression>
#include <QThread>
#include <QWindow>
#include <Qt3DRender/QCamera>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <future>

#include "document/asset_document.h"
#include "document/decode_job.h"
#include "document/settings.h"
#include "huge_pages.h"
#include "meshscope/core/decode.h"
#include "meshscope/render/asset_scene.h"
#include "meshscope/render/viewport.h"
#include "meshscope/resources/resources.h"
#include "posing/animation_dock.h"
#include "posing/pose_controller.h"
#include "window/main_window.h"

namespace meshscope::shell {

namespace {

void printErr(const QString& s) {
    std::fprintf(stderr, "meshscope: %s\n", qPrintable(s));
}

bool waitUntilExposed(QWindow* window, int timeoutMs) {
    QElapsedTimer t;
    t.start();
    while (!window->isExposed() && t.elapsed() < timeoutMs)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
    return window->isExposed();
}

}  // namespace

void prepareEnvironment() {
    // glibc read the tunables when this process started: what the launcher added has done its
    // work.
    launch::restoreTunables();
    if (qEnvironmentVariableIsEmpty("QT3D_RENDERER")) qputenv("QT3D_RENDERER", "opengl");
}

void setApplicationInfo() {
    QCoreApplication::setApplicationName(QStringLiteral("Meshscope"));
    QCoreApplication::setOrganizationName(QStringLiteral("Meshscope"));
    QCoreApplication::setApplicationVersion(QString::fromLatin1(meshscope::version()));
    QGuiApplication::setApplicationDisplayName(QStringLiteral("Meshscope"));
    QGuiApplication::setDesktopFileName(QStringLiteral("meshscope"));
}

std::optional<int> parseViewerOptions(const QStringList& arguments, ViewerOptions& options) {
    if (isThumbnailCommand(arguments)) {
        ThumbnailOptions thumbnail;
        if (const auto code = parseThumbnailArguments(arguments, thumbnail)) return code;
        options.thumbnail = thumbnail;
        return std::nullopt;
    }
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "View and inspect game-engine asset files: Roblox FileMesh (.mesh), Roblox models and "
        "places (.rbxm .rbxl .rbxmx .rbxlx), Unigine meshes and animations, Second Life mesh "
        "assets. Without FILE, opens the built-in sample."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("FILE"), QStringLiteral("Files to open."),
                                 QStringLiteral("[FILE...]"));
    const QCommandLineOption screenshot(
        QStringLiteral("screenshot"),
        QStringLiteral("Render FILE, write the image to OUT (.png or .jpg) and exit. With several "
                       "files, one image each: OUT-1.png, OUT-2.png ..."),
        QStringLiteral("OUT"));
    const QCommandLineOption size(QStringLiteral("size"),
                                  QStringLiteral("Screenshot size in pixels (default 1280x960)."),
                                  QStringLiteral("WxH"));
    const QCommandLineOption lod(QStringLiteral("lod"),
                                 QStringLiteral("Level of detail to show (0 = finest)."),
                                 QStringLiteral("N"));
    const QCommandLineOption wireframe(QStringLiteral("wireframe"),
                                       QStringLiteral("Draw triangle edges over the shading."));
    const QCommandLineOption transparent(
        QStringLiteral("transparent"),
        QStringLiteral("Screenshot with a transparent background (PNG), without the grid."));
    const QCommandLineOption noGrid(QStringLiteral("no-grid"),
                                    QStringLiteral("Hide the ground grid."));
    const QCommandLineOption noBones(
        QStringLiteral("no-bones"),
        QStringLiteral("Hide the skeleton overlay (bones and joints) of skinned meshes."));
    parser.addOptions({screenshot, size, lod, wireframe, transparent, noGrid, noBones});
    parser.addOption(QCommandLineOption(
        QStringLiteral("thumbnail"),
        QStringLiteral("Write a SIZE×SIZE PNG thumbnail: --thumbnail SIZE IN OUT.png "
                       "[--max-size BYTES] (freedesktop thumbnailer)."),
        QStringLiteral("SIZE")));
    const QCommandLineOption poseOption(
        QStringLiteral("pose"),
        QStringLiteral("Pose the face: FACS control weights 0..1 by full name or abbreviation."),
        QStringLiteral("NAME=W,..."));
    const QCommandLineOption boneOption(
        QStringLiteral("bone"),
        QStringLiteral("Rotate a bone by Euler angles in degrees (repeatable)."),
        QStringLiteral("NAME=RX,RY,RZ"));
    parser.addOption(poseOption);
    parser.addOption(boneOption);
    const QCommandLineOption animationOption(
        QStringLiteral("animation"),
        QStringLiteral("Play an animation on the file's skeleton or rig: a .sanim, .anim, or "
                       "Roblox model holding KeyframeSequences."),
        QStringLiteral("ANIM"));
    const QCommandLineOption timeOption(
        QStringLiteral("time"),
        QStringLiteral("Seconds into the animation (--animation, else the file's own first) "
                       "to pose at."),
        QStringLiteral("SECONDS"));
    parser.addOption(animationOption);
    parser.addOption(timeOption);
    const QCommandLineOption assetFolderOption(
        QStringLiteral("asset-folder"),
        QStringLiteral("Folder of mesh files named by asset id, for MeshParts (repeatable)."),
        QStringLiteral("DIR"));
    parser.addOption(assetFolderOption);
    const QCommandLineOption allServicesOption(
        QStringLiteral("all-services"),
        QStringLiteral("Draw a place's parts outside Workspace too (ReplicatedStorage, "
                       "ServerStorage ...), as meshscope-cli export --all-services writes them."));
    parser.addOption(allServicesOption);
    if (!parser.parse(arguments)) {
        printErr(parser.errorText());
        return 2;
    }
    if (parser.isSet(QStringLiteral("help")) || parser.isSet(QStringLiteral("help-all"))) {
        QString help = parser.helpText();
        help.replace(QLatin1String("<executable_name>"), QLatin1String("meshscope"));
        std::fputs(qPrintable(help), stdout);
        return 0;
    }
    if (parser.isSet(QStringLiteral("version"))) {
        std::printf("meshscope %s\n", meshscope::version());
        return 0;
    }
    options.files = parser.positionalArguments();
    for (const QString& dir : parser.values(assetFolderOption))
        settings::addSessionAssetFolder(QFileInfo(dir).absoluteFilePath());
    options.screenshot = parser.value(screenshot);
    options.allServices = parser.isSet(allServicesOption);
    options.wireframe = parser.isSet(wireframe);
    options.transparent = parser.isSet(transparent);
    options.grid = !parser.isSet(noGrid);
    options.bonesOverlay = !parser.isSet(noBones);
    options.pose = parser.value(poseOption);
    options.bones = parser.values(boneOption);
    options.animation = parser.value(animationOption);
    if (parser.isSet(timeOption)) {
        bool ok = false;
        options.time = parser.value(timeOption).toDouble(&ok);
        if (!ok || !std::isfinite(options.time) || options.time < 0) {
            printErr(QStringLiteral("--time: expected seconds (a number ≥ 0), got '%1'")
                         .arg(parser.value(timeOption)));
            return 2;
        }
        options.timeSet = true;
    }
    if (parser.isSet(size)) {
        static const QRegularExpression re(QStringLiteral("^(\\d{1,5})[xX×](\\d{1,5})$"));
        const auto m = re.match(parser.value(size));
        const int w = m.hasMatch() ? m.captured(1).toInt() : 0;
        const int h = m.hasMatch() ? m.captured(2).toInt() : 0;
        if (w < 1 || h < 1 || w > 16384 || h > 16384) {
            printErr(QStringLiteral("--size wants WxH with 1 to 16384 pixels per side, not '%1'")
                         .arg(parser.value(size)));
            return 2;
        }
        options.size = QSize(w, h);
    }
    if (parser.isSet(lod)) {
        bool ok = false;
        const int n = parser.value(lod).toInt(&ok);
        if (!ok || n < 0) {
            printErr(
                QStringLiteral("--lod wants a level number ≥ 0, not '%1'").arg(parser.value(lod)));
            return 2;
        }
        options.lod = n;
    }
    return std::nullopt;
}

QString missingDisplayReason() {
    if (!qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") ||
        !qEnvironmentVariableIsEmpty("DISPLAY") || !qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY"))
        return {};
    return QStringLiteral(
        "no display to open the 3D window on (DISPLAY and WAYLAND_DISPLAY are unset); for "
        "--screenshot on a headless machine run: xvfb-run -a -s \"-screen 0 1280x1024x24\" "
        "meshscope --screenshot OUT.png FILE");
}

namespace {

// The first file of a --screenshot run, decoding on a worker thread since startDecoding().
struct EarlyDecode {
    QString path;
    std::future<DecodeOutcome> outcome;
};
EarlyDecode& earlyDecode() {
    static EarlyDecode early;
    return early;
}

// A --screenshot run keeps only what the image needs: not the file's bytes (32 MB for a
// 1M-triangle FileMesh; the hex view is their only reader and the run shows no panel) nor the
// tangents (8 MB there; no material reads them). Both would otherwise still be held when
// llvmpipe renders the frame, the run's peak memory. A file that failed to decode keeps
// everything, as an interactive open would.
void keepOnlyWhatIsDrawn(DecodeOutcome& outcome) {
    if (!outcome.readError.isEmpty() || outcome.cancelled || outcome.result.error) return;
    outcome.bytes = QByteArray();
    for (Mesh& mesh : outcome.result.asset.meshes) std::vector<Vec4>().swap(mesh.tangents);
}

DecodeOutcome decodeForScreenshot(const QString& path, const QStringList& assetFolders,
                                  bool allServices) {
    DecodeOutcome outcome = DecodeJob::decodeNow(path, nullptr, {}, assetFolders, allServices);
    keepOnlyWhatIsDrawn(outcome);
    return outcome;
}

QString screenshotSource(const ViewerOptions& options, int index) {
    return options.files.isEmpty() ? QString::fromLatin1(resources::kSamplePath)
                                   : options.files[index];
}

// Sets the command line's level of detail and pose on the asset `window` shows.
bool applyViewOptions(MainWindow& window, const ViewerOptions& options, QString* error) {
    if (options.lod) window.viewport()->scene()->setLodAll(*options.lod);
    if (!options.animation.isEmpty() || options.timeSet) {
        AnimationDock* dock = window.animationDock();
        QString why;
        if (!options.animation.isEmpty() && !dock->loadFile(options.animation, &why)) {
            if (error) *error = QStringLiteral("--animation %1: %2").arg(options.animation, why);
            return false;
        }
        const Animation* a = window.poseController()->animation(dock->currentAnimation());
        if (!a) {
            if (error) *error = QStringLiteral("--time: the file has no animation");
            return false;
        }
        dock->setFrame(options.time * (a->framesPerSecond > 0 ? a->framesPerSecond : 30.0));
    }
    if (!applyPoseArguments(*window.poseController(), options.pose, options.bones, error))
        return false;
    // An animation's whole motion in the picture, the same framing at every --time (image
    // sequences); a bone turned past the rest pose too.
    if (!options.animation.isEmpty() || options.timeSet || !options.bones.isEmpty())
        window.frameScene(false);
    return true;
}

}  // namespace

void startDecoding(const ViewerOptions& options) {
    if (options.screenshot.isEmpty() || options.thumbnail) return;
    // Qt takes the first thread that asks for its thread data as the main thread: this one.
    QThread::currentThread();
    resources::initialize();
    EarlyDecode& early = earlyDecode();
    early.path = screenshotSource(options, 0);
    early.outcome = std::async(
        std::launch::async,
        [path = early.path, folders = settings::searchAssetFolders(), all = options.allServices]() {
            return decodeForScreenshot(path, folders, all);
        });
}

QString screenshotPath(const QString& out, int index, int count) {
    if (count <= 1) return out;
    const QFileInfo info(out);
    const QString suffix = info.suffix();
    QString base = info.fileName();
    if (!suffix.isEmpty()) base.chop(suffix.size() + 1);
    QString name = QStringLiteral("%1-%2").arg(base).arg(index + 1);
    if (!suffix.isEmpty()) name += QLatin1Char('.') + suffix;
    return info.dir().filePath(name);
}

int writeScreenshots(MainWindow& window, const ViewerOptions& options) {
    window.setInteractive(false);
    // Nothing but the capture needs the scene drawn: the window shows its background only.
    window.viewport()->setOnscreenDrawing(false);
    window.viewport()->setGridVisible(options.grid);
    window.setWireframe(options.wireframe);
    window.poseController()->setSkeletonVisible(options.bonesOverlay);
    window.show();
    const int count = std::max<int>(1, int(options.files.size()));
    const QSize size = options.size.isValid() ? options.size : QSize(1280, 960);
    int exitCode = 0;
    for (int i = 0; i < count; ++i) {
        const QString source = screenshotSource(options, i);
        const QString name = options.files.isEmpty() ? QStringLiteral("sample") : source;
        QString error;
        // Opening frames the asset for the camera's aspect ratio: the image's, so that what is
        // framed fills the picture (the window's own view, which changes as its docks lay out,
        // is not what is written).
        window.viewport()->camera()->setAspectRatio(float(size.width()) /
                                                    float(std::max(size.height(), 1)));
        EarlyDecode& early = earlyDecode();
        bool opened = false;
        if (i == 0 && early.outcome.valid() && early.path == source) {
            DecodeOutcome outcome = early.outcome.get();
            opened = window.openDecoded(outcome, &error);
        } else {
            DecodeOutcome outcome =
                decodeForScreenshot(source, settings::searchAssetFolders(), options.allServices);
            opened = window.openDecoded(outcome, &error);
        }
        if (!opened) {
            printErr(QStringLiteral("%1: %2").arg(name, error));
            exitCode = 1;
            continue;
        }
        // A file the options do not fit (an animation for another rig, a pose of controls it
        // lacks) is reported and left without an image, as one that cannot be opened; the
        // other files are still written.
        if (!applyViewOptions(window, options, &error)) {
            printErr(QStringLiteral("%1: %2").arg(name, error));
            exitCode = 1;
            continue;
        }
        // The view holds its packed copy of the geometry now: the decoded vertex and index
        // arrays (30 MB for a 1M-triangle mesh) would otherwise still be held while llvmpipe
        // renders the frame, the run's peak memory.
        window.document()->releaseStaticMeshArrays();
        if (!waitUntilExposed(window.viewport()->renderWindow(), 10000)) {
            printErr(QStringLiteral("the 3D window was never shown (is there a display?)"));
            return 1;
        }
        const QString out = screenshotPath(options.screenshot, i, count);
        if (!window.exportScreenshot(out, size, options.transparent, &error)) {
            printErr(QStringLiteral("%1: %2").arg(out, error));
            exitCode = 1;
        }
    }
    return exitCode;
}

QList<MainWindow*> openViewerWindows(MainWindow& window, const ViewerOptions& options) {
    if (options.wireframe) window.setWireframe(true);
    if (!options.bonesOverlay) window.poseController()->setSkeletonVisible(false);
    window.show();
    QList<MainWindow*> windows;
    if (options.files.isEmpty()) {
        window.openSample();
        windows << &window;
    } else {
        windows = window.openPaths(options.files);
    }
    if (options.lod || !options.pose.isEmpty() || !options.bones.isEmpty() ||
        !options.animation.isEmpty() || options.timeSet) {
        for (MainWindow* w : windows) {
            QObject::connect(w, &MainWindow::fileOpened, w, [w, options]() {
                QString error;
                if (!applyViewOptions(*w, options, &error)) printErr(error);
            });
        }
    }
    return windows;
}

int runViewer(QApplication& app, const ViewerOptions& options) {
    if (options.thumbnail) return runThumbnail(*options.thumbnail);
    if (!options.screenshot.isEmpty()) {
        // Nobody sees the widgets of a --screenshot run, so their icons need no theme: looking
        // each standard icon up in the theme folders (hicolor alone has hundreds) takes about
        // 40 000 access() calls, about 0.1 s of CPU (8 % of the run) on the development machine.
        // (An empty list would mean the default folders again: a folder that does not exist.)
        QIcon::setThemeSearchPaths({QStringLiteral(":/meshscope-no-icon-theme")});
        QIcon::setFallbackSearchPaths({QStringLiteral(":/meshscope-no-icon-theme")});
        // The images come from the single-sampled capture target and the window shows only
        // its background: a multisampled window surface would be pure cost.
        render::Viewport::setWindowSamples(0);
        MainWindow window;
        const int exitCode = writeScreenshots(window, options);
        // Every image is written and its file closed: the process ends here instead of tearing
        // down the window, Qt 3D and the decoded asset that exiting drops anyway (about 0.1 s
        // after a 1M-triangle mesh).
        std::fflush(nullptr);
        std::_Exit(exitCode);
    }
    // A multisampled window on a software rasterizer (llvmpipe in a VM or under Xvfb) costs far
    // more than it shows: the 57 000-instance place of bench_place_first_frame reached its first
    // frame in 1.5-1.9 s with Qt 3D's 4 samples and in 0.85-0.98 s with one, and every later
    // frame is drawn by the CPU at that cost too. MESHSCOPE_SAMPLES=N chooses for any renderer.
    bool samplesOk = false;
    const int samples = qEnvironmentVariableIntValue("MESHSCOPE_SAMPLES", &samplesOk);
    if (samplesOk)
        render::Viewport::setWindowSamples(std::max(samples, 0));
    else if (render::Viewport::softwareRenderer())
        render::Viewport::setWindowSamples(0);
    MainWindow window;
    window.viewport()->setGridVisible(options.grid);
    window.restoreSettings();
    if (options.allServices) window.setPartsOutsideWorkspace(true);  // before any file opens
    openViewerWindows(window, options);
    return app.exec();
}

}  // namespace meshscope::shell
