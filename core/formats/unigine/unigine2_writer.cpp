// UNIGINE 2 writers: ms10 / ms11 / ms14 / ms15 .mesh, sk10 .mesh_skinned, sn10 .skeleton and
// an10 / an12 .anim, in the layouts the decoder reads (unigine_v2.cpp, format.md). Used by the
// tests for round trips and broken-input fixtures.
#include <lz4.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>

#include "formats/unigine/unigine_internal.h"
#include "meshscope/core/unigine_writer.h"

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
    void putInt(std::int64_t v) { unigine::writeInt2(bytes, v); }
    void putName(const std::string& s) {
        const std::string n = s.substr(0, unigine::kMaxNameLength - 1);
        putInt(std::int64_t(n.size()) + 1);
        bytes.insert(bytes.end(), n.begin(), n.end());
        bytes.push_back(0);
    }
    void tag(const std::string& s) { bytes.insert(bytes.end(), s.begin(), s.begin() + 4); }
    void putBounds(const Bounds& box) {
        Vec3 mn{}, mx{};
        if (box.valid()) mn = box.min, mx = box.max;
        const Vec3 c = (mn + mx) * 0.5f;
        const Vec3 d = mx - c;
        const float r = std::sqrt(d.x * d.x + d.y * d.y + d.z * d.z);
        for (float f : {mn.x, mn.y, mn.z, mx.x, mx.y, mx.z, c.x, c.y, c.z, r}) put(f);
    }
    void append(const Bytes& b) { bytes.insert(bytes.end(), b.begin(), b.end()); }
    Bytes bytes;
};

// Position, rotation, scale (non-uniform) of a local matrix.
struct Trs {
    Vec3 p;
    Vec4 q{0, 0, 0, 1};
    Vec3 s{1, 1, 1};
};

Trs decompose(const Mat4& m) {
    Trs t;
    float s[3];
    for (int c = 0; c < 3; ++c)
        s[c] =
            std::sqrt(m.at(0, c) * m.at(0, c) + m.at(1, c) * m.at(1, c) + m.at(2, c) * m.at(2, c));
    Mat4 n = m;
    for (int c = 0; c < 3; ++c)
        for (int row = 0; row < 3; ++row) n.at(row, c) = s[c] > 0 ? m.at(row, c) / s[c] : 0;
    const BoneTransform bt = unigine::decomposeTransform(n);
    t.p = bt.position;
    t.q = bt.rotation;
    t.s = {s[0], s[1], s[2]};
    return t;
}

std::vector<Trs> bindLocals(const Skeleton& skel) {
    std::vector<Trs> out(skel.bones.size());
    for (std::size_t b = 0; b < skel.bones.size(); ++b) {
        const Bone& bone = skel.bones[b];
        Mat4 local = bone.world;
        if (bone.parent >= 0 && std::size_t(bone.parent) < skel.bones.size())
            local = inverse(skel.bones[bone.parent].world) * bone.world;
        out[b] = decompose(local);
    }
    return out;
}

void putBones(Out& o, const Skeleton* skel) {
    o.putInt(skel ? std::int64_t(skel->bones.size()) : 0);
    if (!skel) return;
    for (const Bone& b : skel->bones) {
        o.putName(b.name);
        o.put(std::int16_t(b.parent));
    }
}

void putBindPose(Out& o, const std::vector<Trs>& locals) {
    for (const Trs& t : locals)
        for (float f : {t.p.x, t.p.y, t.p.z, t.q.x, t.q.y, t.q.z, t.q.w, t.s.x, t.s.y, t.s.z})
            o.put(f);
}

std::uint16_t quantize(float v, float min, float size) {
    if (!(size > 0)) return 0;
    return std::uint16_t(std::clamp(std::lround((v - min) / size * 65535.0f), 0L, 65535L));
}

std::int16_t quantizeUnit(float v) {
    return std::int16_t(std::clamp(std::lround(v * 32767.0f), -32767L, 32767L));
}

// One animation block (see readAnimationBlock in unigine_v2.cpp). Tracks whose bone is not in
// the skeleton are dropped; a channel a track leaves empty holds the bone's bind value.
void putAnimation(Out& o, const Animation& anim, const Skeleton* skel,
                  const std::vector<Trs>& locals, std::vector<std::string>& warnings) {
    struct Row {
        int bone;
        const BoneTrack* track;
    };
    std::vector<Row> rows;
    for (const BoneTrack& t : anim.tracks) {
        int b = -1;
        if (skel) b = skel->find(t.bone);
        if (b < 0) {
            warnings.push_back("track \"" + t.bone + "\" names no bone of the skeleton: dropped");
            continue;
        }
        rows.push_back({b, &t});
    }
    const std::size_t frames = anim.frameCount;
    auto value = [&](const Row& r, std::size_t f) {
        Trs t = locals[r.bone];
        if (r.track->positions.size() == frames) t.p = r.track->positions[f];
        if (r.track->rotations.size() == frames) t.q = r.track->rotations[f];
        if (r.track->scales.size() == frames) t.s = r.track->scales[f];
        const float len = std::sqrt(t.q.x * t.q.x + t.q.y * t.q.y + t.q.z * t.q.z + t.q.w * t.q.w);
        if (len > 0) t.q = {t.q.x / len, t.q.y / len, t.q.z / len, t.q.w / len};
        return t;
    };
    Bounds pb, sb;
    for (const Row& r : rows)
        for (std::size_t f = 0; f < frames; ++f) {
            const Trs t = value(r, f);
            pb.add(t.p);
            sb.add(t.s);
        }
    if (!pb.valid()) pb.min = pb.max = {};
    if (!sb.valid()) sb.min = sb.max = {1, 1, 1};
    const Vec3 ps = pb.max - pb.min, ss = sb.max - sb.min;
    o.putInt(std::int64_t(rows.size()));
    for (const Row& r : rows) o.put(std::int16_t(r.bone));
    for (float f : {pb.min.x, pb.min.y, pb.min.z, ps.x, ps.y, ps.z, sb.min.x, sb.min.y, sb.min.z,
                    ss.x, ss.y, ss.z})
        o.put(f);
    o.put(std::uint8_t(0x7f));
    o.putInt(std::int64_t(frames));
    struct Q {
        std::uint16_t p[3];
        std::int16_t q[4];
        std::uint16_t s[3];
    };
    std::vector<Q> prev(rows.size());
    for (std::size_t f = 0; f < frames; ++f) {
        for (std::size_t k = 0; k < rows.size(); ++k) {
            const Trs t = value(rows[k], f);
            const Q q{{quantize(t.p.x, pb.min.x, ps.x), quantize(t.p.y, pb.min.y, ps.y),
                       quantize(t.p.z, pb.min.z, ps.z)},
                      {quantizeUnit(t.q.x), quantizeUnit(t.q.y), quantizeUnit(t.q.z),
                       quantizeUnit(t.q.w)},
                      {quantize(t.s.x, sb.min.x, ss.x), quantize(t.s.y, sb.min.y, ss.y),
                       quantize(t.s.z, sb.min.z, ss.z)}};
            std::uint8_t mask = 0;
            for (int c = 0; c < 3; ++c)
                if (f == 0 || q.p[c] != prev[k].p[c]) mask |= std::uint8_t(1u << c);
            if (f == 0 || std::memcmp(q.q, prev[k].q, sizeof q.q)) mask |= 8;
            for (int c = 0; c < 3; ++c)
                if (f == 0 || q.s[c] != prev[k].s[c]) mask |= std::uint8_t(16u << c);
            o.put(mask);
            for (int c = 0; c < 3; ++c)
                if (mask & (1u << c)) o.put(q.p[c]);
            if (mask & 8)
                for (int c = 0; c < 4; ++c) o.put(q.q[c]);
            for (int c = 0; c < 3; ++c)
                if (mask & (16u << c)) o.put(q.s[c]);
            prev[k] = q;
        }
    }
}

// Tangent-basis quaternion of a normal and a tangent (xyz + handedness in w).
Vec4 basisQuaternion(Vec3 n, Vec4 t4) {
    auto norm = [](Vec3 v) {
        const float l = std::sqrt(v.x * v.x + v.y * v.y + v.z * v.z);
        return l > 0 ? Vec3{v.x / l, v.y / l, v.z / l} : Vec3{0, 0, 1};
    };
    auto cross = [](Vec3 a, Vec3 b) {
        return Vec3{a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
    };
    n = norm(n);
    Vec3 t{t4.x, t4.y, t4.z};
    const float d = t.x * n.x + t.y * n.y + t.z * n.z;
    t = {t.x - n.x * d, t.y - n.y * d, t.z - n.z * d};
    if (t.x * t.x + t.y * t.y + t.z * t.z < 1e-12f)
        t = std::fabs(n.x) < 0.9f ? cross(Vec3{1, 0, 0}, n) : cross(Vec3{0, 1, 0}, n),
        t = cross(t, n);
    t = norm(t);
    const Vec3 b = cross(n, t);
    Mat4 m;
    for (int row = 0; row < 3; ++row) {
        m.at(row, 0) = (&t.x)[row];
        m.at(row, 1) = (&b.x)[row];
        m.at(row, 2) = (&n.x)[row];
    }
    Vec4 q = unigine::decomposeTransform(m).rotation;
    const bool negative = t4.w < 0;
    if ((q.w < 0) != negative) q = {-q.x, -q.y, -q.z, -q.w};
    return q;
}

void putIndices(Out& o, const std::vector<std::uint32_t>& idx, std::size_t referenced) {
    if (referenced < 256)
        for (std::uint32_t i : idx) o.put(std::uint8_t(i));
    else if (referenced < 65536)
        for (std::uint32_t i : idx) o.put(std::uint16_t(i));
    else
        for (std::uint32_t i : idx) o.putInt(std::int64_t(i));
}

// One surface's geometry block (version 10, 11 or 14; 14 leaves the counts to the header).
// The morph targets a surface block holds after its geometry: those with one delta per vertex
// (none in ms15, which has no target list).
std::vector<const MorphTarget*> writtenTargets(const Mesh& m, int version) {
    std::vector<const MorphTarget*> out;
    if (version == 15) return out;
    for (const MorphTarget& t : m.morphTargets)
        if (t.positionDeltas.size() == m.positions.size()) out.push_back(&t);
    return out;
}

// One target: its coordinates and tangent quaternions (target 0 is the geometry itself).
void putTarget(Out& o, const Mesh& m, int version, const MorphTarget* target) {
    const std::size_t nv = m.positions.size();
    if (version < 14) o.putInt(std::int64_t(nv));
    for (std::size_t v = 0; v < nv; ++v)
        o.put(target ? m.positions[v] + target->positionDeltas[v] : m.positions[v]);
    o.putInt(std::int64_t(nv));
    for (std::size_t v = 0; v < nv; ++v) {
        Vec3 n = m.normals.size() == nv ? m.normals[v] : Vec3{0, 0, 1};
        if (target && target->normalDeltas.size() == nv && m.normals.size() == nv) {
            n = n + target->normalDeltas[v];
            const float len = std::sqrt(n.x * n.x + n.y * n.y + n.z * n.z);
            n = len > 0 ? Vec3{n.x / len, n.y / len, n.z / len} : m.normals[v];
        }
        const Vec4 t = m.tangents.size() == nv ? m.tangents[v] : Vec4{1, 0, 0, 1};
        Vec4 q = basisQuaternion(n, t);
        if (version == 10) {
            const bool negative = q.w < 0;
            if (negative) q = {-q.x, -q.y, -q.z, -q.w};
            o.put(quantizeUnit(q.x));
            o.put(quantizeUnit(q.y));
            o.put(quantizeUnit(q.z));
            o.put(std::int8_t(negative ? -127 : 127));
        } else {
            for (float c : {q.x, q.y, q.z, q.w}) o.put(quantizeUnit(c));
        }
    }
}

Bytes surfaceBlock(const Mesh& m, int version, bool skinned) {
    Out o;
    const std::size_t nv = m.positions.size();
    putTarget(o, m, version, nullptr);
    for (const MorphTarget* t : writtenTargets(m, version)) putTarget(o, m, version, t);
    if (version == 15) {
        // ms15 has no weights count (skinned meshes are .mesh_skinned files).
    } else if (skinned && m.skin.size() == nv) {
        o.putInt(std::int64_t(nv));
        for (const VertexInfluences& vi : m.skin) {
            std::uint8_t k = 0;
            for (float w : vi.weights)
                if (w > 0) ++k;
            o.put(k);
            for (int j = 0; j < 4; ++j) {
                if (!(vi.weights[j] > 0)) continue;
                o.put(std::int16_t(vi.joints[j]));
                o.put(std::uint16_t(std::clamp(std::lround(vi.weights[j] * 65535.0f), 0L, 65535L)));
            }
        }
    } else {
        o.putInt(0);
    }
    for (const auto* uv : {&m.uv0, &m.uv1}) {
        const bool use = uv->size() == nv;
        o.putInt(use ? std::int64_t(nv) : 0);
        if (use)
            for (const Vec2& t : *uv) o.put(t);
    }
    const bool colors = m.colors.size() == nv;
    o.putInt(colors ? std::int64_t(nv) : 0);
    if (colors)
        for (const Rgba8& c : m.colors) o.put(c);
    const std::size_t n = m.indices.size() / 3 * 3;
    const std::vector<std::uint32_t> idx(m.indices.begin(), m.indices.begin() + n);
    for (int pass = 0; pass < 2; ++pass) {  // coordinate, then triangle indices (the same)
        if (version < 14) o.putInt(std::int64_t(n));
        putIndices(o, idx, nv);
    }
    return o.bytes;
}

void putBlock(Out& o, const Bytes& raw) {
    Bytes packed(std::size_t(LZ4_compressBound(int(raw.size()))));
    const int n = raw.empty() ? 0
                              : LZ4_compress_default(reinterpret_cast<const char*>(raw.data()),
                                                     reinterpret_cast<char*>(packed.data()),
                                                     int(raw.size()), int(packed.size()));
    o.put(std::uint64_t(raw.size()));
    if (n > 0 && std::size_t(n) < raw.size()) {
        o.put(std::uint64_t(n));
        o.bytes.insert(o.bytes.end(), packed.begin(), packed.begin() + n);
    } else {
        o.put(std::uint64_t(raw.size()));  // stored: the real files do this too
        o.append(raw);
    }
}

}  // namespace

UnigineWriteResult writeUnigine2Mesh(const Asset& asset, const std::string& version) {
    UnigineWriteResult res;
    if (version != "ms10" && version != "ms11" && version != "ms14" && version != "ms15" &&
        version != "sk10") {
        res.error = "only ms10, ms11, ms14, ms15 and sk10 are written";
        return res;
    }
    const int v = version == "ms10"   ? 10
                  : version == "ms11" ? 11
                  : version == "ms14" ? 14
                  : version == "ms15" ? 15
                                      : unigine::kSk10;
    const bool sk = v == unigine::kSk10;
    std::vector<const Mesh*> meshes;
    for (const Mesh& m : asset.meshes) {
        if (m.primitive != Primitive::Triangles) {
            res.warnings.push_back("mesh \"" + m.name + "\" is not a triangle mesh: dropped");
            continue;
        }
        if (m.positions.size() > 0x7fffffff) {
            res.warnings.push_back("mesh \"" + m.name + "\" is too large: dropped");
            continue;
        }
        meshes.push_back(&m);
    }
    if (meshes.empty()) {
        res.error = "no triangle mesh to write";
        return res;
    }
    const Skeleton* skel = nullptr;
    for (const Mesh* m : meshes)
        if (m->skinned() && m->skeleton >= 0 && std::size_t(m->skeleton) < asset.skeletons.size())
            skel = &asset.skeletons[m->skeleton];
    if (skel && (v == 14 || v == 15)) {
        res.warnings.push_back(version + " is written without bones (" +
                               (v == 14 ? "its skinned layout is unknown)"
                                        : "skinned meshes are .mesh_skinned files)"));
        skel = nullptr;
    }
    const std::vector<Trs> locals = skel ? bindLocals(*skel) : std::vector<Trs>{};
    std::vector<const Animation*> anims;
    if (sk && !asset.animations.empty())
        res.warnings.push_back("sk10 holds no animations (they are .anim files): not written");
    else if (skel)
        for (const Animation& a : asset.animations) anims.push_back(&a);
    else if (!asset.animations.empty())
        res.warnings.push_back("animations are written only with a skinned ms10/ms11 mesh");

    Bounds all;
    for (const Mesh* m : meshes)
        for (const Vec3& p : m->positions) all.add(p);
    Out o;
    o.tag(version);
    if (v >= 14) o.putInt(4);
    o.putBounds(all);
    if (sk) {
        // int32 joint count + joints, int32 bind count + bind pose, int32 rest count + rest
        // pose (the bind pose again), the shared skeleton's GUID and path (int32 lengths).
        const std::int32_t n = skel ? std::int32_t(skel->bones.size()) : 0;
        o.put(n);
        if (skel)
            for (const Bone& b : skel->bones) {
                o.putName(b.name);
                o.put(std::int16_t(b.parent));
            }
        for (int pose = 0; pose < 2; ++pose) {
            o.put(n);
            putBindPose(o, locals);
        }
        for (const std::string& str : {std::string("00000000-0000-0000-0000-000000000000"),
                                       std::string("skeleton.skeleton")}) {
            o.put(std::int32_t(str.size() + 1));
            o.bytes.insert(o.bytes.end(), str.begin(), str.end());
            o.bytes.push_back(0);
        }
    } else if (v != 15) {
        putBones(o, skel);
    }
    if (v < 14) {
        o.putInt(std::int64_t(anims.size()));
        for (const Animation* a : anims) o.putName(a->name);
    }
    o.putInt(std::int64_t(meshes.size()));
    std::vector<Bytes> blocks;
    for (const Mesh* m : meshes) {
        blocks.push_back(surfaceBlock(*m, v, skel != nullptr));
        Bounds b;
        for (const Vec3& p : m->positions) b.add(p);
        o.putName(m->name);
        const std::size_t n = m->indices.size() / 3 * 3;
        if (v >= 14) {
            if (!sk) {  // lightmap channel and resolution (not in sk10)
                o.put(std::uint8_t(0));
                o.put(std::uint8_t(0));
            }
            o.putInt(std::int64_t(n));
            o.putInt(std::int64_t(n));
        }
        o.putBounds(b);
        if (v == 15) {  // the vertex count only: ms15 has no morph target list
            if (!m->morphTargets.empty())
                res.warnings.push_back("ms15 has no morph targets: those of mesh \"" + m->name +
                                       "\" are not written");
            o.putInt(std::int64_t(m->positions.size()));
            continue;
        }
        // The geometry itself (target 0, empty name), then the mesh's morph targets.
        const std::vector<const MorphTarget*> targets = writtenTargets(*m, v);
        o.putInt(std::int64_t(targets.size() + 1));
        o.putName("");
        if (v == 14 || sk) o.putInt(std::int64_t(m->positions.size()));
        for (const MorphTarget* t : targets) {
            o.putName(t->name);
            if (v == 14 || sk) o.putInt(std::int64_t(m->positions.size()));
        }
    }
    std::int64_t memory = 0;
    for (const Bytes& b : blocks) memory += std::int64_t(b.size());
    if (v >= 14) o.put(memory);
    o.tag(version);
    if (v < 14) {
        putBindPose(o, locals);
        for (const Animation* a : anims) putAnimation(o, *a, skel, locals, res.warnings);
        for (const Bytes& b : blocks) o.append(b);
        o.tag(version);
    } else {
        std::vector<std::uint64_t> offsets;
        for (const Bytes& b : blocks) {
            offsets.push_back(o.bytes.size());
            putBlock(o, b);
        }
        o.tag(version);
        if (!sk) {                           // sk10 has no edges / spatial trees
            const Bytes emptyTree{0, 0, 0};  // no edges, no node indices, no nodes
            for (std::size_t i = 0; i < blocks.size(); ++i) putBlock(o, emptyTree);
            o.tag(version);
        }
        for (std::uint64_t off : offsets) o.put(off);
        o.tag(version);
    }
    res.bytes = std::move(o.bytes);
    return res;
}

namespace {

// The skeleton animation `anim` is written against: its own, or without one a root bone per
// track at the origin (kept in `flat`).
const Skeleton* animationSkeleton(const Asset& asset, const Animation& anim, Skeleton& flat) {
    if (anim.skeleton >= 0 && std::size_t(anim.skeleton) < asset.skeletons.size())
        return &asset.skeletons[std::size_t(anim.skeleton)];
    for (const BoneTrack& t : anim.tracks) flat.bones.push_back(Bone{t.bone, -1});
    return &flat;
}

}  // namespace

UnigineWriteResult writeUnigine2Animation(const Asset& asset, int animation) {
    UnigineWriteResult res;
    if (animation < 0 || std::size_t(animation) >= asset.animations.size()) {
        res.error = "no such animation";
        return res;
    }
    const Animation& anim = asset.animations[std::size_t(animation)];
    Skeleton flat;
    const Skeleton* skel = animationSkeleton(asset, anim, flat);
    const std::vector<Trs> locals = bindLocals(*skel);
    Out o;
    o.tag("an10");
    // The real files hold an empty box (±1e9) and radius -1 here.
    for (float f : {1e9f, 1e9f, 1e9f, -1e9f, -1e9f, -1e9f, 0.0f, 0.0f, 0.0f, -1.0f}) o.put(f);
    putBones(o, skel);
    o.putInt(1);
    o.putName(anim.name);
    o.tag("an10");
    putBindPose(o, locals);
    putAnimation(o, anim, skel, locals, res.warnings);
    o.tag("an10");
    res.bytes = std::move(o.bytes);
    return res;
}

namespace {

void putJoints32(Out& o, const Skeleton& skel) {
    o.put(std::int32_t(skel.bones.size()));
    for (const Bone& b : skel.bones) {
        o.putName(b.name);
        o.put(std::int16_t(b.parent));
    }
}

void putString32(Out& o, const std::string& str) {
    o.put(std::int32_t(str.size() + 1));
    o.bytes.insert(o.bytes.end(), str.begin(), str.end());
    o.bytes.push_back(0);
}

}  // namespace

UnigineWriteResult writeUnigine2AnimationAn12(const Asset& asset, int animation) {
    UnigineWriteResult res;
    if (animation < 0 || std::size_t(animation) >= asset.animations.size()) {
        res.error = "no such animation";
        return res;
    }
    const Animation& anim = asset.animations[std::size_t(animation)];
    Skeleton flat;
    const Skeleton* skel = animationSkeleton(asset, anim, flat);
    struct Row {
        int bone;
        const BoneTrack* track;
    };
    std::vector<Row> rows;
    for (const BoneTrack& t : anim.tracks) {
        const int b = skel->find(t.bone);
        if (b < 0) {
            res.warnings.push_back("track \"" + t.bone + "\" names no bone: dropped");
            continue;
        }
        rows.push_back({b, &t});
    }
    Out o;
    o.tag("an12");
    putJoints32(o, *skel);
    putString32(o, "00000000-0000-0000-0000-000000000000");
    putString32(o, "skeleton.skeleton");
    o.putInt(std::int64_t(rows.size()));
    for (const Row& row : rows) o.put(std::int16_t(row.bone));
    o.put(std::int32_t(std::lround(anim.framesPerSecond > 0 ? anim.framesPerSecond : 30)));
    o.put(std::uint8_t(0));  // no root motion
    o.tag("an12");
    o.putInt(std::int64_t(anim.frameCount));
    for (std::uint32_t f = 0; f < anim.frameCount; ++f)
        for (const Row& row : rows) {
            const BoneTrack& t = *row.track;
            const Vec3 p = f < t.positions.size() ? t.positions[f] : Vec3{};
            const Vec4 q = f < t.rotations.size() ? t.rotations[f] : Vec4{0, 0, 0, 1};
            const Vec3 sc = f < t.scales.size() ? t.scales[f] : Vec3{1, 1, 1};
            // A component equal to its default (zero, identity, unit) is left out.
            std::uint8_t flag = 0;
            if (!(p == Vec3{})) flag |= 1;
            if (!(q == Vec4{0, 0, 0, 1})) flag |= 2;
            if (!(sc == Vec3{1, 1, 1})) flag |= 4;
            o.put(flag);
            if (flag & 1)
                for (float c : {p.x, p.y, p.z}) o.put(c);
            if (flag & 2)
                for (float c : {q.x, q.y, q.z, q.w}) o.put(c);
            if (flag & 4)
                for (float c : {sc.x, sc.y, sc.z}) o.put(c);
        }
    o.tag("an12");
    res.bytes = std::move(o.bytes);
    return res;
}

UnigineWriteResult writeUnigine2Skeleton(const Asset& asset, int skeleton) {
    UnigineWriteResult res;
    if (skeleton < 0 || std::size_t(skeleton) >= asset.skeletons.size()) {
        res.error = "no such skeleton";
        return res;
    }
    const Skeleton& skel = asset.skeletons[skeleton];
    const std::int32_t n = std::int32_t(skel.bones.size());
    Out o;
    o.tag("sn10");
    putJoints32(o, skel);
    putBindPose(o, bindLocals(skel));
    o.tag("sn10");
    // One blend mask (every joint fully on), no time profile, one weight profile (all 1), and a
    // retarget entry per joint (mode 0 = pose, default length -1).
    o.put(std::int32_t(1));
    putString32(o, "all");
    o.put(n);
    for (std::int32_t i = 0; i < n; ++i) o.put(1.0f);
    o.put(std::int32_t(0));
    o.put(std::int32_t(1));
    putString32(o, "weights");
    o.put(n);
    for (std::int32_t i = 0; i < n; ++i) o.put(1.0f);
    o.put(n);
    for (std::int32_t i = 0; i < n; ++i) {
        o.put(std::int32_t(0));
        o.put(-1.0f);
    }
    o.tag("sn10");
    res.bytes = std::move(o.bytes);
    return res;
}

}  // namespace meshscope
