// Helpers for the export tests: counts expected from an Asset (computed here from the asset's own
// indices, independently of the exporter), counts read back from a glTF through tinygltf, from
// `assimp info`, and from OBJ text.
#pragma once

#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "export/tinygltf_config.h"
#include "meshscope/core/asset.h"
#include "meshscope/core/export.h"

namespace meshscope::test {

struct Counts {
    std::size_t meshes = 0, vertices = 0, triangles = 0, lines = 0, points = 0, joints = 0,
                skinnedVertices = 0, morphTargets = 0;
    // Joints summed over the skinned glTF meshes (what `assimp info` calls Bones).
    std::size_t meshJoints = 0;
    friend bool operator==(const Counts&, const Counts&) = default;
};

inline std::ostream& operator<<(std::ostream& os, const Counts& c) {
    return os << "{meshes " << c.meshes << ", vertices " << c.vertices << ", triangles "
              << c.triangles << ", lines " << c.lines << ", points " << c.points << ", joints "
              << c.joints << ", skinned " << c.skinnedVertices << ", targets " << c.morphTargets
              << ", mesh joints " << c.meshJoints << "}";
}

// What a glTF export of every LOD should hold: a mesh with one LOD keeps all its vertices, a
// level of a multi-LOD mesh keeps the distinct vertices its triangles use. `lod` >= 0: only that
// level (clamped). Parts and FACS targets are not counted here.
inline Counts expectedMeshCounts(const Asset& a, int lod = -1) {
    Counts c;
    std::set<int> skeletons;
    for (const Mesh& m : a.meshes) {
        const std::size_t nv = m.positions.size();
        if (nv == 0 || m.indices.empty()) continue;
        if (m.primitive == Primitive::Lines) {
            ++c.meshes;
            c.vertices += nv;
            c.lines += m.indices.size() / 2;
            continue;
        }
        if (m.primitive == Primitive::Points) {
            ++c.meshes;
            c.vertices += nv;
            c.points += m.indices.size();
            continue;
        }
        std::vector<std::pair<std::uint32_t, std::uint32_t>> ranges;
        if (m.lods.empty()) ranges.push_back({0, std::uint32_t(m.indices.size() / 3)});
        for (const LodLevel& l : m.lods) ranges.push_back({l.firstTriangle, l.triangleCount});
        if (lod >= 0) ranges = {ranges[std::min<std::size_t>(std::size_t(lod), ranges.size() - 1)]};
        const bool skinned = m.skin.size() == nv && m.skeleton >= 0;
        if (skinned) skeletons.insert(m.skeleton);
        for (const auto& [first, count] : ranges) {
            std::set<std::uint32_t> used;
            std::size_t tris = 0;
            for (std::size_t t = first;
                 t < std::size_t(first) + count && t * 3 + 2 < m.indices.size(); ++t) {
                ++tris;
                for (int k = 0; k < 3; ++k) used.insert(m.indices[t * 3 + std::size_t(k)]);
            }
            if (tris == 0) continue;
            const std::size_t verts = m.lods.size() > 1 ? used.size() : nv;
            ++c.meshes;
            c.vertices += verts;
            c.triangles += tris;
            if (skinned) {
                c.skinnedVertices += verts;
                c.meshJoints += a.skeletons[std::size_t(m.skeleton)].bones.size();
            }
        }
    }
    for (int s : skeletons) c.joints += a.skeletons[std::size_t(s)].bones.size();
    return c;
}

inline Counts gltfCounts(const tinygltf::Model& m) {
    Counts c;
    for (const auto& mesh : m.meshes) {
        ++c.meshes;
        for (const auto& p : mesh.primitives) {
            const auto& pos = m.accessors[std::size_t(p.attributes.at("POSITION"))];
            c.vertices += pos.count;
            const std::size_t idx =
                p.indices >= 0 ? m.accessors[std::size_t(p.indices)].count : pos.count;
            if (p.mode == TINYGLTF_MODE_TRIANGLES) c.triangles += idx / 3;
            if (p.mode == TINYGLTF_MODE_LINE) c.lines += idx / 2;
            if (p.mode == TINYGLTF_MODE_POINTS) c.points += idx;
            if (p.attributes.contains("JOINTS_0")) c.skinnedVertices += pos.count;
            c.morphTargets += p.targets.size();
        }
    }
    for (const auto& s : m.skins) c.joints += s.joints.size();
    for (const auto& n : m.nodes)
        if (n.mesh >= 0 && n.skin >= 0) c.meshJoints += m.skins[std::size_t(n.skin)].joints.size();
    return c;
}

// tinygltf is built without an image decoder: embedded images are kept as stored (their
// bufferView and mimeType), not decoded.
inline bool keepImageUndecoded(tinygltf::Image*, const int, std::string*, std::string*, int, int,
                               const unsigned char*, int, void*) {
    return true;
}

inline bool loadGltf(const std::filesystem::path& file, tinygltf::Model& model, std::string& err) {
    tinygltf::TinyGLTF loader;
    loader.SetImageLoader(keepImageUndecoded, nullptr);
    std::string warn;
    return file.extension() == ".glb"
               ? loader.LoadBinaryFromFile(&model, &err, &warn, file.string())
               : loader.LoadASCIIFromFile(&model, &err, &warn, file.string());
}

inline bool loadGlb(const Bytes& bytes, tinygltf::Model& model, std::string& err) {
    tinygltf::TinyGLTF loader;
    loader.SetImageLoader(keepImageUndecoded, nullptr);
    std::string warn;
    return loader.LoadBinaryFromMemory(&model, &err, &warn, bytes.data(), unsigned(bytes.size()));
}

// Typed view of an accessor's elements (tightly packed views only, as the exporter writes them).
template <typename T>
std::vector<T> accessorData(const tinygltf::Model& m, int accessor) {
    const auto& a = m.accessors[std::size_t(accessor)];
    const auto& v = m.bufferViews[std::size_t(a.bufferView)];
    const auto& b = m.buffers[std::size_t(v.buffer)];
    std::vector<T> out(a.count);
    std::memcpy(out.data(), b.data.data() + v.byteOffset + a.byteOffset, a.count * sizeof(T));
    return out;
}

// ---------------------------------------------------------------------------------------------
// assimp

inline bool assimpAvailable() {
    return std::system("assimp version > /dev/null 2>&1") == 0;
}

struct AssimpInfo {
    std::size_t meshes = 0, vertices = 0, faces = 0, bones = 0, nodes = 0;
    bool ok = false;
    std::string text;
};

// `assimp info -r FILE` (-r: raw, no post-processing that would join or split vertices).
inline AssimpInfo assimpInfo(const std::filesystem::path& file) {
    AssimpInfo info;
    const std::string cmd = "assimp info \"" + file.string() + "\" -r 2>&1";
    std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(cmd.c_str(), "r"), pclose);
    if (!pipe) return info;
    std::array<char, 4096> buf;
    while (std::fgets(buf.data(), int(buf.size()), pipe.get())) info.text += buf.data();
    auto field = [&](const char* name, std::size_t& out) {
        const std::regex re(std::string(name) + R"(:\s+(\d+))");
        std::smatch m;
        if (!std::regex_search(info.text, m, re)) return false;
        out = std::stoull(m[1].str());
        return true;
    };
    info.ok = field("Meshes", info.meshes) && field("Vertices", info.vertices) &&
              field("Faces", info.faces);
    field("Bones", info.bones);
    field("Nodes", info.nodes);
    return info;
}

// ---------------------------------------------------------------------------------------------
// OBJ

struct ObjCounts {
    std::size_t v = 0, vt = 0, vn = 0, f = 0, l = 0, p = 0, o = 0;
    friend bool operator==(const ObjCounts&, const ObjCounts&) = default;
};

inline ObjCounts objCounts(const std::filesystem::path& file) {
    ObjCounts c;
    std::ifstream in(file);
    std::string line;
    while (std::getline(in, line)) {
        if (line.starts_with("v "))
            ++c.v;
        else if (line.starts_with("vt "))
            ++c.vt;
        else if (line.starts_with("vn "))
            ++c.vn;
        else if (line.starts_with("f "))
            ++c.f;
        else if (line.starts_with("l "))
            ++c.l;
        else if (line.starts_with("p "))
            ++c.p;
        else if (line.starts_with("o "))
            ++c.o;
    }
    return c;
}

// How many of `r`'s warnings contain `piece`.
inline std::size_t countWarnings(const ExportResult& r, const std::string& piece) {
    std::size_t n = 0;
    for (const auto& w : r.warnings)
        if (w.find(piece) != std::string::npos) ++n;
    return n;
}

}  // namespace meshscope::test
