// Roblox FileMesh writer: versions 2.00 to 5.00 (fixed headers) and 6.00 / 7.00 (chunks; 7.00's
// COREMESH v2 through libdraco). Makes the test fixtures and backs conversion.
//
// Layout facts taken from real files rather than the 2025 document:
// - SKINNING v1 holds numSkinnings 8-byte envelopes right after its count (mesh7_100025761449828).
// - COREMESH v2 is a sequential Draco 2.2 mesh whose attributes are told apart by unique id:
//   0 position (POSITION float×3), 1 normal (GENERIC float×3), 2 UV (TEX_COORD float×2),
//   3 tangent (GENERIC u8×4), 4 colour (COLOR u8×4) (all three real v7 files).
// - Subsets never cross an LOD boundary and a subset's faces use only its vertex range
//   (13674780763, 15256456161); skin bone bytes index the subset's boneIndices table, unused
//   slots hold bone byte 0 with weight 0.
// - Tangent bytes are t = b / 127 - 1 (FORMAT-NOTES), so b = (t + 1) * 127; the sign byte is 0
//   or 254.
#include <draco/compression/config/compression_shared.h>
#include <draco/compression/expert_encode.h>
#include <draco/core/draco_types.h>
#include <draco/core/encoder_buffer.h>
#include <draco/mesh/mesh.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <string_view>

#include "meshscope/core/roblox_mesh_writer.h"

namespace meshscope {

namespace {

constexpr std::uint32_t kMaxSubsetBones = 26;
constexpr std::uint16_t kNoParent = 0xFFFF;

struct WriteError {
    std::string message;
};

class ByteSink {
public:
    explicit ByteSink(Bytes& out) : out_(out) {}
    template <typename T>
    void put(T v) {
        static_assert(std::is_trivially_copyable_v<T>);
        const std::size_t p = out_.size();
        out_.resize(p + sizeof(T));
        std::memcpy(out_.data() + p, &v, sizeof(T));
    }
    void raw(const void* data, std::size_t n) {
        if (n == 0) return;
        const std::size_t p = out_.size();
        out_.resize(p + n);
        std::memcpy(out_.data() + p, data, n);
    }
    void text(std::string_view s) { raw(s.data(), s.size()); }
    std::size_t size() const { return out_.size(); }

private:
    Bytes& out_;
};

template <typename T>
T checkedCount(std::size_t n, const char* what) {
    if (n > std::numeric_limits<T>::max())
        throw WriteError{std::string("too many ") + what +
                         " for the version: " + std::to_string(n)};
    return static_cast<T>(n);
}

struct Version {
    int major = 0;
    std::string text;
};

std::optional<Version> parseVersion(const std::string& v) {
    static const char* known[] = {"2.00", "3.00", "3.01", "4.00", "4.01", "5.00", "6.00", "7.00"};
    for (const char* k : known)
        if (v == k) return Version{k[0] - '0', k};
    return std::nullopt;
}

// Weights as bytes (/255). Weights that sum to one keep summing to 255 exactly (largest
// remainder), so every byte is within 1/255 of its weight.
struct QuantizedInfluence {
    std::array<std::uint16_t, 4> joints{};
    std::array<std::uint8_t, 4> weights{};
};

QuantizedInfluence quantizeInfluence(const VertexInfluences& in) {
    QuantizedInfluence q;
    q.joints = in.joints;
    std::array<float, 4> w{};
    float sum = 0;
    for (int i = 0; i < 4; ++i) {
        w[i] = std::isfinite(in.weights[i]) ? std::clamp(in.weights[i], 0.0f, 1.0f) : 0.0f;
        sum += w[i];
    }
    if (std::fabs(sum - 1.0f) < 1e-3f) {
        std::array<float, 4> frac{};
        int total = 0;
        for (int i = 0; i < 4; ++i) {
            const float scaled = w[i] / sum * 255.0f;
            q.weights[i] = static_cast<std::uint8_t>(std::floor(scaled));
            frac[i] = scaled - std::floor(scaled);
            total += q.weights[i];
        }
        std::array<int, 4> order{0, 1, 2, 3};
        std::stable_sort(order.begin(), order.end(),
                         [&](int a, int b) { return frac[a] > frac[b]; });
        for (int k = 0; total < 255 && k < 4; ++k, ++total) ++q.weights[order[k]];
    } else {
        for (int i = 0; i < 4; ++i)
            q.weights[i] = static_cast<std::uint8_t>(std::lround(w[i] * 255.0f));
    }
    return q;
}

struct Subset {
    std::uint32_t facesBegin = 0, facesLength = 0, vertsBegin = 0, vertsLength = 0;
    std::vector<std::uint16_t> bones;
};

// What goes into the file: vertex order, faces, LOD offsets, subsets and skin envelopes.
struct Layout {
    std::vector<std::uint32_t> source;  // written vertex → mesh vertex; empty = identity
    std::vector<std::uint32_t> indices;
    std::vector<std::uint32_t> lodOffsets;
    std::vector<Subset> subsets;
    std::vector<std::array<std::uint8_t, 8>> envelopes;  // one per written vertex when skinned
    std::size_t vertexCount = 0;
    std::uint32_t src(std::size_t i) const {
        return source.empty() ? static_cast<std::uint32_t>(i) : source[i];
    }
};

std::vector<std::uint32_t> lodOffsetsOf(const Mesh& mesh) {
    const auto faces = static_cast<std::uint32_t>(mesh.indices.size() / 3);
    if (!mesh.lodOffsets.empty()) return mesh.lodOffsets;
    if (!mesh.lods.empty()) {
        std::vector<std::uint32_t> offsets;
        for (const LodLevel& l : mesh.lods) offsets.push_back(l.firstTriangle);
        offsets.push_back(mesh.lods.back().firstTriangle + mesh.lods.back().triangleCount);
        return offsets;
    }
    return {0, faces};
}

// Splits a skinned mesh into subsets of at most 26 bones, face by face inside each LOD range.
// Each subset's vertices are written together in ascending mesh order, so the result is the
// identity order unless a vertex is shared by two subsets (then it is written twice).
void buildSubsets(const Mesh& mesh, std::size_t boneCount, Layout& layout) {
    const std::size_t nv = mesh.positions.size();
    const auto nf = static_cast<std::uint32_t>(layout.indices.size() / 3);
    std::vector<QuantizedInfluence> influence(nv);
    if (!mesh.skin.empty())
        for (std::size_t v = 0; v < nv; ++v) {
            influence[v] = quantizeInfluence(mesh.skin[v]);
            for (int k = 0; k < 4; ++k)
                if (influence[v].weights[k] && influence[v].joints[k] >= boneCount)
                    throw WriteError{"vertex " + std::to_string(v) + " is skinned to bone " +
                                     std::to_string(influence[v].joints[k]) +
                                     " but the skeleton has " + std::to_string(boneCount) +
                                     " bones"};
        }

    // LOD ranges (clipped, sorted) cover every face.
    std::vector<std::uint32_t> bounds{0, nf};
    for (std::uint32_t o : layout.lodOffsets)
        if (o < nf) bounds.push_back(o);
    std::sort(bounds.begin(), bounds.end());
    bounds.erase(std::unique(bounds.begin(), bounds.end()), bounds.end());

    const std::vector<std::uint32_t> original = layout.indices;
    std::vector<std::int64_t> stamp(nv, -1);
    std::vector<std::uint32_t> written(nv, 0);
    std::vector<int> slot(boneCount, -1);
    std::vector<std::uint32_t> members;  // mesh vertices of the open subset
    Subset open;
    std::int64_t openId = 0;

    auto bonesOf = [&](std::uint32_t v, auto&& fn) {
        for (int k = 0; k < 4; ++k)
            if (influence[v].weights[k]) fn(influence[v].joints[k]);
    };
    auto addVertex = [&](std::uint32_t v) {
        stamp[v] = openId;
        members.push_back(v);
        bonesOf(v, [&](std::uint16_t j) {
            if (slot[j] < 0) {
                slot[j] = static_cast<int>(open.bones.size());
                open.bones.push_back(j);
            }
        });
    };
    std::vector<bool> used(nv, false);
    for (std::uint32_t i : original) used[i] = true;
    auto newBoneCount = [&](std::uint32_t v, std::array<std::uint16_t, 12>& seen, int& n) {
        if (stamp[v] == openId) return;
        bonesOf(v, [&](std::uint16_t j) {
            if (slot[j] >= 0 || std::find(seen.begin(), seen.begin() + n, j) != seen.begin() + n)
                return;
            seen[n++] = j;
        });
    };
    // A vertex no face uses joins the subset around it when its bones fit, so that such
    // vertices (a sphere's unused pole copies) do not force a reordering.
    auto absorb = [&](std::uint32_t v) {
        std::array<std::uint16_t, 12> seen{};
        int fresh = 0;
        newBoneCount(v, seen, fresh);
        if (open.bones.size() + std::size_t(fresh) > kMaxSubsetBones) return false;
        addVertex(v);
        return true;
    };
    auto unclaimed = [&](std::uint32_t v) { return !used[v] && stamp[v] < 0; };
    auto close = [&](std::uint32_t facesEnd) {
        if (!members.empty()) {
            const auto [lo, hi] = std::minmax_element(members.begin(), members.end());
            const std::uint32_t first = *lo, last = *hi;
            for (std::uint32_t v = first; v > 0 && unclaimed(v - 1) && absorb(v - 1); --v) {
            }
            for (std::uint32_t v = first + 1; v < last; ++v)
                if (unclaimed(v)) absorb(v);
            for (std::uint32_t v = last + 1; v < nv && unclaimed(v) && absorb(v); ++v) {
            }
        }
        std::sort(members.begin(), members.end());
        open.facesLength = facesEnd - open.facesBegin;
        open.vertsBegin = static_cast<std::uint32_t>(layout.source.size());
        open.vertsLength = static_cast<std::uint32_t>(members.size());
        if (open.bones.empty()) open.bones.push_back(0);  // numBoneIndices is 1..26
        for (std::uint32_t v : members) {
            written[v] = static_cast<std::uint32_t>(layout.source.size());
            layout.source.push_back(v);
            std::array<std::uint8_t, 8> env{};
            for (int k = 0; k < 4; ++k) {
                env[4 + k] = influence[v].weights[k];
                env[k] = influence[v].weights[k]
                             ? static_cast<std::uint8_t>(slot[influence[v].joints[k]])
                             : 0;
            }
            layout.envelopes.push_back(env);
        }
        for (std::uint32_t i = open.facesBegin * 3; i < facesEnd * 3; ++i)
            layout.indices[i] = written[original[i]];
        for (std::uint16_t j : open.bones) slot[j] = -1;
        layout.subsets.push_back(std::move(open));
        open = Subset{};
        members.clear();
        ++openId;
    };
    for (std::size_t g = 0; g + 1 < bounds.size(); ++g) {
        open.facesBegin = bounds[g];
        for (std::uint32_t f = bounds[g]; f < bounds[g + 1]; ++f) {
            std::array<std::uint16_t, 12> seen{};
            int fresh = 0;
            for (int k = 0; k < 3; ++k) newBoneCount(original[f * 3 + k], seen, fresh);
            if (open.bones.size() + std::size_t(fresh) > kMaxSubsetBones) {
                close(f);
                open.facesBegin = f;
            }
            for (int k = 0; k < 3; ++k)
                if (stamp[original[f * 3 + k]] != openId) addVertex(original[f * 3 + k]);
        }
        close(bounds[g + 1]);
    }
    // Vertices no face uses still need a subset (their skin is resolved through it).
    open.facesBegin = nf;
    for (std::uint32_t v = 0; v < nv; ++v) {
        if (stamp[v] >= 0) continue;
        std::array<std::uint16_t, 12> seen{};
        int fresh = 0;
        newBoneCount(v, seen, fresh);
        if (open.bones.size() + std::size_t(fresh) > kMaxSubsetBones) {
            close(nf);
            open.facesBegin = nf;
        }
        addVertex(v);
    }
    if (!members.empty()) close(nf);
    // Drop empty subsets (an empty LOD range).
    std::erase_if(layout.subsets,
                  [](const Subset& s) { return s.facesLength == 0 && s.vertsLength == 0; });

    bool identity = layout.source.size() == nv;
    for (std::size_t i = 0; identity && i < nv; ++i) identity = layout.source[i] == i;
    if (identity) layout.source.clear();
    layout.vertexCount = identity ? nv : layout.source.size();
}

// ---------------------------------------------------------------------------------------------
// Vertex records

std::uint8_t tangentByte(float t) {
    if (!std::isfinite(t)) return 127;
    return static_cast<std::uint8_t>(std::clamp(std::lround((t + 1.0f) * 127.0f), 0l, 254l));
}

void writeVertices(ByteSink& out, const Mesh& mesh, const Layout& layout, bool withColor) {
    const bool hasN = mesh.normals.size() == mesh.positions.size();
    const bool hasUv = mesh.uv0.size() == mesh.positions.size();
    const bool hasT = mesh.tangents.size() == mesh.positions.size();
    const bool hasC = mesh.colors.size() == mesh.positions.size();
    for (std::size_t i = 0; i < layout.vertexCount; ++i) {
        const std::uint32_t s = layout.src(i);
        struct Record {
            Vec3 p, n;
            Vec2 uv;
            std::array<std::uint8_t, 4> t, c;
        } r{};
        static_assert(sizeof(Record) == 40);
        r.p = mesh.positions[s];
        if (hasN) r.n = mesh.normals[s];
        if (hasUv) r.uv = mesh.uv0[s];
        if (hasT) {
            const Vec4& t = mesh.tangents[s];
            r.t = {tangentByte(t.x), tangentByte(t.y), tangentByte(t.z),
                   std::uint8_t(t.w < 0 ? 0 : 254)};
        }  // else all zero: "no tangent" (every 36-byte v2 file)
        const Rgba8 c = hasC ? mesh.colors[s] : Rgba8{};
        r.c = {c.r, c.g, c.b, c.a};
        out.raw(&r, withColor ? 40 : 36);
    }
}

void writeFaces(ByteSink& out, const std::vector<std::uint32_t>& indices, std::size_t first,
                std::size_t count) {
    out.raw(indices.data() + first * 3, count * 12);
}

// ---------------------------------------------------------------------------------------------
// Bones, names, subsets

struct SkeletonBlock {
    Bytes bones;  // FileMeshBone × n
    Bytes names;
    Bytes subsets;
    std::size_t boneCount = 0;
};

SkeletonBlock skeletonBlock(const Skeleton& skeleton, const Layout& layout) {
    SkeletonBlock block;
    block.boneCount = skeleton.bones.size();
    ByteSink bones(block.bones), names(block.names), subsets(block.subsets);
    for (const Bone& b : skeleton.bones) {
        bones.put(checkedCount<std::uint32_t>(block.names.size(), "bone name bytes"));
        names.text(b.name);
        names.put<std::uint8_t>(0);
        auto parentIndex = [&](int p) {
            return p < 0 || std::size_t(p) >= skeleton.bones.size() ? kNoParent
                                                                    : static_cast<std::uint16_t>(p);
        };
        bones.put(parentIndex(b.parent));
        bones.put(parentIndex(b.lodParent));
        bones.put(b.culling);
        // CFrame: rotation rows r00 r01 r02, r10 ..., then the position; world space.
        for (int row = 0; row < 3; ++row)
            for (int col = 0; col < 3; ++col) bones.put(b.world.at(row, col));
        for (int row = 0; row < 3; ++row) bones.put(b.world.at(row, 3));
    }
    for (const Subset& s : layout.subsets) {
        subsets.put(s.facesBegin);
        subsets.put(s.facesLength);
        subsets.put(s.vertsBegin);
        subsets.put(s.vertsLength);
        subsets.put(static_cast<std::uint32_t>(s.bones.size()));
        for (std::uint32_t i = 0; i < kMaxSubsetBones; ++i)
            subsets.put<std::uint16_t>(i < s.bones.size() ? s.bones[i] : 0xFFFF);
    }
    return block;
}

// ---------------------------------------------------------------------------------------------
// FACS blob

void putQuantizedMatrix(ByteSink& out, const std::vector<float>& values, std::uint32_t rows,
                        std::uint32_t cols, int version) {
    out.put<std::uint16_t>(static_cast<std::uint16_t>(version));
    out.put(rows);
    out.put(cols);
    if (version == 1) {
        out.raw(values.data(), values.size() * sizeof(float));
        return;
    }
    float lo = std::numeric_limits<float>::infinity(), hi = -lo;
    for (float v : values)
        if (std::isfinite(v)) lo = std::min(lo, v), hi = std::max(hi, v);
    if (lo > hi) lo = hi = 0;
    out.put(lo);
    out.put(hi);
    const double range = double(hi) - double(lo);
    for (float v : values) {
        double q = range > 0 && std::isfinite(v) ? (double(v) - lo) / range * 65535.0 : 0.0;
        out.put(static_cast<std::uint16_t>(std::clamp(std::lround(q), 0l, 65535l)));
    }
}

Bytes facsBlob(const FacsRig& rig, int matrixVersion, std::vector<std::string>& warnings) {
    // Columns: controls, then two-pose, then three-pose correctives (the file's order).
    std::vector<std::uint32_t> columns(rig.controlNames.size());
    std::iota(columns.begin(), columns.end(), 0u);
    Bytes two, three;
    ByteSink twoSink(two), threeSink(three);
    std::size_t dropped = 0;
    for (int size : {2, 3}) {
        for (std::size_t c = 0; c < rig.correctives.size(); ++c) {
            const auto& members = rig.correctives[c];
            if (int(members.size()) != size) continue;
            columns.push_back(static_cast<std::uint32_t>(rig.controlNames.size() + c));
            for (std::uint16_t m : members) (size == 2 ? twoSink : threeSink).put(m);
        }
    }
    for (const auto& c : rig.correctives) dropped += c.size() != 2 && c.size() != 3;
    if (dropped)
        warnings.push_back("FACS: " + std::to_string(dropped) +
                           " corrective(s) of other than two or three poses dropped");

    Bytes boneNames, controlNames, transforms;
    ByteSink bn(boneNames), cn(controlNames), tr(transforms);
    for (const auto& n : rig.boneNames) bn.text(n), bn.put<std::uint8_t>(0);
    for (const auto& n : rig.controlNames) cn.text(n), cn.put<std::uint8_t>(0);
    const auto cols = static_cast<std::uint32_t>(columns.size());
    for (int ch = 0; ch < 6; ++ch) {
        std::vector<float> values(std::size_t(rig.rows) * cols);
        for (std::uint32_t r = 0; r < rig.rows; ++r)
            for (std::uint32_t c = 0; c < cols; ++c)
                values[std::size_t(r) * cols + c] = rig.value(ch, r, columns[c]);
        putQuantizedMatrix(tr, values, rig.rows, cols, matrixVersion);
    }
    Bytes blob;
    ByteSink out(blob);
    out.put(checkedCount<std::uint32_t>(boneNames.size(), "FACS bone name bytes"));
    out.put(checkedCount<std::uint32_t>(controlNames.size(), "FACS control name bytes"));
    out.put(static_cast<std::uint64_t>(transforms.size()));
    out.put(checkedCount<std::uint32_t>(two.size(), "two-pose corrective bytes"));
    out.put(checkedCount<std::uint32_t>(three.size(), "three-pose corrective bytes"));
    out.raw(boneNames.data(), boneNames.size());
    out.raw(controlNames.data(), controlNames.size());
    out.raw(transforms.data(), transforms.size());
    out.raw(two.data(), two.size());
    out.raw(three.data(), three.size());
    return blob;
}

bool facsRigValid(const FacsRig& rig) {
    if (rig.rows != rig.boneNames.size() || rig.cols != rig.columnCount()) return false;
    for (const auto& ch : rig.channels)
        if (ch.size() != std::size_t(rig.rows) * rig.cols) return false;
    for (const auto& c : rig.correctives)
        for (std::uint16_t m : c)
            if (m >= rig.controlNames.size()) return false;
    return true;
}

// ---------------------------------------------------------------------------------------------
// Draco (COREMESH v2)

Bytes dracoMesh(const Mesh& mesh, const Layout& layout, const FileMeshWriteOptions& options) {
    const auto n = static_cast<draco::PointIndex::ValueType>(layout.vertexCount);
    draco::Mesh dm;
    dm.set_num_points(n);
    const std::size_t nf = layout.indices.size() / 3;
    dm.SetNumFaces(nf);
    for (std::size_t f = 0; f < nf; ++f)
        dm.SetFace(
            draco::FaceIndex(static_cast<std::uint32_t>(f)),
            {draco::PointIndex(layout.indices[f * 3]), draco::PointIndex(layout.indices[f * 3 + 1]),
             draco::PointIndex(layout.indices[f * 3 + 2])});

    auto add = [&](draco::GeometryAttribute::Type type, int components, draco::DataType dt,
                   std::uint32_t uniqueId, auto&& valueOf) {
        draco::GeometryAttribute ga;
        ga.Init(type, nullptr, static_cast<std::uint8_t>(components), dt, false,
                draco::DataTypeLength(dt) * components, 0);
        const int id = dm.AddAttribute(ga, true, n);
        draco::PointAttribute* att = dm.attribute(id);
        att->set_unique_id(uniqueId);
        for (std::uint32_t i = 0; i < n; ++i) {
            const auto v = valueOf(layout.src(i));
            att->SetAttributeValue(draco::AttributeValueIndex(i), v.data());
        }
        return id;
    };
    using GA = draco::GeometryAttribute;
    const bool hasN = mesh.normals.size() == mesh.positions.size();
    const bool hasUv = mesh.uv0.size() == mesh.positions.size();
    const bool hasT = mesh.tangents.size() == mesh.positions.size();
    const bool hasC = mesh.colors.size() == mesh.positions.size();
    const int pos = add(GA::POSITION, 3, draco::DT_FLOAT32, 0, [&](std::uint32_t s) {
        const Vec3& p = mesh.positions[s];
        return std::array<float, 3>{p.x, p.y, p.z};
    });
    const int nrm = add(GA::GENERIC, 3, draco::DT_FLOAT32, 1, [&](std::uint32_t s) {
        const Vec3 v = hasN ? mesh.normals[s] : Vec3{};
        return std::array<float, 3>{v.x, v.y, v.z};
    });
    const int uv = add(GA::TEX_COORD, 2, draco::DT_FLOAT32, 2, [&](std::uint32_t s) {
        const Vec2 v = hasUv ? mesh.uv0[s] : Vec2{};
        return std::array<float, 2>{v.x, v.y};
    });
    add(GA::GENERIC, 4, draco::DT_UINT8, 3, [&](std::uint32_t s) {
        if (!hasT) return std::array<std::uint8_t, 4>{0, 0, 0, 0};
        const Vec4& t = mesh.tangents[s];
        return std::array<std::uint8_t, 4>{tangentByte(t.x), tangentByte(t.y), tangentByte(t.z),
                                           std::uint8_t(t.w < 0 ? 0 : 254)};
    });
    add(GA::COLOR, 4, draco::DT_UINT8, 4, [&](std::uint32_t s) {
        const Rgba8 c = hasC ? mesh.colors[s] : Rgba8{};
        return std::array<std::uint8_t, 4>{c.r, c.g, c.b, c.a};
    });

    draco::ExpertEncoder encoder(dm);
    // Sequential encoding keeps the point order = our vertex order, so that the SKINNING
    // envelopes (one per point, in order) line up.
    encoder.SetEncodingMethod(draco::MESH_SEQUENTIAL_ENCODING);
    const int speed = std::clamp(options.dracoSpeed, 0, 10);
    encoder.SetSpeedOptions(speed, speed);
    if (options.dracoPositionBits > 0)
        encoder.SetAttributeQuantization(pos, options.dracoPositionBits);
    if (options.dracoNormalBits > 0) encoder.SetAttributeQuantization(nrm, options.dracoNormalBits);
    if (options.dracoUvBits > 0) encoder.SetAttributeQuantization(uv, options.dracoUvBits);
    draco::EncoderBuffer buffer;
    const draco::Status status = encoder.EncodeToBuffer(&buffer);
    if (!status.ok()) throw WriteError{"Draco encoding failed: " + status.error_msg_string()};
    return Bytes(buffer.data(), buffer.data() + buffer.size());
}

// ---------------------------------------------------------------------------------------------

void putChunk(ByteSink& out, const char (&name)[9], std::uint32_t version, const Bytes& payload) {
    out.raw(name, 8);
    out.put(version);
    out.put(checkedCount<std::uint32_t>(payload.size(), "chunk bytes"));
    out.raw(payload.data(), payload.size());
}

Bytes coreMeshV1(const Mesh& mesh, const Layout& layout) {
    Bytes b;
    ByteSink s(b);
    s.put(checkedCount<std::uint32_t>(layout.vertexCount, "vertices"));
    writeVertices(s, mesh, layout, true);
    s.put(checkedCount<std::uint32_t>(layout.indices.size() / 3, "faces"));
    writeFaces(s, layout.indices, 0, layout.indices.size() / 3);
    return b;
}

FileMeshWriteResult write(const Asset& asset, int meshIndex, const FileMeshWriteOptions& options) {
    FileMeshWriteResult result;
    const auto version = parseVersion(options.version);
    if (!version) throw WriteError{"cannot write FileMesh version \"" + options.version + "\""};
    if (meshIndex < 0 || std::size_t(meshIndex) >= asset.meshes.size())
        throw WriteError{"the asset has no mesh " + std::to_string(meshIndex)};
    const Mesh& mesh = asset.meshes[meshIndex];
    const int major = version->major;
    const std::string& vtext = version->text;
    if (mesh.primitive != Primitive::Triangles) throw WriteError{"a FileMesh holds triangles only"};
    if (mesh.indices.size() % 3 != 0)
        throw WriteError{"the index count " + std::to_string(mesh.indices.size()) +
                         " is not a multiple of 3"};
    const std::size_t nv = mesh.positions.size();
    for (std::size_t i = 0; i < mesh.indices.size(); ++i)
        if (mesh.indices[i] >= nv)
            throw WriteError{"index " + std::to_string(i) + " = " +
                             std::to_string(mesh.indices[i]) + " >= vertex count " +
                             std::to_string(nv)};
    auto& warnings = result.warnings;
    if (!mesh.uv1.empty())
        warnings.push_back("a FileMesh holds one UV set: the second UV set was dropped");

    const Skeleton* skeleton =
        mesh.skeleton >= 0 && std::size_t(mesh.skeleton) < asset.skeletons.size()
            ? &asset.skeletons[mesh.skeleton]
            : nullptr;
    if (skeleton && skeleton->bones.empty()) skeleton = nullptr;
    const bool skinned = mesh.skin.size() == nv && nv > 0;
    if (!mesh.skin.empty() && !skinned)
        warnings.push_back("skin weights for " + std::to_string(mesh.skin.size()) + " of " +
                           std::to_string(nv) + " vertices dropped");
    bool writeBones = skeleton != nullptr;
    if (skinned && !skeleton) warnings.push_back("skin weights without a skeleton dropped");
    if (writeBones && major < 4) {
        warnings.push_back("version " + vtext + " cannot hold bones or skin weights: dropped");
        writeBones = false;
    }
    const FacsRig* facs = mesh.facs >= 0 && std::size_t(mesh.facs) < asset.facs.size()
                              ? &asset.facs[mesh.facs]
                              : nullptr;
    if (facs && major < 5) {
        warnings.push_back("version " + vtext + " cannot hold a FACS rig: dropped");
        facs = nullptr;
    }
    if (facs && !facsRigValid(*facs)) {
        warnings.push_back("the FACS rig's sizes do not agree (rows, columns, channels): dropped");
        facs = nullptr;
    }

    Layout layout;
    layout.indices = mesh.indices;
    layout.lodOffsets = lodOffsetsOf(mesh);
    layout.vertexCount = nv;
    std::size_t firstFace = 0, faceCount = mesh.indices.size() / 3;
    if (major == 2 && layout.lodOffsets.size() > 2) {
        // Only LOD0 survives: faces [offsets[0], offsets[1]).
        firstFace = std::min<std::size_t>(layout.lodOffsets[0], faceCount);
        const std::size_t end = std::clamp<std::size_t>(layout.lodOffsets[1], firstFace, faceCount);
        warnings.push_back("version 2.00 cannot hold LODs: only LOD0 (" +
                           std::to_string(end - firstFace) + " of " + std::to_string(faceCount) +
                           " faces) written");
        faceCount = end - firstFace;
    }
    if (major == 2 && !options.vertexColors && mesh.colors.size() == nv &&
        std::any_of(mesh.colors.begin(), mesh.colors.end(),
                    [](const Rgba8& c) { return c != Rgba8{}; }))
        warnings.push_back("36-byte vertices hold no colour: vertex colours dropped");
    if (writeBones) buildSubsets(mesh, skeleton->bones.size(), layout);

    Bytes& bytes = result.bytes;
    ByteSink out(bytes);
    out.text("version " + vtext + "\n");
    const auto nvOut = checkedCount<std::uint32_t>(layout.vertexCount, "vertices");
    const auto nfOut = checkedCount<std::uint32_t>(layout.indices.size() / 3, "faces");
    SkeletonBlock skel;
    if (writeBones) skel = skeletonBlock(*skeleton, layout);
    Bytes facsBytes;
    if (facs) facsBytes = facsBlob(*facs, options.facsMatrixVersion == 1 ? 1 : 2, warnings);
    const auto lodType = static_cast<std::uint16_t>(std::clamp(options.lodType, 0, 0xFFFF));
    const auto hqLods = static_cast<std::uint8_t>(std::clamp(options.numHighQualityLods, 0, 255));

    if (major == 2) {
        out.put<std::uint16_t>(12);
        out.put<std::uint8_t>(options.vertexColors ? 40 : 36);
        out.put<std::uint8_t>(12);
        out.put(nvOut);
        out.put(checkedCount<std::uint32_t>(faceCount, "faces"));
        writeVertices(out, mesh, layout, options.vertexColors);
        writeFaces(out, layout.indices, firstFace, faceCount);
    } else if (major == 3) {
        out.put<std::uint16_t>(16);
        out.put<std::uint8_t>(40);
        out.put<std::uint8_t>(12);
        out.put<std::uint16_t>(4);
        out.put(checkedCount<std::uint16_t>(layout.lodOffsets.size(), "LOD offsets"));
        out.put(nvOut);
        out.put(nfOut);
        writeVertices(out, mesh, layout, true);
        writeFaces(out, layout.indices, 0, nfOut);
        out.raw(layout.lodOffsets.data(), layout.lodOffsets.size() * 4);
    } else if (major == 4 || major == 5) {
        out.put<std::uint16_t>(major == 4 ? 24 : 32);
        out.put(lodType);
        out.put(nvOut);
        out.put(nfOut);
        out.put(checkedCount<std::uint16_t>(layout.lodOffsets.size(), "LOD offsets"));
        out.put(checkedCount<std::uint16_t>(skel.boneCount, "bones"));
        out.put(checkedCount<std::uint32_t>(skel.names.size(), "bone name bytes"));
        out.put(checkedCount<std::uint16_t>(layout.subsets.size(), "subsets"));
        out.put(hqLods);
        out.put<std::uint8_t>(0);
        if (major == 5) {
            out.put<std::uint32_t>(facs ? 1 : 0);
            out.put(checkedCount<std::uint32_t>(facsBytes.size(), "FACS bytes"));
        }
        writeVertices(out, mesh, layout, true);
        if (skel.boneCount) out.raw(layout.envelopes.data(), layout.envelopes.size() * 8);
        writeFaces(out, layout.indices, 0, nfOut);
        out.raw(layout.lodOffsets.data(), layout.lodOffsets.size() * 4);
        out.raw(skel.bones.data(), skel.bones.size());
        out.raw(skel.names.data(), skel.names.size());
        out.raw(skel.subsets.data(), skel.subsets.size());
        out.raw(facsBytes.data(), facsBytes.size());
    } else {
        if (major == 7 && !options.plainCoreMeshInV7) {
            const Bytes draco = dracoMesh(mesh, layout, options);
            Bytes payload;
            ByteSink p(payload);
            p.put(checkedCount<std::uint32_t>(draco.size(), "Draco bytes"));
            p.raw(draco.data(), draco.size());
            putChunk(out, "COREMESH", 2, payload);
        } else {
            putChunk(out, "COREMESH", 1, coreMeshV1(mesh, layout));
        }
        {
            Bytes payload;
            ByteSink p(payload);
            p.put(lodType);
            p.put(hqLods);
            p.put(checkedCount<std::uint32_t>(layout.lodOffsets.size(), "LOD offsets"));
            p.raw(layout.lodOffsets.data(), layout.lodOffsets.size() * 4);
            putChunk(out, "LODS\0\0\0\0", 1, payload);
        }
        if (writeBones) {
            Bytes payload;
            ByteSink p(payload);
            p.put(nvOut);
            p.raw(layout.envelopes.data(), layout.envelopes.size() * 8);
            p.put(checkedCount<std::uint32_t>(skel.boneCount, "bones"));
            p.raw(skel.bones.data(), skel.bones.size());
            p.put(checkedCount<std::uint32_t>(skel.names.size(), "bone name bytes"));
            p.raw(skel.names.data(), skel.names.size());
            p.put(checkedCount<std::uint32_t>(layout.subsets.size(), "subsets"));
            p.raw(skel.subsets.data(), skel.subsets.size());
            putChunk(out, "SKINNING", 1, payload);
        }
        if (facs) {
            Bytes payload;
            ByteSink p(payload);
            p.put(checkedCount<std::uint32_t>(facsBytes.size(), "FACS bytes"));
            p.raw(facsBytes.data(), facsBytes.size());
            putChunk(out, "FACS\0\0\0\0", 1, payload);
        }
    }
    return result;
}

}  // namespace

FileMeshWriteResult writeFileMesh(const Asset& asset, int meshIndex,
                                  const FileMeshWriteOptions& options) {
    try {
        return write(asset, meshIndex, options);
    } catch (const WriteError& e) {
        FileMeshWriteResult r;
        r.error = e.message;
        return r;
    } catch (const std::exception& e) {
        FileMeshWriteResult r;
        r.error = std::string("FileMesh writer: ") + e.what();
        return r;
    }
}

}  // namespace meshscope
