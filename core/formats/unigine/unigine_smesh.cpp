// Unigine ms08 .smesh (skinned mesh): signature, bones (name + parent), frames of bone
// transforms (frame 0 is the bind pose), surface names, then per surface the weighted vertices,
// two texture coordinate sets and the triangles.
#include <algorithm>

#include "formats/unigine/unigine_internal.h"
#include "meshscope/core/error_codes.h"

namespace meshscope::unigine {
namespace {

// One frame record per bone: position xyz + uniform scale in w, then the rotation quaternion.
constexpr std::size_t kFrameRecordFloats = 8;

struct SkinStats {
    std::size_t tooMany = 0;  // vertices with more than four influences
    std::size_t badBone = 0;  // influences naming a bone past the bone count
    std::uint64_t tooManyAt = 0;
    std::uint64_t badBoneAt = 0;
    std::size_t maxInfluences = 0;
};

void readSkinnedVertices(DecodeContext& ctx, ByteReader& r, Mesh& mesh, std::size_t boneCount,
                         int node) {
    auto s = ctx.scope("vertices");
    const std::size_t start = r.pos();
    const std::size_t n = readVertexCount(ctx, r);
    // Smallest vertex: position (12) + normal (6) + weight count (1).
    r.checkCount(n, 19, "vertices");
    mesh.positions.resize(n);
    mesh.normals.resize(n);
    if (boneCount) mesh.skin.resize(n);
    SkinStats stats;
    std::pair<float, std::uint16_t> influences[255];
    for (std::size_t i = 0; i < n; ++i) {
        if ((i & 0xffff) == 0) ctx.checkCancel(r.offset());
        const ByteSpan fixed = r.bytes(19, "vertex");
        std::memcpy(&mesh.positions[i], fixed.data(), 12);
        std::uint16_t c[3];
        std::memcpy(c, fixed.data() + 12, 6);
        mesh.normals[i] = {decompressNormal(c[0]), decompressNormal(c[1]), decompressNormal(c[2])};
        const std::size_t weights = fixed[18];
        const std::size_t weightsAt = r.pos();
        const ByteSpan w = r.bytes(weights * 3, "vertex weights");
        std::size_t kept = 0;
        for (std::size_t k = 0; k < weights; ++k) {
            std::uint16_t bone;
            std::memcpy(&bone, w.data() + k * 3, 2);
            const std::uint8_t weight = w[k * 3 + 2];
            if (bone >= boneCount) {
                if (stats.badBone++ == 0) stats.badBoneAt = r.offsetOf(weightsAt + k * 3);
                continue;
            }
            influences[kept++] = {float(weight) / 255.0f, bone};
        }
        stats.maxInfluences = std::max(stats.maxInfluences, kept);
        if (!boneCount) continue;
        VertexInfluences& vi = mesh.skin[i];
        if (kept > 4) {
            // Keep the four largest and renormalize them to sum to 1.
            if (stats.tooMany++ == 0) stats.tooManyAt = r.offsetOf(weightsAt);
            std::partial_sort(influences, influences + 4, influences + kept,
                              [](const auto& x, const auto& y) { return x.first > y.first; });
            float top = 0;
            for (std::size_t k = 0; k < 4; ++k) top += influences[k].first;
            const float scale = top > 0 ? 1.0f / top : 0;
            for (std::size_t k = 0; k < 4; ++k) influences[k].first *= scale;
            kept = 4;
        }
        for (std::size_t k = 0; k < kept; ++k) {
            vi.joints[k] = influences[k].second;
            vi.weights[k] = influences[k].first;
        }
    }
    warnNonFinitePositions(ctx, mesh, r.offsetOf(start + 4));
    ctx.mapRange(r.offsetOf(start), r.pos() - start, RangeKind::Array, {}, node);
    ctx.mapRange(r.offsetOf(start), 4, RangeKind::Field, "count", node);
    auto& props = ctx.asset().propertyList(node);
    props.push_back({"vertexCount", "int32", std::int64_t(n), r.offsetOf(start), 4});
    props.push_back({"maxInfluences", "int32", std::int64_t(stats.maxInfluences)});
    if (stats.badBone) {
        ctx.warn(stats.badBoneAt, errc::kBadBoneIndex,
                 std::to_string(stats.badBone) + " vertex weights name a bone past the " +
                     std::to_string(boneCount) + " bones and were dropped");
    }
    if (stats.tooMany) {
        ctx.warn(stats.tooManyAt, errc::kTooManyInfluences,
                 std::to_string(stats.tooMany) + " vertices have more than 4 weights (up to " +
                     std::to_string(stats.maxInfluences) +
                     "); the 4 largest were kept and renormalized");
    }
}

}  // namespace

void decodeSkinnedMesh(DecodeContext& ctx) {
    Asset& a = ctx.asset();
    ByteReader r(ctx, ctx.bytes());
    const FileStart file = readSignature(ctx, r, "Unigine skinned mesh", "ms08", RangeKind::Header);
    const int root = file.root, header = file.header;

    // Bones.
    BoneTable bones = readSkeleton(ctx, r, root, header);
    const int skeletonNode = bones.skeletonNode;
    const std::size_t boneCount = bones.names.size();

    // Frames: for each frame, for each bone, float4 position + scale and float4 rotation.
    std::vector<float> frameData;
    std::size_t frameCount = 0;
    {
        auto s = ctx.scope("frames");
        const std::size_t start = r.pos();
        frameCount = readCount(r, "frame count");
        const std::uint64_t records = std::uint64_t(frameCount) * boneCount;
        r.checkCount(records, kFrameRecordFloats * 4, "frame records");
        ctx.mapRange(r.offsetOf(start), 4, RangeKind::Field, "count", header);
        r.readArray(frameData, records * kFrameRecordFloats, "frame records");
        const std::size_t frameBytes = boneCount * kFrameRecordFloats * 4;
        if (frameBytes) {
            for (std::size_t f = 0; f < frameCount; ++f) {
                ctx.mapRange(r.offsetOf(start + 4 + f * frameBytes), frameBytes, RangeKind::Record,
                             "[" + std::to_string(f) + "]");
            }
        }
        ctx.mapRange(r.offsetOf(start), r.pos() - start, RangeKind::Array);
        a.addProperty(header,
                      {"frameCount", "int32", std::int64_t(frameCount), r.offsetOf(start), 4});
    }
    auto transformAt = [&](std::size_t frame, std::size_t bone) {
        const float* f = frameData.data() + (frame * boneCount + bone) * kFrameRecordFloats;
        return BoneTransform{{f[0], f[1], f[2]}, f[3], {f[4], f[5], f[6], f[7]}};
    };

    // Skeleton: frame 0 is the bind pose, each transform relative to the parent bone.
    {
        std::vector<Mat4> locals(boneCount);
        if (frameCount == 0 && boneCount) {
            ctx.warn(r.offset(), errc::kNoBindPose,
                     "the file has no frames, so no bind pose; bones are placed at the origin");
        }
        for (std::size_t b = 0; b < boneCount && frameCount; ++b)
            locals[b] = composeTransform(transformAt(0, b));
        for (std::size_t b = 0; b < boneCount && frameCount; ++b) {
            const BoneTransform t = transformAt(0, b);
            auto& props = a.propertyList(bones.nodes[b]);
            props.push_back({"bindPosition", "Vector3", t.position});
            props.push_back({"bindScale", "float", double(t.scale)});
            props.push_back({"bindRotation", "Quaternion", t.rotation});
        }
        addSkeleton(a, bones, skeletonNode,
                    composeWorld(ctx, bones.parents, locals, bones.parentOffsets, bones.names));
    }

    // Frames after the bind pose are an animation.
    if (frameCount > 1 && boneCount) {
        Animation anim;
        anim.name = "frames";
        anim.frameCount = static_cast<std::uint32_t>(frameCount - 1);
        anim.skeleton = static_cast<int>(a.skeletons.size() - 1);
        anim.tracks.resize(boneCount);
        for (std::size_t b = 0; b < boneCount; ++b) {
            BoneTrack& t = anim.tracks[b];
            t.bone = bones.names[b];
            t.positions.resize(frameCount - 1);
            t.rotations.resize(frameCount - 1);
            t.scales.resize(frameCount - 1);
            for (std::size_t f = 1; f < frameCount; ++f) {
                const BoneTransform x = transformAt(f, b);
                t.positions[f - 1] = x.position;
                t.rotations[f - 1] = x.rotation;
                t.scales[f - 1] = {x.scale, x.scale, x.scale};
            }
        }
        const int node =
            a.addNode("frames 1.." + std::to_string(frameCount - 1), "animation", root);
        a.linksOf(node).animation = static_cast<int>(a.animations.size());
        // The frames after the bind pose (frame 0).
        const std::size_t frameBytes = boneCount * kFrameRecordFloats * 4;
        a.nodes[node].offset = r.offsetOf(r.pos() - frameData.size() * 4 + frameBytes);
        a.nodes[node].length = (frameCount - 1) * frameBytes;
        a.addProperty(node, {"frameCount", "int32", std::int64_t(frameCount - 1)});
        a.animations.push_back(std::move(anim));
    }

    // Surface names, then surface data.
    std::size_t surfaceCount = 0;
    {
        auto s = ctx.scope("surfaces");
        const std::size_t start = r.pos();
        // Smallest surface: name length (4) + data (four zero ints).
        surfaceCount = r.checkCount(readCount(r, "surface count"), 4 + 16, "surfaces");
        ctx.mapRange(r.offsetOf(start), 4, RangeKind::Field, "count", header);
        a.addProperty(header,
                      {"surfaceCount", "int32", std::int64_t(surfaceCount), r.offsetOf(start), 4});
    }
    const SurfaceHeaders surfaces = readSurfaceHeaders(ctx, r, root, surfaceCount, nullptr);
    readSurfaceData(ctx, r, surfaces, [&](Mesh& mesh, int node) {
        readSkinnedVertices(ctx, r, mesh, boneCount, node);
        if (boneCount) mesh.skeleton = static_cast<int>(a.skeletons.size() - 1);
    });
    mapTrailingBytes(ctx, r, "the last surface");
}

}  // namespace meshscope::unigine
