// Unigine writers: mi08 .mesh, ms08 .smesh and as08 .sanim from an Asset (see unigine_writer.h).
#include "meshscope/core/unigine_writer.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>

#include "formats/unigine/unigine_internal.h"

namespace meshscope {
namespace {

using unigine::BoneTransform;

class Out {
public:
    template <typename T>
    void put(const T& v) {
        const auto* p = reinterpret_cast<const std::uint8_t*>(&v);
        bytes.insert(bytes.end(), p, p + sizeof(T));
    }
    void putI32(std::int64_t v) { put(static_cast<std::int32_t>(v)); }
    void putName(const std::string& s) {
        // Length includes the terminating NUL; the document caps it at 1024.
        const std::string n = s.substr(0, unigine::kMaxNameLength - 1);
        putI32(std::int64_t(n.size()) + 1);
        bytes.insert(bytes.end(), n.begin(), n.end());
        bytes.push_back(0);
    }
    Bytes bytes;
};

struct Sphere {
    Bounds box;
    Vec3 center;
    float radius = 0;
};

Sphere sphereOf(const std::vector<const Mesh*>& meshes) {
    Sphere s;
    for (const Mesh* m : meshes)
        for (const Vec3& p : m->positions) s.box.add(p);
    if (!s.box.valid()) {
        s.box.min = s.box.max = {};
        return s;
    }
    s.center = s.box.center();
    float r2 = 0;
    for (const Mesh* m : meshes) {
        for (const Vec3& p : m->positions) {
            if (!p.finite()) continue;
            const Vec3 d = p - s.center;
            r2 = std::max(r2, d.x * d.x + d.y * d.y + d.z * d.z);
        }
    }
    s.radius = std::sqrt(r2);
    return s;
}

void putBounds(Out& o, const Sphere& s) {
    o.put(s.box.min);
    o.put(s.box.max);
    o.put(s.center);
    o.put(s.radius);
}

std::vector<const Mesh*> triangleMeshes(const Asset& asset, std::vector<std::string>& warnings) {
    std::vector<const Mesh*> out;
    for (const Mesh& m : asset.meshes) {
        if (m.primitive != Primitive::Triangles) {
            warnings.push_back("mesh \"" + m.name + "\" is not a triangle mesh; it was left out");
            continue;
        }
        out.push_back(&m);
    }
    return out;
}

void putVertexBase(Out& o, const Mesh& m, std::size_t i) {
    o.put(m.positions[i]);
    const Vec3 n = m.normals.empty() ? Vec3{} : m.normals[i];
    o.put(unigine::compressNormal(n.x));
    o.put(unigine::compressNormal(n.y));
    o.put(unigine::compressNormal(n.z));
}

// Texture coordinates and triangles, the tail both mesh versions share.
void putSurfaceTail(Out& o, const Mesh& m, std::vector<std::string>& warnings) {
    for (const auto* uv : {&m.uv0, &m.uv1}) {
        if (!uv->empty() && uv->size() != m.positions.size()) {
            warnings.push_back("mesh \"" + m.name + "\": a texture coordinate set whose size " +
                               "differs from the vertex count was left out");
            o.putI32(0);
            continue;
        }
        o.putI32(std::int64_t(uv->size()));
        for (const Vec2& t : *uv) o.put(t);
    }
    const std::size_t triangles = m.indices.size() / 3;
    o.putI32(std::int64_t(triangles));
    const bool wide = m.positions.size() >= 65536;
    for (std::size_t i = 0; i < triangles * 3; ++i) {
        if (wide)
            o.put(static_cast<std::int32_t>(m.indices[i]));
        else
            o.put(static_cast<std::uint16_t>(m.indices[i]));
    }
}

void noteMissingNormals(const Mesh& m, std::vector<std::string>& warnings) {
    if (m.normals.size() != m.positions.size() && !m.positions.empty())
        warnings.push_back("mesh \"" + m.name + "\" has no normals; (0, 0, 0) was written");
}

void putTransform(Out& o, const BoneTransform& t) {
    o.put(t.position);
    o.put(t.scale);
    o.put(t.rotation);
}

std::vector<BoneTransform> bindLocals(const Skeleton& skel) {
    std::vector<BoneTransform> locals(skel.bones.size());
    for (std::size_t b = 0; b < skel.bones.size(); ++b) {
        const Bone& bone = skel.bones[b];
        Mat4 local = bone.world;
        if (bone.parent >= 0 && std::size_t(bone.parent) < skel.bones.size())
            local = inverse(skel.bones[bone.parent].world) * bone.world;
        locals[b] = unigine::decomposeTransform(local);
    }
    return locals;
}

const BoneTrack* findTrack(const Animation& anim, const std::string& bone) {
    for (const auto& t : anim.tracks)
        if (t.bone == bone) return &t;
    return nullptr;
}

// A track's transform at `frame`; a channel that is empty keeps `fallback`.
BoneTransform trackAt(const BoneTrack* t, std::size_t frame, const BoneTransform& fallback) {
    BoneTransform x = fallback;
    if (!t) return x;
    if (frame < t->positions.size()) x.position = t->positions[frame];
    if (frame < t->scales.size()) x.scale = t->scales[frame].x;
    if (frame < t->rotations.size()) x.rotation = t->rotations[frame];
    return x;
}

std::uint16_t quantize(float v, float lo, float span) {
    if (!(span > 0)) return 0;
    const float q = std::round((v - lo) / span * 65535.0f);
    if (!(q > 0)) return 0;
    return q >= 65535.0f ? 65535 : static_cast<std::uint16_t>(q);
}

}  // namespace

UnigineWriteResult writeUnigineMesh(const Asset& asset) {
    UnigineWriteResult result;
    const std::vector<const Mesh*> meshes = triangleMeshes(asset, result.warnings);
    Out o;
    o.put(unigine::kMeshSignature);
    putBounds(o, sphereOf(meshes));
    o.putI32(std::int64_t(meshes.size()));
    for (const Mesh* m : meshes) {
        o.putName(m->name);
        putBounds(o, sphereOf({m}));
    }
    for (const Mesh* m : meshes) {
        noteMissingNormals(*m, result.warnings);
        o.putI32(std::int64_t(m->positions.size()));
        for (std::size_t i = 0; i < m->positions.size(); ++i) putVertexBase(o, *m, i);
        putSurfaceTail(o, *m, result.warnings);
    }
    result.bytes = std::move(o.bytes);
    return result;
}

UnigineWriteResult writeUnigineSkinnedMesh(const Asset& asset,
                                           const UnigineSkinnedMeshWriteOptions& options) {
    UnigineWriteResult result;
    if (options.skeleton < 0 || std::size_t(options.skeleton) >= asset.skeletons.size()) {
        result.error = "the asset has no skeleton " + std::to_string(options.skeleton);
        return result;
    }
    const Skeleton& skel = asset.skeletons[options.skeleton];
    const Animation* anim = nullptr;
    if (options.animation) {
        if (*options.animation >= 0) {
            if (std::size_t(*options.animation) >= asset.animations.size()) {
                result.error = "the asset has no animation " + std::to_string(*options.animation);
                return result;
            }
            anim = &asset.animations[*options.animation];
        }
    } else {
        for (const auto& a : asset.animations)
            if (a.skeleton == options.skeleton && !anim) anim = &a;
    }

    Out o;
    o.put(unigine::kSkinnedMeshSignature);
    o.putI32(std::int64_t(skel.bones.size()));
    for (const Bone& b : skel.bones) {
        o.putName(b.name);
        o.putI32(b.parent);
    }
    const std::vector<BoneTransform> locals = bindLocals(skel);
    const std::size_t extra = anim ? anim->frameCount : 0;
    o.putI32(std::int64_t(1 + extra));
    for (const auto& t : locals) putTransform(o, t);
    std::vector<const BoneTrack*> tracks(skel.bones.size(), nullptr);
    if (anim)
        for (std::size_t b = 0; b < skel.bones.size(); ++b)
            tracks[b] = findTrack(*anim, skel.bones[b].name);
    for (std::size_t f = 0; f < extra; ++f)
        for (std::size_t b = 0; b < skel.bones.size(); ++b)
            putTransform(o, trackAt(tracks[b], f, locals[b]));

    const std::vector<const Mesh*> meshes = triangleMeshes(asset, result.warnings);
    o.putI32(std::int64_t(meshes.size()));
    for (const Mesh* m : meshes) o.putName(m->name);
    for (const Mesh* m : meshes) {
        noteMissingNormals(*m, result.warnings);
        o.putI32(std::int64_t(m->positions.size()));
        for (std::size_t i = 0; i < m->positions.size(); ++i) {
            putVertexBase(o, *m, i);
            std::uint8_t count = 0;
            std::uint16_t joints[4];
            std::uint8_t weights[4];
            if (i < m->skin.size()) {
                const VertexInfluences& vi = m->skin[i];
                for (int k = 0; k < 4; ++k) {
                    const float w = std::round(std::clamp(vi.weights[k], 0.0f, 1.0f) * 255.0f);
                    if (w <= 0) continue;
                    joints[count] = vi.joints[k];
                    weights[count++] = static_cast<std::uint8_t>(w);
                }
            }
            o.put(count);
            for (int k = 0; k < count; ++k) {
                o.put(joints[k]);
                o.put(weights[k]);
            }
        }
        putSurfaceTail(o, *m, result.warnings);
    }
    result.bytes = std::move(o.bytes);
    return result;
}

UnigineWriteResult writeUnigineAnimation(const Asset& asset, int animation) {
    UnigineWriteResult result;
    if (animation < 0 || std::size_t(animation) >= asset.animations.size()) {
        result.error = "the asset has no animation " + std::to_string(animation);
        return result;
    }
    const Animation& anim = asset.animations[animation];
    const Skeleton* skel = anim.skeleton >= 0 && std::size_t(anim.skeleton) < asset.skeletons.size()
                               ? &asset.skeletons[anim.skeleton]
                               : nullptr;
    const std::size_t bones = anim.tracks.size();
    const std::size_t frames = anim.frameCount;
    const BoneTransform identity;
    auto at = [&](std::size_t b, std::size_t f) { return trackAt(&anim.tracks[b], f, identity); };

    // Bounds over every frame: xyz of the positions, w of the scales.
    Vec4 mn{0, 0, 0, 1}, mx{0, 0, 0, 1};
    bool first = true;
    for (std::size_t b = 0; b < bones; ++b) {
        for (std::size_t f = 0; f < frames; ++f) {
            const BoneTransform t = at(b, f);
            const Vec4 v{t.position.x, t.position.y, t.position.z, t.scale};
            if (first) mn = mx = v;
            first = false;
            mn = {std::min(mn.x, v.x), std::min(mn.y, v.y), std::min(mn.z, v.z),
                  std::min(mn.w, v.w)};
            mx = {std::max(mx.x, v.x), std::max(mx.y, v.y), std::max(mx.z, v.z),
                  std::max(mx.w, v.w)};
        }
    }
    const Vec4 size{mx.x - mn.x, mx.y - mn.y, mx.z - mn.z, mx.w - mn.w};

    Out o;
    o.put(unigine::kAnimationSignature);
    o.putI32(std::int64_t(bones));
    for (const auto& t : anim.tracks) {
        o.putName(t.bone);
        int parent = -1;
        if (skel) {
            const int b = skel->find(t.bone);
            if (b >= 0 && skel->bones[b].parent >= 0) {
                // Parents are indices into this file's bone list, which follows the tracks.
                const std::string& parentName = skel->bones[skel->bones[b].parent].name;
                for (std::size_t k = 0; k < bones; ++k)
                    if (anim.tracks[k].bone == parentName) parent = static_cast<int>(k);
            }
        }
        o.putI32(parent);
    }
    o.put(mn);
    o.put(size);
    o.putI32(std::int64_t(frames));
    std::vector<std::array<std::uint16_t, 8>> previous(bones);
    for (std::size_t f = 0; f < frames; ++f) {
        for (std::size_t b = 0; b < bones; ++b) {
            const BoneTransform t = at(b, f);
            const auto rot = [](float q) {
                const float v = std::round((q * 0.5f + 0.5f) * 65535.0f);
                return v <= 0       ? std::uint16_t(0)
                       : v >= 65535 ? std::uint16_t(65535)
                                    : static_cast<std::uint16_t>(v);
            };
            const std::array<std::uint16_t, 8> q{quantize(t.position.x, mn.x, size.x),
                                                 quantize(t.position.y, mn.y, size.y),
                                                 quantize(t.position.z, mn.z, size.z),
                                                 quantize(t.scale, mn.w, size.w),
                                                 rot(t.rotation.x),
                                                 rot(t.rotation.y),
                                                 rot(t.rotation.z),
                                                 rot(t.rotation.w)};
            std::uint8_t flags = 0;
            for (int k = 0; k < 8; ++k)
                if (f == 0 || q[k] != previous[b][k]) flags |= std::uint8_t(1u << k);
            o.put(flags);
            for (int k = 0; k < 8; ++k)
                if (flags & (1u << k)) o.put(q[k]);
            previous[b] = q;
        }
    }
    result.bytes = std::move(o.bytes);
    return result;
}

}  // namespace meshscope
