// Unigine meshes and animations: the registry entry, the signature probe and the dispatch to the
// mi08 / ms08 / as08 decoders of the documented UNIGINE 1 formats, mr02 (the 2005 engine's mesh)
// and the UNIGINE 2 ms10 / ms11 / ms14 meshes and an10 animations, whose layouts the real files
// show, and the documented ms15 .mesh, sk10 .mesh_skinned, sn10 .skeleton and an12 .anim.
// Signatures of other Unigine versions (ms12, ms13, an11 ...) are recognised and refused with an
// error that names the version.
#include <cstring>
#include <string>

#include "formats/formats.h"
#include "formats/unigine/unigine_internal.h"
#include "io/decode_context.h"
#include "meshscope/core/error_codes.h"

namespace meshscope {
namespace {

using unigine::signature;

bool isDigit(std::uint8_t c) {
    return c >= '0' && c <= '9';
}

// Signatures seen in real files or documents but not decoded. A signature is two letters and two
// digits; the families below are the ones Unigine uses ("mi", "ms", "mr" meshes, "as", "an"
// animations, and the newest "sk" .mesh_skinned and "sn" .skeleton), so e.g. "ms09", "ms15",
// "an11" or "sk10" are recognised too.
bool isOtherUnigineSignature(ByteSpan b) {
    if (b.size() < 4 || !isDigit(b[2]) || !isDigit(b[3])) return false;
    const char f[3] = {char(b[0]), char(b[1]), 0};
    return !std::strcmp(f, "mi") || !std::strcmp(f, "ms") || !std::strcmp(f, "mr") ||
           !std::strcmp(f, "as") || !std::strcmp(f, "an") || !std::strcmp(f, "sk") ||
           !std::strcmp(f, "sn");
}

std::uint32_t leadingSignature(ByteSpan b) {
    std::uint32_t s = 0;
    if (b.size() >= 4) std::memcpy(&s, b.data(), 4);
    return s;
}

int probe(ByteSpan b) {
    // By signature only: Roblox FileMesh shares the .mesh extension (it starts with "version ").
    const std::uint32_t s = leadingSignature(b);
    if (s == unigine::kMeshSignature || s == unigine::kSkinnedMeshSignature ||
        s == unigine::kAnimationSignature || s == signature("mr02") || s == signature("ms10") ||
        s == signature("ms11") || s == signature("ms14") || s == signature("ms15") ||
        s == signature("sk10") || s == signature("sn10") || s == signature("an10") ||
        s == signature("an12"))
        return 100;
    if (isOtherUnigineSignature(b)) return 60;
    return 0;
}

void decode(DecodeContext& ctx) {
    const ByteSpan b = ctx.bytes();
    const std::uint32_t s = leadingSignature(b);
    if (s == unigine::kMeshSignature) return unigine::decodeMesh(ctx);
    if (s == unigine::kSkinnedMeshSignature) return unigine::decodeSkinnedMesh(ctx);
    if (s == unigine::kAnimationSignature) return unigine::decodeAnimation(ctx);
    if (s == signature("mr02")) return unigine::decodeMeshMr02(ctx);
    if (s == signature("ms10")) return unigine::decodeMeshV2(ctx, 10);
    if (s == signature("ms11")) return unigine::decodeMeshV2(ctx, 11);
    if (s == signature("ms14")) return unigine::decodeMeshV2(ctx, 14);
    if (s == signature("ms15")) return unigine::decodeMeshV2(ctx, 15);
    if (s == signature("sk10")) return unigine::decodeMeshV2(ctx, unigine::kSk10);
    if (s == signature("an10")) return unigine::decodeAnimationV2(ctx);
    if (s == signature("an12")) return unigine::decodeAnimationV2An12(ctx);
    if (s == signature("sn10")) return unigine::decodeSkeletonV2(ctx);

    Asset& a = ctx.asset();
    // decodeAs() can force this decoder onto any bytes.
    if (!isOtherUnigineSignature(b))
        ctx.fail(0, errc::kBadSignature,
                 "no Unigine signature (mi08, ms08, as08, mr02 ...) at the start");
    const std::string version(reinterpret_cast<const char*>(b.data()),
                              std::min<std::size_t>(b.size(), 4));
    const char* kind = version[0] == 'a'           ? "Unigine animation"
                       : version.starts_with("sn") ? "Unigine skeleton"
                       : version.starts_with("sk") ? "Unigine skinned mesh"
                                                   : "Unigine mesh";
    a.version = version;
    a.formatName = kind;
    const int root = unigine::addFileNode(ctx);
    a.addProperty(root, {"signature", "string", version, 0, 4});
    ctx.mapRange(0, 4, RangeKind::Header, "signature", root);
    auto scope = ctx.scope("header");
    ctx.fail(0, errc::kUnsupportedVersion,
             std::string(kind) + " version " + version +
                 " is not supported (only mi08, mr02, ms10, ms11, ms14 and ms15 .mesh, sk10 "
                 ".mesh_skinned, sn10 .skeleton, ms08 .smesh, as08 .sanim and an10 / an12 .anim "
                 "are decoded)");
}

}  // namespace

const FormatDecoder& unigineFormat() {
    static const FormatDecoder d{
        "unigine",
        "Unigine mesh",
        {".mesh", ".smesh", ".sanim", ".anim", ".mesh_skinned", ".skeleton"},
        probe,
        decode};
    return d;
}

}  // namespace meshscope
