// Roblox FileMesh: the registry descriptor (cheap content probe) and the decode entry point that
// reads the "version X.YY" line and hands the rest to the layout of that version.
#include <cstring>

#include "formats/formats.h"
#include "formats/roblox_mesh/mesh_decoder.h"
#include "meshscope/core/error_codes.h"

namespace meshscope {

namespace filemesh {

namespace {

bool isDigit(std::uint8_t c) {
    return c >= '0' && c <= '9';
}
constexpr std::size_t kVersionTextEnd = 12;  // "version D.DD"

// "version D.DD" without looking at the line end.
bool versionText(ByteSpan b, int& major, int& minor) {
    if (b.size() < kVersionTextEnd || std::memcmp(b.data(), "version ", 8) != 0) return false;
    if (!isDigit(b[8]) || b[9] != '.' || !isDigit(b[10]) || !isDigit(b[11])) return false;
    major = b[8] - '0';
    minor = (b[10] - '0') * 10 + (b[11] - '0');
    return true;
}

}  // namespace

bool isGitLfsPointer(ByteSpan b) {
    static constexpr char kLfs[] = "version https://git-lfs";
    return b.size() >= sizeof kLfs - 1 && std::memcmp(b.data(), kLfs, sizeof kLfs - 1) == 0;
}

bool knownVersion(int major, int minor) {
    switch (major) {
        case 1:
            return minor == 0 || minor == 1;
        case 2:
            return minor == 0;
        case 3:
            return minor == 0 || minor == 1;
        case 4:
            return minor == 0 || minor == 1;
        case 5:
        case 6:
        case 7:
            return minor == 0;
        default:
            return false;
    }
}

std::optional<VersionLine> parseVersionLine(ByteSpan b) {
    VersionLine v;
    if (!versionText(b, v.major, v.minor)) return std::nullopt;
    v.text.assign(reinterpret_cast<const char*>(b.data()) + 8, 4);
    v.lineEnd = kVersionTextEnd;
    // Several v1.00 files end the line with CRLF (krakow10 158071912, LuigiBlox sword.mesh).
    if (b.size() > 12 && b[12] == '\n') {
        v.dataStart = 13;
    } else if (b.size() > 13 && b[12] == '\r' && b[13] == '\n') {
        v.dataStart = 14;
        v.crlf = true;
    } else {
        return std::nullopt;
    }
    return v;
}

Builder::Builder(DecodeContext& c, const VersionLine& v) : ctx(c), asset(c.asset()), version(v) {
    asset.version = v.text;
    asset.meshes.emplace_back();
    Mesh& m = asset.meshes[0];
    m.name = "FileMesh";
    leaveArrays = !ctx.options().loadGeometry;
    root = addNode("FileMesh " + v.text, "file", -1, 0, ctx.bytes().size());
    asset.linksOf(root).mesh = 0;
    m.node = root;
    property(root, "version", "string", v.text, 8, 4);
    property(root, "lineEnding", "string", std::string(v.crlf ? "CRLF" : "LF"), v.lineEnd,
             v.dataStart - v.lineEnd);
}

int Builder::addNode(std::string name, std::string kind, int parent, std::uint64_t offset,
                     std::uint64_t length) {
    const int n = asset.addNode(std::move(name), std::move(kind), parent);
    asset.nodes[n].offset = offset;
    asset.nodes[n].length = length;
    return n;
}

void Builder::setBytes(int node, std::uint64_t offset, std::uint64_t length) {
    asset.nodes[node].offset = offset;
    asset.nodes[node].length = length;
}

void Builder::property(int node, std::string name, std::string type, Value value,
                       std::uint64_t offset, std::uint64_t length) {
    asset.addProperty(node, {std::move(name), std::move(type), std::move(value), offset, length});
}

}  // namespace filemesh

namespace {

int probe(ByteSpan b) {
    if (filemesh::isGitLfsPointer(b)) return 0;
    int major = 0, minor = 0;
    if (!filemesh::versionText(b, major, minor)) return 0;
    const bool lineEnd = filemesh::parseVersionLine(b).has_value();
    if (!filemesh::knownVersion(major, minor)) return lineEnd ? 10 : 0;  // decode says why
    return lineEnd ? 100 : 60;  // 60: a known version cut off before its line end
}

void decode(DecodeContext& ctx) {
    using namespace filemesh;
    const ByteSpan bytes = ctx.bytes();
    if (isGitLfsPointer(bytes))
        ctx.fail(0, errc::kGitLfsPointer,
                 "this is a Git LFS pointer file (\"version https://git-lfs...\"), not a FileMesh: "
                 "fetch the real file with git lfs pull");
    std::optional<VersionLine> line;
    {
        auto scope = ctx.scope("version");
        int major = 0, minor = 0;
        if (!versionText(bytes, major, minor))
            ctx.fail(0, errc::kBadHeader, "expected a \"version X.YY\" header line");
        line = parseVersionLine(bytes);
        if (!line)
            ctx.fail(kVersionTextEnd,
                     bytes.size() > kVersionTextEnd ? errc::kBadHeader : errc::kTruncated,
                     "the version line must end with a newline");
        if (!knownVersion(major, minor))
            ctx.fail(8, errc::kUnsupportedVersion,
                     "FileMesh version " + line->text +
                         " is not supported (known: 1.00, 1.01, 2.00, 3.00, 3.01, 4.00, 4.01, "
                         "5.00, 6.00, 7.00)");
    }
    Builder b(ctx, *line);
    ctx.mapRange(0, line->dataStart, RangeKind::Header, "version", b.root);
    switch (line->major) {
        case 1:
            decodeTextV1(b);
            break;
        case 2:
        case 3:
        case 4:
        case 5:
            decodeFixedV2V5(b);
            break;
        default:
            decodeChunksV6V7(b);
            break;
    }
    b.finish();
}

}  // namespace

const FormatDecoder& robloxMeshFormat() {
    static const FormatDecoder d{"roblox-mesh", "Roblox FileMesh", {".mesh"}, probe, decode};
    return d;
}

}  // namespace meshscope
