// Broken Second Life mesh assets, made by writeSecondLifeMesh plus surgery. The layout
// (shared/specs/secondlife-mesh-asset.txt): a binary LLSD map header, then zlib blocks whose
// "offset" counts from the end of the header. Binary LLSD (walked here independently of the
// decoder): '{' u32be count {'k' u32be length key value}... '}', '[' u32be count values ']',
// 'i' i32be, 'r' f64be, 's'/'b'/'l' u32be length + bytes, 'u' 16 bytes, 'd' 8 bytes, '!', '1', '0'.
// Errors inside a block carry the block's file offset (its bytes are compressed) and say where
// in the inflated data they are.
#pragma once

#include <cstdio>
#include <limits>
#include <map>

#include "broken_case.h"
#include "meshscope/core/mesh_generators.h"
#include "meshscope/core/secondlife_writer.h"

namespace meshscope::test::broken {

namespace secondlife {

// The end of the LLSD value at `at`.
inline std::size_t llsdEnd(const Bytes& b, std::size_t at) {
    switch (char(b.at(at))) {
        case 'i':
            return at + 5;
        case 'r':
        case 'd':
            return at + 9;
        case 'u':
            return at + 17;
        case '!':
        case '1':
        case '0':
            return at + 1;
        case 's':
        case 'b':
        case 'l':
            return at + 5 + getBe32(b, at + 1);
        case '[': {
            std::size_t pos = at + 5;
            for (std::uint32_t i = 0, n = getBe32(b, at + 1); i < n; ++i) pos = llsdEnd(b, pos);
            return pos + 1;
        }
        case '{': {
            std::size_t pos = at + 5;
            for (std::uint32_t i = 0, n = getBe32(b, at + 1); i < n; ++i)
                pos = llsdEnd(b, pos + 5 + getBe32(b, pos + 1));
            return pos + 1;
        }
        default:
            throw std::runtime_error("unexpected LLSD type byte");
    }
}

// Key → offset of the value's type byte, for the map at `at`; `keyAt` gets each key's 'k'.
inline std::map<std::string, std::size_t> mapEntries(
    const Bytes& b, std::size_t at, std::map<std::string, std::size_t>* keyAt = nullptr) {
    if (b.at(at) != '{') throw std::runtime_error("not an LLSD map");
    std::map<std::string, std::size_t> out;
    std::size_t pos = at + 5;
    for (std::uint32_t i = 0, n = getBe32(b, at + 1); i < n; ++i) {
        const std::uint32_t len = getBe32(b, pos + 1);
        const std::string key(reinterpret_cast<const char*>(b.data() + pos + 5), len);
        if (keyAt) (*keyAt)[key] = pos;
        out[key] = pos + 5 + len;
        pos = llsdEnd(b, out[key]);
    }
    return out;
}

struct Block {
    std::string name;
    std::size_t entry = 0;     // the block's map in the header
    std::size_t offsetAt = 0;  // the 'i' of "offset"
    std::size_t sizeAt = 0;    // the 'i' of "size"
    std::size_t offset = 0, size = 0;
};

struct Layout {
    std::size_t headerEnd = 0;
    std::map<std::string, Block> blocks;
    std::size_t absolute(const std::string& name) const {
        return headerEnd + blocks.at(name).offset;
    }
};

inline Layout layoutOf(const Bytes& b) {
    Layout l;
    l.headerEnd = llsdEnd(b, 0);
    for (const auto& [key, at] : mapEntries(b, 0)) {
        if (b[at] != '{') continue;
        const auto e = mapEntries(b, at);
        Block k;
        k.name = key;
        k.entry = at;
        k.offsetAt = e.at("offset");
        k.sizeAt = e.at("size");
        k.offset = getBe32(b, k.offsetAt + 1);
        k.size = getBe32(b, k.sizeAt + 1);
        l.blocks[key] = k;
    }
    return l;
}

// The file with block `name`'s compressed bytes replaced by `data`; the blocks after it move and
// every "offset"/"size" integer is rewritten in place (they are fixed-width).
inline Bytes replaceBlock(const Bytes& file, const std::string& name, const Bytes& data) {
    const Layout l = layoutOf(file);
    std::vector<Block> order;
    for (const auto& [k, b] : l.blocks) order.push_back(b);
    std::sort(order.begin(), order.end(),
              [](const Block& a, const Block& b) { return a.offset < b.offset; });
    Bytes out(file.begin(), file.begin() + std::ptrdiff_t(l.headerEnd));
    std::size_t end = l.headerEnd;
    for (const Block& b : order) {
        const std::size_t offset = out.size() - l.headerEnd;
        if (b.name == name) {
            out = concat(out, data);
        } else {
            out.insert(out.end(), file.begin() + std::ptrdiff_t(l.headerEnd + b.offset),
                       file.begin() + std::ptrdiff_t(l.headerEnd + b.offset + b.size));
        }
        out = putBe32(out, b.offsetAt + 1, std::uint32_t(offset));
        out = putBe32(out, b.sizeAt + 1, std::uint32_t(out.size() - l.headerEnd - offset));
        end = std::max(end, l.headerEnd + b.offset + b.size);
    }
    out.insert(out.end(), file.begin() + std::ptrdiff_t(end), file.end());
    return out;
}

inline Bytes blockLlsd(const Bytes& file, const std::string& name) {
    const Layout l = layoutOf(file);
    const std::size_t at = l.absolute(name);
    return inflateZlibBytes(Bytes(file.begin() + std::ptrdiff_t(at),
                                  file.begin() + std::ptrdiff_t(at + l.blocks.at(name).size)));
}

// A value in an inflated block: the type byte after key `key` (the first one at or after `from`).
inline std::size_t valueAfterKey(const Bytes& llsd, const std::string& key, std::size_t from = 0) {
    std::string needle = "k";
    needle += std::string(3, '\0');
    needle += char(key.size());
    needle += key;
    return find(llsd, needle, from) + needle.size();
}

inline Asset lods() {
    Asset a;
    a.meshes.push_back(makeUvSphere(4, 6).meshes[0]);
    a.meshes.push_back(makeUvSphere(3, 4).meshes[0]);
    a.meshes[0].name = "high_lod";
    a.meshes[1].name = "medium_lod";
    return a;
}

inline Bytes write(const Asset& a, const SecondLifeWriteOptions& o = {}) {
    auto r = writeSecondLifeMesh(a, o);
    if (!r.ok()) throw std::runtime_error("writeSecondLifeMesh: " + *r.error);
    return r.bytes;
}

inline std::function<void(const DecodeResult&)> keepsMesh(std::string name) {
    return [name](const DecodeResult& r) {
        bool found = false;
        for (const auto& m : r.asset.meshes)
            if (m.name == name && !m.positions.empty()) found = true;
        EXPECT_TRUE(found) << name << " was not kept";
    };
}

inline std::string inBlock(std::size_t pos) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "(at +0x%zx in the decompressed block)", pos);
    return buf;
}

}  // namespace secondlife

inline void addSecondLifeCases(std::vector<BrokenCase>& out) {
    using namespace secondlife;
    auto add = [&](std::string name, CaseBytes bytes, std::optional<Expect> error,
                   std::optional<Expect> warning = {},
                   std::function<void(const DecodeResult&)> keeps = {}) {
        out.push_back({"secondlife", std::move(name), ".llmesh", std::move(bytes), std::move(error),
                       std::move(warning), std::move(keeps)});
    };
    const Asset asset = lods();
    const Bytes file = write(asset);
    const Layout l = layoutOf(file);
    const Block& high = l.blocks.at("high_lod");
    const std::size_t highAt = l.absolute("high_lod");
    const std::size_t V = asset.meshes[0].positions.size();

    // Header: cut two characters into the second key (its 'k', u32 length, then the characters).
    {
        std::map<std::string, std::size_t> keys;
        mapEntries(file, 0, &keys);
        const std::size_t k = keys.at("medium_lod");
        add("header_truncated_in_key", cut(file, k + 5 + 2),
            diag("count-too-large", k + 5,
                 "LLSD map key: 10 × 1 bytes needs 10 but only 2 remain"));
    }
    // The block's size runs past the end of the file: the rest still decodes.
    add("block_size_past_end", putBe32(file, high.sizeAt + 1, std::uint32_t(file.size())),
        diag("truncated", high.sizeAt,
             "block \"high_lod\" spans file bytes " + std::to_string(highAt) + " to " +
                 std::to_string(highAt + file.size())),
        {}, keepsMesh("medium_lod"));
    add("block_offset_past_end",
        putBe32(file, high.offsetAt + 1, std::uint32_t(file.size() - l.headerEnd + 10)),
        diag("block-out-of-range", high.offsetAt,
             "block \"high_lod\" spans file bytes " + std::to_string(file.size() + 10)),
        {}, keepsMesh("medium_lod"));
    add("block_negative_size", putBe32(file, high.sizeAt + 1, 0xfffffff6u), {},
        diag("block-out-of-range", high.entry,
             "negative offset or size (" + std::to_string(high.offset) + ", -10)"),
        keepsMesh("medium_lod"));
    // A zero-length block: no zlib header to read.
    add("block_zero_length", putBe32(file, high.sizeAt + 1, 0),
        diag("zlib", highAt, "block does not start with a zlib header (78 xx); found 00 00"), {},
        keepsMesh("medium_lod"));
    // Bytes 2..5 of the stream (after the 2-byte zlib header) set to ff: BFINAL 1, BTYPE 11.
    {
        Bytes b = file;
        for (std::size_t i = 2; i < 6; ++i) b[highAt + i] = 0xff;
        add("block_zlib_corrupt", b,
            diag("zlib", highAt, "zlib data is corrupt: invalid block type"), {},
            keepsMesh("medium_lod"));
    }
    // medium_lod pointed at 16 MiB of zeros appended after the blocks (a zlib bomb).
    {
        // The writer appends the trailing bytes after the last block: the bomb starts where the
        // file without them ends.
        const std::size_t bombAt = file.size();
        add("block_zlib_bomb", CaseBytes::lazy([asset, bombAt] {
                SecondLifeWriteOptions o;
                o.trailingBytes = deflateBytes(bombPayload(), false);
                const Bytes withBomb = write(asset, o);
                if (withBomb.size() - o.trailingBytes.size() != bombAt)
                    throw std::runtime_error("the trailing bytes are not at the end");
                const Layout wl = layoutOf(withBomb);
                const Block& medium = wl.blocks.at("medium_lod");
                Bytes b =
                    putBe32(withBomb, medium.offsetAt + 1, std::uint32_t(bombAt - wl.headerEnd));
                return putBe32(b, medium.sizeAt + 1, std::uint32_t(o.trailingBytes.size()));
            }),
            diag("limit", bombAt, "would exceed the decompression budget"), {},
            keepsMesh("high_lod"));
    }
    // Nesting: a header whose first block entry holds 600 nested arrays. '{' count (5 bytes),
    // 'k' length "high_lod" (13), then '[' count (5 bytes each): the map is level 1, so the 512th
    // array (at 18 + 511 × 5) is the first past Limits::maxDepth = 512.
    {
        Bytes b = text("{");
        b = concat(b, Bytes{0, 0, 0, 1, 'k', 0, 0, 0, 8});
        b = concat(b, text("high_lod"));
        for (int i = 0; i < 600; ++i) b = concat(b, Bytes{'[', 0, 0, 0, 1});
        b = concat(b, Bytes(1, '!'));
        b = concat(b, Bytes(600, ']'));
        b = concat(b, Bytes(1, '}'));
        add("header_deep_nesting", b,
            diag("limit", 18 + 511 * 5, "LLSD nesting deeper than 512 levels"));
    }
    // The same inside a block: 600 nested arrays inflated from high_lod. With no map around
    // them the 513th array (at 512 × 5 in the inflated data) is the first too deep.
    {
        Bytes nest;
        for (int i = 0; i < 600; ++i) nest = concat(nest, Bytes{'[', 0, 0, 0, 1});
        nest = concat(nest, Bytes(1, '!'));
        nest = concat(nest, Bytes(600, ']'));
        add("block_deep_nesting", replaceBlock(file, "high_lod", deflateBytes(nest, false)),
            diag("limit", highAt, "(Limits::maxDepth) " + inBlock(512 * 5)), {},
            keepsMesh("medium_lod"));
    }
    // Inside high_lod's LLSD: the first TriangleList index ('b', u32 length, u16 indices)
    // names vertex 65535.
    {
        Bytes llsd = blockLlsd(file, "high_lod");
        const std::size_t tri = valueAfterKey(llsd, "TriangleList");
        const std::size_t triangles = getBe32(llsd, tri + 1) / 6;
        llsd = putLe<std::uint16_t>(llsd, tri + 5, 0xffff);
        add("triangle_index_out_of_range",
            replaceBlock(file, "high_lod", deflateBytes(llsd, false)), {},
            diag("index-out-of-range", highAt,
                 "1 triangles name a vertex >= the face's " + std::to_string(V) + " vertices"),
            [triangles](const DecodeResult& r) {
                for (const auto& m : r.asset.meshes)
                    if (m.name == "high_lod") EXPECT_EQ(m.indices.size(), (triangles - 1) * 3);
            });
    }
    // PositionDomain's Min ('[' count, then 'r' f64be × 3): x becomes NaN, y +Inf.
    {
        Bytes llsd = blockLlsd(file, "high_lod");
        const std::size_t min = valueAfterKey(llsd, "Min", valueAfterKey(llsd, "PositionDomain"));
        llsd = putBe64(llsd, min + 5 + 1,
                       std::bit_cast<std::uint64_t>(std::numeric_limits<double>::quiet_NaN()));
        llsd = putBe64(llsd, min + 5 + 9 + 1,
                       std::bit_cast<std::uint64_t>(std::numeric_limits<double>::infinity()));
        add("position_domain_not_finite", replaceBlock(file, "high_lod", deflateBytes(llsd, false)),
            {}, diag("bad-domain", highAt, "PositionDomain Min/Max are not finite"),
            [](const DecodeResult& r) {
                for (const auto& m : r.asset.meshes)
                    for (const auto& p : m.positions) ASSERT_TRUE(p.finite());
            });
    }
    // Skinned: Weights cut to half their bytes (the 'b' length rewritten).
    {
        Asset skinned = makeSkinnedCylinder(3, 3, 5);
        skinned.meshes[0].name = "high_lod";
        const Bytes sf = write(skinned);
        const Layout sl = layoutOf(sf);
        Bytes llsd = blockLlsd(sf, "high_lod");
        const std::size_t w = valueAfterKey(llsd, "Weights");
        const std::uint32_t length = getBe32(llsd, w + 1);
        llsd.erase(llsd.begin() + std::ptrdiff_t(w + 5 + length / 2),
                   llsd.begin() + std::ptrdiff_t(w + 5 + length));
        llsd = putBe32(llsd, w + 1, length / 2);
        add("weights_truncated", replaceBlock(sf, "high_lod", deflateBytes(llsd, false)), {},
            diag("truncated-weights", sl.absolute("high_lod"), "Weights end after"),
            keepsMesh("high_lod"));
        // alt_inverse_bind_matrix with one matrix for three joints.
        SecondLifeWriteOptions o;
        o.altInverseBindMatrices = std::vector<Mat4>(1);
        const Bytes alt = write(skinned, o);
        add("skin_alt_matrix_count_mismatch", alt, {},
            diag("alt-count-mismatch", layoutOf(alt).absolute("skin"),
                 "alt_inverse_bind_matrix holds 1 matrices for " +
                     std::to_string(skinned.skeletons[0].bones.size()) + " joints"));
    }
}

}  // namespace meshscope::test::broken
