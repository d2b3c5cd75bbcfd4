// Reports over a decoded Asset (see json_report.h).
#include "json_report.h"

#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <span>
#include <sstream>

#include "meshscope/core/roblox_parts.h"
#include "meshscope/core/roblox_terrain.h"

namespace meshscope::cli {

using Json = nlohmann::ordered_json;

namespace {

Json number(float v) {
    // JSON has no NaN or infinity; bounds are finite by construction, but be safe.
    return std::isfinite(v) ? Json(static_cast<double>(v)) : Json(nullptr);
}

Json vec3(const Vec3& v) {
    return Json::array({number(v.x), number(v.y), number(v.z)});
}

std::string base64(std::span<const std::uint8_t> b) {
    static const char* t = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    out.reserve((b.size() + 2) / 3 * 4);
    for (std::size_t i = 0; i < b.size(); i += 3) {
        const std::uint32_t n = (std::uint32_t(b[i]) << 16) |
                                (i + 1 < b.size() ? std::uint32_t(b[i + 1]) << 8 : 0) |
                                (i + 2 < b.size() ? b[i + 2] : 0);
        out += t[(n >> 18) & 63];
        out += t[(n >> 12) & 63];
        out += i + 1 < b.size() ? t[(n >> 6) & 63] : '=';
        out += i + 2 < b.size() ? t[n & 63] : '=';
    }
    return out;
}

bool isModel(const Asset& a) {
    return isRobloxModel(a);
}

// The place's Terrain: chunk and voxel counts from its SmoothGrid, voxels by material, and the
// triangles of the surfaces the decoder meshed. Null when the place has no terrain voxels.
Json terrainJson(const Asset& asset) {
    const int node = findTerrainNode(asset);
    if (node < 0) return nullptr;
    const std::optional<TerrainInfo> info = readTerrain(asset, node);
    if (!info || info->grid.chunks.empty()) return nullptr;
    const TerrainGrid& g = info->grid;
    Json materials = Json::object();
    for (std::size_t m = 0; m < g.materialVoxels.size(); ++m) {
        if (!g.materialVoxels[m]) continue;
        const char* name = terrainMaterialName(int(m));
        materials[name ? std::string(name) : "material " + std::to_string(m)] = g.materialVoxels[m];
    }
    std::size_t triangles = 0, waterTriangles = 0;
    for (const Mesh& m : asset.meshes) {
        if (m.node != node) continue;
        (m.name == "water" ? waterTriangles : triangles) += m.triangleCount();
    }
    Json j;
    j["chunks"] = g.chunks.size();
    j["solidVoxels"] = g.solidVoxels;
    j["waterVoxels"] = g.waterVoxels;
    j["materials"] = materials;
    j["triangles"] = triangles;
    j["waterTriangles"] = waterTriangles;
    j["runs"] = g.runs;
    j["complete"] = g.ok();
    return j;
}

}  // namespace

bool isUtf8(std::string_view s) {
    const auto* p = reinterpret_cast<const unsigned char*>(s.data());
    const std::size_t n = s.size();
    std::size_t i = 0;
    while (i < n) {
        // ASCII runs, 8 bytes at a time.
        while (i + 8 <= n) {
            std::uint64_t w;
            std::memcpy(&w, p + i, 8);
            if (w & 0x8080808080808080ull) break;
            i += 8;
        }
        if (i >= n) break;
        const unsigned c = p[i];
        if (c < 0x80) {
            ++i;
            continue;
        }
        std::size_t len;
        unsigned lo = 0x80, hi = 0xbf;  // range of the second byte
        if (c >= 0xc2 && c <= 0xdf) {
            len = 2;
        } else if (c >= 0xe0 && c <= 0xef) {
            len = 3;
            if (c == 0xe0) lo = 0xa0;
            if (c == 0xed) hi = 0x9f;
        } else if (c >= 0xf0 && c <= 0xf4) {
            len = 4;
            if (c == 0xf0) lo = 0x90;
            if (c == 0xf4) hi = 0x8f;
        } else {
            return false;
        }
        if (n - i < len) return false;
        if (p[i + 1] < lo || p[i + 1] > hi) return false;
        for (std::size_t k = 2; k < len; ++k)
            if ((p[i + k] & 0xc0) != 0x80) return false;
        i += len;
    }
    return true;
}

Json valueJson(const Value& value) {
    return std::visit(
        [](const auto& v) -> Json {
            using T = std::decay_t<decltype(v)>;
            if constexpr (std::is_same_v<T, std::monostate>)
                return nullptr;
            else if constexpr (std::is_same_v<T, bool> || std::is_same_v<T, std::int64_t>)
                return v;
            else if constexpr (std::is_same_v<T, std::string>)
                // Bytes that are not UTF-8 (a BinaryString, Latin-1 text) as base64, not as
                // text with U+FFFD in place of each bad byte.
                return isUtf8(v) ? Json(v)
                                 : Json{{"base64",
                                         base64({reinterpret_cast<const std::uint8_t*>(v.data()),
                                                 v.size()})}};
            else if constexpr (std::is_same_v<T, double>)
                return std::isfinite(v) ? Json(v) : Json(std::to_string(v));
            else if constexpr (std::is_same_v<T, Bytes>)
                return base64(v);
            else if constexpr (std::is_same_v<T, Vec2>)
                return Json::array({number(v.x), number(v.y)});
            else if constexpr (std::is_same_v<T, Vec3>)
                return vec3(v);
            else if constexpr (std::is_same_v<T, Vec4>)
                return Json::array({number(v.x), number(v.y), number(v.z), number(v.w)});
            else if constexpr (std::is_same_v<T, CFrame>) {
                Json r = Json::array();
                for (float f : v.rotation) r.push_back(number(f));
                return Json{{"position", vec3(v.position)}, {"rotation", r}};
            } else if constexpr (std::is_same_v<T, NodeRef>) {
                return v.node < 0 ? Json(nullptr) : Json{{"ref", v.node}};
            } else if constexpr (std::is_same_v<T, std::vector<double>>) {
                Json r = Json::array();
                for (double d : v) r.push_back(std::isfinite(d) ? Json(d) : Json(nullptr));
                return r;
            } else if constexpr (std::is_same_v<T, SharedStringRef>) {
                return Json{{"sharedString", v.index}};
            }
        },
        value);
}

Json infoJson(const Asset& asset) {
    Json j;
    j["format"] = asset.format;
    j["version"] = asset.version;
    Json meshes = Json::array();
    for (const auto& m : asset.meshes) {
        Json mj;
        mj["name"] = m.name;
        mj["vertices"] = m.vertexCount();
        mj["triangles"] = m.triangleCount();
        if (m.primitive == Primitive::Points) mj["points"] = m.indexCount();  // (added key)
        mj["lods"] = m.lodOffsets;
        if (m.bounds.valid()) {
            mj["bounds"] = {{"min", vec3(m.bounds.min)}, {"max", vec3(m.bounds.max)}};
        } else {
            mj["bounds"] = {{"min", Json::array({0, 0, 0})}, {"max", Json::array({0, 0, 0})}};
        }
        mj["skinned"] = m.skinned();
        // Extra keys (allowed by the contract).
        Json lodLevels = Json::array();
        for (const auto& l : m.lods)
            lodLevels.push_back({{"name", l.name}, {"triangles", l.triangleCount}});
        mj["lodLevels"] = lodLevels;
        mj["surfaces"] = m.surfaces.size();
        if (!m.morphTargets.empty()) {  // only when present: earlier reports stay as they were
            mj["morphTargets"] = m.morphTargets.size();
            Json names = Json::array();
            for (const MorphTarget& t : m.morphTargets) names.push_back(t.name);
            mj["morphTargetNames"] = names;
        }
        meshes.push_back(std::move(mj));
    }
    j["meshes"] = meshes;
    Json bones = Json::array();
    for (const auto& s : asset.skeletons)
        for (const auto& b : s.bones) bones.push_back(b.name);
    j["bones"] = bones;
    if (asset.facs.empty()) {
        j["facs"] = nullptr;
    } else {
        const FacsRig& rig = asset.facs.front();
        j["facs"] = {{"controls", rig.columnNames()}, {"bones", rig.boneNames}};
    }
    if (!asset.animations.empty()) {
        // Extra keys: every animation, and "frames", the frame count of all of them together.
        Json animations = Json::array();
        std::uint64_t frames = 0;
        for (const auto& a : asset.animations) {
            animations.push_back({{"name", a.name},
                                  {"frames", a.frameCount},
                                  {"tracks", a.tracks.size()},
                                  {"framesPerSecond", a.framesPerSecond}});
            frames += a.frameCount;
        }
        j["animations"] = animations;
        j["frames"] = frames;
    }
    Json warnings = Json::array();
    for (const auto& d : asset.diagnostics)
        if (d.severity != Severity::Info) warnings.push_back(d.toString());
    j["warnings"] = warnings;
    // Notes (Info diagnostics: a CSGK reference, a BLOCK physics blob ...), an added key.
    Json notes = Json::array();
    for (const auto& d : asset.diagnostics)
        if (d.severity == Severity::Info) notes.push_back(d.toString());
    j["notes"] = notes;
    if (isModel(asset)) {
        std::vector<int> perKind(asset.kinds.size(), 0);
        for (const auto& n : asset.nodes)
            if (n.kindId < perKind.size()) ++perKind[n.kindId];
        std::map<std::string, int> classes;
        for (std::uint32_t k = 0; k < perKind.size(); ++k)
            if (perKind[k]) classes[std::string(asset.kinds[k])] += perKind[k];
        j["instances"] = asset.nodes.size();
        j["classes"] = classes;
        j["terrain"] = terrainJson(asset);
    }
    j["formatName"] = asset.formatName;
    j["fileSize"] = asset.fileSize;
    return j;
}

std::string infoText(const Asset& asset, const std::string& fileName) {
    std::ostringstream o;
    o << fileName << ": " << asset.formatName << " " << asset.version << " (" << asset.fileSize
      << " bytes)\n";
    for (const auto& m : asset.meshes) {
        o << "  mesh \"" << m.name << "\": " << m.vertexCount() << " vertices, ";
        if (m.primitive == Primitive::Lines)
            o << m.indexCount() / 2 << " lines";  // (a wireframe: no triangles and no LODs)
        else if (m.primitive == Primitive::Points)
            o << m.indexCount() << " points";  // (a point cloud)
        else
            o << m.triangleCount() << " triangles";
        if (!m.lods.empty() && m.primitive == Primitive::Triangles) {
            o << ", " << m.lods.size() << " LOD" << (m.lods.size() == 1 ? "" : "s") << " (";
            for (std::size_t i = 0; i < m.lods.size(); ++i)
                o << (i ? ", " : "") << m.lods[i].triangleCount;
            o << " triangles)";
        }
        if (m.skinned()) o << ", skinned";
        o << "\n";
        if (m.bounds.valid()) {
            char buf[160];
            std::snprintf(buf, sizeof buf, "    bounds (%g, %g, %g) – (%g, %g, %g)\n",
                          m.bounds.min.x, m.bounds.min.y, m.bounds.min.z, m.bounds.max.x,
                          m.bounds.max.y, m.bounds.max.z);
            o << buf;
        }
    }
    for (const auto& s : asset.skeletons) {
        o << "  skeleton";
        if (!s.name.empty()) o << " \"" << s.name << "\"";
        o << ": " << s.bones.size() << " bones\n";
    }
    for (const auto& f : asset.facs) {
        o << "  FACS rig: " << f.controlNames.size() << " controls, " << f.correctives.size()
          << " correctives, " << f.boneNames.size() << " face bones\n";
    }
    for (const auto& a : asset.animations)
        o << "  animation \"" << a.name << "\": " << a.frameCount << " frames, " << a.tracks.size()
          << " tracks\n";
    if (isModel(asset)) {
        o << "  " << asset.nodes.size() << " instances\n";
        const Json t = terrainJson(asset);
        if (!t.is_null())
            o << "  terrain: " << t["chunks"].get<std::size_t>() << " chunks, "
              << t["solidVoxels"].get<std::uint64_t>() << " solid voxels, "
              << t["waterVoxels"].get<std::uint64_t>() << " water voxels, "
              << t["triangles"].get<std::size_t>() << " + "
              << t["waterTriangles"].get<std::size_t>() << " water triangles\n";
    }
    for (const auto& d : asset.diagnostics)
        o << "  " << (d.severity == Severity::Info ? "note" : "warning") << ": " << d.toString()
          << "\n";
    return o.str();
}

namespace {

// A node's properties as `tree --json` writes them: {name: value} in the node's order.
Json propertiesJson(const Asset& asset, int node) {
    Json props = Json::object();
    for (const auto& p : asset.properties(node)) props[p.name] = valueJson(p.value);
    return props;
}

// `tree --json`'s sharedStrings table: each SharedString's content once, in file order; values
// refer to it by index.
Json sharedStringsJson(const Asset& asset) {
    Json shared = Json::array();
    for (const std::string& s : asset.sharedStrings)
        shared.push_back(
            {{"size", s.size()},
             {"base64", base64({reinterpret_cast<const std::uint8_t*>(s.data()), s.size()})}});
    return shared;
}

}  // namespace

Json treeJson(const Asset& asset, const TreeJsonOptions& options) {
    // Iterative build (no recursion: instance trees can be deep), in post-order: children are
    // built before their parent. Nodes deeper than options.depth are left out.
    const std::size_t maxDepth = options.depth < 0 ? std::size_t(-1) : std::size_t(options.depth);
    std::vector<Json> built(asset.nodes.size());
    std::vector<int> order;
    order.reserve(asset.nodes.size());
    std::vector<std::pair<int, std::size_t>> stack;
    std::vector<char> seen(asset.nodes.size(), 0);
    for (int root : asset.roots()) {
        stack.push_back({root, 0});
        seen[root] = 1;
        while (!stack.empty()) {
            auto& [n, next] = stack.back();
            const std::span<const int> children = asset.children(n);
            if (stack.size() - 1 < maxDepth && next < children.size()) {
                const int c = children[next++];
                if (c >= 0 && std::size_t(c) < seen.size() && !seen[c]) {
                    seen[c] = 1;
                    stack.push_back({c, 0});
                }
            } else {
                order.push_back(n);
                stack.pop_back();
            }
        }
    }
    for (int n : order) {
        Json j;
        j["class"] = asset.kind(n);
        j["name"] = asset.name(n);
        if (options.values) {
            j["properties"] = propertiesJson(asset, n);
        }
        Json children = Json::array();
        std::size_t omitted = 0;
        for (int c : asset.children(n)) {
            if (c < 0 || std::size_t(c) >= built.size()) continue;
            if (!built[c].is_null())
                children.push_back(std::move(built[c]));
            else if (!seen[c])
                ++omitted;  // deeper than the depth asked for
        }
        j["children"] = std::move(children);
        j["id"] = n;
        if (omitted) j["childrenOmitted"] = omitted;
        built[n] = std::move(j);
    }
    Json roots = Json::array();
    for (int r : asset.roots()) roots.push_back(std::move(built[r]));
    Json out{{"roots", std::move(roots)}};
    if (options.values) {
        out["sharedStrings"] = sharedStringsJson(asset);
    }
    return out;
}

namespace {

// True when every node appears at most once among the roots and all children lists (a tree):
// then a pre-order walk places each node where treeJson's post-order walk does.
bool eachNodeOnce(const Asset& asset) {
    std::vector<std::uint8_t> listed(asset.nodes.size(), 0);
    auto list = [&](int n) {
        if (n < 0 || std::size_t(n) >= listed.size()) return true;
        return !listed[std::size_t(n)]++;
    };
    for (int r : asset.roots())
        if (!list(r)) return false;
    for (std::size_t n = 0; n < asset.nodes.size(); ++n)
        for (int c : asset.children(int(n)))
            if (!list(c)) return false;
    return true;
}

// `text`, a value dumped at level 0, written at `spaces` of indentation: every line after its
// first gets that many more spaces. Strings in a dump never hold a raw newline (they are
// escaped), so each newline is the serializer's own.
void writeIndented(std::ostream& out, const std::string& text, std::size_t spaces,
                   const std::string& pad) {
    std::size_t start = 0;
    for (;;) {
        const std::size_t nl = text.find('\n', start);
        if (nl == std::string::npos) {
            out.write(text.data() + start, std::streamsize(text.size() - start));
            return;
        }
        out.write(text.data() + start, std::streamsize(nl + 1 - start));
        out.write(pad.data(), std::streamsize(spaces));
        start = nl + 1;
    }
}

}  // namespace

void writeTreeJson(std::ostream& out, const Asset& asset, const TreeJsonOptions& options) {
    if (!eachNodeOnce(asset)) {
        out << dumpJson(treeJson(asset, options));
        return;
    }
    const std::size_t maxDepth = options.depth < 0 ? std::size_t(-1) : std::size_t(options.depth);
    const std::size_t count = asset.nodes.size();
    auto valid = [count](int c) { return c >= 0 && std::size_t(c) < count; };
    std::string pad;
    // Indentation of `level` (two spaces a level, as dumpJson writes).
    auto indent = [&](std::size_t level) {
        if (pad.size() < level * 2) pad.resize(std::max(level * 2, pad.size() * 2), ' ');
        out.write(pad.data(), std::streamsize(level * 2));
    };
    auto text = [&](std::string_view s) { out << dumpJson(Json(std::string(s))); };

    struct Frame {
        int node;
        std::size_t level, depth, next;
        bool any;
    };
    std::vector<Frame> stack;
    auto close = [&](int n, std::size_t level, std::size_t omitted) {
        out << ",\n";
        indent(level + 1);
        out << "\"id\": " << n;
        if (omitted) {
            out << ",\n";
            indent(level + 1);
            out << "\"childrenOmitted\": " << omitted;
        }
        out << '\n';
        indent(level);
        out << '}';
    };
    // Node `n` as an object at `level` (the caller has written its indentation), up to its
    // children: a frame is pushed when it has children to write, else the object is closed.
    auto open = [&](int n, std::size_t level, std::size_t depth) {
        out << "{\n";
        indent(level + 1);
        out << "\"class\": ";
        text(asset.kind(n));
        out << ",\n";
        indent(level + 1);
        out << "\"name\": ";
        text(asset.name(n));
        out << ",\n";
        if (options.values) {
            indent(level + 1);
            out << "\"properties\": ";
            pad.resize(std::max(pad.size(), (level + 1) * 2), ' ');
            writeIndented(out, dumpJson(propertiesJson(asset, n)), (level + 1) * 2, pad);
            out << ",\n";
        }
        indent(level + 1);
        out << "\"children\": ";
        std::size_t children = 0;
        for (int c : asset.children(n)) children += valid(c);
        if (children && depth < maxDepth) {
            stack.push_back({n, level, depth, 0, false});
            return;
        }
        out << "[]";
        close(n, level, children);  // every child cut by the depth (none when there are none)
    };

    out << "{\n";
    indent(1);
    out << "\"roots\": ";
    const auto roots = asset.roots();
    bool anyRoot = false;
    for (int r : roots) {
        if (!valid(r)) continue;
        out << (anyRoot ? ",\n" : "[\n");
        anyRoot = true;
        indent(2);
        open(r, 2, 0);
        while (!stack.empty()) {
            Frame& f = stack.back();
            const std::span<const int> children = asset.children(f.node);
            while (f.next < children.size() && !valid(children[f.next])) ++f.next;
            if (f.next < children.size()) {
                const int c = children[f.next++];
                out << (f.any ? ",\n" : "[\n");
                f.any = true;
                const std::size_t level = f.level + 2, depth = f.depth + 1;
                indent(level);
                open(c, level, depth);  // may push: f is not used after this
            } else {
                const Frame done = f;
                stack.pop_back();
                out << '\n';
                indent(done.level + 1);
                out << ']';
                close(done.node, done.level, 0);
            }
        }
    }
    if (anyRoot) {
        out << '\n';
        indent(1);
        out << ']';
    } else {
        out << "[]";
    }
    if (options.values) {
        out << ",\n";
        indent(1);
        out << "\"sharedStrings\": ";
        pad.resize(std::max<std::size_t>(pad.size(), 2), ' ');
        writeIndented(out, dumpJson(sharedStringsJson(asset)), 2, pad);
    }
    out << "\n}";
}

std::string mapText(const Asset& asset) {
    std::string out;
    char buf[64];
    for (const auto& r : asset.byteMap.ranges()) {
        std::snprintf(buf, sizeof buf, "0x%08" PRIx64 " %10" PRIu64 "  ", r.offset, r.length);
        out += buf;
        out += r.path;
        out += "\n";
    }
    return out;
}

std::string dumpJson(const nlohmann::ordered_json& json, int indent) {
    return json.dump(indent, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

}  // namespace meshscope::cli
