// Convex hull edge sets for physics hull wireframes: an incremental 3D hull (every step bounded,
// no recursion) with 2D and 1D fallbacks for flat and collinear clouds.
#include "formats/secondlife/convex_hull.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <set>
#include <unordered_set>

namespace meshscope {
namespace {

struct D3 {
    double x = 0, y = 0, z = 0;
    D3 operator-(const D3& o) const { return {x - o.x, y - o.y, z - o.z}; }
    D3 operator*(double s) const { return {x * s, y * s, z * s}; }
};
double dot(const D3& a, const D3& b) {
    return a.x * b.x + a.y * b.y + a.z * b.z;
}
D3 cross(const D3& a, const D3& b) {
    return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
double length(const D3& a) {
    return std::sqrt(dot(a, a));
}

using Edge = std::pair<std::uint32_t, std::uint32_t>;

Edge undirected(std::uint32_t a, std::uint32_t b) {
    return a < b ? Edge{a, b} : Edge{b, a};
}

std::vector<std::uint32_t> flatten(const std::set<Edge>& edges) {
    std::vector<std::uint32_t> out;
    out.reserve(edges.size() * 2);
    for (const auto& [a, b] : edges) {
        out.push_back(a);
        out.push_back(b);
    }
    return out;
}

// Andrew's monotone chain over points projected onto the plane spanned by u and v.
std::set<Edge> hull2d(const std::vector<D3>& p, const std::vector<std::uint32_t>& ids, const D3& u,
                      const D3& v) {
    struct P2 {
        double x, y;
        std::uint32_t id;
    };
    std::vector<P2> pts;
    pts.reserve(ids.size());
    for (std::uint32_t i : ids) pts.push_back({dot(p[i], u), dot(p[i], v), i});
    std::sort(pts.begin(), pts.end(),
              [](const P2& a, const P2& b) { return a.x < b.x || (a.x == b.x && a.y < b.y); });
    auto turn = [](const P2& o, const P2& a, const P2& b) {
        return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
    };
    std::vector<P2> h(2 * pts.size());
    std::size_t k = 0;
    for (std::size_t i = 0; i < pts.size(); ++i) {
        while (k >= 2 && turn(h[k - 2], h[k - 1], pts[i]) <= 0) --k;
        h[k++] = pts[i];
    }
    for (std::size_t i = pts.size() - 1, t = k + 1; i-- > 0;) {
        while (k >= t && turn(h[k - 2], h[k - 1], pts[i]) <= 0) --k;
        h[k++] = pts[i];
    }
    std::set<Edge> edges;
    for (std::size_t i = 0; i + 1 < k; ++i)
        if (h[i].id != h[i + 1].id) edges.insert(undirected(h[i].id, h[i + 1].id));
    return edges;
}

}  // namespace

std::vector<std::uint32_t> convexHullEdges(std::span<const Vec3> points) {
    std::vector<D3> p;
    std::vector<std::uint32_t> ids;  // finite points
    p.reserve(points.size());
    for (std::uint32_t i = 0; i < points.size(); ++i) {
        p.push_back({points[i].x, points[i].y, points[i].z});
        if (points[i].finite()) ids.push_back(i);
    }
    if (ids.size() < 2) return {};

    // Scale for the tolerances.
    double scale = 0;
    for (std::uint32_t i : ids) scale = std::max(scale, length(p[i] - p[ids[0]]));
    if (scale == 0) return {};
    const double eps = scale * 1e-9;

    // Initial simplex: two extremes, the farthest point from their line, the farthest from
    // their plane.
    std::uint32_t a = ids[0];
    for (std::uint32_t i : ids)
        if (p[i].x < p[a].x ||
            (p[i].x == p[a].x && (p[i].y < p[a].y || (p[i].y == p[a].y && p[i].z < p[a].z))))
            a = i;
    std::uint32_t b = a;
    for (std::uint32_t i : ids)
        if (length(p[i] - p[a]) > length(p[b] - p[a])) b = i;
    if (length(p[b] - p[a]) <= eps) return {};
    const D3 ab = p[b] - p[a];
    std::uint32_t c = a;
    double best = 0;
    for (std::uint32_t i : ids) {
        const double d = length(cross(ab, p[i] - p[a]));
        if (d > best) best = d, c = i;
    }
    if (best <= eps * length(ab)) return {undirected(a, b).first, undirected(a, b).second};
    const D3 n = cross(ab, p[c] - p[a]);
    std::uint32_t d = a;
    best = 0;
    for (std::uint32_t i : ids) {
        const double dist = std::fabs(dot(n, p[i] - p[a])) / length(n);
        if (dist > best) best = dist, d = i;
    }
    if (best <= eps) {
        const D3 u = ab * (1 / length(ab));
        D3 v = cross(n, u);
        v = v * (1 / length(v));
        return flatten(hull2d(p, ids, u, v));
    }

    struct Face {
        std::array<std::uint32_t, 3> v;
        D3 normal;
        double offset;  // plane: dot(normal, x) = offset
    };
    auto makeFace = [&](std::uint32_t i, std::uint32_t j, std::uint32_t k) {
        Face f{{i, j, k}, cross(p[j] - p[i], p[k] - p[i]), 0};
        const double len = length(f.normal);
        if (len > 0) f.normal = f.normal * (1 / len);
        f.offset = dot(f.normal, p[i]);
        return f;
    };
    std::vector<Face> faces;
    // Orient the tetrahedron's faces outwards (away from d for face abc, etc.).
    auto addOutward = [&](std::uint32_t i, std::uint32_t j, std::uint32_t k, std::uint32_t inside) {
        Face f = makeFace(i, j, k);
        if (dot(f.normal, p[inside]) - f.offset > 0) f = makeFace(i, k, j);
        faces.push_back(f);
    };
    addOutward(a, b, c, d);
    addOutward(a, b, d, c);
    addOutward(a, c, d, b);
    addOutward(b, c, d, a);

    std::vector<char> visible;
    std::unordered_set<std::uint64_t> visibleEdges;
    auto key = [](std::uint32_t i, std::uint32_t j) { return (std::uint64_t(i) << 32) | j; };
    for (std::uint32_t pi : ids) {
        if (pi == a || pi == b || pi == c || pi == d) continue;
        visible.assign(faces.size(), 0);
        bool any = false;
        for (std::size_t f = 0; f < faces.size(); ++f) {
            if (dot(faces[f].normal, p[pi]) - faces[f].offset > eps) visible[f] = 1, any = true;
        }
        if (!any) continue;
        visibleEdges.clear();
        for (std::size_t f = 0; f < faces.size(); ++f) {
            if (!visible[f]) continue;
            const auto& v = faces[f].v;
            for (int e = 0; e < 3; ++e) visibleEdges.insert(key(v[e], v[(e + 1) % 3]));
        }
        std::vector<Face> next;
        next.reserve(faces.size() + 8);
        for (std::size_t f = 0; f < faces.size(); ++f) {
            if (!visible[f]) {
                next.push_back(faces[f]);
                continue;
            }
            const auto& v = faces[f].v;
            for (int e = 0; e < 3; ++e) {
                const std::uint32_t i = v[e], j = v[(e + 1) % 3];
                // A horizon edge: its twin belongs to a face that stays.
                if (!visibleEdges.contains(key(j, i))) next.push_back(makeFace(i, j, pi));
            }
        }
        faces = std::move(next);
    }

    std::set<Edge> edges;
    for (const auto& f : faces)
        for (int e = 0; e < 3; ++e) edges.insert(undirected(f.v[e], f.v[(e + 1) % 3]));
    return flatten(edges);
}

}  // namespace meshscope
