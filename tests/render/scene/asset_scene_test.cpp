// Scene building without a window: packing of vertex/index data, one upload per mesh, LOD
// switching by index range only, NaN-safe framing, grid spacing.
#include "meshscope/render/asset_scene.h"

#include <gtest/gtest.h>

#include <Qt3DCore/QBuffer>
#include <Qt3DCore/QEntity>
#include <Qt3DCore/QTransform>
#include <Qt3DRender/QCamera>
#include <Qt3DRender/QGeometryRenderer>
#include <cmath>
#include <cstring>
#include <limits>

#include "meshscope/core/mesh_generators.h"
#include "meshscope/core/roblox_parts.h"
#include "meshscope/render/camera_controller.h"
#include "meshscope/render/ground_grid.h"
#include "meshscope/render/materials.h"
#include "meshscope/render/mesh_packing.h"

using namespace meshscope;
using namespace meshscope::render;

namespace {

// Two triangles, the second one through a NaN vertex, one index out of range, no normals or
// colours.
Mesh brokenQuad() {
    Mesh m;
    m.positions = {
        {0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {std::numeric_limits<float>::quiet_NaN(), 0, 0}};
    m.indices = {0, 1, 2, 0, 3, 7};
    m.computeBounds();
    return m;
}

float floatAt(const QByteArray& bytes, std::size_t vertex, int byteOffset, int component) {
    float f;
    std::memcpy(&f, bytes.constData() + vertex * VertexLayout::kStride + byteOffset + component * 4,
                4);
    return f;
}

}  // namespace

TEST(MeshPacking, InterleavesEveryStreamOfAGeneratedSphere) {
    const Asset asset = makeUvSphere(8, 12, 2.0f);
    ASSERT_EQ(asset.meshes.size(), 1u);
    const Mesh& mesh = asset.meshes[0];
    const PackedMesh packed = packMesh(mesh);
    EXPECT_EQ(packed.vertexCount, mesh.positions.size());
    EXPECT_EQ(std::size_t(packed.vertices.size()), mesh.positions.size() * 28);
    EXPECT_EQ(std::size_t(packed.indices.size()), mesh.indices.size() * 4);
    EXPECT_EQ(packed.clampedIndices, 0u);
    // Vertex 5 carries its own position, normal and colour (bytes) at the documented offsets.
    const std::size_t v = 5;
    EXPECT_EQ(floatAt(packed.vertices, v, VertexLayout::kPositionOffset, 1), mesh.positions[v].y);
    EXPECT_EQ(floatAt(packed.vertices, v, VertexLayout::kNormalOffset, 2), mesh.normals[v].z);
    for (std::size_t i = 0; i < mesh.colors.size(); ++i) {
        const Rgba8 c = mesh.colors[i];
        const std::uint8_t expected[4] = {c.r, c.g, c.b, c.a};
        EXPECT_EQ(std::memcmp(packed.vertices.constData() + i * VertexLayout::kStride +
                                  VertexLayout::kColorOffset,
                              expected, 4),
                  0)
            << i;
    }
    // Every position lies on the sphere of radius 2 (an independent check of the layout).
    for (std::size_t i = 0; i < packed.vertexCount; ++i) {
        const float x = floatAt(packed.vertices, i, 0, 0), y = floatAt(packed.vertices, i, 0, 1),
                    z = floatAt(packed.vertices, i, 0, 2);
        EXPECT_NEAR(std::sqrt(x * x + y * y + z * z), 2.0f, 1e-4f);
    }
}

TEST(MeshPacking, MissingStreamsGetNeutralValuesAndBadIndicesAreClamped) {
    const PackedMesh packed = packMesh(brokenQuad());
    EXPECT_EQ(packed.vertexCount, 4u);
    EXPECT_EQ(packed.clampedIndices, 1u);
    std::uint32_t last;
    std::memcpy(&last, packed.indices.constData() + 5 * 4, 4);
    EXPECT_EQ(last, 0u);
    EXPECT_EQ(floatAt(packed.vertices, 1, VertexLayout::kNormalOffset, 0), 0.f);
    for (int k = 0; k < 4; ++k)
        EXPECT_EQ(std::uint8_t(packed.vertices.at(1 * VertexLayout::kStride +
                                                  VertexLayout::kColorOffset + k)),
                  255)
            << "white";
    ASSERT_EQ(packed.lods.size(), 1u);
    EXPECT_EQ(packed.lods[0], (IndexRange{0, 6}));
}

TEST(MeshPacking, LodRangesFollowTheMeshLevels) {
    const Asset asset = makeLodSphere(3);
    const Mesh& mesh = asset.meshes.at(0);
    ASSERT_EQ(mesh.lods.size(), 3u);
    const PackedMesh packed = packMesh(mesh);
    ASSERT_EQ(packed.lods.size(), 3u);
    std::uint32_t next = 0;
    for (std::size_t l = 0; l < 3; ++l) {
        EXPECT_EQ(packed.lods[l].first, mesh.lods[l].firstTriangle * 3);
        EXPECT_EQ(packed.lods[l].count, mesh.lods[l].triangleCount * 3);
        // The generator stores levels one after another.
        EXPECT_EQ(packed.lods[l].first, next);
        next += packed.lods[l].count;
    }
    EXPECT_EQ(next, mesh.indices.size());
    // Levels get coarser.
    EXPECT_GT(packed.lods[0].count, packed.lods[1].count);
    EXPECT_GT(packed.lods[1].count, packed.lods[2].count);
}

TEST(MeshPacking, LodRangeIsClampedToTheIndexArray) {
    Mesh m = brokenQuad();
    m.lods = {{0, 1, "LOD0"}, {1, 50, "LOD1"}, {9, 1, "LOD2"}};
    EXPECT_EQ(lodRange(m, 0), (IndexRange{0, 3}));
    EXPECT_EQ(lodRange(m, 1), (IndexRange{3, 3}));
    EXPECT_EQ(lodRange(m, 2).count, 0u);
}

TEST(AssetScene, UploadsOneVertexAndOneIndexBufferPerMesh) {
    Qt3DCore::QEntity root;
    AssetScene scene(&root);
    const Asset asset = makeLodSphere(3);
    scene.setAsset(asset);
    ASSERT_EQ(scene.meshCount(), 1);
    const Mesh& mesh = asset.meshes[0];
    EXPECT_EQ(std::size_t(scene.vertexBuffer(0)->data().size()),
              mesh.positions.size() * VertexLayout::kStride);
    EXPECT_EQ(std::size_t(scene.indexBuffer(0)->data().size()), mesh.indices.size() * 4);
    EXPECT_NE(scene.vertexBuffer(0), scene.indexBuffer(0));
    // One entity per mesh under the scene's own root entity.
    const auto entities = root.findChildren<Qt3DCore::QEntity*>();
    EXPECT_TRUE(entities.contains(scene.meshEntity(0)));
    EXPECT_EQ(scene.lodCount(0), 3);

    SceneStats s = scene.stats();
    EXPECT_EQ(s.vertices, mesh.positions.size());
    EXPECT_EQ(s.triangles, mesh.lods[0].triangleCount);
    EXPECT_EQ(s.drawCalls, 1);
}

TEST(AssetScene, APointCloudIsDrawnAsPointsAndCountedAsPoints) {
    Qt3DCore::QEntity root;
    AssetScene scene(&root);
    Asset asset;
    Mesh cloud;
    cloud.name = "point cloud";
    cloud.primitive = Primitive::Points;
    for (int i = 0; i < 10; ++i) {
        cloud.positions.push_back({float(i), float(i % 3), 0});
        cloud.indices.push_back(std::uint32_t(i));
    }
    cloud.computeBounds();
    asset.meshes.push_back(cloud);
    scene.setAsset(asset);
    ASSERT_EQ(scene.meshCount(), 1);
    EXPECT_EQ(scene.meshRenderer(0)->primitiveType(), Qt3DRender::QGeometryRenderer::Points);
    EXPECT_EQ(scene.meshRenderer(0)->vertexCount(), 10);
    const SceneStats s = scene.stats();
    EXPECT_EQ(s.points, 10u);
    EXPECT_EQ(s.triangles, 0u);
    EXPECT_EQ(s.vertices, 10u);
}

TEST(MeshPacking, InstancesCarryTheirTransformAndColour) {
    ShapeInstance a, b;
    for (int i = 0; i < 12; ++i) b.transform[std::size_t(i)] = float(i) + 0.5f;
    b.color = {255, 51, 0, 128};
    const QByteArray packed = packInstances({a, b});
    ASSERT_EQ(packed.size(), 2 * kInstanceStride);
    float f[16];
    std::memcpy(f, packed.constData() + kInstanceStride, sizeof f);
    for (int i = 0; i < 12; ++i) EXPECT_EQ(f[i], float(i) + 0.5f) << i;
    EXPECT_FLOAT_EQ(f[12], 1.0f);
    EXPECT_FLOAT_EQ(f[13], 0.2f);
    EXPECT_FLOAT_EQ(f[14], 0.0f);
    EXPECT_FLOAT_EQ(f[15], 128 / 255.f);
    // In a given order: b's record first.
    const std::uint32_t order[] = {1, 0};
    const QByteArray reordered = packInstances({a, b}, order);
    ASSERT_EQ(reordered.size(), 2 * kInstanceStride);
    EXPECT_EQ(reordered.left(kInstanceStride), packed.mid(kInstanceStride));
    EXPECT_EQ(reordered.mid(kInstanceStride), packed.left(kInstanceStride));
}

// One unit block drawn four times: one upload of its 24 vertices, one instance record each,
// stats and bounds counting every placed copy.
TEST(AssetScene, InstancedMeshCountsEveryCopyAndGrowsTheBounds) {
    Qt3DCore::QEntity root;
    AssetScene scene(&root);
    const Mesh unit = partShapeMesh(PartShape::Block);
    std::vector<ShapeInstance> instances(3);
    for (std::size_t i = 0; i < 3; ++i) {
        RobloxPart p;
        p.size = {2, 4, 6};
        p.cframe.position = {float(i) * 10, 0, 0};
        instances[i].transform = partInstanceTransform(p);
    }
    instances[2].transform[3] = -20;  // the third one at x = -20
    // A fourth at a NaN position (a hostile CFrame) is drawn but leaves the bounds alone.
    instances.push_back(instances[0]);
    instances[3].transform[7] = std::numeric_limits<float>::quiet_NaN();
    const int mesh = scene.addInstancedMesh(unit, instances);
    ASSERT_EQ(mesh, 0);
    ASSERT_EQ(scene.meshCount(), 1);
    EXPECT_EQ(scene.instanceCount(0), 4);
    EXPECT_EQ(std::size_t(scene.vertexBuffer(0)->data().size()),
              unit.positions.size() * VertexLayout::kStride);
    EXPECT_EQ(scene.meshRenderer(0)->instanceCount(), 4);
    const SceneStats s = scene.stats();
    EXPECT_EQ(s.vertices, 4 * unit.positions.size());
    EXPECT_EQ(s.triangles, 4u * 12u);
    EXPECT_EQ(s.drawCalls, 1);
    const Bounds b = scene.bounds();
    EXPECT_FLOAT_EQ(b.min.x, -21);
    EXPECT_FLOAT_EQ(b.max.x, 11);
    EXPECT_FLOAT_EQ(b.min.y, -2);
    EXPECT_FLOAT_EQ(b.max.y, 2);
    EXPECT_FLOAT_EQ(b.max.z, 3);
    scene.setWireframe(true);
    EXPECT_TRUE(scene.meshMaterial(0)->wireframe());
    EXPECT_EQ(scene.stats().drawCalls, 2);
    // A plain mesh after it keeps its own placement.
    scene.setAsset(makeLodSphere(3));
    EXPECT_EQ(scene.instanceCount(0), 0);
    EXPECT_EQ(scene.meshRenderer(0)->instanceCount(), 1);
}

TEST(AssetScene, SwitchingLodChangesOnlyTheDrawnIndexRange) {
    Qt3DCore::QEntity root;
    AssetScene scene(&root);
    const Asset asset = makeLodSphere(3);
    scene.setAsset(asset);
    const Mesh& mesh = asset.meshes[0];
    Qt3DCore::QBuffer* vb = scene.vertexBuffer(0);
    Qt3DCore::QBuffer* ib = scene.indexBuffer(0);
    const QByteArray vertices = vb->data();
    const QByteArray indices = ib->data();

    scene.setLod(0, 2);
    EXPECT_EQ(scene.lod(0), 2);
    Qt3DRender::QGeometryRenderer* r = scene.meshRenderer(0);
    EXPECT_EQ(r->indexBufferByteOffset(), int(mesh.lods[2].firstTriangle * 3 * 4));
    EXPECT_EQ(r->vertexCount(), int(mesh.lods[2].triangleCount * 3));
    EXPECT_EQ(r->indexOffset(), 0);  // base vertex stays 0
    // Same buffers, same bytes: nothing was uploaded again.
    EXPECT_EQ(scene.vertexBuffer(0), vb);
    EXPECT_EQ(scene.indexBuffer(0), ib);
    EXPECT_EQ(vb->data(), vertices);
    EXPECT_EQ(ib->data(), indices);
    EXPECT_EQ(scene.stats().triangles, mesh.lods[2].triangleCount);

    scene.setLod(0, 99);  // clamped
    EXPECT_EQ(scene.lod(0), 2);
    scene.setLod(0, -4);
    EXPECT_EQ(scene.lod(0), 0);
    EXPECT_EQ(r->indexBufferByteOffset(), 0);
    EXPECT_EQ(r->vertexCount(), int(mesh.lods[0].triangleCount * 3));
}

TEST(AssetScene, HighlightAndWireframeReachTheMaterial) {
    Qt3DCore::QEntity root;
    AssetScene scene(&root);
    scene.setAsset(makeUvSphere());
    scene.setHighlightedMesh(0);
    EXPECT_TRUE(scene.meshMaterial(0)->highlighted());
    scene.setHighlightedMesh(-1);
    EXPECT_FALSE(scene.meshMaterial(0)->highlighted());
    scene.setWireframe(true);
    EXPECT_TRUE(scene.meshMaterial(0)->wireframe());
    EXPECT_EQ(scene.stats().drawCalls, 2);  // fill + lines pass
}

TEST(AssetScene, NanVerticesDoNotPoisonBoundsOrFraming) {
    Asset asset;
    asset.meshes.push_back(brokenQuad());
    Qt3DCore::QEntity root;
    AssetScene scene(&root);
    scene.setAsset(asset);
    const Bounds b = scene.bounds();
    ASSERT_TRUE(b.valid());
    EXPECT_EQ(b.min.x, 0.f);
    EXPECT_EQ(b.max.x, 1.f);

    Qt3DRender::QCamera camera;
    camera.lens()->setPerspectiveProjection(40.f, 1.f, 0.1f, 100.f);
    CameraController controller(&camera);
    controller.fit(b, true);
    const QVector3D eye = camera.position();
    EXPECT_TRUE(std::isfinite(eye.x()) && std::isfinite(eye.y()) && std::isfinite(eye.z()));
    EXPECT_NEAR(camera.viewCenter().x(), 0.5f, 1e-5f);
    EXPECT_NEAR(camera.viewCenter().y(), 0.5f, 1e-5f);
}

TEST(CameraController, FramingKeepsTheBoundingSphereInsideTheFieldOfView) {
    Bounds b;
    b.add(Vec3{-1, -2, -3});
    b.add(Vec3{5, 4, 3});
    for (float aspect : {0.5f, 1.0f, 2.0f}) {
        const OrbitState s = OrbitState::framing(b, 40.f, aspect);
        const float radius = 0.5f * std::sqrt(6.f * 6.f + 6.f * 6.f + 6.f * 6.f);
        EXPECT_NEAR(s.radius, radius, 1e-4f);
        const float halfV = 20.f * float(M_PI) / 180.f;
        const float halfH = std::atan(std::tan(halfV) * aspect);
        // Sphere of `radius` at `distance` subtends asin(r / d) ≤ both half angles.
        EXPECT_LE(std::asin(radius / s.distance), std::min(halfV, halfH) + 1e-5f);
        EXPECT_NEAR((s.eye() - s.target).length(), s.distance, 1e-3f);
    }
}

TEST(CameraController, BoxFitKeepsEveryCornerInViewAndComesCloserForAFlatPlace) {
    // A flat place, 400 x 4 x 200 studs, seen from the default angles at three aspects.
    Bounds b;
    b.add(Vec3{-200, 0, -100});
    b.add(Vec3{200, 4, 100});
    for (float aspect : {0.75f, 1.43f, 2.0f}) {
        OrbitState s = OrbitState::framing(b, 45.f, aspect);
        const float sphere = s.distance;
        s.distance = s.boxFitDistance(b, 45.f, aspect);
        // Landscape views come much closer; a portrait one is held by the box's width.
        EXPECT_LE(s.distance, sphere) << "aspect " << aspect;
        if (aspect > 1.f) {
            EXPECT_LT(s.distance, 0.8f * sphere) << "aspect " << aspect;
        }
        // Every corner projects inside the view; at least one comes near an edge.
        QMatrix4x4 view;
        view.lookAt(s.eye(), s.target, s.upVector());
        QMatrix4x4 projection;
        projection.perspective(45.f, aspect, s.distance * 1e-3f, s.distance * 10.f);
        float extreme = 0;
        for (int c = 0; c < 8; ++c) {
            const QVector3D corner(c & 1 ? b.max.x : b.min.x, c & 2 ? b.max.y : b.min.y,
                                   c & 4 ? b.max.z : b.min.z);
            const QVector3D ndc = projection.map(view.map(corner));
            EXPECT_LE(std::abs(ndc.x()), 1.f) << "corner " << c << " aspect " << aspect;
            EXPECT_LE(std::abs(ndc.y()), 1.f) << "corner " << c << " aspect " << aspect;
            extreme = std::max({extreme, std::abs(ndc.x()), std::abs(ndc.y())});
        }
        EXPECT_GT(extreme, 0.85f) << "aspect " << aspect;  // the fit leaves a 1/1.12 border
    }
    // A cube seen from any angle is never framed further out than its bounding sphere.
    Bounds cube;
    cube.add(Vec3{-1, -1, -1});
    cube.add(Vec3{1, 1, 1});
    OrbitState c = OrbitState::framing(cube, 45.f, 1.f);
    EXPECT_LE(c.boxFitDistance(cube, 45.f, 1.f), c.distance);
}

TEST(CameraController, OrbitKeepsDistanceAndZoomMovesTowardsTheTarget) {
    Qt3DRender::QCamera camera;
    CameraController c(&camera);
    Bounds b;
    b.add(Vec3{-1, -1, -1});
    b.add(Vec3{1, 1, 1});
    c.fit(b, true);
    const float d = c.state().distance;
    c.orbit(120, -40);
    EXPECT_NEAR((camera.position() - camera.viewCenter()).length(), d, 1e-3f);
    c.zoom(2);
    EXPECT_LT(c.state().distance, d);
    c.orbit(0, 10000);  // pitch is clamped short of the pole
    EXPECT_LE(c.state().pitchDegrees, 89.f);
}

TEST(GroundGrid, SpacingFollowsTheAssetSize) {
    Bounds b;
    b.add(Vec3{0, -3, 0});
    b.add(Vec3{10, 1, 4});
    const GridLayout g = GridLayout::forBounds(b);
    EXPECT_FLOAT_EQ(g.spacing, 1.f);
    EXPECT_FLOAT_EQ(g.y, -3.f);
    Bounds small;
    small.add(Vec3{0, 0, 0});
    small.add(Vec3{0.2f, 0.1f, 0.1f});
    EXPECT_FLOAT_EQ(GridLayout::forBounds(small).spacing, 0.01f);
}

TEST(CameraController, ZUpAssetsAreOrbitedAboutZAsTheirYUpTurnIs) {
    Bounds b;
    b.add(Vec3{-1, -1, 0});
    b.add(Vec3{1, 1, 4});
    Qt3DRender::QCamera yCamera, zCamera;
    CameraController y(&yCamera), z(&zCamera);
    z.setUpAxis(UpAxis::Z);
    y.fit(b, true);
    z.fit(b, true);
    EXPECT_EQ(zCamera.upVector(), QVector3D(0, 0, 1));
    EXPECT_EQ(yCamera.upVector(), QVector3D(0, 1, 0));
    // Above the horizon means higher in Z; the view is the Y-up view turned back.
    const QVector3D dz = zCamera.position() - zCamera.viewCenter();
    const QVector3D dy = yCamera.position() - yCamera.viewCenter();
    EXPECT_GT(dz.z(), 0.1f * dz.length());
    // (Directions only: the box fit's distance depends on how the box lies in each view.)
    const QVector3D ny = dy.normalized();
    const Vec3 expected = fromYUp(UpAxis::Z, Vec3{ny.x(), ny.y(), ny.z()});
    const QVector3D nz = dz.normalized();
    EXPECT_NEAR(nz.x(), expected.x, 1e-4f);
    EXPECT_NEAR(nz.y(), expected.y, 1e-4f);
    EXPECT_NEAR(nz.z(), expected.z, 1e-4f);
    // Orbiting sideways turns about Z: the height above the target stays.
    z.orbit(90, 0);
    EXPECT_NEAR((zCamera.position() - zCamera.viewCenter()).z(), dz.z(), 1e-3f);
    // Panning up moves the target along +Z's side of the screen, never sideways out of it.
    const QVector3D before = zCamera.viewCenter();
    z.pan(0, 50, 500);
    EXPECT_GT(zCamera.viewCenter().z(), before.z());
    // A new fit keeps the axis; the default yaw is the one set for the asset's front.
    z.setDefaultYaw(325.f);
    z.fit(b, true);
    EXPECT_EQ(zCamera.upVector(), QVector3D(0, 0, 1));
    EXPECT_FLOAT_EQ(z.state().yawDegrees, 325.f);
}

TEST(GroundGrid, LiesUnderZUpAssetsInTheirXYPlane) {
    Bounds b;
    b.add(Vec3{0, -3, -2});
    b.add(Vec3{10, 1, 4});
    GroundGrid grid;
    grid.setBounds(b, UpAxis::Z);
    // Laid out for the asset turned Y-up: its floor is the lowest Z.
    EXPECT_FLOAT_EQ(grid.layout().y, -2.f);
    Qt3DCore::QTransform* t = nullptr;
    for (auto* c : grid.components())
        if ((t = qobject_cast<Qt3DCore::QTransform*>(c))) break;
    ASSERT_NE(t, nullptr);
    // The turn back maps the grid's y = floor plane onto z = floor.
    const QVector3D onGrid = t->matrix().map(QVector3D(3, grid.layout().y, 5));
    EXPECT_NEAR(onGrid.z(), -2.f, 1e-5f);
    grid.setBounds(b, UpAxis::Y);
    EXPECT_FLOAT_EQ(grid.layout().y, -3.f);
    EXPECT_TRUE(t->matrix().isIdentity());
}
