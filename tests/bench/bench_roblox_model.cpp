// Roblox binary place decoding speed: a generated place of 100 000 parts (writer, LZ4 chunks),
// whole decode beside only decompressing its chunks (the lower bound), with the ratio printed,
// and beside building the place's node array alone (what every decode pays besides values).
// Target: decode ≤ 2 × decompress-only. The same place with ZSTD chunks is measured too.
// The decoder inflates a large file's chunks on a worker thread while it decodes (InflateAhead),
// so the summary gives the process CPU time of each beside the wall time: the ratio of wall
// times is what a user waits for, the ratio of CPU times is the work done. The decode is timed
// until the result is there, and again until it is freed (the Google Benchmark loops above time
// both together).
//
// Memory: the decode keeps its inflated chunks and builds its node array in fresh allocations,
// where the decompress-only loop reuses one buffer. glibc hands large freed blocks back to the
// kernel (and its threshold for that moves with what was freed before), so that in some runs
// every decode would page-fault its ~20 MB afresh (each fault costs ~10 µs on the development
// VM) and in others none would. The program therefore asks glibc to keep what is freed
// (mallopt), and the loops measure decoding in a process that has decoded before. The cost of a
// first decode in a fresh process, page faults and all, is measured apart:
//   bench_roblox_model --write-place FILE     writes the 100 000-part place
//   bench_roblox_model --decode-once FILE     decodes FILE once, then only decompresses it once
//                                             (each in a fresh state), and prints both
#include <benchmark/benchmark.h>
#include <malloc.h>
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
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

// The part of any decode that is not property values: the node tree of the place (101 002
// instances with class and name, parent links and children lists), built through Asset::addNode
// (as the mesh decoders build theirs) and freed.
std::size_t nodeTreeOnly() {
    Asset a;
    a.nodes.reserve(101'002);
    a.nodeText.reserve(101'002 * 9);
    const int ws = a.addNode("Workspace", "Workspace");
    a.addNode("Lighting", "Lighting");
    a.childList(ws).reserve(1000);
    a.childLists.reserve(1002);
    for (int g = 0; g < 1000; ++g) {
        const int group = a.addNode("Model", "Model", ws);
        a.childList(group).reserve(100);
        for (int p = 0; p < 100; ++p) a.addNode("Part", "Part", group);
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

long minorFaults() {
    rusage u;
    getrusage(RUSAGE_SELF, &u);
    return u.ru_minflt;
}

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

// Decompresses and decodes `file` `runs` times, alternately (the shared machine's speed drifts
// over seconds: interleaving keeps the ratio of the medians honest): the median time to only
// decompress its chunks, to have the decoded result, and to have it and free it again (a large
// place's node array takes a while to free).
struct PlaceTimings {
    Timing inflate;
    Timing decode;
    Timing withFree;
    long faults = 0;       // median page faults of a decode
    double pairRatio = 0;  // median of each decode's wall time over the decompress-only pass
                           // just before it (the machine's speed drifts less within a pair)
};

PlaceTimings placeTimings(const Bytes& file, int runs) {
    std::vector<double> inflateWall, inflateCpu, wall, cpu, wallFree, cpuFree;
    std::vector<long> faults;
    std::vector<double> pairRatios;
    const auto seconds = [](auto from, auto to) {
        return std::chrono::duration<double>(to - from).count();
    };
    for (int i = 0; i < runs; ++i) {
        auto t0 = std::chrono::steady_clock::now();
        double c0 = cpuSeconds();
        benchmark::DoNotOptimize(decompressOnly(file));
        inflateWall.push_back(seconds(t0, std::chrono::steady_clock::now()));
        inflateCpu.push_back(cpuSeconds() - c0);

        t0 = std::chrono::steady_clock::now();
        c0 = cpuSeconds();
        const long f0 = minorFaults();
        std::optional<DecodeResult> r;
        r.emplace(decodeBytes(file, {.fileName = "place.rbxl"}));
        benchmark::DoNotOptimize(r->asset.nodes.data());
        wall.push_back(seconds(t0, std::chrono::steady_clock::now()));
        cpu.push_back(cpuSeconds() - c0);
        faults.push_back(minorFaults() - f0);
        pairRatios.push_back(wall.back() / inflateWall.back());
        r.reset();
        wallFree.push_back(seconds(t0, std::chrono::steady_clock::now()));
        cpuFree.push_back(cpuSeconds() - c0);
    }
    const auto median = [](auto& v) {
        std::sort(v.begin(), v.end());
        return v[v.size() / 2];
    };
    return {{median(inflateWall), median(inflateCpu)},
            {median(wall), median(cpu)},
            {median(wallFree), median(cpuFree)},
            median(faults),
            median(pairRatios)};
}

// --decode-once FILE: a first decode in a fresh process (every page it touches is new), then a
// first decompress-only pass (in a process that has decoded once: its buffer is new, the rest
// warm). Prints wall time and page faults of each.
int decodeOnce(const char* path) {
    std::ifstream in(path, std::ios::binary);
    const Bytes file{std::istreambuf_iterator<char>(in), {}};
    if (file.empty()) {
        std::fprintf(stderr, "cannot read %s\n", path);
        return 1;
    }
    auto t0 = std::chrono::steady_clock::now();
    long f0 = minorFaults();
    std::optional<DecodeResult> r;
    r.emplace(decodeBytes(file, {.fileName = "place.rbxl"}));
    const double decode =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const long decodeFaults = minorFaults() - f0;
    if (!r->ok()) {
        std::fprintf(stderr, "%s\n", r->error->toString().c_str());
        return 1;
    }
    const std::size_t nodes = r->asset.nodes.size();
    r.reset();
    t0 = std::chrono::steady_clock::now();
    f0 = minorFaults();
    benchmark::DoNotOptimize(decompressOnly(file));
    const double inflate =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf(
        "%s: first decode in a fresh process %.2f ms, %ld page faults (%zu nodes); first "
        "decompress-only %.2f ms, %ld page faults\n",
        path, decode * 1e3, decodeFaults, nodes, inflate * 1e3, minorFaults() - f0);
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc == 3 && std::string(argv[1]) == "--write-place") {
        std::ofstream out(argv[2], std::ios::binary);
        out.write(reinterpret_cast<const char*>(place().data()), std::streamsize(place().size()));
        return out ? 0 : 1;
    }
    if (argc == 3 && std::string(argv[1]) == "--decode-once") return decodeOnce(argv[2]);
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    const Bytes& file = place();
    zstdPlace();
    malloc_trim(0);
    // Freed memory stays in the process (see the top of this file).
    mallopt(M_MMAP_THRESHOLD, 256 << 20);
    mallopt(M_TRIM_THRESHOLD, 512 << 20);
    const PlaceTimings t = placeTimings(file, 41);
    const Timing nodes = medianSeconds([&] { benchmark::DoNotOptimize(nodeTreeOnly()); }, 15);
    std::printf(
        "roblox place, 100000 parts, %zu bytes: decompress-only %.2f ms, decode %.2f ms, "
        "ratio %.2f (target <= 2.00), median ratio of interleaved pairs %.2f; decode and free the "
        "result %.2f ms, ratio %.2f; CPU time "
        "%.2f ms vs %.2f ms, ratio %.2f (%.2f with the free); page faults per decode %ld; node "
        "tree alone %.2f ms\n",
        file.size(), t.inflate.wall * 1e3, t.decode.wall * 1e3, t.decode.wall / t.inflate.wall,
        t.pairRatio, t.withFree.wall * 1e3, t.withFree.wall / t.inflate.wall, t.decode.cpu * 1e3,
        t.inflate.cpu * 1e3, t.decode.cpu / t.inflate.cpu, t.withFree.cpu / t.inflate.cpu, t.faults,
        nodes.wall * 1e3);
    const Bytes& zfile = zstdPlace();
    const PlaceTimings z = placeTimings(zfile, 41);
    std::printf(
        "same place, ZSTD chunks, %zu bytes: decompress-only %.2f ms, decode %.2f ms, ratio "
        "%.2f; with the free %.2f ms, ratio %.2f; CPU time ratio %.2f\n",
        zfile.size(), z.inflate.wall * 1e3, z.decode.wall * 1e3, z.decode.wall / z.inflate.wall,
        z.withFree.wall * 1e3, z.withFree.wall / z.inflate.wall, z.decode.cpu / z.inflate.cpu);
    return 0;
}
