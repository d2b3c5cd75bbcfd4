// `meshscope --thumbnail SIZE IN OUT.png [--max-size BYTES]`: the freedesktop thumbnailer path
// (resources/meshscope.thumbnailer). Renders IN square, framed to the model, on a transparent
// background without the grid, through the viewport's offscreen capture, without the main window.
// Files over the size cap (default 64 MiB, QSettings "thumbnailMaxBytes", --max-size) are refused
// before anything is read, so a huge file never stalls a file manager.
#pragma once

#include <QString>
#include <QStringList>
#include <optional>

namespace meshscope::shell {

struct ThumbnailOptions {
    int size = 128;
    QString input;
    QString output;
    qint64 maxBytes = 64ll * 1024 * 1024;
};

constexpr qint64 kDefaultThumbnailMaxBytes = 64ll * 1024 * 1024;

// True when the command line asks for a thumbnail.
bool isThumbnailCommand(const QStringList& arguments);

// Parses the thumbnail command line and checks the input (exists, not over the cap) before any
// QApplication exists. Returns the exit code when it must stop (2: usage, 1: refused input).
std::optional<int> parseThumbnailArguments(const QStringList& arguments, ThumbnailOptions& options);

// Decodes, renders in software and writes the PNG: needs no display, no OpenGL and no
// QApplication (run before one exists). Returns the exit code.
int runThumbnail(const ThumbnailOptions& options);

}  // namespace meshscope::shell
