// Writes fuzzing seeds made by the project's own writers: small files of every version and
// feature of each format, one folder per fuzz target (roblox_mesh/, roblox_model/, ...).
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "meshscope/core/mesh_generators.h"
#include "meshscope/core/roblox_csg.h"
#include "meshscope/core/roblox_mesh_writer.h"
#include "meshscope/core/roblox_model_writer.h"
#include "meshscope/core/roblox_terrain.h"
#include "meshscope/core/secondlife_writer.h"
#include "meshscope/core/unigine_writer.h"

using namespace meshscope;
namespace fs = std::filesystem;

namespace {

void save(const fs::path& dir, const std::string& name, const Bytes& bytes) {
    fs::create_directories(dir);
    std::ofstream(dir / name, std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
}

void fileMeshSeeds(const fs::path& dir) {
    const std::pair<const char*, Asset> assets[] = {
        {"sphere", makeUvSphere(4, 6)},
        {"skinned", makeSkinnedCylinder(3, 3, 5)},
        {"lods", makeLodSphere(3)},
        {"facs", makeFacsHead()},
    };
    for (const char* version : {"2.00", "3.00", "3.01", "4.00", "4.01", "5.00", "6.00", "7.00"}) {
        for (const auto& [name, asset] : assets) {
            FileMeshWriteOptions options;
            options.version = version;
            auto r = writeFileMesh(asset, 0, options);
            if (r.ok()) save(dir, std::string(name) + "-" + version + ".mesh", r.bytes);
        }
    }
}

void robloxModelSeeds(const fs::path& dir) {
    const Asset types = makeRobloxTypesModel();
    const Asset place = makeRobloxPlace(20);
    for (auto compression : {RobloxChunkCompression::None, RobloxChunkCompression::Lz4,
                             RobloxChunkCompression::Zstd}) {
        RobloxModelWriteOptions options;
        options.compression = compression;
        const std::string suffix = std::to_string(int(compression)) + ".rbxm";
        if (auto r = writeRobloxModel(types, options); r.ok())
            save(dir, "types-" + suffix, r.bytes);
        if (auto r = writeRobloxModel(place, options); r.ok())
            save(dir, "place-" + suffix, r.bytes);
    }
}

// An XML model with a property of every type the XML decoder reads, referents between items,
// SharedStrings and base64: the roblox_model_xml target has no writer to make its seeds.
void robloxXmlSeeds(const fs::path& dir) {
    const std::string model =
        R"(<roblox xmlns:xmime="http://www.w3.org/2005/05/xmlmime" version="4">
<External>null</External><External>nil</External>
<Item class="Model" referent="RBX0">
<Properties>
<string name="Name">Seed</string>
<Ref name="PrimaryPart">RBX1</Ref>
<OptionalCoordinateFrame name="WorldPivotData"><CFrame><X>1</X><Y>2</Y><Z>3</Z><R00>1</R00><R01>0</R01><R02>0</R02><R10>0</R10><R11>1</R11><R12>0</R12><R20>0</R20><R21>0</R21><R22>1</R22></CFrame></OptionalCoordinateFrame>
<BinaryString name="AttributesSerialize">AQAAAAQAAABTZWVkAwAAAAAAAADwPw==</BinaryString>
<SecurityCapabilities name="Capabilities">3</SecurityCapabilities>
<UniqueId name="UniqueId">44b188dace632b4702e9c68d004815fc</UniqueId>
</Properties>
<Item class="Part" referent="RBX1">
<Properties>
<string name="Name">Block</string>
<bool name="Anchored">true</bool>
<CoordinateFrame name="CFrame"><X>0</X><Y>5</Y><Z>0</Z><R00>1</R00><R01>0</R01><R02>0</R02><R10>0</R10><R11>1</R11><R12>0</R12><R20>0</R20><R21>0</R21><R22>1</R22></CoordinateFrame>
<Vector3 name="size"><X>4</X><Y>1.2</Y><Z>2</Z></Vector3>
<Color3uint8 name="Color3uint8">4288914085</Color3uint8>
<Color3 name="Color"><R>1</R><G>0.5</G><B>0</B></Color3>
<int name="BrickColor">194</int>
<BrickColor name="BrickColorOld">21</BrickColor>
<token name="shape">1</token>
<float name="Transparency">0.25</float>
<double name="Mass">1.5</double>
<int64 name="SourceAssetId">-1</int64>
<PhysicalProperties name="CustomPhysicalProperties"><CustomPhysics>true</CustomPhysics><Density>0.7</Density><Friction>0.3</Friction><Elasticity>0.5</Elasticity><FrictionWeight>1</FrictionWeight><ElasticityWeight>1</ElasticityWeight><AcousticAbsorption>1</AcousticAbsorption></PhysicalProperties>
<Faces name="Faces"><faces>63</faces></Faces>
<Axes name="Axes"><axes>7</axes></Axes>
<Ray name="Ray"><origin><X>0</X><Y>0</Y><Z>0</Z></origin><direction><X>0</X><Y>-1</Y><Z>0</Z></direction></Ray>
<Vector3int16 name="Cell"><X>1</X><Y>-2</Y><Z>3</Z></Vector3int16>
<SharedString name="PhysicsData">k8Shp5lQ6w0uEm0yNPnT0A==</SharedString>
<ProtectedString name="Source"><![CDATA[print("seed")]]></ProtectedString>
<BinaryString name="Tags">YQBi</BinaryString>
</Properties>
<Item class="SpecialMesh" referent="RBX2">
<Properties>
<Content name="MeshId"><url>rbxassetid://1</url></Content>
<Content name="TextureId"><null></null></Content>
<ContentId name="MeshContent"><uri>rbxassetid://2</uri></ContentId>
<Vector3 name="Scale"><X>1</X><Y>1</Y><Z>1</Z></Vector3>
</Properties>
</Item>
</Item>
<Item class="Frame" referent="RBX3">
<Properties>
<UDim2 name="Size"><XS>0.5</XS><XO>10</XO><YS>1</YS><YO>-4</YO></UDim2>
<UDim name="PaddingTop"><S>0</S><O>2</O></UDim>
<Vector2 name="AnchorPoint"><X>0.5</X><Y>0.5</Y></Vector2>
<Vector2int16 name="Offset"><X>-3</X><Y>7</Y></Vector2int16>
<Rect2D name="SliceCenter"><min><X>1</X><Y>2</Y></min><max><X>3</X><Y>4</Y></max></Rect2D>
<NumberSequence name="Transparency">0 0 0 0.5 1 0.2 1 0 0 </NumberSequence>
<ColorSequence name="Color">0 1 0 0 0 1 0 0 1 0 </ColorSequence>
<NumberRange name="Lifetime">1 2 </NumberRange>
<Font name="FontFace"><Family><url>rbxasset://fonts/families/SourceSansPro.json</url></Family><Weight>400</Weight><Style>Normal</Style><CachedFaceId><url>rbxasset://fonts/SourceSansPro-Regular.ttf</url></CachedFaceId></Font>
<NetAssetRef name="Asset">k8Shp5lQ6w0uEm0yNPnT0A==</NetAssetRef>
<Ref name="NextSelectionUp">RBX1</Ref>
<Ref name="NextSelectionDown">null</Ref>
</Properties>
</Item>
</Item>
<SharedStrings>
<SharedString md5="k8Shp5lQ6w0uEm0yNPnT0A==">AAECAwQFBgcICQ==</SharedString>
</SharedStrings>
</roblox>
)";
    save(dir, "types.rbxmx", Bytes(model.begin(), model.end()));
}

Asset renamed(Asset asset, const char* meshName) {
    asset.meshes.at(0).name = meshName;
    return asset;
}

void secondLifeSeeds(const fs::path& dir) {
    if (auto r = writeSecondLifeMesh(renamed(makeUvSphere(4, 6), "high_lod")); r.ok())
        save(dir, "sphere.llmesh", r.bytes);
    Asset skinned = renamed(makeSkinnedCylinder(3, 3, 5), "high_lod");
    SecondLifeWriteOptions options;
    options.llsdHeader = true;
    if (auto r = writeSecondLifeMesh(skinned, options); r.ok())
        save(dir, "skinned.llmesh", r.bytes);
}

void unigineSeeds(const fs::path& dir) {
    if (auto r = writeUnigineMesh(makeUvSphere(4, 6)); r.ok()) save(dir, "sphere.mesh", r.bytes);
    Asset skinned = makeSkinnedCylinder(3, 3, 5);
    if (auto r = writeUnigineSkinnedMesh(skinned); r.ok()) save(dir, "tube.smesh", r.bytes);
    // A two-frame animation of the tube's bones.
    Animation anim;
    anim.name = "bend";
    anim.frameCount = 2;
    anim.skeleton = 0;
    for (const auto& bone : skinned.skeletons.at(0).bones) {
        BoneTrack t;
        t.bone = bone.name;
        t.positions = {{0, 0, 0}, {0, 0.5f, 0}};
        t.rotations = {{0, 0, 0, 1}, {0, 0.38268343f, 0, 0.92387953f}};
        t.scales = {{1, 1, 1}, {1, 1, 1}};
        anim.tracks.push_back(t);
    }
    skinned.animations.push_back(anim);
    if (auto r = writeUnigineAnimation(skinned, 0); r.ok()) save(dir, "bend.sanim", r.bytes);
    // UNIGINE 2: static meshes in each decoded version, the skinned tube with its animation
    // embedded (ms11), and the animation alone (an10).
    for (const char* v : {"ms10", "ms11", "ms14", "ms15"})
        if (auto r = writeUnigine2Mesh(makeUvSphere(4, 6), v); r.ok())
            save(dir, std::string("sphere_") + v + ".mesh", r.bytes);
    if (auto r = writeUnigine2Mesh(skinned, "ms11"); r.ok()) save(dir, "tube_ms11.mesh", r.bytes);
    // Morph targets (blend shapes, with normal deltas) in every version that holds them.
    Asset morph = makeUvSphere(4, 6);
    for (Mesh& m : morph.meshes) {
        MorphTarget grow{"grow", {}, {}};
        for (std::size_t v = 0; v < m.positions.size(); ++v) {
            grow.positionDeltas.push_back(m.positions[v] * 0.25f);
            grow.normalDeltas.push_back({0, 0, 0});
        }
        m.morphTargets = {
            grow, MorphTarget{"lift", std::vector<Vec3>(m.positions.size(), Vec3{0, 0, 1}), {}}};
    }
    for (const char* v : {"ms10", "ms11", "ms14"})
        if (auto r = writeUnigine2Mesh(morph, v); r.ok())
            save(dir, std::string("morph_") + v + ".mesh", r.bytes);
    if (auto r = writeUnigine2Mesh(morph, "sk10"); r.ok()) save(dir, "morph.mesh_skinned", r.bytes);
    if (auto r = writeUnigine2Animation(skinned, 0); r.ok()) save(dir, "bend.anim", r.bytes);
    // The documented 2.19+ formats: sk10 .mesh_skinned, sn10 .skeleton, an12 .anim.
    if (auto r = writeUnigine2Mesh(skinned, "sk10"); r.ok())
        save(dir, "tube.mesh_skinned", r.bytes);
    if (auto r = writeUnigine2Skeleton(skinned, 0); r.ok()) save(dir, "tube.skeleton", r.bytes);
    if (auto r = writeUnigine2AnimationAn12(skinned, 0); r.ok())
        save(dir, "bend_an12.anim", r.bytes);
}

// SmoothGrid blobs (the terrain target): a hill with water and shorelines, two chunks apart.
void terrainSeeds(const fs::path& dir) {
    auto chunk = [](int x, int y, int z) {
        TerrainChunkVoxels c;
        c.x = x;
        c.y = y;
        c.z = z;
        c.voxels.assign(32 * 32 * 32, TerrainVoxel{});
        return c;
    };
    std::vector<TerrainChunkVoxels> cs{chunk(0, 0, 0), chunk(1, 0, -1)};
    for (int z = 0; z < 32; ++z)
        for (int x = 0; x < 32; ++x) {
            const int h = 3 + (x * z) % 7;
            for (int y = 0; y < h; ++y)
                cs[0].voxels[std::size_t((y * 32 + z) * 32 + x)] = TerrainVoxel{
                    std::uint8_t(2 + (x + y) % 21), std::uint8_t(y + 1 == h ? 140 : 255),
                    std::uint8_t(y + 1 == h && x % 5 == 0 ? 90 : 0)};
            for (int y = h; y < 8; ++y)
                cs[0].voxels[std::size_t((y * 32 + z) * 32 + x)] = TerrainVoxel{1, 255, 0};
        }
    cs[1].voxels[100] = TerrainVoxel{8, 200, 0};
    const std::string hill = writeSmoothGrid(cs);
    save(dir, "hill.smoothgrid", Bytes(hill.begin(), hill.end()));
    const std::string one = writeSmoothGrid({&cs[1], 1});
    save(dir, "one.smoothgrid", Bytes(one.begin(), one.end()));
}

}  // namespace

// CSG union blobs: graphics versions 2 and 4, physics versions 3 and 5.
void csgSeeds(const fs::path& dir) {
    const Asset sphere = makeUvSphere(4, 6);
    const Mesh& m = sphere.meshes.at(0);
    save(dir, "union-2.meshdata", writeCsgGraphics(m, {.version = 2}));
    save(dir, "union-4.meshdata", writeCsgGraphics(m, {.version = 4, .extra = {1, 2}}));
    save(dir, "hulls-3.data", writeCsgPhysics({m, m}, 3));
    save(dir, "hulls-5.data", writeCsgPhysics({m}, 5));
    const std::string csgk = "CSGK0123456789abcdef0123456789abcdef";
    save(dir, "reference.data", Bytes(csgk.begin(), csgk.end()));
}

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: make_seeds DIR\n");
        return 2;
    }
    const fs::path root = argv[1];
    fileMeshSeeds(root / "roblox_mesh");
    robloxModelSeeds(root / "roblox_model");
    robloxXmlSeeds(root / "roblox_model_xml");
    secondLifeSeeds(root / "secondlife");
    unigineSeeds(root / "unigine");
    csgSeeds(root / "roblox_csg");
    terrainSeeds(root / "terrain");
    return 0;
}
