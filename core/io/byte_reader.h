// Bounds-checked little-endian reader over untrusted bytes. Every read checks the remaining
// length; a failed read throws DecodeFailure with the absolute offset and the context path, so a
// decoder cannot forget them. Arrays are read with one memcpy (the host is little-endian; this is
// checked at compile time).
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "io/decode_context.h"
#include "meshscope/core/error_codes.h"

namespace meshscope {

static_assert(std::endian::native == std::endian::little,
              "Meshscope's bulk reads assume a little-endian host");

class ByteReader {
public:
    // `base` is the absolute file offset of data[0]. When the bytes come from a decompressed
    // block they have no file offset of their own: pass mapped = false and `base` = the block's
    // file offset; errors then name the block offset and the position inside the inflated data.
    ByteReader(DecodeContext& ctx, ByteSpan data, std::uint64_t base = 0, bool mapped = true)
        : ctx_(&ctx), data_(data), base_(base), mapped_(mapped) {}

    DecodeContext& context() const { return *ctx_; }
    std::size_t pos() const { return pos_; }
    std::size_t size() const { return data_.size(); }
    std::size_t remaining() const { return data_.size() - pos_; }
    bool atEnd() const { return pos_ >= data_.size(); }
    bool mapped() const { return mapped_; }
    // Absolute file offset of the current position (block offset when not mapped).
    std::uint64_t offset() const { return mapped_ ? base_ + pos_ : base_; }
    std::uint64_t offsetOf(std::size_t pos) const { return mapped_ ? base_ + pos : base_; }
    ByteSpan data() const { return data_; }

    void seek(std::size_t pos) {
        if (pos > data_.size()) failTruncated(pos - pos_, "seek target");
        pos_ = pos;
    }
    void skip(std::size_t n, const char* what = "bytes") {
        need(n, what);
        pos_ += n;
    }

    template <typename T>
    T read(const char* what = nullptr) {
        static_assert(std::is_trivially_copyable_v<T>);
        need(sizeof(T), what);
        T v;
        std::memcpy(&v, data_.data() + pos_, sizeof(T));
        pos_ += sizeof(T);
        return v;
    }
    std::uint8_t u8(const char* what = nullptr) { return read<std::uint8_t>(what); }
    std::uint16_t u16(const char* what = nullptr) { return read<std::uint16_t>(what); }
    std::uint32_t u32(const char* what = nullptr) { return read<std::uint32_t>(what); }
    std::uint64_t u64(const char* what = nullptr) { return read<std::uint64_t>(what); }
    std::int8_t i8(const char* what = nullptr) { return read<std::int8_t>(what); }
    std::int16_t i16(const char* what = nullptr) { return read<std::int16_t>(what); }
    std::int32_t i32(const char* what = nullptr) { return read<std::int32_t>(what); }
    std::int64_t i64(const char* what = nullptr) { return read<std::int64_t>(what); }
    float f32(const char* what = nullptr) { return read<float>(what); }
    double f64(const char* what = nullptr) { return read<double>(what); }
    std::uint16_t u16be(const char* what = nullptr) { return std::byteswap(u16(what)); }
    std::uint32_t u32be(const char* what = nullptr) { return std::byteswap(u32(what)); }
    std::uint64_t u64be(const char* what = nullptr) { return std::byteswap(u64(what)); }
    std::int32_t i32be(const char* what = nullptr) { return std::int32_t(u32be(what)); }
    double f64be(const char* what = nullptr) { return std::bit_cast<double>(u64be(what)); }

    // The next n bytes as a view (no copy).
    ByteSpan bytes(std::size_t n, const char* what = "bytes") {
        need(n, what);
        ByteSpan s = data_.subspan(pos_, n);
        pos_ += n;
        return s;
    }
    std::string_view string(std::size_t n, const char* what = "string") {
        ByteSpan s = bytes(n, what);
        return {reinterpret_cast<const char*>(s.data()), s.size()};
    }
    // A sub-reader over the next n bytes; this reader moves past them.
    ByteReader sub(std::size_t n, const char* what = "block") {
        const std::size_t start = pos_;
        bytes(n, what);
        return ByteReader(*ctx_, data_.subspan(start, n), offsetOf(start), mapped_);
    }

    // Checks that `count` records of `elementSize` bytes fit in what remains (and under the
    // allocation cap) before anything is allocated for them. Returns count as size_t.
    std::size_t checkCount(std::uint64_t count, std::uint64_t elementSize, const char* what) {
        // count × elementSize > remaining() without a division (this runs for every array of
        // every chunk): the same test, an overflowing product being too large as well. The
        // failure's message is put together out of line, so that the test itself inlines.
        std::uint64_t total = 0;
        if (__builtin_mul_overflow(count, elementSize, &total) || total > remaining())
            failCount(count, elementSize, what);
        ctx_->checkAllocation(offset(), count, elementSize, what);
        return static_cast<std::size_t>(count);
    }

    // Bulk copy of `count` trivially copyable records into a vector (count checked first).
    template <typename T>
    void readArray(std::vector<T>& out, std::uint64_t count, const char* what) {
        static_assert(std::is_trivially_copyable_v<T>);
        const std::size_t n = checkCount(count, sizeof(T), what);
        out.resize(n);
        if (n) std::memcpy(out.data(), data_.data() + pos_, n * sizeof(T));
        pos_ += n * sizeof(T);
    }

    [[noreturn]] void fail(std::string code, std::string message) const {
        ctx_->fail(offset(), std::move(code), decorate(std::move(message), pos_));
    }
    [[noreturn]] void failAt(std::size_t pos, std::string code, std::string message) const {
        ctx_->fail(offsetOf(pos), std::move(code), decorate(std::move(message), pos));
    }
    void warn(std::string code, std::string message) const {
        ctx_->warn(offset(), std::move(code), decorate(std::move(message), pos_));
    }

private:
    void need(std::size_t n, const char* what) {
        if (n > remaining()) failTruncated(n, what);
    }
    [[noreturn, gnu::cold, gnu::noinline]] void failCount(std::uint64_t count,
                                                          std::uint64_t elementSize,
                                                          const char* what) const {
        fail(errc::kCountTooLarge, std::string(what) + ": " + std::to_string(count) + " × " +
                                       std::to_string(elementSize) + " bytes needs " +
                                       describeBytes(count, elementSize) + " but only " +
                                       std::to_string(remaining()) + " remain");
    }
    [[noreturn]] void failTruncated(std::size_t n, const char* what) const {
        std::string m = "unexpected end of data: ";
        m += what ? what : "value";
        m += " needs " + std::to_string(n) + " bytes, " + std::to_string(remaining()) + " remain";
        fail(errc::kTruncated, std::move(m));
    }
    static std::string describeBytes(std::uint64_t count, std::uint64_t size) {
        if (size != 0 && count > UINT64_MAX / size) return "more than 2^64";
        return std::to_string(count * size);
    }
    // Unmapped data has no file offsets: the message says where in the inflated block `pos` is.
    std::string decorate(std::string message, std::size_t pos) const {
        if (mapped_) return message;
        char buf[48];
        std::snprintf(buf, sizeof buf, " (at +0x%zx in the decompressed block)", pos);
        return message + buf;
    }

    DecodeContext* ctx_;
    ByteSpan data_;
    std::uint64_t base_ = 0;
    bool mapped_ = true;
    std::size_t pos_ = 0;
};

}  // namespace meshscope
