// FileMesh 1.00 / 1.01: text. A face count line, then 9 bracketed Vector3 per face
// ([pos][normal][uv] × 3). Hand-written scanner over the bytes with std::from_chars (numbers:
// io/decimal.h): no locale, no exceptions, one pass.
//   - 1.00 positions are half scale: multiplied by 0.5 here (1.01 is unscaled).
//   - Text UVs are V-flipped relative to binary v2+: V is stored as 1 - v so that the whole core
//     uses the binary convention (format.md).
//   - Old exporters wrote MSVC specials ("1.#IND", "-1.#QNAN", "1.#INF"): read as NaN / infinity.
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string_view>

#include "formats/roblox_mesh/mesh_decoder.h"
#include "io/decimal.h"
#include "meshscope/core/error_codes.h"

namespace meshscope::filemesh {

namespace {

std::string str(std::uint64_t v) {
    return std::to_string(v);
}

class TextScanner {
public:
    TextScanner(DecodeContext& ctx, ByteSpan bytes, std::size_t pos)
        : ctx_(ctx),
          begin_(reinterpret_cast<const char*>(bytes.data())),
          p_(begin_ + pos),
          end_(begin_ + bytes.size()) {}

    std::size_t pos() const { return std::size_t(p_ - begin_); }
    bool atEnd() const { return p_ >= end_; }
    void skipSpace() {
        while (p_ < end_ && (*p_ == ' ' || *p_ == '\t' || *p_ == '\r' || *p_ == '\n')) ++p_;
    }
    // Spaces and tabs only (inside the count line).
    void skipBlanks() {
        while (p_ < end_ && (*p_ == ' ' || *p_ == '\t')) ++p_;
    }
    void expect(char c, const char* what) {
        skipSpace();
        if (p_ >= end_)
            ctx_.fail(pos(), errc::kTruncated,
                      std::string("unexpected end of file: expected ") + what);
        if (*p_ != c)
            ctx_.fail(pos(), errc::kSyntax,
                      std::string("expected ") + what + ", found " + describe());
        ++p_;
    }
    std::uint64_t unsignedInt(const char* what) {
        skipBlanks();
        std::uint64_t v = 0;
        const auto [next, ec] = std::from_chars(p_, end_, v);
        if (ec == std::errc::result_out_of_range)
            ctx_.fail(pos(), errc::kSyntax, std::string(what) + " is too large");
        if (ec != std::errc())
            ctx_.fail(pos(), p_ >= end_ ? errc::kTruncated : errc::kSyntax,
                      std::string("expected ") + what + ", found " + describe());
        p_ = next;
        return v;
    }
    float number() {
        skipSpace();
        if (p_ < end_ && *p_ == '+') ++p_;  // from_chars takes no leading '+'
        float v = 0;
        const auto [next, ec] = decimalFromChars(p_, end_, v);
        if (ec == std::errc::result_out_of_range) {
            // Out of float range: keep the sign, the vertex is warned about as non-finite.
            v = (p_ < end_ && *p_ == '-') ? -std::numeric_limits<float>::infinity()
                                          : std::numeric_limits<float>::infinity();
        } else if (ec != std::errc()) {
            ctx_.fail(pos(), p_ >= end_ ? errc::kTruncated : errc::kSyntax,
                      "expected a number, found " + describe());
        }
        p_ = next;
        if (p_ < end_ && *p_ == '#') {
            // MSVC's "1.#IND00", "-1.#QNAN", "1.#INF": the digits before '#' are not the value.
            const char* s = p_;
            while (p_ < end_ && (*p_ == '#' || std::isalnum(static_cast<unsigned char>(*p_)))) ++p_;
            const bool inf = std::string_view(s, std::size_t(p_ - s)).starts_with("#INF");
            v = inf ? std::copysign(std::numeric_limits<float>::infinity(), v)
                    : std::numeric_limits<float>::quiet_NaN();
        }
        return v;
    }
    Vec3 vector() {
        expect('[', "'['");
        Vec3 v;
        v.x = number();
        expect(',', "','");
        v.y = number();
        expect(',', "','");
        v.z = number();
        expect(']', "']'");
        return v;
    }
    std::string describe() const {
        if (p_ >= end_) return "the end of the file";
        const unsigned char c = static_cast<unsigned char>(*p_);
        if (c >= 0x20 && c < 0x7f) return std::string("'") + char(c) + "'";
        char buf[16];
        std::snprintf(buf, sizeof buf, "byte 0x%02x", c);
        return buf;
    }

private:
    DecodeContext& ctx_;
    const char* begin_;
    const char* p_;
    const char* end_;
};

}  // namespace

void decodeTextV1(Builder& b) {
    DecodeContext& ctx = b.ctx;
    TextScanner s(ctx, ctx.bytes(), b.version.dataStart);
    const bool halfScale = b.version.minor == 0;

    std::uint64_t faces = 0;
    const int header = b.addNode("header", "header", b.root, 0, 0);
    {
        auto scope = ctx.scope("header");
        const std::size_t at = s.pos();
        faces = s.unsignedInt("the face count");
        const std::size_t end = s.pos();
        ctx.mapRange(at, end - at, RangeKind::Field, "num_faces", header);
        b.property(header, "num_faces", "uint32", std::int64_t(faces), at, end - at);
        b.property(header, "scale", "string",
                   std::string(halfScale ? "1.00: positions × 0.5" : "1.01: unscaled"));
        b.setBytes(header, 0, end);
        ctx.mapRange(0, end, RangeKind::Header, {}, header);
    }

    auto scope = ctx.scope("data");
    const std::size_t dataAt = s.pos();
    // Each face is 9 vectors of at least 7 bytes ("[0,0,0]"): check before allocating.
    const std::uint64_t remaining = ctx.bytes().size() - dataAt;
    if (faces > remaining / 63)
        ctx.fail(dataAt, errc::kCountTooLarge,
                 str(faces) + " faces need at least " + str(faces) +
                     " × 63 bytes of text but only " + str(remaining) + " remain");
    if (faces * 3 > ctx.limits().maxVertices)
        ctx.fail(dataAt, errc::kLimit, str(faces * 3) + " vertices exceed the vertex cap");
    const std::size_t n = std::size_t(faces) * 3;
    ctx.checkAllocation(dataAt, n, 36, "vertices");

    Mesh& m = b.mesh();
    m.positions.resize(n);
    m.normals.resize(n);
    m.uv0.resize(n);
    const float scale = halfScale ? 0.5f : 1.0f;
    for (std::size_t i = 0; i < n; ++i) {
        if ((i & 0xffff) == 0) {
            ctx.checkCancel(s.pos());
            ctx.progress(double(i) / double(n));
        }
        const Vec3 p = s.vector();
        const Vec3 nr = s.vector();
        const Vec3 t = s.vector();
        m.positions[i] = p * scale;
        m.normals[i] = nr;
        m.uv0[i] = {t.x, 1.0f - t.y};
    }
    const std::size_t dataEnd = s.pos();
    const int vn = b.addNode("vertices", "vertices", b.root, dataAt, dataEnd - dataAt);
    b.asset.linksOf(vn).mesh = 0;
    b.property(vn, "count", "uint32", std::int64_t(n));
    ctx.mapRange(dataAt, dataEnd - dataAt, RangeKind::Array, {}, vn);
    b.vertexOffset = dataAt;

    // Faces are implicit: vertex 3f, 3f+1, 3f+2.
    m.indices.resize(n);
    for (std::size_t i = 0; i < n; ++i) m.indices[i] = std::uint32_t(i);
    const int fn = b.addNode("faces", "faces", b.root);
    b.asset.linksOf(fn).mesh = 0;
    b.property(fn, "count", "uint32", std::int64_t(faces));
    b.property(fn, "note", "string", std::string("implicit: three consecutive vertices per face"));

    s.skipSpace();
    if (s.pos() > dataEnd)
        ctx.mapRange(dataEnd, s.pos() - dataEnd, RangeKind::Padding, "trailing whitespace", b.root);
    if (!s.atEnd()) {
        ctx.warn(s.pos(), errc::kTrailingBytes,
                 str(ctx.bytes().size() - s.pos()) + " bytes after the " + str(faces) + " faces");
        ctx.mapRange(s.pos(), ctx.bytes().size() - s.pos(), RangeKind::Padding, "trailing bytes",
                     b.root);
    }
}

}  // namespace meshscope::filemesh
