// Cancellation works in every decoder family that reports progress: a decode whose cancel flag is
// set (before it starts, or from its first progress report, so that nearly all of its work is
// still ahead) ends in a "cancelled" error with an empty result, and returns (a decoder with no
// check in its long loops would finish instead, and one stuck in a loop trips the deadline).
// The inputs are small (tens of milliseconds to decode); how long a cancel takes on inputs that
// decode for seconds is measured by tests/bench/bench_cancel_latency.cpp.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <thread>

#include "meshscope/core/decode.h"
#include "support/cancel_inputs.h"

using namespace meshscope;
namespace inputs = meshscope::test::cancel_inputs;

namespace {

// A cancelled decode that has not returned after this long is stuck: the test process is ended
// with a message rather than left to hang until CTest's timeout. Generous: sanitizer builds on a
// loaded machine.
constexpr auto kDeadline = std::chrono::seconds(60);

// Runs decodeBytes(bytes, options) on a worker thread and waits at most kDeadline for it.
DecodeResult decodeWithDeadline(const Bytes& bytes, const DecodeOptions& options,
                                const char* what) {
    struct Shared {
        std::mutex mutex;
        std::condition_variable done;
        bool finished = false;
        DecodeResult result;
    };
    auto shared = std::make_shared<Shared>();
    std::thread worker([shared, &bytes, options] {
        DecodeResult r = decodeBytes(bytes, options);
        const std::lock_guard lock(shared->mutex);
        shared->result = std::move(r);
        shared->finished = true;
        shared->done.notify_one();
    });
    std::unique_lock lock(shared->mutex);
    if (!shared->done.wait_for(lock, kDeadline, [&] { return shared->finished; })) {
        std::fprintf(stderr, "FAILED: %s: a cancelled decode had not returned after %lld s\n",
                     what, static_cast<long long>(kDeadline.count()));
        std::abort();
    }
    lock.unlock();
    worker.join();
    return std::move(shared->result);
}

void expectCancelledAndEmpty(const DecodeResult& r, const char* what) {
    ASSERT_FALSE(r.ok()) << what << ": the decode finished despite the cancel";
    EXPECT_EQ(r.error->code, "cancelled") << what << ": " << r.error->toString();
    // A cancelled result is empty: what was built is handed back (discarded), not shown.
    EXPECT_TRUE(r.asset.nodes.empty()) << what;
    EXPECT_TRUE(r.asset.meshes.empty()) << what;
    EXPECT_TRUE(r.asset.animations.empty()) << what;
    EXPECT_TRUE(r.asset.byteMap.ranges().empty()) << what;
}

// Decodes `bytes`, setting the cancel flag from the progress callback once progress reaches
// `at`; `flagged` says whether it was set.
DecodeResult cancelAtProgress(const Bytes& bytes, double at, bool& flagged, const char* what) {
    std::atomic<bool> cancel{false};
    DecodeOptions options;
    options.cancel = &cancel;
    options.progress = [&cancel, at](double fraction) {
        if (fraction >= at) cancel = true;
    };
    DecodeResult r = decodeWithDeadline(bytes, options, what);
    flagged = cancel.load();
    return r;
}

// The checks every family gets.
void expectCancels(const inputs::Input& input, const char* what) {
    ASSERT_FALSE(input.bytes.empty()) << what << ": " << input.error;
    SCOPED_TRACE(std::string(what) + ", " + input.what);
    {
        // The input itself decodes (so a cancelled result below is the cancel's doing).
        const DecodeResult r = decodeBytes(input.bytes);
        ASSERT_TRUE(r.ok()) << r.error->toString();
    }
    {
        // Cancelled before it starts.
        const std::atomic<bool> cancel{true};
        DecodeOptions options;
        options.cancel = &cancel;
        expectCancelledAndEmpty(decodeWithDeadline(input.bytes, options, what), what);
    }
    {
        // Cancelled at its first progress report: the rest of the work is skipped.
        bool flagged = false;
        const DecodeResult r = cancelAtProgress(input.bytes, 0.0, flagged, what);
        ASSERT_TRUE(flagged) << "the decoder reported no progress";
        expectCancelledAndEmpty(r, what);
    }
}

}  // namespace

TEST(Cancel, FileMeshV4) {
    // Past 32768 vertices, so the vertex loop checks the flag more than once.
    expectCancels(inputs::fileMesh(200'000, "4.00"), "FileMesh 4.00");
}

TEST(Cancel, FileMeshV6) {
    expectCancels(inputs::fileMesh(200'000, "6.00"), "FileMesh 6.00");
}

TEST(Cancel, BinaryPlace) {
    expectCancels(inputs::binaryPlace(20'000), "binary place");
}

TEST(Cancel, XmlModel) {
    expectCancels(inputs::xmlModel(20'000), "XML model");
}

// The XML model's decode has phases (the scan for piece boundaries, pugixml's parse of ~1 MB
// pieces: progress up to 35%; then its items): a cancel from each phase ends the decode, and
// what it had built (the parsed document, the partial tree) comes back to be freed by the caller.
TEST(Cancel, XmlModelInEachPhase) {
    const inputs::Input input = inputs::xmlModel(40'000);  // about 15 MB: many pieces
    for (const double at : {0.10, 0.25, 0.75}) {
        SCOPED_TRACE("cancelled at " + std::to_string(int(at * 100)) + "% progress");
        bool flagged = false;
        const DecodeResult r = cancelAtProgress(input.bytes, at, flagged, "XML model");
        ASSERT_TRUE(flagged) << "no progress reported up to " << at;
        expectCancelledAndEmpty(r, "XML model");
        EXPECT_NE(r.discarded, nullptr);
    }
}

TEST(Cancel, SecondLifeMesh) {
    expectCancels(inputs::secondLifeMesh(180'000), "Second Life mesh");
}

TEST(Cancel, UnigineSkinnedMesh) {
    // 300 × 256 vertices: past the 65536 between two checks of the vertex loop.
    expectCancels(inputs::unigineSkinnedMesh(300), "Unigine ms08");
}

TEST(Cancel, UnigineAnimation) {
    // The frame loop checks every 256 frames.
    expectCancels(inputs::unigineAnimation(2'000), "Unigine as08");
}
