// The `meshscope` command line: parses the options and runs the viewer (each FILE in a window
// of its own), or renders screenshots and exits (--screenshot), through the same MainWindow code
// path as File › Export Screenshot. main() only creates the application and calls runViewer().
#pragma once

#include <QList>
#include <QSize>
#include <QString>
#include <QStringList>
#include <optional>

#include "thumbnail.h"

class QApplication;

namespace meshscope::shell {

class MainWindow;

struct ViewerOptions {
    QStringList files;
    QString screenshot;  // output path; empty = interactive
    QSize size;          // --size WxH (empty = 1280 × 960 for screenshots)
    std::optional<int> lod;
    bool wireframe = false;
    bool transparent = false;
    bool grid = true;
    bool bonesOverlay = true;                   // --no-bones hides the skeleton overlay
    std::optional<ThumbnailOptions> thumbnail;  // --thumbnail SIZE IN OUT
    QString pose;       // --pose "JawDrop=1,LeftEyeClosed=0.5" (FACS controls)
    QStringList bones;  // --bone NAME=rx,ry,rz (degrees), repeatable
    QString animation;  // --animation FILE: played on the open skeleton or rig
    double time = 0;    // --time SECONDS into that animation (or the file's own first one)
    bool timeSet = false;
    bool allServices = false;  // --all-services: a place's parts outside Workspace drawn too
};

// Sets the environment Qt 3D needs before the QApplication exists (the OpenGL renderer: the
// RHI renderer flips captures and draws nothing on some drivers), and puts back the
// GLIBC_TUNABLES that the meshscope launcher (launcher.cpp) changed to start the viewer with huge
// pages (launch::restoreTunables), so that programs the viewer starts inherit the user's
// environment. Call first in main().
void prepareEnvironment();

// Sets application name, version and organisation (QSettings keys).
void setApplicationInfo();

// Parses the arguments (before the QApplication exists, so --help and --version work without a
// display); prints help / version / errors and returns the exit code to use when it should not
// continue.
std::optional<int> parseViewerOptions(const QStringList& arguments, ViewerOptions& options);

// Says why no window can be opened (no display), or returns an empty string.
QString missingDisplayReason();

// For a --screenshot run: starts reading and decoding the first file on a worker thread, so it
// overlaps creating the application and the window (call before the QApplication exists).
// Optional; writeScreenshots() decodes whatever was not started here.
void startDecoding(const ViewerOptions& options);

// Where the screenshot of file `index` of `count` goes: OUT itself for one file, else OUT with
// "-1", "-2" ... before its suffix (shot.png → shot-1.png, shot-2.png).
QString screenshotPath(const QString& out, int index, int count);

// The --screenshot run in `window` (not shown yet): each FILE (or the sample) rendered with the
// options and written to screenshotPath(). Returns the exit code: 0, 1 when a file could not be
// opened or written (the others are still written), 2 for a bad --pose / --bone. The window's
// document holds neither the files' bytes nor their tangents (nothing in the image uses them).
int writeScreenshots(MainWindow& window, const ViewerOptions& options);

// The interactive start in `window` (not shown yet): shows it, opens the first FILE (or the
// sample) in it and every other FILE in a window of its own, as File › Open does; --lod, --pose
// and --bone apply to each. Returns the windows that open a file, `window` first.
QList<MainWindow*> openViewerWindows(MainWindow& window, const ViewerOptions& options);

// A --screenshot run ends the process (std::_Exit) once its images are written, without
// tearing down the window and the asset.
int runViewer(QApplication& app, const ViewerOptions& options);

}  // namespace meshscope::shell
