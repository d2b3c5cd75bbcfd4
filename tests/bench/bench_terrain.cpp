// Terrain benchmarks (#22): a generated island — rolling hills of Grass, Sand and Rock over a
// sea — of `side` × `side` × 2 chunks of 32³ voxels, written with writeSmoothGrid:
//  - BM_DecodeGrid: the SmoothGrid run walk (voxels/s);
//  - BM_MeshTerrain: surface nets over it, terrain and water (triangles/s);
//  - BM_OpenPlace/terrain:1 vs terrain:0: decoding a binary place holding only that Terrain with
//    the terrain pass on and off (DecodeOptions::robloxTerrain), the cost terrain adds to an open.
#include <benchmark/benchmark.h>

#include <cmath>
#include <string>
#include <vector>

#include "meshscope/core/decode.h"
#include "meshscope/core/roblox_model_writer.h"
#include "meshscope/core/roblox_terrain.h"

using namespace meshscope;

namespace {

constexpr int kN = 32;

std::string islandGrid(int side) {
    std::vector<TerrainChunkVoxels> chunks;
    for (int cx = 0; cx < side; ++cx)
        for (int cz = 0; cz < side; ++cz)
            for (int cy = -1; cy <= 0; ++cy) {
                TerrainChunkVoxels c;
                c.x = cx;
                c.y = cy;
                c.z = cz;
                c.voxels.assign(std::size_t(kN) * kN * kN, {});
                for (int z = 0; z < kN; ++z)
                    for (int x = 0; x < kN; ++x) {
                        const float wx = float(cx * kN + x), wz = float(cz * kN + z);
                        const float r = std::hypot(wx - side * 16.f, wz - side * 16.f) /
                                        (side * 16.f);  // 0 at the centre, 1 at the shore
                        const float h = 20.f * (1.f - r) +
                                        4.f * std::sin(wx * 0.11f) * std::cos(wz * 0.07f) - 6.f;
                        for (int y = 0; y < kN; ++y) {
                            const float wy = float(cy * kN + y);
                            TerrainVoxel& v = c.voxels[std::size_t((y * kN + z) * kN + x)];
                            const float fill = h - wy;
                            if (fill >= 1.f) {
                                v = {std::uint8_t(h < 1.f    ? 4 /* Sand */
                                                  : h > 14.f ? 3 /* Rock */
                                                             : 2),
                                     255, 0};
                            } else if (fill > 0.f) {
                                v = {2, std::uint8_t(fill * 255.f), 0};
                            } else if (wy < 0.f) {
                                v = {kTerrainWater, 255, 0};
                            }
                        }
                    }
                chunks.push_back(std::move(c));
            }
    return writeSmoothGrid(chunks);
}

std::span<const std::uint8_t> bytesOf(const std::string& s) {
    return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()};
}

void BM_DecodeGrid(benchmark::State& state) {
    const std::string blob = islandGrid(int(state.range(0)));
    std::uint64_t voxels = 0;
    for (auto _ : state) {
        TerrainGrid g = decodeSmoothGrid(bytesOf(blob));
        voxels = g.chunks.size() * std::uint64_t(kN * kN * kN);
        benchmark::DoNotOptimize(g);
    }
    state.counters["voxels/s"] =
        benchmark::Counter(double(voxels), benchmark::Counter::kIsIterationInvariantRate);
    state.counters["blob MB"] = double(blob.size()) / 1e6;
}

void BM_MeshTerrain(benchmark::State& state) {
    const std::string blob = islandGrid(int(state.range(0)));
    const TerrainGrid grid = decodeSmoothGrid(bytesOf(blob));
    std::uint64_t triangles = 0;
    for (auto _ : state) {
        TerrainMeshes m = meshTerrain(bytesOf(blob), grid);
        triangles = m.terrain.triangleCount() + m.water.triangleCount();
        benchmark::DoNotOptimize(m);
    }
    state.counters["triangles"] = double(triangles);
    state.counters["triangles/s"] =
        benchmark::Counter(double(triangles), benchmark::Counter::kIsIterationInvariantRate);
}

void BM_OpenPlace(benchmark::State& state) {
    Asset place;
    place.format = "roblox-model";
    const int ws = place.addNode("Workspace", "Workspace");
    const int t = place.addNode("Terrain", "Terrain", ws);
    place.addChild(ws, t);
    Property p;
    p.name = "SmoothGrid";
    p.type = "string";
    p.value = islandGrid(int(state.range(0)));
    place.addProperty(t, std::move(p));
    const RobloxModelWriteResult written = writeRobloxModel(place);
    if (!written.ok()) {
        state.SkipWithError("writer failed");
        return;
    }
    DecodeOptions options;
    options.robloxTerrain = state.range(1) != 0;
    for (auto _ : state) {
        DecodeResult r = decodeBytes(written.bytes, options);
        benchmark::DoNotOptimize(r);
    }
    state.counters["file MB"] = double(written.bytes.size()) / 1e6;
}

}  // namespace

BENCHMARK(BM_DecodeGrid)->Arg(8)->Arg(16)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_MeshTerrain)->Arg(8)->Arg(16)->Unit(benchmark::kMillisecond)->Iterations(2);
BENCHMARK(BM_OpenPlace)
    ->ArgsProduct({{16}, {0, 1}})
    ->ArgNames({"side", "terrain"})
    ->Unit(benchmark::kMillisecond)
    ->Iterations(2);

BENCHMARK_MAIN();
