// Desktop integration files: the desktop entry passes desktop-file-validate, and after the MIME
// XML is installed into a temporary XDG_DATA_HOME (update-mime-database there), `xdg-mime query
// filetype` names the right type for generated files of each format. Skips visibly when the
// tools are missing. xdg-mime runs with XDG_CURRENT_DESKTOP=GNOME so it asks gio, which follows
// the shared-mime-info rules (magic decides between the two *.mesh globs); its generic backend
// (perl File::MimeInfo `mimetype`) takes the first glob and calls a Unigine .mesh a Roblox one.
#include <gtest/gtest.h>

#include <QDir>
#include <QProcess>
#include <QProcessEnvironment>
#include <QStandardPaths>
#include <filesystem>

#include "fixtures.h"
#include "meshscope/core/roblox_model_writer.h"
#include "meshscope/core/unigine_writer.h"

using namespace meshscope;

namespace {

std::filesystem::path resourcesDir() {
    return test::testDataDir() / ".." / ".." / "resources";
}

struct ProcessResult {
    int code = -1;
    QString out;
};

ProcessResult run(const QString& program, const QStringList& args,
                  const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment()) {
    QProcess p;
    p.setProcessEnvironment(env);
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(program, args);
    ProcessResult r;
    if (!p.waitForFinished(30000)) return r;
    r.code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = QString::fromUtf8(p.readAll()).trimmed();
    return r;
}

QString tool(const char* name) {
    return QStandardPaths::findExecutable(QString::fromLatin1(name));
}

QString write(const std::filesystem::path& dir, const char* name, const Bytes& bytes) {
    test::writeFile(dir / name, bytes);
    return QString::fromStdString((dir / name).string());
}

}  // namespace

TEST(Desktop, DesktopEntryValidates) {
    const QString validate = tool("desktop-file-validate");
    if (validate.isEmpty()) GTEST_SKIP() << "SKIPPED: desktop-file-validate is not installed";
    const auto entry = resourcesDir() / "meshscope.desktop";
    ASSERT_TRUE(std::filesystem::exists(entry)) << entry;
    const ProcessResult r = run(validate, {QString::fromStdString(entry.string())});
    EXPECT_EQ(r.code, 0) << r.out.toStdString();
    EXPECT_TRUE(r.out.isEmpty()) << "warnings: " << r.out.toStdString();
}

// The first bytes of a UNIGINE 2 file: its signature, then a header of binary floats.
static Bytes unigine2Header(const char* signature) {
    Bytes bytes(64, 0x3f);
    std::copy(signature, signature + 4, bytes.begin());
    return bytes;
}

static Bytes dracoHeader() {
    const char header[] = "DRACO\x02\x02\x01\x01\x00\x00";
    Bytes bytes(header, header + 11);
    bytes.resize(64, 0x5a);
    return bytes;
}

TEST(Desktop, XdgMimeNamesTheTypeOfEachFormat) {
    const QString xdgMime = tool("xdg-mime");
    const QString update = tool("update-mime-database");
    if (xdgMime.isEmpty() || update.isEmpty())
        GTEST_SKIP() << "SKIPPED: xdg-mime or update-mime-database is not installed";
    if (tool("gio").isEmpty()) GTEST_SKIP() << "SKIPPED: gio (libglib2.0-bin) is not installed";

    const auto home = test::tempDir("insp_xdg_home");
    std::filesystem::create_directories(home / "mime" / "packages");
    std::filesystem::copy_file(resourcesDir() / "meshscope-mime.xml",
                               home / "mime" / "packages" / "meshscope-mime.xml");
    const ProcessResult updated = run(update, {QString::fromStdString((home / "mime").string())});
    ASSERT_EQ(updated.code, 0) << updated.out.toStdString();

    const auto files = test::tempDir("insp_xdg_files");
    FileMeshWriteOptions v4;
    v4.version = "4.00";
    const FileMeshWriteResult fileMesh = writeFileMesh(makeUvSphere(), 0, v4);
    FileMeshWriteOptions v2;
    v2.version = "2.00";
    const FileMeshWriteResult fileMeshV2 = writeFileMesh(makeUvSphere(), 0, v2);
    const UnigineWriteResult unigine = writeUnigineMesh(makeUvSphere());
    const RobloxModelWriteResult model = writeRobloxModel(makeRobloxTypesModel());
    const SecondLifeWriteResult sl = writeSecondLifeMesh(inspector_test::secondLifeLodAsset());
    ASSERT_TRUE(fileMesh.ok() && fileMeshV2.ok() && unigine.ok() && model.ok() && sl.ok());

    const std::pair<QString, const char*> expected[] = {
        {write(files, "sphere.mesh", fileMesh.bytes), "model/x-roblox-mesh"},
        {write(files, "sphere_v2.mesh", fileMeshV2.bytes), "model/x-roblox-mesh"},
        // Same extension, Unigine magic "mi08".
        {write(files, "unigine.mesh", unigine.bytes), "model/x-unigine-mesh"},
        {write(files, "types.rbxm", model.bytes), "model/x-roblox-rbxm"},
        {write(files, "place.rbxl", model.bytes), "model/x-roblox-rbxl"},
        {write(files, "lods.llmesh", sl.bytes), "model/x-secondlife-mesh"},
        // A raw Second Life asset as downloaded: no extension, typed by its LLSD header alone.
        {write(files, "0b5f7c1e-asset", sl.bytes), "model/x-secondlife-mesh"},
        // UNIGINE 2 meshes and animations of versions that no rule names one by one: the
        // extension is shared with FileMesh, so only the magic can tell them apart.
        {write(files, "ms12.mesh", unigine2Header("ms12")), "model/x-unigine-mesh"},
        {write(files, "ms15.mesh", unigine2Header("ms15")), "model/x-unigine-mesh"},
        {write(files, "walk.anim", unigine2Header("an11")), "model/x-unigine-sanim"},
        {write(files, "body.mesh_skinned", unigine2Header("sk10")), "model/x-unigine-mesh"},
        {write(files, "rig.skeleton", unigine2Header("sn10")), "model/x-unigine-skeleton"},
        // A Draco stream's header (bitstream 2.2, a mesh, Edgebreaker), by name and by magic.
        {write(files, "bunny.drc", dracoHeader()), "model/x-draco"},
        {write(files, "coremesh-payload", dracoHeader()), "model/x-draco"},
    };
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("XDG_DATA_HOME"), QString::fromStdString(home.string()));
    env.insert(QStringLiteral("XDG_CURRENT_DESKTOP"), QStringLiteral("GNOME"));
    for (const auto& [path, type] : expected) {
        const ProcessResult r =
            run(xdgMime, {QStringLiteral("query"), QStringLiteral("filetype"), path}, env);
        EXPECT_EQ(r.code, 0) << r.out.toStdString();
        EXPECT_EQ(r.out.toStdString(), type) << path.toStdString();
    }
}
