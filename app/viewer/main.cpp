// meshscope: the desktop viewer. The command line, startup and thumbnailer live in
// meshscope_viewer_app (viewer_app.h), the windows and docks in meshscope_shell.
#include <QApplication>
#include <cstdio>

#include "viewer_app.h"

int main(int argc, char** argv) {
    using namespace meshscope::shell;
    prepareEnvironment();
    setApplicationInfo();
    QStringList arguments;
    for (int i = 0; i < argc; ++i) arguments << QString::fromLocal8Bit(argv[i]);
    ViewerOptions options;
    if (const auto exitCode = parseViewerOptions(arguments, options)) return *exitCode;
    // Thumbnails are drawn in software: no display, no window, no QApplication.
    if (options.thumbnail) return runThumbnail(*options.thumbnail);
    if (const QString reason = missingDisplayReason(); !reason.isEmpty()) {
        std::fprintf(stderr, "meshscope: %s\n", qPrintable(reason));
        return 1;
    }
    startDecoding(options);  // --screenshot: the file decodes while the window starts
    QApplication app(argc, argv);
    return runViewer(app, options);
}
