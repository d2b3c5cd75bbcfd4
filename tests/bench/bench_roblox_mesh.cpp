// FileMesh decoding speed on a generated 1M-triangle grid: v4.00 (plain arrays) beside a memcpy
// of the same bytes, and v7.00 (COREMESH v2, Draco) beside a bare libdraco decode of the same
// Draco stream. Ends with the two ratios the targets are stated in:
//   uncompressed decode ≥ 40 % of memcpy bandwidth; v7 decode within 10 % of bare libdraco.
#include <benchmark/benchmark.h>
#include <draco/compression/decode.h>

#include <cstdio>
#include <cstring>
#include <map>
#include <string>

#include "meshscope/core/decode.h"
#include "meshscope/core/mesh_generators.h"
#include "meshscope/core/roblox_mesh_writer.h"

namespace {

using namespace meshscope;

constexpr std::uint32_t kTriangles = 1'000'000;

struct Files {
    Bytes v4, v7;
    std::size_t dracoOffset = 0, dracoLength = 0;  // the Draco stream inside v7's COREMESH
};

const Files& files() {
    static const Files f = [] {
        Files out;
        const Asset grid = makeGridMesh(kTriangles);
        FileMeshWriteOptions o;
        o.version = "4.00";
        out.v4 = writeFileMesh(grid, 0, o).bytes;
        o.version = "7.00";
        o.dracoPositionBits = 14;
        o.dracoNormalBits = 10;
        o.dracoUvBits = 12;
        out.v7 = writeFileMesh(grid, 0, o).bytes;
        // "version 7.00\n", then COREMESH: name[8], version, size, u32 Draco length, Draco.
        std::uint32_t length = 0;
        if (out.v7.size() > 33) std::memcpy(&length, out.v7.data() + 29, 4);
        out.dracoOffset = 33;
        out.dracoLength = length;
        return out;
    }();
    return f;
}

void decodeFile(benchmark::State& state, const Bytes& bytes) {
    for (auto _ : state) {
        DecodeResult r = decodeBytes(bytes);
        if (!r.ok()) {
            state.SkipWithError(r.error->toString().c_str());
            break;
        }
        benchmark::DoNotOptimize(r.asset.meshes.data());
    }
    state.SetBytesProcessed(std::int64_t(state.iterations()) * std::int64_t(bytes.size()));
    state.counters["triangles/s"] =
        benchmark::Counter(double(state.iterations()) * kTriangles, benchmark::Counter::kIsRate);
    state.counters["file_MB"] = double(bytes.size()) / 1e6;
}

void BM_DecodeV4(benchmark::State& state) {
    decodeFile(state, files().v4);
}

void BM_MemcpyV4(benchmark::State& state) {
    const Bytes& src = files().v4;
    Bytes dst(src.size(), 1);  // touched once, outside the loop: pure copy bandwidth
    for (auto _ : state) {
        std::memcpy(dst.data(), src.data(), src.size());
        benchmark::DoNotOptimize(dst.data());
        benchmark::ClobberMemory();
    }
    state.SetBytesProcessed(std::int64_t(state.iterations()) * std::int64_t(src.size()));
}

void BM_DecodeV7(benchmark::State& state) {
    decodeFile(state, files().v7);
}

void BM_BareDracoV7(benchmark::State& state) {
    const Files& f = files();
    for (auto _ : state) {
        draco::DecoderBuffer buffer;
        buffer.Init(reinterpret_cast<const char*>(f.v7.data() + f.dracoOffset), f.dracoLength);
        draco::Decoder decoder;
        auto mesh = decoder.DecodeMeshFromBuffer(&buffer);
        if (!mesh.ok()) {
            state.SkipWithError(mesh.status().error_msg());
            break;
        }
        benchmark::DoNotOptimize(mesh.value().get());
    }
    state.SetBytesProcessed(std::int64_t(state.iterations()) * std::int64_t(f.v7.size()));
    state.counters["triangles/s"] =
        benchmark::Counter(double(state.iterations()) * kTriangles, benchmark::Counter::kIsRate);
}

BENCHMARK(BM_DecodeV4)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_MemcpyV4)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_DecodeV7)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_BareDracoV7)->Unit(benchmark::kMillisecond)->UseRealTime();

// Keeps each benchmark's real and CPU seconds per iteration (the median when repeated) for the
// closing ratio line.
class RatioReporter : public benchmark::ConsoleReporter {
public:
    std::map<std::string, std::pair<double, double>> seconds;  // real, CPU
    void ReportRuns(const std::vector<Run>& runs) override {
        for (const Run& run : runs) {
            if (run.error_occurred || run.iterations <= 0) continue;
            const bool median = run.run_type == Run::RT_Aggregate && run.aggregate_name == "median";
            if (run.run_type != Run::RT_Iteration && !median) continue;
            // Medians, like iteration runs, hold totals over run.iterations.
            const double n = double(run.iterations);
            seconds[run.run_name.function_name] = {run.real_accumulated_time / n,
                                                   run.cpu_accumulated_time / n};
        }
        ConsoleReporter::ReportRuns(runs);
    }
};

}  // namespace

int main(int argc, char** argv) {
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    std::printf("v4.00 file: %.1f MB, v7.00 file: %.1f MB (Draco stream %.1f MB), %u triangles\n",
                files().v4.size() / 1e6, files().v7.size() / 1e6, files().dracoLength / 1e6,
                kTriangles);
    RatioReporter reporter;
    benchmark::RunSpecifiedBenchmarks(&reporter);
    auto& s = reporter.seconds;
    // Ratios by wall-clock time (the headline) and by CPU time (steadier on a busy machine).
    auto ratio = [&](const char* a, const char* b, bool cpu) {
        return cpu ? s[a].second / s[b].second : s[a].first / s[b].first;
    };
    const bool v4 = s.count("BM_DecodeV4") && s.count("BM_MemcpyV4");
    const bool v7 = s.count("BM_DecodeV7") && s.count("BM_BareDracoV7");
    for (bool cpu : {false, true}) {
        std::string line;
        char buf[128];
        if (v4) {
            std::snprintf(buf, sizeof buf, "v4 decode / memcpy bandwidth = %.2f",
                          ratio("BM_MemcpyV4", "BM_DecodeV4", cpu));
            line += buf;
        }
        if (v7) {
            std::snprintf(buf, sizeof buf, "%sv7 decode / bare draco = %.2f",
                          line.empty() ? "" : "; ", ratio("BM_DecodeV7", "BM_BareDracoV7", cpu));
            line += buf;
        }
        if (!line.empty()) std::printf("%s%s\n", line.c_str(), cpu ? " (CPU time)" : "");
    }
    benchmark::Shutdown();
    return 0;
}
