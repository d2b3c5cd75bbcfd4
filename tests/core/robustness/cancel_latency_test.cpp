// Cancellation latency, measured per decoder family: a large input of each kind is decoded once
// to time it, then decoded again with DecodeOptions::cancel set from the progress callback once
// the decoder reports half its work done (a point in the decode, not in wall-clock time, so a
// loaded machine cannot move it past the end); the time from setting the flag to decodeBytes
// returning is printed. Inputs grow (doubling) until their decode takes about 2 s here (0.5 s in
// sanitizer builds) or they reach a size cap. The test asserts that the decode ends in a
// "cancelled" error: a decoder with no check in its long loops finishes instead. Latencies are
// printed, never asserted.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "meshscope/core/decode.h"
#include "meshscope/core/mesh_generators.h"
#include "meshscope/core/roblox_mesh_writer.h"
#include "meshscope/core/roblox_model_writer.h"
#include "meshscope/core/secondlife_writer.h"
#include "meshscope/core/unigine_writer.h"
#include "support/test_support.h"

using namespace meshscope;
using Clock = std::chrono::steady_clock;

namespace {

#if defined(__SANITIZE_ADDRESS__)
constexpr double kTargetSeconds = 0.5;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr double kTargetSeconds = 0.5;
#else
constexpr double kTargetSeconds = 2.0;
#endif
#else
constexpr double kTargetSeconds = 2.0;
#endif

double seconds(Clock::duration d) {
    return std::chrono::duration<double>(d).count();
}

struct Sized {
    Bytes bytes;
    std::string what;  // "4194304 triangles"
};

// Grows `make(scale)` by doubling from `scale` (each test starts near the size that takes 2 s on
// the development machine) until a decode takes kTargetSeconds or the file
// would pass `maxBytes`; returns the input and its decode time.
std::pair<Sized, double> calibrate(const std::function<Sized(std::size_t)>& make, std::size_t scale,
                                   std::size_t maxBytes) {
    Sized input = make(scale);
    double t = 0;
    while (true) {
        const auto start = Clock::now();
        const DecodeResult r = decodeBytes(input.bytes);
        t = seconds(Clock::now() - start);
        EXPECT_TRUE(r.ok()) << input.what << ": " << r.error->toString();
        if (!r.ok() || t >= kTargetSeconds || input.bytes.size() * 2 > maxBytes) break;
        scale *= 2;
        input = make(scale);
    }
    return {std::move(input), t};
}

struct Cancelled {
    DecodeResult result;
    bool flagged = false;  // the flag was set (progress reached the point)
    double latency = 0;    // seconds from setting the flag to decodeBytes returning
};

// Decodes `bytes`, setting the cancel flag from the progress callback once progress reaches `at`.
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
    c.latency = seconds(returned - flagged);
    return c;
}

// Decodes `bytes` on another thread and sets the cancel flag after `delay` seconds.
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

// Cancels a decode of the calibrated input from its progress callback: first at its first
// progress report (nearly all the work is still ahead, so a decoder without checks in its long
// loops finishes instead: asserted), then at half its progress (printed: a decode whose last
// check lies before the half may finish a few milliseconds later instead, which is fine); then,
// when `timerFraction` is given, from another thread at that fraction of the decode time (for a
// phase that reports no progress, such as the XML parse: printed only).
void measure(const char* family, const std::function<Sized(std::size_t)>& make, std::size_t scale,
             std::size_t maxBytes = 256u << 20, double timerFraction = 0) {
    // Not a structured binding: clang 14 cannot capture one in a lambda.
    const auto calibrated = calibrate(make, scale, maxBytes);
    const Sized& input = calibrated.first;
    const double full = calibrated.second;
    auto report = [&](const char* when, double latency, const DecodeResult& result) {
        std::printf(
            "[ measured ] cancel latency %-18s %8.1f ms  (flag %s of a %.2f s decode, "
            "%s; %s, %.1f MB)\n",
            family, latency * 1e3, when, full,
            result.ok() ? "finished" : result.error->code.c_str(), input.what.c_str(),
            double(input.bytes.size()) / 1e6);
    };
    for (const double at : {0.0, 0.5}) {
        const Cancelled c = cancelAtProgress(input.bytes, at);
        const DecodeResult& result = c.result;
        ASSERT_TRUE(c.flagged) << family << ": the decoder reported no progress";
        report(at == 0 ? "at its first progress" : "at 50% progress", c.latency, result);
        if (at == 0) {
            ASSERT_FALSE(result.ok()) << family << ": the decode finished despite the cancel";
            EXPECT_EQ(result.error->code, "cancelled") << result.error->toString();
            // A cancelled result is empty: the partial one is handed back, not shown.
            EXPECT_TRUE(result.asset.nodes.empty() && result.asset.meshes.empty());
            EXPECT_TRUE(result.asset.byteMap.ranges().empty());
        }
    }
    if (timerFraction > 0) {
        const Cancelled c = cancelAfter(input.bytes, full * timerFraction);
        const DecodeResult& result = c.result;
        char when[64];
        std::snprintf(when, sizeof when, "at %.0f%% of the time", timerFraction * 100);
        report(when, c.latency, result);
    }
}

Sized fileMesh(std::size_t triangles, const char* version) {
    FileMeshWriteOptions o;
    o.version = version;
    auto r = writeFileMesh(makeGridMesh(std::uint32_t(triangles)), 0, o);
    EXPECT_TRUE(r.ok());
    return {std::move(r.bytes), std::to_string(triangles) + " triangles"};
}

}  // namespace

TEST(CancelLatency, FileMeshV4) {
    measure(
        "FileMesh 4.00", [](std::size_t n) { return fileMesh(n, "4.00"); }, 4u << 20);
}

TEST(CancelLatency, FileMeshV6) {
    measure(
        "FileMesh 6.00", [](std::size_t n) { return fileMesh(n, "6.00"); }, 4u << 20);
}

TEST(CancelLatency, BinaryPlace) {
    measure(
        "binary place",
        [](std::size_t parts) {
            auto r = writeRobloxModel(makeRobloxPlace(parts));
            EXPECT_TRUE(r.ok());
            return Sized{std::move(r.bytes), std::to_string(parts) + " parts"};
        },
        200'000, 64u << 20);
}

namespace {

Sized xmlModel(std::size_t items) {
    const std::string doc = test::xmlPartsModel(items);
    return Sized{Bytes(doc.begin(), doc.end()), std::to_string(items) + " items"};
}

}  // namespace

TEST(CancelLatency, XmlModel) {
    // The document is parsed in ~1 MB pieces (progress 0-35%: the scan for piece boundaries,
    // then pugixml's parse), then its items are read (35-100%). 10% of the time falls inside
    // pugixml's parse.
    measure("XML model", xmlModel, 200'000, 256u << 20, 0.1);
}

// The same document, cancelled at more points of each phase: from the progress callback at 10%
// and 25% (the parse), 75% (the items), and from another thread at 5%, 20% and 35% of the decode
// time (the parse). A decode cancelled from its progress must end in "cancelled" (so progress is
// reported, and the flag checked, before 10% and 25%: inside the parse); latencies are printed.
TEST(CancelLatency, XmlModelPhases) {
    const auto calibrated = calibrate(xmlModel, 200'000, 256u << 20);
    const Sized& input = calibrated.first;
    const double full = calibrated.second;
    auto report = [&](const std::string& when, double latency, const DecodeResult& result) {
        std::printf(
            "[ measured ] cancel latency %-18s %8.1f ms  (flag %s of a %.2f s decode, "
            "%s; %s, %.1f MB)\n",
            "XML model", latency * 1e3, when.c_str(), full,
            result.ok() ? "finished" : result.error->code.c_str(), input.what.c_str(),
            double(input.bytes.size()) / 1e6);
    };
    for (const double at : {0.10, 0.25, 0.75}) {
        Cancelled c = cancelAtProgress(input.bytes, at);
        DecodeResult& result = c.result;
        ASSERT_TRUE(c.flagged) << "no progress reported up to " << at;
        ASSERT_FALSE(result.ok()) << "the decode finished despite the cancel at " << at;
        EXPECT_EQ(result.error->code, "cancelled") << result.error->toString();
        // What it had built (the parsed document, the partial tree) comes back to be freed by
        // the caller, after the answer.
        EXPECT_NE(result.discarded, nullptr);
        EXPECT_TRUE(result.asset.nodes.empty());
        report("at " + std::to_string(int(at * 100)) + "% progress", c.latency, result);
        const auto freeing = Clock::now();
        result.discarded.reset();
        std::printf("[ measured ] freeing what the cancelled decode handed back: %.1f ms\n",
                    seconds(Clock::now() - freeing) * 1e3);
    }
    for (const double timeFraction : {0.05, 0.20, 0.35}) {
        const Cancelled c = cancelAfter(input.bytes, full * timeFraction);
        // A wall-clock point: a faster run may finish first, so this is printed, not asserted.
        report("at " + std::to_string(int(timeFraction * 100)) + "% of the time", c.latency,
               c.result);
    }
}

// Progress follows the file offset, which stands still while one large inflated block is parsed:
// half progress may come late, so the flag is also set from another thread at half the time.
TEST(CancelLatency, SecondLifeMesh) {
    measure(
        "Second Life mesh",
        [](std::size_t triangles) {
            // Eight LODs' worth of faces: one submesh per 60 000 triangles (u16 indices).
            Asset a;
            Mesh m = makeGridMesh(60'000).meshes[0];
            Mesh high;
            high.name = "high_lod";
            for (std::size_t done = 0; done < triangles; done += 60'000) {
                const std::uint32_t base = std::uint32_t(high.positions.size());
                high.positions.insert(high.positions.end(), m.positions.begin(), m.positions.end());
                high.normals.insert(high.normals.end(), m.normals.begin(), m.normals.end());
                high.uv0.insert(high.uv0.end(), m.uv0.begin(), m.uv0.end());
                const std::uint32_t first = std::uint32_t(high.indices.size() / 3);
                for (std::uint32_t i : m.indices) high.indices.push_back(base + i);
                high.surfaces.push_back({"face", first, std::uint32_t(m.indices.size() / 3), base,
                                         std::uint32_t(m.positions.size())});
            }
            high.lods = {LodLevel{0, std::uint32_t(high.indices.size() / 3), "LOD0"}};
            a.meshes.push_back(std::move(high));
            SecondLifeWriteOptions o;
            o.compressionLevel = 1;
            auto r = writeSecondLifeMesh(a, o);
            EXPECT_TRUE(r.ok()) << (r.error ? *r.error : "");
            return Sized{std::move(r.bytes), std::to_string(triangles) + " triangles"};
        },
        2u << 20, 256u << 20, 0.5);
}

TEST(CancelLatency, UnigineSkinnedMesh) {
    measure(
        "Unigine ms08",
        [](std::size_t rings) {
            auto r = writeUnigineSkinnedMesh(makeSkinnedCylinder(20, int(rings), 256));
            EXPECT_TRUE(r.ok());
            return Sized{std::move(r.bytes), std::to_string(rings * 256) + " vertices"};
        },
        8192);
}

TEST(CancelLatency, UnigineAnimation) {
    measure(
        "Unigine as08",
        [](std::size_t frames) {
            Asset a = makeSkinnedCylinder(50, 2, 3);
            Animation anim;
            anim.name = "long";
            anim.frameCount = std::uint32_t(frames);
            anim.skeleton = 0;
            for (const auto& bone : a.skeletons[0].bones) {
                BoneTrack t;
                t.bone = bone.name;
                for (std::size_t f = 0; f < frames; ++f) {
                    const float x = float(f % 97) * 0.01f;
                    t.positions.push_back({x, 0, -x});
                    t.rotations.push_back({0, 0, 0, 1});
                    t.scales.push_back({1, 1, 1});
                }
                anim.tracks.push_back(std::move(t));
            }
            a.animations.push_back(std::move(anim));
            auto r = writeUnigineAnimation(a, 0);
            EXPECT_TRUE(r.ok());
            return Sized{std::move(r.bytes), std::to_string(frames) + " frames × 50 bones"};
        },
        40'000, 24u << 20);  // decoded, a bone-frame takes 40 bytes: keep it to a few hundred MB
}
