// Shared export helpers (see export_internal.h): names, LOD slices, cleaned vertex streams and
// the visible parts of a model (read through roblox_parts.h).
#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <numbers>
#include <unordered_set>

#include "export/export_internal.h"
#include "meshscope/core/asset_resolver.h"
#include "meshscope/core/axes.h"
#include "meshscope/core/part_meshes.h"

namespace meshscope::exporting {

// ---------------------------------------------------------------------------------------------
// Names

std::string validUtf8(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    const auto* p = reinterpret_cast<const unsigned char*>(s.data());
    const std::size_t n = s.size();
    std::size_t i = 0;
    while (i < n) {
        const unsigned char c = p[i];
        std::size_t len = c < 0x80           ? 1
                          : (c >> 5) == 0x6  ? 2
                          : (c >> 4) == 0xE  ? 3
                          : (c >> 3) == 0x1E ? 4
                                             : 0;
        bool ok = len > 0 && i + len <= n;
        for (std::size_t k = 1; ok && k < len; ++k) ok = (p[i + k] & 0xC0) == 0x80;
        if (ok && len > 1) {
            // Reject overlong forms, surrogates and code points above U+10FFFF.
            std::uint32_t cp = c & (0x7F >> len);
            for (std::size_t k = 1; k < len; ++k) cp = (cp << 6) | (p[i + k] & 0x3F);
            static constexpr std::uint32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
            ok = cp >= kMin[len] && cp <= 0x10FFFF && !(cp >= 0xD800 && cp <= 0xDFFF);
        }
        if (ok) {
            out.append(s.substr(i, len));
            i += len;
        } else {
            out += "\xEF\xBF\xBD";
            ++i;
        }
    }
    return out;
}

std::string safeFileStem(std::string_view s) {
    std::string out(s);
    for (char& c : out) {
        const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                        (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
        if (!ok) c = '_';
    }
    return out.empty() ? std::string("export") : out;
}

std::string meshName(const Asset& asset, int meshIndex) {
    const Mesh& m = asset.meshes[meshIndex];
    std::string name = m.name.empty() ? "mesh" + std::to_string(meshIndex) : m.name;
    return validUtf8(name);
}

// ---------------------------------------------------------------------------------------------
// LOD selection

std::vector<LodSlice> selectLods(const Asset& asset, int meshIndex, int lod,
                                 std::vector<std::string>& warnings) {
    const Mesh& mesh = asset.meshes[meshIndex];
    const std::uint32_t totalTriangles = std::uint32_t(mesh.indices.size() / 3);
    std::vector<LodSlice> levels;
    if (mesh.lods.empty()) {
        LodSlice s;
        s.name = "LOD0";
        s.triangleCount = totalTriangles;
        levels.push_back(std::move(s));
    } else {
        for (std::size_t i = 0; i < mesh.lods.size(); ++i) {
            const LodLevel& l = mesh.lods[i];
            LodSlice s;
            s.lod = int(i);
            s.name = l.name.empty() ? "LOD" + std::to_string(i) : validUtf8(l.name);
            s.firstTriangle = std::min(l.firstTriangle, totalTriangles);
            s.triangleCount = std::min(l.triangleCount, totalTriangles - s.firstTriangle);
            levels.push_back(std::move(s));
        }
    }
    const bool multi = levels.size() > 1;
    if (lod >= 0) {
        if (std::size_t(lod) >= levels.size()) {
            warnings.push_back("mesh \"" + meshName(asset, meshIndex) + "\" has " +
                               std::to_string(levels.size()) + " LOD(s): LOD " +
                               std::to_string(levels.size() - 1) + " written instead of LOD " +
                               std::to_string(lod));
            lod = int(levels.size()) - 1;
        }
        levels = {levels[std::size_t(lod)]};
    }
    if (multi) {
        // A level of a multi-LOD mesh holds only the vertices its triangles use.
        const std::size_t nv = mesh.positions.size();
        std::vector<char> used(nv);
        for (LodSlice& s : levels) {
            std::fill(used.begin(), used.end(), 0);
            const std::size_t begin = std::size_t(s.firstTriangle) * 3;
            const std::size_t end = begin + std::size_t(s.triangleCount) * 3;
            for (std::size_t i = begin; i < end; i += 3) {
                const auto a = mesh.indices[i], b = mesh.indices[i + 1], c = mesh.indices[i + 2];
                if (a >= nv || b >= nv || c >= nv) continue;
                used[a] = used[b] = used[c] = 1;
            }
            for (std::size_t v = 0; v < nv; ++v)
                if (used[v]) s.vertices.push_back(std::uint32_t(v));
            if (s.vertices.size() == nv) s.vertices.clear();  // every vertex: no remapping
            if (s.vertices.empty() && nv > 0 && s.triangleCount > 0 && used[0] == 0) {
                // Only out-of-range triangles: nothing to write, keep an empty but valid slice.
                s.triangleCount = 0;
            }
        }
    }
    std::size_t bad = 0;
    const std::size_t nv = mesh.positions.size();
    for (const LodSlice& s : levels) {
        const std::size_t begin = std::size_t(s.firstTriangle) * 3;
        for (std::size_t i = begin; i < begin + std::size_t(s.triangleCount) * 3; i += 3)
            if (mesh.indices[i] >= nv || mesh.indices[i + 1] >= nv || mesh.indices[i + 2] >= nv)
                ++bad;
    }
    if (bad)
        warnings.push_back("mesh \"" + meshName(asset, meshIndex) + "\": " + std::to_string(bad) +
                           " triangle(s) with an index beyond the vertex count left out");
    return levels;
}

std::vector<std::uint32_t> sliceIndices(const Mesh& mesh, const LodSlice& slice) {
    const std::size_t nv = mesh.positions.size();
    std::vector<std::uint32_t> remap;
    if (!slice.allVertices()) {
        remap.assign(nv, 0xFFFFFFFFu);
        for (std::size_t i = 0; i < slice.vertices.size(); ++i)
            remap[slice.vertices[i]] = std::uint32_t(i);
    }
    std::vector<std::uint32_t> out;
    out.reserve(std::size_t(slice.triangleCount) * 3);
    const std::size_t begin = std::size_t(slice.firstTriangle) * 3;
    const std::size_t end = begin + std::size_t(slice.triangleCount) * 3;
    for (std::size_t i = begin; i < end; i += 3) {
        const std::uint32_t t[3] = {mesh.indices[i], mesh.indices[i + 1], mesh.indices[i + 2]};
        if (t[0] >= nv || t[1] >= nv || t[2] >= nv) continue;
        for (std::uint32_t v : t) out.push_back(remap.empty() ? v : remap[v]);
    }
    return out;
}

std::vector<SurfaceIndices> sliceIndicesBySurface(const Mesh& mesh, const LodSlice& slice,
                                                  bool split) {
    if (!split || mesh.surfaces.empty()) {
        std::vector<std::uint32_t> all = sliceIndices(mesh, slice);
        if (all.empty()) return {};
        return {{-1, std::move(all)}};
    }
    const std::size_t first = slice.firstTriangle, count = slice.triangleCount;
    // owner[t]: the surface of slice triangle t (-1: none).
    std::vector<int> owner(count, -1);
    for (std::size_t s = 0; s < mesh.surfaces.size(); ++s) {
        const Surface& sf = mesh.surfaces[s];
        const std::size_t a = std::max<std::size_t>(sf.firstTriangle, first);
        const std::size_t b =
            std::min<std::size_t>(std::size_t(sf.firstTriangle) + sf.triangleCount, first + count);
        for (std::size_t t = a; t < b; ++t)
            if (owner[t - first] < 0) owner[t - first] = int(s);
    }
    const std::size_t nv = mesh.positions.size();
    std::vector<std::uint32_t> remap;
    if (!slice.allVertices()) {
        remap.assign(nv, 0xFFFFFFFFu);
        for (std::size_t i = 0; i < slice.vertices.size(); ++i)
            remap[slice.vertices[i]] = std::uint32_t(i);
    }
    std::vector<std::vector<std::uint32_t>> groups(mesh.surfaces.size() + 1);
    for (std::size_t t = 0; t < count; ++t) {
        const std::size_t i = (first + t) * 3;
        const std::uint32_t v[3] = {mesh.indices[i], mesh.indices[i + 1], mesh.indices[i + 2]};
        if (v[0] >= nv || v[1] >= nv || v[2] >= nv) continue;
        auto& g = groups[std::size_t(owner[t] + 1)];
        for (std::uint32_t x : v) g.push_back(remap.empty() ? x : remap[x]);
    }
    std::vector<SurfaceIndices> out;
    for (std::size_t s = 1; s < groups.size(); ++s)
        if (!groups[s].empty()) out.push_back({int(s) - 1, std::move(groups[s])});
    if (!groups[0].empty()) out.push_back({-1, std::move(groups[0])});
    return out;
}

std::size_t sliceVertexCount(const Mesh& mesh, const LodSlice& slice) {
    return slice.allVertices() ? mesh.positions.size() : slice.vertices.size();
}

namespace {

// Second Life stores one mesh per level under these block names, finest first.
constexpr std::array<std::string_view, 4> kSecondLifeLevels = {"high_lod", "medium_lod", "low_lod",
                                                               "lowest_lod"};

}  // namespace

std::vector<ExportItem> exportItems(const Asset& asset, std::vector<std::string>& warnings) {
    std::vector<ExportItem> items;
    std::array<int, kSecondLifeLevels.size()> slLevels;
    slLevels.fill(-1);
    int slItem = -1;
    for (std::size_t mi = 0; mi < asset.meshes.size(); ++mi) {
        const Mesh& mesh = asset.meshes[mi];
        const std::string name = meshName(asset, int(mi));
        if (mesh.positions.empty() || mesh.indices.empty()) {
            warnings.push_back("mesh \"" + name + "\" has no vertices or no faces: not exported");
            continue;
        }
        ExportItem item;
        item.name = name;
        item.physics = isPhysicsMesh(asset, mesh);
        if (mesh.primitive != Primitive::Triangles) {
            item.lines = true;
            item.levels.push_back({int(mi), {}});
            items.push_back(std::move(item));
            continue;
        }
        // A Second Life level mesh joins the asset's one levelled model.
        if (asset.format == "secondlife-mesh" && !item.physics) {
            const auto it = std::find(kSecondLifeLevels.begin(), kSecondLifeLevels.end(),
                                      std::string_view(mesh.name));
            if (it != kSecondLifeLevels.end() &&
                slLevels[std::size_t(it - kSecondLifeLevels.begin())] < 0) {
                slLevels[std::size_t(it - kSecondLifeLevels.begin())] = int(mi);
                if (slItem < 0) {
                    slItem = int(items.size());
                    item.name = "high_lod";
                    items.push_back(std::move(item));
                }
                continue;
            }
        }
        for (LodSlice& s : selectLods(asset, int(mi), -1, warnings))
            item.levels.push_back({int(mi), std::move(s)});
        items.push_back(std::move(item));
    }
    if (slItem >= 0) {
        ExportItem& item = items[std::size_t(slItem)];
        for (int mi : slLevels) {
            if (mi < 0) continue;
            for (LodSlice& s : selectLods(asset, mi, -1, warnings)) {
                s.name = asset.meshes[std::size_t(mi)].name;
                item.levels.push_back({mi, std::move(s)});
            }
        }
        item.name = item.levels.front().slice.name;
    }
    return items;
}

std::size_t LevelChooser::choose(const ExportItem& item) {
    if (item.levels.empty()) return 0;
    if (lod_ < item.levels.size()) return lod_;
    if (!item.lines) short_[item.levels.size()].push_back(item.name);
    return item.levels.size() - 1;
}

void LevelChooser::report(std::vector<std::string>& warnings) const {
    for (const auto& [levels, names] : short_) {
        std::string who;
        if (names.size() == 1) {
            who = "mesh \"" + names[0] + "\" has ";
        } else {
            who = std::to_string(names.size()) + " meshes (";
            for (std::size_t i = 0; i < names.size() && i < 5; ++i)
                who += (i ? ", \"" : "\"") + names[i] + "\"";
            who += names.size() > 5 ? ", ...) have " : ") have ";
        }
        warnings.push_back(who + std::to_string(levels) + " LOD(s): LOD " +
                           std::to_string(levels - 1) + " written instead of LOD " +
                           std::to_string(lod_));
    }
}

// ---------------------------------------------------------------------------------------------
// Axes

Mat4 SourceAxes::matrix(const Mat4& m) const {
    if (!zUp) return m;
    Mat4 r;  // (x, y, z) -> (x, z, -y)
    r.at(1, 1) = 0;
    r.at(1, 2) = 1;
    r.at(2, 1) = -1;
    r.at(2, 2) = 0;
    Mat4 rt = r;
    rt.at(1, 2) = -1;
    rt.at(2, 1) = 1;
    return r * m * rt;
}

SourceAxes sourceAxes(const Asset& asset) {
    SourceAxes a;
    if (upAxisOf(asset) == UpAxis::Z) {
        a.zUp = true;
        a.upAxis = "Z";
    } else if (asset.format.starts_with("roblox")) {
        a.unit = "stud";
        a.metresPerUnit = 0.28;
    }
    return a;
}

// ---------------------------------------------------------------------------------------------
// Clean streams

namespace {

float length(const Vec3& v) {
    return std::sqrt(v.x * v.x + v.y * v.y + v.z * v.z);
}
Vec3 cross(const Vec3& a, const Vec3& b) {
    return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
float dot(const Vec3& a, const Vec3& b) {
    return a.x * b.x + a.y * b.y + a.z * b.z;
}

}  // namespace

std::vector<Vec3> cleanPositions(const Mesh& mesh, const std::string& name,
                                 std::vector<std::string>& warnings) {
    std::vector<Vec3> out = mesh.positions;
    std::size_t fixed = 0;
    for (Vec3& p : out)
        if (!p.finite()) {
            p = {};
            ++fixed;
        }
    if (fixed)
        warnings.push_back("mesh \"" + name + "\": " + std::to_string(fixed) +
                           " non-finite vertex position(s) written as (0, 0, 0)");
    return out;
}

std::vector<Vec3> cleanNormals(const Mesh& mesh, const std::string& name,
                               std::vector<std::string>& warnings) {
    std::vector<Vec3> out = mesh.normals;
    std::size_t fixed = 0;
    for (Vec3& n : out) {
        const float l = length(n);
        if (!std::isfinite(l) || l < 1e-12f) {
            n = {0, 1, 0};
            ++fixed;
        } else {
            n = n * (1.0f / l);
        }
    }
    if (fixed)
        warnings.push_back("mesh \"" + name + "\": " + std::to_string(fixed) +
                           " zero or non-finite normal(s) written as (0, 1, 0)");
    return out;
}

std::vector<Vec4> cleanTangents(const Mesh& mesh, const std::vector<Vec3>& normals,
                                const std::string& name, std::vector<std::string>& warnings) {
    std::vector<Vec4> out(mesh.tangents.size());
    std::size_t fixed = 0;
    for (std::size_t i = 0; i < out.size(); ++i) {
        const Vec4& t = mesh.tangents[i];
        const Vec3 n = i < normals.size() ? normals[i] : Vec3{0, 1, 0};
        Vec3 v{t.x, t.y, t.z};
        if (v.finite()) v = v - n * dot(v, n);  // orthogonal to the normal
        float l = length(v);
        if (!std::isfinite(l) || l < 1e-6f) {
            // Any unit vector orthogonal to the normal.
            v = cross(n, std::fabs(n.x) < 0.9f ? Vec3{1, 0, 0} : Vec3{0, 0, 1});
            l = length(v);
            ++fixed;
        }
        v = v * (1.0f / l);
        out[i] = {v.x, v.y, v.z, t.w < 0 ? -1.0f : 1.0f};
    }
    if (fixed)
        warnings.push_back("mesh \"" + name + "\": " + std::to_string(fixed) +
                           " degenerate tangent(s) replaced by a vector orthogonal to the normal");
    return out;
}

std::vector<Vec4> uvTangents(const Mesh& mesh) {
    const std::size_t nv = mesh.positions.size();
    if (mesh.uv0.size() != nv || mesh.normals.size() != nv) return {};
    std::vector<Vec3> tan(nv), bitan(nv);
    for (std::size_t t = 0; t + 2 < mesh.indices.size(); t += 3) {
        const std::uint32_t a = mesh.indices[t], b = mesh.indices[t + 1], c = mesh.indices[t + 2];
        if (a >= nv || b >= nv || c >= nv) continue;
        const Vec3 e1 = mesh.positions[b] - mesh.positions[a];
        const Vec3 e2 = mesh.positions[c] - mesh.positions[a];
        const float du1 = mesh.uv0[b].x - mesh.uv0[a].x, dv1 = mesh.uv0[b].y - mesh.uv0[a].y;
        const float du2 = mesh.uv0[c].x - mesh.uv0[a].x, dv2 = mesh.uv0[c].y - mesh.uv0[a].y;
        const float det = du1 * dv2 - du2 * dv1;
        if (!std::isfinite(det) || std::fabs(det) < 1e-12f) continue;
        const float r = 1.0f / det;
        const Vec3 td = (e1 * dv2 - e2 * dv1) * r;
        const Vec3 bd = (e2 * du1 - e1 * du2) * r;
        if (!td.finite() || !bd.finite()) continue;
        for (const std::uint32_t v : {a, b, c}) {
            tan[v] = tan[v] + td;
            bitan[v] = bitan[v] + bd;
        }
    }
    std::vector<Vec4> out(nv);
    for (std::size_t i = 0; i < nv; ++i) {
        const Vec3 n = mesh.normals[i];
        const float w = dot(cross(n, tan[i]), bitan[i]) < 0 ? -1.0f : 1.0f;
        out[i] = {tan[i].x, tan[i].y, tan[i].z, w};  // made unit and orthogonal by cleanTangents
    }
    return out;
}

std::vector<Vec2> cleanUvs(const std::vector<Vec2>& uvs) {
    std::vector<Vec2> out = uvs;
    for (Vec2& t : out) {
        if (!std::isfinite(t.x)) t.x = 0;
        if (!std::isfinite(t.y)) t.y = 0;
    }
    return out;
}

// ---------------------------------------------------------------------------------------------
// Model parts

namespace {

template <typename T>
bool stores(const Asset& asset, int node, std::initializer_list<const char*> names) {
    for (const char* name : names)
        if (const auto p = asset.property(node, name)) return std::holds_alternative<T>(p->value);
    return false;
}

// A resolved part mesh with only the vertices its triangles use (placePartMesh keeps every
// vertex of the file, also those only its other LODs use).
Mesh usedVerticesOnly(Mesh mesh) {
    if (mesh.primitive != Primitive::Triangles) return mesh;
    const std::size_t nv = mesh.positions.size();
    std::vector<std::uint32_t> remap(nv, std::uint32_t(-1));
    std::vector<std::uint32_t> kept;  // old vertex indices, in first-use order
    std::vector<std::uint32_t> indices;
    for (std::size_t t = 0; t < mesh.indices.size() / 3; ++t) {
        const std::uint32_t* tri = &mesh.indices[t * 3];
        if (tri[0] >= nv || tri[1] >= nv || tri[2] >= nv) continue;
        for (int k = 0; k < 3; ++k) {
            std::uint32_t& r = remap[tri[k]];
            if (r == std::uint32_t(-1)) {
                r = std::uint32_t(kept.size());
                kept.push_back(tri[k]);
            }
            indices.push_back(r);
        }
    }
    auto pick = [&](auto& stream) {
        if (stream.size() != nv) {
            stream.clear();
            return;
        }
        std::remove_reference_t<decltype(stream)> out;
        out.reserve(kept.size());
        for (std::uint32_t v : kept) out.push_back(stream[v]);
        stream = std::move(out);
    };
    pick(mesh.positions);
    pick(mesh.normals);
    pick(mesh.uv0);
    pick(mesh.uv1);
    pick(mesh.tangents);
    pick(mesh.colors);
    mesh.skin.clear();
    mesh.indices = std::move(indices);
    mesh.lodOffsets.clear();
    mesh.lods = {LodLevel{}};
    mesh.lods[0].firstTriangle = 0;
    mesh.lods[0].triangleCount = std::uint32_t(mesh.indices.size() / 3);
    mesh.surfaces.clear();
    mesh.computeBounds();
    return mesh;
}

// A string property (Content) of `node` under the first of `names` it stores; empty if none.
std::string stringProperty(const Asset& asset, int node, std::initializer_list<const char*> names) {
    for (const char* name : names)
        if (const auto p = asset.property(node, name);
            p && std::holds_alternative<std::string>(p->value))
            return std::get<std::string>(p->value);
    return {};
}

// The image type of a file by its first bytes: PNG (89 50 4E 47) or JPEG (FF D8 FF); empty for
// anything else or an unreadable file.
std::string imageMimeType(const std::filesystem::path& path) {
    std::ifstream f(path, std::ios::binary);
    unsigned char head[4] = {};
    if (!f.read(reinterpret_cast<char*>(head), 4)) return {};
    if (head[0] == 0x89 && head[1] == 'P' && head[2] == 'N' && head[3] == 'G') return "image/png";
    if (head[0] == 0xFF && head[1] == 0xD8 && head[2] == 0xFF) return "image/jpeg";
    return {};
}

// Texture references resolved once each; those not embedded are counted for one warning.
class TextureFinder {
public:
    explicit TextureFinder(const AssetResolver& resolver) : resolver_(resolver) {}

    PartTexture find(const std::string& reference) {
        if (reference.empty()) return {};
        auto [it, fresh] = cache_.try_emplace(reference);
        if (fresh) {
            const AssetResolution r = resolver_.resolve(reference);
            std::string why;
            if (!r.ok()) {
                why = r.warning.empty() ? "not in the asset folders" : r.warning;
            } else if (std::string mime = imageMimeType(r.path); mime.empty()) {
                why = r.path.string() + " is not a PNG or JPEG image";
            } else {
                it->second = {r.path.string(), std::move(mime)};
            }
            if (!why.empty() && firstWhy_.empty()) firstWhy_ = reference + ": " + why;
        }
        if (!it->second.ok()) ++missed_;
        return it->second;
    }

    void report(std::vector<std::string>& warnings) const {
        if (missed_)
            warnings.push_back(std::to_string(missed_) +
                               " texture reference(s) not embedded: not found in the asset "
                               "folders or not a PNG/JPEG image (first: " +
                               validUtf8(firstWhy_) + ")");
    }

private:
    const AssetResolver& resolver_;
    std::map<std::string, PartTexture> cache_;
    std::size_t missed_ = 0;
    std::string firstWhy_;
};

double numberProperty(const Asset& asset, int node, const char* name, double fallback) {
    if (const auto p = asset.property(node, name)) {
        if (const double* d = std::get_if<double>(&p->value); d && std::isfinite(*d)) return *d;
        if (const auto* i = std::get_if<std::int64_t>(&p->value)) return double(*i);
    }
    return fallback;
}

// A part's colour and normal maps: SurfaceAppearance ColorMap / NormalMap first, then the
// MeshPart's TextureID, the SpecialMesh's TextureId. Decal / Texture children: on a box part
// each on its face (PartInstance::decals); on any other part the first one is the colour map
// when the part has none, stretched over it (counted in `stretchedDecals`).
void findPartTextures(const Asset& asset, const RobloxPart& rp, PartInstance& p,
                      TextureFinder& finder, std::size_t& stretchedDecals) {
    const bool box = !p.mesh && p.shape == PartShape::Block;
    std::string color, normal, decal, roughness, metalness;
    for (const int c : asset.children(rp.node)) {
        if (c < 0 || std::size_t(c) >= asset.nodes.size()) continue;
        const std::string_view kind = asset.kind(c);
        if (kind == "SurfaceAppearance") {
            if (color.empty()) color = stringProperty(asset, c, {"ColorMap"});
            if (normal.empty()) normal = stringProperty(asset, c, {"NormalMap"});
            if (roughness.empty() && metalness.empty()) {
                roughness = stringProperty(asset, c, {"RoughnessMap"});
                metalness = stringProperty(asset, c, {"MetalnessMap"});
                if (const auto r = asset.property(c, "RoughnessMap")) p.roughnessOffset = r->offset;
                if (const auto m = asset.property(c, "MetalnessMap")) p.metalnessOffset = m->offset;
                if (!roughness.empty() || !metalness.empty())
                    p.appearancePath = validUtf8(instancePath(asset, c));
            }
        } else if (kind == "Decal" || kind == "Texture") {
            const std::string image = stringProperty(asset, c, {"Texture", "TextureContent"});
            if (image.empty()) continue;
            if (!box) {
                if (decal.empty()) decal = image;
                ++stretchedDecals;
                continue;
            }
            PartDecal d;
            d.name = validUtf8(asset.nameOrKind(c));
            d.image = finder.find(image);
            if (!d.image.ok()) continue;
            const double face = numberProperty(asset, c, "Face", 5);
            d.face = face >= 0 && face <= 5 ? int(face) : 5;
            d.tiled = kind == "Texture";
            auto positive = [](double v, double fallback) {
                return std::isfinite(v) && v > 1e-3 ? float(v) : float(fallback);
            };
            d.studsPerTile = {positive(numberProperty(asset, c, "StudsPerTileU", 2), 2),
                              positive(numberProperty(asset, c, "StudsPerTileV", 2), 2)};
            d.offsetStuds = {float(numberProperty(asset, c, "OffsetStudsU", 0)),
                             float(numberProperty(asset, c, "OffsetStudsV", 0))};
            if (const auto t = asset.property(c, "Color3"))
                if (const Vec3* v = std::get_if<Vec3>(&t->value); v && v->finite())
                    d.color = {std::clamp(v->x, 0.0f, 1.0f), std::clamp(v->y, 0.0f, 1.0f),
                               std::clamp(v->z, 0.0f, 1.0f)};
            d.transparency =
                float(std::clamp(numberProperty(asset, c, "Transparency", 0), 0.0, 1.0));
            const double z = numberProperty(asset, c, "ZIndex", 1);
            d.zIndex = int(std::clamp(z, -1e6, 1e6));
            if (d.transparency < 1.0f) p.decals.push_back(std::move(d));
        }
    }
    // Layers per face: by ZIndex, then child order.
    std::vector<PartDecal*> order;
    for (PartDecal& d : p.decals) order.push_back(&d);
    std::stable_sort(order.begin(), order.end(), [](const PartDecal* a, const PartDecal* b) {
        return a->face != b->face ? a->face < b->face : a->zIndex < b->zIndex;
    });
    for (std::size_t k = 0; k < order.size(); ++k)
        order[k]->layer =
            k > 0 && order[k - 1]->face == order[k]->face ? order[k - 1]->layer + 1 : 0;
    if (color.empty() && p.className == "MeshPart")
        color = stringProperty(asset, rp.node, {"TextureID", "TextureId"});
    if (color.empty() && rp.specialMesh && rp.meshNode >= 0 &&
        std::size_t(rp.meshNode) < asset.nodes.size())
        color = stringProperty(asset, rp.meshNode, {"TextureId", "TextureID"});
    if (color.empty()) color = decal;
    p.colorMap = finder.find(color);
    p.normalMap = finder.find(normal);
    p.roughnessMap = finder.find(roughness);
    p.metalnessMap = finder.find(metalness);
}

std::uint8_t colorByte(float f) {
    return std::uint8_t(std::lround(std::clamp(std::isfinite(f) ? f : 0.0f, 0.0f, 1.0f) * 255.0f));
}

}  // namespace

std::optional<RobloxMaterialLook> robloxMaterialLook(std::int64_t material) {
    // Enum.Material values; roughness and metalness chosen to read like Roblox draws them.
    static constexpr std::pair<std::int64_t, RobloxMaterialLook> kLooks[] = {
        {256, {"Plastic", 0.6f, 0, false}},
        {272, {"SmoothPlastic", 0.3f, 0, false}},
        {288, {"Neon", 0.5f, 0, true}},
        {512, {"Wood", 0.8f, 0, false}},
        {528, {"WoodPlanks", 0.8f, 0, false}},
        {784, {"Marble", 0.35f, 0, false}},
        {788, {"Basalt", 0.85f, 0, false}},
        {800, {"Slate", 0.8f, 0, false}},
        {804, {"CrackedLava", 0.8f, 0, false}},
        {816, {"Concrete", 0.9f, 0, false}},
        {820, {"Limestone", 0.85f, 0, false}},
        {832, {"Granite", 0.7f, 0, false}},
        {836, {"Pavement", 0.9f, 0, false}},
        {848, {"Brick", 0.9f, 0, false}},
        {864, {"Pebble", 0.9f, 0, false}},
        {880, {"Cobblestone", 0.9f, 0, false}},
        {896, {"Rock", 0.9f, 0, false}},
        {912, {"Sandstone", 0.9f, 0, false}},
        {1040, {"CorrodedMetal", 0.8f, 0.6f, false}},
        {1056, {"DiamondPlate", 0.45f, 1, false}},
        {1072, {"Foil", 0.25f, 1, false}},
        {1088, {"Metal", 0.4f, 1, false}},
        {1280, {"Grass", 0.95f, 0, false}},
        {1284, {"LeafyGrass", 0.95f, 0, false}},
        {1296, {"Sand", 0.95f, 0, false}},
        {1312, {"Fabric", 0.95f, 0, false}},
        {1328, {"Snow", 0.85f, 0, false}},
        {1344, {"Mud", 0.9f, 0, false}},
        {1360, {"Ground", 0.95f, 0, false}},
        {1376, {"Asphalt", 0.9f, 0, false}},
        {1392, {"Salt", 0.85f, 0, false}},
        {1536, {"Ice", 0.15f, 0, false}},
        {1552, {"Glacier", 0.3f, 0, false}},
        {1568, {"Glass", 0.05f, 0, false}},
        {1584, {"ForceField", 0.5f, 0, true}},
        {2048, {"Water", 0.05f, 0, false}},
    };
    for (const auto& [value, look] : kLooks)
        if (value == material) return look;
    return std::nullopt;
}

PartTree collectParts(const Asset& asset, std::vector<std::string>& warnings,
                      const std::vector<std::string>& assetFolders, bool allServices, int lod) {
    PartTree tree;
    const std::size_t count = asset.nodes.size();
    std::vector<int> partOf(count, -1);
    std::size_t transparent = 0, negated = 0;
    std::size_t stretchedDecals = 0;  // Decals / Textures on parts that are not boxes
    // Parts written as boxes of their Size because their mesh is missing, by kind.
    std::size_t boxedMeshParts = 0, boxedSpecialMeshes = 0, boxedUnions = 0;
    std::string firstMeshPartId, firstSpecialMeshId;
    // The viewer's step: MeshPart / SpecialMesh meshes and union geometry resolved through the
    // asset folders, decoded once per file, placed in each part's own frame (the node's
    // transform is the CFrame).
    PartMeshOptions resolveOptions;
    resolveOptions.folders.assign(assetFolders.begin(), assetFolders.end());
    resolveOptions.allServices = allServices;
    resolveOptions.partFrame = true;
    resolveOptions.lod = std::max(lod, 0);
    std::size_t shortOfLevels = 0;  // part meshes whose file has fewer levels than `lod` + 1
    std::string firstShort;
    PartMeshes resolved = resolvePartMeshes(asset, resolveOptions);
    const AssetResolver resolver(resolveOptions.folders);
    TextureFinder textures(resolver);
    std::vector<int> meshOf(resolved.parts.size(), -1);
    for (std::size_t m = 0; m < resolved.meshes.size(); ++m)
        if (resolved.meshes[m].part < meshOf.size()) meshOf[resolved.meshes[m].part] = int(m);
    // Shape, colour and transparency as the viewer reads them (roblox_parts.h); only parts
    // that store a CFrame and a size are written (no defaults invented for a file).
    for (std::size_t i = 0; i < resolved.parts.size(); ++i) {
        const RobloxPart& rp = resolved.parts[i];
        if (rp.node < 0 || std::size_t(rp.node) >= count) continue;
        if (!stores<CFrame>(asset, rp.node, {"CFrame", "CoordinateFrame"}) ||
            !stores<Vec3>(asset, rp.node, {"size", "Size"}))
            continue;
        if (rp.className == "NegateOperation") {
            ++negated;
            continue;
        }
        if (rp.transparency >= 1.0f) {
            ++transparent;
            continue;
        }
        PartInstance p;
        p.node = rp.node;
        p.name = validUtf8(asset.nameOrKind(rp.node));
        p.className = asset.kind(rp.node);
        p.shape = rp.shape;
        p.cframe = rp.cframe;
        p.size = rp.size;
        if (!p.size.finite() || !p.cframe.position.finite()) continue;
        if (meshOf[i] >= 0) {
            const PartMesh& pm = resolved.meshes[std::size_t(meshOf[i])];
            if (pm.lod < resolveOptions.lod && shortOfLevels++ == 0)
                firstShort = p.name + " (" + std::to_string(pm.lodCount) + " LOD(s))";
            Mesh& m = resolved.meshes[std::size_t(meshOf[i])].mesh;
            m.skin.clear();  // written as a static mesh in the part's place
            m.skeleton = -1;
            const bool isUnion = isUnionClass(p.className);
            // A union's blob is written as stored; a FileMesh drops its other LODs' vertices.
            p.mesh = std::make_shared<const Mesh>(isUnion ? std::move(m)
                                                          : usedVerticesOnly(std::move(m)));
            p.vertexColors = isUnion && !rp.usePartColor;
        } else if (isUnionClass(p.className)) {
            ++boxedUnions;
            p.unresolvedMesh = true;
        } else if (rp.specialMesh && !rp.meshId.empty()) {
            if (boxedSpecialMeshes++ == 0) firstSpecialMeshId = rp.meshId;
            p.unresolvedMesh = true;
        } else if (p.className == "MeshPart") {
            if (boxedMeshParts++ == 0)
                firstMeshPartId = rp.meshId.empty() ? "no MeshId" : rp.meshId;
            p.unresolvedMesh = true;
        }
        if (const auto m = asset.property(rp.node, "Material");
            m && std::holds_alternative<std::int64_t>(m->value))
            p.material = std::get<std::int64_t>(m->value);
        if (const auto r = asset.property(rp.node, "Reflectance");
            r && std::holds_alternative<double>(r->value) &&
            std::isfinite(std::get<double>(r->value)))
            p.reflectance = float(std::clamp(std::get<double>(r->value), 0.0, 1.0));
        p.color = {colorByte(rp.color.x), colorByte(rp.color.y), colorByte(rp.color.z),
                   std::uint8_t(std::lround((1.0 - double(rp.transparency)) * 255.0))};
        // A box standing in for a missing mesh has none of the mesh's UVs: no texture.
        if (!p.unresolvedMesh) findPartTextures(asset, rp, p, textures, stretchedDecals);
        partOf[std::size_t(rp.node)] = int(tree.parts.size());
        tree.parts.push_back(std::move(p));
    }
    if (!allServices)
        if (const std::size_t outside = countPartsOutsideWorkspace(asset); outside > 0)
            warnings.push_back(std::to_string(outside) +
                               " part(s) outside Workspace (ReplicatedStorage, ServerStorage ...) "
                               "left out, as Roblox Studio draws the place; --all-services "
                               "writes them");
    if (transparent)
        warnings.push_back(std::to_string(transparent) +
                           " fully transparent part(s) (Transparency 1) left out");
    if (negated)
        warnings.push_back(
            std::to_string(negated) +
            " negated part(s) (NegateOperation) left out: they only cut other parts");
    // One counted warning per kind of part whose mesh is missing.
    if (boxedMeshParts)
        warnings.push_back(std::to_string(boxedMeshParts) +
                           " MeshPart(s) written as boxes of their size: their meshes are not in "
                           "the asset folders (first: " +
                           validUtf8(firstMeshPartId) + ")");
    if (boxedSpecialMeshes)
        warnings.push_back(std::to_string(boxedSpecialMeshes) +
                           " SpecialMesh part(s) written as boxes of their size: their meshes are "
                           "not in the asset folders (first: " +
                           validUtf8(firstSpecialMeshId) + ")");
    if (shortOfLevels)
        warnings.push_back(std::to_string(shortOfLevels) + " part mesh(es) have no LOD " +
                           std::to_string(resolveOptions.lod) +
                           ": their last LOD written instead (first: " + firstShort + ")");
    textures.report(warnings);
    if (stretchedDecals)
        warnings.push_back(std::to_string(stretchedDecals) +
                           " Decal/Texture(s) on parts that are not boxes (MeshParts, unions, "
                           "balls, cylinders, wedges ...) not placed on their face: the first "
                           "one stretches over the part when it has no texture of its own");
    if (boxedUnions)
        warnings.push_back(std::to_string(boxedUnions) +
                           " union(s) written as boxes of their size: their geometry is neither "
                           "in the file nor in the asset folders");
    if (tree.parts.empty()) return tree;

    // Which instances appear: every part, and every non-part ancestor of one. A part's tree
    // parent is its nearest non-part ancestor (parents are walked at most `count` steps, so a
    // parent loop cannot hang the walk).
    auto validParent = [&](int i) {
        const int p = asset.nodes[std::size_t(i)].parent;
        return p >= 0 && std::size_t(p) < count ? p : -1;
    };
    std::vector<int> treeParent(count, -2);  // -2: not included; else asset index or -1
    std::vector<char> included(count, 0);
    for (const PartInstance& part : tree.parts) {
        int child = part.node;
        int p = validParent(child);
        std::size_t steps = 0;
        while (p >= 0 && partOf[std::size_t(p)] >= 0 && steps++ < count) p = validParent(p);
        if (steps >= count) p = -1;
        treeParent[std::size_t(child)] = p;
        included[std::size_t(child)] = 1;
        // Include the group chain above it.
        steps = 0;
        while (p >= 0 && !included[std::size_t(p)] && steps++ < count) {
            included[std::size_t(p)] = 1;
            int q = validParent(p);
            std::size_t inner = 0;
            while (q >= 0 && partOf[std::size_t(q)] >= 0 && inner++ < count) q = validParent(q);
            if (inner >= count || q == p) q = -1;
            treeParent[std::size_t(p)] = q;
            p = q;
        }
    }
    // Break any loop among group parents: a node whose parent chain returns to itself becomes a
    // root.
    for (std::size_t i = 0; i < count; ++i) {
        if (!included[i]) continue;
        int p = treeParent[i];
        std::size_t steps = 0;
        while (p >= 0 && steps++ <= count) {
            if (std::size_t(p) == i) {
                treeParent[i] = -1;
                break;
            }
            p = treeParent[std::size_t(p)];
        }
    }
    std::vector<std::vector<int>> kids(count);
    std::vector<int> rootsAsset;
    for (std::size_t i = 0; i < count; ++i) {
        if (!included[i]) continue;
        if (treeParent[i] < 0)
            rootsAsset.push_back(int(i));
        else
            kids[std::size_t(treeParent[i])].push_back(int(i));
    }
    // Depth-first, parents before children, without recursion.
    std::vector<std::pair<int, int>> stack;  // asset index, tree parent index
    for (auto it = rootsAsset.rbegin(); it != rootsAsset.rend(); ++it) stack.push_back({*it, -1});
    while (!stack.empty()) {
        const auto [ai, parent] = stack.back();
        stack.pop_back();
        const int index = int(tree.nodes.size());
        tree.nodes.push_back({ai, parent, partOf[std::size_t(ai)], {}});
        if (parent < 0)
            tree.roots.push_back(index);
        else
            tree.nodes[std::size_t(parent)].children.push_back(index);
        const auto& k = kids[std::size_t(ai)];
        for (auto it = k.rbegin(); it != k.rend(); ++it) stack.push_back({*it, index});
    }
    return tree;
}

Mesh decalQuad(const PartDecal& decal, Vec3 size) {
    Mesh m;
    if (!size.finite() || size.x <= 0 || size.y <= 0 || size.z <= 0) return m;
    // Per face: outward normal, the image's right and up directions (unit axes).
    struct Axes {
        Vec3 n, r, u;
    };
    static constexpr Axes kFaces[6] = {
        {{1, 0, 0}, {0, 0, -1}, {0, 1, 0}},    // Right
        {{0, 1, 0}, {1, 0, 0}, {0, 0, -1}},    // Top
        {{0, 0, 1}, {1, 0, 0}, {0, 1, 0}},     // Back
        {{-1, 0, 0}, {0, 0, 1}, {0, 1, 0}},    // Left
        {{0, -1, 0}, {-1, 0, 0}, {0, 0, -1}},  // Bottom
        {{0, 0, -1}, {-1, 0, 0}, {0, 1, 0}},   // Front
    };
    const Axes& a = kFaces[std::clamp(decal.face, 0, 5)];
    auto along = [&](Vec3 axis) {  // the part's size along a unit axis
        return std::abs(axis.x) * size.x + std::abs(axis.y) * size.y + std::abs(axis.z) * size.z;
    };
    const float width = along(a.r), height = along(a.u), depth = along(a.n);
    const float out = 0.5f + kDecalOffsetStuds * float(std::clamp(decal.layer, 0, 15) + 1) / depth;
    // Corners (right, up) in -0.5..0.5, counter-clockwise seen from outside (r × u = n).
    constexpr float kCorners[4][2] = {{-0.5f, -0.5f}, {0.5f, -0.5f}, {0.5f, 0.5f}, {-0.5f, 0.5f}};
    for (const auto& c : kCorners) {
        m.positions.push_back(a.n * out + a.r * c[0] + a.u * c[1]);
        m.normals.push_back(a.n);
        float u = c[0] + 0.5f, v = 0.5f - c[1];  // image coordinates, v down
        if (decal.tiled) {
            u = (u * width - decal.offsetStuds.x) / decal.studsPerTile.x;
            v = (v * height - decal.offsetStuds.y) / decal.studsPerTile.y;
        }
        m.uv0.push_back({std::isfinite(u) ? u : 0.0f, std::isfinite(v) ? v : 0.0f});
    }
    m.indices = {0, 1, 2, 0, 2, 3};
    m.primitive = Primitive::Triangles;
    m.computeBounds();
    return m;
}

std::string instancePath(const Asset& asset, int node) {
    std::vector<std::string_view> names;
    std::size_t steps = 0;
    for (int n = node; n >= 0 && std::size_t(n) < asset.nodes.size() && steps++ < 256;
         n = asset.nodes[std::size_t(n)].parent)
        names.push_back(asset.nameOrKind(n));
    std::string out;
    for (auto it = names.rbegin(); it != names.rend(); ++it) {
        if (!out.empty()) out += '/';
        out += *it;
    }
    return out;
}

Mat4 cframeMatrix(const CFrame& cf) {
    Mat4 m;
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) m.at(r, c) = cf.rotation[std::size_t(r * 3 + c)];
    m.at(0, 3) = cf.position.x;
    m.at(1, 3) = cf.position.y;
    m.at(2, 3) = cf.position.z;
    return m;
}

}  // namespace meshscope::exporting
