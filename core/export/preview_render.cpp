// Software still pictures (see preview.h): a scanline rasterizer with a depth buffer, 2×2
// supersampled, Gouraud-lit like the viewer's material.
#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <string_view>

#include "meshscope/core/axes.h"
#include "meshscope/core/preview.h"
#include "meshscope/core/roblox_parts.h"

namespace meshscope {

namespace {

constexpr std::array<std::string_view, 4> kSecondLifeLevels = {"high_lod", "medium_lod", "low_lod",
                                                               "lowest_lod"};

bool isSecondLife(const Asset& asset) {
    return asset.format.find("secondlife") != std::string::npos;
}

// `mesh` with only the triangles of its finest level.
Mesh finestLevel(const Mesh& mesh) {
    Mesh out = mesh;
    if (mesh.lods.empty()) return out;
    const LodLevel& l = mesh.lods.front();
    const std::size_t first = std::size_t(l.firstTriangle) * 3;
    const std::size_t count = std::size_t(l.triangleCount) * 3;
    if (first > mesh.indices.size() || count > mesh.indices.size() - first) return out;
    out.indices.assign(mesh.indices.begin() + std::ptrdiff_t(first),
                       mesh.indices.begin() + std::ptrdiff_t(first + count));
    out.lods = {{0, l.triangleCount, l.name}};
    out.lodOffsets.clear();
    return out;
}

struct V3 {
    float x = 0, y = 0, z = 0;
};
V3 operator-(V3 a, V3 b) {
    return {a.x - b.x, a.y - b.y, a.z - b.z};
}
V3 operator+(V3 a, V3 b) {
    return {a.x + b.x, a.y + b.y, a.z + b.z};
}
V3 operator*(V3 a, float s) {
    return {a.x * s, a.y * s, a.z * s};
}
float dot(V3 a, V3 b) {
    return a.x * b.x + a.y * b.y + a.z * b.z;
}
V3 cross(V3 a, V3 b) {
    return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
V3 normalized(V3 a) {
    const float l = std::sqrt(dot(a, a));
    return l > 1e-20f ? a * (1.0f / l) : V3{};
}
V3 v3(Vec3 v) {
    return {v.x, v.y, v.z};
}
bool finite(V3 v) {
    return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}

// The viewer's key light in camera space (x right, y up, z toward the viewer): above the camera
// and a little to its left (resources/shaders/lit.frag).
constexpr V3 kKeyInCamera{-0.45f, 0.6f, 0.65f};

// The viewer's lighting (resources/shaders/lit.frag) for one point; `key` is the key light's
// direction in the world.
V3 shade(V3 n, V3 toEye, V3 key, V3 albedo) {
    if (dot(n, n) < 1e-20f) n = toEye;
    n = normalized(n);
    if (dot(n, toEye) < 0) n = n * -1.0f;
    const float head = std::max(dot(n, toEye), 0.0f);
    const float lit = std::max(dot(n, key), 0.0f);
    const float hemi = 0.5f + 0.5f * n.y;
    const V3 sky{235 / 255.f, 240 / 255.f, 250 / 255.f};
    const V3 ground{95 / 255.f, 85 / 255.f, 75 / 255.f};
    const V3 ambient = ground + (sky - ground) * hemi;
    const float spec = 0.10f * std::pow(std::max(dot(n, normalized(key + toEye)), 0.0f), 48.0f);
    const float direct = 0.35f * head + 0.45f * lit;
    return {albedo.x * (0.65f * ambient.x + direct) + spec,
            albedo.y * (0.65f * ambient.y + direct) + spec,
            albedo.z * (0.65f * ambient.z + direct) + spec};
}

struct ScreenVertex {
    float x = 0, y = 0, invZ = 0;
    V3 color;
};

}  // namespace

namespace {

// The grey the viewer gives a file's mesh (its vertex colours tint it). A Roblox model's parts and
// terrain are drawn in their own colours instead (white base, as the viewer draws them).
constexpr float kBaseGrey = 200 / 255.f;

// A file's own vertex colours tinting the viewer's grey, baked in: renderPreview draws colours as
// they are.
Mesh onGreyBase(Mesh m) {
    for (Rgba8& c : m.colors)
        c = {std::uint8_t(std::lround(c.r * kBaseGrey)), std::uint8_t(std::lround(c.g * kBaseGrey)),
             std::uint8_t(std::lround(c.b * kBaseGrey)), c.a};
    return m;
}

std::vector<Mesh> previewMeshesAsStored(const Asset& asset) {
    std::vector<Mesh> out;
    if (isRobloxModel(asset)) {
        out = buildPartMeshes(extractRobloxParts(asset));
        for (const Mesh& m : asset.meshes)
            if (m.primitive == Primitive::Triangles && !m.indices.empty())
                out.push_back(finestLevel(m));
        // A place whose Workspace holds nothing to draw, but which keeps parts elsewhere
        // (ReplicatedStorage, ServerStorage ...): a picture of those says more than none.
        // (Counted first: a model with no part anywhere is not searched for parts again.)
        if (out.empty() && countPartsOutsideWorkspace(asset) > 0)
            out = buildPartMeshes(extractRobloxParts(asset, true));
        return out;
    }
    if (isSecondLife(asset)) {
        for (std::string_view level : kSecondLifeLevels)
            for (const Mesh& m : asset.meshes)
                if (m.name == level && m.triangleCount() > 0) return {onGreyBase(finestLevel(m))};
    }
    for (const Mesh& m : asset.meshes) {
        // Triangles, and the points of a point cloud (lines are physics hulls or wireframes).
        if (m.primitive == Primitive::Lines || m.indices.empty()) continue;
        if (isPhysicsMesh(asset, m)) continue;
        out.push_back(onGreyBase(finestLevel(m)));
    }
    return out;
}

// Z-up sources stand up as the viewer shows them (meshscope/core/axes.h).
void turnToYUp(UpAxis up, Mesh& m) {
    if (up == UpAxis::Y) return;
    for (Vec3& p : m.positions) p = toYUp(up, p);
    for (Vec3& n : m.normals) n = toYUp(up, n);
    if (m.bounds.valid()) {
        Bounds turned;
        turned.add(toYUp(up, m.bounds.min));
        turned.add(toYUp(up, m.bounds.max));
        m.bounds = turned;
    }
}

}  // namespace

std::vector<Mesh> previewMeshes(const Asset& asset) {
    std::vector<Mesh> out = previewMeshesAsStored(asset);
    const UpAxis up = upAxisOf(asset);
    for (Mesh& m : out) turnToYUp(up, m);
    return out;
}

PreviewImage renderPreview(const std::vector<Mesh>& meshes, const PreviewOptions& o) {
    PreviewImage image;
    if (o.width < 1 || o.height < 1 || o.width > 8192 || o.height > 8192) return image;
    constexpr int kSamples = 2;  // per side
    const int W = o.width * kSamples, H = o.height * kSamples;

    // Bounds of what is drawn (finite positions that triangles use).
    V3 lo{INFINITY, INFINITY, INFINITY}, hi{-INFINITY, -INFINITY, -INFINITY};
    std::size_t totalTriangles = 0;
    for (const Mesh& m : meshes) {
        if (m.primitive == Primitive::Lines) continue;
        if (m.primitive == Primitive::Triangles) totalTriangles += m.indices.size() / 3;
        for (std::uint32_t i : m.indices) {
            if (i >= m.positions.size()) continue;
            const V3 p = v3(m.positions[i]);
            if (!finite(p)) continue;
            lo = {std::min(lo.x, p.x), std::min(lo.y, p.y), std::min(lo.z, p.z)};
            hi = {std::max(hi.x, p.x), std::max(hi.y, p.y), std::max(hi.z, p.z)};
        }
    }
    const bool any = lo.x <= hi.x;
    const V3 target = any ? (lo + hi) * 0.5f : V3{};
    const V3 extent = any ? hi - lo : V3{1, 1, 1};
    const float radius = std::max(0.5f * std::sqrt(dot(extent, extent)), 1e-4f);
    constexpr float kDeg = std::numbers::pi_v<float> / 180.f;
    const float halfV = o.fovDegrees * kDeg * 0.5f;
    const float aspect = float(o.width) / float(o.height);
    const float halfH = std::atan(std::tan(halfV) * aspect);
    const float distance = radius / std::sin(std::min(halfV, halfH)) * 1.05f;
    const float yaw = o.yawDegrees * kDeg, pitch = o.pitchDegrees * kDeg;
    const V3 dir{std::cos(pitch) * std::sin(yaw), std::sin(pitch), std::cos(pitch) * std::cos(yaw)};
    const V3 eye = target + dir * distance;
    const V3 forward = normalized(target - eye);
    const V3 right = normalized(cross(forward, V3{0, 1, 0}));
    const V3 up = cross(right, forward);
    const V3 key =
        normalized(right * kKeyInCamera.x + up * kKeyInCamera.y - forward * kKeyInCamera.z);
    const float focal = float(H) * 0.5f / std::tan(halfV);
    const float nearZ = distance * 1e-3f;

    std::vector<float> depth(std::size_t(W) * std::size_t(H), 0.0f);  // 1/z; 0 = empty
    std::vector<V3> color(std::size_t(W) * std::size_t(H));
    const std::size_t stride = o.maxTriangles > 0 && totalTriangles > o.maxTriangles
                                   ? (totalTriangles + o.maxTriangles - 1) / o.maxTriangles
                                   : 1;

    auto project = [&](V3 p, V3 c, ScreenVertex& s) {
        const V3 d = p - eye;
        const float z = dot(d, forward);
        if (!(z > nearZ)) return false;
        s.invZ = 1.0f / z;
        s.x = float(W) * 0.5f + dot(d, right) * focal * s.invZ;
        s.y = float(H) * 0.5f - dot(d, up) * focal * s.invZ;
        s.color = c;
        return std::isfinite(s.x) && std::isfinite(s.y);
    };

    // Points: a square of samples each (3×3, 1.5 pixels, for thousands; up to 4 pixels for a
    // sparse cloud of a few dozen), lit as facing the eye.
    for (const Mesh& m : meshes) {
        if (m.primitive != Primitive::Points) continue;
        const bool colors = m.colors.size() == m.positions.size();
        const int r = m.indices.size() < 100 ? 4 : m.indices.size() < 1000 ? 2 : 1;
        for (const std::uint32_t i : m.indices) {
            if (i >= m.positions.size()) continue;
            const V3 p = v3(m.positions[i]);
            if (!finite(p)) continue;
            V3 albedo{kBaseGrey, kBaseGrey, kBaseGrey};
            if (colors) {
                const Rgba8 c = m.colors[i];
                if (c.a == 0) continue;
                albedo = {c.r / 255.f, c.g / 255.f, c.b / 255.f};
            }
            const V3 toEye = normalized(eye - p);
            ScreenVertex s;
            if (!project(p, shade(toEye, toEye, key, albedo), s)) continue;
            const int cx = int(std::floor(s.x)), cy = int(std::floor(s.y));
            bool covered = false;
            for (int y = std::max(0, cy - r); y <= std::min(H - 1, cy + r); ++y)
                for (int x = std::max(0, cx - r); x <= std::min(W - 1, cx + r); ++x) {
                    const std::size_t at = std::size_t(y) * std::size_t(W) + std::size_t(x);
                    if (s.invZ <= depth[at]) continue;
                    depth[at] = s.invZ;
                    color[at] = s.color;
                    covered = true;
                }
            image.pointsDrawn += covered;
        }
    }

    for (const Mesh& m : meshes) {
        if (m.primitive != Primitive::Triangles) continue;
        const bool normals = m.normals.size() == m.positions.size();
        const bool colors = m.colors.size() == m.positions.size();
        const std::size_t n = m.indices.size() / 3;
        for (std::size_t t = 0; t < n; t += stride) {
            const std::uint32_t* idx = &m.indices[t * 3];
            if (idx[0] >= m.positions.size() || idx[1] >= m.positions.size() ||
                idx[2] >= m.positions.size())
                continue;
            const V3 p[3] = {v3(m.positions[idx[0]]), v3(m.positions[idx[1]]),
                             v3(m.positions[idx[2]])};
            if (!finite(p[0]) || !finite(p[1]) || !finite(p[2])) continue;
            const V3 face = cross(p[1] - p[0], p[2] - p[0]);
            ScreenVertex s[3];
            bool ok = true;
            for (int k = 0; k < 3 && ok; ++k) {
                V3 albedo{kBaseGrey, kBaseGrey, kBaseGrey};
                if (colors) {
                    const Rgba8 c = m.colors[idx[k]];
                    if (c.a == 0) ok = false;
                    albedo = {c.r / 255.f, c.g / 255.f, c.b / 255.f};
                }
                V3 nrm = normals ? v3(m.normals[idx[k]]) : face;
                if (!finite(nrm)) nrm = face;
                ok = ok && project(p[k], shade(nrm, normalized(eye - p[k]), key, albedo), s[k]);
            }
            if (!ok) continue;
            const float area =
                (s[1].x - s[0].x) * (s[2].y - s[0].y) - (s[2].x - s[0].x) * (s[1].y - s[0].y);
            if (!(std::abs(area) > 1e-12f)) continue;
            const int x0 = std::max(0, int(std::floor(std::min({s[0].x, s[1].x, s[2].x}))));
            const int x1 = std::min(W - 1, int(std::ceil(std::max({s[0].x, s[1].x, s[2].x}))));
            const int y0 = std::max(0, int(std::floor(std::min({s[0].y, s[1].y, s[2].y}))));
            const int y1 = std::min(H - 1, int(std::ceil(std::max({s[0].y, s[1].y, s[2].y}))));
            if (x0 > x1 || y0 > y1) continue;
            const float inv = 1.0f / area;
            bool covered = false;
            for (int y = y0; y <= y1; ++y) {
                const float py = float(y) + 0.5f;
                for (int x = x0; x <= x1; ++x) {
                    const float px = float(x) + 0.5f;
                    // Barycentric weights (sign-independent of winding: both faces drawn).
                    const float w0 =
                        ((s[1].x - px) * (s[2].y - py) - (s[2].x - px) * (s[1].y - py)) * inv;
                    const float w1 =
                        ((s[2].x - px) * (s[0].y - py) - (s[0].x - px) * (s[2].y - py)) * inv;
                    const float w2 = 1.0f - w0 - w1;
                    if (w0 < 0 || w1 < 0 || w2 < 0) continue;
                    const float iz = w0 * s[0].invZ + w1 * s[1].invZ + w2 * s[2].invZ;
                    const std::size_t at = std::size_t(y) * std::size_t(W) + std::size_t(x);
                    if (iz <= depth[at]) continue;  // larger 1/z is nearer
                    depth[at] = iz;
                    color[at] = s[0].color * w0 + s[1].color * w1 + s[2].color * w2;
                    covered = true;
                }
            }
            image.trianglesDrawn += covered;
        }
    }

    // Resolve the supersamples: colour averaged over covered samples, alpha = coverage.
    image.width = o.width;
    image.height = o.height;
    image.rgba.assign(std::size_t(o.width) * std::size_t(o.height) * 4, 0);
    const V3 bg{o.background.r / 255.f, o.background.g / 255.f, o.background.b / 255.f};
    auto byte = [](float v) { return std::uint8_t(std::clamp(v, 0.0f, 1.0f) * 255.0f + 0.5f); };
    for (int y = 0; y < o.height; ++y)
        for (int x = 0; x < o.width; ++x) {
            V3 sum{};
            int hits = 0;
            for (int sy = 0; sy < kSamples; ++sy)
                for (int sx = 0; sx < kSamples; ++sx) {
                    const std::size_t at = std::size_t(y * kSamples + sy) * std::size_t(W) +
                                           std::size_t(x * kSamples + sx);
                    if (depth[at] > 0) {
                        sum = sum + color[at];
                        ++hits;
                    }
                }
            constexpr float kAll = float(kSamples * kSamples);
            std::uint8_t* px =
                &image.rgba[(std::size_t(y) * std::size_t(o.width) + std::size_t(x)) * 4];
            if (o.transparentBackground) {
                if (hits == 0) continue;
                const V3 c = sum * (1.0f / float(hits));
                px[0] = byte(c.x), px[1] = byte(c.y), px[2] = byte(c.z);
                px[3] = byte(float(hits) / kAll);
            } else {
                const V3 c = (sum + bg * (kAll - float(hits))) * (1.0f / kAll);
                px[0] = byte(c.x), px[1] = byte(c.y), px[2] = byte(c.z), px[3] = 255;
            }
        }
    return image;
}

}  // namespace meshscope
