// Second Life mesh asset decoder: binary LLSD header, zlib blocks (LODs, skin, physics), one
// Asset mesh per LOD, a skeleton from the skin block and line meshes for the convex hulls.
//
// Conventions chosen here (the writer inverts each of them):
// - Mesh per block: every submesh ("face") is a Surface; its vertices and triangles are appended
//   to the block's mesh, so Mesh::indices is every face's triangles together and the mesh has one
//   LodLevel covering them all.
// - Positions u16/65535 into PositionDomain (default ±0.5), normals u16/65535·2−1, TexCoord0
//   into TexCoord0Domain. UVs are converted to the core's V-down convention: v = 1 − v_SL.
// - Matrices: SL stores 16 reals for row vectors (p' = p·M, translation in elements 12..14).
//   The transpose of a row-vector matrix is the column-vector matrix, and a column-major array
//   of the transpose is the row-major array of the original: the 16 reals therefore ARE the
//   core's column-major Mat4::m, element for element.
// - Skinning in SL is v_world = J · IB · BSM · v (column vectors; J the joint's world matrix,
//   IB inverse_bind_matrix, BSM bind_shape_matrix). Bone::inverseBind is IB · BSM, the matrix
//   that takes a vertex of this mesh to joint space, and Bone::world = inverse(IB · BSM) is the
//   joint in the mesh's own space in bind pose, so that world · inverseBind = identity and a
//   generic skinner needs no SL knowledge. The file's matrices themselves are kept as
//   properties: bind_shape_matrix on the skin node, inverse_bind_matrix on each bone node.
// - Weights are joint indices into joint_names, which are the skeleton's bones in file order.
#include "formats/secondlife/mesh_asset.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <ctime>
#include <optional>
#include <unordered_map>

#include "formats/secondlife/convex_hull.h"
#include "formats/secondlife/llsd.h"
#include "io/byte_reader.h"
#include "io/decompress.h"
#include "meshscope/core/error_codes.h"

namespace meshscope::secondlife {

namespace {

constexpr std::array<std::string_view, 12> kKnownKeys = {
    "high_lod",      "medium_lod",        "low_lod", "lowest_lod", "physics_mesh", "physics_convex",
    "physics_havok", "physics_cost_data", "skin",    "version",    "creator",      "date"};

std::uint32_t be32(ByteSpan b, std::size_t at) {
    return (std::uint32_t(b[at]) << 24) | (std::uint32_t(b[at + 1]) << 16) |
           (std::uint32_t(b[at + 2]) << 8) | b[at + 3];
}

}  // namespace

int probe(ByteSpan b) {
    // '{' u32be count 'k' u32be keylen key...: a binary LLSD map whose keys are SL block names.
    if (b.size() < 10 || b[0] != '{' || b[5] != 'k') return 0;
    const std::uint32_t count = be32(b, 1);
    if (count == 0 || count > 1024) return 0;
    const std::uint32_t keyLength = be32(b, 6);
    if (keyLength == 0 || keyLength > 64 || b.size() < 10 + keyLength) return 0;
    const std::string_view first(reinterpret_cast<const char*>(b.data() + 10), keyLength);
    if (std::find(kKnownKeys.begin(), kKnownKeys.end(), first) != kKnownKeys.end()) return 95;
    // Another first key: look for a block key ('k' u32be len name) in the first 4 KiB.
    const std::string_view head(reinterpret_cast<const char*>(b.data()),
                                std::min<std::size_t>(b.size(), 4096));
    for (std::size_t i = 0; i < 9; ++i) {
        const std::string_view k = kKnownKeys[i];
        std::string needle = "k";
        needle += char(0);
        needle += char(0);
        needle += char(0);
        needle += char(k.size());
        needle += k;
        if (head.find(needle) != std::string_view::npos) return 90;
    }
    return 0;
}

std::string_view defaultJointParent(std::string_view joint) {
    // The default avatar skeleton (avatar_skeleton.xml): classic joints and the Bento spine
    // (mPelvis › mSpine1 › mSpine2 › mTorso › mSpine3 › mSpine4 › mChest).
    static const std::unordered_map<std::string_view, std::string_view> parents = {
        {"mSpine1", "mPelvis"},
        {"mSpine2", "mSpine1"},
        {"mTorso", "mSpine2"},
        {"mSpine3", "mTorso"},
        {"mSpine4", "mSpine3"},
        {"mChest", "mSpine4"},
        {"mNeck", "mChest"},
        {"mHead", "mNeck"},
        {"mSkull", "mHead"},
        {"mEyeRight", "mHead"},
        {"mEyeLeft", "mHead"},
        {"mCollarLeft", "mChest"},
        {"mShoulderLeft", "mCollarLeft"},
        {"mElbowLeft", "mShoulderLeft"},
        {"mWristLeft", "mElbowLeft"},
        {"mCollarRight", "mChest"},
        {"mShoulderRight", "mCollarRight"},
        {"mElbowRight", "mShoulderRight"},
        {"mWristRight", "mElbowRight"},
        {"mHipLeft", "mPelvis"},
        {"mKneeLeft", "mHipLeft"},
        {"mAnkleLeft", "mKneeLeft"},
        {"mFootLeft", "mAnkleLeft"},
        {"mToeLeft", "mFootLeft"},
        {"mHipRight", "mPelvis"},
        {"mKneeRight", "mHipRight"},
        {"mAnkleRight", "mKneeRight"},
        {"mFootRight", "mAnkleRight"},
        {"mToeRight", "mFootRight"},
    };
    const auto it = parents.find(joint);
    return it == parents.end() ? std::string_view{} : it->second;
}

namespace {

// ---------------------------------------------------------------------------------------------
// LLSD → Asset helpers

std::string isoDate(double seconds) {
    if (!std::isfinite(seconds) || std::fabs(seconds) > 1e12) return {};
    const std::time_t t = static_cast<std::time_t>(std::floor(seconds));
    std::tm tm{};
    if (!gmtime_r(&t, &tm)) return {};
    char buf[40];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

std::optional<Vec3> vec3Of(const Llsd* v) {
    if (!v || !v->isArray() || v->size() < 3) return std::nullopt;
    Vec3 r;
    float* out[3] = {&r.x, &r.y, &r.z};
    for (int i = 0; i < 3; ++i) {
        const auto d = v->items()[i].asReal();
        if (!d) return std::nullopt;
        *out[i] = static_cast<float>(*d);
    }
    return r;
}

std::optional<Vec2> vec2Of(const Llsd* v) {
    if (!v || !v->isArray() || v->size() < 2) return std::nullopt;
    const auto x = v->items()[0].asReal(), y = v->items()[1].asReal();
    if (!x || !y) return std::nullopt;
    return Vec2{static_cast<float>(*x), static_cast<float>(*y)};
}

std::optional<Mat4> matrixOf(const Llsd& v) {
    if (!v.isArray() || v.size() != 16) return std::nullopt;
    Mat4 m;
    for (int i = 0; i < 16; ++i) {
        const auto d = v.items()[i].asReal();
        if (!d) return std::nullopt;
        m.m[i] = static_cast<float>(*d);  // row-vector array == column-major (see the top)
    }
    return m;
}

std::vector<double> doublesOf(const Mat4& m) {
    return {m.m.begin(), m.m.end()};
}

// A property for one LLSD value. Maps are flattened by the caller; arrays of numbers become
// numeric tuples; other arrays are summarised.
Property propertyOf(const std::string& name, const Llsd& v, std::uint64_t offset,
                    std::uint64_t length) {
    Property p;
    p.name = name;
    p.type = llsdTypeName(v.type());
    p.offset = offset;
    p.length = length;
    switch (v.type()) {
        case Llsd::Type::Undef:
            break;
        case Llsd::Type::Boolean:
            p.value = v.asBoolean();
            break;
        case Llsd::Type::Integer:
            p.value = *v.asInteger();
            break;
        case Llsd::Type::Real:
            p.value = *v.asReal();
            break;
        case Llsd::Type::Date: {
            p.value = v.dateValue();
            break;
        }
        case Llsd::Type::String:
        case Llsd::Type::Uri:
            p.value = std::string(v.text());
            break;
        case Llsd::Type::Uuid:
            p.value = formatUuid(v.bytes());
            break;
        case Llsd::Type::Binary:
            p.value = v.bytes();
            break;
        case Llsd::Type::Array: {
            const bool numeric = std::all_of(v.items().begin(), v.items().end(),
                                             [](const Llsd& i) { return i.isNumber(); });
            if (numeric && v.size() <= 256) {
                std::vector<double> d;
                for (const auto& i : v.items()) d.push_back(*i.asReal());
                p.value = std::move(d);
            } else {
                p.value = "array of " + std::to_string(v.size()) + " values";
            }
            break;
        }
        case Llsd::Type::Map:
            p.value = "map of " + std::to_string(v.size()) + " entries";
            break;
    }
    return p;
}

// Adds a property per entry of `map` (nested maps flattened as "key.sub", a few levels deep).
// `absolute` says whether LLSD offsets are file offsets (the header) or not (inflated blocks).
void addProperties(std::vector<Property>& node, const Llsd& map, const std::string& prefix,
                   bool absolute, const std::vector<std::string_view>& skip = {}, int depth = 0) {
    for (std::size_t i = 0; i < map.size(); ++i) {
        const std::string& key = map.keys()[i];
        if (depth == 0 && std::find(skip.begin(), skip.end(), key) != skip.end()) continue;
        const Llsd& v = map.items()[i];
        const std::string name = prefix.empty() ? key : prefix + "." + key;
        if (v.isMap() && depth < 4) {
            addProperties(node, v, name, absolute, skip, depth + 1);
            continue;
        }
        node.push_back(propertyOf(name, v, absolute ? v.offset : 0, absolute ? v.length : 0));
        if (v.type() == Llsd::Type::Date) {
            const std::string iso = isoDate(v.dateValue());
            if (!iso.empty())
                node.push_back(
                    {name + " (UTC)", "string", iso, node.back().offset, node.back().length});
        }
    }
}

void setProperty(std::vector<Property>& node, std::string name, std::string type, Value value) {
    node.push_back({std::move(name), std::move(type), std::move(value), 0, 0});
}

// ---------------------------------------------------------------------------------------------

struct Block {
    std::string name;
    const Llsd* entry = nullptr;
    std::int64_t offset = 0;  // from the end of the header
    std::int64_t size = 0;
    std::uint64_t absolute = 0;
    bool inFile = false;
    int node = -1;
};

class AssetDecoder {
public:
    explicit AssetDecoder(DecodeContext& ctx) : ctx_(ctx), asset_(ctx.asset()) {}

    void run() {
        asset_.format = "secondlife-mesh";
        asset_.formatName = "Second Life mesh asset";
        const ByteSpan bytes = ctx_.bytes();
        fileNode_ = asset_.addNode("file", "file");
        asset_.nodes[fileNode_].length = bytes.size();

        readHeader();
        collectBlocks();

        // The skin first: LOD weights are checked against its joints.
        std::vector<Block*> order;
        auto take = [&](std::string_view name) {
            for (auto& b : blocks_)
                if (b.name == name && std::find(order.begin(), order.end(), &b) == order.end())
                    order.push_back(&b);
        };
        take(kSkin);
        for (auto n : kMeshBlocks) take(n);
        take(kPhysicsConvex);
        for (auto& b : blocks_) take(b.name);

        for (std::size_t i = 0; i < order.size(); ++i) {
            ctx_.checkCancel(order[i]->absolute);
            ctx_.progress(double(i) / double(order.size()));
            decodeBlock(*order[i]);
        }
        checkLodConsistency();
        mapTrailing();
        ctx_.progress(1.0);
        if (firstFailure_) throw *firstFailure_;
    }

private:
    // -- header ------------------------------------------------------------------------------

    void readHeader() {
        const ByteSpan bytes = ctx_.bytes();
        ByteReader r(ctx_, bytes);
        {
            auto s = ctx_.scope("header");
            header_ = parseBinaryLlsd(r, {ctx_.limits().maxDepth, 1u << 20});
            if (!header_.isMap()) {
                ctx_.fail(0, errc::kLlsd,
                          std::string("the header should be an LLSD map, found ") +
                              llsdTypeName(header_.type()));
            }
        }
        headerEnd_ = r.pos();
        headerNode_ = asset_.addNode("header", "header", fileNode_);
        Node& hn = asset_.nodes[headerNode_];
        hn.length = headerEnd_;
        ctx_.mapRange(0, headerEnd_, RangeKind::Header, "header", headerNode_);
        {
            auto s = ctx_.scope("header");
            for (std::size_t i = 0; i < header_.size(); ++i) {
                const Llsd& v = header_.items()[i];
                ctx_.mapRange(v.offset, v.length, v.isMap() ? RangeKind::Record : RangeKind::Field,
                              header_.keys()[i], headerNode_);
            }
        }
        setProperty(asset_.propertyList(headerNode_), "headerSize", "integer",
                    std::int64_t(headerEnd_));
        addProperties(asset_.propertyList(headerNode_), header_, "", true);

        const Llsd* version = header_.find("version");
        if (!version) {
            asset_.version = "0";
            ctx_.info(0, errc::kNoVersion,
                      "the header has no \"version\" key (an asset from before versioning); "
                      "read as version 0");
        } else if (auto v = version->asInteger()) {
            if (*v > kMaxSupportedVersion) {
                asset_.version = std::to_string(*v);
                auto s = ctx_.scope("header");
                ctx_.fail(version->offset, errc::kUnsupportedVersion,
                          "Second Life mesh asset version " + std::to_string(*v) +
                              " (major version " + std::to_string(*v / 1000) +
                              ") is not supported: versions 0 to 999 (major version 0) are "
                              "read, a new major version is an incompatible format");
            }
            if (*v < 0) ctx_.warn(version->offset, errc::kBadVersion, "negative version number");
            asset_.version = std::to_string(*v);
        } else {
            asset_.version = "?";
            ctx_.warn(version->offset, errc::kBadVersion,
                      std::string("\"version\" should be an integer, found ") +
                          llsdTypeName(version->type()));
        }
    }

    void collectBlocks() {
        const std::uint64_t fileSize = ctx_.bytes().size();
        for (std::size_t i = 0; i < header_.size(); ++i) {
            const Llsd& v = header_.items()[i];
            const std::string& key = header_.keys()[i];
            if (!v.isMap()) continue;
            auto s = ctx_.scope("header");
            auto s2 = ctx_.scope(key);
            const Llsd* off = v.find("offset");
            const Llsd* size = v.find("size");
            if (!off || !size || !off->asInteger() || !size->asInteger()) {
                ctx_.warn(v.offset, errc::kBlockWithoutRange,
                          "\"" + key + "\" has no integer offset and size; not a block");
                continue;
            }
            Block b;
            b.name = key;
            b.entry = &v;
            b.offset = *off->asInteger();
            b.size = *size->asInteger();
            b.absolute = headerEnd_ + std::uint64_t(std::max<std::int64_t>(b.offset, 0));
            b.node = asset_.addNode(key, blockKind(key), fileNode_);
            auto& props = asset_.propertyList(b.node);
            setProperty(props, "offset", "integer", b.offset);
            setProperty(props, "size", "integer", b.size);
            setProperty(props, "fileOffset", "integer", std::int64_t(b.absolute));
            addProperties(props, v, "", true, {"offset", "size"});
            Node& n = asset_.nodes[b.node];
            if (b.offset < 0 || b.size < 0) {
                ctx_.warn(v.offset, errc::kBlockOutOfRange,
                          "negative offset or size (" + std::to_string(b.offset) + ", " +
                              std::to_string(b.size) + "); block skipped");
            } else if (b.absolute + std::uint64_t(b.size) > fileSize) {
                // A start past the end is the offset's fault; a start inside the file, the size's.
                const bool startOutside = b.absolute > fileSize;
                recordFailure(DecodeError{
                    startOutside ? errc::kBlockOutOfRange : errc::kTruncated,
                    startOutside ? off->offset : size->offset, ctx_.path(),
                    "block \"" + key + "\" spans file bytes " + std::to_string(b.absolute) +
                        " to " + std::to_string(b.absolute + std::uint64_t(b.size)) + " (offset " +
                        std::to_string(b.offset) + " counted from the end of the header at " +
                        std::to_string(headerEnd_) + ") but the file has " +
                        std::to_string(fileSize) + " bytes"});
                if (b.absolute < fileSize) {
                    n.offset = b.absolute;
                    n.length = fileSize - b.absolute;
                }
            } else {
                b.inFile = true;
                n.offset = b.absolute;
                n.length = std::uint64_t(b.size);
            }
            blocks_.push_back(b);
        }
        if (!std::any_of(blocks_.begin(), blocks_.end(),
                         [](const Block& b) { return b.name == "high_lod"; })) {
            ctx_.warn(0, errc::kMissingHighLod, "the header has no \"high_lod\" block");
        }
    }

    static std::string blockKind(std::string_view key) {
        if (key == kSkin) return "skin";
        if (key.ends_with("_lod")) return "LOD";
        if (key.starts_with("physics")) return "physics";
        return "block";
    }

    // Keeps the first failure (rethrown at the end) and records the others as warnings, so one
    // broken block does not hide the rest of the asset.
    void recordFailure(const DecodeError& e) {
        if (!firstFailure_) {
            firstFailure_ = DecodeFailure(e);
        } else {
            asset_.diagnostics.push_back(
                {Severity::Warning, e.code, e.offset, e.context, e.message});
        }
    }

    // -- blocks ------------------------------------------------------------------------------

    void decodeBlock(Block& b) {
        if (!b.inFile) return;
        auto s = ctx_.scope(b.name);
        ctx_.mapRange(b.absolute, std::uint64_t(b.size), RangeKind::Chunk, {}, b.node);
        ctx_.mapRange(b.absolute, std::uint64_t(b.size), RangeKind::Payload, "zlib", b.node);
        const bool known =
            b.name == kSkin || b.name == kPhysicsConvex ||
            std::find(kMeshBlocks.begin(), kMeshBlocks.end(), b.name) != kMeshBlocks.end();
        if (!known) {
            ctx_.info(b.absolute, errc::kRawBlock,
                      "block \"" + b.name + "\" is simulator data; kept as raw bytes");
            return;
        }
        try {
            const ByteSpan payload = ctx_.bytes().subspan(b.absolute, std::size_t(b.size));
            Bytes data = inflateBlock(payload, b.absolute);
            ByteSpan llsdBytes = data;
            const std::size_t skip = llsdHeaderLength(llsdBytes);
            llsdBytes = llsdBytes.subspan(skip);
            ByteReader r(ctx_, llsdBytes, b.absolute, false);
            const Llsd doc = parseBinaryLlsd(r, {ctx_.limits().maxDepth, 1u << 20});
            if (!r.atEnd()) {
                r.warn(errc::kTrailingBytes, std::to_string(r.remaining()) +
                                                 " bytes after the block's LLSD value; ignored");
            }
            setProperty(asset_.propertyList(b.node), "inflatedSize", "integer",
                        std::int64_t(data.size()));
            if (skip)
                setProperty(asset_.propertyList(b.node), "llsdHeader", "string",
                            std::string(reinterpret_cast<const char*>(data.data()), skip - 1));
            if (b.name == kSkin)
                decodeSkin(b, doc);
            else if (b.name == kPhysicsConvex)
                decodeConvex(b, doc);
            else
                decodeMeshBlock(b, doc);
        } catch (const DecodeFailure& f) {
            recordFailure(f.error);
        }
    }

    Bytes inflateBlock(ByteSpan payload, std::uint64_t at) {
        if (looksLikeZlib(payload)) return inflateZlib(ctx_, payload, at);
        if (looksLikeGzip(payload)) {
            // The wiki says gzip; real assets use zlib. Accept both.
            ctx_.info(at, errc::kGzipBlock, "block is gzip-compressed, not zlib");
            return inflateGzip(ctx_, payload, at);
        }
        char buf[80];
        std::snprintf(buf, sizeof buf,
                      "block does not start with a zlib header (78 xx); found %02x %02x",
                      payload.size() > 0 ? payload[0] : 0, payload.size() > 1 ? payload[1] : 0);
        ctx_.fail(at, errc::kZlib, buf);
    }

    // Length of an optional "<? LLSD/Binary ?>\n" line before the LLSD value.
    static std::size_t llsdHeaderLength(ByteSpan d) {
        if (d.size() < 2 || d[0] != '<' || d[1] != '?') return 0;
        for (std::size_t i = 2; i < d.size() && i < 64; ++i)
            if (d[i] == '\n') return i + 1;
        return 0;
    }

    // -- LOD and physics_mesh ----------------------------------------------------------------

    void decodeMeshBlock(Block& b, const Llsd& doc) {
        if (!doc.isArray()) {
            ctx_.fail(b.absolute, errc::kLlsd,
                      std::string("a mesh block should hold an array of submeshes, found ") +
                          llsdTypeName(doc.type()));
        }
        Mesh mesh;
        mesh.name = b.name;
        mesh.node = b.node;
        const bool canSkin = skeleton_ >= 0;
        bool anyWeights = false, anyNormals = false, anyUv = false;
        for (std::size_t i = 0; i < doc.size(); ++i) {
            ctx_.checkCancel(b.absolute);
            const std::string faceName = "face " + std::to_string(i);
            auto s = ctx_.scope(faceName);
            const int faceNode = asset_.addNode(faceName, "submesh", b.node);
            asset_.nodes[faceNode].offset = b.absolute;
            asset_.nodes[faceNode].length = std::uint64_t(b.size);
            Surface surface;
            surface.name = faceName;
            surface.firstVertex = std::uint32_t(mesh.positions.size());
            surface.firstTriangle = std::uint32_t(mesh.indices.size() / 3);
            decodeFace(b, doc.items()[i], mesh, faceNode, canSkin, anyWeights, anyNormals, anyUv);
            surface.vertexCount = std::uint32_t(mesh.positions.size()) - surface.firstVertex;
            surface.triangleCount = std::uint32_t(mesh.indices.size() / 3) - surface.firstTriangle;
            setProperty(asset_.propertyList(faceNode), "vertices", "integer",
                        std::int64_t(surface.vertexCount));
            setProperty(asset_.propertyList(faceNode), "triangles", "integer",
                        std::int64_t(surface.triangleCount));
            mesh.surfaces.push_back(surface);
        }
        // Streams are empty or one entry per vertex: faces without one are filled with zeros.
        if (anyNormals) mesh.normals.resize(mesh.positions.size());
        if (anyUv) mesh.uv0.resize(mesh.positions.size());
        if (anyWeights) {
            mesh.skin.resize(mesh.positions.size());
            mesh.skeleton = skeleton_;
        }
        const std::uint32_t triangles = std::uint32_t(mesh.indices.size() / 3);
        mesh.lods.push_back({0, triangles, b.name});
        mesh.computeBounds();
        auto& props = asset_.propertyList(b.node);
        setProperty(props, "submeshes", "integer", std::int64_t(doc.size()));
        setProperty(props, "vertices", "integer", std::int64_t(mesh.positions.size()));
        setProperty(props, "triangles", "integer", std::int64_t(triangles));
        NodeLinks& links = asset_.linksOf(b.node);
        links.mesh = static_cast<int>(asset_.meshes.size());
        links.lod = 0;
        submeshCounts_.emplace_back(b.name, doc.size());
        asset_.meshes.push_back(std::move(mesh));
    }

    template <typename T>
    static std::vector<T> copyArray(const Bytes& data, std::size_t count) {
        std::vector<T> out(count);
        if (count) std::memcpy(out.data(), data.data(), count * sizeof(T));
        return out;
    }

    void decodeFace(Block& b, const Llsd& face, Mesh& mesh, int faceNode, bool canSkin,
                    bool& anyWeights, bool& anyNormals, bool& anyUv) {
        const std::uint64_t at = b.absolute;
        if (!face.isMap()) {
            ctx_.warn(at, errc::kBadSubmesh,
                      std::string("submesh should be an LLSD map, found ") +
                          llsdTypeName(face.type()) + "; kept as an empty face");
            return;
        }
        addProperties(asset_.propertyList(faceNode), face, "", false,
                      {"Position", "Normal", "TexCoord0", "TriangleList", "Weights"});
        if (const Llsd* ng = face.find("NoGeometry"); ng && ng->asBoolean()) {
            ctx_.info(at, errc::kNoGeometry,
                      "placeholder face with no geometry at this level of detail (NoGeometry)");
            return;
        }
        const Llsd* pos = face.find("Position");
        const Llsd* tri = face.find("TriangleList");
        if (!pos || pos->type() != Llsd::Type::Binary) {
            ctx_.warn(at, errc::kMissingPositions, "face has no Position byte array; left empty");
            return;
        }
        // Positions: 3 × u16 per vertex.
        std::size_t vertexCount = pos->bytes().size() / 6;
        if (pos->bytes().size() % 6) {
            ctx_.warn(at, errc::kPartialVertex,
                      "Position holds " + std::to_string(pos->bytes().size()) +
                          " bytes, not a multiple of 6; the incomplete vertex is dropped");
        }
        const std::uint64_t first = mesh.positions.size();
        if (first + vertexCount > ctx_.limits().maxVertices) {
            ctx_.fail(at, errc::kLimit, "more vertices than Limits::maxVertices");
        }
        ctx_.checkAllocation(at, first + vertexCount, sizeof(Vec3) * 3, "vertices");
        Vec3 pmin{-0.5f, -0.5f, -0.5f}, pmax{0.5f, 0.5f, 0.5f};
        if (const Llsd* dom = face.find("PositionDomain")) {
            const auto mn = vec3Of(dom->find("Min")), mx = vec3Of(dom->find("Max"));
            if (mn && mx && mn->finite() && mx->finite()) {
                pmin = *mn;
                pmax = *mx;
            } else if (mn && mx) {
                ctx_.warn(at, errc::kBadDomain, "PositionDomain Min/Max are not finite; ±0.5 used");
            } else {
                ctx_.warn(at, errc::kBadDomain, "PositionDomain has no Min/Max vectors; ±0.5 used");
            }
        }
        const auto q = copyArray<std::uint16_t>(pos->bytes(), vertexCount * 3);
        const Vec3 range = pmax - pmin;
        mesh.positions.reserve(first + vertexCount);
        for (std::size_t v = 0; v < vertexCount; ++v) {
            mesh.positions.push_back({pmin.x + q[v * 3] / 65535.f * range.x,
                                      pmin.y + q[v * 3 + 1] / 65535.f * range.y,
                                      pmin.z + q[v * 3 + 2] / 65535.f * range.z});
        }

        // Normals: 3 × u16 per vertex into [-1, 1].
        if (const Llsd* nrm = face.find("Normal"); nrm && nrm->type() == Llsd::Type::Binary) {
            if (nrm->bytes().size() / 6 != vertexCount) {
                ctx_.warn(at, errc::kStreamLength,
                          "Normal holds " + std::to_string(nrm->bytes().size() / 6) +
                              " normals for " + std::to_string(vertexCount) +
                              " positions; normals of this face dropped");
            } else {
                anyNormals = true;
                mesh.normals.resize(first);
                const auto nq = copyArray<std::uint16_t>(nrm->bytes(), vertexCount * 3);
                for (std::size_t v = 0; v < vertexCount; ++v) {
                    mesh.normals.push_back({nq[v * 3] / 65535.f * 2 - 1,
                                            nq[v * 3 + 1] / 65535.f * 2 - 1,
                                            nq[v * 3 + 2] / 65535.f * 2 - 1});
                }
            }
        }

        // TexCoord0: 2 × u16 per vertex into TexCoord0Domain, then V flipped to V-down.
        if (const Llsd* uv = face.find("TexCoord0"); uv && uv->type() == Llsd::Type::Binary) {
            if (uv->bytes().size() / 4 != vertexCount) {
                ctx_.warn(at, errc::kStreamLength,
                          "TexCoord0 holds " + std::to_string(uv->bytes().size() / 4) +
                              " coordinates for " + std::to_string(vertexCount) +
                              " positions; texture coordinates of this face dropped");
            } else {
                Vec2 umin{0, 0}, umax{1, 1};
                const Llsd* dom = face.find("TexCoord0Domain");
                const auto mn = dom ? vec2Of(dom->find("Min")) : std::nullopt;
                const auto mx = dom ? vec2Of(dom->find("Max")) : std::nullopt;
                if (mn && mx) {
                    umin = *mn;
                    umax = *mx;
                } else {
                    ctx_.warn(at, errc::kBadDomain,
                              "TexCoord0 without a TexCoord0Domain Min/Max; [0, 1] used");
                }
                anyUv = true;
                mesh.uv0.resize(first);
                const auto uq = copyArray<std::uint16_t>(uv->bytes(), vertexCount * 2);
                for (std::size_t v = 0; v < vertexCount; ++v) {
                    const float u = umin.x + uq[v * 2] / 65535.f * (umax.x - umin.x);
                    const float vv = umin.y + uq[v * 2 + 1] / 65535.f * (umax.y - umin.y);
                    mesh.uv0.push_back({u, 1.0f - vv});
                }
            }
        }

        // TriangleList: u16 indices, three per triangle.
        if (!tri || tri->type() != Llsd::Type::Binary) {
            ctx_.warn(at, errc::kMissingTriangles, "face has no TriangleList; no triangles");
        } else {
            const std::size_t indexCount = tri->bytes().size() / 2;
            const std::size_t triangles = indexCount / 3;
            if (tri->bytes().size() % 6) {
                ctx_.warn(at, errc::kIncompleteTriangle,
                          "TriangleList holds " + std::to_string(tri->bytes().size()) +
                              " bytes, not a whole number of triangles; the incomplete trailing "
                              "triangle is dropped");
            }
            if (mesh.indices.size() / 3 + triangles > ctx_.limits().maxTriangles)
                ctx_.fail(at, errc::kLimit, "more triangles than Limits::maxTriangles");
            const auto iq = copyArray<std::uint16_t>(tri->bytes(), triangles * 3);
            std::size_t bad = 0;
            mesh.indices.reserve(mesh.indices.size() + triangles * 3);
            for (std::size_t t = 0; t < triangles; ++t) {
                const std::uint16_t a = iq[t * 3], c = iq[t * 3 + 1], d = iq[t * 3 + 2];
                if (a >= vertexCount || c >= vertexCount || d >= vertexCount) {
                    ++bad;
                    continue;
                }
                mesh.indices.push_back(std::uint32_t(first + a));
                mesh.indices.push_back(std::uint32_t(first + c));
                mesh.indices.push_back(std::uint32_t(first + d));
            }
            if (bad) {
                ctx_.warn(at, errc::kIndexOutOfRange,
                          std::to_string(bad) + " triangles name a vertex >= the face's " +
                              std::to_string(vertexCount) + " vertices; dropped");
            }
        }

        // Weights.
        const Llsd* w = face.find("Weights");
        if (w && w->type() == Llsd::Type::Binary) {
            if (!canSkin) {
                if (!skinDropped_) {
                    ctx_.warn(at, errc::kWeightsWithoutSkin,
                              "face has Weights but the asset has no usable skin block; ignored");
                }
            } else {
                anyWeights = true;
                mesh.skin.resize(first);
                decodeWeights(at, w->bytes(), vertexCount, mesh.skin);
            }
        } else if (canSkin) {
            ctx_.warn(at, errc::kMissingWeights,
                      "the asset has a skin block but this face has no Weights; unweighted");
        }
    }

    // Per vertex: up to 4 × (u8 joint, u16le weight), ended by joint 0xFF or implicitly after
    // the fourth influence.
    void decodeWeights(std::uint64_t at, const Bytes& d, std::size_t vertexCount,
                       std::vector<VertexInfluences>& out) {
        const std::size_t jointCount = asset_.skeletons[skeleton_].bones.size();
        const std::size_t start = out.size();
        std::size_t p = 0, badJoints = 0, done = 0;
        bool truncated = false;
        for (; done < vertexCount && !truncated; ++done) {
            VertexInfluences inf;
            int slot = 0;
            for (int k = 0; k < 4; ++k) {
                if (p >= d.size()) {
                    truncated = true;
                    break;
                }
                const std::uint8_t joint = d[p++];
                if (joint == 0xFF) break;
                if (p + 2 > d.size()) {
                    truncated = true;
                    break;
                }
                const std::uint16_t value = std::uint16_t(d[p] | (d[p + 1] << 8));
                p += 2;
                if (joint >= jointCount) {
                    ++badJoints;
                    continue;
                }
                inf.joints[slot] = joint;
                inf.weights[slot] = value / 65535.f;
                ++slot;
            }
            out.push_back(inf);
            if (truncated) break;
        }
        if (truncated || done < vertexCount) {
            ctx_.warn(at, errc::kTruncatedWeights,
                      "Weights end after " + std::to_string(done) + " of " +
                          std::to_string(vertexCount) + " vertices; the rest are unweighted");
        } else if (p < d.size()) {
            ctx_.warn(at, errc::kTrailingBytes,
                      std::to_string(d.size() - p) + " bytes after the last vertex's weights");
        }
        out.resize(start + vertexCount);  // vertices past a truncation stay unweighted
        if (badJoints) {
            ctx_.warn(at, errc::kUnknownJoint,
                      std::to_string(badJoints) + " influences name a joint >= the skin's " +
                          std::to_string(jointCount) + " joints; dropped");
        }
    }

    // -- skin --------------------------------------------------------------------------------

    void decodeSkin(Block& b, const Llsd& doc) {
        const std::uint64_t at = b.absolute;
        if (!doc.isMap()) {
            ctx_.fail(at, errc::kLlsd,
                      std::string("the skin block should be an LLSD map, found ") +
                          llsdTypeName(doc.type()));
        }
        addProperties(
            asset_.propertyList(b.node), doc, "", false,
            {"joint_names", "inverse_bind_matrix", "bind_shape_matrix", "alt_inverse_bind_matrix"});
        std::vector<std::string> names;
        if (const Llsd* jn = doc.find("joint_names"); jn && jn->isArray()) {
            for (std::size_t i = 0; i < jn->size(); ++i) {
                const Llsd& n = jn->items()[i];
                if (n.type() == Llsd::Type::String) {
                    names.emplace_back(n.text());
                } else {
                    ctx_.warn(at, errc::kBadJointName,
                              "joint_names[" + std::to_string(i) + "] is not a string");
                    names.push_back("joint " + std::to_string(i));
                }
            }
        } else {
            ctx_.warn(at, errc::kMissingJointNames, "the skin block has no joint_names array");
        }
        auto readMatrices = [&](const char* key, std::vector<Mat4>& out) -> bool {
            const Llsd* a = doc.find(key);
            if (!a) return false;
            if (!a->isArray()) {
                ctx_.warn(at, errc::kBadMatrix, std::string(key) + " is not an array");
                return false;
            }
            for (std::size_t i = 0; i < a->size(); ++i) {
                auto m = matrixOf(a->items()[i]);
                if (!m) {
                    ctx_.warn(at, errc::kBadMatrix,
                              std::string(key) + "[" + std::to_string(i) +
                                  "] is not 16 numbers; identity used");
                }
                out.push_back(m.value_or(Mat4{}));
            }
            return true;
        };
        std::vector<Mat4> inverseBind, alt;
        readMatrices("inverse_bind_matrix", inverseBind);
        const bool hasAlt = readMatrices("alt_inverse_bind_matrix", alt);
        Mat4 bindShape;
        if (const Llsd* bsm = doc.find("bind_shape_matrix")) {
            if (auto m = matrixOf(*bsm))
                bindShape = *m;
            else
                ctx_.warn(at, errc::kBadMatrix,
                          "bind_shape_matrix is not 16 numbers; identity used");
        } else {
            ctx_.warn(at, errc::kMissingBindShape, "the skin block has no bind_shape_matrix");
        }
        setProperty(asset_.propertyList(b.node), "joints", "integer", std::int64_t(names.size()));
        setProperty(asset_.propertyList(b.node), "bind_shape_matrix", "Matrix4",
                    doublesOf(bindShape));
        if (hasAlt) {
            std::vector<double> all;
            for (const auto& m : alt) all.insert(all.end(), m.m.begin(), m.m.end());
            setProperty(asset_.propertyList(b.node), "alt_inverse_bind_matrix", "Matrix4[]",
                        std::move(all));
            if (alt.size() != names.size()) {
                ctx_.warn(at, errc::kAltCountMismatch,
                          "alt_inverse_bind_matrix holds " + std::to_string(alt.size()) +
                              " matrices for " + std::to_string(names.size()) + " joints");
            }
        }

        if (names.size() != inverseBind.size()) {
            // The viewer (LLMeshSkinInfo) drops every joint binding in this case; so do we.
            skinDropped_ = true;
            ctx_.warn(at, errc::kSkinJointCountMismatch,
                      "joint_names holds " + std::to_string(names.size()) +
                          " names but inverse_bind_matrix " + std::to_string(inverseBind.size()) +
                          " matrices; all joint bindings are dropped (as the viewer does)");
            for (const auto& n : names) asset_.addNode(n, "joint", b.node);
            return;
        }
        Skeleton sk;
        sk.name = "skin";
        const Mat4 inverseBindShape = inverse(bindShape);
        for (std::size_t i = 0; i < names.size(); ++i) {
            Bone bone;
            bone.name = names[i];
            bone.inverseBind = inverseBind[i] * bindShape;
            bone.world = inverseBindShape * inverse(inverseBind[i]);
            sk.bones.push_back(std::move(bone));
        }
        // Parents from the default avatar skeleton, through ancestors the skin leaves out.
        for (auto& bone : sk.bones) {
            std::string_view p = defaultJointParent(bone.name);
            for (int guard = 0; !p.empty() && guard < 64; ++guard) {
                const int idx = sk.find(std::string(p));
                if (idx >= 0) {
                    bone.parent = idx;
                    break;
                }
                p = defaultJointParent(p);
            }
        }
        skeleton_ = static_cast<int>(asset_.skeletons.size());
        asset_.linksOf(b.node).skeleton = skeleton_;
        for (std::size_t i = 0; i < names.size(); ++i) {
            const int bn = asset_.addNode(names[i], "bone", b.node);
            NodeLinks& links = asset_.linksOf(bn);
            links.skeleton = skeleton_;
            links.bone = static_cast<int>(i);
            Node& n = asset_.nodes[bn];
            n.offset = b.absolute;
            n.length = std::uint64_t(b.size);
            auto& props = asset_.propertyList(bn);
            setProperty(props, "inverse_bind_matrix", "Matrix4", doublesOf(inverseBind[i]));
            if (i < alt.size())
                setProperty(props, "alt_inverse_bind_matrix", "Matrix4", doublesOf(alt[i]));
            if (sk.bones[i].parent >= 0)
                setProperty(props, "parent", "string", sk.bones[sk.bones[i].parent].name);
        }
        asset_.skeletons.push_back(std::move(sk));
    }

    // -- physics_convex ----------------------------------------------------------------------

    void decodeConvex(Block& b, const Llsd& doc) {
        const std::uint64_t at = b.absolute;
        if (!doc.isMap()) {
            ctx_.fail(at, errc::kLlsd,
                      std::string("physics_convex should be an LLSD map, found ") +
                          llsdTypeName(doc.type()));
        }
        // addHull adds nodes, so no Node reference is held across it.
        addProperties(asset_.propertyList(b.node), doc, "", false,
                      {"BoundingVerts", "HullList", "Positions"});
        Vec3 mn{-0.5f, -0.5f, -0.5f}, mx{0.5f, 0.5f, 0.5f};
        if (doc.find("Min") || doc.find("Max")) {
            const auto a = vec3Of(doc.find("Min")), c = vec3Of(doc.find("Max"));
            if (a && c) {
                mn = *a;
                mx = *c;
            } else {
                ctx_.warn(at, errc::kBadDomain,
                          "physics_convex Min/Max are not vectors; ±0.5 used");
            }
        }
        const Vec3 range = mx - mn;
        auto points = [&](const Bytes& d, const char* what) {
            if (d.size() % 6)
                ctx_.warn(at, errc::kPartialVertex,
                          std::string(what) + " is not a multiple of 6 bytes");
            const auto q = copyArray<std::uint16_t>(d, d.size() / 6 * 3);
            std::vector<Vec3> out;
            out.reserve(q.size() / 3);
            for (std::size_t i = 0; i + 2 < q.size(); i += 3)
                out.push_back({mn.x + q[i] / 65535.f * range.x, mn.y + q[i + 1] / 65535.f * range.y,
                               mn.z + q[i + 2] / 65535.f * range.z});
            return out;
        };

        Mesh mesh;
        mesh.name = std::string(kPhysicsConvex);
        mesh.primitive = Primitive::Lines;
        mesh.node = b.node;
        // For a line mesh, Surface and LodLevel "triangle" counts count line segments.
        auto addHull = [&](std::string name, const std::vector<Vec3>& pts, bool edges) {
            Surface s;
            s.name = name;
            s.firstVertex = std::uint32_t(mesh.positions.size());
            s.vertexCount = std::uint32_t(pts.size());
            s.firstTriangle = std::uint32_t(mesh.indices.size() / 2);
            mesh.positions.insert(mesh.positions.end(), pts.begin(), pts.end());
            if (edges)
                for (std::uint32_t i : convexHullEdges(pts))
                    mesh.indices.push_back(s.firstVertex + i);
            s.triangleCount = std::uint32_t(mesh.indices.size() / 2) - s.firstTriangle;
            const int hn = asset_.addNode(name, "hull", b.node);
            asset_.nodes[hn].offset = b.absolute;
            asset_.nodes[hn].length = std::uint64_t(b.size);
            setProperty(asset_.propertyList(hn), "points", "integer", std::int64_t(pts.size()));
            setProperty(asset_.propertyList(hn), "edges", "integer", std::int64_t(s.triangleCount));
            mesh.surfaces.push_back(std::move(s));
        };

        if (const Llsd* bv = doc.find("BoundingVerts"); bv && bv->type() == Llsd::Type::Binary) {
            addHull("BoundingVerts", points(bv->bytes(), "BoundingVerts"), true);
        } else {
            ctx_.warn(at, errc::kMissingBoundingVerts, "physics_convex has no BoundingVerts");
        }
        const Llsd* hl = doc.find("HullList");
        const Llsd* hp = doc.find("Positions");
        if (hl && hl->type() == Llsd::Type::Binary) {
            if (std::any_of(blocks_.begin(), blocks_.end(),
                            [](const Block& x) { return x.name == "physics_mesh"; })) {
                ctx_.warn(at, errc::kHullsWithPhysicsMesh,
                          "HullList is present together with a physics_mesh block (the format "
                          "forbids both)");
            }
            const std::vector<Vec3> all = hp && hp->type() == Llsd::Type::Binary
                                              ? points(hp->bytes(), "Positions")
                                              : std::vector<Vec3>{};
            std::size_t needed = 0;
            for (std::uint8_t c : hl->bytes()) needed += c == 0 ? 256 : c;  // 0 means 256
            if (needed != all.size()) {
                ctx_.warn(at, errc::kHullCountMismatch,
                          "HullList counts " + std::to_string(needed) +
                              " points but Positions "
                              "holds " +
                              std::to_string(all.size()) + "; hulls cut to what exists");
            }
            std::size_t p = 0;
            constexpr std::size_t kMaxWireHulls = 1024;  // SL allows 256; bounds the hull work
            for (std::size_t h = 0; h < hl->bytes().size() && p < all.size(); ++h) {
                const std::size_t n = std::min<std::size_t>(
                    hl->bytes()[h] == 0 ? 256 : hl->bytes()[h], all.size() - p);
                addHull("hull " + std::to_string(h),
                        std::vector<Vec3>(all.begin() + p, all.begin() + p + n), h < kMaxWireHulls);
                p += n;
            }
            if (hl->bytes().size() > kMaxWireHulls)
                ctx_.warn(at, errc::kTooManyHulls,
                          "more than 1024 hulls; only their points are shown");
            setProperty(asset_.propertyList(b.node), "hulls", "integer",
                        std::int64_t(hl->bytes().size()));
        } else if (hp) {
            ctx_.warn(at, errc::kPositionsWithoutHulls, "Positions without HullList; ignored");
        }
        mesh.lods.push_back({0, std::uint32_t(mesh.indices.size() / 2), mesh.name});
        mesh.computeBounds();
        asset_.linksOf(b.node).mesh = static_cast<int>(asset_.meshes.size());
        asset_.meshes.push_back(std::move(mesh));
    }

    // -- whole-file checks -------------------------------------------------------------------

    void checkLodConsistency() {
        if (submeshCounts_.size() < 2) return;
        const auto& [firstName, firstCount] = submeshCounts_.front();
        for (const auto& [name, count] : submeshCounts_) {
            if (name == "physics_mesh" || count == firstCount) continue;
            ctx_.warn(0, errc::kSubmeshCountMismatch,
                      name + " has " + std::to_string(count) + " submeshes, " + firstName +
                          " has " + std::to_string(firstCount) +
                          " (every level of detail should have the same faces)");
        }
    }

    void mapTrailing() {
        const std::uint64_t fileSize = ctx_.bytes().size();
        std::uint64_t end = headerEnd_;
        for (const auto& b : blocks_)
            if (b.inFile) end = std::max(end, b.absolute + std::uint64_t(b.size));
        if (end < fileSize) {
            // The real asset in corpus/secondlife ends with "LLWearable version 22\n" (22 bytes)
            // after its last block.
            ctx_.warn(
                end, errc::kTrailingBytes,
                std::to_string(fileSize - end) + " stray bytes after the last block; ignored");
            ctx_.mapRange(end, fileSize - end, RangeKind::Padding, "trailing bytes");
        }
    }

    DecodeContext& ctx_;
    Asset& asset_;
    Llsd header_;
    std::size_t headerEnd_ = 0;
    int fileNode_ = -1;
    int headerNode_ = -1;
    int skeleton_ = -1;
    bool skinDropped_ = false;
    std::vector<Block> blocks_;
    std::vector<std::pair<std::string, std::size_t>> submeshCounts_;
    std::optional<DecodeFailure> firstFailure_;
};

}  // namespace

void decode(DecodeContext& ctx) {
    AssetDecoder(ctx).run();
}

}  // namespace meshscope::secondlife
