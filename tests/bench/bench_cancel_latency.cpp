// Cancellation latency per decoder family: the time from setting DecodeOptions::cancel to
// decodeBytes returning, on inputs that take about a second or more to decode (Release build).
// The flag is set from the progress callback once the decoder reports a point of its work (50%,
// or a phase of the XML model's decode), so a loaded machine cannot move it past the end; for
// phases that report no progress (pugixml's parse of a piece, a large inflated Second Life
// block) it is also set from another thread at a fraction of the full decode time.
//
// Each benchmark's time is the latency (manual time); its counters are the full decode time of
// the input (decode_ms), the runs that finished before the flag was seen (finished: a decode
// whose last check lies before the point) and, for the XML model, the time to free what the
// cancelled decode handed back (free_ms). tests/core/robustness/cancel_test.cpp checks that
// cancelling works; this program measures how fast.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "meshscope/core/decode.h"
#include "support/cancel_inputs.h"

namespace {

using namespace meshscope;
namespace inputs = meshscope::test::cancel_inputs;
using Clock = std::chrono::steady_clock;

double seconds(Clock::duration d) {
    return std::chrono::duration<double>(d).count();
}

// An input of one family, made once per process, with its uncancelled decode time.
struct Prepared {
    inputs::Input input;
    double decodeSeconds = 0;
    std::string error;  // the writer or the uncancelled decode failed
};

const Prepared& prepared(const std::string& key, const std::function<inputs::Input()>& make) {
    static std::map<std::string, Prepared> cache;
    auto it = cache.find(key);
    if (it != cache.end()) return it->second;
    Prepared p;
    p.input = make();
    if (p.input.bytes.empty()) {
        p.error = key + ": " + p.input.error;
    } else {
        const auto start = Clock::now();
        const DecodeResult r = decodeBytes(p.input.bytes);
        p.decodeSeconds = seconds(Clock::now() - start);
        if (!r.ok()) p.error = key + ": " + r.error->toString();
    }
    return cache.emplace(key, std::move(p)).first->second;
}

struct Cancelled {
    DecodeResult result;
    bool flagged = false;
    double latency = 0;  // seconds from setting the flag to decodeBytes returning
};

Cancelled cancelAtProgress(const Bytes& bytes, double at) {
    std::atomic<bool> cancel{false};
    Clock::time_point flagged;
    DecodeOptions options;
    options.cancel = &cancel;
    options.progress = [&](double fraction) {
        if (fraction >= at && !cancel.load()) {
            flagged = Clock::now();
            cancel = true;
        }
    };
    Cancelled c;
    c.result = decodeBytes(bytes, options);
    const auto returned = Clock::now();
    c.flagged = cancel.load();
    c.latency = c.flagged ? seconds(returned - flagged) : 0;
    return c;
}

Cancelled cancelAfter(const Bytes& bytes, double delay) {
    std::atomic<bool> cancel{false};
    DecodeOptions options;
    options.cancel = &cancel;
    Cancelled c;
    Clock::time_point returned;
    std::thread worker([&] {
        c.result = decodeBytes(bytes, options);
        returned = Clock::now();
    });
    std::this_thread::sleep_for(std::chrono::duration<double>(delay));
    const auto flagged = Clock::now();
    cancel = true;
    worker.join();
    c.flagged = true;
    c.latency = std::max(0.0, seconds(returned - flagged));
    return c;
}

enum class Trigger { Progress, Timer };

// One benchmark: cancel `key`'s input at `point` (a progress fraction, or a fraction of its
// decode time) and record the latency.
void cancelLatency(benchmark::State& state, const std::string& key,
                   const std::function<inputs::Input()>& make, Trigger trigger, double point) {
    const Prepared& p = prepared(key, make);
    if (!p.error.empty()) {
        state.SkipWithError(p.error.c_str());
        return;
    }
    int finished = 0;
    double freeSeconds = 0;
    for (auto _ : state) {
        Cancelled c = trigger == Trigger::Progress ? cancelAtProgress(p.input.bytes, point)
                                                   : cancelAfter(p.input.bytes, p.decodeSeconds * point);
        if (!c.flagged) {
            state.SkipWithError("the decoder reported no progress up to the point");
            return;
        }
        state.SetIterationTime(c.latency);
        if (c.result.ok()) ++finished;
        const auto freeing = Clock::now();
        c.result.discarded.reset();
        freeSeconds += seconds(Clock::now() - freeing);
    }
    const double n = double(std::max<benchmark::IterationCount>(state.iterations(), 1));
    state.counters["decode_ms"] = p.decodeSeconds * 1e3;
    state.counters["finished"] = finished;
    state.counters["free_ms"] = freeSeconds / n * 1e3;
    state.counters["MB"] = double(p.input.bytes.size()) / 1e6;
    state.SetLabel(p.input.what);
}

// Sizes that decode in about 1-2 s on the development machine (Release).
inputs::Input fileMeshV4() {
    return inputs::fileMesh(4u << 20, "4.00");
}
inputs::Input fileMeshV6() {
    return inputs::fileMesh(4u << 20, "6.00");
}
inputs::Input binaryPlace() {
    return inputs::binaryPlace(200'000);
}
inputs::Input xmlModel() {
    return inputs::xmlModel(200'000);
}
inputs::Input secondLife() {
    return inputs::secondLifeMesh(2u << 20);
}
inputs::Input unigineSkinned() {
    return inputs::unigineSkinnedMesh(8192);
}
inputs::Input unigineAnimation() {
    return inputs::unigineAnimation(40'000);
}

void registerAll() {
    struct Family {
        const char* key;
        inputs::Input (*make)();
        std::vector<double> progressPoints;
        std::vector<double> timerPoints;
    };
    const Family families[] = {
        {"filemesh_v4", fileMeshV4, {0.5}, {}},
        {"filemesh_v6", fileMeshV6, {0.5}, {}},
        {"binary_place", binaryPlace, {0.5}, {}},
        // Progress 0-35%: the scan for piece boundaries, then pugixml's parse; then the items.
        {"xml_model", xmlModel, {0.10, 0.25, 0.5, 0.75}, {0.05, 0.10, 0.20, 0.35}},
        // Progress follows the file offset, which stands still while one large inflated block
        // is parsed: the timer lands inside one.
        {"secondlife_mesh", secondLife, {0.5}, {0.5}},
        {"unigine_ms08", unigineSkinned, {0.5}, {}},
        {"unigine_as08", unigineAnimation, {0.5}, {}},
    };
    for (const Family& f : families) {
        const std::string key = f.key;
        const auto make = f.make;
        for (double at : f.progressPoints) {
            benchmark::RegisterBenchmark(
                ("cancel/" + key + "/at_progress_" + std::to_string(int(at * 100))).c_str(),
                [key, make, at](benchmark::State& s) {
                    cancelLatency(s, key, make, Trigger::Progress, at);
                })
                ->UseManualTime()
                ->Unit(benchmark::kMillisecond)
                ->Iterations(3);
        }
        for (double at : f.timerPoints) {
            benchmark::RegisterBenchmark(
                ("cancel/" + key + "/at_time_" + std::to_string(int(at * 100))).c_str(),
                [key, make, at](benchmark::State& s) {
                    cancelLatency(s, key, make, Trigger::Timer, at);
                })
                ->UseManualTime()
                ->Unit(benchmark::kMillisecond)
                ->Iterations(3);
        }
    }
}

}  // namespace

int main(int argc, char** argv) {
    registerAll();
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
