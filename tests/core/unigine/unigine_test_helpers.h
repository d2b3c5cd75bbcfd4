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

// UNIGINE 2 writer fixtures: two static grids (the first with colours), and a three-bone skinned
// grid with an optional animation of `frames` frames.
inline Asset unigine2StaticAsset() {
    Asset a;
    Mesh g = makeGrid("grid", 3, 2, 0.5f);
    g.colors.assign(g.positions.size(), Rgba8{10, 20, 30, 255});
    a.meshes.push_back(g);
    a.meshes.push_back(makeGrid("second", 1, 1, -1));
    return a;
}

inline Asset unigine2SkinnedAsset(std::size_t frames) {
    Asset a;
    Skeleton s;
    s.name = "skeleton";
    const float c = std::cos(0.3f), sn = std::sin(0.3f);
    Mat4 root;  // rotation about X by 0.3 rad, scale 1.5, at (0.5, 1, -2)
    root.at(0, 0) = 1.5f;
    root.at(1, 1) = 1.5f * c, root.at(1, 2) = -1.5f * sn;
    root.at(2, 1) = 1.5f * sn, root.at(2, 2) = 1.5f * c;
    root.at(0, 3) = 0.5f, root.at(1, 3) = 1, root.at(2, 3) = -2;
    Mat4 local;
    local.at(0, 3) = 0.25f;
    local.at(1, 3) = 3;
    s.bones.push_back({"hips", -1, -1, root});
    s.bones.push_back({"spine", 0, -1, root * local});
    s.bones.push_back({"head", 1, -1, root * local * local});
    a.skeletons.push_back(s);
    Mesh m = makeGrid("skin", 2, 2, 0);
    m.skeleton = 0;
    m.skin.resize(m.positions.size());
    for (std::size_t i = 0; i < m.skin.size(); ++i) {
        m.skin[i].joints = {std::uint16_t(i % 3), std::uint16_t((i + 1) % 3), 0, 0};
        m.skin[i].weights = {0.6f, 0.4f, 0, 0};
    }
    a.meshes.push_back(m);
    if (frames) {
        Animation anim;
        anim.name = "wave";
        anim.frameCount = std::uint32_t(frames);
        anim.skeleton = 0;
        for (const auto& b : s.bones) {
            BoneTrack t;
            t.bone = b.name;
            for (std::size_t f = 0; f < frames; ++f) {
                t.positions.push_back({float(f), 0.5f, -float(f)});
                const float h = 0.1f * float(f);
                t.rotations.push_back({std::sin(h), 0, 0, std::cos(h)});
                t.scales.push_back({1, 1 + 0.5f * float(f), 1});
            }
            anim.tracks.push_back(t);
        }
        a.animations.push_back(anim);
    }
    return a;
}

}  // namespace meshscope::test
