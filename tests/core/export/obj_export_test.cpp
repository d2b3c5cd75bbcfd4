// OBJ export: v / vt / vn / f line counts follow the chosen LOD, values are the mesh's (V flipped
// to OBJ's upward convention), faces reference the right vertices, and the MTL sits beside.
#include <gtest/gtest.h>

#include <cmath>

#include "export_test_util.h"
#include "meshscope/core/export.h"
#include "meshscope/core/mesh_generators.h"
#include "support/test_support.h"

using namespace meshscope;
using namespace meshscope::test;

namespace {

ExportResult writeObj(const Asset& a, const std::filesystem::path& path, int lod = -1) {
    ExportOptions o;
    o.format = ExportFormat::Obj;
    o.lod = lod;
    return exportAsset(a, path.string(), o);
}

}  // namespace

TEST(ObjExport, LineCountsMatchTheMesh) {
    const auto dir = tempDir("export_obj_counts");
    const Asset a = makeUvSphere(6, 8);
    const Mesh& m = a.meshes[0];
    const auto path = dir / "sphere.obj";
    const ExportResult r = writeObj(a, path);
    ASSERT_TRUE(r.ok()) << r.error.value_or("");
    ASSERT_EQ(r.files.size(), 2u);
    EXPECT_TRUE(std::filesystem::exists(dir / "sphere.mtl"));
    const ObjCounts c = objCounts(path);
    EXPECT_EQ(c.v, m.positions.size());
    EXPECT_EQ(c.vt, m.uv0.size());
    EXPECT_EQ(c.vn, m.normals.size());
    EXPECT_EQ(c.f, m.indices.size() / 3);
    EXPECT_EQ(c.o, 1u);
    // Values: first vertex and UV (flipped), first face (1-based, v/vt/vn all the same index).
    std::ifstream in(path);
    std::string line;
    bool v = false, vt = false, f = false;
    while (std::getline(in, line)) {
        float x, y, z;
        if (!v && std::sscanf(line.c_str(), "v %f %f %f", &x, &y, &z) == 3) {
            EXPECT_EQ((Vec3{x, y, z}), m.positions[0]);  // shortest round-trip formatting
            v = true;
        } else if (!vt && std::sscanf(line.c_str(), "vt %f %f", &x, &y) == 2) {
            EXPECT_FLOAT_EQ(x, m.uv0[0].x);
            EXPECT_FLOAT_EQ(y, 1.0f - m.uv0[0].y);
            vt = true;
        } else if (!f && line.starts_with("f ")) {
            unsigned a1, b1, c1, a2, b2, c2, a3, b3, c3;
            ASSERT_EQ(std::sscanf(line.c_str(), "f %u/%u/%u %u/%u/%u %u/%u/%u", &a1, &b1, &c1, &a2,
                                  &b2, &c2, &a3, &b3, &c3),
                      9);
            EXPECT_EQ(a1, m.indices[0] + 1);
            EXPECT_EQ(a2, m.indices[1] + 1);
            EXPECT_EQ(a3, m.indices[2] + 1);
            EXPECT_EQ(b1, a1);
            EXPECT_EQ(c3, a3);
            f = true;
        }
    }
    EXPECT_TRUE(v && vt && f);
    // The colours and tangents the mesh has are not in OBJ: said once.
    bool warned = false;
    for (const auto& w : r.warnings)
        warned = warned || w.find("no vertex colours") != std::string::npos;
    EXPECT_TRUE(warned);
}

// A point cloud (a Draco stream's) is written as its vertices and one "p" element a point, and
// as a glTF POINTS primitive; a point whose index is past the vertices is left out of both.
TEST(ObjExport, PointCloudsArePointElements) {
    const auto dir = tempDir("export_obj_points");
    Asset a;
    Mesh cloud;
    cloud.name = "cloud";
    cloud.primitive = Primitive::Points;
    for (int i = 0; i < 6; ++i) {
        cloud.positions.push_back({float(i), 0, 0});
        cloud.indices.push_back(std::uint32_t(i));
    }
    cloud.indices.push_back(99);
    cloud.computeBounds();
    a.meshes.push_back(cloud);
    const auto path = dir / "cloud.obj";
    const ExportResult r = writeObj(a, path);
    ASSERT_TRUE(r.ok()) << r.error.value_or("");
    const ObjCounts c = objCounts(path);
    EXPECT_EQ(c.v, 6u);
    EXPECT_EQ(c.p, 6u);
    EXPECT_EQ(c.f, 0u);
    EXPECT_EQ(c.l, 0u);
    EXPECT_EQ(r.stats.points, 6u);
    std::ifstream in(path);
    std::string line;
    std::vector<std::string> elements;
    while (std::getline(in, line))
        if (line.starts_with("p ")) elements.push_back(line);
    ASSERT_EQ(elements.size(), 6u);
    EXPECT_EQ(elements[0], "p 1");
    EXPECT_EQ(elements[5], "p 6");

    const GlbBytes glb = exportGlb(a, ExportOptions{});
    ASSERT_TRUE(glb.report.ok()) << glb.report.error.value_or("");
    tinygltf::Model m;
    std::string err;
    ASSERT_TRUE(loadGlb(glb.bytes, m, err)) << err;
    ASSERT_EQ(m.meshes.size(), 1u);
    const auto& prim = m.meshes[0].primitives[0];
    EXPECT_EQ(prim.mode, TINYGLTF_MODE_POINTS);
    EXPECT_EQ(m.accessors[std::size_t(prim.indices)].count, 6u);
    EXPECT_EQ(glb.report.stats.points, 6u);
    EXPECT_EQ(countWarnings(glb.report, "point(s) with an index beyond"), 1u);
}

TEST(ObjExport, ChosenLodOnly) {
    const auto dir = tempDir("export_obj_lod");
    const Asset a = makeLodSphere(3);
    const Mesh& m = a.meshes[0];
    for (int lod : {0, 1, 2}) {
        const auto path = dir / ("lod" + std::to_string(lod) + ".obj");
        ASSERT_TRUE(writeObj(a, path, lod).ok());
        const Counts expected = expectedMeshCounts(a, lod);
        const ObjCounts c = objCounts(path);
        EXPECT_EQ(c.f, m.lods[std::size_t(lod)].triangleCount) << lod;
        EXPECT_EQ(c.v, expected.vertices) << lod;
        EXPECT_EQ(c.vt, expected.vertices) << lod;
        EXPECT_EQ(c.vn, expected.vertices) << lod;
        // Every face index points inside the written vertices.
        std::ifstream in(path);
        std::string line;
        while (std::getline(in, line)) {
            unsigned i1, i2, i3, j;
            if (std::sscanf(line.c_str(), "f %u/%u/%u %u/%u/%u %u", &i1, &j, &j, &i2, &j, &j,
                            &i3) == 7) {
                EXPECT_GE(std::min({i1, i2, i3}), 1u);
                EXPECT_LE(std::max({i1, i2, i3}), c.v);
            }
        }
    }
    // The default is LOD 0.
    const auto path = dir / "default.obj";
    ASSERT_TRUE(writeObj(a, path).ok());
    EXPECT_EQ(objCounts(path).f, m.lods[0].triangleCount);
}

TEST(ObjExport, MeshWithoutUvsWritesVertexNormalFaces) {
    const auto dir = tempDir("export_obj_nouv");
    Asset a = makeUvSphere(4, 6);
    a.meshes[0].uv0.clear();
    const auto path = dir / "nouv.obj";
    ASSERT_TRUE(writeObj(a, path).ok());
    const ObjCounts c = objCounts(path);
    EXPECT_EQ(c.vt, 0u);
    EXPECT_EQ(c.vn, a.meshes[0].normals.size());
    std::ifstream in(path);
    std::string line;
    while (std::getline(in, line))
        if (line.starts_with("f ")) {
            EXPECT_NE(line.find("//"), std::string::npos) << line;
            break;
        }
}
