// CSG unions in a model (see roblox_parts.h): a union part's graphics blob found in its
// properties (or through its AssetId), decoded by the roblox-csg family and placed like a
// MeshPart's mesh, fitted from its own bounds to the part's Size.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>

#include "meshscope/core/asset_resolver.h"
#include "meshscope/core/decode.h"
#include "meshscope/core/roblox_csg.h"
#include "meshscope/core/roblox_parts.h"

namespace meshscope {

namespace {

// A property value's bytes: BinaryString values are strings or byte vectors, SharedString
// values refer to the asset's table of shared strings (stored once).
std::span<const std::uint8_t> blobOf(const Asset& asset, const Value& v) {
    if (const auto* s = std::get_if<std::string>(&v))
        return {reinterpret_cast<const std::uint8_t*>(s->data()), s->size()};
    if (std::holds_alternative<SharedStringRef>(v)) {
        const std::string_view text = asset.textOf(v);
        return {reinterpret_cast<const std::uint8_t*>(text.data()), text.size()};
    }
    if (const auto* b = std::get_if<Bytes>(&v)) return {b->data(), b->size()};
    return {};
}

// Looks for a geometry blob in MeshData2, then MeshData, of `node`. Fills `out` and returns true
// with a mesh; else leaves the reason in out.why (true when a blob was found at all).
bool fromProperties(const Asset& asset, int node, UnionMesh& out, bool& reference,
                    UnionBlobCache* cache = nullptr) {
    for (const char* name : {"MeshData2", "MeshData"}) {
        const auto p = asset.property(node, name);
        if (!p) continue;
        const auto blob = blobOf(asset, p->value);
        if (blob.empty()) continue;
        // A shared string is decoded once per cache; other values each time.
        const auto* shared = std::get_if<SharedStringRef>(&p->value);
        UnionBlobCache::Entry decoded;
        UnionBlobCache::Entry* r = &decoded;
        bool fresh = true;
        if (cache && shared) {
            const auto [it, added] = cache->shared.try_emplace(shared->index);
            r = &it->second;
            fresh = added;
        }
        if (fresh) {
            CsgMeshResult d = decodeCsgMesh(blob);
            r->mesh = std::move(d.mesh);
            r->format = std::move(d.format);
            r->why = std::move(d.why);
            r->reference = d.reference;
        }
        out.format = r->format;
        if (r->mesh) {
            out.local = r == &decoded ? std::move(r->mesh) : r->mesh;
            out.source = name;
            return true;
        }
        reference = reference || r->reference;
        if (out.why.empty()) out.why = "its " + std::string(name) + " blob " + r->why;
    }
    return false;
}

std::optional<Bytes> readCapped(const std::filesystem::path& path, std::uint64_t cap) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return std::nullopt;
    in.seekg(0, std::ios::end);
    const std::streamoff size = in.tellg();
    if (size < 0 || std::uint64_t(size) > cap) return std::nullopt;
    in.seekg(0);
    Bytes b(static_cast<std::size_t>(size));
    if (size > 0 && !in.read(reinterpret_cast<char*>(b.data()), size)) return std::nullopt;
    return b;
}

bool fromAssetId(const Asset& asset, int node, const AssetResolver& resolver, UnionMesh& out) {
    const auto id = asset.property(node, "AssetId");
    const std::string* ref = id ? std::get_if<std::string>(&id->value) : nullptr;
    if (!ref || ref->empty()) return false;
    const AssetResolution res = resolver.resolve(*ref);
    if (!res.ok()) {
        out.why += (out.why.empty() ? "" : "; ") + std::string("its AssetId ") + *ref +
                   " is not in the asset folders";
        return false;
    }
    const auto bytes = readCapped(res.path, 512ull << 20);
    if (!bytes) {
        out.why += "; " + res.path.string() + " cannot be read";
        return false;
    }
    const std::string source = "AssetId " + res.path.string();
    const SniffResult sniffed = sniff(*bytes, res.path.string());
    if (sniffed.decoder && std::string(sniffed.decoder->id) == "roblox-csg") {
        CsgMeshResult r = decodeCsgMesh(*bytes);
        out.format = r.format;
        if (r.mesh) {
            out.local = std::move(r.mesh);
            out.source = source;
            return true;
        }
        out.why += "; the blob in " + res.path.string() + " " + r.why;
        return false;
    }
    // A model (PartOperationAsset): the first instance holding a graphics blob.
    DecodeResult d = decodeBytes(*bytes, {.fileName = res.path.string()});
    for (std::size_t n = 0; n < d.asset.nodes.size(); ++n) {
        UnionMesh inner;
        bool reference = false;
        if (fromProperties(d.asset, int(n), inner, reference)) {
            out.local = std::move(inner.local);
            out.format = inner.format;
            out.source = source + " › " + std::string(d.asset.nameOrKind(int(n)));
            return true;
        }
    }
    out.why += "; " + res.path.string() + " holds no union geometry";
    return false;
}

}  // namespace

bool isUnionClass(std::string_view c) {
    return c == "UnionOperation" || c == "NegateOperation" || c == "IntersectOperation" ||
           c == "PartOperation";
}

Mesh placeUnionMesh(const Mesh& local, const RobloxPart& part) {
    RobloxPart fitted = part;
    fitted.specialMesh = false;  // fitted from the mesh's bounds to Size, like a MeshPart
    fitted.meshScale = {1, 1, 1};
    fitted.meshOffset = {};
    Mesh placed = placePartMesh(local, fitted);
    placed.name = "union";
    if (!part.usePartColor && local.colors.size() == local.positions.size() &&
        placed.colors.size() == local.colors.size()) {
        const float a = std::clamp(1.0f - part.transparency, 0.0f, 1.0f);
        for (std::size_t i = 0; i < placed.colors.size(); ++i) {
            const Rgba8 c = local.colors[i];
            placed.colors[i] = {c.r, c.g, c.b, std::uint8_t(std::lround(a * float(c.a)))};
        }
    }
    return placed;
}

UnionMesh unionPartMesh(const Asset& asset, const RobloxPart& part, const AssetResolver* resolver,
                        UnionBlobCache* cache) {
    UnionMesh out;
    try {
        if (part.node < 0 || std::size_t(part.node) >= asset.nodes.size()) {
            out.why = "not a node of this asset";
            return out;
        }
        bool reference = false;
        bool found = fromProperties(asset, part.node, out, reference, cache);
        if (!found && resolver) found = fromAssetId(asset, part.node, *resolver, out);
        if (!found) {
            if (out.why.empty()) {
                const auto id = asset.property(part.node, "AssetId");
                const std::string* ref = id ? std::get_if<std::string>(&id->value) : nullptr;
                out.why = ref && !ref->empty()
                              ? "its geometry is outside this file (AssetId " + *ref + ")"
                              : "it holds no union geometry (MeshData and MeshData2 are empty)";
            }
            return out;
        }
        out.why.clear();
        out.placed = placeUnionMesh(*out.local, part);
    } catch (const std::exception& e) {
        out.local.reset();
        out.placed.reset();
        out.why = std::string("its union geometry could not be built: ") + e.what();
    }
    return out;
}

std::vector<Mesh> unionPhysicsMeshes(const Asset& asset, const std::vector<RobloxPart>& parts) {
    std::vector<Mesh> out;
    try {
        for (const RobloxPart& part : parts) {
            if (part.node < 0 || std::size_t(part.node) >= asset.nodes.size() ||
                !isUnionClass(asset.kind(part.node)) || part.transparency >= 0.999f)
                continue;
            const auto p = asset.property(part.node, "PhysicsData");
            if (!p) continue;
            const auto blob = blobOf(asset, p->value);
            if (blob.empty()) continue;
            CsgMeshResult r = decodeCsgMesh(blob);
            if (!r.mesh || r.mesh->indices.empty()) continue;
            RobloxPart plain = part;
            plain.usePartColor = true;
            Mesh placed = placeUnionMesh(*r.mesh, plain);
            placed.name = std::string(asset.nameOrKind(part.node)) + " physics";
            placed.node = part.node;
            placed.colors.clear();
            out.push_back(std::move(placed));
        }
    } catch (const std::bad_alloc&) {
        // Out of memory part-way: the hulls so far.
    }
    return out;
}

}  // namespace meshscope
