// Roblox smooth terrain (see roblox_terrain.h): the SmoothGrid blob walked run by run, one
// chunk expanded at a time, and surface nets over the occupancy field.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <list>
#include <optional>
#include <unordered_map>

#include "formats/roblox_model/model_decoders.h"
#include "meshscope/core/error_codes.h"
#include "meshscope/core/roblox_terrain.h"

namespace meshscope {

namespace {

constexpr std::array<const char*, kTerrainMaterialCount> kMaterialNames = {
    "Air",  "Water",      "Grass",  "Slate",       "Concrete", "Brick",
    "Sand", "WoodPlanks", "Rock",   "Glacier",     "Snow",     "Sandstone",
    "Mud",  "Basalt",     "Ground", "CrackedLava", "Asphalt",  "Cobblestone",
    "Ice",  "LeafyGrass", "Salt",   "Limestone",   "Pavement"};

// Roblox's default Terrain.MaterialColors (the values a new place stores).
constexpr std::array<Rgba8, kTerrainMaterialCount> kDefaultColors = {{
    {128, 128, 128, 255},  // Air (never drawn)
    {12, 84, 92, 255},     // Water: the default WaterColor
    {106, 127, 63, 255},   // Grass
    {63, 127, 107, 255},   // Slate
    {127, 102, 63, 255},   // Concrete
    {138, 86, 62, 255},    // Brick
    {143, 126, 95, 255},   // Sand
    {139, 109, 79, 255},   // WoodPlanks
    {102, 108, 111, 255},  // Rock
    {101, 176, 234, 255},  // Glacier
    {195, 199, 218, 255},  // Snow
    {137, 90, 71, 255},    // Sandstone
    {58, 46, 36, 255},     // Mud
    {30, 30, 37, 255},     // Basalt
    {102, 92, 59, 255},    // Ground
    {232, 156, 74, 255},   // CrackedLava
    {115, 123, 107, 255},  // Asphalt
    {132, 123, 90, 255},   // Cobblestone
    {129, 194, 224, 255},  // Ice
    {115, 132, 74, 255},   // LeafyGrass
    {198, 189, 181, 255},  // Salt
    {206, 173, 148, 255},  // Limestone
    {148, 148, 140, 255},  // Pavement
}};

constexpr std::size_t kChunkHeader = 12;

std::string hex(std::uint64_t v) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
    return buf;
}

// Walks a blob, recording the first failure with its offset.
struct GridReader {
    std::span<const std::uint8_t> blob;
    const TerrainDecodeOptions& options;
    TerrainGrid& grid;

    std::uint64_t fileOffset(std::size_t pos) const {
        return options.mapped ? options.baseOffset + pos : options.baseOffset;
    }
    void fail(std::size_t pos, std::string code, std::string message, std::string where = {}) {
        if (grid.error) return;
        DecodeError e;
        e.code = std::move(code);
        e.offset = fileOffset(pos);
        e.context = where.empty() ? options.context : options.context + kPathSeparator + where;
        e.message = std::move(message) + " (at +" + hex(pos) + " in the SmoothGrid value)";
        grid.error = std::move(e);
    }
};

}  // namespace

const char* terrainMaterialName(int material) {
    return material >= 0 && material < kTerrainMaterialCount ? kMaterialNames[std::size_t(material)]
                                                             : nullptr;
}

Rgba8 terrainDefaultColor(int material) {
    return material >= 0 && material < kTerrainMaterialCount ? kDefaultColors[std::size_t(material)]
                                                             : Rgba8{128, 128, 128, 255};
}

TerrainColors defaultTerrainColors() {
    TerrainColors c;
    std::copy(kDefaultColors.begin(), kDefaultColors.end(), c.begin());
    return c;
}

TerrainColors decodeMaterialColors(std::span<const std::uint8_t> bytes) {
    TerrainColors c = defaultTerrainColors();
    // The first two triplets (Air, Water) are reserved and stored as zeros.
    for (int m = 2; m < kTerrainMaterialCount; ++m) {
        const std::size_t at = std::size_t(m) * 3;
        if (at + 3 > bytes.size()) break;
        c[std::size_t(m)] = Rgba8{bytes[at], bytes[at + 1], bytes[at + 2], 255};
    }
    return c;
}

// ---------------------------------------------------------------------------------------------
// Decoding

TerrainGrid decodeSmoothGrid(std::span<const std::uint8_t> blob,
                             const TerrainDecodeOptions& options) {
    TerrainGrid grid;
    GridReader rd{blob, options, grid};
    if (blob.size() < 2) {
        if (!blob.empty())
            rd.fail(blob.size(), errc::kTruncated,
                    "the SmoothGrid header needs 2 bytes, 1 present");
        return grid;
    }
    grid.version = blob[0];
    if (grid.version != 1) {
        rd.fail(0, errc::kUnsupportedVersion,
                "SmoothGrid version " + std::to_string(grid.version) + " is not supported (1 is)");
        return grid;
    }
    if (blob[1] > 8) {
        rd.fail(1, errc::kBadChunkSize,
                "chunk-size exponent " + std::to_string(blob[1]) + " is past 8 (256³ voxels)");
        return grid;
    }
    grid.chunkExponent = blob[1];
    if (grid.chunkExponent != 5)
        grid.warnings.push_back({Severity::Warning, errc::kChunkSize, rd.fileOffset(1),
                                 options.context,
                                 "chunk-size exponent " + std::to_string(grid.chunkExponent) +
                                     " (Roblox writes 5: 32³ voxels a chunk)"});
    const std::uint64_t perChunk = grid.chunkVoxels();
    std::int64_t px = 0, py = 0, pz = 0;
    std::size_t pos = 2;
    std::array<std::uint64_t, 64> materials{};
    while (pos < blob.size()) {
        if (options.cancel && (grid.chunks.size() & 63) == 0 &&
            options.cancel->load(std::memory_order_relaxed)) {
            grid.cancelled = true;
            rd.fail(pos, errc::kCancelled, "cancelled");
            break;
        }
        const std::size_t start = pos;
        const std::string where = "chunk " + std::to_string(grid.chunks.size());
        if (grid.chunks.size() >= options.maxChunks) {
            rd.fail(start, errc::kLimit,
                    "more than " + std::to_string(options.maxChunks) +
                        " chunks (the chunk cap; each holds " + std::to_string(perChunk) +
                        " voxels)",
                    where);
            break;
        }
        if (blob.size() - pos < kChunkHeader) {
            rd.fail(start, errc::kTruncated,
                    "chunk header needs 12 bytes, " + std::to_string(blob.size() - pos) + " remain",
                    where);
            break;
        }
        std::int32_t delta[3];
        for (int a = 0; a < 3; ++a) {
            std::uint32_t v = 0;
            for (int plane = 0; plane < 4; ++plane)
                v = (v << 8) | blob[pos + std::size_t(a + 3 * plane)];
            delta[a] = std::int32_t(v);
        }
        px += delta[0];
        py += delta[1];
        pz += delta[2];
        const std::int64_t cap = options.maxChunkCoordinate;
        if (px < -cap || px > cap || py < -cap || py > cap || pz < -cap || pz > cap) {
            rd.fail(start, errc::kChunkCoordinate,
                    "chunk at (" + std::to_string(px) + ", " + std::to_string(py) + ", " +
                        std::to_string(pz) + ") is past ±" + std::to_string(cap) +
                        " chunks from the origin",
                    where);
            break;
        }
        pos += kChunkHeader;
        TerrainChunk c;
        c.x = std::int32_t(px);
        c.y = std::int32_t(py);
        c.z = std::int32_t(pz);
        c.offset = start;
        std::uint64_t filled = 0;
        std::array<std::uint64_t, 64> chunkMaterials{};
        bool uniform = true;
        bool bad = false;
        while (filled < perChunk) {
            const std::size_t runAt = pos;
            if (pos >= blob.size()) {
                rd.fail(runAt, errc::kTruncated,
                        "the chunk's runs end after " + std::to_string(filled) + " of " +
                            std::to_string(perChunk) + " voxels",
                        where);
                bad = true;
                break;
            }
            const std::uint8_t flag = blob[pos++];
            TerrainVoxel v;
            v.material = flag & 0x3f;
            v.occupancy = v.material == kTerrainAir ? 0 : 255;
            std::uint64_t count = 1;
            const std::size_t need = ((flag & 0x40) ? 1u : 0u) + ((flag & 0x80) ? 1u : 0u);
            if (blob.size() - pos < need) {
                rd.fail(runAt, errc::kTruncated, "the run's flag byte asks for bytes past the end",
                        where);
                bad = true;
                break;
            }
            if (flag & 0x40) v.occupancy = blob[pos++];
            if (flag & 0x80) {
                const std::uint8_t n = blob[pos++];
                if (n == 0) {
                    if (pos >= blob.size()) {
                        rd.fail(runAt, errc::kTruncated,
                                "a shoreline voxel's water occupancy is past the end", where);
                        bad = true;
                        break;
                    }
                    v.water = blob[pos++];
                } else {
                    count = std::uint64_t(n) + 1;
                }
            }
            if (filled + count > perChunk) {
                rd.fail(runAt, errc::kRunOverflow,
                        "a run of " + std::to_string(count) + " voxels after " +
                            std::to_string(filled) + " overflows the chunk's " +
                            std::to_string(perChunk),
                        where);
                bad = true;
                break;
            }
            if (c.runs == 0)
                c.fill = v;
            else if (!(v == c.fill))
                uniform = false;
            ++c.runs;
            filled += count;
            if (isSolidVoxel(v)) c.solidVoxels += std::uint32_t(count);
            if (isWaterVoxel(v)) c.waterVoxels += std::uint32_t(count);
            if (v.occupancy > 0 && v.material != kTerrainAir)
                chunkMaterials[v.material] += count;
            else if (v.water > 0)
                chunkMaterials[kTerrainWater] += count;
        }
        if (bad) break;
        c.uniform = uniform;
        c.length = pos - start;
        grid.solidVoxels += c.solidVoxels;
        grid.waterVoxels += c.waterVoxels;
        grid.runs += c.runs;
        for (std::size_t m = 0; m < 64; ++m) materials[m] += chunkMaterials[m];
        grid.chunks.push_back(c);
    }
    grid.materialVoxels = materials;
    for (std::size_t m = kTerrainMaterialCount; m < 64; ++m)
        if (materials[m]) {
            grid.warnings.push_back({Severity::Warning, errc::kUnknownMaterial, rd.fileOffset(0),
                                     options.context,
                                     std::to_string(materials[m]) + " voxels of material " +
                                         std::to_string(m) + " (unknown; drawn grey)"});
        }
    return grid;
}

namespace {

// Calls emit(voxel, first, count) for each run of a non-uniform chunk, in order; false when the
// runs do not fit the blob or the chunk's perChunk voxels.
template <class Emit>
bool walkChunkRuns(std::span<const std::uint8_t> blob, const TerrainChunk& chunk,
                   std::size_t perChunk, Emit&& emit) {
    std::size_t pos = std::size_t(chunk.offset) + kChunkHeader;
    std::size_t filled = 0;
    while (filled < perChunk) {
        if (pos >= blob.size()) return false;
        const std::uint8_t flag = blob[pos++];
        TerrainVoxel v;
        v.material = flag & 0x3f;
        v.occupancy = v.material == kTerrainAir ? 0 : 255;
        std::size_t count = 1;
        if (flag & 0x40) {
            if (pos >= blob.size()) return false;
            v.occupancy = blob[pos++];
        }
        if (flag & 0x80) {
            if (pos >= blob.size()) return false;
            const std::uint8_t n = blob[pos++];
            if (n == 0) {
                if (pos >= blob.size()) return false;
                v.water = blob[pos++];
            } else {
                count = std::size_t(n) + 1;
            }
        }
        if (filled + count > perChunk) return false;
        emit(v, filled, count);
        filled += count;
    }
    return true;
}

}  // namespace

bool expandTerrainChunk(std::span<const std::uint8_t> blob, const TerrainGrid& grid,
                        const TerrainChunk& chunk, std::span<TerrainVoxel> out) {
    const std::size_t perChunk = grid.chunkVoxels();
    if (out.size() < perChunk) return false;
    if (chunk.uniform) {
        std::fill(out.begin(), out.begin() + std::ptrdiff_t(perChunk), chunk.fill);
        return true;
    }
    return walkChunkRuns(blob, chunk, perChunk,
                         [&](TerrainVoxel v, std::size_t first, std::size_t count) {
                             std::fill_n(out.begin() + std::ptrdiff_t(first), count, v);
                         });
}

std::string writeSmoothGrid(std::span<const TerrainChunkVoxels> chunks, int exponent) {
    exponent = std::clamp(exponent, 0, 8);
    const std::size_t perChunk = std::size_t(1) << (3 * exponent);
    std::string out;
    out.push_back(char(1));
    out.push_back(char(exponent));
    std::int32_t px = 0, py = 0, pz = 0;
    for (const TerrainChunkVoxels& c : chunks) {
        const std::uint32_t d[3] = {std::uint32_t(c.x - px), std::uint32_t(c.y - py),
                                    std::uint32_t(c.z - pz)};
        for (int plane = 0; plane < 4; ++plane)
            for (int a = 0; a < 3; ++a) out.push_back(char((d[a] >> (8 * (3 - plane))) & 0xff));
        px = c.x;
        py = c.y;
        pz = c.z;
        auto voxel = [&](std::size_t i) {
            return i < c.voxels.size() ? c.voxels[i] : TerrainVoxel{};
        };
        for (std::size_t i = 0; i < perChunk;) {
            const TerrainVoxel v = voxel(i);
            std::size_t run = 1;
            if (v.water == 0)
                while (run < 256 && i + run < perChunk && voxel(i + run) == v) ++run;
            const std::uint8_t defaultOcc = v.material == kTerrainAir ? 0 : 255;
            std::uint8_t flag = v.material & 0x3f;
            if (v.occupancy != defaultOcc) flag |= 0x40;
            if (run > 1 || v.water) flag |= 0x80;
            out.push_back(char(flag));
            if (flag & 0x40) out.push_back(char(v.occupancy));
            if (v.water) {
                out.push_back(char(0));
                out.push_back(char(v.water));
            } else if (run > 1) {
                out.push_back(char(run - 1));
            }
            i += run;
        }
    }
    return out;
}

// ---------------------------------------------------------------------------------------------
// Meshing

namespace {

struct ChunkKey {
    std::int32_t x, y, z;
    bool operator==(const ChunkKey&) const = default;
};
struct ChunkKeyHash {
    std::size_t operator()(const ChunkKey& k) const {
        std::uint64_t h = std::uint64_t(std::uint32_t(k.x)) * 0x9E3779B97F4A7C15ull;
        h ^= std::uint64_t(std::uint32_t(k.y)) * 0xC2B2AE3D27D4EB4Full + (h >> 29);
        h ^= std::uint64_t(std::uint32_t(k.z)) * 0x165667B19E3779F9ull + (h >> 31);
        return std::size_t(h);
    }
};

// What the mesher reads at one voxel, as bytes (b stands for b / 255): the solid occupancy (0
// for Air and Water), the water field (a Water voxel's occupancy or a shoreline's water byte,
// the larger) and the material. Bytes keep the padded box small; the values compare as their
// fractions do (b / 255 is strictly increasing), and the vertex maths reads the fractions.
struct alignas(4) Sample {  // four bytes: copied and filled as words
    std::uint8_t solid = 0;
    std::uint8_t water = 0;
    std::uint8_t material = 0;
    std::uint8_t inside = 0;  // insideOf, where the sample was made by withInside
    friend bool operator==(const Sample&, const Sample&) = default;
};

Sample sampleOf(TerrainVoxel v) {
    Sample s;
    s.material = v.material;
    if (v.material == kTerrainWater)
        s.water = v.occupancy;
    else if (v.material != kTerrainAir)
        s.solid = v.occupancy;
    s.water = std::max(s.water, v.water);
    return s;
}

// b / 255 as a float.
const std::array<float, 256>& unitTable() {
    static const std::array<float, 256> unit = [] {
        std::array<float, 256> t{};
        for (int i = 0; i < 256; ++i) t[std::size_t(i)] = float(i) / 255.0f;
        return t;
    }();
    return unit;
}

constexpr float kIso = 0.5f;
// The iso level in bytes: b / 255 >= 0.5 exactly when b >= 128.
constexpr std::uint8_t kIsoByte = 128;

// Which side of the iso level a sample is on: bit 0 solid, bit 1 solid or water, bit 2 mostly
// water.
std::uint8_t insideOf(Sample s) {
    return std::uint8_t((s.solid >= kIsoByte ? 1 : 0) |
                        (std::max(s.solid, s.water) >= kIsoByte ? 2 : 0) |
                        (s.water > s.solid ? 4 : 0));
}

Sample withInside(Sample s) {
    s.inside = insideOf(s);
    return s;
}

// Expanded chunks, least recently used dropped first. A chunk is kept as its runs (each with
// its sample) and, for each row of voxels along x, the run holding the row's first voxel and
// whether the row is all air: a few KB for real terrain, where its voxels would be 98 KB at 32³.
// All the chunks kept take at most the bytes of `capacity` chunks of voxels (TerrainVoxel), the
// memory the cache had when it kept voxels; the chunk just asked for is always kept (a noisy
// chunk, a run a voxel, takes about 2.7 times its voxels' bytes).
class ChunkCache {
public:
    struct Run {
        std::uint32_t end;  // voxels [the previous run's end, end), in the chunk's voxel order
        Sample sample;      // with its inside bits
    };
    struct Voxels {
        // The inside bits of the chunk's voxels ORed and ANDed: equal when they are all alike.
        std::uint8_t insideAny, insideAll;
        std::span<const Run> runs;              // cover the chunk's voxels, ends increasing
        std::span<const std::uint32_t> rowRun;  // per row (y·n + z): the run of voxel row·n
        std::span<const std::uint8_t> rowAir;   // per row: 1 when all its samples are zeros
    };

    ChunkCache(std::span<const std::uint8_t> blob, const TerrainGrid& grid, std::size_t capacity)
        : blob_(blob),
          grid_(grid),
          budget_(std::max<std::size_t>(capacity, 27) * grid.chunkVoxels() * sizeof(TerrainVoxel)) {
    }

    // Nullopt when the chunk's runs cannot be expanded (never for a chunk decodeSmoothGrid
    // kept).
    std::optional<Voxels> get(std::size_t chunk) {
        if (auto it = index_.find(chunk); it != index_.end()) {
            lru_.splice(lru_.begin(), lru_, it->second);
            return view(*it->second);
        }
        Entry e;
        e.chunk = chunk;
        if (!expand(grid_.chunks[chunk], e)) return std::nullopt;
        bytes_ += e.bytes();
        lru_.push_front(std::move(e));
        index_[chunk] = lru_.begin();
        while (bytes_ > budget_ && lru_.size() > 1) {
            bytes_ -= lru_.back().bytes();
            index_.erase(lru_.back().chunk);
            lru_.pop_back();
        }
        return view(lru_.front());
    }

private:
    struct Entry {
        std::size_t chunk = 0;
        std::vector<Run> runs;
        std::vector<std::uint32_t> rowRun;
        std::vector<std::uint8_t> rowAir;
        std::uint8_t insideAny = 0, insideAll = 0xff;
        std::size_t bytes() const {
            return runs.capacity() * sizeof(Run) + rowRun.capacity() * sizeof(std::uint32_t) +
                   rowAir.capacity();
        }
    };

    static Voxels view(const Entry& e) {
        return Voxels{e.insideAny, e.insideAll, e.runs, e.rowRun, e.rowAir};
    }

    // The chunk's runs (equal neighbours merged) and its rows' first runs.
    bool expand(const TerrainChunk& c, Entry& e) const {
        const std::size_t perChunk = grid_.chunkVoxels();
        auto emit = [&](TerrainVoxel v, std::size_t first, std::size_t count) {
            const Sample s = withInside(sampleOf(v));
            if (!e.runs.empty() && e.runs.back().sample == s)
                e.runs.back().end = std::uint32_t(first + count);
            else
                e.runs.push_back({std::uint32_t(first + count), s});
        };
        if (c.uniform)
            emit(c.fill, 0, perChunk);
        else if (!walkChunkRuns(blob_, c, perChunk, emit))
            return false;
        e.runs.shrink_to_fit();
        for (const Run& r : e.runs) {
            e.insideAny |= r.sample.inside;
            e.insideAll &= r.sample.inside;
        }
        const std::size_t n = std::size_t(grid_.chunkSize());
        e.rowRun.resize(n * n);
        e.rowAir.resize(n * n);
        std::size_t k = 0;
        for (std::size_t row = 0; row < n * n; ++row) {
            while (e.runs[k].end <= row * n) ++k;
            e.rowRun[row] = std::uint32_t(k);
            // Air when the runs over the row's voxels are all zeros.
            bool air = true;
            for (std::size_t j = k; air && j < e.runs.size(); ++j) {
                air = e.runs[j].sample == Sample{};
                if (e.runs[j].end >= (row + 1) * n) break;
            }
            e.rowAir[row] = air;
        }
        return true;
    }

    std::span<const std::uint8_t> blob_;
    const TerrainGrid& grid_;
    std::size_t budget_;  // bytes
    std::size_t bytes_ = 0;
    std::list<Entry> lru_;
    std::unordered_map<std::size_t, std::list<Entry>::iterator> index_;
};

// The 12 edges of a cell's cube of corners (corner i at x = i & 1, y = i >> 1 & 1, z = i >> 2),
// from corner a along `axis` to corner b, in order of a, then axis.
struct CubeEdge {
    std::uint8_t a, b, axis;
};
constexpr std::array<CubeEdge, 12> kCubeEdges = [] {
    std::array<CubeEdge, 12> edges{};
    std::size_t i = 0;
    for (int a = 0; a < 8; ++a)
        for (int axis = 0; axis < 3; ++axis)
            if (!(a & (1 << axis)))
                edges[i++] = {std::uint8_t(a), std::uint8_t(a | (1 << axis)), std::uint8_t(axis)};
    return edges;
}();
// Per mask of the corners inside: bit e set when edge e has one corner in and one out.
constexpr std::array<std::uint16_t, 256> kCrossingEdges = [] {
    std::array<std::uint16_t, 256> masks{};
    for (unsigned in = 0; in < 256; ++in)
        for (std::size_t e = 0; e < kCubeEdges.size(); ++e)
            if (((in >> kCubeEdges[e].a) ^ (in >> kCubeEdges[e].b)) & 1)
                masks[in] = std::uint16_t(masks[in] | (1u << e));
    return masks;
}();

// One surface being built: vertices per cell of the current chunk, triangles appended.
struct SurfaceBuilder {
    Mesh& mesh;
    std::uint64_t maxTriangles;
    bool full = false;

    void quad(std::uint32_t a, std::uint32_t b, std::uint32_t c, std::uint32_t d) {
        if (full) return;
        if (mesh.indices.size() / 3 + 2 > maxTriangles) {
            full = true;
            return;
        }
        mesh.indices.insert(mesh.indices.end(), {a, b, c, a, c, d});
    }
};

class Mesher {
public:
    Mesher(std::span<const std::uint8_t> blob, const TerrainGrid& grid,
           const TerrainMeshOptions& options, TerrainMeshes& out)
        : blob_(blob),
          grid_(grid),
          options_(options),
          out_(out),
          cache_(blob, grid, cacheSize(grid, options.cacheChunks)),
          n_(grid.chunkSize()),
          p_(n_ + 2) {
        for (std::size_t i = 0; i < grid.chunks.size(); ++i) {
            const TerrainChunk& c = grid.chunks[i];
            index_.emplace(ChunkKey{c.x, c.y, c.z}, i);  // a repeated position: the first wins
        }
        samples_.resize(std::size_t(p_) * p_ * p_);
        // Past the box: room for meshChunk's 8-byte loads at the last rows.
        inside_.resize(samples_.size() + kInsideSlack);
        rowValue_.resize(std::size_t(p_) * p_);
        rowDirty_.assign(rowValue_.size(), 0);
        cellVertex_.assign(std::size_t(n_ + 1) * (n_ + 1) * (n_ + 1), kUnset);
    }

    // Chunks are meshed in (x, y, z) order: a chunk's neighbours lie in its own and the two
    // adjacent x slabs, so two slabs and a row of the largest slab are all the cache needs.
    static std::size_t cacheSize(const TerrainGrid& grid, std::size_t cap) {
        std::unordered_map<std::int32_t, std::size_t> slabs;
        std::size_t largest = 0;
        for (const TerrainChunk& c : grid.chunks) largest = std::max(largest, ++slabs[c.x]);
        return std::min(cap, 2 * largest + 64);
    }

    void run() {
        out_.terrain.name = "terrain";
        out_.water.name = "water";
        // Chunks sorted by position (x, then y, then z): neighbours stay in the cache.
        std::vector<std::size_t> order(grid_.chunks.size());
        for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
        std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
            const TerrainChunk &ca = grid_.chunks[a], &cb = grid_.chunks[b];
            return std::tie(ca.x, ca.y, ca.z) < std::tie(cb.x, cb.y, cb.z);
        });
        SurfaceBuilder solid{out_.terrain, options_.maxTriangles};
        SurfaceBuilder water{out_.water, options_.maxTriangles};
        for (std::size_t k = 0; k < order.size(); ++k) {
            if (options_.cancel && options_.cancel->load(std::memory_order_relaxed)) {
                out_.cancelled = true;
                break;
            }
            if (options_.progress && (k & 15) == 0) options_.progress(double(k) / order.size());
            const std::size_t ci = order[k];
            if (index_.at(ChunkKey{grid_.chunks[ci].x, grid_.chunks[ci].y, grid_.chunks[ci].z}) !=
                ci)
                continue;  // a second chunk at one position
            if (quiet(ci)) continue;
            if (calm(ci)) {  // what fill would find: no surface crosses
                ++out_.chunksMeshed;
                continue;
            }
            if (!fill(ci)) continue;
            if (solidCrosses_) meshChunk(ci, false, solid);
            if (waterCrosses_) meshChunk(ci, true, water);
            ++out_.chunksMeshed;
            if (solid.full && water.full) break;
        }
        out_.truncated = solid.full || water.full;
        for (Mesh* m : {&out_.terrain, &out_.water}) finish(*m);
        if (options_.progress) options_.progress(1.0);
    }

private:
    const TerrainChunk* at(std::int32_t x, std::int32_t y, std::int32_t z) const {
        auto it = index_.find(ChunkKey{x, y, z});
        return it == index_.end() ? nullptr : &grid_.chunks[it->second];
    }

    // Inside classes of a uniform voxel: solid inside, water inside.
    static int classOf(TerrainVoxel v) { return insideOf(sampleOf(v)); }

    // True when the chunk and its 26 neighbours are uniform with one inside class (missing
    // neighbours are air): no surface crosses the chunk.
    bool quiet(std::size_t ci) const {
        const TerrainChunk& c = grid_.chunks[ci];
        if (!c.uniform) return false;
        const int cls = classOf(c.fill);
        for (int dz = -1; dz <= 1; ++dz)
            for (int dy = -1; dy <= 1; ++dy)
                for (int dx = -1; dx <= 1; ++dx) {
                    const TerrainChunk* nb = at(c.x + dx, c.y + dy, c.z + dz);
                    if (!nb) {
                        if (cls != 0) return false;
                        continue;
                    }
                    if (!nb->uniform || classOf(nb->fill) != cls) return false;
                }
        return true;
    }

    // The inside class all of a chunk's voxels share (a missing chunk: air), or -1 when they
    // differ or the chunk cannot be expanded.
    int classOfChunk(const TerrainChunk* c) {
        if (!c) return 0;
        if (c->uniform) return classOf(c->fill);
        const std::optional<ChunkCache::Voxels> v =
            cache_.get(std::size_t(c - grid_.chunks.data()));
        return v && v->insideAny == v->insideAll ? v->insideAny : -1;
    }

    // True when the chunk and its 26 neighbours have one inside class each, the same (missing
    // neighbours are air), as quiet() but for chunks whose voxels differ within a class (mixed
    // materials underground, air of varied low occupancy): fill() would find nothing to mesh.
    // The neighbours' voxels are read whole (cached for fill anyway), no padded box is filled.
    bool calm(std::size_t ci) {
        const TerrainChunk& c = grid_.chunks[ci];
        const int cls = classOfChunk(&c);
        if (cls < 0) return false;
        for (int dz = -1; dz <= 1; ++dz)
            for (int dy = -1; dy <= 1; ++dy)
                for (int dx = -1; dx <= 1; ++dx)
                    if ((dx || dy || dz) && classOfChunk(at(c.x + dx, c.y + dy, c.z + dz)) != cls)
                        return false;
        return true;
    }

    std::size_t boxRow(int y, int z) const {  // y, z in -1..n: the row of rowValue_, rowDirty_
        return std::size_t(y + 1) * p_ + std::size_t(z + 1);
    }

    std::size_t sampleIndex(int x, int y, int z) const {  // x, y, z in -1..n
        return (std::size_t(y + 1) * p_ + std::size_t(z + 1)) * p_ + std::size_t(x + 1);
    }

    // The chunk's voxels and one layer of its neighbours' into samples_ and inside_ (zeros
    // where a neighbour is missing), row by row. Only the samples other than zero (air) are
    // written: the rows written last time are cleared first (rowDirty_), the rest are zeros.
    bool fill(std::size_t ci) {
        const TerrainChunk& c = grid_.chunks[ci];
        for (std::size_t r = 0; r < rowDirty_.size(); ++r)
            if (rowDirty_[r]) {
                std::fill_n(samples_.begin() + std::ptrdiff_t(r * p_), p_, 0u);
                std::fill_n(inside_.begin() + std::ptrdiff_t(r * p_), p_, std::uint8_t(0));
                rowDirty_[r] = 0;
            }
        for (int dy = -1; dy <= 1; ++dy)
            for (int dz = -1; dz <= 1; ++dz)
                for (int dx = -1; dx <= 1; ++dx) {
                    // The voxel range of this neighbour inside the padded box, in its own
                    // coordinates.
                    auto range = [&](int d, int& lo, int& hi) {
                        lo = d < 0 ? n_ - 1 : 0;
                        hi = d > 0 ? 1 : n_;  // exclusive
                    };
                    int x0, x1, y0, y1, z0, z1;
                    range(dx, x0, x1);
                    range(dy, y0, y1);
                    range(dz, z0, z1);
                    const std::size_t width = std::size_t(x1 - x0);
                    auto fillWith = [&](Sample plain) {
                        const Sample s = withInside(plain);
                        const std::uint32_t word = std::bit_cast<std::uint32_t>(s);
                        if (word == 0) return;
                        const std::uint8_t b = s.inside;
                        for (int y = y0; y < y1; ++y)
                            for (int z = z0; z < z1; ++z) {
                                const std::size_t at =
                                    sampleIndex(x0 + dx * n_, y + dy * n_, z + dz * n_);
                                std::fill_n(samples_.begin() + std::ptrdiff_t(at), width, word);
                                std::fill_n(inside_.begin() + std::ptrdiff_t(at), width, b);
                                rowDirty_[boxRow(y + dy * n_, z + dz * n_)] = 1;
                            }
                    };
                    const TerrainChunk* nb = at(c.x + dx, c.y + dy, c.z + dz);
                    if (!nb) {
                        fillWith(Sample{});
                        continue;
                    }
                    if (nb->uniform) {
                        fillWith(sampleOf(nb->fill));
                        continue;
                    }
                    const std::optional<ChunkCache::Voxels> v =
                        cache_.get(std::size_t(nb - grid_.chunks.data()));
                    if (!v) {
                        if (dx == 0 && dy == 0 && dz == 0) return false;
                        fillWith(Sample{});
                        continue;
                    }
                    for (int y = y0; y < y1; ++y)
                        for (int z = z0; z < z1; ++z)
                            if (!v->rowAir[std::size_t(y) * n_ + std::size_t(z)])
                                copyRow(*v, std::size_t(y) * n_ + std::size_t(z), std::size_t(x0),
                                        width, sampleIndex(x0 + dx * n_, y + dy * n_, z + dz * n_),
                                        boxRow(y + dy * n_, z + dz * n_));
                }
        // Whether each surface crosses the box at all, and the rows along x whose samples are
        // all alike (no surface starts in a run of them).
        std::uint8_t any = 0, all = 0xff;
        for (int y = 0; y < p_; ++y)
            for (int z = 0; z < p_; ++z) {
                const std::size_t r = std::size_t(y) * p_ + std::size_t(z);
                if (!rowDirty_[r]) {  // zeros
                    all = 0;
                    rowValue_[r] = 0;
                    continue;
                }
                const std::uint8_t* row = &inside_[r * p_];
                std::uint8_t rowAny = 0, rowAll = 0xff;
                for (int x = 0; x < p_; ++x) {
                    rowAny |= row[x];
                    rowAll &= row[x];
                }
                any |= rowAny;
                all &= rowAll;
                rowValue_[r] = rowAny == rowAll ? row[0] : -1;
            }
        solidCrosses_ = (any & 1) && !(all & 1);
        waterCrosses_ = (any & 2) && !(all & 2) && (any & 4);
        return true;
    }

    // Voxels x0 .. x0 + width - 1 of a row (y·n + z) of a cached chunk into the box at `to`.
    void copyRow(const ChunkCache::Voxels& v, std::size_t row, std::size_t x0, std::size_t width,
                 std::size_t to, std::size_t toRow) {
        const std::size_t from = row * std::size_t(n_) + x0;
        std::size_t k = v.rowRun[row];
        while (v.runs[k].end <= from) ++k;
        const std::size_t end = from + width;
        for (std::size_t pos = from; pos < end; ++k) {
            const std::size_t stop = std::min<std::size_t>(v.runs[k].end, end);
            const std::uint32_t word = std::bit_cast<std::uint32_t>(v.runs[k].sample);
            if (word != 0) {
                const std::ptrdiff_t at = std::ptrdiff_t(to + (pos - from));
                std::fill_n(samples_.begin() + at, stop - pos, word);
                std::fill_n(inside_.begin() + at, stop - pos, v.runs[k].sample.inside);
                rowDirty_[toRow] = 1;
            }
            pos = stop;
        }
    }

    static std::uint8_t field(const Sample& s, bool water) {
        return water ? std::max(s.solid, s.water) : s.solid;
    }

    std::size_t cellIndex(int x, int y, int z) const {  // x, y, z in -1..n-1
        return (std::size_t(y + 1) * (n_ + 1) + std::size_t(z + 1)) * (n_ + 1) + std::size_t(x + 1);
    }

    // The vertex of cell (x, y, z) (corners x..x+1 ...), made on first use; UINT32_MAX when no
    // surface crosses it.
    std::uint32_t vertex(int x, int y, int z, bool water, Mesh& mesh) {
        const std::size_t cell = cellIndex(x, y, z);
        std::uint32_t& slot = cellVertex_[cell];
        if (slot != kUnset) return slot;
        touched_.push_back(cell);
        const std::array<float, 256>& unit = unitTable();
        Sample s[8];
        std::uint8_t field8[8];
        unsigned in = 0;  // bit i: corner i is inside (its field >= the iso level)
        for (int i = 0; i < 8; ++i) {
            s[i] = std::bit_cast<Sample>(
                samples_[sampleIndex(x + (i & 1), y + ((i >> 1) & 1), z + ((i >> 2) & 1))]);
            field8[i] = field(s[i], water);
            in |= unsigned(field8[i] >= kIsoByte) << i;
        }
        if (in == 0 || in == 0xff) return slot = kNone;
        // The mean of the points where the cube's edges cross the iso level, summed in edge
        // order (kCubeEdges). An edge from corner a along axis k adds t on axis k and a's
        // coordinates (0 or 1) on the others: exactly what adding a + (b - a)·t gives, t being
        // in (0, 1].
        float sum[3] = {0, 0, 0};
        const unsigned crossing = kCrossingEdges[in];
        for (unsigned m = crossing; m; m &= m - 1) {
            const CubeEdge& e = kCubeEdges[std::size_t(std::countr_zero(m))];
            const float fa = unit[field8[e.a]], fb = unit[field8[e.b]];
            const float t = (kIso - fa) / (fb - fa);
            for (int k = 0; k < 3; ++k) sum[k] += k == e.axis ? t : float((e.a >> k) & 1);
        }
        const int crossings = std::popcount(crossing);
        const Vec3 local = Vec3{sum[0], sum[1], sum[2]} * (1.0f / float(crossings));
        const TerrainChunk& c = *current_;
        const float vs = kTerrainVoxelStuds;
        // Sample (voxel) v's centre is at (v + 0.5) · 4 studs.
        const Vec3 p{(float(c.x) * n_ + float(x) + 0.5f + local.x) * vs,
                     (float(c.y) * n_ + float(y) + 0.5f + local.y) * vs,
                     (float(c.z) * n_ + float(z) + 0.5f + local.z) * vs};
        Rgba8 color = options_.waterColor;
        if (!water) {
            float r = 0, g = 0, b = 0, w = 0;
            for (int i = 0; i < 8; ++i) {
                if (s[i].solid == 0) continue;
                const float solid = unit[s[i].solid];
                const std::uint8_t m = s[i].material;
                const Rgba8 mc =
                    m < kTerrainMaterialCount ? options_.colors[m] : Rgba8{128, 128, 128, 255};
                r += mc.r * solid;
                g += mc.g * solid;
                b += mc.b * solid;
                w += solid;
            }
            color = w > 0 ? Rgba8{std::uint8_t(r / w + 0.5f), std::uint8_t(g / w + 0.5f),
                                  std::uint8_t(b / w + 0.5f), 255}
                          : Rgba8{128, 128, 128, 255};
        }
        slot = std::uint32_t(mesh.positions.size());
        mesh.positions.push_back(p);
        mesh.colors.push_back(color);
        return slot;
    }

    void meshChunk(std::size_t ci, bool water, SurfaceBuilder& out) {
        if (out.full) return;
        current_ = &grid_.chunks[ci];
        // Only the cells the last chunk asked for hold a vertex: reset them, not the whole box.
        for (std::size_t cell : touched_) cellVertex_[cell] = kUnset;
        touched_.clear();
        Mesh& mesh = out.mesh;
        // Edges from an owned voxel (0..n-1) to the next along each axis; and where the
        // neighbour on an axis's minus side is missing (nobody else meshes it), the edges from
        // its voxel layer (-1) into this chunk.
        const TerrainChunk& c = *current_;
        const std::uint8_t bit = water ? 2 : 1;
        const bool minus[3] = {at(c.x - 1, c.y, c.z) == nullptr, at(c.x, c.y - 1, c.z) == nullptr,
                               at(c.x, c.y, c.z - 1) == nullptr};
        const std::uint64_t lanes = 0x0101010101010101ull * bit;
        for (int y = -1; y < n_; ++y)
            for (int z = -1; z < n_; ++z) {
                // The layer below a chunk is meshed here only where that neighbour is missing;
                // nothing is meshed from the corner rows (y and z both -1).
                if ((y < 0 && (z < 0 || !minus[1])) || (z < 0 && !minus[2])) continue;
                // Edges from this row stay in it or go to the rows above (y + 1) and behind
                // (z + 1): none crosses when the three are alike and uniform.
                const int r = rowValue_[std::size_t(y + 1) * p_ + std::size_t(z + 1)];
                if (r >= 0 && rowValue_[std::size_t(y + 2) * p_ + std::size_t(z + 1)] == r &&
                    rowValue_[std::size_t(y + 1) * p_ + std::size_t(z + 2)] == r)
                    continue;
                // Eight samples at a time: the lanes (x) where the surface's bit differs along
                // some axis; the others start no edge that crosses.
                const std::uint8_t* row = &inside_[sampleIndex(-1, y, z)];
                for (int base = -1; base < n_; base += 8) {
                    const std::uint8_t* at0 = row + (base + 1);
                    const std::uint64_t here = load64(at0);
                    std::uint64_t differ = ((here ^ load64(at0 + 1)) | (here ^ load64(at0 + p_)) |
                                            (here ^ load64(at0 + std::size_t(p_) * p_))) &
                                           lanes;
                    while (differ) {
                        const int lane = std::countr_zero(differ) / 8;
                        differ &= ~(std::uint64_t(0xff) << (8 * lane));
                        const int x = base + lane;
                        if (x >= n_) break;
                        const int negatives = (x < 0) + (y < 0) + (z < 0);
                        if (negatives > 1) continue;
                        const int negativeAxis = x < 0 ? 0 : y < 0 ? 1 : z < 0 ? 2 : -1;
                        if (negativeAxis >= 0 && !minus[negativeAxis]) continue;
                        const std::size_t i0 = sampleIndex(x, y, z);
                        const std::uint8_t b0 = inside_[i0];
                        for (int axis = 0; axis < 3; ++axis) {
                            if (negativeAxis >= 0 && axis != negativeAxis) continue;
                            const std::size_t i1 = i0 + (axis == 0   ? 1
                                                         : axis == 2 ? std::size_t(p_)
                                                                     : std::size_t(p_) * p_);
                            const std::uint8_t b1 = inside_[i1];
                            const bool in0 = b0 & bit, in1 = b1 & bit;
                            if (in0 == in1) continue;
                            // The water surface only where the inside voxel is mostly water (not
                            // where water meets solid terrain, nor the terrain's own surface).
                            if (water && !((in0 ? b0 : b1) & 4)) continue;
                            // The four cells around the edge, counter-clockwise seen from the +axis
                            // side.
                            std::uint32_t v[4];
                            bool ok = true;
                            for (int q = 0; q < 4 && ok; ++q) {
                                static constexpr int du[4] = {-1, 0, 0, -1};
                                static constexpr int dv[4] = {-1, -1, 0, 0};
                                int cx = x, cy = y, cz = z;
                                if (axis == 0) {  // (y, z)
                                    cy += du[q];
                                    cz += dv[q];
                                } else if (axis == 1) {  // (z, x)
                                    cz += du[q];
                                    cx += dv[q];
                                } else {  // (x, y)
                                    cx += du[q];
                                    cy += dv[q];
                                }
                                v[q] = vertex(cx, cy, cz, water, mesh);
                                ok = v[q] != kNone;
                            }
                            if (!ok) continue;
                            if (in0)
                                out.quad(v[0], v[1], v[2], v[3]);
                            else
                                out.quad(v[0], v[3], v[2], v[1]);
                            if (out.full) return;
                        }
                    }
                }
            }
    }

    // Eight bytes from p as a number whose lowest byte is p[0].
    static std::uint64_t load64(const std::uint8_t* p) {
        std::uint64_t v;
        std::memcpy(&v, p, sizeof v);
        if constexpr (std::endian::native == std::endian::big) v = std::byteswap(v);
        return v;
    }

    static void finish(Mesh& m) {
        // Normals: the triangles' area-weighted normals summed at their vertices.
        m.normals.assign(m.positions.size(), Vec3{});
        for (std::size_t i = 0; i + 2 < m.indices.size(); i += 3) {
            const std::uint32_t a = m.indices[i], b = m.indices[i + 1], c = m.indices[i + 2];
            const Vec3 e1 = m.positions[b] - m.positions[a];
            const Vec3 e2 = m.positions[c] - m.positions[a];
            const Vec3 n{e1.y * e2.z - e1.z * e2.y, e1.z * e2.x - e1.x * e2.z,
                         e1.x * e2.y - e1.y * e2.x};
            for (std::uint32_t v : {a, b, c}) m.normals[v] = m.normals[v] + n;
        }
        for (Vec3& n : m.normals) {
            const float len = std::sqrt(n.x * n.x + n.y * n.y + n.z * n.z);
            n = len > 0 ? n * (1.0f / len) : Vec3{0, 1, 0};
        }
        // Vertices no triangle uses (made for a quad cut short) stay: harmless.
        if (!m.indices.empty()) m.lods.push_back({0, std::uint32_t(m.indices.size() / 3), "LOD0"});
        m.computeBounds();
    }

    static constexpr std::size_t kInsideSlack = 64;
    static constexpr std::uint32_t kUnset = 0xFFFFFFFFu;
    static constexpr std::uint32_t kNone = 0xFFFFFFFEu;

    std::span<const std::uint8_t> blob_;
    const TerrainGrid& grid_;
    const TerrainMeshOptions& options_;
    TerrainMeshes& out_;
    ChunkCache cache_;
    int n_;  // chunk size in voxels
    int p_;  // padded: n + 2
    std::unordered_map<ChunkKey, std::size_t, ChunkKeyHash> index_;
    std::vector<std::uint32_t> samples_;  // Samples as words (std::bit_cast)
    std::vector<std::uint8_t> inside_;    // per sample: insideOf
    std::vector<std::uint8_t> rowDirty_;  // per row: may hold samples other than zero
    std::vector<int> rowValue_;  // per (y, z) row of samples: its value when all alike, else -1
    bool solidCrosses_ = false, waterCrosses_ = false;
    std::vector<std::uint32_t> cellVertex_;
    std::vector<std::size_t> touched_;  // the cells of cellVertex_ set since the last reset
    const TerrainChunk* current_ = nullptr;
};

}  // namespace

TerrainMeshes meshTerrain(std::span<const std::uint8_t> blob, const TerrainGrid& grid,
                          const TerrainMeshOptions& options) {
    TerrainMeshes out;
    // Chunks past 64³ voxels (Roblox writes 32³) would need a padded box of 66³+ samples a
    // chunk: not meshed.
    if (grid.chunkExponent > kMaxMeshedChunkExponent) {
        out.truncated = !grid.chunks.empty();
        return out;
    }
    Mesher(blob, grid, options, out).run();
    return out;
}

// ---------------------------------------------------------------------------------------------
// Terrain of an asset

int findTerrainNode(const Asset& asset) {
    for (std::size_t i = 0; i < asset.nodes.size(); ++i)
        if (asset.kind(int(i)) == "Terrain") return int(i);
    return -1;
}

std::optional<TerrainInfo> readTerrain(const Asset& asset, int node) {
    std::optional<Property> grid = asset.property(node, "SmoothGrid");
    if (!grid) return std::nullopt;
    TerrainInfo info;
    info.node = node;
    if (std::string* s = std::get_if<std::string>(&grid->value))
        info.blob = std::move(*s);
    else if (Bytes* b = std::get_if<Bytes>(&grid->value))
        info.blob.assign(b->begin(), b->end());
    else
        return std::nullopt;
    info.property = std::move(*grid);
    info.property.value = std::monostate{};
    const auto bytes =
        std::span(reinterpret_cast<const std::uint8_t*>(info.blob.data()), info.blob.size());
    TerrainDecodeOptions o;
    o.baseOffset = info.property.offset;
    o.context = std::string(asset.nameOrKind(node)) + kPathSeparator + "SmoothGrid";
    info.grid = decodeSmoothGrid(bytes, o);
    if (std::optional<Property> mc = asset.property(node, "MaterialColors")) {
        if (const std::string* s = std::get_if<std::string>(&mc->value))
            info.colors = decodeMaterialColors(
                std::span(reinterpret_cast<const std::uint8_t*>(s->data()), s->size()));
    }
    float transparency = 0.3f;
    if (std::optional<Property> t = asset.property(node, "WaterTransparency"))
        if (const double* d = std::get_if<double>(&t->value))
            if (std::isfinite(*d)) transparency = float(std::clamp(*d, 0.0, 1.0));
    if (std::optional<Property> c = asset.property(node, "WaterColor"))
        if (const Vec3* v = std::get_if<Vec3>(&c->value)) {
            auto to8 = [](float f) {
                return std::uint8_t(std::isfinite(f) ? std::clamp(f, 0.0f, 1.0f) * 255.0f + 0.5f
                                                     : 0.0f);
            };
            info.waterColor = {to8(v->x), to8(v->y), to8(v->z), 255};
        }
    info.waterColor.a = std::uint8_t((1.0f - transparency) * 255.0f + 0.5f);
    info.colors[kTerrainWater] =
        Rgba8{info.waterColor.r, info.waterColor.g, info.waterColor.b, 255};
    return info;
}

std::optional<TerrainMeshes> meshTerrainOfNode(const Asset& asset, int node,
                                               TerrainMeshOptions options) {
    if (node < 0 || std::size_t(node) >= asset.nodes.size()) return std::nullopt;
    std::optional<TerrainInfo> info = readTerrain(asset, node);
    if (!info) return std::nullopt;
    options.colors = info->colors;
    options.waterColor = info->waterColor;
    const auto blob =
        std::span(reinterpret_cast<const std::uint8_t*>(info->blob.data()), info->blob.size());
    TerrainMeshes meshes = meshTerrain(blob, info->grid, options);
    meshes.terrain.node = node;
    meshes.water.node = node;
    return meshes;
}

// ---------------------------------------------------------------------------------------------
// The model decoders' terrain pass

namespace rbx {

namespace {

// Where the characters of a value stored as base64 text (an XML place's BinaryString, maybe in
// CDATA and wrapped over lines) lie in the file: runs of consecutive base64 characters.
class Base64Source {
public:
    // The text of the element [start, start + length) of `file`, when its base64 characters
    // (padding included) are exactly the encoding of `decodedSize` bytes; nullopt otherwise.
    static std::optional<Base64Source> find(ByteSpan file, std::uint64_t start,
                                            std::uint64_t length, std::size_t decodedSize) {
        if (start > file.size() || length > file.size() - start) return std::nullopt;
        const std::string_view text(reinterpret_cast<const char*>(file.data() + start),
                                    std::size_t(length));
        std::size_t i = text.find('>');
        if (i == std::string_view::npos) return std::nullopt;
        ++i;
        constexpr std::string_view kCdata = "<![CDATA[";
        if (text.substr(i, kCdata.size()) == kCdata) i += kCdata.size();
        Base64Source out;
        std::uint64_t chars = 0;
        for (; i < text.size() && text[i] != '<' && text[i] != ']'; ++i) {
            const char c = text[i];
            const bool b64 = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
                             (c >= '0' && c <= '9') || c == '+' || c == '/' || c == '=';
            if (b64) {
                if (out.runs_.empty() || out.runs_.back().end != start + i)
                    out.runs_.push_back({chars, start + i, start + i});
                ++out.runs_.back().end;
                ++chars;
            } else if (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
                return std::nullopt;
            }
        }
        if (chars != (std::uint64_t(decodedSize) + 2) / 3 * 4) return std::nullopt;
        out.chars_ = chars;
        return out;
    }

    // The file range of the characters that encode decoded bytes [first, first + count): each
    // 4-character group belongs to the range holding its first byte, so ranges of consecutive
    // pieces tile the text without overlapping.
    std::pair<std::uint64_t, std::uint64_t> range(std::uint64_t first, std::uint64_t count) const {
        const std::uint64_t from = charOffset((first + 2) / 3 * 4);
        const std::uint64_t to = charOffset((first + count + 2) / 3 * 4);
        return {from, to > from ? to - from : 0};
    }

private:
    struct Run {
        std::uint64_t firstChar, begin, end;  // file offsets [begin, end)
    };
    // File offset of character `c` (the end of the text for c = the character count).
    std::uint64_t charOffset(std::uint64_t c) const {
        if (c >= chars_) return runs_.back().end;
        auto it = std::upper_bound(runs_.begin(), runs_.end(), c,
                                   [](std::uint64_t v, const Run& r) { return v < r.firstChar; });
        --it;
        return it->begin + (c - it->firstChar);
    }
    std::vector<Run> runs_;
    std::uint64_t chars_ = 0;
};

}  // namespace

void addTerrain(DecodeContext& ctx) {
    if (!ctx.options().robloxTerrain) return;
    Asset& asset = ctx.asset();
    const int node = findTerrainNode(asset);
    if (node < 0) return;
    std::optional<TerrainInfo> info = readTerrain(asset, node);
    if (!info || info->blob.size() <= 2) return;
    const auto blob =
        std::span(reinterpret_cast<const std::uint8_t*>(info->blob.data()), info->blob.size());
    // Where the value's bytes are the file's own (a binary model's uncompressed PROP chunk: the
    // row's 4-byte length, then the bytes), its chunks go into the byte map and errors name the
    // exact byte.
    std::optional<std::uint64_t> at;
    const ByteSpan file = ctx.bytes();
    for (std::uint64_t candidate : {info->property.offset + 4, info->property.offset}) {
        if (candidate <= file.size() && file.size() - candidate >= blob.size() &&
            std::memcmp(file.data() + candidate, blob.data(), blob.size()) == 0) {
            at = candidate;
            break;
        }
    }
    TerrainDecodeOptions o;
    o.baseOffset = at.value_or(info->property.offset);
    o.mapped = at.has_value();
    o.context = std::string(asset.nameOrKind(node)) + kPathSeparator + "SmoothGrid";
    o.cancel = ctx.options().cancel;
    TerrainGrid grid = decodeSmoothGrid(blob, o);
    if (grid.cancelled) ctx.checkCancel(o.baseOffset);
    for (Diagnostic& d : grid.warnings) asset.diagnostics.push_back(std::move(d));
    if (grid.error) {
        Diagnostic d = grid.error->asDiagnostic();
        d.severity = Severity::Warning;
        d.message +=
            "; the terrain shows the " + std::to_string(grid.chunks.size()) + " chunks before it";
        asset.diagnostics.push_back(std::move(d));
    }
    // Selecting the Terrain selects its SmoothGrid: the value's bytes, or where they are not
    // the file's own, the property's source (its compressed chunk, its XML element).
    if (info->property.length || at) {
        Node& n = asset.nodes[std::size_t(node)];
        n.offset = at.value_or(info->property.offset);
        n.length = at ? blob.size() : info->property.length;
    }
    // An XML place keeps the grid as base64 text: its chunks are named over the characters
    // that encode them.
    if (!at && info->property.length)
        if (const std::optional<Base64Source> text = Base64Source::find(
                file, info->property.offset, info->property.length, blob.size())) {
            const auto [hs, hl] = text->range(0, 2);
            ctx.mapRange(hs, hl, RangeKind::Header, o.context + kPathSeparator + "header", node);
            for (std::size_t i = 0; i < grid.chunks.size(); ++i) {
                const TerrainChunk& c = grid.chunks[i];
                const auto [cs, cl] = text->range(c.offset, c.length);
                if (cl == 0) continue;
                ctx.mapRange(cs, cl, RangeKind::Chunk,
                             o.context + kPathSeparator + "chunk " + std::to_string(i) + " (" +
                                 std::to_string(c.x) + ", " + std::to_string(c.y) + ", " +
                                 std::to_string(c.z) + "), base64",
                             node);
            }
        }
    if (at) {
        ctx.mapRange(*at, 2, RangeKind::Header, o.context + kPathSeparator + "header", node);
        for (std::size_t i = 0; i < grid.chunks.size(); ++i) {
            const TerrainChunk& c = grid.chunks[i];
            const std::string name = o.context + kPathSeparator + "chunk " + std::to_string(i) +
                                     " (" + std::to_string(c.x) + ", " + std::to_string(c.y) +
                                     ", " + std::to_string(c.z) + ")";
            ctx.mapRange(*at + c.offset, c.length, RangeKind::Chunk, name, node);
            ctx.mapRange(*at + c.offset, 12, RangeKind::Field,
                         name + kPathSeparator + "position delta", node);
            ctx.mapRange(*at + c.offset + 12, c.length - 12, RangeKind::Array,
                         name + kPathSeparator + std::to_string(c.runs) + " runs", node);
        }
    }
    if (grid.chunks.empty()) return;
    TerrainMeshOptions mo;
    mo.colors = info->colors;
    mo.waterColor = info->waterColor;
    mo.maxTriangles = std::min<std::uint64_t>(ctx.limits().maxTriangles, 1ull << 26);
    mo.cancel = ctx.options().cancel;
    if (ctx.options().progress) {
        ctx.restartProgress();
        mo.progress = [&ctx](double f) { ctx.progress(f); };
    }
    TerrainMeshes meshes = meshTerrain(blob, grid, mo);
    if (meshes.cancelled) ctx.checkCancel(o.baseOffset);
    if (meshes.truncated)
        asset.diagnostics.push_back({Severity::Warning, errc::kLimit, o.baseOffset, o.context,
                                     grid.chunkExponent > kMaxMeshedChunkExponent
                                         ? "chunks of " + std::to_string(grid.chunkSize()) +
                                               "³ voxels are not meshed (64³ at most)"
                                         : "the terrain surface passed " +
                                               std::to_string(mo.maxTriangles) +
                                               " triangles: the rest is not drawn"});
    for (Mesh* m : {&meshes.terrain, &meshes.water}) {
        if (m->indices.empty()) continue;
        m->node = node;
        asset.meshes.push_back(std::move(*m));
    }
}

}  // namespace rbx

}  // namespace meshscope
