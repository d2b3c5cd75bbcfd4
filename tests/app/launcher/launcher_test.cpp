// The `meshscope` launcher (app/viewer/launcher.cpp): it starts meshscope-viewer from its own
// folder with glibc.malloc.hugetlb=1 added to GLIBC_TUNABLES, arguments and exit code passed
// through, and the viewer puts the environment back (prepareEnvironment). The launcher is copied
// beside a stand-in viewer (a shell script printing what it received) to see what it passes on.
#include <gtest/gtest.h>

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QProcessEnvironment>
#include <cstdlib>
#include <filesystem>

#include "meshscope/core/decode.h"
#include "support/test_support.h"
#include "viewer_app.h"

namespace {

const QString kLauncher = QStringLiteral(MESHSCOPE_BINARY_DIR "/app/viewer/meshscope");

struct LauncherRun {
    int exitCode = -1;
    QString out, err;
};

LauncherRun run(const QString& program, const QStringList& args, const QProcessEnvironment& env) {
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(program, args);
    LauncherRun r;
    if (!p.waitForFinished(60000)) {
        p.kill();
        p.waitForFinished();
        return r;
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = QString::fromLocal8Bit(p.readAllStandardOutput());
    r.err = QString::fromLocal8Bit(p.readAllStandardError());
    return r;
}

// A folder holding a copy of the launcher and, unless `withViewer` is false, a stand-in
// meshscope-viewer that prints its environment of interest and its arguments and exits with 7.
QString standInFolder(const std::string& name, bool withViewer = true) {
    const std::filesystem::path dir = meshscope::test::tempDir(name);
    const QString folder = QString::fromStdString(dir.string());
    const QString launcher = folder + QStringLiteral("/meshscope");
    QFile::remove(launcher);
    EXPECT_TRUE(QFile::copy(kLauncher, launcher));
    const QString viewer = folder + QStringLiteral("/meshscope-viewer");
    QFile::remove(viewer);
    if (withViewer) {
        QFile script(viewer);
        EXPECT_TRUE(script.open(QIODevice::WriteOnly));
        script.write(
            "#!/bin/sh\n"
            "echo \"tunables=${GLIBC_TUNABLES-<unset>}\"\n"
            "echo \"previous=${MESHSCOPE_PREVIOUS_GLIBC_TUNABLES-<unset>}\"\n"
            "echo \"marker=${MESHSCOPE_LAUNCHER_TUNABLES-<unset>}\"\n"
            "for a in \"$@\"; do echo \"arg=$a\"; done\n"
            "exit 7\n");
        script.close();
        script.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    }
    return launcher;
}

QProcessEnvironment environmentWithTunables(const char* tunables) {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("GLIBC_TUNABLES"));
    env.remove(QStringLiteral("MESHSCOPE_PREVIOUS_GLIBC_TUNABLES"));
    env.remove(QStringLiteral("MESHSCOPE_LAUNCHER_TUNABLES"));
    if (tunables) env.insert(QStringLiteral("GLIBC_TUNABLES"), QString::fromLatin1(tunables));
    return env;
}

}  // namespace

TEST(Launcher, AddsHugePagesAndPassesArgumentsAndExitCode) {
    const QString launcher = standInFolder("launcher_plain");
    const LauncherRun r =
        run(launcher,
            {QStringLiteral("a file.mesh"), QStringLiteral("--screenshot"), QStringLiteral("")},
            environmentWithTunables(nullptr));
    EXPECT_EQ(r.exitCode, 7) << r.err.toStdString();
    EXPECT_EQ(r.out.toStdString(),
              "tunables=glibc.malloc.hugetlb=1\n"
              "previous=<unset>\n"
              "marker=1\n"
              "arg=a file.mesh\n"
              "arg=--screenshot\n"
              "arg=\n");
}

TEST(Launcher, KeepsTheUsersOtherTunables) {
    const QString launcher = standInFolder("launcher_other");
    const LauncherRun r = run(launcher, {}, environmentWithTunables("glibc.malloc.arena_max=2"));
    EXPECT_EQ(r.exitCode, 7) << r.err.toStdString();
    EXPECT_EQ(r.out.toStdString(),
              "tunables=glibc.malloc.arena_max=2:glibc.malloc.hugetlb=1\n"
              "previous=glibc.malloc.arena_max=2\n"
              "marker=1\n");
}

TEST(Launcher, LeavesTheUsersOwnHugePageChoice) {
    const QString launcher = standInFolder("launcher_choice");
    const LauncherRun r =
        run(launcher, {QStringLiteral("x")}, environmentWithTunables("glibc.malloc.hugetlb=0"));
    EXPECT_EQ(r.exitCode, 7) << r.err.toStdString();
    EXPECT_EQ(r.out.toStdString(),
              "tunables=glibc.malloc.hugetlb=0\n"
              "previous=<unset>\n"
              "marker=<unset>\n"
              "arg=x\n");
}

TEST(Launcher, SaysWhatIsMissingWithoutTheViewer) {
    const QString launcher = standInFolder("launcher_missing", false);
    const LauncherRun r = run(launcher, {}, environmentWithTunables(nullptr));
    EXPECT_EQ(r.exitCode, 127);
    EXPECT_TRUE(r.err.contains(QStringLiteral("meshscope-viewer"))) << r.err.toStdString();
}

TEST(Launcher, StartsTheRealViewer) {
    const LauncherRun r =
        run(kLauncher, {QStringLiteral("--version")}, environmentWithTunables(nullptr));
    EXPECT_EQ(r.exitCode, 0) << r.err.toStdString();
    EXPECT_TRUE(r.out.contains(QString::fromLatin1(meshscope::version()))) << r.out.toStdString();
}

// The viewer gives programs it starts the environment the user had.
TEST(Launcher, ViewerRestoresTheEnvironment) {
    const QByteArray saved = qgetenv("GLIBC_TUNABLES");
    const bool hadSaved = qEnvironmentVariableIsSet("GLIBC_TUNABLES");

    qputenv("GLIBC_TUNABLES", "glibc.malloc.arena_max=2:glibc.malloc.hugetlb=1");
    qputenv("MESHSCOPE_PREVIOUS_GLIBC_TUNABLES", "glibc.malloc.arena_max=2");
    qputenv("MESHSCOPE_LAUNCHER_TUNABLES", "1");
    meshscope::shell::prepareEnvironment();
    EXPECT_EQ(qgetenv("GLIBC_TUNABLES"), QByteArray("glibc.malloc.arena_max=2"));
    EXPECT_FALSE(qEnvironmentVariableIsSet("MESHSCOPE_PREVIOUS_GLIBC_TUNABLES"));
    EXPECT_FALSE(qEnvironmentVariableIsSet("MESHSCOPE_LAUNCHER_TUNABLES"));

    qputenv("GLIBC_TUNABLES", "glibc.malloc.hugetlb=1");
    qputenv("MESHSCOPE_LAUNCHER_TUNABLES", "1");
    meshscope::shell::prepareEnvironment();
    EXPECT_FALSE(qEnvironmentVariableIsSet("GLIBC_TUNABLES"));

    // Without the launcher's marker, a user's own value stays.
    qputenv("GLIBC_TUNABLES", "glibc.malloc.hugetlb=1");
    meshscope::shell::prepareEnvironment();
    EXPECT_EQ(qgetenv("GLIBC_TUNABLES"), QByteArray("glibc.malloc.hugetlb=1"));

    if (hadSaved)
        qputenv("GLIBC_TUNABLES", saved);
    else
        qunsetenv("GLIBC_TUNABLES");
}
