// `meshscope --thumbnail` (freedesktop thumbnailer path), its size cap and the installed
// .thumbnailer entry. Runs the viewer binary under the test's display (xvfb-run).
#include <gtest/gtest.h>

#include <QElapsedTimer>
#include <QFile>
#include <QImage>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QSettings>
#include <cstdio>

#include "meshscope/core/decode.h"
#include "meshscope/core/mesh_generators.h"
#include "meshscope/core/roblox_mesh_writer.h"
#include "support/qt_test_support.h"
#include "support/test_support.h"

using namespace meshscope;

namespace {

const QString kViewer = QStringLiteral(MESHSCOPE_BINARY_DIR "/app/viewer/meshscope");
const QString kResources = QStringLiteral(MESHSCOPE_TEST_DATA_DIR "/../../resources");

std::filesystem::path writeFixture(const std::string& dir, const Asset& asset) {
    return test::writeFileMeshFixture(dir, "fixture.mesh", asset);
}

test::ProcessRun runViewer(const QStringList& args) {
    return test::runProcess(kViewer, args);
}

QString qs(const std::filesystem::path& p) {
    return test::qPath(p);
}

}  // namespace

TEST(Thumbnail, SquareTransparentAndFramed) {
    const auto fixture = writeFixture("thumb_sphere", makeUvSphere(16, 24, 1.0f));
    const auto out = fixture.parent_path() / "thumb.png";
    std::filesystem::remove(out);
    const test::ProcessRun r = runViewer({"--thumbnail", "128", qs(fixture), qs(out)});
    ASSERT_EQ(r.exitCode, 0) << r.stderrText.toStdString();
    const QImage image(qs(out));
    ASSERT_FALSE(image.isNull());
    EXPECT_EQ(image.size(), QSize(128, 128));
    EXPECT_TRUE(image.hasAlphaChannel());
    EXPECT_EQ(qAlpha(image.pixel(64, 64)), 255);
    for (QPoint corner : {QPoint(0, 0), QPoint(127, 0), QPoint(0, 127), QPoint(127, 127)})
        EXPECT_EQ(qAlpha(image.pixel(corner)), 0) << corner.x() << "," << corner.y();
    // Framed: the sphere fills a good part of the square, not a speck and not all of it.
    int opaque = 0;
    for (int y = 0; y < 128; ++y)
        for (int x = 0; x < 128; ++x) opaque += qAlpha(image.pixel(x, y)) > 0;
    EXPECT_GT(opaque, 128 * 128 / 5);
    EXPECT_LT(opaque, 128 * 128 * 9 / 10);
}

TEST(Thumbnail, FileOverTheCapIsRefusedWithoutDecoding) {
    const auto fixture = writeFixture("thumb_cap", makeUvSphere(16, 24, 1.0f));
    const auto out = fixture.parent_path() / "thumb.png";
    std::filesystem::remove(out);
    const auto bytes = std::filesystem::file_size(fixture);
    ASSERT_GT(bytes, 1000u);
    const test::ProcessRun r =
        runViewer({"--thumbnail", "128", qs(fixture), qs(out), "--max-size", "1000"});
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_TRUE(r.stderrText.contains("cap")) << r.stderrText.toStdString();
    EXPECT_FALSE(std::filesystem::exists(out));
    std::printf("[ measured ] refused in %.0f ms\n", double(r.ms));
    // Without a display the cap still answers (it is checked before any window can open).
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove("DISPLAY");
    env.remove("WAYLAND_DISPLAY");
    env.remove("QT_QPA_PLATFORM");
    p.setProcessEnvironment(env);
    p.start(kViewer, {"--thumbnail", "128", qs(fixture), qs(out), "--max-size", "1000"});
    ASSERT_TRUE(p.waitForFinished(10000));
    EXPECT_EQ(p.exitCode(), 1);
    EXPECT_FALSE(std::filesystem::exists(out));
}

// File managers run thumbnailers headless and sandboxed: no display, no OpenGL. The picture is
// drawn in software, so it comes out the same without DISPLAY.
TEST(Thumbnail, WorksWithoutADisplay) {
    const auto fixture = writeFixture("thumb_headless", makeUvSphere(16, 24, 1.0f));
    const auto out = fixture.parent_path() / "thumb.png";
    std::filesystem::remove(out);
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove("DISPLAY");
    env.remove("WAYLAND_DISPLAY");
    env.remove("QT_QPA_PLATFORM");
    p.setProcessEnvironment(env);
    QElapsedTimer t;
    t.start();
    p.start(kViewer, {"--thumbnail", "96", qs(fixture), qs(out)});
    ASSERT_TRUE(p.waitForFinished(20000));
    EXPECT_EQ(p.exitCode(), 0) << p.readAllStandardError().toStdString();
    const QImage image(qs(out));
    ASSERT_FALSE(image.isNull());
    EXPECT_EQ(image.size(), QSize(96, 96));
    EXPECT_EQ(qAlpha(image.pixel(48, 48)), 255);
    EXPECT_EQ(qAlpha(image.pixel(0, 0)), 0);
    std::printf("[ measured ] headless thumbnail in %lld ms\n", t.elapsed());
}

TEST(Thumbnail, ThumbnailerEntryListsTheMimeTypes) {
    QSettings entry(kResources + "/meshscope.thumbnailer", QSettings::IniFormat);
    ASSERT_EQ(entry.status(), QSettings::NoError);
    entry.beginGroup(QStringLiteral("Thumbnailer Entry"));
    EXPECT_EQ(entry.value("TryExec").toString(), QStringLiteral("meshscope"));
    EXPECT_EQ(entry.value("Exec").toString(), QStringLiteral("meshscope --thumbnail %s %i %o"));
    // QSettings reads "a;b;" as one string (no commas); split it ourselves.
    QFile raw(kResources + "/meshscope.thumbnailer");
    ASSERT_TRUE(raw.open(QIODevice::ReadOnly));
    QString mimeLine;
    for (const QByteArray& line : raw.readAll().split('\n'))
        if (line.startsWith("MimeType=")) mimeLine = QString::fromUtf8(line.mid(9));
    const QStringList listed = mimeLine.split(QLatin1Char(';'), Qt::SkipEmptyParts);
    const QSet<QString> thumbnailTypes(listed.begin(), listed.end());
    EXPECT_EQ(thumbnailTypes.size(), listed.size()) << "duplicates";

    QFile xml(kResources + "/meshscope-mime.xml");
    ASSERT_TRUE(xml.open(QIODevice::ReadOnly));
    static const QRegularExpression re(QStringLiteral("<mime-type\\s+type=\"([^\"]+)\""));
    QSet<QString> xmlTypes;
    for (auto it = re.globalMatch(QString::fromUtf8(xml.readAll())); it.hasNext();)
        xmlTypes.insert(it.next().captured(1));
    ASSERT_FALSE(xmlTypes.isEmpty());
    EXPECT_EQ(thumbnailTypes, xmlTypes);
}
