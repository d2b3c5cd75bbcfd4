// Roblox binary place decoding speed: a generated place of 100 000 parts (writer, LZ4 chunks),
// whole decode beside only decompressing its chunks (the lower bound), with the ratio printed,
// and beside building the place's node array alone (what every decode pays besides values).
// Target: decode ≤ 2 × decompress-only. The same place with ZSTD chunks is measured too.
// The decoder inflates a large file's chunks on a worker thread while it decodes (InflateAhead),
// so the summary gives the process CPU time of each beside the wall time: the ratio of wall
// times is what a user waits for, the ratio of CPU times is the work done.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <vector>

#include "io/decode_context.h"
#include "io/decompress.h"
#include "meshscope/core/decode.h"
#include "meshscope/core/roblox_model_writer.h"

namespace {

using namespace meshscope;

const Bytes& place() {
    static const Bytes bytes = writeRobloxModel(makeRobloxPlace(100'000)).bytes;
    return bytes;
}

// The same place with ZSTD chunks (level 3), as newer Studio builds can write them: the same
// decode work behind a slower decompressor. Shown beside the LZ4 place, which sets the target.
const Bytes& zstdPlace() {
    static const Bytes bytes = [] {
        RobloxModelWriteOptions o;
        o.compression = RobloxChunkCompression::Zstd;
        return writeRobloxModel(makeRobloxPlace(100'000), o).bytes;
    }();
    return bytes;
}

// Walks the chunk framing and inflates every compressed body into one reused buffer (as the
// decoder does), nothing else.
std::size_t decompressOnly(const Bytes& file) {
    Asset scratch;
    DecodeOptions options;
    DecodeContext ctx(file, options, scratch);
    InflateBuffer buffer;
    std::size_t total = 0;
    std::size_t at = 32;
    while (at + 16 <= file.size()) {
        std::uint32_t c, u;
        std::memcpy(&c, file.data() + at + 4, 4);
        std::memcpy(&u, file.data() + at + 8, 4);
        const ByteSpan body(file.data() + at + 16, c ? c : u);
        if (c) {
            const ByteSpan out = looksLikeZstd(body) ? buffer.zstd(ctx, body, u, at + 16)
                                                     : buffer.lz4Block(ctx, body, u, at + 16);
            total += out.size();
        } else {
            total += u;
        }
        if (std::memcmp(file.data() + at, "END", 3) == 0) break;
        at += 16 + (c ? c : u);
    }
    return total;
}

void decompressAll(benchmark::State& state, const Bytes& file) {
    for (auto _ : state) benchmark::DoNotOptimize(decompressOnly(file));
    state.SetBytesProcessed(std::int64_t(state.iterations()) * std::int64_t(file.size()));
}

void decodeAll(benchmark::State& state, const Bytes& file) {
    for (auto _ : state) {
        DecodeResult r = decodeBytes(file, {.fileName = "place.rbxl"});
        if (!r.ok()) state.SkipWithError(r.error->toString().c_str());
        benchmark::DoNotOptimize(r.asset.nodes.data());
    }
    state.SetBytesProcessed(std::int64_t(state.iterations()) * std::int64_t(file.size()));
}

void BM_DecompressChunksOnly(benchmark::State& state) {
    decompressAll(state, place());
}
BENCHMARK(BM_DecompressChunksOnly)->Unit(benchmark::kMillisecond);

void BM_DecompressZstdChunksOnly(benchmark::State& state) {
    decompressAll(state, zstdPlace());
}
BENCHMARK(BM_DecompressZstdChunksOnly)->Unit(benchmark::kMillisecond);

// The part of any decode that is not property values: the Asset::nodes array of the place
// (101 002 instances with class and name, parent links and children lists), built and freed.
std::size_t nodeTreeOnly() {
    Asset a;
    a.nodes.reserve(101'002);
    auto add = [&](const char* cls, int parent) {
        const int i = int(a.nodes.size());
        Node& n = a.nodes.emplace_back();
        n.kind = cls;
        n.name = cls;
        n.parent = parent;
        n.table = 0;
        n.row = std::uint32_t(i);
        return i;
    };
    const int ws = add("Workspace", -1);
    add("Lighting", -1);
    a.nodes[std::size_t(ws)].children.reserve(1000);
    for (int g = 0; g < 1000; ++g) {
        const int group = add("Model", ws);
        a.nodes[std::size_t(ws)].children.push_back(group);
        a.nodes[std::size_t(group)].children.reserve(100);
        for (int p = 0; p < 100; ++p)
            a.nodes[std::size_t(group)].children.push_back(add("Part", group));
    }
    return a.nodes.size();
}

void BM_NodeTreeOnly(benchmark::State& state) {
    for (auto _ : state) benchmark::DoNotOptimize(nodeTreeOnly());
}
BENCHMARK(BM_NodeTreeOnly)->Unit(benchmark::kMillisecond);

void BM_DecodePlace100k(benchmark::State& state) {
    decodeAll(state, place());
}
BENCHMARK(BM_DecodePlace100k)->Unit(benchmark::kMillisecond);

void BM_DecodeZstdPlace100k(benchmark::State& state) {
    decodeAll(state, zstdPlace());
}
BENCHMARK(BM_DecodeZstdPlace100k)->Unit(benchmark::kMillisecond);

double cpuSeconds() {
    timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return double(t.tv_sec) + double(t.tv_nsec) * 1e-9;
}

struct Timing {
    double wall = 0;  // median wall time, seconds
    double cpu = 0;   // median process CPU time (every thread), seconds
};

template <typename F>
Timing medianSeconds(F f, int runs) {
    std::vector<double> wall, cpu;
    for (int i = 0; i < runs; ++i) {
        const auto t0 = std::chrono::steady_clock::now();
        const double c0 = cpuSeconds();
        f();
        cpu.push_back(cpuSeconds() - c0);
        wall.push_back(
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    std::sort(wall.begin(), wall.end());
    std::sort(cpu.begin(), cpu.end());
    return {wall[wall.size() / 2], cpu[cpu.size() / 2]};
}

}  // namespace

int main(int argc, char** argv) {
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    const auto decodeOf = [](const Bytes& file) {
        return medianSeconds(
            [&] {
                DecodeResult r = decodeBytes(file, {.fileName = "place.rbxl"});
                benchmark::DoNotOptimize(r.asset.nodes.data());
            },
            9);
    };
    const Bytes& file = place();
    const Timing inflate =
        medianSeconds([&] { benchmark::DoNotOptimize(decompressOnly(file)); }, 9);
    const Timing decode = decodeOf(file);
    const Timing nodes = medianSeconds([&] { benchmark::DoNotOptimize(nodeTreeOnly()); }, 9);
    std::printf(
        "roblox place, 100000 parts, %zu bytes: decompress-only %.2f ms, decode %.2f ms, "
        "ratio %.2f (target <= 2.00); CPU time %.2f ms vs %.2f ms, ratio %.2f; node tree alone "
        "%.2f ms\n",
        file.size(), inflate.wall * 1e3, decode.wall * 1e3, decode.wall / inflate.wall,
        decode.cpu * 1e3, inflate.cpu * 1e3, decode.cpu / inflate.cpu, nodes.wall * 1e3);
    const Bytes& zfile = zstdPlace();
    const Timing zinflate =
        medianSeconds([&] { benchmark::DoNotOptimize(decompressOnly(zfile)); }, 9);
    const Timing zdecode = decodeOf(zfile);
    std::printf(
        "same place, ZSTD chunks, %zu bytes: decompress-only %.2f ms, decode %.2f ms, ratio "
        "%.2f; CPU time ratio %.2f\n",
        zfile.size(), zinflate.wall * 1e3, zdecode.wall * 1e3, zdecode.wall / zinflate.wall,
        zdecode.cpu / zinflate.cpu);
    return 0;
}
