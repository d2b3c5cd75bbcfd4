// The thumbnailer command (see thumbnail.h).
#include "thumbnail.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QImageWriter>
#include <QSettings>
#include <QWindow>
#include <cstdio>

#include "meshscope/core/decode.h"
#include "meshscope/core/part_meshes.h"
#include "meshscope/render/viewport.h"
#include "settings.h"

namespace meshscope::shell {

namespace {

void printErr(const QString& s) {
    std::fprintf(stderr, "meshscope: %s\n", qPrintable(s));
}

}  // namespace

bool isThumbnailCommand(const QStringList& arguments) {
    for (const QString& a : arguments)
        if (a == QLatin1String("--thumbnail") || a.startsWith(QLatin1String("--thumbnail=")))
            return true;
    return false;
}

std::optional<int> parseThumbnailArguments(const QStringList& arguments,
                                           ThumbnailOptions& options) {
    QCommandLineParser parser;
    const QCommandLineOption thumbnail(
        QStringLiteral("thumbnail"),
        QStringLiteral("Write a SIZE×SIZE PNG thumbnail of IN to OUT and exit."),
        QStringLiteral("SIZE"));
    const QCommandLineOption maxSize(
        QStringLiteral("max-size"),
        QStringLiteral("Refuse input files larger than BYTES (default 64 MiB)."),
        QStringLiteral("BYTES"));
    parser.addOptions({thumbnail, maxSize});
    if (!parser.parse(arguments)) {
        printErr(parser.errorText());
        return 2;
    }
    bool ok = false;
    const int size = parser.value(thumbnail).toInt(&ok);
    if (!ok || size < 1 || size > 4096) {
        printErr(QStringLiteral("--thumbnail wants a size of 1 to 4096 pixels, not '%1'")
                     .arg(parser.value(thumbnail)));
        return 2;
    }
    const QStringList positional = parser.positionalArguments();
    if (positional.size() != 2) {
        printErr(QStringLiteral("usage: meshscope --thumbnail SIZE IN OUT.png [--max-size BYTES]"));
        return 2;
    }
    options.size = size;
    options.input = positional[0];
    options.output = positional[1];
    options.maxBytes = QSettings()
                           .value(QStringLiteral("thumbnailMaxBytes"), kDefaultThumbnailMaxBytes)
                           .toLongLong();
    if (parser.isSet(maxSize)) {
        const qint64 cap = parser.value(maxSize).toLongLong(&ok);
        if (!ok || cap < 0) {
            printErr(QStringLiteral("--max-size wants a byte count, not '%1'")
                         .arg(parser.value(maxSize)));
            return 2;
        }
        options.maxBytes = cap;
    }
    const QFileInfo in(options.input);
    if (!in.isFile()) {
        printErr(QStringLiteral("%1: no such file").arg(options.input));
        return 1;
    }
    if (options.maxBytes > 0 && in.size() > options.maxBytes) {
        printErr(QStringLiteral("%1: %2 bytes is over the thumbnail size cap of %3 bytes "
                                "(--max-size, setting thumbnailMaxBytes); not decoded")
                     .arg(options.input)
                     .arg(in.size())
                     .arg(options.maxBytes));
        return 1;
    }
    return std::nullopt;
}

int runThumbnail(const ThumbnailOptions& options) {
    DecodeOptions decodeOptions;
    decodeOptions.fileName = QFileInfo(options.input).fileName().toStdString();
    const DecodeResult result =
        decodeFile(QFile::encodeName(options.input).toStdString(), decodeOptions);
    if (result.asset.meshes.empty() && result.error) {
        printErr(QStringLiteral("%1: %2").arg(options.input,
                                              QString::fromStdString(result.error->toString())));
        return 1;
    }

    // The viewport alone, as a small frameless tool window that takes no focus and is fully
    // transparent where a compositor runs: Qt 3D only renders into an exposed window, but the
    // image itself comes from the offscreen capture branch at the requested size.
    render::Viewport::setWindowSamples(0);
    render::Viewport viewport;
    viewport.setWindowFlags(Qt::Tool | Qt::FramelessWindowHint | Qt::WindowDoesNotAcceptFocus |
                            Qt::BypassWindowManagerHint);
    viewport.setAttribute(Qt::WA_ShowWithoutActivating);
    viewport.setWindowOpacity(0.0);
    viewport.setGridVisible(false);
    viewport.resize(64, 64);
    viewport.move(0, 0);
    // A model's MeshParts as the viewer draws them: meshes from the saved asset folders.
    PartMeshOptions partOptions;
    for (const QString& f : settings::searchAssetFolders())
        partOptions.folders.emplace_back(QFile::encodeName(f).toStdString());
    const PartMeshes parts = resolvePartMeshes(result.asset, partOptions);
    viewport.setAsset(result.asset, &parts);
    viewport.show();
    QElapsedTimer t;
    t.start();
    while (!viewport.renderWindow()->isExposed() && t.elapsed() < 10000)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
    if (!viewport.renderWindow()->isExposed()) {
        printErr(QStringLiteral("the 3D view could not be shown (is there a display?)"));
        return 1;
    }
    render::CaptureOptions capture;
    capture.size = QSize(options.size, options.size);
    capture.transparentBackground = true;
    const QImage image = viewport.captureImageBlocking(capture);
    if (image.isNull()) {
        printErr(QStringLiteral("the 3D view could not be captured (no OpenGL rendering?)"));
        return 1;
    }
    QImageWriter writer(options.output, QByteArray("png"));
    if (!writer.write(image)) {
        printErr(QStringLiteral("%1: %2").arg(options.output, writer.errorString()));
        return 1;
    }
    return 0;
}

}  // namespace meshscope::shell
