// CSG union test fixtures: a CSGMDL version 5 blob assembled from a mesh by the layout (the
// library writes versions 2 and 4 only), plus the XOR key helpers the byte surgery needs.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "meshscope/core/asset.h"
#include "meshscope/core/mesh_generators.h"

namespace meshscope::test::csg {

inline constexpr std::uint8_t kKey[31] = {86,  46, 110, 88, 49, 32,  48, 4,  52,  105, 12,
                                          119, 12, 1,   94, 0,  26,  96, 55, 105, 29,  82,
                                          43,  7,  79,  36, 89, 101, 83, 4,  122};

// XOR with the key from file offset 0 (its own inverse).
inline Bytes xorKey(Bytes b) {
    for (std::size_t i = 0; i < b.size(); ++i) b[i] ^= kKey[i % 31];
    return b;
}

template <typename T>
void put(Bytes& out, T v) {
    const auto* p = reinterpret_cast<const std::uint8_t*>(&v);
    out.insert(out.end(), p, p + sizeof(T));
}

inline void putQuantised(Bytes& out, float x) {
    const long v = std::lround(std::fmax(-1.0f, std::fmin(1.0f, x)) * 32767.0f);
    put(out, std::uint16_t(v + 0x7FFF));
}

// Delta-encodes indices the way CSGMDL 5 stores them.
inline Bytes encodeIndices(const std::vector<std::uint32_t>& indices) {
    Bytes out;
    std::uint32_t prev = 0;
    for (std::uint32_t i : indices) {
        const std::int64_t d = std::int64_t(i) - std::int64_t(prev);
        if (d >= 0 && d < 64) {
            out.push_back(std::uint8_t(d));
        } else if (d < 0 && d >= -64) {
            out.push_back(std::uint8_t(d + 128));
        } else {
            const std::uint32_t u = std::uint32_t(d) & 0x7FFFFF;
            out.push_back(std::uint8_t(0x80 | (u >> 16)));
            out.push_back(std::uint8_t(u >> 8));
            out.push_back(std::uint8_t(u));
        }
        prev = i;
    }
    return out;
}

// A CSGMDL 5 blob of `m` (every stream written with positions.size() entries). `markers`
// default to {0, indexCount}.
inline Bytes writeMdl5(const Mesh& m, std::vector<std::uint32_t> markers = {}) {
    Bytes out = {'C', 'S', 'G', 'M', 'D', 'L', 5, 0, 0, 0};
    for (std::size_t i = 0; i < out.size(); ++i) out[i] ^= kKey[i];
    const auto n = std::uint16_t(m.positions.size());
    put(out, n);
    for (const Vec3& p : m.positions) put(out, p.x), put(out, p.y), put(out, p.z);
    put(out, n), put(out, std::uint32_t(n * 6));
    for (std::size_t i = 0; i < n; ++i) {
        const Vec3 v = i < m.normals.size() ? m.normals[i] : Vec3{0, 1, 0};
        putQuantised(out, v.x), putQuantised(out, v.y), putQuantised(out, v.z);
    }
    put(out, n);
    for (std::size_t i = 0; i < n; ++i) {
        const Rgba8 c = i < m.colors.size() ? m.colors[i] : Rgba8{};
        out.push_back(c.r), out.push_back(c.g), out.push_back(c.b), out.push_back(c.a);
    }
    put(out, n);
    for (std::size_t i = 0; i < n; ++i) out.push_back(2);
    put(out, n);
    for (std::size_t i = 0; i < n; ++i) {
        const Vec2 uv = i < m.uv0.size() ? m.uv0[i] : Vec2{};
        put(out, uv.x), put(out, uv.y);
    }
    put(out, n), put(out, std::uint32_t(n * 6));
    for (std::size_t i = 0; i < n; ++i) {
        const Vec4 t = i < m.tangents.size() ? m.tangents[i] : Vec4{1, 0, 0, 1};
        putQuantised(out, t.x), putQuantised(out, t.y), putQuantised(out, t.z);
    }
    const Bytes deltas = encodeIndices(m.indices);
    put(out, std::uint32_t(m.indices.size())), put(out, std::uint32_t(deltas.size()));
    out.insert(out.end(), deltas.begin(), deltas.end());
    if (markers.empty()) markers = {0, std::uint32_t(m.indices.size())};
    out.push_back(std::uint8_t(markers.size()));
    for (std::uint32_t k : markers) put(out, k);
    return out;
}

// Offsets inside a writeMdl5 blob of n vertices and `deltaBytes` bytes of index deltas.
struct Mdl5Layout {
    std::size_t indexCount, deltaLength, deltas, markerCount, markers;
};
inline Mdl5Layout mdl5Layout(std::size_t n, std::size_t deltaBytes) {
    const std::size_t attrs =
        10 + 2 + 12 * n + 6 + 6 * n + 2 + 4 * n + 2 + n + 2 + 8 * n + 6 + 6 * n;
    return {attrs, attrs + 4, attrs + 8, attrs + 8 + deltaBytes, attrs + 9 + deltaBytes};
}

// A small closed mesh for fixtures: a UV sphere of 4 rings × 6 segments.
inline Mesh fixtureMesh() {
    Asset a = makeUvSphere(4, 6, 1.5f);
    return a.meshes.at(0);
}

}  // namespace meshscope::test::csg
