// Writers of CSG union blobs (fixtures and round trips), and the model side's blob → mesh helper.
#include <cmath>
#include <cstring>

#include "formats/roblox_csg/csg_decoder.h"
#include "meshscope/core/decode.h"
#include "meshscope/core/roblox_csg.h"

namespace meshscope {

namespace {

template <typename T>
void put(Bytes& out, T v) {
    const auto* p = reinterpret_cast<const std::uint8_t*>(&v);
    out.insert(out.end(), p, p + sizeof(T));
}

std::uint32_t normalId(const Vec3& n) {
    const float ax = std::fabs(n.x), ay = std::fabs(n.y), az = std::fabs(n.z);
    if (ax >= ay && ax >= az) return n.x >= 0 ? 1 : 4;
    if (ay >= az) return n.y >= 0 ? 2 : 5;
    return n.z >= 0 ? 3 : 6;
}

void putHeader(Bytes& out, const char* magic, std::uint32_t version) {
    out.insert(out.end(), magic, magic + 6);
    put(out, version);
}

}  // namespace

Bytes writeCsgGraphics(const Mesh& mesh, const CsgGraphicsWriteOptions& options) {
    if (options.version != 2 && options.version != 4) return {};
    const std::size_t n = mesh.positions.size();
    if (n > UINT32_MAX || mesh.indices.size() > UINT32_MAX) return {};
    Bytes out;
    out.reserve(csg::kHeaderSize + 32 + 12 + n * 84 + mesh.indices.size() * 4 + 8);
    putHeader(out, "CSGMDL", std::uint32_t(options.version));
    for (std::size_t i = 0; i < 16; ++i)
        out.push_back(i < options.hash.size() ? std::uint8_t(options.hash[i]) : 0);
    for (std::size_t i = 0; i < 16; ++i)
        out.push_back(i < options.hashExtra.size() ? options.hashExtra[i] : 0);
    put(out, std::uint32_t(n));
    put(out, std::uint32_t(84));
    for (std::size_t i = 0; i < n; ++i) {
        const Vec3 p = mesh.positions[i];
        const Vec3 nm = i < mesh.normals.size() ? mesh.normals[i] : Vec3{0, 1, 0};
        const Rgba8 c = i < mesh.colors.size() ? mesh.colors[i] : Rgba8{255, 255, 255, 255};
        const Vec2 uv = i < mesh.uv0.size() ? mesh.uv0[i] : Vec2{0, 0};
        const Vec4 t = i < mesh.tangents.size() ? mesh.tangents[i] : Vec4{0, 0, 0, 1};
        put(out, p.x), put(out, p.y), put(out, p.z);
        put(out, nm.x), put(out, nm.y), put(out, nm.z);
        out.push_back(c.r), out.push_back(c.g), out.push_back(c.b), out.push_back(c.a);
        put(out, i < options.normalIds.size() ? std::uint32_t(options.normalIds[i]) : normalId(nm));
        put(out, uv.x), put(out, uv.y);
        out.insert(out.end(), 16, 0);
        put(out, t.x), put(out, t.y), put(out, t.z);
        out.insert(out.end(), 16, 0);
    }
    put(out, std::uint32_t(mesh.indices.size()));
    for (std::uint32_t i : mesh.indices) put(out, i);
    if (options.version == 4) {
        put(out, std::uint32_t(options.extra.size()));
        for (std::uint32_t v : options.extra) put(out, v);
    }
    for (std::size_t i = 0; i < out.size(); ++i) out[i] ^= csg::keyAt(i);
    return out;
}

Bytes writeCsgPhysics(const std::vector<Mesh>& hulls, int version) {
    if (version != 3 && version != 5) return {};
    Bytes out;
    putHeader(out, "CSGPHS", std::uint32_t(version));
    for (const Mesh& h : hulls) {
        static constexpr std::uint8_t kPrefix[40] = {
            16, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,    0,
            16, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x80, 0x3f};
        out.insert(out.end(), kPrefix, kPrefix + 40);
        put(out, std::uint32_t(h.positions.size() * 3));
        put(out, std::uint32_t(4));
        for (const Vec3& p : h.positions) put(out, p.x), put(out, p.y), put(out, p.z);
        put(out, std::uint32_t(h.indices.size()));
        for (std::uint32_t i : h.indices) put(out, i);
    }
    return out;
}

CsgMeshResult decodeCsgMesh(std::span<const std::uint8_t> blob) {
    CsgMeshResult out;
    DecodeResult r = decodeAs("roblox-csg", blob);
    out.format = r.asset.version;
    if (out.format == "CSGK") {
        out.reference = true;
        if (!r.asset.nodes.empty())
            if (auto key = r.asset.property(0, "key"))
                if (auto* s = std::get_if<std::string>(&key->value)) out.key = *s;
        out.why = "is a CSGK reference (" + out.key + ") to geometry stored outside this file";
        return out;
    }
    if (!r.ok()) {
        out.why = "does not decode (" + r.error->toString() + ")";
        return out;
    }
    Mesh merged;
    for (Mesh& m : r.asset.meshes) {
        if (m.indices.empty()) continue;
        if (r.asset.meshes.size() == 1) {
            merged = std::move(m);
            break;
        }
        // Physics hulls: one mesh, positions only.
        const std::uint32_t base = std::uint32_t(merged.positions.size());
        merged.positions.insert(merged.positions.end(), m.positions.begin(), m.positions.end());
        for (std::uint32_t i : m.indices) merged.indices.push_back(base + i);
    }
    if (merged.indices.empty()) {
        out.why = "(" + out.format + ") holds no triangles";
        return out;
    }
    merged.name = "union";
    merged.node = -1;
    merged.lods.clear();
    merged.surfaces.clear();
    merged.lods.push_back({0, std::uint32_t(merged.indices.size() / 3), "LOD0"});
    merged.computeBounds();
    out.mesh = std::move(merged);
    return out;
}

}  // namespace meshscope
