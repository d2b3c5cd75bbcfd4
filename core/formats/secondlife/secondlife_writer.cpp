// Second Life mesh asset writer (see secondlife_writer.h): quantizes each face with its own
// domain, compresses every block with zlib and lays them out after a binary LLSD header.
#include "meshscope/core/secondlife_writer.h"

#include <zlib.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>

#include "formats/secondlife/llsd.h"
#include "formats/secondlife/mesh_asset.h"

namespace meshscope {
namespace {

struct WriteError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

std::uint16_t quantize(float v, float lo, float hi) {
    if (!(hi > lo) || !std::isfinite(v)) return 0;
    const double t = (double(v) - lo) / (double(hi) - lo) * 65535.0;
    return static_cast<std::uint16_t>(std::clamp(std::lround(t), 0l, 65535l));
}

void putU16(Bytes& out, std::uint16_t v) {
    out.push_back(static_cast<std::uint8_t>(v & 0xff));
    out.push_back(static_cast<std::uint8_t>(v >> 8));
}

Llsd vec3Llsd(const Vec3& v) {
    return Llsd::reals({v.x, v.y, v.z});
}

Llsd matrixLlsd(const Mat4& m) {
    // Column-major Mat4::m is SL's row-vector array element for element (see mesh_asset.cpp).
    Llsd a = Llsd::array();
    for (float f : m.m) a.push(Llsd::real(f));
    return a;
}

Llsd domain(const Llsd& mn, const Llsd& mx) {
    Llsd d = Llsd::map();
    d.set("Max", mx);
    d.set("Min", mn);
    return d;
}

Bounds boundsOf(const std::vector<Vec3>& pts, const std::vector<std::uint32_t>& ids) {
    Bounds b;
    for (std::uint32_t i : ids) b.add(pts[i]);
    if (!b.valid()) b.min = b.max = Vec3{};
    return b;
}

class Writer {
public:
    Writer(const Asset& a, const SecondLifeWriteOptions& o, SecondLifeWriteResult& r)
        : asset_(a), options_(o), result_(r) {}

    void run() {
        // Meshes by block name.
        std::map<std::string, const Mesh*> meshes;
        for (const auto& name : secondlife::kMeshBlocks) {
            for (const auto& m : asset_.meshes)
                if (m.name == name && m.primitive == Primitive::Triangles) {
                    meshes[std::string(name)] = &m;
                    break;
                }
        }
        if (!meshes.count("high_lod")) {
            for (const auto& m : asset_.meshes) {
                if (m.primitive != Primitive::Triangles || m.indices.empty()) continue;
                meshes["high_lod"] = &m;
                warn("no mesh is named \"high_lod\"; \"" + m.name + "\" is written as high_lod");
                break;
            }
        }
        if (!meshes.count("high_lod")) throw WriteError("the asset has no triangle mesh to write");

        const Mesh& high = *meshes["high_lod"];
        if (options_.skin && high.skinned() && high.skeleton >= 0 &&
            high.skeleton < int(asset_.skeletons.size())) {
            skeleton_ = &asset_.skeletons[high.skeleton];
            skeletonIndex_ = high.skeleton;
        }

        // Blocks in the order a real asset lays them out.
        std::vector<std::pair<std::string, Bytes>> blocks;
        if (skeleton_) blocks.emplace_back("skin", compress(skinBlock()));
        if (options_.physicsConvex) {
            for (const auto& m : asset_.meshes) {
                if (m.name == secondlife::kPhysicsConvex && m.primitive == Primitive::Lines) {
                    blocks.emplace_back("physics_convex", compress(convexBlock(m)));
                    break;
                }
            }
        }
        for (const char* name : {"physics_mesh", "lowest_lod", "low_lod", "medium_lod", "high_lod"})
            if (meshes.count(name)) blocks.emplace_back(name, compress(meshBlock(*meshes[name])));

        Llsd header = Llsd::map();
        if (options_.version) header.set("version", Llsd::integer(*options_.version));
        if (options_.creator) {
            std::uint8_t u[16];
            std::copy(options_.creator->begin(), options_.creator->end(), u);
            header.set("creator", Llsd::uuid(u));
        }
        if (options_.date) header.set("date", Llsd::date(*options_.date));
        std::vector<std::pair<std::string, Llsd>> entries;
        std::uint64_t offset = 0;
        for (const auto& [name, data] : blocks) {
            if (offset + data.size() > INT32_MAX) throw WriteError("asset larger than 2 GiB");
            Llsd e = Llsd::map();
            e.set("offset", Llsd::integer(static_cast<std::int32_t>(offset)));
            e.set("size", Llsd::integer(static_cast<std::int32_t>(data.size())));
            entries.emplace_back(name, std::move(e));
            offset += data.size();
        }
        std::sort(entries.begin(), entries.end(),
                  [](const auto& a, const auto& b) { return a.first < b.first; });
        for (auto& [name, e] : entries) header.set(name, std::move(e));

        Bytes& out = result_.bytes;
        appendBinaryLlsd(out, header);
        for (const auto& [name, data] : blocks) out.insert(out.end(), data.begin(), data.end());
        out.insert(out.end(), options_.trailingBytes.begin(), options_.trailingBytes.end());
    }

private:
    void warn(std::string m) { result_.warnings.push_back(std::move(m)); }

    Bytes compress(const Llsd& doc) {
        Bytes raw;
        if (options_.llsdHeader) raw.assign(kLlsdBinaryHeader.begin(), kLlsdBinaryHeader.end());
        appendBinaryLlsd(raw, doc);
        uLongf len = compressBound(raw.size());
        Bytes out(len);
        if (compress2(out.data(), &len, raw.data(), raw.size(),
                      std::clamp(options_.compressionLevel, 1, 9)) != Z_OK)
            throw WriteError("zlib compression failed");
        out.resize(len);
        return out;
    }

    // -- faces -------------------------------------------------------------------------------

    Llsd meshBlock(const Mesh& m) {
        Llsd faces = Llsd::array();
        if (m.surfaces.empty()) {
            Surface all;
            all.name = "face 0";
            all.vertexCount = std::uint32_t(m.positions.size());
            all.triangleCount = std::uint32_t(m.indices.size() / 3);
            if (!m.lods.empty()) {
                all.firstTriangle = m.lods.front().firstTriangle;
                all.triangleCount = m.lods.front().triangleCount;
            }
            faces.push(face(m, all));
        } else {
            for (const auto& s : m.surfaces) faces.push(face(m, s));
        }
        return faces;
    }

    Llsd face(const Mesh& m, const Surface& s) {
        const std::size_t firstIndex = std::size_t(s.firstTriangle) * 3;
        const std::size_t endIndex =
            std::min(m.indices.size(), firstIndex + std::size_t(s.triangleCount) * 3);
        Llsd f = Llsd::map();
        if (firstIndex >= endIndex) {
            f.set("NoGeometry", Llsd::boolean(true));
            return f;
        }
        // The face's vertices: its own range when every index lies in it (so a decoded asset
        // writes back as it was), else the referenced vertices in index order.
        std::vector<std::uint32_t> verts;
        std::vector<std::uint32_t> local(m.positions.size(), UINT32_MAX);
        bool inRange = s.vertexCount > 0;
        for (std::size_t i = firstIndex; i < endIndex; ++i) {
            const std::uint32_t v = m.indices[i];
            if (v >= m.positions.size()) throw WriteError("index past the vertex count");
            if (v < s.firstVertex || v >= s.firstVertex + s.vertexCount) inRange = false;
        }
        if (inRange) {
            for (std::uint32_t v = s.firstVertex; v < s.firstVertex + s.vertexCount; ++v) {
                local[v] = std::uint32_t(verts.size());
                verts.push_back(v);
            }
        } else {
            std::vector<std::uint32_t> used(m.indices.begin() + firstIndex,
                                            m.indices.begin() + endIndex);
            std::sort(used.begin(), used.end());
            used.erase(std::unique(used.begin(), used.end()), used.end());
            for (std::uint32_t v : used) {
                local[v] = std::uint32_t(verts.size());
                verts.push_back(v);
            }
        }
        if (verts.size() > 65536)
            throw WriteError("face \"" + s.name + "\" has " + std::to_string(verts.size()) +
                             " vertices; Second Life indices are 16-bit (65,536 at most)");

        if (options_.normals && m.normals.size() == m.positions.size()) {
            Bytes n;
            n.reserve(verts.size() * 6);
            for (std::uint32_t v : verts) {
                putU16(n, quantize(m.normals[v].x, -1, 1));
                putU16(n, quantize(m.normals[v].y, -1, 1));
                putU16(n, quantize(m.normals[v].z, -1, 1));
            }
            f.set("Normal", Llsd::binary(std::move(n)));
        }
        const Bounds b = boundsOf(m.positions, verts);
        Bytes p;
        p.reserve(verts.size() * 6);
        for (std::uint32_t v : verts) {
            putU16(p, quantize(m.positions[v].x, b.min.x, b.max.x));
            putU16(p, quantize(m.positions[v].y, b.min.y, b.max.y));
            putU16(p, quantize(m.positions[v].z, b.min.z, b.max.z));
        }
        f.set("Position", Llsd::binary(std::move(p)));
        f.set("PositionDomain", domain(vec3Llsd(b.min), vec3Llsd(b.max)));
        if (options_.texCoords && m.uv0.size() == m.positions.size()) {
            // Back to SL's V-up convention.
            Vec2 lo{INFINITY, INFINITY}, hi{-INFINITY, -INFINITY};
            for (std::uint32_t v : verts) {
                const Vec2 t{m.uv0[v].x, 1.0f - m.uv0[v].y};
                if (!std::isfinite(t.x) || !std::isfinite(t.y)) continue;
                lo = {std::min(lo.x, t.x), std::min(lo.y, t.y)};
                hi = {std::max(hi.x, t.x), std::max(hi.y, t.y)};
            }
            if (!(lo.x <= hi.x)) lo = hi = Vec2{};
            Bytes t;
            t.reserve(verts.size() * 4);
            for (std::uint32_t v : verts) {
                putU16(t, quantize(m.uv0[v].x, lo.x, hi.x));
                putU16(t, quantize(1.0f - m.uv0[v].y, lo.y, hi.y));
            }
            f.set("TexCoord0", Llsd::binary(std::move(t)));
            f.set("TexCoord0Domain", domain(Llsd::reals({lo.x, lo.y}), Llsd::reals({hi.x, hi.y})));
        }
        Bytes tri;
        tri.reserve((endIndex - firstIndex) * 2);
        for (std::size_t i = firstIndex; i < endIndex; ++i)
            putU16(tri, static_cast<std::uint16_t>(local[m.indices[i]]));
        f.set("TriangleList", Llsd::binary(std::move(tri)));
        if (skeleton_ && m.skin.size() == m.positions.size() && m.skeleton == skeletonIndex_)
            f.set("Weights", Llsd::binary(weights(m, verts)));
        return f;
    }

    Bytes weights(const Mesh& m, const std::vector<std::uint32_t>& verts) {
        Bytes w;
        std::size_t dropped = 0;
        for (std::uint32_t v : verts) {
            int written = 0;
            const VertexInfluences& inf = m.skin[v];
            for (int k = 0; k < 4; ++k) {
                if (!(inf.weights[k] > 0)) continue;
                if (inf.joints[k] >= 0xFF || inf.joints[k] >= skeleton_->bones.size()) {
                    ++dropped;
                    continue;
                }
                w.push_back(static_cast<std::uint8_t>(inf.joints[k]));
                putU16(w, quantize(inf.weights[k], 0, 1));
                ++written;
            }
            if (written < 4) w.push_back(0xFF);  // four influences end implicitly
        }
        if (dropped)
            warn(std::to_string(dropped) +
                 " influences name joints that cannot be written (index >= 255 or past the "
                 "skeleton); dropped");
        return w;
    }

    // -- skin --------------------------------------------------------------------------------

    // The node of the skin block that belongs to the skeleton written, or -1.
    int skinNode() const {
        for (std::size_t i = 0; i < asset_.nodes.size(); ++i) {
            const int skeleton = asset_.links(int(i)).skeleton;
            if (asset_.kind(int(i)) == "skin" && (skeleton == skeletonIndex_ || skeleton < 0))
                return int(i);
        }
        return -1;
    }

    std::optional<std::vector<double>> numbers(int node, const char* name) const {
        const Property* p = asset_.ownProperty(node, name);
        if (!p) return std::nullopt;
        if (auto v = std::get_if<std::vector<double>>(&p->value)) return *v;
        return std::nullopt;
    }

    static Mat4 matrixAt(const std::vector<double>& d, std::size_t i) {
        Mat4 m;
        for (int k = 0; k < 16; ++k) m.m[k] = static_cast<float>(d[i * 16 + k]);
        return m;
    }

    Llsd skinBlock() {
        const int node = skinNode();
        Mat4 bindShape;
        if (options_.bindShapeMatrix) {
            bindShape = *options_.bindShapeMatrix;
        } else if (auto d = numbers(node, "bind_shape_matrix"); d && d->size() == 16) {
            bindShape = matrixAt(*d, 0);
        }
        std::vector<Mat4> alt;
        if (options_.altInverseBindMatrices) {
            alt = *options_.altInverseBindMatrices;
        } else if (auto d = numbers(node, "alt_inverse_bind_matrix"); d && d->size() % 16 == 0) {
            for (std::size_t i = 0; i < d->size() / 16; ++i) alt.push_back(matrixAt(*d, i));
        } else if (asset_.ownProperty(node, "alt_inverse_bind_matrix")) {
            warn("alt_inverse_bind_matrix property is not 16·n numbers; not written");
        }
        std::optional<double> pelvis = options_.pelvisOffset;
        if (!pelvis)
            if (const Property* p = asset_.ownProperty(node, "pelvis_offset"))
                if (auto d = std::get_if<double>(&p->value)) pelvis = *d;
        std::optional<bool> lockScale = options_.lockScaleIfJointPosition;
        if (!lockScale)
            if (const Property* p = asset_.ownProperty(node, "lock_scale_if_joint_position"))
                if (auto b = std::get_if<bool>(&p->value)) lockScale = *b;

        const Mat4 inverseBindShape = inverse(bindShape);
        Llsd names = Llsd::array(), ibm = Llsd::array();
        for (const auto& bone : skeleton_->bones) {
            names.push(Llsd::string(bone.name));
            const Mat4 folded = bone.inverseBind ? *bone.inverseBind : inverse(bone.world);
            ibm.push(matrixLlsd(folded * inverseBindShape));
        }
        Llsd skin = Llsd::map();
        if (!alt.empty()) {
            Llsd a = Llsd::array();
            for (const auto& m : alt) a.push(matrixLlsd(m));
            skin.set("alt_inverse_bind_matrix", std::move(a));
        }
        skin.set("bind_shape_matrix", matrixLlsd(bindShape));
        skin.set("inverse_bind_matrix", std::move(ibm));
        skin.set("joint_names", std::move(names));
        if (lockScale) skin.set("lock_scale_if_joint_position", Llsd::boolean(*lockScale));
        if (pelvis) skin.set("pelvis_offset", Llsd::real(*pelvis));
        return skin;
    }

    // -- physics_convex ----------------------------------------------------------------------

    Llsd convexBlock(const Mesh& m) {
        std::vector<std::uint32_t> all(m.positions.size());
        for (std::uint32_t i = 0; i < all.size(); ++i) all[i] = i;
        const Bounds b = boundsOf(m.positions, all);
        auto pack = [&](std::uint32_t first, std::uint32_t count, Bytes& out) {
            for (std::uint32_t i = first; i < first + count && i < m.positions.size(); ++i) {
                putU16(out, quantize(m.positions[i].x, b.min.x, b.max.x));
                putU16(out, quantize(m.positions[i].y, b.min.y, b.max.y));
                putU16(out, quantize(m.positions[i].z, b.min.z, b.max.z));
            }
        };
        Bytes bounding, hullList, positions;
        bool haveBounding = false;
        std::vector<Surface> surfaces = m.surfaces;
        if (surfaces.empty())
            surfaces.push_back({"BoundingVerts", 0, 0, 0, std::uint32_t(m.positions.size())});
        for (const auto& s : surfaces) {
            if (s.name == "BoundingVerts") {
                pack(s.firstVertex, s.vertexCount, bounding);
                haveBounding = true;
                continue;
            }
            std::uint32_t n = s.vertexCount;
            if (n == 0) {
                warn("hull \"" + s.name + "\" has no points; not written");
                continue;
            }
            if (n > 256) {
                warn("hull \"" + s.name + "\" has " + std::to_string(n) +
                     " points; HullList allows 256, the rest are dropped");
                n = 256;
            }
            hullList.push_back(static_cast<std::uint8_t>(n == 256 ? 0 : n));  // 0 means 256
            pack(s.firstVertex, n, positions);
        }
        if (!haveBounding) warn("physics_convex has no \"BoundingVerts\" surface; written empty");
        Llsd c = Llsd::map();
        c.set("BoundingVerts", Llsd::binary(std::move(bounding)));
        if (!hullList.empty()) {
            c.set("HullList", Llsd::binary(std::move(hullList)));
            c.set("Positions", Llsd::binary(std::move(positions)));
        }
        c.set("Max", vec3Llsd(b.max));
        c.set("Min", vec3Llsd(b.min));
        return c;
    }

    const Asset& asset_;
    const SecondLifeWriteOptions& options_;
    SecondLifeWriteResult& result_;
    const Skeleton* skeleton_ = nullptr;
    int skeletonIndex_ = -1;
};

}  // namespace

SecondLifeWriteResult writeSecondLifeMesh(const Asset& asset,
                                          const SecondLifeWriteOptions& options) {
    SecondLifeWriteResult result;
    try {
        Writer(asset, options, result).run();
    } catch (const std::exception& e) {
        result.bytes.clear();
        result.error = e.what();
    }
    return result;
}

}  // namespace meshscope
