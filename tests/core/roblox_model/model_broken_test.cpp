// Broken Roblox models: every prefix of a file, lengths past the end, a 4 GiB uncompressed
// length, corrupt LZ4/ZSTD bodies, unknown chunks and type ids, PROP chunks without a type
// byte, referent cycles, missing parents, duplicate referents and deep XML nesting. Each must be
// refused cleanly with an offset, or decoded with a warning, never crash or hang.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstring>

#include "meshscope/core/decode.h"
#include "meshscope/core/error_codes.h"
#include "meshscope/core/roblox_model_writer.h"
#include "model_compare.h"

namespace meshscope {
namespace {

using test::RawModel;

DecodeResult decode(const Bytes& b) {
    return decodeBytes(b, {.fileName = "broken.rbxm"});
}

bool hasWarning(const Asset& a, const std::string& code) {
    for (const auto& d : a.diagnostics)
        if (d.code == code) return true;
    return false;
}

// Offset of the n-th chunk header in a binary model (0 = the first after the file header).
std::size_t chunkOffset(const Bytes& b, int n) {
    std::size_t at = 32;
    for (int i = 0; i < n; ++i) {
        std::uint32_t c, u;
        std::memcpy(&c, b.data() + at + 4, 4);
        std::memcpy(&u, b.data() + at + 8, 4);
        at += 16 + (c ? c : u);
    }
    return at;
}

// Offset of the n-th chunk named `name` (n = 1 for the first), or past the end when there are
// fewer.
std::size_t nthChunk(const Bytes& b, const char* name, int n) {
    std::size_t at = test::chunkAt(b, name);
    for (int seen = 1; seen < n && at < b.size(); ++seen)
        at = test::chunkAt(b, name, test::chunkEnd(b, at));
    return at;
}

void putU32(Bytes& b, std::size_t at, std::uint32_t v) {
    std::memcpy(b.data() + at, &v, 4);
}

// Garbles the compressed body of the chunk at `at` with 0xff bytes, keeping the ZSTD magic so
// that the block is still routed to ZSTD (an LZ4 block of 0xff bytes asks for more literals than
// the block holds).
void garbleBody(Bytes& b, std::size_t at, RobloxChunkCompression c) {
    std::uint32_t len;
    std::memcpy(&len, b.data() + at + 4, 4);
    ASSERT_GT(len, 8u) << "the chunk is compressed";
    const std::size_t keep = c == RobloxChunkCompression::Zstd ? 4 : 0;
    for (std::size_t i = at + 16 + keep; i < at + 16 + len; ++i) b[i] = 0xff;
}

// The decode failed at the garbled body of the chunk at `at`, with the codec's error.
void expectCorruptAt(const DecodeResult& r, std::size_t at, RobloxChunkCompression c) {
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error->code, c == RobloxChunkCompression::Lz4 ? "lz4" : "zstd");
    EXPECT_EQ(r.error->offset, at + 16);
}

TEST(RobloxModelBroken, EveryPrefixFailsCleanly) {
    RobloxModelWriteOptions o;
    const Bytes full = writeRobloxModel(makeRobloxTypesModel(), o).bytes;
    for (std::size_t n = 0; n < full.size(); ++n) {
        const Bytes prefix(full.begin(), full.begin() + std::ptrdiff_t(n));
        const DecodeResult r = decode(prefix);
        if (n < 8) continue;  // too short to be sniffed as a model
        // Either refused with an offset inside the prefix, or (cut at a chunk boundary) decoded
        // with a missing-END warning.
        if (r.ok()) {
            EXPECT_TRUE(hasWarning(r.asset, errc::kMissingEnd)) << "prefix " << n;
        } else {
            EXPECT_LE(r.error->offset, n) << "prefix " << n << ": " << r.error->toString();
        }
    }
}

TEST(RobloxModelBroken, CompressedLengthPastTheEnd) {
    Bytes b = writeRobloxModel(makeRobloxTypesModel()).bytes;
    const std::size_t at = chunkOffset(b, 1);
    putU32(b, at + 4, 0x7fffffff);
    const DecodeResult r = decode(b);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error->code, errc::kTruncated);
    EXPECT_EQ(r.error->offset, at + 4);
    EXPECT_GE(r.asset.nodes.size(), 0u);
}

TEST(RobloxModelBroken, FourGiBUncompressedLengthIsRefusedBeforeAllocating) {
    RobloxModelWriteOptions o;
    for (auto c : {RobloxChunkCompression::Lz4, RobloxChunkCompression::Zstd,
                   RobloxChunkCompression::None}) {
        SCOPED_TRACE(int(c));
        o.compression = c;
        Bytes b = writeRobloxModel(makeRobloxTypesModel(), o).bytes;
        const std::size_t at = chunkOffset(b, 0);
        putU32(b, at + 8, 0xffffffffu);  // 4 GiB - 1, the largest a u32 can say
        const auto t0 = std::chrono::steady_clock::now();
        const DecodeResult r = decode(b);
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        ASSERT_FALSE(r.ok());
        // Compressed: the allocation cap / budget says no; raw: the body runs past the end.
        EXPECT_EQ(r.error->code, c == RobloxChunkCompression::None ? "truncated" : "limit");
        std::printf("[ measured ] refused in %.3f s\n", seconds);
    }
}

TEST(RobloxModelBroken, CorruptLz4AndZstd) {
    for (auto c : {RobloxChunkCompression::Lz4, RobloxChunkCompression::Zstd}) {
        SCOPED_TRACE(int(c));
        RobloxModelWriteOptions o;
        o.compression = c;
        Bytes b = writeRobloxModel(makeRobloxTypesModel(), o).bytes;
        const std::size_t at = chunkOffset(b, 1);
        ASSERT_NO_FATAL_FAILURE(garbleBody(b, at, c));
        expectCorruptAt(decode(b), at, c);
    }
}

// Chunks are inflated one at a time as they are decoded: a corrupt body late in the file still
// leaves the instances and values of the chunks before it (the partial result), and a corrupt
// chunk of either compression is reported at its own body.
TEST(RobloxModelBroken, ACorruptLateChunkKeepsWhatCameBeforeIt) {
    for (auto c : {RobloxChunkCompression::Lz4, RobloxChunkCompression::Zstd}) {
        SCOPED_TRACE(int(c));
        RobloxModelWriteOptions o;
        o.compression = c;
        const Asset model = makeRobloxTypesModel();
        Bytes b = writeRobloxModel(model, o).bytes;
        const DecodeResult whole = decode(b);
        ASSERT_TRUE(whole.ok()) << whole.error->toString();
        // The PRNT chunk: every INST and PROP chunk comes before it.
        const std::size_t at = nthChunk(b, "PRNT", 1);
        ASSERT_LT(at + 16, b.size()) << "no PRNT chunk";
        ASSERT_NO_FATAL_FAILURE(garbleBody(b, at, c));
        const DecodeResult r = decode(b);
        ASSERT_NO_FATAL_FAILURE(expectCorruptAt(r, at, c));
        // Every instance is there, with its values, as a root (the links were in PRNT).
        ASSERT_EQ(r.asset.nodes.size(), whole.asset.nodes.size());
        for (std::size_t i = 0; i < r.asset.nodes.size(); ++i) {
            EXPECT_EQ(r.asset.kind(int(i)), whole.asset.kind(int(i)));
            EXPECT_EQ(r.asset.name(int(i)), whole.asset.name(int(i)));
            EXPECT_EQ(r.asset.nodes[i].parent, -1);
            EXPECT_EQ(r.asset.properties(int(i)).size(), whole.asset.properties(int(i)).size());
        }
    }
}

// A large place's chunks are inflated on a worker thread ahead of the decoder (InflateAhead).
// A corrupt chunk half way still fails in its turn, at its own body, and leaves the tree and the
// values of every chunk before it, exactly as decoded from the whole file.
TEST(RobloxModelBroken, ALargePlaceFailsAtItsCorruptChunkWithEveryChunkBeforeIt) {
    for (auto c : {RobloxChunkCompression::Lz4, RobloxChunkCompression::Zstd}) {
        SCOPED_TRACE(int(c));
        RobloxModelWriteOptions o;
        o.compression = c;
        Bytes b = writeRobloxModel(makeRobloxPlace(20'000), o).bytes;
        // Over the 256 KiB of compressed chunks from which the decoder inflates ahead.
        ASSERT_GT(b.size(), std::size_t(300'000));
        const DecodeResult whole = decode(b);
        ASSERT_TRUE(whole.ok()) << whole.error->toString();
        // The 12th PROP chunk, of 25.
        const std::size_t at = nthChunk(b, "PROP", 12);
        ASSERT_LT(at + 16, b.size()) << "fewer than 12 PROP chunks";
        ASSERT_NO_FATAL_FAILURE(garbleBody(b, at, c));
        const DecodeResult r = decode(b);
        ASSERT_NO_FATAL_FAILURE(expectCorruptAt(r, at, c));
        const Asset& got = r.asset;
        const Asset& want = whole.asset;
        ASSERT_EQ(got.nodes.size(), want.nodes.size());
        for (std::size_t i = 0; i < got.nodes.size(); i += 97) {
            EXPECT_EQ(got.kind(int(i)), want.kind(int(i))) << i;
            EXPECT_EQ(got.name(int(i)), want.name(int(i))) << i;
        }
        // The tables hold the first columns of the whole file's tables, with the same values:
        // 11 PROP chunks in all, the 12th failed and the rest were not read.
        ASSERT_EQ(got.propertyTables.size(), want.propertyTables.size());
        std::size_t columns = 0;
        for (std::size_t t = 0; t < got.propertyTables.size(); ++t) {
            const auto& gc = got.propertyTables[t].columns;
            const auto& wc = want.propertyTables[t].columns;
            ASSERT_LE(gc.size(), wc.size());
            columns += gc.size();
            for (std::size_t k = 0; k < gc.size(); ++k) {
                EXPECT_EQ(gc[k].name, wc[k].name);
                ASSERT_EQ(gc[k].rows(), wc[k].rows()) << gc[k].name;
                for (std::size_t row = 0; row < gc[k].rows(); row += 89)
                    EXPECT_EQ(gc[k].value(row), wc[k].value(row)) << gc[k].name << " " << row;
            }
        }
        EXPECT_EQ(columns, 11u);
    }
}

TEST(RobloxModelBroken, ReferentCycleIsBrokenNotLoopedOn) {
    RawModel m(1, 3);
    m.chunk("INST", RawModel::inst(0, "Folder", {0, 1, 2}));
    m.chunk("PRNT", RawModel::prnt({0, 1, 2}, {1, 2, 0}));  // 0 -> 1 -> 2 -> 0
    m.end();
    const DecodeResult r = decode(m.bytes);
    ASSERT_TRUE(r.ok()) << r.error->toString();
    EXPECT_TRUE(hasWarning(r.asset, errc::kReferentCycle));
    EXPECT_EQ(r.asset.nodes.size(), 3u);
    ASSERT_EQ(r.asset.roots().size(), 1u);
    // Walking up from any node ends at the root.
    for (int i = 0; i < 3; ++i) {
        int steps = 0;
        for (int n = i; n >= 0 && steps < 10; n = r.asset.nodes[n].parent) ++steps;
        EXPECT_LE(steps, 3);
    }
}

TEST(RobloxModelBroken, MissingParentAndDuplicateReferent) {
    RawModel m(2, 3);
    m.chunk("INST", RawModel::inst(0, "Folder", {0, 1}));
    m.chunk("INST", RawModel::inst(1, "Part", {1}));   // referent 1 again
    m.chunk("PRNT", RawModel::prnt({0, 1}, {42, 0}));  // 42 does not exist
    m.end();
    const DecodeResult r = decode(m.bytes);
    ASSERT_TRUE(r.ok()) << r.error->toString();
    EXPECT_TRUE(hasWarning(r.asset, errc::kMissingParent));
    EXPECT_TRUE(hasWarning(r.asset, errc::kDuplicateReferent));
    EXPECT_EQ(r.asset.nodes.size(), 3u);
    EXPECT_EQ(r.asset.nodes[1].parent, 0);
    EXPECT_EQ(r.asset.nodes[0].parent, -1);
}

TEST(RobloxModelBroken, UnknownChunkTypeIdAndMissingTypeByte) {
    RawModel m(1, 2);
    m.chunk("INST", RawModel::inst(0, "Folder", {0, 1}));
    m.chunk("WHAT", Bytes{1, 2, 3});
    Bytes noType;
    RawModel::put(noType, std::uint32_t(0));
    RawModel::putString(noType, "Ghost");
    m.chunk("PROP", noType);
    Bytes unknownType = noType;
    unknownType.push_back(0x7e);  // no such type id
    unknownType.insert(unknownType.end(), {9, 9, 9, 9});
    m.chunk("PROP", unknownType);
    Bytes name;
    RawModel::put(name, std::uint32_t(0));
    RawModel::putString(name, "Name");
    RawModel::put(name, std::uint8_t(0x01));
    RawModel::putString(name, "First");
    RawModel::putString(name, "Second");
    m.chunk("PROP", name);
    m.chunk("PRNT", RawModel::prnt({0, 1}, {-1, 0}));
    m.end();
    const DecodeResult r = decode(m.bytes);
    ASSERT_TRUE(r.ok()) << r.error->toString();
    EXPECT_TRUE(hasWarning(r.asset, errc::kUnknownChunk));
    EXPECT_TRUE(hasWarning(r.asset, errc::kMissingType));
    EXPECT_TRUE(hasWarning(r.asset, errc::kUnknownType));
    ASSERT_EQ(r.asset.nodes.size(), 2u);
    EXPECT_EQ(r.asset.name(0), "First");
    EXPECT_EQ(r.asset.name(1), "Second");
    EXPECT_EQ(r.asset.nodes[1].parent, 0);
    // The unknown values stay in the byte map as a payload range.
    bool payload = false;
    for (const auto& range : r.asset.byteMap.ranges())
        payload |= range.kind == RangeKind::Payload &&
                   range.path.find("unknown values") != std::string::npos;
    EXPECT_TRUE(payload);
    for (const auto& d : r.asset.diagnostics)
        if (d.code == errc::kUnknownType) {
            EXPECT_GT(d.offset, 32u);
        }
}

TEST(RobloxModelBroken, DeepXmlNestingIsCapped) {
    auto nested = [](int depth) {
        std::string s = "<roblox version=\"4\">";
        for (int i = 0; i < depth; ++i) s += "<Item class=\"Folder\"><Properties/>";
        for (int i = 0; i < depth; ++i) s += "</Item>";
        s += "</roblox>";
        return Bytes(s.begin(), s.end());
    };
    const DecodeResult deep = decodeBytes(nested(10000), {.fileName = "deep.rbxmx"});
    ASSERT_FALSE(deep.ok());
    EXPECT_EQ(deep.error->code, errc::kLimit);
    EXPECT_GT(deep.error->offset, 0u);
    const DecodeResult fine = decodeBytes(nested(500), {.fileName = "deep.rbxmx"});
    ASSERT_TRUE(fine.ok()) << fine.error->toString();
    EXPECT_EQ(fine.asset.nodes.size(), 500u);
    EXPECT_EQ(fine.asset.roots().size(), 1u);
}

TEST(RobloxModelBroken, XmlReferentProblems) {
    const std::string s =
        "<roblox version=\"4\">"
        "<Item class=\"ObjectValue\" referent=\"A\"><Properties><string name=\"Name\">a</string>"
        "<Ref name=\"Value\">NOPE</Ref></Properties></Item>"
        "<Item class=\"ObjectValue\" referent=\"A\"><Properties><Ref name=\"Value\">A</Ref>"
        "</Properties></Item></roblox>";
    const DecodeResult r = decodeBytes(Bytes(s.begin(), s.end()), {.fileName = "x.rbxmx"});
    ASSERT_TRUE(r.ok());
    EXPECT_TRUE(hasWarning(r.asset, errc::kDuplicateReferent));
    EXPECT_TRUE(hasWarning(r.asset, errc::kDanglingReferent));
    ASSERT_EQ(r.asset.nodes.size(), 2u);
    EXPECT_EQ(std::get<NodeRef>(r.asset.ownProperty(0, "Value")->value).node, -1);
    EXPECT_EQ(std::get<NodeRef>(r.asset.ownProperty(1, "Value")->value).node, 0);
    EXPECT_EQ(r.asset.name(0), "a");
    EXPECT_EQ(r.asset.name(1), "ObjectValue");  // no Name property: the class
}

TEST(RobloxModelBroken, MalformedXmlNamesTheOffset) {
    const std::string s =
        "<roblox version=\"4\"><Item class=\"Folder\"><Properties></Item></roblox>";
    const DecodeResult r = decodeBytes(Bytes(s.begin(), s.end()), {.fileName = "x.rbxmx"});
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error->code, errc::kXml);
    EXPECT_GT(r.error->offset, 0u);
}

}  // namespace
}  // namespace meshscope
