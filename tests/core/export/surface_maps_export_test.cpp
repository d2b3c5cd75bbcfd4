// SurfaceAppearance RoughnessMap / MetalnessMap in exports: glTF packs them into one
// metallicRoughnessTexture (roughness G, metalness B), OBJ copies them (map_Pr / map_Pm).
// The images are made here by a small PNG writer (zlib) and read back by a small PNG reader,
// independent of the libpng the exporter uses; the JPEG is test::tinyJpeg().
#include <gtest/gtest.h>
#include <zlib.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "blender_util.h"
#include "export/image_codec.h"
#include "export_test_util.h"
#include "gltf_validator_util.h"
#include "meshscope/core/decode.h"
#include "meshscope/core/export.h"
#include "meshscope/core/mesh_generators.h"
#include "meshscope/core/roblox_model_writer.h"
#include "support/test_support.h"

using namespace meshscope;
using test::countWarnings;
using test::prop;

namespace {

using Bytes = std::vector<std::uint8_t>;

void be32(Bytes& out, std::uint32_t v) {
    for (int s = 24; s >= 0; s -= 8) out.push_back(std::uint8_t(v >> s));
}

void chunk(Bytes& out, const char* type, const Bytes& data) {
    be32(out, std::uint32_t(data.size()));
    Bytes body(type, type + 4);
    body.insert(body.end(), data.begin(), data.end());
    out.insert(out.end(), body.begin(), body.end());
    be32(out, std::uint32_t(crc32(0, body.data(), uInt(body.size()))));
}

// An 8-bit PNG of `channels` 1 (grey) or 3 (RGB), filter 0 on every row; `pixels` may be empty
// for a file whose IDAT holds one byte only (a header that declares more than it stores).
Bytes writePng(std::uint32_t w, std::uint32_t h, int channels, const Bytes& pixels) {
    Bytes out = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};
    Bytes ihdr;
    be32(ihdr, w);
    be32(ihdr, h);
    ihdr.insert(ihdr.end(), {8, std::uint8_t(channels == 3 ? 2 : 0), 0, 0, 0});
    chunk(out, "IHDR", ihdr);
    {
        Bytes raw(pixels.empty() ? 1 : 0, 0);
        for (std::uint32_t y = 0; y < h && !pixels.empty(); ++y) {
            raw.push_back(0);
            const auto row = pixels.begin() + std::ptrdiff_t(std::size_t(y) * w * channels);
            raw.insert(raw.end(), row, row + std::ptrdiff_t(w * channels));
        }
        uLongf size = compressBound(uLong(raw.size()));
        Bytes z(size);
        EXPECT_EQ(compress(z.data(), &size, raw.data(), uLong(raw.size())), Z_OK);
        z.resize(size);
        chunk(out, "IDAT", z);
    }
    chunk(out, "IEND", {});
    return out;
}

std::uint32_t readBe32(const Bytes& b, std::size_t at) {
    return std::uint32_t(b[at]) << 24 | std::uint32_t(b[at + 1]) << 16 |
           std::uint32_t(b[at + 2]) << 8 | b[at + 3];
}

// Reads an 8-bit RGB PNG (any of the five row filters) into RGB bytes; false if it is not one.
bool readRgbPng(const Bytes& png, std::uint32_t& w, std::uint32_t& h, Bytes& rgb) {
    if (png.size() < 33 || png[0] != 0x89 || png[1] != 'P') return false;
    Bytes z;
    std::size_t at = 8;
    while (at + 12 <= png.size()) {
        const std::uint32_t len = readBe32(png, at);
        const std::string type(png.begin() + std::ptrdiff_t(at + 4),
                               png.begin() + std::ptrdiff_t(at + 8));
        if (at + 12 + len > png.size()) return false;
        const auto data = png.begin() + std::ptrdiff_t(at + 8);
        if (type == "IHDR") {
            w = readBe32(png, at + 8);
            h = readBe32(png, at + 12);
            if (data[8] != 8 || data[9] != 2 || data[12] != 0) return false;  // 8-bit RGB
        } else if (type == "IDAT") {
            z.insert(z.end(), data, data + len);
        }
        at += 12 + len;
    }
    const std::size_t stride = std::size_t(w) * 3;
    Bytes raw((stride + 1) * h);
    uLongf size = uLongf(raw.size());
    if (uncompress(raw.data(), &size, z.data(), uLong(z.size())) != Z_OK || size != raw.size())
        return false;
    rgb.assign(stride * h, 0);
    for (std::uint32_t y = 0; y < h; ++y) {
        const std::uint8_t filter = raw[y * (stride + 1)];
        const std::uint8_t* in = &raw[y * (stride + 1) + 1];
        std::uint8_t* row = &rgb[y * stride];
        const std::uint8_t* up = y ? &rgb[(y - 1) * stride] : nullptr;
        for (std::size_t i = 0; i < stride; ++i) {
            const int a = i >= 3 ? row[i - 3] : 0, b = up ? up[i] : 0,
                      c = (up && i >= 3) ? up[i - 3] : 0;
            int pred = 0;
            switch (filter) {
                case 0:
                    pred = 0;
                    break;
                case 1:
                    pred = a;
                    break;
                case 2:
                    pred = b;
                    break;
                case 3:
                    pred = (a + b) / 2;
                    break;
                case 4: {
                    const int p = a + b - c, pa = std::abs(p - a), pb = std::abs(p - b),
                              pc = std::abs(p - c);
                    pred = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
                    break;
                }
                default:
                    return false;
            }
            row[i] = std::uint8_t(in[i] + pred);
        }
    }
    return true;
}

int meshPart(Asset& a, int parent, const char* name, Vec3 pos, std::int64_t material) {
    const int n = a.addNode(name, "MeshPart", parent);
    a.addChild(parent, n);
    CFrame cf;
    cf.position = pos;
    a.addProperty(n, prop("Name", "string", std::string(name)));
    a.addProperty(n, prop("CFrame", "CFrame", cf));
    a.addProperty(n, prop("size", "Vector3", Vec3{2, 2, 2}));
    a.addProperty(n, prop("MeshId", "Content", std::string("rbxassetid://1002")));
    a.addProperty(n, prop("Material", "Enum", material));
    return n;
}

void appearance(Asset& a, int part, const char* roughness, const char* metalness) {
    const int s = a.addNode("SurfaceAppearance", "SurfaceAppearance", part);
    a.addChild(part, s);
    a.addProperty(s, prop("Name", "string", std::string("SurfaceAppearance")));
    if (roughness) a.addProperty(s, prop("RoughnessMap", "Content", std::string(roughness)));
    if (metalness) a.addProperty(s, prop("MetalnessMap", "Content", std::string(metalness)));
}

// Roughness 4×2 (values 10·(i+1)), metalness 2×1 (30, 220): packed 4×2, metalness resampled.
const Bytes kRoughness = {10, 20, 30, 40, 50, 60, 70, 80};
const Bytes kMetalness = {30, 220};

struct Fixture {
    std::filesystem::path folder;
    Asset model;
};

Fixture makeFixture(const std::string& name) {
    Fixture f;
    f.folder = test::tempDir(name);
    std::filesystem::rename(test::writeFileMeshFixture(name + "_m", "m.mesh", makeUvSphere(6, 8)),
                            f.folder / "1002");
    test::writeFile(f.folder / "3001", writePng(4, 2, 1, kRoughness));
    test::writeFile(f.folder / "3002", writePng(2, 1, 1, kMetalness));
    test::writeFile(f.folder / "3003", test::tinyJpeg());
    // Broken: a PNG cut short in its data, and one that declares 9000 × 1 pixels.
    Bytes cut = writePng(4, 2, 1, kRoughness);
    cut.resize(cut.size() - 20);
    test::writeFile(f.folder / "3004", cut);
    test::writeFile(f.folder / "3005", writePng(9000, 1, 1, {}));
    Asset a;
    a.format = "roblox-model";
    const int ws = a.addNode("Workspace", "Workspace");
    appearance(a, meshPart(a, ws, "Both", {0, 0, 0}, 256), "rbxassetid://3001",
               "rbxassetid://3002");
    appearance(a, meshPart(a, ws, "RoughOnly", {4, 0, 0}, 1040), "rbxassetid://3001", nullptr);
    appearance(a, meshPart(a, ws, "MetalOnly", {8, 0, 0}, 272), nullptr, "rbxassetid://3003");
    appearance(a, meshPart(a, ws, "Broken", {12, 0, 0}, 256), "rbxassetid://3004",
               "rbxassetid://3005");
    const RobloxModelWriteResult w = writeRobloxModel(a);
    EXPECT_TRUE(w.ok()) << *w.error;
    const DecodeResult d = decodeBytes(w.bytes);
    EXPECT_FALSE(d.error) << d.error->toString();
    f.model = d.asset;
    return f;
}

TEST(SurfaceMapsExport, GltfPacksRoughnessAndMetalnessIntoOneTexture) {
    const Fixture f = makeFixture("surface_maps_glb");
    ExportOptions options;
    options.assetFolders = {f.folder.string()};
    const GlbBytes glb = exportGlb(f.model, options);
    ASSERT_TRUE(glb.report.ok()) << *glb.report.error;
    tinygltf::Model m;
    std::string err;
    ASSERT_TRUE(test::loadGlb(glb.bytes, m, err)) << err;
    std::map<std::string, const tinygltf::Material*> mats;
    for (const auto& n : m.nodes)
        if (n.mesh >= 0)
            mats[n.name] = &m.materials.at(
                std::size_t(m.meshes.at(std::size_t(n.mesh)).primitives.at(0).material));
    auto packed = [&](const char* part, std::uint32_t& w, std::uint32_t& h, Bytes& rgb) {
        const int t = mats.at(part)->pbrMetallicRoughness.metallicRoughnessTexture.index;
        if (t < 0) return false;
        const auto& image = m.images.at(std::size_t(m.textures.at(std::size_t(t)).source));
        EXPECT_EQ(image.mimeType, "image/png");
        const auto& v = m.bufferViews.at(std::size_t(image.bufferView));
        const auto& data = m.buffers.at(std::size_t(v.buffer)).data;
        const Bytes png(data.begin() + std::ptrdiff_t(v.byteOffset),
                        data.begin() + std::ptrdiff_t(v.byteOffset + v.byteLength));
        return readRgbPng(png, w, h, rgb);
    };
    std::uint32_t w = 0, h = 0;
    Bytes rgb;
    {
        SCOPED_TRACE("Both");
        ASSERT_TRUE(packed("Both", w, h, rgb));
        ASSERT_EQ(w, 4u);
        ASSERT_EQ(h, 2u);
        for (std::uint32_t y = 0; y < 2; ++y)
            for (std::uint32_t x = 0; x < 4; ++x) {
                const std::uint8_t* px = &rgb[(y * 4 + x) * 3];
                EXPECT_EQ(px[0], 255);                    // no occlusion
                EXPECT_EQ(px[1], kRoughness[y * 4 + x]);  // roughness in G
                EXPECT_EQ(px[2], kMetalness[x / 2]);      // metalness in B, nearest
            }
        EXPECT_EQ(mats.at("Both")->pbrMetallicRoughness.roughnessFactor, 1.0);
        EXPECT_EQ(mats.at("Both")->pbrMetallicRoughness.metallicFactor, 1.0);
    }
    {
        // Roughness map alone on CorrodedMetal: B is 255, the factor keeps its metalness 0.6.
        SCOPED_TRACE("RoughOnly");
        ASSERT_TRUE(packed("RoughOnly", w, h, rgb));
        ASSERT_EQ(w * h, 8u);
        for (std::size_t i = 0; i < 8; ++i) {
            EXPECT_EQ(rgb[i * 3 + 1], kRoughness[i]);
            EXPECT_EQ(rgb[i * 3 + 2], 255);
        }
        EXPECT_EQ(mats.at("RoughOnly")->pbrMetallicRoughness.roughnessFactor, 1.0);
        EXPECT_NEAR(mats.at("RoughOnly")->pbrMetallicRoughness.metallicFactor, 0.6, 1e-6);
    }
    {
        // Metalness map alone (a JPEG) on SmoothPlastic: G is 255, roughness factor 0.3.
        SCOPED_TRACE("MetalOnly");
        ASSERT_TRUE(packed("MetalOnly", w, h, rgb));
        ASSERT_EQ(w, 1u);
        ASSERT_EQ(h, 1u);
        EXPECT_EQ(rgb[1], 255);
        // tinyJpeg is #c08040: luminance 0.299·192 + 0.587·128 + 0.114·64 ≈ 140.9 (JPEG loss).
        EXPECT_NEAR(rgb[2], 141, 6);
        EXPECT_NEAR(mats.at("MetalOnly")->pbrMetallicRoughness.roughnessFactor, 0.3, 1e-6);
        EXPECT_EQ(mats.at("MetalOnly")->pbrMetallicRoughness.metallicFactor, 1.0);
    }
    // Broken maps: no texture, the Material's factors, one warning per map with its offset.
    EXPECT_LT(mats.at("Broken")->pbrMetallicRoughness.metallicRoughnessTexture.index, 0);
    EXPECT_NEAR(mats.at("Broken")->pbrMetallicRoughness.roughnessFactor, 0.6, 1e-6);
    EXPECT_EQ(countWarnings(glb.report, "Workspace/Broken/SurfaceAppearance \u203a RoughnessMap"),
              1u);
    EXPECT_EQ(countWarnings(glb.report, "over the 8192x8192 cap"), 1u);
    for (const auto& warning : glb.report.warnings)
        if (warning.find("Broken/SurfaceAppearance") != std::string::npos) {
            EXPECT_EQ(warning.rfind("offset 0x", 0), 0u) << warning;
        }
    // Three distinct packings (Both, RoughOnly, MetalOnly).
    EXPECT_EQ(m.images.size(), 3u);

    test::expectValidGlb(glb.bytes, "surface_maps_glb_out", "maps.glb");
}

// Blender 3.4 (where installed) reads roughness from G and metalness from B.
TEST(SurfaceMapsExport, BlenderReadsTheChannelsWhenInstalled) {
    const Fixture f = makeFixture("surface_maps_blender");
    ExportOptions options;
    options.assetFolders = {f.folder.string()};
    const auto dir = test::tempDir("surface_maps_blender_out");
    const auto file = dir / "maps.glb";
    ASSERT_TRUE(exportAsset(f.model, file.string(), options).ok());
    std::string text;
    const auto report = test::blenderMaterialReport({file}, dir, text);
    if (!report) GTEST_SKIP() << "SKIPPED: Blender cannot run the import here: " << text;
    // "Both": the channels straight into the shader.
    std::string both;
    std::istringstream lines(*report);
    std::string line;
    while (std::getline(lines, line))
        if (line.starts_with("MESHSCOPE-MAT") && line.ends_with("metallic roughness 0"))
            both = line;
    ASSERT_FALSE(both.empty()) << *report;
    EXPECT_NE(both.find("Separate Color.Green->Principled BSDF.Roughness"), std::string::npos)
        << both;
    EXPECT_NE(both.find("Separate Color.Blue->Principled BSDF.Metallic"), std::string::npos)
        << both;
}

TEST(SurfaceMapsExport, ObjWritesMapPrAndMapPm) {
    const Fixture f = makeFixture("surface_maps_obj");
    const auto out = test::tempDir("surface_maps_obj_out");
    ExportOptions options;
    options.format = ExportFormat::Obj;
    options.assetFolders = {f.folder.string()};
    const ExportResult r = exportAsset(f.model, (out / "s.obj").string(), options);
    ASSERT_TRUE(r.ok()) << *r.error;
    std::ifstream in(out / "s.mtl");
    std::stringstream mtl;
    mtl << in.rdbuf();
    std::map<std::string, std::set<std::string>> maps;  // keyword → files
    std::string line;
    while (std::getline(mtl, line))
        for (const char* k : {"map_Pr ", "map_Pm "})
            if (line.rfind(k, 0) == 0) maps[k].insert(line.substr(7));
    // Roughness: 3001 and the cut 3004; metalness: 3002, the JPEG 3003 and 3005 (copied as
    // stored: OBJ readers decode them).
    ASSERT_EQ(maps["map_Pr "].size(), 2u) << mtl.str();
    ASSERT_EQ(maps["map_Pm "].size(), 3u) << mtl.str();
    bool sawRoughness = false;
    for (const std::string& name : maps["map_Pr "]) {
        const Bytes copied = test::readFile(out / name);
        sawRoughness = sawRoughness || copied == writePng(4, 2, 1, kRoughness);
        EXPECT_NE(std::find(r.files.begin(), r.files.end(), (out / name).string()), r.files.end());
    }
    EXPECT_TRUE(sawRoughness);
}

TEST(SurfaceMapsExport, DecoderCapsAndRejectsWithoutCrashing) {
    using namespace meshscope::exporting;
    std::string error;
    // Within the cap: the pixels as written.
    GreyImage g = decodeGreyImage(writePng(4, 2, 1, kRoughness), error);
    ASSERT_EQ(g.width, 4u) << error;
    EXPECT_EQ(g.pixels, kRoughness);
    // RGB to luminance: pure white stays 255, black 0.
    g = decodeGreyImage(writePng(2, 1, 3, {255, 255, 255, 0, 0, 0}), error);
    ASSERT_EQ(g.pixels.size(), 2u) << error;
    EXPECT_EQ(g.pixels[0], 255);
    EXPECT_EQ(g.pixels[1], 0);
    // Over the cap: refused from the header (no IDAT needed).
    g = decodeGreyImage(writePng(8193, 1, 1, {}), error);
    EXPECT_TRUE(g.empty());
    EXPECT_NE(error.find("cap"), std::string::npos) << error;
    // Every truncation of a PNG and of a JPEG: an error or an image, never a crash.
    for (const Bytes& whole : {writePng(4, 2, 1, kRoughness), test::tinyJpeg()})
        for (std::size_t n = 0; n < whole.size(); ++n) {
            const Bytes cut(whole.begin(), whole.begin() + std::ptrdiff_t(n));
            g = decodeGreyImage(cut, error);
            EXPECT_TRUE(!g.empty() || !error.empty()) << n;
            if (!g.empty()) {
                EXPECT_EQ(g.pixels.size(), std::size_t(g.width) * g.height);
            }
        }
    // Every byte of each flipped (headers, lengths, CRCs, Huffman tables, data): no crash, and
    // an image's pixel count matches its size.
    for (const Bytes& whole : {writePng(4, 2, 1, kRoughness), test::tinyJpeg()})
        for (std::size_t n = 0; n < whole.size(); ++n)
            for (const std::uint8_t x : {std::uint8_t(0xFF), std::uint8_t(0x80), std::uint8_t(1)}) {
                Bytes bad = whole;
                bad[n] ^= x;
                g = decodeGreyImage(bad, error);
                EXPECT_TRUE(!g.empty() || !error.empty()) << n;
                if (!g.empty()) {
                    EXPECT_EQ(g.pixels.size(), std::size_t(g.width) * g.height);
                    EXPECT_LE(g.width, kMaxImageSide);
                }
            }
    // Packing: two empty maps give nothing.
    EXPECT_TRUE(packMetallicRoughness({}, {}).rgb.empty());
}

}  // namespace
