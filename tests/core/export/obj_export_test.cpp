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
