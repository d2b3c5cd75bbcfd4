// The thumbnailer command (see thumbnail.h).
#include "thumbnail.h"

#include <QCommandLineParser>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QImageWriter>
#include <QSettings>
#include <cstdio>

#include "meshscope/core/axes.h"
#include "meshscope/core/decode.h"
#include "meshscope/core/preview.h"

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

    // Drawn in software (core's preview renderer): file managers run thumbnailers headless and
    // sandboxed, where no display or OpenGL context exists.
    PreviewOptions preview;
    preview.width = preview.height = options.size;
    preview.transparentBackground = true;
    preview.yawDegrees = frontViewYawDegrees(result.asset);
    const PreviewImage picture = renderPreview(previewMeshes(result.asset), preview);
    if (picture.empty() || (picture.trianglesDrawn == 0 && picture.pointsDrawn == 0)) {
        printErr(QStringLiteral("%1: nothing to draw (no triangles or points)").arg(options.input));
        return 1;
    }
    const QImage image = QImage(picture.rgba.data(), picture.width, picture.height,
                                picture.width * 4, QImage::Format_RGBA8888)
                             .copy();
    QImageWriter writer(options.output, QByteArray("png"));
    if (!writer.write(image)) {
        printErr(QStringLiteral("%1: %2").arg(options.output, writer.errorString()));
        return 1;
    }
    return 0;
}

}  // namespace meshscope::shell
