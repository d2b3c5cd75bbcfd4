// Posing benchmarks: one full pose update (every FACS control → face-bone transforms → world and
// skinning matrices → skinned positions and normals) on a generated 100 000-vertex mesh with four
// influences per vertex (target ≤ 4 ms on one core), and on the largest real FACS head in the
// corpus (target ≤ 1 ms). The corpus is found through $MESHSCOPE_CORPUS or ../shared/corpus.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <filesystem>
#include <optional>
#include <random>

#include "meshscope/core/decode.h"
#include "meshscope/core/pose.h"

using namespace meshscope;

namespace {

// A generated rig shaped like a real head's: 50 controls, 48 two-pose and 7 three-pose
// correctives (105 columns), 46 face bones, all of them in the skeleton.
struct Generated {
    Skeleton skeleton;
    FacsRig rig;
    Mesh mesh;
};

Generated makeGenerated(std::size_t vertexCount) {
    Generated g;
    std::mt19937 rng(1234);
    std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
    constexpr int kBones = 64, kFaceBones = 46;
    for (int i = 0; i < kBones; ++i) {
        Bone b;
        b.name = "Bone" + std::to_string(i);
        b.parent = i == 0 ? -1 : (i - 1) / 2;  // a binary tree
        b.world = translationMatrix({unit(rng), unit(rng), unit(rng)}) *
                  eulerXyzDegrees({unit(rng) * 30, unit(rng) * 30, unit(rng) * 30});
        g.skeleton.bones.push_back(std::move(b));
    }
    const auto table = facsControlTable();
    for (const auto& c : table) g.rig.controlNames.emplace_back(c.abbreviation);
    for (std::uint16_t i = 0; i < 48; ++i)
        g.rig.correctives.push_back({i, std::uint16_t((i + 1) % 50)});
    for (std::uint16_t i = 0; i < 7; ++i)
        g.rig.correctives.push_back({i, std::uint16_t(i + 10), std::uint16_t(i + 20)});
    for (int i = 0; i < kFaceBones; ++i) g.rig.boneNames.push_back("Bone" + std::to_string(i + 10));
    g.rig.rows = kFaceBones;
    g.rig.cols = std::uint32_t(g.rig.columnCount());
    for (int ch = 0; ch < 6; ++ch) {
        g.rig.channels[std::size_t(ch)].resize(std::size_t(g.rig.rows) * g.rig.cols);
        for (float& v : g.rig.channels[std::size_t(ch)]) v = unit(rng) * (ch < 3 ? 0.02f : 5.0f);
    }
    g.mesh.positions.resize(vertexCount);
    g.mesh.normals.resize(vertexCount);
    g.mesh.skin.resize(vertexCount);
    std::uniform_int_distribution<int> bone(0, kBones - 1);
    for (std::size_t v = 0; v < vertexCount; ++v) {
        g.mesh.positions[v] = {unit(rng), unit(rng), unit(rng)};
        g.mesh.normals[v] = {0, 1, 0};
        float w[4], sum = 0;
        for (float& x : w) sum += x = 0.1f + std::abs(unit(rng));
        for (int k = 0; k < 4; ++k) {
            g.mesh.skin[v].joints[std::size_t(k)] = std::uint16_t(bone(rng));
            g.mesh.skin[v].weights[std::size_t(k)] = w[k] / sum;
        }
    }
    return g;
}

const Generated& generated() {
    static const Generated g = makeGenerated(100'000);
    return g;
}

void BM_PoseUpdate_Generated100k(benchmark::State& state) {
    const Generated& g = generated();
    PoseEvaluator eval(g.skeleton, &g.rig);
    std::vector<float> weights(g.rig.controlNames.size(), 1.0f);
    std::vector<Vec3> positions, normals;
    for (auto _ : state) {
        eval.update(Pose{}, weights);
        eval.skin(g.mesh, positions, &normals);
        benchmark::DoNotOptimize(positions.data());
        benchmark::DoNotOptimize(normals.data());
    }
    state.SetItemsProcessed(state.iterations() * std::int64_t(g.mesh.positions.size()));
    state.counters["vertices"] = double(g.mesh.positions.size());
}
BENCHMARK(BM_PoseUpdate_Generated100k)->Unit(benchmark::kMillisecond);

void BM_SkinPositionsOnly_Generated100k(benchmark::State& state) {
    const Generated& g = generated();
    PoseEvaluator eval(g.skeleton, &g.rig);
    std::vector<float> weights(g.rig.controlNames.size(), 0.5f);
    eval.update(Pose{}, weights);
    std::vector<Vec3> positions;
    for (auto _ : state) {
        skinVertices(g.mesh, eval.skinning(), positions, nullptr);
        benchmark::DoNotOptimize(positions.data());
    }
    state.SetItemsProcessed(state.iterations() * std::int64_t(g.mesh.positions.size()));
}
BENCHMARK(BM_SkinPositionsOnly_Generated100k)->Unit(benchmark::kMillisecond);

void BM_ComposeFacs_Generated(benchmark::State& state) {
    const Generated& g = generated();
    std::vector<float> weights(g.rig.controlNames.size(), 1.0f);
    FacsBonePose pose;
    for (auto _ : state) {
        composeFacs(g.rig, weights, pose);
        benchmark::DoNotOptimize(pose.bones.data());
    }
}
BENCHMARK(BM_ComposeFacs_Generated)->Unit(benchmark::kMicrosecond);

std::optional<std::filesystem::path> corpusDir() {
    if (const char* env = std::getenv("MESHSCOPE_CORPUS"); env && *env) return env;
    for (const char* rel : {"../shared/corpus", "../../shared/corpus", "../../../shared/corpus"})
        if (std::filesystem::is_directory(rel)) return std::filesystem::path(rel);
    return std::nullopt;
}

// The real head with FACS and the most vertices (MANIFEST.md: the v5/v7 files with FACS).
struct RealHead {
    Asset asset;
    std::string name;
    int mesh = -1;
};

const RealHead& largestRealHead() {
    static const RealHead head = [] {
        RealHead best;
        const auto corpus = corpusDir();
        if (!corpus || !std::filesystem::is_directory(*corpus / "roblox-mesh")) return best;
        for (const auto& e :
             std::filesystem::recursive_directory_iterator(*corpus / "roblox-mesh")) {
            if (!e.is_regular_file()) continue;
            DecodeResult r = decodeFile(e.path().string());
            if (!r.ok()) continue;
            for (std::size_t m = 0; m < r.asset.meshes.size(); ++m) {
                const Mesh& mesh = r.asset.meshes[m];
                if (mesh.facs < 0 || mesh.skeleton < 0) continue;
                if (best.mesh >= 0 &&
                    mesh.vertexCount() <= best.asset.meshes[std::size_t(best.mesh)].vertexCount())
                    continue;
                best.name = e.path().filename().string();
                best.mesh = int(m);
                best.asset = r.asset;
            }
        }
        return best;
    }();
    return head;
}

void BM_PoseUpdate_LargestRealHead(benchmark::State& state) {
    const RealHead& head = largestRealHead();
    if (head.mesh < 0) {
        state.SkipWithError("no decodable FACS head in the corpus (set MESHSCOPE_CORPUS)");
        return;
    }
    const Mesh& mesh = head.asset.meshes[std::size_t(head.mesh)];
    const FacsRig& rig = head.asset.facs[std::size_t(mesh.facs)];
    PoseEvaluator eval(head.asset.skeletons[std::size_t(mesh.skeleton)], &rig);
    std::vector<float> weights(rig.controlNames.size(), 1.0f);
    std::vector<Vec3> positions, normals;
    for (auto _ : state) {
        eval.update(Pose{}, weights);
        eval.skin(mesh, positions, &normals);
        benchmark::DoNotOptimize(positions.data());
    }
    state.SetLabel(head.name);
    state.counters["vertices"] = double(mesh.vertexCount());
    state.counters["faceBones"] = double(rig.rows);
    state.counters["columns"] = double(rig.cols);
}
BENCHMARK(BM_PoseUpdate_LargestRealHead)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
