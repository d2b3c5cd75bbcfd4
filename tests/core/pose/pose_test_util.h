// Helpers shared by the posing tests: matrix/vector comparisons and small generated skeletons.
#pragma once

#include <gtest/gtest.h>

#include "meshscope/core/pose.h"

namespace meshscope::test {

inline void expectNear(const Vec3& a, const Vec3& b, float tol = 1e-5f) {
    EXPECT_NEAR(a.x, b.x, tol);
    EXPECT_NEAR(a.y, b.y, tol);
    EXPECT_NEAR(a.z, b.z, tol);
}

inline void expectNear(const Mat4& a, const Mat4& b, float tol = 1e-5f) {
    for (int i = 0; i < 16; ++i)
        EXPECT_NEAR(a.m[std::size_t(i)], b.m[std::size_t(i)], tol) << "element " << i;
}

inline bool finite(const Mat4& m) {
    for (float v : m.m)
        if (!std::isfinite(v)) return false;
    return true;
}

inline Bone makeBone(std::string name, int parent, const Mat4& world) {
    Bone b;
    b.name = std::move(name);
    b.parent = parent;
    b.world = world;
    return b;
}

}  // namespace meshscope::test
