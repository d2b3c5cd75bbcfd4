// Mesh references of a Roblox model's parts resolved, decoded and placed (see part_meshes.h).
#include "meshscope/core/part_meshes.h"

#include <map>
#include <optional>
#include <string>

#include "meshscope/core/asset_resolver.h"
#include "meshscope/core/decode.h"

namespace meshscope {

namespace {

// What one referenced file gave: its first mesh (with triangles) and that mesh's skeleton.
struct Loaded {
    Mesh mesh;
    std::optional<Skeleton> skeleton;
};

// A reference not drawn: why, and the parts that use it.
struct Problem {
    const char* code = kMeshUnresolved;
    std::string why;
    std::size_t firstPart = 0;
    std::size_t parts = 0;
};

std::string label(const Asset& asset, int node) {
    return std::string(asset.nameOrKind(node));
}

}  // namespace

PartMeshes resolvePartMeshes(const Asset& asset, const PartMeshOptions& options) {
    PartMeshes out;
    if (!isRobloxModel(asset)) return out;
    out.parts = extractRobloxParts(asset);
    const AssetResolver resolver(options.folders);
    DecodeOptions decode;
    decode.limits = options.limits;
    decode.cancel = options.cancel;
    std::map<std::string, std::optional<Loaded>> files;  // resolved path → what it gave
    std::map<std::string, Problem> problems;             // reference → why it was not drawn
    std::vector<std::string> problemOrder;               // references in order of first use
    const auto fail = [&](std::size_t part, const char* code, std::string why) {
        auto [it, fresh] = problems.try_emplace(out.parts[part].meshId);
        if (fresh) {
            it->second = {code, std::move(why), part, 0};
            problemOrder.push_back(it->first);
        }
        ++it->second.parts;
    };
    for (std::size_t i = 0; i < out.parts.size(); ++i) {
        const RobloxPart& p = out.parts[i];
        if (p.meshId.empty() || p.transparency >= 0.999f) continue;
        if (options.cancel && options.cancel->load(std::memory_order_relaxed)) {
            out.cancelled = true;
            break;
        }
        ++out.references;
        const AssetResolution r = resolver.resolve(p.meshId);
        if (!r.ok()) {
            fail(i, kMeshUnresolved, r.warning);
            continue;
        }
        auto [it, fresh] = files.try_emplace(r.path.string());
        if (fresh) {
            DecodeResult d = decodeFile(r.path.string(), decode);
            if (!d.asset.meshes.empty() && d.asset.meshes.front().triangleCount() > 0) {
                Loaded loaded{std::move(d.asset.meshes.front()), {}};
                const int s = loaded.mesh.skeleton;
                if (loaded.mesh.skinned() && s >= 0 && s < int(d.asset.skeletons.size()))
                    loaded.skeleton = std::move(d.asset.skeletons[std::size_t(s)]);
                it->second = std::move(loaded);
            } else {
                fail(i, kMeshEmpty,
                     r.path.string() + " holds no mesh" +
                         (d.error ? " (" + d.error->toString() + ")" : std::string()));
                continue;
            }
        }
        if (!it->second) {
            fail(i, kMeshEmpty, r.path.string() + " holds no mesh");
            continue;
        }
        const Loaded& loaded = *it->second;
        PartMesh placed{i, placePartMesh(loaded.mesh, p), -1};
        if (loaded.skeleton && placed.mesh.skinned()) {
            placed.skeleton = int(out.skeletons.size());
            placed.mesh.skeleton = placed.skeleton;
            out.skeletons.push_back(
                placePartSkeleton(*loaded.skeleton, partMeshPlacement(loaded.mesh, p)));
        } else {
            placed.mesh.skin.clear();
            placed.mesh.skeleton = -1;
        }
        out.meshes.push_back(std::move(placed));
    }
    for (const std::string& reference : problemOrder) {
        const Problem& problem = problems[reference];
        const RobloxPart& first = out.parts[problem.firstPart];
        std::string message = label(asset, first.node) + ": " + problem.why;
        if (problem.parts > 1)
            message += " (" + std::to_string(problem.parts) + " parts use " + reference + ")";
        // "Sword › Mesh › MeshId": the part, the SpecialMesh holding the id when it is a child.
        std::string context = label(asset, first.node);
        if (first.meshNode >= 0 && first.meshNode != first.node)
            context = joinPath(context, label(asset, first.meshNode));
        context = joinPath(context, "MeshId");
        out.diagnostics.push_back(
            {Severity::Warning, problem.code, first.meshIdOffset, std::move(context), message});
    }
    return out;
}

}  // namespace meshscope
