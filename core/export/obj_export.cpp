// Wavefront OBJ (+ MTL) export of one LOD: each mesh and each visible model part an object
// ("o"), positions, UVs (V flipped to OBJ's upward convention), normals, triangles ("f") and
// line segments ("l"). Parts are baked into world space with their CFrame and size.
#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <tuple>

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

// Object names: the mesh name or a part's instance path, made unique ("_2", "_3" ...), so that
// importers do not merge objects that share a name.
class UniqueNames {
public:
    std::string operator()(const std::string& wanted) {
        std::string name = objName(wanted);
        auto [it, fresh] = used_.try_emplace(name, 1);
        if (fresh) return name;
        for (;;) {
            std::string candidate = name + "_" + std::to_string(++it->second);
            if (used_.try_emplace(candidate, 1).second) return candidate;
        }
    }

private:
    std::map<std::string, int> used_;
};

// An MTL material: diffuse colour, dissolve, and the PBR extension's roughness, metalness and
// emission (read by Blender's OBJ importer among others).
void mtlMaterial(ObjText& mtl, const std::string& name, float r, float g, float b, float alpha,
                 float roughness, float metallic, bool emissive) {
    mtl.text += "newmtl " + name + "\n";
    mtl.line("Kd", {r, g, b});
    mtl.line("d", {alpha});
    mtl.line("Pr", {roughness});
    mtl.line("Pm", {metallic});
    if (emissive) mtl.line("Ke", {r, g, b});
}

}  // namespace

ExportResult exportObj(const Asset& asset, const std::string& path, const ExportOptions& options) {
    ExportResult result;
    try {
        auto& warn = result.warnings;
        const auto files = exportFilePaths(path, ExportFormat::Obj);
        const std::string mtlName = std::filesystem::path(files[1]).filename().string();
        const SourceAxes axes = sourceAxes(asset);
        ObjText obj, mtl;
        obj.text = "# Meshscope " + std::string(version()) + " OBJ export (" +
                   validUtf8(asset.formatName.empty() ? asset.format : asset.formatName) + " " +
                   validUtf8(asset.version) + "), Y-up, unit: " + axes.unit +
                   (axes.zUp ? " (turned from Z-up)" : "") + "\nmtllib " + mtlName + "\n";
        mtl.text = "# Meshscope " + std::string(version()) + " materials\n";
        Counters c;
        bool droppedColors = false, droppedRig = false;
        UniqueNames unique;
        std::map<std::string, std::string> meshMaterials;  // source name -> MTL name
        auto meshMaterial = [&](const std::string& source) {
            auto it = meshMaterials.find(source);
            if (it != meshMaterials.end()) return it->second;
            const std::string name = unique(source);
            mtlMaterial(mtl, name, 1, 1, 1, 1, 0.7f, 0, false);
            return meshMaterials[source] = name;
        };
        const bool surfaceMaterials =
            asset.format == "secondlife-mesh" || asset.format == "unigine";

        const std::vector<ExportItem> items = exportItems(asset, warn);
        std::size_t physicsLeftOut = 0;
        LevelChooser levels(options.lod);
        for (const ExportItem& item : items) {
            if (item.physics && !options.physics) {
                ++physicsLeftOut;
                continue;
            }
            const MeshLevel& level = item.levels[levels.choose(item)];
            const Mesh& mesh = asset.meshes[std::size_t(level.mesh)];
            const std::string name = meshName(asset, level.mesh);
            const std::size_t nv = mesh.positions.size();
            // A place's terrain surfaces keep their colours: per-vertex "v x y z r g b" (an
            // extension most readers take), and the water its own translucent material.
            const bool terrainMesh =
                mesh.node >= 0 && asset.kind(mesh.node) == "Terrain" && mesh.colors.size() == nv;
            droppedColors = droppedColors || (!mesh.colors.empty() && !terrainMesh);
            droppedRig = droppedRig || mesh.skinned() || mesh.facs >= 0 || mesh.skeleton >= 0;
            std::vector<Vec3> positions = cleanPositions(mesh, name, warn);
            for (Vec3& p : positions) p = axes.point(p);
            const std::string objectName = unique(
                (item.physics && !name.starts_with("physics") ? "physics_" : "") + name +
                (item.levels.size() > 1 && mesh.lods.size() > 1 ? "_" + level.slice.name : ""));
            if (mesh.primitive != Primitive::Triangles) {
                // Line segments ("l") or the points of a point cloud ("p") over the mesh's own
                // vertices; a primitive with an index past them is left out.
                const bool points = mesh.primitive == Primitive::Points;
                const std::size_t per = indicesPerPrimitive(mesh.primitive);
                obj.text += "o " + objectName + "\ng " + objectName + "\nusemtl " +
                            meshMaterial(name) + "\n";
                for (const Vec3& p : positions) obj.line("v", {p.x, p.y, p.z});
                std::size_t written = 0;
                for (std::size_t i = 0; i + per <= mesh.indices.size(); i += per) {
                    bool inside = true;
                    for (std::size_t k = 0; k < per; ++k)
                        inside = inside && mesh.indices[i + k] < nv;
                    if (!inside) continue;
                    obj.text += points ? 'p' : 'l';
                    for (std::size_t k = 0; k < per; ++k)
                        obj.text += ' ' + std::to_string(c.v + mesh.indices[i + k] + 1);
                    obj.text += '\n';
                    ++written;
                }
                c.v += nv;
                result.stats.vertices += nv;
                (points ? result.stats.points : result.stats.lines) += written;
                ++result.stats.meshes;
                continue;
            }
            const bool hasNormals = mesh.normals.size() == nv, hasUv = mesh.uv0.size() == nv;
            std::vector<Vec3> normals =
                hasNormals ? cleanNormals(mesh, name, warn) : std::vector<Vec3>{};
            for (Vec3& n : normals) n = axes.point(n);
            const std::vector<Vec2> uvs = hasUv ? cleanUvs(mesh.uv0) : std::vector<Vec2>{};
            const LodSlice& slice = level.slice;
            const auto groups = sliceIndicesBySurface(mesh, slice, surfaceMaterials);
            if (groups.empty()) {
                warn.push_back("mesh \"" + name + "\" " + slice.name +
                               " has no triangles: not exported");
                continue;
            }
            std::string water;  // the water's own material, when this is terrain water
            if (terrainMesh && mesh.name == "water") {
                const Rgba8 w = mesh.colors.front();
                water = unique("water");
                mtlMaterial(mtl, water, w.r / 255.0f, w.g / 255.0f, w.b / 255.0f, w.a / 255.0f,
                            0.05f, 0, false);
            }
            obj.text += "o " + objectName + "\ng " + objectName + "\n";
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
            std::size_t triangles = 0;
            for (const SurfaceIndices& g : groups) {
                const std::string source =
                    g.surface >= 0 && !mesh.surfaces[std::size_t(g.surface)].name.empty()
                        ? validUtf8(mesh.surfaces[std::size_t(g.surface)].name)
                        : name;
                obj.text += "usemtl " + (water.empty() ? meshMaterial(source) : water) + "\n";
                writeFaces(obj, g.indices, c, hasUv, hasNormals);
                triangles += g.indices.size() / 3;
            }
            c.v += count;
            if (hasUv) c.vt += count;
            if (hasNormals) c.vn += count;
            result.stats.vertices += count;
            result.stats.triangles += triangles;
            ++result.stats.meshes;
        }
        levels.report(warn);
        if (physicsLeftOut)
            warn.push_back(std::to_string(physicsLeftOut) +
                           " physics mesh(es) left out (export with --physics)");
        if (droppedColors) warn.push_back("OBJ holds no vertex colours: dropped");
        if (droppedRig)
            warn.push_back(
                "OBJ holds no skeleton, skin weights or FACS rig: the bind pose was written");
        if (!asset.animations.empty())
            warn.push_back(std::to_string(asset.animations.size()) + " animation(s) not exported");

        const PartTree tree = collectParts(asset, warn, options.assetFolders, options.allServices,
                                           std::max(options.lod, 0));
        std::map<std::tuple<std::uint32_t, std::int64_t, int, PartTexture, PartTexture, PartTexture,
                            PartTexture>,
                 std::string>
            materials;
        // Image files copied beside the .mtl: source → the copy's file name.
        std::map<std::string, std::string> images;
        std::vector<std::pair<std::string, std::string>> copies;  // source, destination
        const std::filesystem::path outDir = std::filesystem::path(files[1]).parent_path();
        const std::string stem = std::filesystem::path(files[0]).stem().string();
        auto imageName = [&](const PartTexture& t) -> std::string {
            auto [it, fresh] = images.try_emplace(t.path);
            if (fresh) {
                it->second = safeFileStem(stem) + "_texture" + std::to_string(images.size()) +
                             (t.mimeType == "image/png" ? ".png" : ".jpg");
                copies.push_back({t.path, (outDir / it->second).string()});
            }
            return it->second;
        };
        std::map<PartShape, Mesh> primitives;
        std::map<std::pair<std::string, std::array<float, 4>>, std::string> decalMaterials;
        for (const PartInstance& p : tree.parts) {
            const int reflectance = int(std::lround(p.reflectance * 100));
            const auto key = std::make_tuple(
                std::uint32_t(p.color.r) << 24 | std::uint32_t(p.color.g) << 16 |
                    std::uint32_t(p.color.b) << 8 | p.color.a,
                p.material, reflectance, p.colorMap, p.normalMap, p.roughnessMap, p.metalnessMap);
            auto it = materials.find(key);
            if (it == materials.end()) {
                const auto look = robloxMaterialLook(p.material);
                const std::string lookName =
                    look ? look->name : "material" + std::to_string(p.material);
                std::string name =
                    unique(lookName + "_" + std::to_string(p.color.r) + "_" +
                           std::to_string(p.color.g) + "_" + std::to_string(p.color.b) +
                           (p.color.a < 255 ? "_a" + std::to_string(p.color.a) : "") +
                           (reflectance > 0 ? "_r" + std::to_string(reflectance) : ""));
                const float r = reflectance / 100.0f;
                // A colour map is the colour (Kd white, as the glTF base colour factor).
                const float k = p.colorMap.ok() ? 255.0f : 0.0f;
                mtlMaterial(mtl, name, std::max<float>(k, p.color.r) / 255.0f,
                            std::max<float>(k, p.color.g) / 255.0f,
                            std::max<float>(k, p.color.b) / 255.0f, p.color.a / 255.0f,
                            (look ? look->roughness : 0.8f) * (1 - r),
                            std::max(look ? look->metallic : 0.0f, r), look && look->emissive);
                if (p.colorMap.ok()) mtl.text += "map_Kd " + imageName(p.colorMap) + "\n";
                if (p.normalMap.ok()) {
                    const std::string n = imageName(p.normalMap);
                    mtl.text += "norm " + n + "\nmap_Bump " + n + "\n";
                }
                // SurfaceAppearance maps as the PBR extension's texture maps (copied as stored).
                if (p.roughnessMap.ok()) mtl.text += "map_Pr " + imageName(p.roughnessMap) + "\n";
                if (p.metalnessMap.ok()) mtl.text += "map_Pm " + imageName(p.metalnessMap) + "\n";
                it = materials.emplace(key, name).first;
            }
            auto prim = primitives.find(p.shape);
            if (!p.mesh && prim == primitives.end())
                prim = primitives.emplace(p.shape, partShapeMesh(p.shape)).first;
            // A union's geometry is already fitted to its Size (scale 1); OBJ keeps no vertex
            // colours, so it takes the part's colour.
            const Mesh& m = p.mesh ? *p.mesh : prim->second;
            const Vec3 s = p.mesh ? Vec3{1, 1, 1} : partShapeScale(p.shape, p.size);
            // A mesh in the part's frame (scaled by `s`, then placed by the CFrame) as an object.
            auto writeObject = [&](const Mesh& m, Vec3 s, const std::string& objectName,
                                   const std::string& material) {
                obj.text += "o " + objectName + "\ng " + objectName + "\nusemtl " + material + "\n";
                for (const Vec3& v : m.positions) {
                    const Vec3 w =
                        rotate(p.cframe, {v.x * s.x, v.y * s.y, v.z * s.z}) + p.cframe.position;
                    obj.line("v", {w.x, w.y, w.z});
                }
                if (m.uv0.size() == m.positions.size())
                    for (const Vec2& t : m.uv0) obj.line("vt", {t.x, 1.0f - t.y});
                else
                    for (std::size_t k = 0; k < m.positions.size(); ++k)
                        obj.line("vt", {0.0f, 0.0f});
                const std::vector<Vec3> up(
                    m.normals.size() == m.positions.size() ? 0 : m.positions.size(), Vec3{0, 1, 0});
                for (const Vec3& n : up.empty() ? m.normals : up) {
                    // Normals transform by the inverse scale; a zero scale keeps the unscaled
                    // normal.
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
            };
            const std::string objectName = unique(instancePath(asset, p.node));
            writeObject(m, s, objectName, it->second);
            ++result.stats.meshes;
            // Decals on a box part's faces: their own objects, tinted and blended by d.
            for (const PartDecal& d : p.mesh ? std::vector<PartDecal>{} : p.decals) {
                const Mesh q = decalQuad(d, p.size);
                if (q.positions.empty()) continue;
                auto key = std::make_pair(
                    d.image.path,
                    std::array<float, 4>{d.color.x, d.color.y, d.color.z, 1.0f - d.transparency});
                auto dm = decalMaterials.find(key);
                if (dm == decalMaterials.end()) {
                    const std::string name = unique(
                        std::string(d.tiled ? "Texture" : "Decal") + "_" +
                        safeFileStem(std::filesystem::path(d.image.path).filename().string()));
                    mtl.text += "newmtl " + name + "\n";
                    mtl.line("Kd", {d.color.x, d.color.y, d.color.z});
                    mtl.line("d", {1.0f - d.transparency});
                    mtl.text += "map_Kd " + imageName(d.image) + "\n";
                    dm = decalMaterials.emplace(key, name).first;
                }
                writeObject(q, s, unique(objectName + "/" + d.name), dm->second);
            }
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
        for (const auto& [from, to] : copies) {
            std::error_code ec;
            std::filesystem::copy_file(from, to, std::filesystem::copy_options::overwrite_existing,
                                       ec);
            if (ec)
                warn.push_back("texture " + validUtf8(from) + " not copied to " + validUtf8(to) +
                               ": " + ec.message());
            else
                result.files.push_back(to);
        }
    } catch (const std::exception& e) {
        result.error = std::string("OBJ export failed: ") + e.what();
    } catch (...) {
        result.error = "OBJ export failed";
    }
    return result;
}

}  // namespace meshscope::exporting
