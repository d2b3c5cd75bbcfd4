// The meshscope command line (see viewer_app.h).
#include "viewer_app.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QRegularExpression>
#include <QWindow>
#include <cstdio>

#include "asset_document.h"
#include "main_window.h"
#include "pose_controller.h"
#include "meshscope/core/decode.h"
#include "meshscope/render/asset_scene.h"
#include "meshscope/render/roblox_parts.h"
#include "meshscope/render/viewport.h"

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
        QStringLiteral("Render FILE, write the image to OUT (.png or .jpg) and exit."),
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
    parser.addOptions({screenshot, size, lod, wireframe, transparent, noGrid});
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
        QStringLiteral("bone"), QStringLiteral("Rotate a bone by Euler angles in degrees (repeatable)."),
        QStringLiteral("NAME=RX,RY,RZ"));
    parser.addOption(poseOption);
    parser.addOption(boneOption);
    const QCommandLineOption assetFolderOption(
        QStringLiteral("asset-folder"),
        QStringLiteral("Folder of mesh files named by asset id, for MeshParts (repeatable)."),
        QStringLiteral("DIR"));
    parser.addOption(assetFolderOption);
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
        render::RobloxPartsView::addSessionFolder(QFileInfo(dir).absoluteFilePath());
    options.screenshot = parser.value(screenshot);
    options.wireframe = parser.isSet(wireframe);
    options.transparent = parser.isSet(transparent);
    options.grid = !parser.isSet(noGrid);
    options.pose = parser.value(poseOption);
    options.bones = parser.values(boneOption);
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
    if (!options.screenshot.isEmpty() && options.files.size() > 1) {
        printErr(QStringLiteral("--screenshot renders one FILE"));
        return 2;
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

int runViewer(QApplication& app, const ViewerOptions& options) {
    if (options.thumbnail) return runThumbnail(*options.thumbnail);
    MainWindow window;
    window.viewport()->setGridVisible(options.grid);

    if (!options.screenshot.isEmpty()) {
        window.setInteractive(false);
        window.show();
        QString error;
        const bool opened =
            options.files.isEmpty()
                ? window.openFileNow(QStringLiteral(":/meshscope/sample.mesh"), &error)
                : window.openFileNow(options.files.first(), &error);
        if (!opened) {
            printErr(QStringLiteral("%1: %2").arg(
                options.files.isEmpty() ? QStringLiteral("sample") : options.files.first(), error));
            return 1;
        }
        if (options.lod) window.viewport()->scene()->setLodAll(*options.lod);
        if (!applyPoseArguments(*window.poseController(), options.pose, options.bones, &error)) {
            printErr(error);
            return 2;
        }
        window.setWireframe(options.wireframe);
        if (!waitUntilExposed(window.viewport()->renderWindow(), 10000)) {
            printErr(QStringLiteral("the 3D window was never shown (is there a display?)"));
            return 1;
        }
        const QSize size = options.size.isValid() ? options.size : QSize(1280, 960);
        if (!window.exportScreenshot(options.screenshot, size, options.transparent, &error)) {
            printErr(QStringLiteral("%1: %2").arg(options.screenshot, error));
            return 1;
        }
        return 0;
    }

    window.restoreSettings();
    if (options.wireframe) window.setWireframe(true);
    window.show();
    if (options.files.isEmpty()) {
        window.openSample();
    } else {
        window.openFiles(options.files);
    }
    if (options.lod) {
        QObject::connect(&window, &MainWindow::fileOpened, &window, [&window, options]() {
            if (options.lod) window.viewport()->scene()->setLodAll(*options.lod);
        });
    }
    if (!options.pose.isEmpty() || !options.bones.isEmpty()) {
        QObject::connect(&window, &MainWindow::fileOpened, &window, [&window, options]() {
            QString error;
            if (!applyPoseArguments(*window.poseController(), options.pose, options.bones, &error))
                printErr(error);
        });
    }
    return app.exec();
}

}  // namespace meshscope::shell
