// Roblox terrain: SmoothGrid decoding against grids made by the writer (single voxel, one chunk,
// two chunks, every material, water), broken grids with their offsets, the surface nets mesher
// (closed, outward, seamless across chunks), places with terrain through the model decoders,
// and the corpus's binary/XML twins.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cmath>
#include <map>
#include <tuple>

#include "meshscope/core/decode.h"
#include "meshscope/core/roblox_model_writer.h"
#include "meshscope/core/roblox_terrain.h"
#include "support/test_support.h"

namespace meshscope {
namespace {

constexpr int kN = 32;
constexpr std::size_t kVoxels = kN * kN * kN;

std::size_t at(int x, int y, int z) {
    return (std::size_t(y) * kN + std::size_t(z)) * kN + std::size_t(x);
}

TerrainChunkVoxels emptyChunk(int x, int y, int z) {
    TerrainChunkVoxels c;
    c.x = x;
    c.y = y;
    c.z = z;
    c.voxels.assign(kVoxels, TerrainVoxel{});
    return c;
}

TerrainVoxel solid(int material, int occupancy = 255) {
    return TerrainVoxel{std::uint8_t(material), std::uint8_t(occupancy), 0};
}

std::span<const std::uint8_t> bytesOf(const std::string& s) {
    return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()};
}

// Every undirected edge of a triangle mesh, with vertices merged by position, used by exactly
// two triangles: the surface is closed (no holes, no seams between chunks).
bool closedSurface(const Mesh& m, std::string* why = nullptr) {
    std::map<std::tuple<float, float, float>, std::uint32_t> ids;
    std::vector<std::uint32_t> id(m.positions.size());
    for (std::size_t i = 0; i < m.positions.size(); ++i) {
        const Vec3 p = m.positions[i];
        auto [it, added] = ids.emplace(std::tuple{p.x, p.y, p.z}, std::uint32_t(ids.size()));
        id[i] = it->second;
    }
    std::map<std::pair<std::uint32_t, std::uint32_t>, int> edges;
    for (std::size_t t = 0; t + 2 < m.indices.size(); t += 3)
        for (int e = 0; e < 3; ++e) {
            std::uint32_t a = id[m.indices[t + e]], b = id[m.indices[t + (e + 1) % 3]];
            if (a > b) std::swap(a, b);
            ++edges[{a, b}];
        }
    for (const auto& [e, n] : edges)
        if (n != 2) {
            if (why) *why = "an edge used by " + std::to_string(n) + " triangles";
            return false;
        }
    return !edges.empty();
}

// Signed volume of a closed mesh (positive when its triangles face outwards).
double volume(const Mesh& m) {
    double v = 0;
    for (std::size_t t = 0; t + 2 < m.indices.size(); t += 3) {
        const Vec3 a = m.positions[m.indices[t]], b = m.positions[m.indices[t + 1]],
                   c = m.positions[m.indices[t + 2]];
        v += (double(a.x) * (double(b.y) * c.z - double(b.z) * c.y) -
              double(a.y) * (double(b.x) * c.z - double(b.z) * c.x) +
              double(a.z) * (double(b.x) * c.y - double(b.y) * c.x)) /
             6.0;
    }
    return v;
}

// ---- decoding ------------------------------------------------------------------------------

TEST(TerrainDecode, EmptyGridHasNoChunks) {
    const std::string blob("\x01\x05", 2);
    const TerrainGrid g = decodeSmoothGrid(bytesOf(blob));
    EXPECT_TRUE(g.ok());
    EXPECT_EQ(g.version, 1);
    EXPECT_EQ(g.chunkExponent, 5);
    EXPECT_TRUE(g.chunks.empty());
}

TEST(TerrainDecode, SingleVoxel) {
    TerrainChunkVoxels c = emptyChunk(0, 0, 0);
    c.voxels[at(5, 6, 7)] = solid(2);
    const std::string blob = writeSmoothGrid({&c, 1});
    const TerrainGrid g = decodeSmoothGrid(bytesOf(blob));
    ASSERT_TRUE(g.ok()) << g.error->toString();
    ASSERT_EQ(g.chunks.size(), 1u);
    EXPECT_EQ(g.solidVoxels, 1u);
    EXPECT_EQ(g.waterVoxels, 0u);
    EXPECT_EQ(g.materialVoxels[2], 1u);
    EXPECT_FALSE(g.chunks[0].uniform);
    EXPECT_EQ(g.chunks[0].offset, 2u);
    EXPECT_EQ(g.chunks[0].length, blob.size() - 2);
    std::vector<TerrainVoxel> out(kVoxels);
    ASSERT_TRUE(expandTerrainChunk(bytesOf(blob), g, g.chunks[0], out));
    EXPECT_EQ(out, c.voxels);
}

TEST(TerrainDecode, ChunkPositionsAreDeltasInBytePlanes) {
    // The real layout: (-1, -1, 0) is ff ff 00 ×4 (two's complement, most significant plane
    // first), as in the corpus's TerrainRegion.
    std::string blob("\x01\x05", 2);
    const unsigned char header[12] = {0xff, 0xff, 0, 0xff, 0xff, 0, 0xff, 0xff, 0, 0xff, 0xff, 0};
    blob.append(reinterpret_cast<const char*>(header), 12);
    blob += std::string("\x80\xff", 2);  // Air, runs of 256 ...
    for (int i = 1; i < int(kVoxels / 256); ++i) blob += std::string("\x80\xff", 2);
    const TerrainGrid g = decodeSmoothGrid(bytesOf(blob));
    ASSERT_TRUE(g.ok()) << g.error->toString();
    ASSERT_EQ(g.chunks.size(), 1u);
    EXPECT_EQ(std::tie(g.chunks[0].x, g.chunks[0].y, g.chunks[0].z), std::tuple(-1, -1, 0));
    EXPECT_TRUE(g.chunks[0].uniform);
    EXPECT_EQ(g.chunks[0].runs, kVoxels / 256);
}

TEST(TerrainDecode, TwoChunksFarApartAndNegative) {
    std::vector<TerrainChunkVoxels> cs{emptyChunk(70000, -3, 2), emptyChunk(-5, 300, -70000)};
    cs[0].voxels[at(0, 0, 0)] = solid(8);
    cs[1].voxels[at(31, 31, 31)] = solid(10, 100);
    const std::string blob = writeSmoothGrid(cs);
    const TerrainGrid g = decodeSmoothGrid(bytesOf(blob));
    ASSERT_TRUE(g.ok()) << g.error->toString();
    ASSERT_EQ(g.chunks.size(), 2u);
    EXPECT_EQ(std::tie(g.chunks[0].x, g.chunks[0].y, g.chunks[0].z), std::tuple(70000, -3, 2));
    EXPECT_EQ(std::tie(g.chunks[1].x, g.chunks[1].y, g.chunks[1].z), std::tuple(-5, 300, -70000));
    EXPECT_EQ(g.materialVoxels[8], 1u);
    EXPECT_EQ(g.materialVoxels[10], 1u);
    std::vector<TerrainVoxel> out(kVoxels);
    ASSERT_TRUE(expandTerrainChunk(bytesOf(blob), g, g.chunks[1], out));
    EXPECT_EQ(out[at(31, 31, 31)], solid(10, 100));
}

TEST(TerrainDecode, EveryMaterialCounted) {
    TerrainChunkVoxels c = emptyChunk(0, 0, 0);
    // Material m: m voxels in row y = m.
    for (int m = 1; m < kTerrainMaterialCount; ++m)
        for (int x = 0; x < m; ++x) c.voxels[at(x, m, 0)] = solid(m);
    const std::string blob = writeSmoothGrid({&c, 1});
    const TerrainGrid g = decodeSmoothGrid(bytesOf(blob));
    ASSERT_TRUE(g.ok());
    std::uint64_t solids = 0;
    for (int m = 1; m < kTerrainMaterialCount; ++m) {
        EXPECT_EQ(g.materialVoxels[std::size_t(m)], std::uint64_t(m)) << terrainMaterialName(m);
        if (m != kTerrainWater) solids += std::uint64_t(m);
    }
    EXPECT_EQ(g.solidVoxels, solids);
    EXPECT_EQ(g.waterVoxels, 1u);
    EXPECT_STREQ(terrainMaterialName(2), "Grass");
    EXPECT_STREQ(terrainMaterialName(22), "Pavement");
    EXPECT_EQ(terrainMaterialName(23), nullptr);
}

TEST(TerrainDecode, ShorelineVoxelsCarryWater) {
    TerrainChunkVoxels c = emptyChunk(0, 0, 0);
    c.voxels[at(1, 1, 1)] = TerrainVoxel{6, 120, 200};  // Sand with water: a shoreline
    c.voxels[at(2, 1, 1)] = TerrainVoxel{6, 120, 200};  // equal, but not a run: stored apart
    c.voxels[at(3, 1, 1)] = solid(kTerrainWater);
    const std::string blob = writeSmoothGrid({&c, 1});
    const TerrainGrid g = decodeSmoothGrid(bytesOf(blob));
    ASSERT_TRUE(g.ok());
    EXPECT_EQ(g.solidVoxels, 2u);
    EXPECT_EQ(g.waterVoxels, 3u);
    std::vector<TerrainVoxel> out(kVoxels);
    ASSERT_TRUE(expandTerrainChunk(bytesOf(blob), g, g.chunks[0], out));
    EXPECT_EQ(out, c.voxels);
}

TEST(TerrainDecode, MaterialColorsInMaterialOrder) {
    std::string mc(69, '\0');
    mc[2 * 3] = char(1);  // Grass
    mc[2 * 3 + 1] = char(2);
    mc[2 * 3 + 2] = char(3);
    mc[22 * 3] = char(200);  // Pavement
    const TerrainColors c = decodeMaterialColors(bytesOf(mc));
    EXPECT_EQ(c[2], (Rgba8{1, 2, 3, 255}));
    EXPECT_EQ(c[22], (Rgba8{200, 0, 0, 255}));
    // A short value leaves the rest at the defaults.
    const TerrainColors s = decodeMaterialColors(bytesOf(mc.substr(0, 9)));
    EXPECT_EQ(s[2], (Rgba8{1, 2, 3, 255}));
    EXPECT_EQ(s[3], terrainDefaultColor(3));
}

// ---- broken grids --------------------------------------------------------------------------

std::string oneVoxelGrid() {
    TerrainChunkVoxels c = emptyChunk(0, 0, 0);
    c.voxels[at(3, 0, 0)] = solid(2, 77);
    return writeSmoothGrid({&c, 1});
}

TEST(TerrainBroken, TruncatedRunsKeepTheChunksBefore) {
    std::vector<TerrainChunkVoxels> cs{emptyChunk(0, 0, 0), emptyChunk(1, 0, 0)};
    cs[0].voxels[at(0, 0, 0)] = solid(2);
    cs[1].voxels[at(0, 0, 0)] = solid(2);
    const std::string whole = writeSmoothGrid(cs);
    const std::string cut = whole.substr(0, whole.size() - 2);  // the last run gone
    TerrainDecodeOptions o;
    o.baseOffset = 1000;
    o.mapped = true;
    const TerrainGrid g = decodeSmoothGrid(bytesOf(cut), o);
    ASSERT_FALSE(g.ok());
    EXPECT_EQ(g.error->code, "truncated");
    // The end of the blob, where the next run should start.
    EXPECT_EQ(g.error->offset, 1000u + cut.size());
    EXPECT_NE(g.error->context.find("chunk 1"), std::string::npos) << g.error->context;
    ASSERT_EQ(g.chunks.size(), 1u);
    EXPECT_EQ(g.solidVoxels, 1u);
}

TEST(TerrainBroken, UnmappedValueNamesItsOffsetAndThePositionInside) {
    const std::string whole = oneVoxelGrid();
    TerrainDecodeOptions o;
    o.baseOffset = 4242;  // an XML BinaryString or a compressed chunk: no 1:1 bytes
    const TerrainGrid g = decodeSmoothGrid(bytesOf(whole.substr(0, 20)), o);
    ASSERT_FALSE(g.ok());
    EXPECT_EQ(g.error->offset, 4242u);
    EXPECT_NE(g.error->message.find("+0x14 in the SmoothGrid value"), std::string::npos)
        << g.error->message;
}

TEST(TerrainBroken, RunCountPastTheChunkEnd) {
    std::string blob = oneVoxelGrid();
    // Last run: Air × n up to the end of the chunk; one more run of 200 overflows.
    blob.insert(blob.size() - 2, std::string("\x80\xc7", 2));
    TerrainDecodeOptions o;
    o.mapped = true;
    const TerrainGrid g = decodeSmoothGrid(bytesOf(blob), o);
    ASSERT_FALSE(g.ok());
    EXPECT_EQ(g.error->code, "run-overflow");
    EXPECT_EQ(g.error->offset, blob.size() - 2);  // the last run, now past the voxels left
    EXPECT_TRUE(g.chunks.empty());
}

TEST(TerrainBroken, AbsurdChunkCoordinates) {
    std::vector<TerrainChunkVoxels> cs{emptyChunk(0, 0, 0), emptyChunk(0, 400'000, 0)};
    const std::string blob = writeSmoothGrid(cs);
    TerrainDecodeOptions o;
    o.mapped = true;
    const TerrainGrid g = decodeSmoothGrid(bytesOf(blob), o);
    ASSERT_FALSE(g.ok());
    EXPECT_EQ(g.error->code, "chunk-coordinate");
    const std::size_t second = 2 + (blob.size() - 2) / 2;  // both chunks are all Air: same size
    EXPECT_EQ(g.error->offset, second);
    EXPECT_EQ(g.chunks.size(), 1u);
}

TEST(TerrainBroken, OverTheChunkCap) {
    std::vector<TerrainChunkVoxels> cs;
    for (int i = 0; i < 5; ++i) cs.push_back(emptyChunk(i, 0, 0));
    const std::string blob = writeSmoothGrid(cs);
    TerrainDecodeOptions o;
    o.maxChunks = 3;
    o.mapped = true;
    const TerrainGrid g = decodeSmoothGrid(bytesOf(blob), o);
    ASSERT_FALSE(g.ok());
    EXPECT_EQ(g.error->code, "limit");
    EXPECT_EQ(g.chunks.size(), 3u);
    EXPECT_EQ(g.error->offset, g.chunks[2].offset + g.chunks[2].length);
}

TEST(TerrainBroken, VersionAndHeader) {
    EXPECT_EQ(decodeSmoothGrid(bytesOf(std::string("\x02\x05", 2))).error->code,
              "unsupported-version");
    EXPECT_EQ(decodeSmoothGrid(bytesOf(std::string("\x01\x09", 2))).error->code, "bad-chunk-size");
    EXPECT_EQ(decodeSmoothGrid(bytesOf(std::string("\x01", 1))).error->code, "truncated");
    // A chunk header cut short.
    const TerrainGrid g = decodeSmoothGrid(bytesOf(std::string("\x01\x05\x00\x00\x00", 5)));
    ASSERT_FALSE(g.ok());
    EXPECT_EQ(g.error->code, "truncated");
}

TEST(TerrainBroken, EveryPrefixDecodesOrFailsCleanly) {
    TerrainChunkVoxels c = emptyChunk(0, 0, 0);
    for (int i = 0; i < 40; ++i) c.voxels[std::size_t(i * 811)] = TerrainVoxel{6, 90, 30};
    const std::string blob = writeSmoothGrid({&c, 1});
    for (std::size_t n = 0; n < blob.size(); ++n) {
        const TerrainGrid g = decodeSmoothGrid(bytesOf(blob.substr(0, n)));
        if (n > 2) {
            EXPECT_FALSE(g.ok()) << n;
        }
        EXPECT_TRUE(g.chunks.empty());
        // Meshing whatever was kept never fails.
        (void)meshTerrain(bytesOf(blob.substr(0, n)), g);
    }
}

TEST(TerrainBroken, MutatedGridsNeverBreakTheMesher) {
    std::vector<TerrainChunkVoxels> cs{emptyChunk(0, 0, 0), emptyChunk(1, 0, 0)};
    for (int i = 0; i < 3000; ++i)
        cs[std::size_t(i % 2)].voxels[std::size_t(i * 7919) % kVoxels] =
            TerrainVoxel{std::uint8_t(i % 23), std::uint8_t(i * 13), std::uint8_t(i % 3 ? 0 : i)};
    const std::string blob = writeSmoothGrid(cs);
    std::uint32_t seed = 12345;
    auto next = [&] { return seed = seed * 1664525u + 1013904223u; };
    std::vector<TerrainVoxel> voxels(kVoxels);
    for (int round = 0; round < 60; ++round) {
        std::string m = blob;
        for (int e = 0; e < 1 + int(next() % 6); ++e) m[next() % m.size()] = char(next() >> 24);
        TerrainDecodeOptions o;
        o.maxChunks = 8;
        const TerrainGrid g = decodeSmoothGrid(bytesOf(m), o);
        voxels.resize(g.chunkVoxels());
        for (const TerrainChunk& c : g.chunks) {
            ASSERT_LE(c.offset + c.length, m.size());
            ASSERT_TRUE(expandTerrainChunk(bytesOf(m), g, c, voxels));  // kept chunks are whole
        }
        const TerrainMeshes meshes = meshTerrain(bytesOf(m), g);
        for (const Mesh* mesh : {&meshes.terrain, &meshes.water}) {
            ASSERT_EQ(mesh->normals.size(), mesh->positions.size());
            for (std::uint32_t i : mesh->indices) ASSERT_LT(i, mesh->positions.size());
        }
    }
}

// ---- meshing -------------------------------------------------------------------------------

TEST(TerrainMesh, SingleVoxelIsAClosedOutwardBoxInsideTheVoxel) {
    TerrainChunkVoxels c = emptyChunk(0, 0, 0);
    c.voxels[at(5, 6, 7)] = solid(2);
    const std::string blob = writeSmoothGrid({&c, 1});
    const TerrainGrid g = decodeSmoothGrid(bytesOf(blob));
    const TerrainMeshes m = meshTerrain(bytesOf(blob), g);
    EXPECT_EQ(m.terrain.vertexCount(), 8u);
    EXPECT_EQ(m.terrain.triangleCount(), 12u);
    EXPECT_TRUE(m.water.indices.empty());
    std::string why;
    EXPECT_TRUE(closedSurface(m.terrain, &why)) << why;
    EXPECT_GT(volume(m.terrain), 0.0);
    // Inside the voxel's 4-stud box [20, 24] × [24, 28] × [28, 32].
    ASSERT_TRUE(m.terrain.bounds.valid());
    EXPECT_GE(m.terrain.bounds.min.x, 20.0f);
    EXPECT_LE(m.terrain.bounds.max.x, 24.0f);
    EXPECT_GE(m.terrain.bounds.min.y, 24.0f);
    EXPECT_LE(m.terrain.bounds.max.y, 28.0f);
    EXPECT_GE(m.terrain.bounds.min.z, 28.0f);
    EXPECT_LE(m.terrain.bounds.max.z, 32.0f);
    for (Rgba8 k : m.terrain.colors) EXPECT_EQ(k, terrainDefaultColor(2));
    // Normals point away from the voxel's centre.
    const Vec3 centre{22, 26, 30};
    for (std::size_t i = 0; i < m.terrain.positions.size(); ++i) {
        const Vec3 d = m.terrain.positions[i] - centre;
        const Vec3 n = m.terrain.normals[i];
        EXPECT_GT(d.x * n.x + d.y * n.y + d.z * n.z, 0.0f);
    }
}

TEST(TerrainMesh, ASlabAcrossTwoChunksHasNoSeam) {
    std::vector<TerrainChunkVoxels> cs{emptyChunk(-1, 0, 0), emptyChunk(0, 0, 0)};
    // Voxels x 24..39 (chunk -1 x 24..31, chunk 0 x 0..7), y 2..4, z 3..9, Rock and Sand.
    for (int y = 2; y <= 4; ++y)
        for (int z = 3; z <= 9; ++z) {
            for (int x = 24; x < 32; ++x) cs[0].voxels[at(x, y, z)] = solid(8);
            for (int x = 0; x < 8; ++x) cs[1].voxels[at(x, y, z)] = solid(6);
        }
    const std::string blob = writeSmoothGrid(cs);
    const TerrainGrid g = decodeSmoothGrid(bytesOf(blob));
    ASSERT_TRUE(g.ok());
    EXPECT_EQ(g.solidVoxels, 2u * 8 * 3 * 7);
    const TerrainMeshes m = meshTerrain(bytesOf(blob), g);
    EXPECT_EQ(m.chunksMeshed, 2u);
    std::string why;
    EXPECT_TRUE(closedSurface(m.terrain, &why)) << why;
    EXPECT_GT(volume(m.terrain), 0.0);
    // Spans world x from chunk -1's voxel 24 (-32 studs) to chunk 0's voxel 8 (32 studs).
    EXPECT_NEAR(m.terrain.bounds.min.x, -32.0f, 2.0f);
    EXPECT_NEAR(m.terrain.bounds.max.x, 32.0f, 2.0f);
    // Both materials' colours appear.
    bool rock = false, sand = false;
    for (Rgba8 k : m.terrain.colors) {
        rock |= k == terrainDefaultColor(8);
        sand |= k == terrainDefaultColor(6);
    }
    EXPECT_TRUE(rock && sand);
}

TEST(TerrainMesh, HillSurfaceFollowsOccupancy) {
    TerrainChunkVoxels c = emptyChunk(0, 0, 0);
    // A hill: full voxels below height h(x, z), the top voxel partly full.
    for (int z = 0; z < kN; ++z)
        for (int x = 0; x < kN; ++x) {
            const float dx = x - 15.5f, dz = z - 15.5f;
            const float h = 4.0f + 10.0f * std::exp(-(dx * dx + dz * dz) / 60.0f);
            const int full = int(h);
            for (int y = 0; y < full; ++y) c.voxels[at(x, y, z)] = solid(2);
            c.voxels[at(x, full, z)] = solid(2, int((h - full) * 255));
        }
    const std::string blob = writeSmoothGrid({&c, 1});
    const TerrainGrid g = decodeSmoothGrid(bytesOf(blob));
    ASSERT_TRUE(g.ok());
    const TerrainMeshes m = meshTerrain(bytesOf(blob), g);
    ASSERT_FALSE(m.terrain.indices.empty());
    // Highest point near the centre at about 14 voxels (56 studs), lowest edge about 4 voxels.
    EXPECT_NEAR(m.terrain.bounds.max.y, 14 * 4.0f, 6.0f);
    // The chunk is alone: its bottom (y = 0 voxels solid) closes against air below.
    EXPECT_NEAR(m.terrain.bounds.min.y, 0.0f, 2.1f);
    std::string why;
    EXPECT_TRUE(closedSurface(m.terrain, &why)) << why;
}

TEST(TerrainMesh, WaterIsItsOwnSurfaceAndStopsAtTheGround) {
    TerrainChunkVoxels c = emptyChunk(0, 0, 0);
    // Ground y 0..1, water y 2..4 over x, z 4..11.
    for (int z = 4; z < 12; ++z)
        for (int x = 4; x < 12; ++x) {
            for (int y = 0; y < 2; ++y) c.voxels[at(x, y, z)] = solid(6);
            for (int y = 2; y < 5; ++y) c.voxels[at(x, y, z)] = solid(kTerrainWater);
        }
    const std::string blob = writeSmoothGrid({&c, 1});
    const TerrainGrid g = decodeSmoothGrid(bytesOf(blob));
    EXPECT_EQ(g.waterVoxels, 8u * 8 * 3);
    TerrainMeshOptions o;
    o.waterColor = Rgba8{10, 20, 30, 100};
    const TerrainMeshes m = meshTerrain(bytesOf(blob), g, o);
    ASSERT_FALSE(m.water.indices.empty());
    for (Rgba8 k : m.water.colors) EXPECT_EQ(k, (Rgba8{10, 20, 30, 100}));
    // The water's top is near y = 5 voxels (20 studs); no water face lies at the ground's top
    // (y = 2 voxels, 8 studs) between water and sand.
    EXPECT_NEAR(m.water.bounds.max.y, 20.0f, 2.1f);
    for (std::size_t t = 0; t + 2 < m.water.indices.size(); t += 3) {
        float y = 0;
        for (int k = 0; k < 3; ++k) y += m.water.positions[m.water.indices[t + k]].y;
        EXPECT_GT(y / 3, 8.5f);
    }
    EXPECT_FALSE(m.terrain.indices.empty());
}

// A chunk whose voxels differ but share one inside class (air of low occupancy, solid of mixed
// materials) is skipped without a padded box only when its 26 neighbours share that class too:
// edges it owns into a neighbour that differs are still meshed.
TEST(TerrainMesh, ChunkOfOneClassStillMeshesIntoItsNeighbours) {
    TerrainChunkVoxels air = emptyChunk(0, 0, 0);
    air.voxels[at(3, 3, 3)] = solid(2, 100);  // below half full: still air, but not uniform
    TerrainChunkVoxels next = emptyChunk(1, 0, 0);
    next.voxels[at(0, 5, 5)] = solid(8);  // against the air chunk's +x face
    {
        const std::string blob = writeSmoothGrid({&air, 1});
        const TerrainGrid g = decodeSmoothGrid(bytesOf(blob));
        ASSERT_TRUE(g.ok());
        ASSERT_FALSE(g.chunks[0].uniform);
        const TerrainMeshes m = meshTerrain(bytesOf(blob), g);
        EXPECT_EQ(m.chunksMeshed, 1u);
        EXPECT_TRUE(m.terrain.indices.empty());
        EXPECT_TRUE(m.water.indices.empty());
    }
    {
        const std::vector<TerrainChunkVoxels> cs{air, next};
        const std::string blob = writeSmoothGrid(cs);
        const TerrainGrid g = decodeSmoothGrid(bytesOf(blob));
        const TerrainMeshes m = meshTerrain(bytesOf(blob), g);
        EXPECT_EQ(m.chunksMeshed, 2u);
        // The voxel's box: its -x face (between the chunks) is the air chunk's to mesh.
        EXPECT_EQ(m.terrain.triangleCount(), 12u);
        std::string why;
        EXPECT_TRUE(closedSurface(m.terrain, &why)) << why;
        EXPECT_NEAR(m.terrain.bounds.min.x, 32 * 4.0f, 2.1f);
    }
    // A solid chunk of two materials alone: closed over all six faces, as a uniform one is.
    TerrainChunkVoxels mixed = emptyChunk(0, 0, 0);
    std::fill(mixed.voxels.begin(), mixed.voxels.end(), solid(2));
    TerrainChunkVoxels uniform = mixed;
    mixed.voxels[at(16, 16, 16)] = solid(8);
    const std::string mixedBlob = writeSmoothGrid({&mixed, 1});
    const std::string uniformBlob = writeSmoothGrid({&uniform, 1});
    const TerrainGrid mg = decodeSmoothGrid(bytesOf(mixedBlob));
    const TerrainGrid ug = decodeSmoothGrid(bytesOf(uniformBlob));
    ASSERT_FALSE(mg.chunks[0].uniform);
    ASSERT_TRUE(ug.chunks[0].uniform);
    const TerrainMeshes mm = meshTerrain(bytesOf(mixedBlob), mg);
    const TerrainMeshes um = meshTerrain(bytesOf(uniformBlob), ug);
    EXPECT_GT(mm.terrain.triangleCount(), 6u * 2 * (kN - 1) * (kN - 1));
    EXPECT_EQ(mm.terrain.indices, um.terrain.indices);
    EXPECT_EQ(mm.terrain.positions.size(), um.terrain.positions.size());
    std::string why;
    EXPECT_TRUE(closedSurface(mm.terrain, &why)) << why;
}

// The cache's budget is bytes: a noisy chunk (a run a voxel) takes more than its voxels' bytes,
// so 27 of them overflow the smallest cache (27 chunks of voxels), and chunks dropped from it
// are expanded again when a neighbour needs them; the surface is the same as with a roomy cache.
TEST(TerrainMesh, SmallChunkCacheMeshesTheSame) {
    constexpr int kExponent = 3;  // 8³ voxels: small chunks, quick
    constexpr std::size_t kSmall = 8 * 8 * 8;
    std::vector<TerrainChunkVoxels> cs;
    std::uint32_t seed = 12345;
    for (int x = 0; x < 3; ++x)
        for (int y = 0; y < 3; ++y)
            for (int z = 0; z < 3; ++z) {
                TerrainChunkVoxels c;
                c.x = x;
                c.y = y;
                c.z = z;
                c.voxels.resize(kSmall);
                for (TerrainVoxel& v : c.voxels) {
                    seed = seed * 1664525u + 1013904223u;
                    v = solid(2 + int(seed >> 28), int(seed >> 8) & 0xff);
                }
                cs.push_back(std::move(c));
            }
    const std::string blob = writeSmoothGrid(cs, kExponent);
    const TerrainGrid g = decodeSmoothGrid(bytesOf(blob));
    ASSERT_TRUE(g.ok());
    ASSERT_EQ(g.chunks.size(), 27u);
    TerrainMeshOptions tight;
    tight.cacheChunks = 1;
    TerrainMeshOptions roomy;
    roomy.cacheChunks = 4096;
    const TerrainMeshes a = meshTerrain(bytesOf(blob), g, tight);
    const TerrainMeshes b = meshTerrain(bytesOf(blob), g, roomy);
    EXPECT_EQ(a.chunksMeshed, 27u);
    EXPECT_GT(a.terrain.triangleCount(), 1000u);
    EXPECT_EQ(a.terrain.indices, b.terrain.indices);
    ASSERT_EQ(a.terrain.positions.size(), b.terrain.positions.size());
    for (std::size_t i = 0; i < a.terrain.positions.size(); ++i)
        ASSERT_EQ(a.terrain.positions[i], b.terrain.positions[i]) << i;
    EXPECT_EQ(a.terrain.colors, b.terrain.colors);
}

TEST(TerrainMesh, CancelStopsMeshing) {
    std::vector<TerrainChunkVoxels> cs;
    for (int i = 0; i < 3; ++i) {
        cs.push_back(emptyChunk(i, 0, 0));
        cs.back().voxels[at(3, 3, 3)] = solid(2);
    }
    const std::string blob = writeSmoothGrid(cs);
    const TerrainGrid g = decodeSmoothGrid(bytesOf(blob));
    std::atomic<bool> cancel{true};
    TerrainMeshOptions o;
    o.cancel = &cancel;
    const TerrainMeshes m = meshTerrain(bytesOf(blob), g, o);
    EXPECT_TRUE(m.cancelled);
    EXPECT_EQ(m.chunksMeshed, 0u);
    // And progress reaches 1 when it runs.
    double last = -1;
    TerrainMeshOptions p;
    p.progress = [&](double f) { last = f; };
    EXPECT_EQ(meshTerrain(bytesOf(blob), g, p).chunksMeshed, 3u);
    EXPECT_EQ(last, 1.0);
}

TEST(TerrainMesh, TriangleCapTruncates) {
    TerrainChunkVoxels c = emptyChunk(0, 0, 0);
    for (int i = 0; i < 8; ++i) c.voxels[at(i * 3, 1, 1)] = solid(2);
    const std::string blob = writeSmoothGrid({&c, 1});
    const TerrainGrid g = decodeSmoothGrid(bytesOf(blob));
    TerrainMeshOptions o;
    o.maxTriangles = 30;
    const TerrainMeshes m = meshTerrain(bytesOf(blob), g, o);
    EXPECT_TRUE(m.truncated);
    EXPECT_LE(m.terrain.triangleCount(), 30u);
    EXPECT_EQ(meshTerrain(bytesOf(blob), g).terrain.triangleCount(), 8u * 12);
}

// ---- places --------------------------------------------------------------------------------

// Where `s` first occurs in `bytes` (bytes.size() when nowhere).
std::size_t findIn(const Bytes& bytes, const std::string& s) {
    const Bytes b(s.begin(), s.end());
    return std::size_t(std::search(bytes.begin(), bytes.end(), b.begin(), b.end()) - bytes.begin());
}

Asset placeWithTerrain(const std::string& grid) {
    Asset a;
    a.format = "roblox-model";
    const int ws = a.addNode("Workspace", "Workspace");
    const int t = a.addNode("Terrain", "Terrain", ws);
    a.addChild(ws, t);
    a.addProperty(t, test::prop("Name", "string", std::string("Terrain")));
    a.addProperty(t, test::prop("SmoothGrid", "string", grid));
    std::string mc(69, '\0');
    mc[6] = char(10);  // Grass: (10, 20, 30)
    mc[7] = char(20);
    mc[8] = char(30);
    a.addProperty(t, test::prop("MaterialColors", "string", mc));
    a.addProperty(t, test::prop("WaterTransparency", "float", 0.5));
    return a;
}

TEST(TerrainPlace, BinaryPlaceMeshesItsTerrainAndMapsItsChunks) {
    std::vector<TerrainChunkVoxels> cs{emptyChunk(0, 0, 0), emptyChunk(0, 0, 1)};
    cs[0].voxels[at(1, 1, 1)] = solid(2);
    cs[1].voxels[at(1, 1, 1)] = solid(kTerrainWater);
    const std::string grid = writeSmoothGrid(cs);
    RobloxModelWriteOptions wo;
    wo.compression = RobloxChunkCompression::None;
    const RobloxModelWriteResult w = writeRobloxModel(placeWithTerrain(grid), wo);
    ASSERT_TRUE(w.ok());
    const DecodeResult r = decodeBytes(w.bytes);
    ASSERT_TRUE(r.ok()) << r.error->toString();
    const int terrain = findTerrainNode(r.asset);
    ASSERT_GE(terrain, 0);
    ASSERT_EQ(r.asset.meshes.size(), 2u);
    EXPECT_EQ(r.asset.meshes[0].name, "terrain");
    EXPECT_EQ(r.asset.meshes[0].node, terrain);
    EXPECT_EQ(r.asset.meshes[1].name, "water");
    // MaterialColors give the grass its colour; WaterTransparency the water's alpha.
    EXPECT_EQ(r.asset.meshes[0].colors.front(), (Rgba8{10, 20, 30, 255}));
    EXPECT_EQ(r.asset.meshes[1].colors.front().a, 128);
    // The value's bytes are in the file: each chunk is a named range at its exact offset.
    const std::size_t blobAt = findIn(w.bytes, grid);
    int chunks = 0;
    for (const ByteRange& br : r.asset.byteMap.ranges())
        if (br.kind == RangeKind::Chunk && br.path.find(std::string("SmoothGrid") + kPathSeparator +
                                                        "chunk ") != std::string::npos) {
            EXPECT_EQ(br.node, terrain);
            EXPECT_EQ(br.offset, blobAt + (chunks == 0 ? 2 : 2 + (grid.size() - 2) / 2));
            ++chunks;
        }
    EXPECT_EQ(chunks, 2);
    // The Terrain node stands for its SmoothGrid bytes (what selecting it selects).
    EXPECT_EQ(r.asset.nodes[std::size_t(terrain)].offset, blobAt);
    EXPECT_EQ(r.asset.nodes[std::size_t(terrain)].length, grid.size());
    const std::optional<TerrainInfo> info = readTerrain(r.asset, terrain);
    ASSERT_TRUE(info);
    EXPECT_EQ(info->grid.solidVoxels, 1u);
    EXPECT_EQ(info->grid.waterVoxels, 1u);

    DecodeOptions off;
    off.robloxTerrain = false;
    EXPECT_TRUE(decodeBytes(w.bytes, off).asset.meshes.empty());
}

namespace {

std::string base64(const std::string& bytes) {
    static const char* k = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    for (std::size_t i = 0; i < bytes.size(); i += 3) {
        std::uint32_t v = std::uint32_t(std::uint8_t(bytes[i])) << 16;
        if (i + 1 < bytes.size()) v |= std::uint32_t(std::uint8_t(bytes[i + 1])) << 8;
        if (i + 2 < bytes.size()) v |= std::uint8_t(bytes[i + 2]);
        out += k[(v >> 18) & 63];
        out += k[(v >> 12) & 63];
        out += i + 1 < bytes.size() ? k[(v >> 6) & 63] : '=';
        out += i + 2 < bytes.size() ? k[v & 63] : '=';
    }
    return out;
}

// The base64 characters of `text` in [offset, offset + length), whitespace left out.
std::string charsIn(const std::string& text, std::uint64_t offset, std::uint64_t length) {
    std::string out;
    for (char c : text.substr(offset, length))
        if (!std::isspace(static_cast<unsigned char>(c))) out += c;
    return out;
}

}  // namespace

// An XML place keeps the grid as base64 text (in CDATA, wrapped over lines as Studio writes
// it): each chunk's range covers the characters that encode it, the ranges tile the text, and
// the characters of a chunk's range decode to its bytes.
TEST(TerrainPlace, XmlPlaceNamesEachChunkOverItsBase64Text) {
    std::vector<TerrainChunkVoxels> cs{emptyChunk(0, 0, 0), emptyChunk(0, 0, 1),
                                       emptyChunk(1, 0, 0)};
    cs[0].voxels[at(1, 1, 1)] = solid(2);
    cs[1].voxels[at(2, 3, 1)] = solid(kTerrainWater);
    cs[2].voxels[at(5, 5, 5)] = solid(4);
    const std::string grid = writeSmoothGrid(cs);
    std::string b64 = base64(grid), wrapped;
    for (std::size_t i = 0; i < b64.size(); i += 72) wrapped += "\n" + b64.substr(i, 72);
    const std::string xml =
        "<roblox version=\"4\"><Item class=\"Workspace\" referent=\"W\"><Properties>"
        "</Properties><Item class=\"Terrain\" referent=\"T\"><Properties>"
        "<string name=\"Name\">Terrain</string>"
        "<BinaryString name=\"SmoothGrid\"><![CDATA[" +
        wrapped + "\n]]></BinaryString></Properties></Item></Item></roblox>";
    const DecodeResult r = decodeBytes(Bytes(xml.begin(), xml.end()), {.fileName = "t.rbxlx"});
    ASSERT_TRUE(r.ok()) << r.error->toString();
    const int terrain = findTerrainNode(r.asset);
    ASSERT_GE(terrain, 0);
    const std::optional<TerrainInfo> info = readTerrain(r.asset, terrain);
    ASSERT_TRUE(info);
    ASSERT_EQ(info->grid.chunks.size(), 3u);
    std::vector<ByteRange> chunks;
    std::string header;
    for (const ByteRange& br : r.asset.byteMap.ranges()) {
        if (br.path.find("SmoothGrid") == std::string::npos || br.node != terrain) continue;
        if (br.kind == RangeKind::Chunk) chunks.push_back(br);
        if (br.kind == RangeKind::Header) header = charsIn(xml, br.offset, br.length);
    }
    ASSERT_EQ(chunks.size(), 3u);
    std::sort(chunks.begin(), chunks.end(),
              [](const ByteRange& a, const ByteRange& b) { return a.offset < b.offset; });
    std::string all = header;
    for (std::size_t i = 0; i < chunks.size(); ++i) {
        all += charsIn(xml, chunks[i].offset, chunks[i].length);
        if (i + 1 < chunks.size()) {
            EXPECT_EQ(chunks[i].end(), chunks[i + 1].offset) << i;
        }
        // The characters that encode the chunk's first byte lie in its range.
        const std::uint64_t first = info->grid.chunks[i].offset;
        const std::string group = b64.substr((first + 2) / 3 * 4, 4);
        EXPECT_NE(charsIn(xml, chunks[i].offset, chunks[i].length).find(group), std::string::npos)
            << i;
    }
    EXPECT_EQ(all, b64) << "the header and chunk ranges cover the text exactly once";
    EXPECT_EQ(chunks.back().end(), xml.find("\n]]>")) << "up to the last character";
}

TEST(TerrainPlace, BrokenGridIsAWarningWithItsByteOffset) {
    TerrainChunkVoxels c = emptyChunk(0, 0, 0);
    c.voxels[at(1, 1, 1)] = solid(2);
    std::string grid = writeSmoothGrid({&c, 1});
    grid.resize(grid.size() - 4);
    RobloxModelWriteOptions wo;
    wo.compression = RobloxChunkCompression::None;
    const RobloxModelWriteResult w = writeRobloxModel(placeWithTerrain(grid), wo);
    ASSERT_TRUE(w.ok());
    const DecodeResult r = decodeBytes(w.bytes);
    ASSERT_TRUE(r.ok());  // the place decodes; the terrain is a warning
    const std::size_t blobAt = findIn(w.bytes, grid);
    bool found = false;
    for (const Diagnostic& d : r.asset.diagnostics)
        if (d.code == "truncated" && d.context.find("SmoothGrid") != std::string::npos) {
            SCOPED_TRACE(d.toString());
            EXPECT_EQ(d.offset, blobAt + grid.size());
            found = true;
        }
    EXPECT_TRUE(found);
}

TEST(TerrainPlace, CancelledDecodeSaysSo) {
    std::vector<TerrainChunkVoxels> cs{emptyChunk(0, 0, 0), emptyChunk(1, 0, 0)};
    cs[0].voxels[at(1, 1, 1)] = solid(2);
    cs[1].voxels[at(1, 1, 1)] = solid(2);
    const RobloxModelWriteResult w = writeRobloxModel(placeWithTerrain(writeSmoothGrid(cs)));
    std::atomic<bool> cancel{false};
    DecodeOptions o;
    o.cancel = &cancel;
    // Cancel once the tree is done and the terrain phase starts (progress restarts at 0).
    double previous = 0;
    o.progress = [&](double f) {
        if (f < previous) cancel = true;
        previous = f;
    };
    const DecodeResult r = decodeBytes(w.bytes, o);
    if (cancel) {
        ASSERT_FALSE(r.ok());
        EXPECT_EQ(r.error->code, "cancelled");
    } else {
        GTEST_SKIP() << "SKIPPED: the decoder reported no progress before the terrain phase";
    }
}

// ---- the corpus ----------------------------------------------------------------------------

struct Counts {
    std::size_t chunks = 0;
    std::uint64_t solid = 0, water = 0;
    std::array<std::uint64_t, 64> materials{};
    std::size_t triangles = 0;
    bool operator==(const Counts&) const = default;
};

std::optional<Counts> countsOf(const std::filesystem::path& path) {
    const DecodeResult r = decodeFile(path.string());
    EXPECT_TRUE(r.ok()) << path << ": " << (r.error ? r.error->toString() : "");
    const int node = findTerrainNode(r.asset);
    if (node < 0) return std::nullopt;
    const std::optional<TerrainInfo> info = readTerrain(r.asset, node);
    if (!info) return std::nullopt;
    EXPECT_TRUE(info->grid.ok()) << path << ": " << info->grid.error->toString();
    Counts c;
    c.chunks = info->grid.chunks.size();
    c.solid = info->grid.solidVoxels;
    c.water = info->grid.waterVoxels;
    c.materials = info->grid.materialVoxels;
    for (const Mesh& m : r.asset.meshes)
        if (m.node == node) c.triangles += m.triangleCount();
    return c;
}

// A TerrainRegion (a saved copy of terrain) is not meshed with the place: it is drawn when
// selected, from meshTerrainOfNode, in its own colours.
TEST(TerrainRegion, MeshedOnDemandInItsOwnColours) {
    std::vector<TerrainChunkVoxels> cs{emptyChunk(0, 0, 0)};
    cs[0].voxels[at(1, 1, 1)] = solid(2);
    cs[0].voxels[at(5, 1, 1)] = solid(kTerrainWater);
    Asset a =
        placeWithTerrain(writeSmoothGrid(std::vector<TerrainChunkVoxels>{emptyChunk(0, 0, 0)}));
    const int region = a.addNode("TerrainRegion", "TerrainRegion", 0);
    a.addChild(0, region);
    a.addProperty(region, test::prop("SmoothGrid", "string", writeSmoothGrid(cs)));
    std::string mc(69, '\0');
    mc[6] = char(200);  // Grass: (200, 100, 50)
    mc[7] = char(100);
    mc[8] = char(50);
    a.addProperty(region, test::prop("MaterialColors", "string", mc));
    const std::optional<TerrainMeshes> m = meshTerrainOfNode(a, region);
    ASSERT_TRUE(m);
    EXPECT_EQ(m->terrain.node, region);
    EXPECT_EQ(m->water.node, region);
    EXPECT_GT(m->terrain.triangleCount(), 0u);
    EXPECT_GT(m->water.triangleCount(), 0u);
    EXPECT_EQ(m->terrain.colors.front(), (Rgba8{200, 100, 50, 255}));
    // The solid voxel (1, 1, 1) spans studs [4, 8) on each axis: the surface lies inside it.
    Bounds b;
    for (const Vec3& p : m->terrain.positions) b.add(p);
    EXPECT_GE(b.min.x, 4.f - 1e-3f);
    EXPECT_LE(b.max.x, 8.f + 1e-3f);
    // Nodes without a grid, and nodes that do not exist, give nothing.
    EXPECT_FALSE(meshTerrainOfNode(a, 0));
    EXPECT_FALSE(meshTerrainOfNode(a, -1));
    EXPECT_FALSE(meshTerrainOfNode(a, int(a.nodes.size())));
}

TEST(TerrainCorpus, TheUnitTestPlacesTerrainRegionMeshes) {
    MESHSCOPE_REQUIRE_CORPUS(corpus);
    for (const char* file : {"rbxm/MaximumADHD_Roblox-File-Format/UnitTest/Files/Binary.rbxl",
                             "rbxmx/MaximumADHD_Roblox-File-Format/UnitTest/Files/Xml.rbxlx"}) {
        const DecodeResult r = decodeFile((corpus / file).string());
        ASSERT_TRUE(r.ok()) << file;
        std::size_t triangles = 0;
        int regions = 0;
        for (std::size_t i = 0; i < r.asset.nodes.size(); ++i) {
            if (r.asset.kind(int(i)) != "TerrainRegion") continue;
            ++regions;
            if (const std::optional<TerrainMeshes> m = meshTerrainOfNode(r.asset, int(i)))
                triangles += m->terrain.triangleCount() + m->water.triangleCount();
        }
        EXPECT_GE(regions, 1) << file;
        EXPECT_GT(triangles, 0u) << file << ": the saved region holds terrain";
        // The place's own meshes do not include the region's.
        for (const Mesh& mesh : r.asset.meshes)
            if (mesh.node >= 0) {
                EXPECT_NE(r.asset.kind(mesh.node), "TerrainRegion");
            }
    }
}

TEST(TerrainCorpus, XmlPlaceNamesEveryChunkOverItsText) {
    MESHSCOPE_REQUIRE_CORPUS(corpus);
    const DecodeResult r = decodeFile(
        (corpus / "rbxmx/MaximumADHD_Roblox-File-Format/UnitTest/Files/Xml.rbxlx").string());
    ASSERT_TRUE(r.ok());
    const int terrain = findTerrainNode(r.asset);
    ASSERT_GE(terrain, 0);
    const std::optional<TerrainInfo> info = readTerrain(r.asset, terrain);
    ASSERT_TRUE(info);
    std::size_t chunks = 0;
    for (const ByteRange& br : r.asset.byteMap.ranges())
        if (br.node == terrain && br.kind == RangeKind::Chunk &&
            br.path.find("SmoothGrid") != std::string::npos) {
            ++chunks;
            // Each group of 4 characters encodes 3 bytes: a chunk's text is about 4/3 its size.
            EXPECT_GT(br.length, 0u);
        }
    EXPECT_EQ(chunks, info->grid.chunks.size());
    EXPECT_EQ(chunks, 20u);  // as in the binary twin (TerrainCorpus.BinaryAndXmlTwins...)
}

TEST(TerrainCorpus, BinaryAndXmlTwinsHaveTheSameVoxels) {
    MESHSCOPE_REQUIRE_CORPUS(corpus);
    const std::pair<const char*, const char*> twins[] = {
        {"rbxm/MaximumADHD_Roblox-File-Format/UnitTest/Files/Binary.rbxl",
         "rbxmx/MaximumADHD_Roblox-File-Format/UnitTest/Files/Xml.rbxlx"},
        {"rbxm/rbx-test-files/places/all-instances-415/binary.rbxl",
         "rbxm/rbx-test-files/places/all-instances-415/xml.rbxlx"},
        {"rbxm/rbx-test-files/places/baseplate-413/binary.rbxl",
         "rbxm/rbx-test-files/places/baseplate-413/xml.rbxlx"},
        {"rbxm/rbx-test-files/places/baseplate-454/binary.rbxl",
         "rbxm/rbx-test-files/places/baseplate-454/xml.rbxlx"},
    };
    int withVoxels = 0;
    for (const auto& [bin, xml] : twins) {
        if (!std::filesystem::exists(corpus / bin) || !std::filesystem::exists(corpus / xml)) {
            ADD_FAILURE() << "missing twin " << bin;
            continue;
        }
        const std::optional<Counts> b = countsOf(corpus / bin), x = countsOf(corpus / xml);
        ASSERT_EQ(b.has_value(), x.has_value()) << bin;
        if (!b) continue;
        EXPECT_EQ(*b, *x) << bin;
        if (b->solid + b->water > 0) ++withVoxels;
    }
    // The UnitTest place holds terrain (the letters TEST in Grass, Sand, Rock and Water).
    EXPECT_GE(withVoxels, 1);
    const std::optional<Counts> unit = countsOf(corpus / twins[0].first);
    ASSERT_TRUE(unit);
    EXPECT_GT(unit->solid, 0u);
    EXPECT_GT(unit->water, 0u);
    EXPECT_GT(unit->triangles, 0u);
    // Each real chunk's runs add up to exactly 32³ voxels: nothing was left over.
    EXPECT_EQ(unit->materials[kTerrainAir], 0u);  // Air is never counted
}

}  // namespace
}  // namespace meshscope
