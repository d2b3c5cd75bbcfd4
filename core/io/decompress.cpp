// Capped decompression (zlib/gzip through zlib, LZ4 block, ZSTD frame).
#include "io/decompress.h"

#include <lz4.h>
#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <cstring>
#include <thread>

#include "meshscope/core/error_codes.h"

namespace meshscope {

bool looksLikeZstd(ByteSpan in) {
    return in.size() >= 4 && in[0] == 0x28 && in[1] == 0xb5 && in[2] == 0x2f && in[3] == 0xfd;
}
bool looksLikeGzip(ByteSpan in) {
    return in.size() >= 2 && in[0] == 0x1f && in[1] == 0x8b;
}
bool looksLikeZlib(ByteSpan in) {
    return in.size() >= 2 && (in[0] & 0x0f) == 8 && (in[0] >> 4) <= 7 &&
           ((unsigned(in[0]) << 8) | in[1]) % 31 == 0;
}

namespace {

Bytes inflateWith(DecodeContext& ctx, ByteSpan input, std::uint64_t offset, int windowBits,
                  const char* what) {
    z_stream zs{};
    if (inflateInit2(&zs, windowBits) != Z_OK)
        ctx.fail(offset, errc::kZlib, "zlib could not start");
    struct Guard {
        z_stream* z;
        ~Guard() { inflateEnd(z); }
    } guard{&zs};
    zs.next_in = const_cast<Bytef*>(input.data());
    zs.avail_in = static_cast<uInt>(std::min<std::size_t>(input.size(), UINT32_MAX));
    const std::uint64_t allowance = ctx.decompressionAllowance();
    Bytes out;
    std::size_t chunk = std::clamp<std::size_t>(input.size() * 4, 4096, 1 << 20);
    int rc = Z_OK;
    while (rc != Z_STREAM_END) {
        ctx.checkCancel(offset);
        if (out.size() >= allowance) {
            ctx.chargeDecompressed(offset, out.size() + 1);  // throws with the budget message
        }
        const std::size_t grow = std::min<std::uint64_t>(chunk, allowance - out.size());
        const std::size_t old = out.size();
        out.resize(old + grow);
        zs.next_out = out.data() + old;
        zs.avail_out = static_cast<uInt>(grow);
        rc = inflate(&zs, Z_NO_FLUSH);
        out.resize(old + grow - zs.avail_out);
        if (rc == Z_STREAM_END) break;
        if (rc == Z_BUF_ERROR && zs.avail_in == 0) {
            ctx.fail(offset, errc::kTruncated,
                     std::string(what) + " stream ends before its end marker");
        }
        if (rc != Z_OK && rc != Z_BUF_ERROR) {
            ctx.fail(offset, errc::kZlib,
                     std::string(what) + " data is corrupt: " +
                         (zs.msg ? zs.msg : "inflate error " + std::to_string(rc)));
        }
        // At most 8 MiB per inflate call (a few milliseconds), so a cancel is seen promptly.
        chunk = std::min<std::size_t>(chunk * 2, 8 << 20);
    }
    ctx.chargeDecompressed(offset, out.size());
    return out;
}

void checkExpected(DecodeContext& ctx, std::uint64_t expected, std::uint64_t offset) {
    ctx.checkAllocation(offset, expected, 1, "decompressed size");
    if (expected > ctx.decompressionAllowance()) ctx.chargeDecompressed(offset, expected);
}

}  // namespace

Bytes inflateZlib(DecodeContext& ctx, ByteSpan input, std::uint64_t offset) {
    return inflateWith(ctx, input, offset, 15, "zlib");
}

Bytes inflateGzip(DecodeContext& ctx, ByteSpan input, std::uint64_t offset) {
    return inflateWith(ctx, input, offset, 16 + 15, "gzip");
}

std::uint8_t* InflateBuffer::room(std::size_t size) {
    if (size <= capacity_ && at_) return at_;
    if (size <= kSmall) {
        at_ = small_;
        capacity_ = kSmall;
        return at_;
    }
    data_.reset();  // the old buffer goes before the new one comes
    at_ = nullptr;
    capacity_ = 0;
    data_.reset(new std::uint8_t[size]);
    at_ = data_.get();
    capacity_ = size;
    return at_;
}

namespace {

// Out of line: lz4Block runs once per chunk (a place has thousands), its failures never.
[[noreturn, gnu::noinline, gnu::cold]] void failLz4(DecodeContext& ctx, int n,
                                                    std::uint64_t expectedSize,
                                                    std::uint64_t offset) {
    if (n < 0) ctx.fail(offset, errc::kLz4, "LZ4 data is corrupt");
    ctx.fail(offset, errc::kLz4,
             "LZ4 block inflates to " + std::to_string(n) + " bytes, the header says " +
                 std::to_string(expectedSize));
}

[[noreturn, gnu::noinline, gnu::cold]] void failLz4Size(DecodeContext& ctx, std::uint64_t offset) {
    ctx.fail(offset, errc::kLimit, "LZ4 block larger than 2 GiB");
}

void checkLz4Result(DecodeContext& ctx, int n, std::uint64_t expectedSize, std::uint64_t offset) {
    if (n < 0 || std::uint64_t(n) != expectedSize) failLz4(ctx, n, expectedSize, offset);
}

void checkZstdResult(DecodeContext& ctx, std::size_t n, std::uint64_t expectedSize,
                     std::uint64_t offset) {
    if (ZSTD_isError(n))
        ctx.fail(offset, errc::kZstd, std::string("ZSTD data is corrupt: ") + ZSTD_getErrorName(n));
    if (n != expectedSize) {
        ctx.fail(offset, errc::kZstd,
                 "ZSTD frame inflates to " + std::to_string(n) + " bytes, the header says " +
                     std::to_string(expectedSize));
    }
}

int lz4Raw(ByteSpan input, std::uint8_t* out, std::uint64_t expectedSize) {
    return LZ4_decompress_safe(reinterpret_cast<const char*>(input.data()),
                               reinterpret_cast<char*>(out), int(input.size()), int(expectedSize));
}

}  // namespace

void InflateBuffer::checkLz4Block(DecodeContext& ctx, ByteSpan input, std::uint64_t expectedSize,
                                  std::uint64_t offset) {
    checkExpected(ctx, expectedSize, offset);
    if (input.size() > INT32_MAX || expectedSize > INT32_MAX) failLz4Size(ctx, offset);
}

ByteSpan InflateBuffer::lz4BlockInto(DecodeContext& ctx, ByteSpan input, std::uint64_t expectedSize,
                                     std::uint64_t offset, std::uint8_t* out) {
    checkLz4Result(ctx, lz4Raw(input, out, expectedSize), expectedSize, offset);
    ctx.chargeDecompressed(offset, expectedSize);
    return {out, std::size_t(expectedSize)};
}

ByteSpan InflateBuffer::lz4Block(DecodeContext& ctx, ByteSpan input, std::uint64_t expectedSize,
                                 std::uint64_t offset) {
    checkLz4Block(ctx, input, expectedSize, offset);
    std::uint8_t* out = expectedSize <= capacity_ && at_ ? at_ : room(std::size_t(expectedSize));
    return lz4BlockInto(ctx, input, expectedSize, offset, out);
}

ByteSpan InflateBuffer::zstd(DecodeContext& ctx, ByteSpan input, std::uint64_t expectedSize,
                             std::uint64_t offset) {
    checkExpected(ctx, expectedSize, offset);
    std::uint8_t* out = room(std::size_t(expectedSize));
    checkZstdResult(ctx, ZSTD_decompress(out, expectedSize, input.data(), input.size()),
                    expectedSize, offset);
    ctx.chargeDecompressed(offset, expectedSize);
    return {out, std::size_t(expectedSize)};
}

// ---------------------------------------------------------------------------------------------

InflateAhead::InflateAhead(const DecodeContext& ctx, std::vector<Payload> payloads,
                           std::size_t aheadBytes)
    : payloads_(std::move(payloads)), slots_(payloads_.size()), aheadBytes_(aheadBytes) {
    // The worker takes the payloads that the calling thread's checks would let through, all of
    // them charged: from the first that would fail (or be refused a size), take() inflates on
    // the calling thread and fails there as InflateBuffer does.
    std::uint64_t allowance = ctx.decompressionAllowance();
    const std::uint64_t cap = ctx.limits().maxAllocation;
    for (const Payload& p : payloads_) {
        if (p.expectedSize > allowance || p.expectedSize > cap || p.expectedSize > INT32_MAX ||
            p.input.size() > INT32_MAX)
            break;
        allowance -= p.expectedSize;
        ++workerLimit_;
    }
    if (workerLimit_ == 0 || std::thread::hardware_concurrency() < 2) return;
    try {
        worker_ = CachedThread([this] { work(); });
    } catch (...) {
        // No thread: every payload is inflated by take().
    }
}

InflateAhead::~InflateAhead() {
    if (!worker_.joinable()) return;
    {
        std::lock_guard lock(mutex_);
        stop_ = true;
    }
    changed_.notify_all();
    worker_.join();
}

// Inflates payload i, which the caller has claimed (Working), into a buffer of its own, then
// marks it Done (or Skipped when no buffer could be had).
void InflateAhead::fill(std::size_t i) {
    const Payload& p = payloads_[i];
    const std::size_t size = std::size_t(p.expectedSize);
    UninitializedBytes data;
    std::int64_t result = 0;
    std::size_t zstdCode = 0;
    Slot::State state = Slot::State::Skipped;
    try {
        data.resize(size);
        if (p.zstd)
            zstdCode = ZSTD_decompress(data.data(), size, p.input.data(), p.input.size());
        else
            result = lz4Raw(p.input, data.data(), p.expectedSize);
        state = Slot::State::Done;
    } catch (const std::bad_alloc&) {
        data = {};  // take() inflates it into its reused buffer, or fails there
    }
    {
        std::lock_guard lock(mutex_);
        Slot& slot = slots_[i];
        slot.data = std::move(data);
        slot.result = result;
        slot.zstdCode = zstdCode;
        slot.state = state;
        if (state == Slot::State::Skipped) held_ -= size;
    }
    changed_.notify_all();
}

void InflateAhead::work() {
    for (std::size_t i = 0; i < workerLimit_; ++i) {
        const std::size_t size = std::size_t(payloads_[i].expectedSize);
        {
            std::unique_lock lock(mutex_);
            changed_.wait(lock, [&] {
                return stop_ || slots_[i].state != Slot::State::Waiting || held_ == 0 ||
                       held_ + size <= aheadBytes_;
            });
            if (stop_) return;
            if (slots_[i].state != Slot::State::Waiting) continue;  // the reader took it
            slots_[i].state = Slot::State::Working;
            held_ += size;
        }
        fill(i);
    }
    for (;;) {
        std::function<void()> job;
        {
            std::unique_lock lock(mutex_);
            changed_.wait(lock, [&] { return stop_ || (!jobs_.empty() && running_ == 0); });
            if (stop_) return;
            job = std::move(jobs_.front());
            jobs_.pop_front();
            ++running_;
        }
        job();
        {
            std::lock_guard lock(mutex_);
            --running_;
        }
        changed_.notify_all();
    }
}

void InflateAhead::post(std::function<void()> job) {
    {
        std::lock_guard lock(mutex_);
        jobs_.push_back(std::move(job));
    }
    changed_.notify_all();
}

void InflateAhead::discard() {
    std::unique_lock lock(mutex_);
    jobs_.clear();
    changed_.wait(lock, [&] { return running_ == 0; });
}

void InflateAhead::finish() {
    std::unique_lock lock(mutex_);
    for (;;) {
        if (running_ != 0) {
            changed_.wait(lock);  // one job at a time, in order
        } else if (!jobs_.empty()) {
            std::function<void()> job = std::move(jobs_.front());
            jobs_.pop_front();
            ++running_;
            lock.unlock();
            job();
            lock.lock();
            --running_;
            changed_.notify_all();
        } else {
            return;
        }
    }
}

ByteSpan InflateAhead::take(DecodeContext& ctx, std::size_t i) {
    const Payload& p = payloads_[i];
    // The payloads before i are done with.
    if (released_ < i) {
        std::lock_guard lock(mutex_);
        for (; released_ < i; ++released_) {
            Slot& s = slots_[released_];
            if (s.state == Slot::State::Done)
                held_ -= std::size_t(payloads_[released_].expectedSize);
            s.data = {};
        }
    }
    changed_.notify_all();
    const auto inflateHere = [&] {
        return p.zstd ? fallback_.zstd(ctx, p.input, p.expectedSize, p.offset)
                      : fallback_.lz4Block(ctx, p.input, p.expectedSize, p.offset);
    };
    if (!worker_.joinable() || i >= workerLimit_) return inflateHere();
    {
        // Rather than wait for payload i, inflate one the worker has not begun: i itself, or
        // one after it within the budget (the worker skips those).
        std::unique_lock lock(mutex_);
        const auto ready = [&] {
            return slots_[i].state == Slot::State::Done || slots_[i].state == Slot::State::Skipped;
        };
        while (!ready()) {
            std::size_t j = i;
            while (j < workerLimit_ && slots_[j].state != Slot::State::Waiting) ++j;
            const std::size_t size = j < workerLimit_ ? std::size_t(payloads_[j].expectedSize) : 0;
            if (j < workerLimit_ && (j == i || held_ + size <= aheadBytes_)) {
                slots_[j].state = Slot::State::Working;
                held_ += size;
                lock.unlock();
                fill(j);
                lock.lock();
                continue;
            }
            changed_.wait(lock);
        }
    }
    Slot& slot = slots_[i];
    if (slot.state == Slot::State::Skipped) return inflateHere();
    checkExpected(ctx, p.expectedSize, p.offset);
    if (p.zstd)
        checkZstdResult(ctx, slot.zstdCode, p.expectedSize, p.offset);
    else
        checkLz4Result(ctx, int(slot.result), p.expectedSize, p.offset);
    ctx.chargeDecompressed(p.offset, p.expectedSize);
    return {slot.data.data(), std::size_t(p.expectedSize)};
}

UninitializedBytes InflateAhead::release(std::size_t i) {
    if (i >= slots_.size() || i != released_ || !worker_.joinable()) return {};
    std::lock_guard lock(mutex_);
    Slot& slot = slots_[i];
    if (slot.state != Slot::State::Done) return {};
    // The bytes leave the worker's count of what waits for the reader.
    slot.state = Slot::State::Skipped;
    held_ -= slot.data.size();
    UninitializedBytes out = std::move(slot.data);
    slot.data = {};
    changed_.notify_all();
    return out;
}

}  // namespace meshscope
