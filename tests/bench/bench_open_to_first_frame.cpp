// Open-to-first-frame benchmark: the viewer (`meshscope --screenshot`) on a 1M-triangle FileMesh
// v4 beside F3D (`f3d --output`) on the same geometry as a .glb, each run as a fresh process
// under /usr/bin/time -v: wall time and peak RSS of each, medians over the runs, and the ratios
// (targets, issue #20: Meshscope ≤ 0.7× F3D's time and ≤ 0.7× its peak memory). CPU time (user +
// system, all threads) is printed beside them: on a machine shared with other work it moves less
// than the wall time does.
//
// Both files come from core's makeGridMesh: the FileMesh through core's writer, the .glb written
// here by hand (positions, normals, UVs, vertex colours, 32-bit indices: what the FileMesh holds
// apart from tangents). Run it under a display, e.g. through tests/bench/open_to_first_frame.sh.
//   bench_open_to_first_frame [--viewer PATH] [--f3d PATH] [--runs N] [--triangles N]
//                             [--baseline PATH]
// --baseline: another viewer build, run in the same interleaving and given its own ratios.
// Not a Google Benchmark registration: each sample is a separate process launch. F3D gets a
// camera above the grid (its default looks at the XZ-plane grid edge-on, drawing almost nothing);
// Meshscope frames the asset itself.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "bench_process.h"
#include "meshscope/core/mesh_generators.h"
#include "meshscope/core/roblox_mesh_writer.h"

namespace fs = std::filesystem;
using namespace meshscope;
using bench::median;
using bench::timed;

namespace {

void append(std::vector<std::uint8_t>& out, const void* data, std::size_t n) {
    const auto* p = static_cast<const std::uint8_t*>(data);
    out.insert(out.end(), p, p + n);
}

void pad4(std::vector<std::uint8_t>& out, std::uint8_t with) {
    while (out.size() % 4) out.push_back(with);
}

// A minimal glTF 2.0 binary: one mesh, one node, one primitive.
bool writeGlb(const Mesh& mesh, const fs::path& path) {
    std::vector<std::uint8_t> bin;
    struct View {
        std::size_t offset, length;
    };
    std::vector<View> views;
    auto addView = [&](const void* data, std::size_t n) {
        pad4(bin, 0);
        views.push_back({bin.size(), n});
        append(bin, data, n);
    };
    const std::size_t vc = mesh.positions.size();
    addView(mesh.positions.data(), vc * sizeof(Vec3));
    addView(mesh.normals.data(), vc * sizeof(Vec3));
    addView(mesh.uv0.data(), vc * sizeof(Vec2));
    addView(mesh.colors.data(), vc * sizeof(Rgba8));
    addView(mesh.indices.data(), mesh.indices.size() * sizeof(std::uint32_t));
    pad4(bin, 0);
    const Bounds& b = mesh.bounds;
    std::ostringstream j;
    j << R"({"asset":{"version":"2.0","generator":"meshscope bench"},"scene":0,)"
      << R"("scenes":[{"nodes":[0]}],"nodes":[{"mesh":0}],)"
      << R"("meshes":[{"primitives":[{"attributes":{"POSITION":0,"NORMAL":1,"TEXCOORD_0":2,)"
      << R"("COLOR_0":3},"indices":4,"mode":4}]}],)"
      << R"("buffers":[{"byteLength":)" << bin.size() << "}],\"bufferViews\":[";
    for (std::size_t i = 0; i < views.size(); ++i)
        j << (i ? "," : "") << R"({"buffer":0,"byteOffset":)" << views[i].offset
          << R"(,"byteLength":)" << views[i].length
          << (i == 4 ? R"(,"target":34963})" : R"(,"target":34962})");
    j << "],\"accessors\":["
      << R"({"bufferView":0,"componentType":5126,"count":)" << vc << R"(,"type":"VEC3","min":[)"
      << b.min.x << "," << b.min.y << "," << b.min.z << "],\"max\":[" << b.max.x << "," << b.max.y
      << "," << b.max.z << "]},"
      << R"({"bufferView":1,"componentType":5126,"count":)" << vc << R"(,"type":"VEC3"},)"
      << R"({"bufferView":2,"componentType":5126,"count":)" << vc << R"(,"type":"VEC2"},)"
      << R"({"bufferView":3,"componentType":5121,"normalized":true,"count":)" << vc
      << R"(,"type":"VEC4"},)"
      << R"({"bufferView":4,"componentType":5125,"count":)" << mesh.indices.size()
      << R"(,"type":"SCALAR"}]})";
    std::string json = j.str();
    while (json.size() % 4) json.push_back(' ');
    std::vector<std::uint8_t> out;
    const std::uint32_t header[3] = {0x46546C67u, 2u,
                                     std::uint32_t(12 + 8 + json.size() + 8 + bin.size())};
    append(out, header, sizeof(header));
    const std::uint32_t jsonChunk[2] = {std::uint32_t(json.size()), 0x4E4F534Au};
    append(out, jsonChunk, sizeof(jsonChunk));
    append(out, json.data(), json.size());
    const std::uint32_t binChunk[2] = {std::uint32_t(bin.size()), 0x004E4942u};
    append(out, binChunk, sizeof(binChunk));
    append(out, bin.data(), bin.size());
    std::ofstream f(path, std::ios::binary);
    f.write(reinterpret_cast<const char*>(out.data()), std::streamsize(out.size()));
    return bool(f);
}

}  // namespace

int main(int argc, char** argv) {
    fs::path self = fs::absolute(argv[0]).parent_path();
    std::string viewer = (self / ".." / ".." / "app" / "viewer" / "meshscope").string();
    std::string f3d = "f3d", baseline;
    int runs = 3;
    std::uint32_t triangles = 1'000'000;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string a = argv[i];
        if (a == "--viewer")
            viewer = argv[i + 1];
        else if (a == "--f3d")
            f3d = argv[i + 1];
        else if (a == "--baseline")
            baseline = argv[i + 1];
        else if (a == "--runs")
            runs = std::max(1, std::atoi(argv[i + 1]));
        else if (a == "--triangles")
            triangles = std::uint32_t(std::atol(argv[i + 1]));
    }
    for (const std::string& v : {viewer, baseline})
        if (!v.empty() && !fs::exists(v)) {
            std::fprintf(stderr, "viewer not found: %s (pass --viewer PATH)\n", v.c_str());
            return 1;
        }
    if (std::system(("command -v " + f3d + " >/dev/null 2>&1").c_str()) != 0) {
        std::fprintf(stderr, "f3d not found (Debian: apt-get install -y f3d)\n");
        return 1;
    }
    if (!fs::exists("/usr/bin/time")) {
        std::fprintf(stderr, "/usr/bin/time not found (Debian: apt-get install -y time)\n");
        return 1;
    }
    const fs::path dir = fs::temp_directory_path() / "meshscope_bench_first_frame";
    fs::create_directories(dir);
    Asset asset = makeGridMesh(triangles);
    asset.meshes[0].computeBounds();
    FileMeshWriteOptions options;
    options.version = "4.00";
    const FileMeshWriteResult written = writeFileMesh(asset, 0, options);
    if (!written.ok()) {
        std::fprintf(stderr, "FileMesh writer: %s\n", written.error->c_str());
        return 1;
    }
    const fs::path meshPath = dir / "grid.mesh", glbPath = dir / "grid.glb";
    std::ofstream(meshPath, std::ios::binary)
        .write(reinterpret_cast<const char*>(written.bytes.data()),
               std::streamsize(written.bytes.size()));
    if (!writeGlb(asset.meshes[0], glbPath)) return 1;
    std::printf("%u triangles, %zu vertices: %s (%.1f MB), %s (%.1f MB); %d runs each, 1280x960\n",
                triangles, asset.meshes[0].positions.size(), meshPath.c_str(),
                double(fs::file_size(meshPath)) / 1e6, glbPath.c_str(),
                double(fs::file_size(glbPath)) / 1e6, runs);

    auto viewerCmd = [&](const std::string& program, const char* png) {
        return "'" + program + "' --screenshot '" + (dir / png).string() + "' --size 1280x960 '" +
               meshPath.string() + "'";
    };
    const std::string f3dCmd = f3d + " --output='" + (dir / "f3d.png").string() +
                               "' --resolution=1280,960 --camera-position=0,14,18 "
                               "--camera-focal-point=0,0,0 '" +
                               glbPath.string() + "'";
    // With --baseline, a second viewer build (say, the one before a change) runs in the same
    // interleaving and gets its own ratios.
    std::vector<std::string> cmds = {viewerCmd(viewer, "meshscope.png"), f3dCmd};
    std::vector<const char*> names = {"meshscope", "f3d"};
    if (!baseline.empty()) {
        cmds.push_back(viewerCmd(baseline, "baseline.png"));
        names.push_back("baseline");
    }
    std::vector<bench::Series> series(cmds.size());
    // Interleaved, so that load on the machine affects both alike.
    for (int r = 0; r < runs; ++r) {
        for (std::size_t k = 0; k < cmds.size(); ++k) {
            const auto s = timed(cmds[k], dir / "time.txt");
            if (!s || s->exitCode != 0) {
                std::fprintf(stderr, "%s failed (exit %d): %s\n", names[k], s ? s->exitCode : -1,
                             cmds[k].c_str());
                return 1;
            }
            series[k].add(*s);
            std::printf("  run %d %-9s wall %.2f s  CPU %.2f s  peak RSS %.1f MiB\n", r + 1,
                        names[k], s->wallS, s->cpuS, double(s->rssKb) / 1024.0);
        }
    }
    const double fw = median(series[1].wall), fc = median(series[1].cpu),
                 fr = median(series[1].rss);
    for (std::size_t k = 0; k < cmds.size(); ++k) {
        if (k == 1) continue;
        const double mw = median(series[k].wall), mc = median(series[k].cpu),
                     mr = median(series[k].rss);
        std::printf(
            "median    %s: %.2f s (CPU %.2f s), %.1f MiB   f3d: %.2f s (CPU %.2f s), "
            "%.1f MiB\n",
            names[k], mw, mc, mr, fw, fc, fr);
        std::printf(
            "ratios    time %.2fx (target <= 0.70)   peak memory %.2fx (target <= 0.70)   "
            "CPU time %.2fx\n",
            mw / fw, mr / fr, mc / fc);
    }
    return 0;
}
