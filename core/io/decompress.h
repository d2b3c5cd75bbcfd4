// Capped decompression of untrusted payloads: zlib/gzip, LZ4 block, ZSTD frame. Every function
// checks the expected size against the context's decompression budget before allocating and
// fails through the context with the payload's file offset.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include "io/decode_context.h"
#include "io/thread_cache.h"

namespace meshscope {

// zlib stream (78 xx) or gzip member (1f 8b); the output size is not known in advance, so it
// grows up to the budget. `offset` is the payload's file offset (for errors).
Bytes inflateZlib(DecodeContext& ctx, ByteSpan input, std::uint64_t offset);
Bytes inflateGzip(DecodeContext& ctx, ByteSpan input, std::uint64_t offset);

// LZ4 blocks and ZSTD frames whose decompressed size is known (the chunks of a binary model),
// inflated one after another into one buffer: it grows to the largest payload and is never
// cleared first, since a payload must fill exactly its expected size or fail. The span a call
// returns holds until the next call. The size is checked against the budget before the buffer
// grows.
class InflateBuffer {
public:
    ByteSpan lz4Block(DecodeContext& ctx, ByteSpan input, std::uint64_t expectedSize,
                      std::uint64_t offset);
    ByteSpan zstd(DecodeContext& ctx, ByteSpan input, std::uint64_t expectedSize,
                  std::uint64_t offset);
    // lz4Block in two steps, for a caller that has memory of its own to inflate into: the
    // checks made before any room is taken (budget, caps), then the block inflated into `out`
    // (expectedSize bytes), checked and charged.
    static void checkLz4Block(DecodeContext& ctx, ByteSpan input, std::uint64_t expectedSize,
                              std::uint64_t offset);
    static ByteSpan lz4BlockInto(DecodeContext& ctx, ByteSpan input, std::uint64_t expectedSize,
                                 std::uint64_t offset, std::uint8_t* out);

    InflateBuffer() = default;
    InflateBuffer(const InflateBuffer&) = delete;  // at_ may point into the object
    InflateBuffer& operator=(const InflateBuffer&) = delete;
    // Frees the buffer (the next inflation makes a new one).
    void release() {
        data_.reset();
        at_ = nullptr;
        capacity_ = 0;
    }

private:
    std::uint8_t* room(std::size_t size);
    // Blocks up to kSmall bytes (a small model's chunks) inflate into small_, larger ones into
    // data_; at_ is the one in use, capacity_ its size.
    static constexpr std::size_t kSmall = 256;
    std::unique_ptr<std::uint8_t[]> data_;
    std::uint8_t* at_ = nullptr;
    std::size_t capacity_ = 0;
    std::uint8_t small_[kSmall];
};

// The compressed chunks of a binary model inflated in order on one worker thread, while the
// calling thread decodes those already inflated: a large place spends as long decompressing as
// decoding, and the two overlap. At most `aheadBytes` of inflated data wait for the reader (at
// least one payload). Only the decompression itself runs on the worker: the budget and size
// checks, the charges and every error stay on the calling thread, in payload order, with the
// messages InflateBuffer gives. When the reader would wait for a payload, it inflates the next
// one nobody has begun instead (the worker skips it). A payload the worker may not take (over the
// budget or a cap, or its buffer could not be allocated) is inflated by take() on the calling
// thread.
class InflateAhead {
public:
    struct Payload {
        ByteSpan input;
        std::uint64_t expectedSize = 0;
        std::uint64_t offset = 0;  // file offset, for errors
        bool zstd = false;         // else an LZ4 block
    };
    // Starts the worker (a cached thread) unless there is only one core or no thread can be had
    // (take() then inflates each payload itself). `ctx` is read for its budget and caps here, never
    // by the worker.
    InflateAhead(const DecodeContext& ctx, std::vector<Payload> payloads, std::size_t aheadBytes);
    ~InflateAhead();  // stops the worker (a payload being inflated is finished) and joins it
    InflateAhead(const InflateAhead&) = delete;
    InflateAhead& operator=(const InflateAhead&) = delete;

    // Payload i's data, valid until the next take(); call with i = 0, 1, 2 ... in order.
    ByteSpan take(DecodeContext& ctx, std::size_t i);
    // After take(i): payload i's buffer, handed over whole (the span take() gave points into
    // it), so that the caller may keep the data without copying it. Empty when the payload was
    // inflated into the calling thread's reused buffer instead.
    UninitializedBytes release(std::size_t i);
    bool threaded() const { return worker_.joinable(); }

    // Work for the worker once it has inflated what it takes (the decoder's own work that does
    // not wait on the payloads still to come). post() queues a job; jobs run one at a time, in
    // order. finish() returns when every job posted has run, running on this thread those the
    // worker has not begun (all of them when there is no worker). A job must not throw. The
    // destructor drops jobs not begun and waits for the one running, which should poll
    // stopping() to leave early.
    void post(std::function<void()> job);
    void finish();
    // Drops the jobs not begun and waits for the one running, if any.
    void discard();
    bool stopping() const { return stop_.load(std::memory_order_relaxed); }

private:
    struct Slot {
        UninitializedBytes data;   // written whole by the decompressor, never zeroed first
        std::int64_t result = 0;   // LZ4: bytes written, or < 0 for corrupt data
        std::size_t zstdCode = 0;  // ZSTD: bytes written or an error code
        // Waiting: nobody has begun it; Working: the worker or the reader is inflating it.
        enum class State : std::uint8_t { Waiting, Working, Done, Skipped } state = State::Waiting;
    };
    void work();
    void fill(std::size_t i);

    std::vector<Payload> payloads_;
    std::vector<Slot> slots_;
    std::size_t workerLimit_ = 0;  // the worker takes payloads [0, workerLimit_)
    std::size_t aheadBytes_ = 0;
    std::size_t held_ = 0;      // inflated bytes not yet released by the reader
    std::size_t released_ = 0;  // payloads [0, released_) are freed
    std::atomic<bool> stop_ = false;
    std::deque<std::function<void()>> jobs_;
    std::size_t running_ = 0;  // jobs the worker has begun and not finished
    std::mutex mutex_;
    std::condition_variable changed_;
    InflateBuffer fallback_;
    CachedThread worker_;
};

bool looksLikeZstd(ByteSpan input);  // 28 b5 2f fd
bool looksLikeGzip(ByteSpan input);  // 1f 8b
bool looksLikeZlib(ByteSpan input);  // 78 01/5e/9c/da and header checksum

}  // namespace meshscope
