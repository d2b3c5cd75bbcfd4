// Mesh references of a Roblox model's parts resolved, decoded and placed (see part_meshes.h).
#include "meshscope/core/part_meshes.h"

#include <algorithm>
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
    out.parts = extractRobloxParts(asset, options.allServices);
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
    UnionBlobCache unionBlobs;               // MeshData2 blobs shared by many unions
    std::vector<std::string> unionsWithout;  // "name: why", for one warning
    std::size_t firstUnionWithout = 0;
    for (std::size_t i = 0; i < out.parts.size(); ++i) {
        RobloxPart& p = out.parts[i];
        if (isUnionClass(p.className) && p.transparency < 0.999f) {
            // NegateOperations only cut other parts: Roblox does not draw them.
            if (p.className == "NegateOperation") {
                p.transparency = 1;
                continue;
            }
            if (options.cancel && options.cancel->load(std::memory_order_relaxed)) {
                out.cancelled = true;
                break;
            }
            RobloxPart at = p;
            if (options.partFrame) at.cframe = CFrame{};
            UnionMesh u = unionPartMesh(asset, at, &resolver, &unionBlobs);
            if (u.ok()) {
                PartMesh placed{i, std::move(*u.placed), -1};
                placed.mesh.name = std::string(asset.nameOrKind(p.node));
                out.meshes.push_back(std::move(placed));
                continue;
            }
            if (unionsWithout.empty()) firstUnionWithout = i;
            unionsWithout.push_back(label(asset, p.node) + ": " + u.why);
            // Not its geometry: its Size box, see-through, so it does not pass for the shape.
            p.transparency = std::max(p.transparency, 0.7f);
            continue;
        }
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
        RobloxPart at = p;
        if (options.partFrame) at.cframe = CFrame{};
        PartMesh placed{i, placePartMesh(loaded.mesh, at, options.lod), -1};
        placed.lodCount = std::max(1, int(loaded.mesh.lods.size()));
        placed.lod = std::min(std::max(options.lod, 0), placed.lodCount - 1);
        if (loaded.skeleton && placed.mesh.skinned()) {
            placed.skeleton = int(out.skeletons.size());
            placed.mesh.skeleton = placed.skeleton;
            out.skeletons.push_back(
                placePartSkeleton(*loaded.skeleton, partMeshPlacement(loaded.mesh, at)));
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
    if (!unionsWithout.empty()) {
        // Said once, listing the unions (the first few by name and reason).
        std::string message = std::to_string(unionsWithout.size()) +
                              (unionsWithout.size() == 1 ? " union is" : " unions are") +
                              " drawn as translucent boxes of their Size: their geometry is not in "
                              "this file or the asset folders (";
        const std::size_t listed = std::min<std::size_t>(unionsWithout.size(), 8);
        for (std::size_t k = 0; k < listed; ++k) message += (k ? "; " : "") + unionsWithout[k];
        if (unionsWithout.size() > listed)
            message += "; " + std::to_string(unionsWithout.size() - listed) + " more";
        message += ")";
        const RobloxPart& first = out.parts[firstUnionWithout];
        const std::uint64_t at = first.node >= 0 ? asset.nodes[std::size_t(first.node)].offset : 0;
        out.diagnostics.push_back(
            {Severity::Warning, kUnionUnresolved, at, label(asset, first.node), message});
    }
    // Said once: parts that exist but are not in the world.
    out.outsideWorkspace = options.allServices ? 0 : countPartsOutsideWorkspace(asset);
    if (const std::size_t outside = out.outsideWorkspace; outside > 0)
        out.diagnostics.push_back(
            {Severity::Info, kPartsOutsideWorkspace, 0, "",
             std::to_string(outside) +
                 " part(s) outside Workspace (ReplicatedStorage, ServerStorage ...) are not "
                 "drawn, as Roblox Studio draws the place"});
    return out;
}

}  // namespace meshscope
