// Helpers for the Unigine tests: a little-endian byte builder for hand-made files (written from
// the format document, independently of the writer) and small assets for the writer.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "meshscope/core/asset.h"
#include "meshscope/core/decode.h"

namespace meshscope::test {

class Builder {
public:
    template <typename T>
    Builder& put(T v) {
        const auto* p = reinterpret_cast<const std::uint8_t*>(&v);
        bytes.insert(bytes.end(), p, p + sizeof(T));
        return *this;
    }
    Builder& i32(std::int32_t v) { return put(v); }
    Builder& u16(std::uint16_t v) { return put(v); }
    Builder& u8(std::uint8_t v) { return put(v); }
    Builder& f32(float v) { return put(v); }
    Builder& floats(std::initializer_list<float> vs) {
        for (float v : vs) f32(v);
        return *this;
    }
    Builder& tag(const char (&s)[5]) {
        bytes.insert(bytes.end(), s, s + 4);
        return *this;
    }
    // Document: int length including the NUL, then the characters and the NUL.
    Builder& name(const std::string& s) {
        i32(std::int32_t(s.size() + 1));
        bytes.insert(bytes.end(), s.begin(), s.end());
        bytes.push_back(0);
        return *this;
    }
    std::size_t size() const { return bytes.size(); }
    std::vector<std::uint8_t> bytes;
};

inline DecodeResult decode(const std::vector<std::uint8_t>& bytes, const std::string& name = {}) {
    DecodeOptions o;
    o.fileName = name;
    return decodeBytes(bytes, o);
}

inline bool hasWarning(const Asset& a, const std::string& code) {
    for (const auto& d : a.diagnostics)
        if (d.code == code) return true;
    return false;
}

inline const Diagnostic* findWarning(const Asset& a, const std::string& code) {
    for (const auto& d : a.diagnostics)
        if (d.code == code) return &d;
    return nullptr;
}

// Document's compression of one normal component.
inline std::uint16_t documentCompress(float n) {
    const int v = static_cast<int>((n * 0.5f + 0.5f) * 65535.0f);
    return static_cast<std::uint16_t>(std::clamp(v, 0, 65535));
}

inline Mesh makeGrid(const std::string& name, std::size_t columns, std::size_t rows, float z) {
    Mesh m;
    m.name = name;
    for (std::size_t y = 0; y <= rows; ++y) {
        for (std::size_t x = 0; x <= columns; ++x) {
            m.positions.push_back({float(x), float(y), z});
            const float len = std::sqrt(0.09f + 0.16f + 0.75f);
            m.normals.push_back({0.3f / len, -0.4f / len, std::sqrt(0.75f) / len});
            m.uv0.push_back({float(x) / float(columns), float(y) / float(rows)});
            m.uv1.push_back({0.5f * float(x), 2.0f + float(y)});
        }
    }
    const auto at = [&](std::size_t x, std::size_t y) {
        return static_cast<std::uint32_t>(y * (columns + 1) + x);
    };
    for (std::size_t y = 0; y < rows; ++y) {
        for (std::size_t x = 0; x < columns; ++x) {
            m.indices.insert(m.indices.end(), {at(x, y), at(x + 1, y), at(x + 1, y + 1)});
            m.indices.insert(m.indices.end(), {at(x, y), at(x + 1, y + 1), at(x, y + 1)});
        }
    }
    return m;
}

// Every byte of a file is claimed by a decoder range (no "unparsed" gaps).
inline void expectFullyMapped(const Asset& a) {
    for (const auto& r : a.byteMap.ranges())
        EXPECT_NE(r.kind, RangeKind::Unparsed)
            << "unparsed bytes at " << r.offset << " +" << r.length;
}

}  // namespace meshscope::test
