// Broken Roblox binary models (.rbxm), made by writeRobloxModel plus surgery. Layout
// (shared/specs/roblox-binary-model.txt): a 32-byte header {"<roblox!", 6 signature bytes,
// u16 version, i32 classCount @16, i32 instanceCount @20, 8 reserved}, then chunks
// {char[4] name, u32 compressedLength @+4, u32 uncompressedLength @+8, u32 reserved, body};
// a body is LZ4 / ZSTD when compressedLength is not 0. Referent arrays are big-endian
// interleaved zigzag int32, each value a delta from the previous one. PRNT body: u8 version,
// u32 count, child referents, parent referents.
#pragma once

#include <zstd.h>

#include "broken_case.h"
#include "meshscope/core/roblox_model_writer.h"

namespace meshscope::test::broken {

namespace rbxm {

struct Chunk {
    std::string name;
    std::size_t at = 0, compressed = 0, uncompressed = 0;
    std::size_t body() const { return at + 16; }
    std::size_t end() const { return body() + (compressed ? compressed : uncompressed); }
};

inline std::vector<Chunk> chunksOf(const Bytes& b) {
    std::vector<Chunk> out;
    for (std::size_t at = 32; at < b.size();) {
        Chunk c;
        c.at = at;
        c.name = std::string(reinterpret_cast<const char*>(b.data() + at), 4);
        c.name = c.name.substr(0, c.name.find('\0'));
        c.compressed = getLe<std::uint32_t>(b, at + 4);
        c.uncompressed = getLe<std::uint32_t>(b, at + 8);
        out.push_back(c);
        at = c.end();
    }
    return out;
}

inline Chunk chunk(const Bytes& b, const std::string& name, std::size_t nth = 0) {
    for (const Chunk& c : chunksOf(b))
        if (c.name == name && nth-- == 0) return c;
    throw std::runtime_error("no chunk " + name);
}

// The PROP chunk of property `property` (its body holds u32 class id, u32 length, the name).
inline Chunk propChunk(const Bytes& b, const std::string& property) {
    for (const Chunk& c : chunksOf(b)) {
        if (c.name != "PROP" || c.compressed) continue;
        const std::uint32_t len = getLe<std::uint32_t>(b, c.body() + 4);
        if (std::string(reinterpret_cast<const char*>(b.data() + c.body() + 8), len) == property)
            return c;
    }
    throw std::runtime_error("no PROP chunk " + property);
}

inline std::vector<std::int32_t> readRefs(const Bytes& b, std::size_t at, std::size_t n) {
    std::vector<std::int32_t> out(n);
    std::int32_t acc = 0;
    for (std::size_t i = 0; i < n; ++i) {
        std::uint32_t z = 0;
        for (std::size_t k = 0; k < 4; ++k) z = z << 8 | b[at + k * n + i];
        acc += std::int32_t(z >> 1) ^ -std::int32_t(z & 1);
        out[i] = acc;
    }
    return out;
}

inline Bytes writeRefs(Bytes b, std::size_t at, const std::vector<std::int32_t>& refs) {
    const std::size_t n = refs.size();
    std::int32_t prev = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const std::int32_t d = refs[i] - prev;
        prev = refs[i];
        const std::uint32_t z = (std::uint32_t(d) << 1) ^ std::uint32_t(d >> 31);
        for (std::size_t k = 0; k < 4; ++k) b[at + k * n + i] = std::uint8_t(z >> (24 - 8 * k));
    }
    return b;
}

inline void addString(Asset& a, int n, const std::string& name, std::string value) {
    a.addProperty(n, {name, "string", std::move(value)});
}

// Root (Model) → A, B (Part) and Link (ObjectValue, Value → A).
inline Asset smallModel() {
    Asset a;
    a.format = "roblox-model";
    const int root = a.addNode("Root", "Model");
    addString(a, root, "Name", "Root");
    const int pa = a.addNode("A", "Part", root);
    addString(a, pa, "Name", "A");
    const int pb = a.addNode("B", "Part", root);
    addString(a, pb, "Name", "B");
    const int link = a.addNode("Link", "ObjectValue", root);
    addString(a, link, "Name", "Link");
    a.addProperty(link, {"Value", "Ref", NodeRef{pa}});
    return a;
}

inline Bytes write(const Asset& a, RobloxChunkCompression compression) {
    RobloxModelWriteOptions o;
    o.compression = compression;
    auto r = writeRobloxModel(a, o);
    if (!r.ok()) throw std::runtime_error("writeRobloxModel: " + *r.error);
    return r.bytes;
}

inline Bytes chunkBytes(const std::string& name, std::uint32_t compressed,
                        std::uint32_t uncompressed, const Bytes& body) {
    Bytes c = text(name);
    c.resize(16, 0);
    c = putLe<std::uint32_t>(c, 4, compressed);
    c = putLe<std::uint32_t>(c, 8, uncompressed);
    return concat(c, body);
}

}  // namespace rbxm

inline void addBinaryModelCases(std::vector<BrokenCase>& out) {
    using namespace rbxm;
    auto add = [&](std::string name, CaseBytes bytes, std::optional<Expect> error,
                   std::optional<Expect> warning = {},
                   std::function<void(const DecodeResult&)> keeps = {}) {
        out.push_back({"roblox_model", std::move(name), ".rbxm", std::move(bytes), std::move(error),
                       std::move(warning), std::move(keeps)});
    };
    const Asset model = smallModel();
    const Bytes raw = write(model, RobloxChunkCompression::None);
    const Bytes lz4 = write(model, RobloxChunkCompression::Lz4);
    const Chunk first = chunksOf(raw).front();
    const Chunk end = chunk(raw, "END");
    const Chunk prnt = chunk(raw, "PRNT");
    auto keepsInstances = [](std::size_t n) {
        return [n](const DecodeResult& r) { EXPECT_EQ(r.asset.nodes.size(), n); };
    };

    // Header and chunk framing.
    add("truncated_in_header", cut(raw, 18),
        diag("truncated", 16, "class count needs 4 bytes, 2 remain"));
    add("truncated_in_chunk_header", cut(raw, first.at + 6),
        diag("truncated", first.at + 4, "compressed length needs 4 bytes, 2 remain"));
    add("negative_class_count", putLe<std::int32_t>(raw, 16, -1),
        diag("bad-count", 16, "negative class or instance count"));
    // The instance count is the field at 20.
    add("negative_instance_count", putLe<std::int32_t>(raw, 20, -1),
        diag("bad-count", 20, "negative class or instance count"));
    add("instance_count_over_cap", putLe<std::int32_t>(raw, 20, 20'000'000),
        diag("limit", 20, "instance count 20000000 exceeds maxInstances"));
    // An uncompressed chunk (compressed length 0) whose uncompressed length, the field at +8,
    // runs past the end of the file.
    add("chunk_length_past_end", putLe<std::uint32_t>(raw, first.at + 8, 0x7fffffff),
        diag("truncated", first.at + 8,
             "uncompressed length 2147483647 of chunk \"" + first.name +
                 "\" runs past the end of the file"));
    {
        const Chunk c = chunksOf(lz4).front();
        add("compressed_chunk_length_past_end", putLe<std::uint32_t>(lz4, c.at + 4, 0x7fffffff),
            diag("truncated", c.at + 4,
                 "compressed length 2147483647 of chunk \"" + c.name +
                     "\" runs past the end of the file"));
        // An LZ4 chunk that claims to inflate to 64 MiB, past the 8 MiB budget of a small file:
        // refused before allocating.
        add("lz4_claims_64mib", putLe<std::uint32_t>(lz4, c.at + 8, 64u << 20),
            diag("limit", c.body(), "would exceed the decompression budget"));
        // One that claims 2 GiB is past the allocation cap too, which is checked first.
        add("lz4_claims_2gib", putLe<std::uint32_t>(lz4, c.at + 8, 0x7fffffff),
            diag("limit", c.body(), "2147483647 elements exceed the allocation cap"));
        // The LZ4 body overwritten with a match whose offset points before the output.
        Bytes b = lz4;
        for (std::size_t i = 0; i < std::min<std::size_t>(c.compressed, 8); ++i)
            b[c.body() + i] = i % 2 ? 0xff : 0x0f;
        add("lz4_corrupt", b, diag("lz4", c.body(), "LZ4"));
    }
    // 16 MiB of zeros as one ZSTD chunk (a few hundred bytes) before END.
    add("zstd_bomb", CaseBytes::lazy([raw, at = end.at] {
            const Bytes zeros = bombPayload();
            Bytes z(ZSTD_compressBound(zeros.size()));
            z.resize(ZSTD_compress(z.data(), z.size(), zeros.data(), zeros.size(), 3));
            return insertAt(raw, at,
                            chunkBytes("BOMB", std::uint32_t(z.size()), std::uint32_t(zeros.size()), z));
        }),
        diag("limit", end.at + 16, "would exceed the decompression budget"));
    // Zero-length chunks: one of an unknown name (kept), an INST with no bytes (fails, the
    // instances of the chunks before it are kept).
    add("zero_length_unknown_chunk", insertAt(raw, end.at, chunkBytes("ZERO", 0, 0, {})), {},
        diag("unknown-chunk", end.at, "unknown chunk \"ZERO\" kept as raw bytes"),
        keepsInstances(model.nodes.size()));
    add("zero_length_inst_chunk", insertAt(raw, prnt.at, chunkBytes("INST", 0, 0, {})),
        diag("truncated", prnt.at + 16, "class id needs 4 bytes, 0 remain"), {},
        keepsInstances(model.nodes.size()));

    // PRNT: body + 1 = count, + 5 = child referents, then parent referents.
    const std::size_t n = getLe<std::uint32_t>(raw, prnt.body() + 1);
    const auto children = readRefs(raw, prnt.body() + 5, n);
    const auto parents = readRefs(raw, prnt.body() + 5 + 4 * n, n);
    // Root's parent made A: Root → A → Root.
    {
        std::size_t rootLink = n, aLink = n;
        for (std::size_t i = 0; i < n; ++i) {
            if (parents[i] == -1)
                rootLink = i;
            else if (aLink == n)
                aLink = i;  // the first child of Root
        }
        auto p = parents;
        p[rootLink] = children[aLink];
        add("referent_cycle", writeRefs(raw, prnt.body() + 5 + 4 * n, p), {},
            diag("referent-cycle", prnt.at, "1 parent cycles were broken"),
            [](const DecodeResult& r) {
                // Every parent chain ends (at most one step per node).
                for (std::size_t i = 0; i < r.asset.nodes.size(); ++i) {
                    int v = int(i);
                    std::size_t steps = 0;
                    while (v >= 0 && steps++ <= r.asset.nodes.size()) v = r.asset.nodes[v].parent;
                    EXPECT_EQ(v, -1) << "node " << i << " sits on a cycle";
                }
            });
        auto q = parents;
        q[aLink] = 999;
        add("parent_referent_unknown", writeRefs(raw, prnt.body() + 5 + 4 * n, q), {},
            diag("missing-parent", prnt.at,
                 "1 instances have a parent referent no INST chunk defined"));
    }
    add("prnt_count_past_end", putLe<std::uint32_t>(raw, prnt.body() + 1, 0x7fffffff),
        diag("count-too-large", prnt.body() + 5, "parent links: 2147483647 × 8 bytes"), {},
        keepsInstances(model.nodes.size()));
    // ObjectValue.Value: body = u32 class id, u32 length, "Value", u8 type, then one referent.
    {
        const Chunk value = propChunk(raw, "Value");
        const std::size_t values = value.body() + 4 + 4 + 5 + 1;
        add("ref_property_dangling", writeRefs(raw, values, {999}), {},
            diag("dangling-referent", values,
                 "ObjectValue.Value refers to referent 999, which no instance has"),
            [](const DecodeResult& r) {
                const int link = nodeNamed(r.asset, "Link");
                ASSERT_GE(link, 0);
                const auto p = r.asset.property(link, "Value");
                ASSERT_TRUE(p.has_value());
                EXPECT_EQ(std::get<NodeRef>(p->value).node, -1);
            });
        add("prop_unknown_class_id", putLe<std::uint32_t>(raw, value.body(), 999), {},
            diag("unknown-class-id", value.at, "refers to class id 999"));
        // The Name of the first class: one string, u32 length then characters.
        const Chunk name = propChunk(raw, "Name");
        const std::size_t firstString = name.body() + 4 + 4 + 4 + 1;
        add("string_length_past_chunk", putLe<std::uint32_t>(raw, firstString, 0x7fffffff),
            diag("truncated", firstString + 4, "string needs 2147483647 bytes"));
    }
}

}  // namespace meshscope::test::broken
