// Google Draco streams on their own (.drc): meshes and point clouds this test encodes with
// libdraco's encoder, broken ones, and the real streams of Draco's own test data (bitstream
// versions 1.1 to 2.3) checked against the OBJ files they were made from.
#include <draco/compression/encode.h>
#include <draco/compression/expert_encode.h>
#include <draco/mesh/mesh.h>
#include <draco/metadata/geometry_metadata.h>
#include <draco/point_cloud/point_cloud.h>

#include "io/draco_bridge.h"
#include "meshscope/core/error_codes.h"
#include "support/test_support.h"

namespace meshscope {
namespace {

using GA = draco::GeometryAttribute;

template <typename T, std::size_t N>
int addAttribute(draco::PointCloud& pc, GA::Type type, draco::DataType dt,
                 const std::vector<std::array<T, N>>& values) {
    GA ga;
    ga.Init(type, nullptr, std::uint8_t(N), dt, false, std::int64_t(sizeof(T) * N), 0);
    const int id = pc.AddAttribute(ga, true, std::uint32_t(values.size()));
    for (std::size_t i = 0; i < values.size(); ++i)
        pc.attribute(id)->SetAttributeValue(draco::AttributeValueIndex(std::uint32_t(i)),
                                            values[i].data());
    return id;
}

Bytes encode(draco::PointCloud& pc, bool mesh, int method, int quantized = -1) {
    draco::EncoderBuffer buffer;
    draco::Status status;
    if (mesh) {
        draco::ExpertEncoder encoder(static_cast<draco::Mesh&>(pc));
        encoder.SetEncodingMethod(method);
        if (quantized >= 0) encoder.SetAttributeQuantization(quantized, 14);
        status = encoder.EncodeToBuffer(&buffer);
    } else {
        draco::ExpertEncoder encoder(pc);
        encoder.SetEncodingMethod(method);
        if (quantized >= 0) encoder.SetAttributeQuantization(quantized, 14);
        status = encoder.EncodeToBuffer(&buffer);
    }
    EXPECT_TRUE(status.ok()) << status.error_msg_string();
    return Bytes(buffer.data(), buffer.data() + buffer.size());
}

// A unit quad of two triangles with every stream the decoder reads.
const std::vector<std::array<float, 3>> kQuad = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}};

Bytes quadMesh() {
    draco::Mesh m;
    m.set_num_points(4);
    addAttribute(m, GA::POSITION, draco::DT_FLOAT32, kQuad);
    addAttribute(m, GA::NORMAL, draco::DT_FLOAT32,
                 std::vector<std::array<float, 3>>(4, {0.f, 0.f, 1.f}));
    addAttribute(m, GA::TEX_COORD, draco::DT_FLOAT32,
                 std::vector<std::array<float, 2>>{{0, 0}, {1, 0}, {1, 0.75f}, {0, 0.75f}});
    addAttribute(m, GA::COLOR, draco::DT_UINT8,
                 std::vector<std::array<std::uint8_t, 4>>{
                     {255, 0, 0, 255}, {0, 255, 0, 255}, {0, 0, 255, 255}, {9, 8, 7, 6}});
    m.AddFace({draco::PointIndex(0), draco::PointIndex(1), draco::PointIndex(2)});
    m.AddFace({draco::PointIndex(0), draco::PointIndex(2), draco::PointIndex(3)});
    return encode(m, true, draco::MESH_SEQUENTIAL_ENCODING);
}

DecodeResult decodeDrc(const Bytes& bytes) {
    DecodeOptions options;
    options.fileName = "test.drc";
    return decodeBytes(bytes, options);
}

const Property* findProperty(const Asset& a, int node, const std::string& name) {
    for (const Property& p : a.ownProperties(node))
        if (p.name == name) return &p;
    return nullptr;
}

int findNode(const Asset& a, std::string_view kind) {
    for (int i = 0; i < int(a.nodes.size()); ++i)
        if (a.kind(i) == kind) return i;
    return -1;
}

TEST(DracoFile, AMeshDecodesWithEveryStream) {
    const Bytes bytes = quadMesh();
    ASSERT_GT(bytes.size(), 11u);
    const DecodeResult r = decodeDrc(bytes);
    ASSERT_TRUE(r.ok()) << r.error->message;
    const Asset& a = r.asset;
    EXPECT_EQ(a.format, "draco");
    EXPECT_EQ(a.formatName, "Google Draco");
    EXPECT_EQ(a.version, std::to_string(int(bytes[5])) + "." + std::to_string(int(bytes[6])));
    ASSERT_EQ(a.meshes.size(), 1u);
    const Mesh& m = a.meshes[0];
    EXPECT_EQ(m.primitive, Primitive::Triangles);
    ASSERT_EQ(m.positions.size(), 4u);
    ASSERT_EQ(m.indices.size(), 6u);
    ASSERT_EQ(m.normals.size(), 4u);
    ASSERT_EQ(m.uv0.size(), 4u);
    ASSERT_EQ(m.colors.size(), 4u);
    // Sequential encoding keeps the points in order: each stream is checked point by point.
    for (std::size_t i = 0; i < 4; ++i) {
        EXPECT_NEAR(m.positions[i].x, kQuad[i][0], 1e-3) << i;
        EXPECT_NEAR(m.positions[i].y, kQuad[i][1], 1e-3) << i;
        EXPECT_NEAR(m.normals[i].z, 1.f, 1e-2) << i;
    }
    // V flipped: Draco's 0.75 (up from the bottom) is the core's 0.25 (down from the top).
    EXPECT_NEAR(m.uv0[2].y, 0.25f, 1e-3);
    EXPECT_NEAR(m.uv0[1].y, 1.f, 1e-3);
    EXPECT_EQ(m.colors[0].r, 255);
    EXPECT_EQ(m.colors[3].g, 8);
    EXPECT_EQ(m.colors[3].a, 6);
    ASSERT_EQ(m.lods.size(), 1u);
    EXPECT_EQ(m.lods[0].triangleCount, 2u);
    EXPECT_TRUE(m.bounds.valid());
    EXPECT_NEAR(m.bounds.max.x, 1.f, 1e-3);

    // The header: its fields in the byte map and as properties.
    const int header = findNode(a, "header");
    ASSERT_GE(header, 0);
    const Property* encoding = findProperty(a, header, "encoding");
    ASSERT_NE(encoding, nullptr);
    EXPECT_EQ(std::get<std::string>(encoding->value), "sequential");
    const Property* geometry = findProperty(a, header, "geometry");
    ASSERT_NE(geometry, nullptr);
    EXPECT_EQ(std::get<std::string>(geometry->value), "triangular mesh");
    const ByteRange* flags = nullptr;
    const ByteRange* magic = nullptr;
    for (const ByteRange& range : a.byteMap.ranges()) {
        if (range.path.ends_with("flags")) flags = &range;
        if (range.path.ends_with("magic")) magic = &range;
    }
    ASSERT_NE(flags, nullptr);
    ASSERT_NE(magic, nullptr);
    EXPECT_EQ(flags->offset, 9u);
    EXPECT_EQ(flags->length, 2u);
    EXPECT_EQ(magic->offset, 0u);
    EXPECT_EQ(magic->length, 5u);
    // Every attribute is a node, and the mesh node shows the mesh.
    int attributes = 0;
    for (int i = 0; i < int(a.nodes.size()); ++i) attributes += a.kind(i) == "attribute";
    EXPECT_EQ(attributes, 4);
    const int meshNode = findNode(a, "mesh");
    ASSERT_GE(meshNode, 0);
    EXPECT_EQ(a.links(meshNode).mesh, 0);
}

// Draco metadata (no types: names and bytes) is shown as properties: the geometry's on the
// payload node, each attribute's on its node, sub-metadata as "sub/name"; an attribute's "name"
// names its node too.
TEST(DracoFile, MetadataIsShownOnThePayloadAndItsAttributes) {
    draco::Mesh m;
    m.set_num_points(4);
    addAttribute(m, GA::POSITION, draco::DT_FLOAT32, kQuad);
    const int temperature =
        addAttribute(m, GA::GENERIC, draco::DT_FLOAT32,
                     std::vector<std::array<float, 1>>{{20.f}, {21.f}, {22.f}, {23.f}});
    m.AddFace({draco::PointIndex(0), draco::PointIndex(1), draco::PointIndex(2)});
    m.AddFace({draco::PointIndex(0), draco::PointIndex(2), draco::PointIndex(3)});
    auto meta = std::make_unique<draco::GeometryMetadata>();
    meta->AddEntryString("author", "meshscope test");
    meta->AddEntryInt("revision", -7);
    meta->AddEntryBinary("blob", std::vector<std::uint8_t>{0, 1, 2, 250, 251});
    auto sub = std::make_unique<draco::Metadata>();
    sub->AddEntryString("unit", "kelvin");
    meta->AddSubMetadata("scale", std::move(sub));
    m.AddMetadata(std::move(meta));
    auto att = std::make_unique<draco::AttributeMetadata>();
    att->AddEntryString("name", "temperature");
    m.AddAttributeMetadata(temperature, std::move(att));
    const Bytes bytes = encode(m, true, draco::MESH_SEQUENTIAL_ENCODING);

    const DecodeResult r = decodeDrc(bytes);
    ASSERT_TRUE(r.ok()) << r.error->message;
    const Asset& a = r.asset;
    const int payload = findNode(a, "payload");
    ASSERT_GE(payload, 0);
    EXPECT_EQ(a.name(payload), "metadata and geometry");
    const Property* author = findProperty(a, payload, "metadata.author");
    ASSERT_TRUE(author);
    EXPECT_EQ(author->type, "string");
    EXPECT_EQ(std::get<std::string>(author->value), "meshscope test");
    const Property* revision = findProperty(a, payload, "metadata.revision");
    ASSERT_TRUE(revision);
    EXPECT_EQ(revision->type, "int32");
    EXPECT_EQ(std::get<std::int64_t>(revision->value), -7);
    const Property* blob = findProperty(a, payload, "metadata.blob");
    ASSERT_TRUE(blob);
    EXPECT_EQ(blob->type, "binary");
    EXPECT_EQ(std::get<Bytes>(blob->value), (Bytes{0, 1, 2, 250, 251}));
    const Property* unit = findProperty(a, payload, "metadata.scale/unit");
    ASSERT_TRUE(unit);
    EXPECT_EQ(std::get<std::string>(unit->value), "kelvin");

    int generic = -1;
    for (int i = 0; i < int(a.nodes.size()); ++i)
        if (a.kind(i) == "attribute" && a.name(i).starts_with("GENERIC")) generic = i;
    ASSERT_GE(generic, 0);
    EXPECT_EQ(a.name(generic), "GENERIC \"temperature\" (id " + std::to_string(temperature) + ")");
    const Property* name = findProperty(a, generic, "metadata.name");
    ASSERT_TRUE(name);
    EXPECT_EQ(std::get<std::string>(name->value), "temperature");
    // The position attribute has no metadata of its own.
    const int position = findNode(a, "attribute");
    ASSERT_GE(position, 0);
    EXPECT_EQ(a.name(position), "POSITION (id 0)");
    EXPECT_FALSE(findProperty(a, position, "metadata.name"));
    EXPECT_EQ(a.meshes.size(), 1u);
}

// Metadata past the caps (entries in all, levels of nesting) is counted in a warning, not shown.
TEST(DracoFile, MetadataPastTheCapsIsCountedNotShown) {
    auto decodeWith = [](std::unique_ptr<draco::GeometryMetadata> meta) {
        draco::PointCloud pc;
        pc.set_num_points(4);
        addAttribute(pc, GA::POSITION, draco::DT_FLOAT32, kQuad);
        pc.AddMetadata(std::move(meta));
        return decodeDrc(encode(pc, false, draco::POINT_CLOUD_SEQUENTIAL_ENCODING));
    };
    auto metadataShown = [](const DecodeResult& r) {
        std::vector<std::string> names;
        for (const Property& p : r.asset.ownProperties(findNode(r.asset, "payload")))
            if (p.name.starts_with("metadata.")) names.push_back(p.name);
        return names;
    };
    auto warned = [](const DecodeResult& r) {
        for (const Diagnostic& d : r.asset.diagnostics)
            if (d.message.find("Draco metadata entries") != std::string::npos) return true;
        return false;
    };
    auto many = std::make_unique<draco::GeometryMetadata>();
    for (int i = 0; i < 5000; ++i) many->AddEntryInt("e" + std::to_string(i), i);
    const DecodeResult wide = decodeWith(std::move(many));
    ASSERT_TRUE(wide.ok()) << wide.error->message;
    EXPECT_EQ(metadataShown(wide).size(), kMaxDracoMetadataEntries);
    EXPECT_TRUE(warned(wide));
    EXPECT_EQ(wide.asset.meshes.size(), 1u);

    // 20 levels of sub-metadata, one entry each: 16 levels are walked.
    std::unique_ptr<draco::Metadata> chain;
    for (int level = 20; level >= 1; --level) {
        auto m = std::make_unique<draco::Metadata>();
        m->AddEntryInt("level", level);
        if (chain) m->AddSubMetadata("s", std::move(chain));
        chain = std::move(m);
    }
    auto deep = std::make_unique<draco::GeometryMetadata>();
    deep->AddSubMetadata("s", std::move(chain));
    const DecodeResult nested = decodeWith(std::move(deep));
    ASSERT_TRUE(nested.ok()) << nested.error->message;
    const std::vector<std::string> names = metadataShown(nested);
    ASSERT_EQ(names.size(), 16u);
    EXPECT_EQ(names.front(), "metadata.s/level");
    std::string sixteen = "metadata.";
    for (int i = 0; i < 16; ++i) sixteen += "s/";
    EXPECT_EQ(names.back(), sixteen + "level");
    EXPECT_TRUE(warned(nested));
}

TEST(DracoFile, APointCloudBecomesAMeshOfPoints) {
    std::vector<std::array<float, 3>> positions;
    std::vector<std::array<std::uint8_t, 3>> colours;
    for (int i = 0; i < 50; ++i) {
        positions.push_back({float(i % 5), float(i / 5), float(i % 7) * 0.5f});
        colours.push_back({std::uint8_t(i * 5), std::uint8_t(255 - i), 17});
    }
    for (const int method :
         {draco::POINT_CLOUD_SEQUENTIAL_ENCODING, draco::POINT_CLOUD_KD_TREE_ENCODING}) {
        SCOPED_TRACE(method);
        draco::PointCloud pc;
        pc.set_num_points(50);
        const int pos = addAttribute(pc, GA::POSITION, draco::DT_FLOAT32, positions);
        addAttribute(pc, GA::COLOR, draco::DT_UINT8, colours);
        // The kd-tree encodes quantized positions only (14 bits: 0.0004 over these 6 units).
        const Bytes bytes = encode(pc, false, method, pos);
        const DecodeResult r = decodeDrc(bytes);
        ASSERT_TRUE(r.ok()) << r.error->message;
        ASSERT_EQ(r.asset.meshes.size(), 1u);
        const Mesh& m = r.asset.meshes[0];
        EXPECT_EQ(m.primitive, Primitive::Points);
        ASSERT_EQ(m.positions.size(), 50u);
        ASSERT_EQ(m.indices.size(), 50u);
        ASSERT_EQ(m.colors.size(), 50u);
        EXPECT_EQ(m.triangleCount(), 0u);
        // The kd-tree reorders the points: every point is found with its own colour.
        for (std::size_t i = 0; i < 50; ++i) {
            EXPECT_EQ(m.indices[i], i);
            bool found = false;
            for (std::size_t k = 0; k < 50 && !found; ++k)
                found = std::abs(m.positions[i].x - positions[k][0]) < 1e-3f &&
                        std::abs(m.positions[i].y - positions[k][1]) < 1e-3f &&
                        std::abs(m.positions[i].z - positions[k][2]) < 1e-3f &&
                        m.colors[i].r == colours[k][0] && m.colors[i].g == colours[k][1] &&
                        m.colors[i].b == 17 && m.colors[i].a == 255;
            EXPECT_TRUE(found) << "point " << i;
        }
        const int header = findNode(r.asset, "header");
        ASSERT_GE(header, 0);
        const Property* encoding = findProperty(r.asset, header, "encoding");
        ASSERT_NE(encoding, nullptr);
        EXPECT_EQ(std::get<std::string>(encoding->value),
                  method == draco::POINT_CLOUD_KD_TREE_ENCODING ? "kd-tree" : "sequential");
    }
}

TEST(DracoFile, CutAndDamagedStreamsFailWithoutACrash) {
    const Bytes whole = quadMesh();
    // Inside the header: truncated, at the end of the bytes.
    const Bytes header(whole.begin(), whole.begin() + 8);
    DecodeResult r = decodeDrc(header);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error->code, errc::kTruncated);
    EXPECT_EQ(r.error->offset, 8u);
    // Every cut of the body, and every byte of it flipped: an error or a mesh, never a crash;
    // a mesh's indices stay within its points.
    for (std::size_t cut = 11; cut < whole.size(); ++cut) {
        r = decodeDrc(Bytes(whole.begin(), whole.begin() + std::ptrdiff_t(cut)));
        if (!r.ok()) {
            EXPECT_EQ(r.error->code, errc::kDraco) << cut;
        }
    }
    // Both mesh encodings, every byte flipped several ways (libdraco bounds a mesh's counts by
    // the bytes that follow: no flip may make it ask for gigabytes).
    for (const int method : {draco::MESH_SEQUENTIAL_ENCODING, draco::MESH_EDGEBREAKER_ENCODING}) {
        draco::Mesh m;
        m.set_num_points(4);
        const int pos = addAttribute(m, GA::POSITION, draco::DT_FLOAT32, kQuad);
        addAttribute(m, GA::COLOR, draco::DT_UINT8,
                     std::vector<std::array<std::uint8_t, 4>>(4, {1, 2, 3, 4}));
        m.AddFace({draco::PointIndex(0), draco::PointIndex(1), draco::PointIndex(2)});
        m.AddFace({draco::PointIndex(0), draco::PointIndex(2), draco::PointIndex(3)});
        const Bytes mesh = encode(m, true, method, pos);
        ASSERT_TRUE(decodeDrc(mesh).ok());
        for (std::size_t at = 0; at < mesh.size(); ++at)
            for (const std::uint8_t flip : {0x01, 0x5a, 0xff, 0x80, 0x7f, 0x40}) {
                Bytes bad = mesh;
                bad[at] ^= flip;
                r = decodeDrc(bad);
                for (const Mesh& decoded : r.asset.meshes)
                    for (std::uint32_t i : decoded.indices)
                        ASSERT_LT(i, decoded.positions.size()) << at;
            }
    }
    // The same for a point cloud of each encoding (the kd-tree one is its own decoder).
    for (const int method :
         {draco::POINT_CLOUD_SEQUENTIAL_ENCODING, draco::POINT_CLOUD_KD_TREE_ENCODING}) {
        draco::PointCloud pc;
        pc.set_num_points(40);
        std::vector<std::array<float, 3>> positions;
        std::vector<std::array<std::uint8_t, 3>> colours;
        for (int i = 0; i < 40; ++i) {
            positions.push_back({float(i % 4), float(i / 4) * 0.5f, float(i % 3)});
            colours.push_back({std::uint8_t(i), 7, 9});
        }
        const int pos = addAttribute(pc, GA::POSITION, draco::DT_FLOAT32, positions);
        addAttribute(pc, GA::COLOR, draco::DT_UINT8, colours);
        const Bytes cloud = encode(pc, false, method, pos);
        ASSERT_TRUE(decodeDrc(cloud).ok());
        for (std::size_t cut = 0; cut < cloud.size(); ++cut) {
            r = decodeDrc(Bytes(cloud.begin(), cloud.begin() + std::ptrdiff_t(cut)));
            EXPECT_FALSE(r.ok()) << cut;
        }
        // The point count (an int32 after the 11-byte header) made huge: refused before
        // libdraco sizes its buffers by it (it would ask for 1.5 G points, ~22 GB).
        Bytes huge = cloud;
        huge[14] ^= 0x5a;
        r = decodeDrc(huge);
        ASSERT_FALSE(r.ok());
        EXPECT_EQ(r.error->code, errc::kLimit);
        EXPECT_EQ(r.error->offset, 11u);
        for (std::size_t at = 0; at < cloud.size(); ++at)
            for (const std::uint8_t flip : {0x01, 0x5a, 0xff, 0x80, 0x40}) {
                Bytes bad = cloud;
                bad[at] ^= flip;
                r = decodeDrc(bad);
                for (const Mesh& m : r.asset.meshes)
                    for (std::uint32_t i : m.indices) ASSERT_LT(i, m.positions.size()) << at;
            }
    }
    // A header that names no known geometry.
    Bytes unknown = whole;
    unknown[7] = 5;
    r = decodeDrc(unknown);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error->offset, 7u);
}

// ----------------------------------------------------------------------------------------------
// Draco's own test data

struct ObjMesh {
    std::vector<Vec3> positions;
    std::vector<std::array<std::uint32_t, 3>> triangles;  // polygons fanned
    bool polygons = false;                                // a face of more than 3 corners
};

ObjMesh readObj(const std::filesystem::path& path) {
    ObjMesh obj;
    std::ifstream in(path);
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream s(line);
        std::string tag;
        s >> tag;
        if (tag == "v") {
            Vec3 p;
            s >> p.x >> p.y >> p.z;
            obj.positions.push_back(p);
        } else if (tag == "f") {
            std::vector<std::uint32_t> corners;
            std::string corner;
            while (s >> corner) corners.push_back(std::uint32_t(std::stoul(corner)) - 1);
            obj.polygons = obj.polygons || corners.size() > 3;
            for (std::size_t k = 2; k < corners.size(); ++k)
                obj.triangles.push_back({corners[0], corners[k - 1], corners[k]});
        }
    }
    return obj;
}

float distance(Vec3 a, Vec3 b) {
    return std::sqrt((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y) +
                     (a.z - b.z) * (a.z - b.z));
}

double area(Vec3 a, Vec3 b, Vec3 c) {
    const Vec3 u{b.x - a.x, b.y - a.y, b.z - a.z}, v{c.x - a.x, c.y - a.y, c.z - a.z};
    const double x = double(u.y) * v.z - double(u.z) * v.y;
    const double y = double(u.z) * v.x - double(u.x) * v.z;
    const double z = double(u.x) * v.y - double(u.y) * v.x;
    return 0.5 * std::sqrt(x * x + y * y + z * z);
}

TEST(DracoCorpus, EveryStreamOfDracosTestDataDecodes) {
    MESHSCOPE_REQUIRE_CORPUS(corpus);
    const auto dir = corpus / "draco" / "google_draco" / "testdata";
    if (!std::filesystem::is_directory(dir)) MESHSCOPE_CORPUS_ABSENT(dir.string() + " is absent");
    int files = 0, clouds = 0;
    std::set<std::string> versions;
    for (const auto& e : std::filesystem::directory_iterator(dir)) {
        if (e.path().extension() != ".drc") continue;
        SCOPED_TRACE(e.path().filename().string());
        ++files;
        const DecodeResult r = decodeFile(e.path().string());
        ASSERT_TRUE(r.ok()) << r.error->message;
        EXPECT_EQ(r.asset.format, "draco");
        versions.insert(r.asset.version);
        ASSERT_EQ(r.asset.meshes.size(), 1u);
        const Mesh& m = r.asset.meshes[0];
        EXPECT_GT(m.positions.size(), 0u);
        EXPECT_TRUE(m.bounds.valid());
        if (m.primitive == Primitive::Points) {
            ++clouds;
            EXPECT_EQ(m.indices.size(), m.positions.size());
        } else {
            EXPECT_GT(m.triangleCount(), 0u);
        }
        for (const Diagnostic& d : r.asset.diagnostics) EXPECT_NE(d.severity, Severity::Error);
    }
    EXPECT_GE(files, 19);
    EXPECT_EQ(clouds, 2);  // cube_pc.drc, pc_color.drc
    // Draco's OBJ encoder names the attributes it adds in their metadata: the edges added to
    // split polygons, and the sub-object ids with a sub-object name for each id.
    const DecodeResult octagon = decodeFile((dir / "octagon_preserved.drc").string());
    ASSERT_TRUE(octagon.ok());
    bool addedEdges = false;
    for (int i = 0; i < int(octagon.asset.nodes.size()); ++i)
        addedEdges = addedEdges || octagon.asset.name(i) == "GENERIC \"added_edges\" (id 1)";
    EXPECT_TRUE(addedEdges);
    const DecodeResult sub = decodeFile((dir / "cube_att_sub_o_2.drc").string());
    ASSERT_TRUE(sub.ok());
    int subObjects = -1;
    for (int i = 0; i < int(sub.asset.nodes.size()); ++i)
        if (sub.asset.name(i) == "GENERIC \"sub_obj\" (id 3)") subObjects = i;
    ASSERT_GE(subObjects, 0);
    std::set<std::int64_t> ids;
    for (const Property& p : sub.asset.ownProperties(subObjects))
        if (p.name.starts_with("metadata.") && p.name != "metadata.name" && p.type == "int32")
            ids.insert(std::get<std::int64_t>(p.value));
    EXPECT_EQ(ids, (std::set<std::int64_t>{0, 1, 2}));
    // Bitstreams 1.1 to 2.2 at least.
    EXPECT_TRUE(versions.count("1.1") && versions.count("2.2")) << versions.size();
}

// Each stream made from an OBJ file of the test data holds the same surface: as many triangles
// (polygons fanned), every corner on an OBJ vertex (to the quantization of the encoding, well
// under 1 % of the size), every triangle on an OBJ triangle when the OBJ has triangles only
// (Draco splits a polygon its own way), and the same area.
TEST(DracoCorpus, StreamsAgreeWithTheObjFilesTheyWereMadeFrom) {
    MESHSCOPE_REQUIRE_CORPUS(corpus);
    const auto dir = corpus / "draco" / "google_draco" / "testdata";
    if (!std::filesystem::is_directory(dir)) MESHSCOPE_CORPUS_ABSENT(dir.string() + " is absent");
    int compared = 0;
    for (const auto& e : std::filesystem::directory_iterator(dir)) {
        const std::string name = e.path().filename().string();
        if (e.path().extension() != ".drc") continue;
        std::string stem;
        for (const char* s : {"cube_att", "test_nm", "octagon_preserved"})
            if (name.starts_with(s)) stem = s;
        if (stem.empty() || name.starts_with("cube_att_sub")) continue;
        SCOPED_TRACE(name);
        const ObjMesh obj = readObj(dir / (stem + ".obj"));
        ASSERT_FALSE(obj.triangles.empty());
        const DecodeResult r = decodeFile(e.path().string());
        ASSERT_TRUE(r.ok()) << r.error->message;
        ASSERT_EQ(r.asset.meshes.size(), 1u);
        const Mesh& m = r.asset.meshes[0];
        ASSERT_EQ(m.triangleCount(), obj.triangles.size());
        Bounds box;
        for (const Vec3& p : obj.positions) box.add(p);
        const float tolerance = 0.01f * distance(box.min, box.max);
        double objArea = 0, ourArea = 0;
        for (const auto& t : obj.triangles)
            objArea += area(obj.positions[t[0]], obj.positions[t[1]], obj.positions[t[2]]);
        std::size_t matched = 0;
        for (std::size_t f = 0; f < m.triangleCount(); ++f) {
            const Vec3 c[3] = {m.positions[m.indices[f * 3]], m.positions[m.indices[f * 3 + 1]],
                               m.positions[m.indices[f * 3 + 2]]};
            ourArea += area(c[0], c[1], c[2]);
            for (const Vec3& p : c) {
                bool onVertex = false;
                for (const Vec3& q : obj.positions)
                    onVertex = onVertex || distance(p, q) < tolerance;
                EXPECT_TRUE(onVertex) << "triangle " << f;
            }
            if (obj.polygons) {
                ++matched;
                continue;
            }
            for (const auto& t : obj.triangles) {
                int near = 0;
                for (const Vec3& p : c)
                    for (std::uint32_t k : t)
                        if (distance(p, obj.positions[k]) < tolerance) {
                            ++near;
                            break;
                        }
                if (near == 3) {
                    ++matched;
                    break;
                }
            }
        }
        EXPECT_EQ(matched, m.triangleCount());
        EXPECT_NEAR(ourArea, objArea, 0.01 * objArea);
        ++compared;
    }
    EXPECT_GE(compared, 13);
}

}  // namespace
}  // namespace meshscope
