// Wavefront OBJ (+ MTL) export of one LOD: each mesh and each visible model part an object
// ("o"), positions, UVs (V flipped to OBJ's upward convention), normals, triangles ("f") and
// line segments ("l"). Parts are baked into world space with their CFrame and size.
#include <charconv>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>

#include "export/export_internal.h"
#include "meshscope/core/decode.h"

namespace meshscope::exporting {

namespace {

class ObjText {
public:
    void number(float f) {
        char buf[32];
        const auto r = std::to_chars(buf, buf + sizeof buf, std::isfinite(f) ? f : 0.0f);
        text.push_back(' ');
        text.append(buf, r.ptr);
    }
    void line(const char* tag, std::initializer_list<float> values) {
        text += tag;
        for (float f : values) number(f);
        text.push_back('\n');
    }
    std::string text;
};

// OBJ names end at whitespace: keep them on one token.
std::string objName(std::string_view s) {
    std::string out = validUtf8(s);
    for (char& c : out)
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '#') c = '_';
    return out.empty() ? std::string("unnamed") : out;
}

struct Counters {
    std::size_t v = 0, vt = 0, vn = 0;
};

Vec3 rotate(const CFrame& cf, const Vec3& p) {
    const auto& r = cf.rotation;
    return {r[0] * p.x + r[1] * p.y + r[2] * p.z, r[3] * p.x + r[4] * p.y + r[5] * p.z,
            r[6] * p.x + r[7] * p.y + r[8] * p.z};
}

void appendIndex(std::string& t, std::size_t v) {
    char buf[24];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    t.append(buf, r.ptr);
}

void writeFaces(ObjText& obj, const std::vector<std::uint32_t>& idx, const Counters& base, bool uv,
                bool normal) {
    std::string& t = obj.text;
    for (std::size_t i = 0; i + 2 < idx.size(); i += 3) {
        t += 'f';
        for (int k = 0; k < 3; ++k) {
            const std::size_t v = idx[i + std::size_t(k)];
            t += ' ';
            appendIndex(t, base.v + v + 1);
            if (uv || normal) {
                t += '/';
                if (uv) appendIndex(t, base.vt + v + 1);
                if (normal) {
                    t += '/';
                    appendIndex(t, base.vn + v + 1);
                }
            }
        }
        t += '\n';
    }
}

}  // namespace

ExportResult exportObj(const Asset& asset, const std::string& path, const ExportOptions& options) {
    ExportResult result;
    try {
        auto& warn = result.warnings;
        const auto files = exportFilePaths(path, ExportFormat::Obj);
        const std::string mtlName = std::filesystem::path(files[1]).filename().string();
        ObjText obj, mtl;
        obj.text = "# Meshscope " + std::string(version()) + " OBJ export (" +
                   validUtf8(asset.formatName.empty() ? asset.format : asset.formatName) + " " +
                   validUtf8(asset.version) + ")\nmtllib " + mtlName + "\n";
        mtl.text = "# Meshscope " + std::string(version()) + " materials\n";
        Counters c;
        bool meshMaterial = false, droppedColors = false, droppedRig = false;
        const int lod = options.lod < 0 ? 0 : options.lod;

        for (std::size_t mi = 0; mi < asset.meshes.size(); ++mi) {
            const Mesh& mesh = asset.meshes[mi];
            const std::string name = meshName(asset, int(mi));
            const std::size_t nv = mesh.positions.size();
            if (nv == 0 || mesh.indices.empty()) {
                warn.push_back("mesh \"" + name + "\" has no vertices or no faces: not exported");
                continue;
            }
            // A place's terrain surfaces keep their colours: per-vertex "v x y z r g b" (an
            // extension most readers take), and the water its own translucent material.
            const bool terrainMesh =
                mesh.node >= 0 && asset.kind(mesh.node) == "Terrain" && mesh.colors.size() == nv;
            droppedColors = droppedColors || (!mesh.colors.empty() && !terrainMesh);
            droppedRig = droppedRig || mesh.skinned() || mesh.facs >= 0 || mesh.skeleton >= 0;
            if (!meshMaterial) {
                mtl.text += "newmtl mesh\nKd 0.8 0.8 0.8\nd 1\n";
                meshMaterial = true;
            }
            const std::vector<Vec3> positions = cleanPositions(mesh, name, warn);
            if (mesh.primitive == Primitive::Lines) {
                obj.text += "o " + objName(name) + "\nusemtl mesh\n";
                for (const Vec3& p : positions) obj.line("v", {p.x, p.y, p.z});
                std::size_t segments = 0;
                for (std::size_t i = 0; i + 1 < mesh.indices.size(); i += 2) {
                    if (mesh.indices[i] >= nv || mesh.indices[i + 1] >= nv) continue;
                    obj.text += "l " + std::to_string(c.v + mesh.indices[i] + 1) + ' ' +
                                std::to_string(c.v + mesh.indices[i + 1] + 1) + '\n';
                    ++segments;
                }
                c.v += nv;
                result.stats.vertices += nv;
                result.stats.lines += segments;
                ++result.stats.meshes;
                continue;
            }
            const bool hasNormals = mesh.normals.size() == nv, hasUv = mesh.uv0.size() == nv;
            const std::vector<Vec3> normals =
                hasNormals ? cleanNormals(mesh, name, warn) : std::vector<Vec3>{};
            const std::vector<Vec2> uvs = hasUv ? cleanUvs(mesh.uv0) : std::vector<Vec2>{};
            const auto slices = selectLods(asset, int(mi), lod, warn);
            const LodSlice& slice = slices.front();
            const auto idx = sliceIndices(mesh, slice);
            if (idx.empty()) {
                warn.push_back("mesh \"" + name + "\" " + slice.name +
                               " has no triangles: not exported");
                continue;
            }
            std::string usemtl = "mesh";
            if (terrainMesh && mesh.name == "water") {
                const Rgba8 w = mesh.colors.front();
                char buf[160];
                std::snprintf(buf, sizeof buf, "newmtl water_%zu\nKd %.4f %.4f %.4f\nd %.4f\n", mi,
                              w.r / 255.0, w.g / 255.0, w.b / 255.0, w.a / 255.0);
                mtl.text += buf;
                usemtl = "water_" + std::to_string(mi);
            }
            obj.text += "o " + objName(name + (mesh.lods.size() > 1 ? "_" + slice.name : "")) +
                        "\nusemtl " + usemtl + "\n";
            const std::size_t count = sliceVertexCount(mesh, slice);
            auto each = [&](auto&& fn) {
                if (slice.allVertices())
                    for (std::size_t v = 0; v < nv; ++v) fn(v);
                else
                    for (std::uint32_t v : slice.vertices) fn(std::size_t(v));
            };
            if (terrainMesh)
                each([&](std::size_t v) {
                    const Rgba8 k = mesh.colors[v];
                    obj.line("v", {positions[v].x, positions[v].y, positions[v].z, k.r / 255.0f,
                                   k.g / 255.0f, k.b / 255.0f});
                });
            else
                each([&](std::size_t v) {
                    obj.line("v", {positions[v].x, positions[v].y, positions[v].z});
                });
            if (hasUv) each([&](std::size_t v) { obj.line("vt", {uvs[v].x, 1.0f - uvs[v].y}); });
            if (hasNormals)
                each([&](std::size_t v) {
                    obj.line("vn", {normals[v].x, normals[v].y, normals[v].z});
                });
            writeFaces(obj, idx, c, hasUv, hasNormals);
            c.v += count;
            if (hasUv) c.vt += count;
            if (hasNormals) c.vn += count;
            result.stats.vertices += count;
            result.stats.triangles += idx.size() / 3;
            ++result.stats.meshes;
        }
        if (droppedColors) warn.push_back("OBJ holds no vertex colours: dropped");
        if (droppedRig)
            warn.push_back(
                "OBJ holds no skeleton, skin weights or FACS rig: the bind pose was written");
        if (!asset.animations.empty())
            warn.push_back(std::to_string(asset.animations.size()) + " animation(s) not exported");

        const PartTree tree = collectParts(asset, warn, options.assetFolders);
        std::map<std::uint32_t, std::string> materials;
        std::map<PartShape, Mesh> primitives;
        for (const PartInstance& p : tree.parts) {
            const std::uint32_t key = std::uint32_t(p.color.r) << 24 |
                                      std::uint32_t(p.color.g) << 16 |
                                      std::uint32_t(p.color.b) << 8 | p.color.a;
            auto it = materials.find(key);
            if (it == materials.end()) {
                std::string name = "color_" + std::to_string(p.color.r) + "_" +
                                   std::to_string(p.color.g) + "_" + std::to_string(p.color.b) +
                                   (p.color.a < 255 ? "_a" + std::to_string(p.color.a) : "");
                mtl.text += "newmtl " + name + "\n";
                mtl.line("Kd", {p.color.r / 255.0f, p.color.g / 255.0f, p.color.b / 255.0f});
                mtl.line("d", {p.color.a / 255.0f});
                it = materials.emplace(key, name).first;
            }
            auto prim = primitives.find(p.shape);
            if (!p.mesh && prim == primitives.end())
                prim = primitives.emplace(p.shape, partShapeMesh(p.shape)).first;
            // A union's geometry is already fitted to its Size (scale 1); OBJ keeps no vertex
            // colours, so it takes the part's colour.
            const Mesh& m = p.mesh ? *p.mesh : prim->second;
            const Vec3 s = p.mesh ? Vec3{1, 1, 1} : partShapeScale(p.shape, p.size);
            obj.text += "o " + objName(p.name) + "\nusemtl " + it->second + "\n";
            for (const Vec3& v : m.positions) {
                const Vec3 w =
                    rotate(p.cframe, {v.x * s.x, v.y * s.y, v.z * s.z}) + p.cframe.position;
                obj.line("v", {w.x, w.y, w.z});
            }
            if (m.uv0.size() == m.positions.size())
                for (const Vec2& t : m.uv0) obj.line("vt", {t.x, 1.0f - t.y});
            else
                for (std::size_t k = 0; k < m.positions.size(); ++k) obj.line("vt", {0.0f, 0.0f});
            for (const Vec3& n : m.normals) {
                // Normals transform by the inverse scale; a zero scale keeps the unscaled normal.
                Vec3 q{s.x != 0 ? n.x / s.x : n.x, s.y != 0 ? n.y / s.y : n.y,
                       s.z != 0 ? n.z / s.z : n.z};
                q = rotate(p.cframe, q);
                const float l = std::sqrt(q.x * q.x + q.y * q.y + q.z * q.z);
                if (l > 0 && std::isfinite(l))
                    q = q * (1.0f / l);
                else
                    q = {0, 1, 0};
                obj.line("vn", {q.x, q.y, q.z});
            }
            writeFaces(obj, m.indices, c, true, true);
            c.v += m.positions.size();
            c.vt += m.positions.size();
            c.vn += m.positions.size();
            result.stats.vertices += m.positions.size();
            result.stats.triangles += m.indices.size() / 3;
            ++result.stats.meshes;
            ++result.stats.parts;
        }
        if (result.stats.meshes == 0) {
            result.nothingToExport = true;
            throw std::runtime_error(
                "nothing to export: the file holds no meshes or visible parts");
        }

        auto save = [](const std::string& file, const std::string& text) {
            std::ofstream f(file, std::ios::binary | std::ios::trunc);
            f.write(text.data(), std::streamsize(text.size()));
            f.close();
            if (!f) throw std::runtime_error("cannot write " + file);
        };
        save(files[0], obj.text);
        save(files[1], mtl.text);
        result.files = files;
    } catch (const std::exception& e) {
        result.error = std::string("OBJ export failed: ") + e.what();
    } catch (...) {
        result.error = "OBJ export failed";
    }
    return result;
}

}  // namespace meshscope::exporting
