// Roblox terrain in the 3D view (needs a display: run under xvfb-run): a small grass hill on
// rock beside a pond, written as a place's Terrain.SmoothGrid, rendered by
// `meshscope --screenshot` and compared with a stored baseline (tests/data/baselines/
// terrain_hill.png; refresh with MESHSCOPE_UPDATE_BASELINES=1).
#include <gtest/gtest.h>

#include <QImage>
#include <QProcess>
#include <cmath>

#include "meshscope/core/roblox_model_writer.h"
#include "meshscope/core/roblox_terrain.h"
#include "support/image_baseline.h"
#include "support/test_support.h"

using namespace meshscope;

namespace {

// One chunk: a hill of Grass over Rock around (12, 12), a Water pond in the corner (24..31).
std::string hillGrid() {
    TerrainChunkVoxels c;
    c.voxels.assign(32 * 32 * 32, TerrainVoxel{});
    auto at = [](int x, int y, int z) { return std::size_t((y * 32 + z) * 32 + x); };
    for (int z = 0; z < 32; ++z)
        for (int x = 0; x < 32; ++x) {
            const float dx = float(x) - 12, dz = float(z) - 12;
            const float h = 3.0f + 9.0f * std::exp(-(dx * dx + dz * dz) / 40.0f);
            const int full = int(h);
            for (int y = 0; y < full; ++y)
                c.voxels[at(x, y, z)] = TerrainVoxel{std::uint8_t(y + 2 < full ? 8 : 2), 255, 0};
            c.voxels[at(x, full, z)] = TerrainVoxel{2, std::uint8_t((h - float(full)) * 255), 0};
            if (x >= 22 && z >= 22)
                for (int y = full + 1; y < 6; ++y) c.voxels[at(x, y, z)] = TerrainVoxel{1, 255, 0};
        }
    return writeSmoothGrid({&c, 1});
}

TEST(TerrainRender, HillAndPondMatchBaseline) {
    Asset a;
    a.format = "roblox-model";
    const int ws = a.addNode("Workspace", "Workspace");
    const int t = a.addNode("Terrain", "Terrain", ws);
    a.addChild(ws, t);
    a.addProperty(t, test::prop("Name", "string", std::string("Terrain")));
    a.addProperty(t, test::prop("SmoothGrid", "string", hillGrid()));
    const RobloxModelWriteResult w = writeRobloxModel(a);
    ASSERT_TRUE(w.ok());
    const auto fixture = test::tempDir("terrain_render") / "hill.rbxl";
    test::writeFile(fixture, w.bytes);
    const auto out = fixture.parent_path() / "shot.png";
    QProcess p;
    p.start(QStringLiteral(MESHSCOPE_VIEWER_PATH),
            {"--screenshot", QString::fromStdString(out.string()), "--size", "400x300",
             QString::fromStdString(fixture.string())});
    ASSERT_TRUE(p.waitForFinished(60000));
    ASSERT_EQ(p.exitCode(), 0) << p.readAllStandardError().toStdString();
    const QImage shot =
        QImage(QString::fromStdString(out.string())).convertToFormat(QImage::Format_RGB32);
    ASSERT_FALSE(shot.isNull());

    // Independent of the baseline: the grass (hue ~80) covers a good part of the view and the
    // water (hue ~186, Roblox's default WaterColor) shows.
    EXPECT_GT(test::pixelsOfHue(shot, 80, 15), 2000);
    EXPECT_GT(test::pixelsOfHue(shot, 186, 12), 100);

    const auto baselinePath = test::testDataDir() / "baselines" / "terrain_hill.png";
    if (qEnvironmentVariable("MESHSCOPE_UPDATE_BASELINES") == QLatin1String("1")) {
        ASSERT_TRUE(shot.save(QString::fromStdString(baselinePath.string())));
        GTEST_SKIP() << "baseline written: " << baselinePath;
    }
    const QImage baseline =
        QImage(QString::fromStdString(baselinePath.string())).convertToFormat(QImage::Format_RGB32);
    ASSERT_FALSE(baseline.isNull())
        << baselinePath << " is missing; create it with MESHSCOPE_UPDATE_BASELINES=1";
    ASSERT_EQ(shot.size(), baseline.size());
    EXPECT_LT(double(test::differingPixels(shot, baseline, 24)) / (shot.width() * shot.height()),
              0.03);
}

}  // namespace
