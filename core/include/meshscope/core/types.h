// Small value types shared by the whole core: vectors, matrices, bounds, colours.
// Plain aggregates so that arrays of them can be filled with one memcpy.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <limits>

namespace meshscope {

struct Vec2 {
    float x = 0, y = 0;
    friend bool operator==(const Vec2&, const Vec2&) = default;
};

struct Vec3 {
    float x = 0, y = 0, z = 0;
    friend bool operator==(const Vec3&, const Vec3&) = default;
    Vec3 operator+(const Vec3& o) const { return {x + o.x, y + o.y, z + o.z}; }
    Vec3 operator-(const Vec3& o) const { return {x - o.x, y - o.y, z - o.z}; }
    Vec3 operator*(float s) const { return {x * s, y * s, z * s}; }
    bool finite() const { return std::isfinite(x) && std::isfinite(y) && std::isfinite(z); }
};

struct Vec4 {
    float x = 0, y = 0, z = 0, w = 0;
    friend bool operator==(const Vec4&, const Vec4&) = default;
};

struct Rgba8 {
    std::uint8_t r = 255, g = 255, b = 255, a = 255;
    friend bool operator==(const Rgba8&, const Rgba8&) = default;
};

static_assert(sizeof(Vec2) == 8 && sizeof(Vec3) == 12 && sizeof(Vec4) == 16 && sizeof(Rgba8) == 4);

// Column-major 4x4 matrix (m[col * 4 + row]), the layout OpenGL and Qt's QMatrix4x4 data() use.
struct Mat4 {
    std::array<float, 16> m{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    float& at(int row, int col) { return m[col * 4 + row]; }
    float at(int row, int col) const { return m[col * 4 + row]; }
    static Mat4 identity() { return {}; }
    friend bool operator==(const Mat4&, const Mat4&) = default;
};

Mat4 operator*(const Mat4& a, const Mat4& b);
Vec3 transformPoint(const Mat4& m, const Vec3& p);
Vec3 transformVector(const Mat4& m, const Vec3& v);
// Inverse of a rigid or affine matrix; returns identity when singular.
Mat4 inverse(const Mat4& m);

// Axis-aligned bounds that ignore non-finite points (real FileMesh files hold NaN vertices).
struct Bounds {
    Vec3 min{std::numeric_limits<float>::infinity(), std::numeric_limits<float>::infinity(),
             std::numeric_limits<float>::infinity()};
    Vec3 max{-std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(),
             -std::numeric_limits<float>::infinity()};
    bool valid() const { return min.x <= max.x && min.y <= max.y && min.z <= max.z; }
    void add(const Vec3& p) {
        if (!p.finite()) return;
        // Plain compares (inlined, vectorisable); std::fmin/fmax go through libm.
        min.x = p.x < min.x ? p.x : min.x;
        min.y = p.y < min.y ? p.y : min.y;
        min.z = p.z < min.z ? p.z : min.z;
        max.x = p.x > max.x ? p.x : max.x;
        max.y = p.y > max.y ? p.y : max.y;
        max.z = p.z > max.z ? p.z : max.z;
    }
    void add(const Bounds& b) {
        if (!b.valid()) return;
        add(b.min);
        add(b.max);
    }
    Vec3 center() const { return (min + max) * 0.5f; }
    Vec3 size() const { return max - min; }
};

}  // namespace meshscope
