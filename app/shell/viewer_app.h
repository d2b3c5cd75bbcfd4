// The `meshscope` command line: parses the options and runs the viewer, or renders one
// screenshot and exits (--screenshot), through the same MainWindow code path as File › Export
// Screenshot. main() only creates the application and calls runViewer().
#pragma once

#include <QSize>
#include <QString>
#include <QStringList>
#include <optional>

#include "thumbnail.h"

class QApplication;

namespace meshscope::shell {

struct ViewerOptions {
    QStringList files;
    QString screenshot;  // output path; empty = interactive
    QSize size;          // --size WxH (empty = 1280 × 960 for screenshots)
    std::optional<int> lod;
    bool wireframe = false;
    bool transparent = false;
    bool grid = true;
    std::optional<ThumbnailOptions> thumbnail;  // --thumbnail SIZE IN OUT
    QString pose;       // --pose "JawDrop=1,LeftEyeClosed=0.5" (FACS controls)
    QStringList bones;  // --bone NAME=rx,ry,rz (degrees), repeatable
};

// Sets the environment Qt 3D needs before the QApplication exists (the OpenGL renderer: the
// RHI renderer flips captures and draws nothing on some drivers). Call first in main().
void prepareEnvironment();

// Sets application name, version and organisation (QSettings keys).
void setApplicationInfo();

// Parses the arguments (before the QApplication exists, so --help and --version work without a
// display); prints help / version / errors and returns the exit code to use when it should not
// continue.
std::optional<int> parseViewerOptions(const QStringList& arguments, ViewerOptions& options);

// Says why no window can be opened (no display), or returns an empty string.
QString missingDisplayReason();

int runViewer(QApplication& app, const ViewerOptions& options);

}  // namespace meshscope::shell
