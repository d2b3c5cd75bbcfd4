// The named broken-input corpus: one BrokenCase per hostile file, built from a file the project's
// writers make (or, for formats without a writer, from the format document) plus byte surgery at
// offsets computed from the format's layout. Each case says what decoding it must give: an error
// (code, absolute offset, a stable piece of the message) or a warning, and what the partial
// result keeps. tests/data/broken/<format>/<case>.<ext> holds each case as a file; the files are
// refreshed with MESHSCOPE_REFRESH_BROKEN_CORPUS=1 (see broken_corpus_test.cpp).
#pragma once

#include <gtest/gtest.h>
#include <zlib.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "meshscope/core/decode.h"

namespace meshscope::test::broken {

struct Expect {
    std::string code;
    std::uint64_t offset = 0;
    std::string message;  // a stable substring of the message
};

// A case's bytes, or how to make them where that is costly (a compression bomb deflates 16 MiB
// of zeros): every test process lists the cases (their names name the tests), but only the
// check of the files against their generators needs the bytes of all of them.
class CaseBytes {
public:
    CaseBytes(Bytes bytes) : bytes_(std::move(bytes)) {}  // NOLINT: implicit, as a plain Bytes
    static CaseBytes lazy(std::function<Bytes()> make) {
        CaseBytes b{Bytes{}};
        b.make_ = std::move(make);
        return b;
    }
    Bytes get() const { return make_ ? make_() : bytes_; }

private:
    Bytes bytes_;
    std::function<Bytes()> make_;
};

struct BrokenCase {
    std::string format;  // corpus folder: roblox_mesh, roblox_model, roblox_model_xml ...
    std::string name;    // file stem and test name: [a-z0-9_]
    std::string ext;     // ".mesh"
    CaseBytes bytes;
    std::optional<Expect> error;    // the decode must fail like this; unset: it must succeed
    std::optional<Expect> warning;  // a diagnostic that must be present
    // Checks on what the (partial) result keeps; may be empty.
    std::function<void(const DecodeResult&)> keeps;
};

// An expected error or warning: its code, absolute offset and a stable piece of its message.
inline Expect diag(std::string code, std::uint64_t offset, std::string message) {
    return {std::move(code), offset, std::move(message)};
}

// ---------------------------------------------------------------------------------------------
// Byte surgery

template <typename T>
T getLe(const Bytes& b, std::size_t at) {
    if (at + sizeof(T) > b.size()) throw std::out_of_range("getLe past the end");
    T v;
    std::memcpy(&v, b.data() + at, sizeof(T));
    return v;
}

template <typename T>
Bytes putLe(Bytes b, std::size_t at, T v) {
    if (at + sizeof(T) > b.size()) throw std::out_of_range("putLe past the end");
    std::memcpy(b.data() + at, &v, sizeof(T));
    return b;
}

inline std::uint32_t getBe32(const Bytes& b, std::size_t at) {
    return std::byteswap(getLe<std::uint32_t>(b, at));
}
inline Bytes putBe32(Bytes b, std::size_t at, std::uint32_t v) {
    return putLe(std::move(b), at, std::byteswap(v));
}
inline Bytes putBe64(Bytes b, std::size_t at, std::uint64_t v) {
    return putLe(std::move(b), at, std::byteswap(v));
}

inline Bytes cut(const Bytes& b, std::size_t n) {
    if (n > b.size()) throw std::out_of_range("cut past the end");
    return Bytes(b.begin(), b.begin() + std::ptrdiff_t(n));
}

inline Bytes insertAt(Bytes b, std::size_t at, const Bytes& what) {
    b.insert(b.begin() + std::ptrdiff_t(at), what.begin(), what.end());
    return b;
}

inline Bytes concat(Bytes a, const Bytes& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

inline Bytes text(const std::string& s) {
    return Bytes(s.begin(), s.end());
}

// zlib (windowBits 15) or gzip (windowBits 31) stream of `data`, level 9.
inline Bytes deflateBytes(const Bytes& data, bool gzip) {
    z_stream zs{};
    if (deflateInit2(&zs, 9, Z_DEFLATED, gzip ? 31 : 15, 9, Z_DEFAULT_STRATEGY) != Z_OK)
        throw std::runtime_error("deflateInit2");
    Bytes out(deflateBound(&zs, uLong(data.size())) + 64);
    zs.next_in = const_cast<Bytef*>(data.data());
    zs.avail_in = uInt(data.size());
    zs.next_out = out.data();
    zs.avail_out = uInt(out.size());
    const int rc = deflate(&zs, Z_FINISH);
    deflateEnd(&zs);
    if (rc != Z_STREAM_END) throw std::runtime_error("deflate");
    out.resize(zs.total_out);
    return out;
}

inline Bytes inflateZlibBytes(const Bytes& data) {
    z_stream zs{};
    if (inflateInit(&zs) != Z_OK) throw std::runtime_error("inflateInit");
    Bytes out;
    zs.next_in = const_cast<Bytef*>(data.data());
    zs.avail_in = uInt(data.size());
    int rc = Z_OK;
    while (rc != Z_STREAM_END) {
        out.resize(out.size() + 65536);
        zs.next_out = out.data() + zs.total_out;
        zs.avail_out = 65536;
        rc = inflate(&zs, Z_NO_FLUSH);
        if (rc != Z_OK && rc != Z_STREAM_END) {
            inflateEnd(&zs);
            throw std::runtime_error("inflate");
        }
    }
    out.resize(zs.total_out);
    inflateEnd(&zs);
    return out;
}

inline std::size_t find(const Bytes& b, const std::string& needle, std::size_t from = 0) {
    const auto it =
        std::search(b.begin() + std::ptrdiff_t(from), b.end(), needle.begin(), needle.end());
    if (it == b.end()) throw std::out_of_range("\"" + needle + "\" not found");
    return std::size_t(it - b.begin());
}

// The first node named `name`, or -1.
inline int nodeNamed(const Asset& a, const std::string& name) {
    for (std::size_t i = 0; i < a.nodes.size(); ++i)
        if (a.name(int(i)) == name) return int(i);
    return -1;
}

// 16 MiB of zeros: far more than the 8 MiB decompression budget a small file gets
// (Limits::minDecompressedTotal, since 64 × the file size is less), from a few KiB of input.
inline Bytes bombPayload() {
    return Bytes(16u << 20, 0);
}

}  // namespace meshscope::test::broken
