// GoogleTest main for the Qt test executables (tests/render, tests/app). Creates the Qt
// application the tests need. Folders built with MESHSCOPE_TEST_NEEDS_DISPLAY create a
// QApplication and fail at once, with a clear message, when there is no display to open
// windows on (CI runs ctest under xvfb-run); the others only need a QCoreApplication.
#include <gtest/gtest.h>

#include <QApplication>
#include <QCoreApplication>
#include <QSettings>
#include <QTemporaryDir>
#include <cstdio>
#include <memory>

int main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    // Listing tests (gtest_discover_tests at build time) must work without a display.
    if (::testing::GTEST_FLAG(list_tests)) return RUN_ALL_TESTS();
    if (qEnvironmentVariableIsEmpty("QT3D_RENDERER")) qputenv("QT3D_RENDERER", "opengl");
#if MESHSCOPE_TEST_NEEDS_DISPLAY
    const bool platformForced = !qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM");
    if (!platformForced && qEnvironmentVariableIsEmpty("DISPLAY") &&
        qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY")) {
        std::fprintf(stderr,
                     "FAILED: %s opens windows and renders with OpenGL, but there is no display "
                     "(DISPLAY and WAYLAND_DISPLAY are unset).\nRun the tests under a virtual "
                     "display: xvfb-run -a -s \"-screen 0 1280x1024x24\" ctest ...\n",
                     argv[0]);
        return 1;
    }
    QApplication app(argc, argv);
#else
    QCoreApplication app(argc, argv);
#endif
    QCoreApplication::setOrganizationName(QStringLiteral("MeshscopeTests"));
    QCoreApplication::setApplicationName(QStringLiteral("MeshscopeTests"));
    // Each test process keeps its settings in a folder of its own (removed when it ends): ctest
    // runs the test cases as parallel processes, and a window closing in one (which saves its
    // options and layout) would otherwise write over the settings another is checking.
    QTemporaryDir settingsDir;
    if (settingsDir.isValid()) {
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, settingsDir.path());
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, settingsDir.path());
    }
    return RUN_ALL_TESTS();
}
