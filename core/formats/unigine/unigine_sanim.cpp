// Unigine as08 .sanim (skinned animation): signature, bones (name + parent), the bounds the
// animation moves in, then per frame and bone a change-flag byte and the 16-bit quantized
// components that the flag marks as changed.
//
// The document says only that the flag's 8 bits say whether the frame stores new translation,
// scale or rotation components and then lists 8 unsigned shorts. We read bit i as "component i
// of that list is stored" (bit 0 translation x ... bit 3 scale, bits 4-7 rotation x, y, z, w),
// and the stored components follow in list order. Translation and scale are quantized inside the
// bounds (min + u / 65535 × size); rotation components, which the bounds cannot hold, use the
// [-1, 1] mapping of the normal compression (u / 65535 × 2 - 1). No real as08 file is public;
// format.md records this reading.
#include <array>
#include <bit>

#include "formats/unigine/unigine_internal.h"
#include "meshscope/core/error_codes.h"

namespace meshscope::unigine {

void decodeAnimation(DecodeContext& ctx) {
    Asset& a = ctx.asset();
    ByteReader r(ctx, ctx.bytes());
    const FileStart file =
        readSignature(ctx, r, "Unigine skinned animation", "as08", RangeKind::Header);
    const int root = file.root, header = file.header;

    BoneTable bones = readSkeleton(ctx, r, root, header);
    const int skeletonNode = bones.skeletonNode;
    const std::size_t boneCount = bones.names.size();

    // Bounds: min xyz + min scale, then size xyz + scale spread.
    Vec4 mn, size;
    {
        auto s = ctx.scope("bounds");
        const int node = a.addNode("bounds", "bounds", header);
        const std::size_t start = r.pos();
        mn = r.read<Vec4>("bounds minimum");
        size = r.read<Vec4>("bounds size");
        const std::uint64_t at = r.offsetOf(start);
        auto& props = a.propertyList(node);
        props.push_back({"min", "Vector3", Vec3{mn.x, mn.y, mn.z}, at, 12});
        props.push_back({"minScale", "float", double(mn.w), at + 12, 4});
        props.push_back({"size", "Vector3", Vec3{size.x, size.y, size.z}, at + 16, 12});
        props.push_back({"scaleSpread", "float", double(size.w), at + 28, 4});
        a.nodes[node].offset = at;
        a.nodes[node].length = 32;
        ctx.mapRange(at, 32, RangeKind::Record, {}, node);
        ctx.mapRange(at, 16, RangeKind::Field, "min", node);
        ctx.mapRange(at + 16, 16, RangeKind::Field, "size", node);
    }

    const std::size_t framesStart = r.pos();
    std::size_t frameCount = 0;
    {
        auto s = ctx.scope("frames");
        frameCount = readCount(r, "frame count");
        // Every bone of every frame has at least its flag byte.
        r.checkCount(std::uint64_t(frameCount) * boneCount, 1, "frame records");
        // Decoded, each of them becomes a position, a scale and a rotation (40 bytes).
        ctx.checkAllocation(r.offset(), std::uint64_t(frameCount) * boneCount, 40,
                            "decoded frames");
        ctx.mapRange(r.offsetOf(framesStart), 4, RangeKind::Field, "count", header);
        a.addProperty(
            header, {"frameCount", "int32", std::int64_t(frameCount), r.offsetOf(framesStart), 4});
    }

    Animation anim;
    anim.name = "animation";
    anim.frameCount = static_cast<std::uint32_t>(frameCount);
    anim.tracks.resize(boneCount);
    for (std::size_t b = 0; b < boneCount; ++b) {
        BoneTrack& t = anim.tracks[b];
        t.bone = bones.names[b];
        t.positions.resize(frameCount);
        t.rotations.resize(frameCount);
        t.scales.resize(frameCount);
    }
    // Current quantized components per bone (before frame 0: translation at the bounds minimum,
    // scale 1 and the identity rotation, used only when frame 0 leaves a component out).
    auto quantize = [](float v, float lo, float span) -> float {
        return span != 0 ? (v - lo) / span * 65535.0f : 0.0f;
    };
    std::vector<std::array<float, 8>> current(boneCount);
    for (auto& c : current) {
        c = {0, 0, 0, quantize(1.0f, mn.w, size.w), 32767.5f, 32767.5f, 32767.5f, 65535.0f};
    }
    std::size_t incompleteFirst = 0;
    std::uint64_t incompleteAt = 0;
    {
        auto s = ctx.scope("frames");
        // With no bones a frame has no bytes: the count alone (up to 2^31, found by fuzzing)
        // must not drive a loop.
        for (std::size_t f = 0; f < (boneCount ? frameCount : 0); ++f) {
            if ((f & 255) == 0) ctx.checkCancel(r.offset());
            auto fs = ctx.scope("[" + std::to_string(f) + "]");
            const std::size_t frameStart = r.pos();
            for (std::size_t b = 0; b < boneCount; ++b) {
                const std::size_t flagAt = r.pos();
                const std::uint8_t flags = r.u8("change flags");
                if (f == 0 && flags != 0xff && incompleteFirst++ == 0)
                    incompleteAt = r.offsetOf(flagAt);
                if (flags) {
                    std::uint16_t values[8];
                    const int stored = std::popcount(flags);
                    const ByteSpan raw = r.bytes(std::size_t(stored) * 2, "changed components");
                    std::memcpy(values, raw.data(), raw.size());
                    int k = 0;
                    for (int bit = 0; bit < 8; ++bit)
                        if (flags & (1u << bit)) current[b][bit] = values[k++];
                }
                const auto& c = current[b];
                BoneTrack& t = anim.tracks[b];
                t.positions[f] = {mn.x + c[0] / 65535.0f * size.x, mn.y + c[1] / 65535.0f * size.y,
                                  mn.z + c[2] / 65535.0f * size.z};
                const float scale = mn.w + c[3] / 65535.0f * size.w;
                t.scales[f] = {scale, scale, scale};
                t.rotations[f] = {c[4] / 65535.0f * 2 - 1, c[5] / 65535.0f * 2 - 1,
                                  c[6] / 65535.0f * 2 - 1, c[7] / 65535.0f * 2 - 1};
            }
            ctx.mapRange(r.offsetOf(frameStart), r.pos() - frameStart, RangeKind::Record);
        }
        ctx.mapRange(r.offsetOf(framesStart), r.pos() - framesStart, RangeKind::Array);
    }
    if (incompleteFirst) {
        ctx.warn(incompleteAt, errc::kIncompleteFirstFrame,
                 std::to_string(incompleteFirst) +
                     " bones do not store every component in frame 0; the missing ones start at "
                     "the bounds minimum, scale 1 and the identity rotation");
    }

    // The bones with frame 0 composed through the parents, so the hierarchy can be shown.
    std::vector<Mat4> locals(boneCount);
    for (std::size_t b = 0; b < boneCount && frameCount; ++b) {
        const BoneTrack& t = anim.tracks[b];
        locals[b] = composeTransform({t.positions[0], t.scales[0].x, t.rotations[0]});
    }
    std::vector<Mat4> world =
        composeWorld(ctx, bones.parents, locals, bones.parentOffsets, bones.names);
    Skeleton skel;
    skel.name = "frame 0";
    skel.bones.resize(boneCount);
    const int skeletonIndex = static_cast<int>(a.skeletons.size());
    for (std::size_t b = 0; b < boneCount; ++b) {
        skel.bones[b].name = bones.names[b];
        skel.bones[b].parent = bones.parents[b];
        skel.bones[b].world = world[b];
        NodeLinks& links = a.linksOf(bones.nodes[b]);
        links.skeleton = skeletonIndex;
        links.bone = static_cast<int>(b);
    }
    a.linksOf(skeletonNode).skeleton = skeletonIndex;
    a.skeletons.push_back(std::move(skel));

    anim.skeleton = skeletonIndex;
    const int node = a.addNode("animation", "animation", root);
    a.linksOf(node).animation = static_cast<int>(a.animations.size());
    a.nodes[node].offset = r.offsetOf(framesStart);
    a.nodes[node].length = r.pos() - framesStart;
    a.addProperty(node, {"frameCount", "int32", std::int64_t(frameCount)});
    a.animations.push_back(std::move(anim));

    mapTrailingBytes(ctx, r, "the last frame");
}

}  // namespace meshscope::unigine
