// Open-to-first-frame of a large Roblox place in the viewer (`meshscope --screenshot`), each run a
// fresh process under /usr/bin/time -v: wall time, CPU time (user + system, every thread) and peak
// RSS, medians over the runs (target: first frame within 1.5 s, issue #20).
//
// The place stands in for a real one of 57 000 instances whose 2.4 MB shared-string table holds
// MeshPart and union data (not in the corpus): made here with core's writers, it has a Workspace
// of building Models (Parts, MeshParts whose MeshIds resolve to nothing and are drawn as boxes,
// CSG unions whose MeshData2 is a SharedString, Decals, WeldConstraints, Attachments, Scripts),
// a ServerScriptService of Scripts and Lighting. Shared strings are used by many values each:
// about 100 distinct union meshes (CSGMDL 4) and 200 distinct PhysicalConfigData blobs (CSGPHS 3
// hulls). Deterministic.
//   bench_place_first_frame --write FILE [--instances N]     writes the place only
//   bench_place_first_frame [--viewer PATH] [--baseline PATH] [--runs N] [--instances N]
//                           [--size WxH]
// With --baseline, that viewer runs too, alternately with --viewer, so that load on the machine
// affects both alike. Run it under a display (xvfb-run) with QT3D_RENDERER=opengl.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "bench_process.h"
#include "meshscope/core/mesh_generators.h"
#include "meshscope/core/roblox_csg.h"
#include "meshscope/core/roblox_model_writer.h"

namespace fs = std::filesystem;
using namespace meshscope;

namespace {

struct Rng {
    std::uint32_t seed = 20'260'220;
    float operator()() {
        seed = seed * 1664525u + 1013904223u;
        return float(seed >> 8) / float(1u << 24);
    }
    int below(int n) { return std::min(n - 1, int((*this)() * float(n))); }
};

void add(Asset& a, int node, std::string name, std::string type, Value v) {
    a.propertyList(node).push_back(Property{std::move(name), std::move(type), std::move(v), 0, 0});
}

std::string text(const Bytes& b) {
    return {reinterpret_cast<const char*>(b.data()), b.size()};
}

// The properties every BasePart of a real place carries (about twenty).
void basePart(Asset& a, int node, Rng& rnd, const std::string& name, const CFrame& cf, Vec3 size,
              Vec3 color, double transparency) {
    add(a, node, "Name", "string", name);
    add(a, node, "Anchored", "bool", true);
    add(a, node, "CanCollide", "bool", true);
    add(a, node, "CastShadow", "bool", true);
    add(a, node, "Locked", "bool", rnd() < 0.2f);
    add(a, node, "CFrame", "CFrame", cf);
    add(a, node, "size", "Vector3", size);
    add(a, node, "Color3uint8", "Color3uint8", color);
    add(a, node, "Transparency", "float", transparency);
    add(a, node, "Reflectance", "float", 0.0);
    add(a, node, "Material", "Enum", std::int64_t(rnd() < 0.5f ? 256 : 512));
    add(a, node, "TopSurface", "Enum", std::int64_t(0));
    add(a, node, "BottomSurface", "Enum", std::int64_t(0));
    add(a, node, "CollisionGroup", "string", std::string("Default"));
    add(a, node, "Tags", "string", std::string());
    add(a, node, "AttributesSerialize", "string", std::string());
    add(a, node, "SourceAssetId", "int64", std::int64_t(-1));
}

// A union's graphics: a distorted UV sphere of some detail with vertex colours, as CSGMDL 4.
Bytes unionBlob(Rng& rnd) {
    Asset s = makeUvSphere(6 + rnd.below(8), 10 + rnd.below(10), 1.0f);
    Mesh& m = s.meshes[0];
    const Vec3 stretch{0.5f + rnd(), 0.5f + rnd(), 0.5f + rnd()};
    for (Vec3& p : m.positions) p = {p.x * stretch.x, p.y * stretch.y, p.z * stretch.z};
    const Rgba8 c{std::uint8_t(rnd.below(256)), std::uint8_t(rnd.below(256)), 160, 255};
    m.colors.assign(m.positions.size(), c);
    CsgGraphicsWriteOptions o;
    o.version = 4;
    return writeCsgGraphics(m, o);
}

// A MeshPart's PhysicalConfigData: a few convex hulls, as CSGPHS 3.
Bytes physicsBlob(Rng& rnd) {
    std::vector<Mesh> hulls;
    const int count = 2 + rnd.below(4);
    for (int h = 0; h < count; ++h) {
        Asset s = makeUvSphere(4, 6 + rnd.below(4), 0.3f + rnd());
        Mesh hull;
        const Vec3 offset{rnd() - 0.5f, rnd() - 0.5f, rnd() - 0.5f};
        for (const Vec3& p : s.meshes[0].positions)
            hull.positions.push_back({p.x + offset.x, p.y + offset.y, p.z + offset.z});
        hull.indices = s.meshes[0].indices;
        hulls.push_back(std::move(hull));
    }
    return writeCsgPhysics(hulls, 3);
}

std::string scriptSource(Rng& rnd, int index) {
    std::string s =
        "-- generated script " + std::to_string(index) + "\nlocal part = script.Parent\n";
    const int lines = 10 + rnd.below(60);
    for (int l = 0; l < lines; ++l)
        s += "local v" + std::to_string(l) + " = part:FindFirstChild(\"Item" +
             std::to_string(rnd.below(1000)) + "\") -- " + std::to_string(rnd.below(1 << 20)) +
             "\n";
    return s;
}

// A place of about `instances` instances (see the top of the file).
// `sharedSizes` receives the bytes of the distinct union and PhysicalConfigData blobs.
Asset makeLargePlace(std::size_t instances, std::size_t sharedSizes[2]) {
    Rng rnd;
    Asset a;
    a.format = "roblox-model";
    a.version = "0";
    a.nodes.reserve(instances + 64);
    std::vector<std::string> unions, physics;
    for (int i = 0; i < 100; ++i) unions.push_back(text(unionBlob(rnd)));
    for (int i = 0; i < 200; ++i) physics.push_back(text(physicsBlob(rnd)));
    sharedSizes[0] = sharedSizes[1] = 0;
    for (const std::string& u : unions) sharedSizes[0] += u.size();
    for (const std::string& p : physics) sharedSizes[1] += p.size();

    const int ws = a.addNode("Workspace", "Workspace");
    a.nodes[ws].service = true;
    add(a, ws, "Name", "string", std::string("Workspace"));
    const int lighting = a.addNode("Lighting", "Lighting");
    a.nodes[lighting].service = true;
    add(a, lighting, "Name", "string", std::string("Lighting"));
    const int sss = a.addNode("ServerScriptService", "ServerScriptService");
    a.nodes[sss].service = true;
    add(a, sss, "Name", "string", std::string("ServerScriptService"));
    int scripts = 0;
    auto addScript = [&](int parent) {
        const int s = a.addNode("Script", "Script", parent);
        add(a, s, "Name", "string", "Script" + std::to_string(scripts));
        add(a, s, "Disabled", "bool", false);
        add(a, s, "Source", "ProtectedString", scriptSource(rnd, scripts));
        ++scripts;
    };
    for (int i = 0; i < 200; ++i) addScript(sss);

    const int base = a.addNode("Baseplate", "Part", ws);
    basePart(a, base, rnd, "Baseplate", yawedCFrame({0, -8, 0}, 0), {2400, 16, 2400},
             {0.39f, 0.37f, 0.36f}, 0);
    const int city = a.addNode("City", "Model", ws);
    add(a, city, "Name", "string", std::string("City"));

    // Buildings of about 26 instances each on a square grid, 40 studs apart.
    const std::size_t perBuilding = 26;
    const int side = int(std::ceil(std::sqrt(double(instances) / perBuilding)));
    int building = 0, block = -1;
    while (a.nodes.size() + perBuilding <= instances) {
        if (building % 100 == 0) {
            block = a.addNode("Block", "Model", city);
            add(a, block, "Name", "string", "Block" + std::to_string(building / 100));
        }
        const int gx = building % side, gz = building / side;
        const Vec3 at{(float(gx) - side / 2.0f) * 40, 0, (float(gz) - side / 2.0f) * 40};
        const int model = a.addNode("Building", "Model", block);
        add(a, model, "Name", "string", "Building" + std::to_string(building));
        const float height = 8 + rnd() * 40;
        const Vec3 wall{0.55f + rnd() * 0.4f, 0.55f + rnd() * 0.3f, 0.5f + rnd() * 0.3f};
        std::vector<int> parts;
        // 14 Parts: floor, four walls, roof, eight window ledges and steps.
        for (int p = 0; p < 14; ++p) {
            Vec3 pos = at, size;
            if (p == 0)
                pos.y = 0.5f, size = {30, 1, 30};
            else if (p <= 4) {
                const float s = p % 2 ? 1.f : -1.f;
                pos.y = height / 2;
                if (p <= 2)
                    pos.x += s * 14.5f, size = {1, height, 30};
                else
                    pos.z += s * 14.5f, size = {30, height, 1};
            } else if (p == 5)
                pos.y = height + 0.5f, size = {30, 1, 30};
            else {
                pos.y = 2 + rnd() * height;
                pos.x += (rnd() - 0.5f) * 30;
                pos.z += p % 2 ? 15.5f : -15.5f;
                size = {4 + rnd() * 6, 0.4f, 1};
            }
            const int node = a.addNode("Part", "Part", model);
            basePart(a, node, rnd,
                     p == 0   ? "Floor"
                     : p <= 4 ? "Wall"
                     : p == 5 ? "Roof"
                              : "Ledge",
                     yawedCFrame(pos, 0), size, p >= 1 && p <= 4 ? wall : Vec3{0.3f, 0.3f, 0.32f},
                     0);
            add(a, node, "shape", "Enum", std::int64_t(1));
            parts.push_back(node);
        }
        // 4 MeshParts (lamps and trees around the building); their meshes are not on disk.
        for (int p = 0; p < 4; ++p) {
            const int node = a.addNode("MeshPart", "MeshPart", model);
            const int kind = rnd.below(150);
            const Vec3 size{2 + rnd() * 3, 6 + rnd() * 10, 2 + rnd() * 3};
            const Vec3 pos{at.x + (p % 2 ? 17.f : -17.f), size.y / 2,
                           at.z + (p / 2 ? 17.f : -17.f)};
            basePart(a, node, rnd, p % 2 ? "Lamp" : "Tree", yawedCFrame(pos, rnd() * 360), size,
                     {0.2f, 0.5f + rnd() * 0.3f, 0.2f}, 0);
            add(a, node, "MeshId", "string", "rbxassetid://" + std::to_string(4'000'000 + kind));
            add(a, node, "TextureID", "string", "rbxassetid://" + std::to_string(5'000'000 + kind));
            add(a, node, "InitialSize", "Vector3", size);
            add(a, node, "PhysicalConfigData", "SharedString",
                physics[std::size_t(rnd.below(int(physics.size())))]);
            add(a, node, "CollisionFidelity", "Enum", std::int64_t(1));
            add(a, node, "RenderFidelity", "Enum", std::int64_t(1));
        }
        // Every other building: a union on the roof and a script.
        if (building % 2 == 0) {
            const int node = a.addNode("Union", "UnionOperation", model);
            const Vec3 size{6 + rnd() * 10, 3 + rnd() * 6, 6 + rnd() * 10};
            basePart(a, node, rnd, "Union",
                     yawedCFrame({at.x, height + 1 + size.y / 2, at.z}, rnd() * 90), size,
                     {0.8f, 0.7f, 0.5f}, 0);
            add(a, node, "UsePartColor", "bool", rnd() < 0.5f);
            add(a, node, "MeshData2", "SharedString",
                unions[std::size_t(rnd.below(int(unions.size())))]);
            add(a, node, "PhysicalConfigData", "SharedString",
                physics[std::size_t(rnd.below(int(physics.size())))]);
            add(a, node, "AssetId", "string", std::string());
            addScript(model);
        }
        // 2 Decals, 3 WeldConstraints and an Attachment (not drawn).
        for (int d = 0; d < 2; ++d) {
            const int node = a.addNode("Decal", "Decal", parts[std::size_t(1 + d)]);
            add(a, node, "Name", "string", std::string("Decal"));
            add(a, node, "Texture", "string",
                "rbxassetid://" + std::to_string(6'000'000 + rnd.below(500)));
            add(a, node, "Face", "Enum", std::int64_t(rnd.below(6)));
        }
        for (int w = 0; w < 3; ++w) {
            const int node = a.addNode("WeldConstraint", "WeldConstraint", model);
            add(a, node, "Name", "string", std::string("WeldConstraint"));
            add(a, node, "Part0", "Ref", NodeRef{parts[0]});
            add(a, node, "Part1", "Ref", NodeRef{parts[std::size_t(1 + w)]});
        }
        const int att = a.addNode("Attachment", "Attachment", parts[5]);
        add(a, att, "Name", "string", std::string("Attachment"));
        add(a, att, "CFrame", "CFrame", yawedCFrame({0, 0.5f, 0}, 0));
        ++building;
    }
    while (a.nodes.size() < instances) addScript(sss);
    return a;
}

}  // namespace

int main(int argc, char** argv) {
    fs::path self = fs::absolute(argv[0]).parent_path();
    std::string viewer = (self / ".." / ".." / "app" / "viewer" / "meshscope").string();
    std::string baseline, writeTo, size = "800x600";
    int runs = 3;
    std::size_t instances = 57'000;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string a = argv[i];
        if (a == "--viewer")
            viewer = argv[i + 1];
        else if (a == "--baseline")
            baseline = argv[i + 1];
        else if (a == "--runs")
            runs = std::max(1, std::atoi(argv[i + 1]));
        else if (a == "--instances")
            instances = std::size_t(std::max(100L, std::atol(argv[i + 1])));
        else if (a == "--size")
            size = argv[i + 1];
        else if (a == "--write")
            writeTo = argv[i + 1];
    }
    std::size_t sharedSizes[2];
    const Asset place = makeLargePlace(instances, sharedSizes);
    const RobloxModelWriteResult written = writeRobloxModel(place);
    if (!written.ok()) {
        std::fprintf(stderr, "writer: %s\n", written.error->c_str());
        return 1;
    }
    std::size_t sharedBytes = 0;
    {
        std::vector<std::string_view> seen;
        for (const auto& list : place.propertyLists)
            for (const Property& p : list)
                if (p.type == "SharedString")
                    if (const auto* s = std::get_if<std::string>(&p.value);
                        s && std::find(seen.begin(), seen.end(), *s) == seen.end()) {
                        seen.push_back(*s);
                        sharedBytes += s->size();
                    }
    }
    const fs::path dir = fs::temp_directory_path() / "meshscope_bench_place";
    const fs::path file = writeTo.empty() ? dir / "place.rbxl" : fs::path(writeTo);
    if (file.has_parent_path()) fs::create_directories(file.parent_path());
    std::ofstream(file, std::ios::binary)
        .write(reinterpret_cast<const char*>(written.bytes.data()),
               std::streamsize(written.bytes.size()));
    std::printf(
        "%zu instances, %.2f MB of shared strings (unions %.2f MB, PhysicalConfigData %.2f MB): "
        "%s (%.2f MB)\n",
        place.nodes.size(), double(sharedBytes) / 1e6, double(sharedSizes[0]) / 1e6,
        double(sharedSizes[1]) / 1e6, file.c_str(), double(fs::file_size(file)) / 1e6);
    if (!writeTo.empty()) return 0;

    std::vector<std::string> viewers{viewer};
    if (!baseline.empty()) viewers.push_back(baseline);
    for (const std::string& v : viewers)
        if (!fs::exists(v)) {
            std::fprintf(stderr, "viewer not found: %s (pass --viewer PATH)\n", v.c_str());
            return 1;
        }
    if (!fs::exists("/usr/bin/time")) {
        std::fprintf(stderr, "/usr/bin/time not found (Debian: apt-get install -y time)\n");
        return 1;
    }
    std::printf("%d runs each, %s\n", runs, size.c_str());
    std::vector<bench::Series> series(viewers.size());
    for (int r = 0; r < runs; ++r) {
        for (std::size_t k = 0; k < viewers.size(); ++k) {
            const std::string cmd = "'" + viewers[k] + "' --screenshot '" +
                                    (dir / ("place" + std::to_string(k) + ".png")).string() +
                                    "' --size " + size + " '" + file.string() + "'";
            const auto s = bench::timed(cmd, dir / "time.txt");
            if (!s || s->exitCode != 0) {
                std::fprintf(stderr, "viewer failed (exit %d): %s\n", s ? s->exitCode : -1,
                             cmd.c_str());
                return 1;
            }
            series[k].add(*s);
            std::printf("  run %d %-8s wall %.2f s  CPU %.2f s  peak RSS %.1f MiB\n", r + 1,
                        k ? "baseline" : "viewer", s->wallS, s->cpuS, double(s->rssKb) / 1024.0);
        }
    }
    for (std::size_t k = 0; k < viewers.size(); ++k)
        std::printf("median %-8s wall %.2f s (target <= 1.5)  CPU %.2f s  peak RSS %.1f MiB\n",
                    k ? "baseline" : "viewer", bench::median(series[k].wall),
                    bench::median(series[k].cpu), bench::median(series[k].rss));
    return 0;
}
