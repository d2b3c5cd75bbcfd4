// Broken CSG union blobs, made by writeCsgGraphics / writeCsgPhysics (and the CSGMDL 5 assembler
// in tests/support) plus byte surgery; CSGPHS 8 blobs are assembled from the layout around a ZSTD
// frame. Layouts (core/formats/roblox_csg):
//   CSGMDL 2/4 (XOR-ed whole with the 31-byte key): header 10, hash 32, u32 V @42, u32 84 @46,
//     V × 84 @50, u32 I, I × u32, [v4: u32 n, n × u32]
//   CSGMDL 5 (only the header XOR-ed): u16-counted arrays, then u32 I, u32 length, deltas,
//     u8 marker count, markers
//   CSGPHS 3/5: header 10, per hull {40-byte prefix, u32 floats, u32 4, floats, u32 I, I × u32}
//   CSGPHS 8: header 10, u8 type, u8 0, ZSTD frame {9 × u32 counts, 6 floats, [raw hulls],
//     CLERS words, positions}
#pragma once

#include <zstd.h>

#include "broken_case.h"
#include "meshscope/core/roblox_csg.h"
#include "support/csg_fixtures.h"

namespace meshscope::test::broken {

namespace csgcases {

// A CSGPHS 8 blob around `inner` (ZSTD-compressed with its content size).
inline Bytes phs8(const Bytes& inner) {
    Bytes out = {'C', 'S', 'G', 'P', 'H', 'S', 8, 0, 0, 0, 0, 0};
    Bytes z(ZSTD_compressBound(inner.size()));
    const std::size_t n = ZSTD_compress(z.data(), z.size(), inner.data(), inner.size(), 3);
    if (ZSTD_isError(n)) throw std::runtime_error("ZSTD_compress");
    out.insert(out.end(), z.begin(), z.begin() + std::ptrdiff_t(n));
    return out;
}

// The decompressed part of a CSGPHS 8 blob with no raw hulls.
inline Bytes phs8Inner(std::uint32_t hulls, std::uint32_t positions, std::uint32_t faces,
                       std::uint32_t clersBits, const Bytes& clers) {
    Bytes b;
    for (std::uint32_t v : {hulls, positions, faces, 0u, 0u, 0u, clersBits,
                            std::uint32_t(clers.size()), positions * 12})
        test::csg::put(b, v);
    for (int i = 0; i < 6; ++i) test::csg::put(b, float(i < 3 ? -1 : 1));
    b.insert(b.end(), clers.begin(), clers.end());
    for (std::uint32_t i = 0; i < positions * 3; ++i) test::csg::put(b, float(i % 3));
    return b;
}

}  // namespace csgcases

inline void addCsgCases(std::vector<BrokenCase>& out) {
    using namespace csgcases;
    using test::csg::xorKey;
    auto add = [&](std::string name, const char* ext, Bytes bytes, std::optional<Expect> error,
                   std::optional<Expect> warning = {},
                   std::function<void(const DecodeResult&)> keeps = {}) {
        out.push_back({"roblox_csg", std::move(name), ext, std::move(bytes), std::move(error),
                       std::move(warning), std::move(keeps)});
    };
    const Mesh m = test::csg::fixtureMesh();
    const std::size_t V = m.positions.size();
    const Bytes mdl2 = writeCsgGraphics(m);
    const Bytes plain2 = xorKey(mdl2);
    const std::size_t indicesAt = 50 + 84 * V;  // the u32 index count

    add("mdl2_vertex_count_past_end", ".meshdata",
        xorKey(putLe<std::uint32_t>(plain2, 42, 0x01000000)),
        diag("count-too-large", 50, "vertices: 16777216 × 84 bytes"));
    add("mdl2_bad_vertex_size", ".meshdata", xorKey(putLe<std::uint32_t>(plain2, 46, 12)),
        diag("bad-vertex-size", 46, "vertex records of 12 bytes"));
    add("mdl2_truncated_in_indices", ".meshdata", cut(mdl2, indicesAt + 4 + 10),
        diag("count-too-large", indicesAt + 4, "indices: "));
    add("mdl2_index_past_vertices", ".meshdata",
        xorKey(putLe<std::uint32_t>(plain2, indicesAt + 4 + 4 * 7, 70000)),
        diag("index-out-of-range", indicesAt + 4 + 4 * 7, "indices[7] = 70000 is past the"));
    add("mdl2_trailing_bytes", ".meshdata", concat(mdl2, Bytes{1, 2, 3, 4, 5}), std::nullopt,
        diag("trailing-bytes", mdl2.size(), "5 bytes after the last structure"),
        [](const DecodeResult& r) { ASSERT_EQ(r.asset.meshes.size(), 1u); });
    {
        const Bytes mdl4 = writeCsgGraphics(m, {.version = 4, .extra = {1, 2, 3}});
        const std::size_t extraAt = indicesAt + 4 + 4 * m.indices.size();
        add("mdl4_extra_list_past_end", ".meshdata", cut(mdl4, mdl4.size() - 4),
            diag("count-too-large", extraAt + 4, "extra list: 3 × 4 bytes"), std::nullopt,
            [](const DecodeResult& r) {
                // The mesh before the list is kept.
                ASSERT_EQ(r.asset.meshes.size(), 1u);
                EXPECT_GT(r.asset.meshes[0].triangleCount(), 0u);
            });
    }
    {
        const Bytes mdl5 = test::csg::writeMdl5(m);
        const auto deltas = test::csg::encodeIndices(m.indices);
        const auto l = test::csg::mdl5Layout(V, deltas.size());
        add("mdl5_index_count_past_stream", ".meshdata",
            putLe<std::uint32_t>(mdl5, l.indexCount, std::uint32_t(deltas.size() + 1)),
            diag("count-too-large", l.indexCount, "cannot fit in"));
        add("mdl5_marker_past_indices", ".meshdata",
            putLe<std::uint32_t>(mdl5, l.markers + 4, std::uint32_t(m.indices.size() + 5)),
            diag("bad-range-markers", l.markers + 4, "range marker 1"));
        add("mdl5_one_marker", ".meshdata",
            cut(putLe<std::uint8_t>(mdl5, l.markerCount, 1), mdl5.size() - 4),
            diag("bad-range-markers", l.markerCount, "at least 2 range markers"));
        const std::size_t normalsLen = 10 + 2 + 12 * V + 2;
        add("mdl5_normals_length_mismatch", ".meshdata", putLe<std::uint32_t>(mdl5, normalsLen, 5),
            std::nullopt, diag("length-mismatch", normalsLen, "normals: byte length 5"));
    }
    {
        const Bytes phs3 = writeCsgPhysics({m, m}, 3);
        add("phs3_hull_index_past_vertices", ".data",
            putLe<std::uint32_t>(phs3, 10 + 48 + 12 * V + 4, 999),
            diag("index-out-of-range", 10 + 48 + 12 * V + 4, "indices[0] = 999"));
        add("phs3_float_count_not_whole_vertices", ".data",
            putLe<std::uint32_t>(phs3, 50, std::uint32_t(3 * V + 1)),
            diag("bad-count", 50, "not a multiple of 3"));
        add("phs5_float_count_past_end", ".data",
            putLe<std::uint32_t>(writeCsgPhysics({m}, 5), 50, 300000000),
            diag("count-too-large", 58, "hull positions"));
        add("phs_unknown_version", ".data", putLe<std::uint32_t>(phs3, 6, 9),
            diag("unsupported-version", 6, "CSGPHS version 9"));
        // Cut inside the second hull: the first is kept.
        add("phs3_truncated_second_hull", ".data", cut(phs3, phs3.size() - 6),
            diag("count-too-large", phs3.size() - 4 * m.indices.size(), "indices: "), std::nullopt,
            [](const DecodeResult& r) {
                ASSERT_GE(r.asset.meshes.size(), 1u);
                EXPECT_GT(r.asset.meshes[0].triangleCount(), 0u);
            });
    }
    add("phs8_payload_not_zstd", ".data",
        Bytes{'C', 'S', 'G', 'P', 'H', 'S', 8, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8},
        diag("zstd", 12, "not a ZSTD frame"));
    // One CLERS word of zeros: symbol C makes a second face, past the header's one.
    add("phs8_clers_more_faces_than_header", ".data", phs8(phs8Inner(1, 8, 1, 32, Bytes(4, 0))),
        diag("edgebreaker", 12, "more than the header's 1 faces"));
    // One CLERS bit, set: the stream ends inside the 3-bit symbol it begins.
    add("phs8_clers_ends_inside_hull", ".data", phs8(phs8Inner(1, 8, 2, 1, Bytes{1, 0, 0, 0})),
        diag("edgebreaker", 12, "ends inside hull face"));
    add("phs8_face_count_past_bits", ".data", phs8(phs8Inner(1, 8, 1000000, 8, Bytes(4, 0))),
        diag("count-too-large", 12, "faceCount 1000000 cannot come from 8 CLERS bits"));
    add("csgk_truncated_key", ".data", text("CSGK0123"),
        diag("truncated", 4, "CSGK key (32 hex digits) needs 32 bytes"));
}

}  // namespace meshscope::test::broken
