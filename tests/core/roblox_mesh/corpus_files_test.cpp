// Every real FileMesh in corpus/roblox-mesh decodes, with its counts checked against
// corpus/MANIFEST.md (header fields read by an independent script) and the quirks of particular
// samples (FORMAT-NOTES): NaN vertices, the random padding byte, Draco point count = skin
// envelope count, FACS columns = controls + correctives.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>

#include "meshscope/core/decode.h"
#include "meshscope/core/error_codes.h"
#include "support/test_support.h"

namespace meshscope {
namespace {

namespace fs = std::filesystem;

struct ManifestEntry {
    std::string path;   // under corpus/
    std::string notes;  // "roblox-mesh v4.01 hdr=24 lodType=4 verts=3165 ..."
    std::map<std::string, long> fields;
    std::string version;
};

std::vector<ManifestEntry> readManifest(const fs::path& corpus) {
    std::ifstream in(corpus / "MANIFEST.md");
    std::vector<ManifestEntry> out;
    std::string line;
    const std::regex row(R"(^\| `(roblox-mesh/[^`]+)` \|[^|]*\|[^|]*\|[^|]*\|[^|]*\| ([^|]+) \|)");
    const std::regex kv(R"(\b([a-zA-Z]+)=(\d+)\b)");
    const std::regex ver(R"(roblox-mesh v(\d\.\d\d))");
    while (std::getline(in, line)) {
        std::smatch m;
        if (!std::regex_search(line, m, row)) continue;
        ManifestEntry e{m[1], m[2], {}, {}};
        for (std::sregex_iterator it(e.notes.begin(), e.notes.end(), kv), end; it != end; ++it)
            e.fields[(*it)[1]] = std::stol((*it)[2]);
        if (std::regex_search(e.notes, m, ver)) e.version = m[1];
        out.push_back(std::move(e));
    }
    return out;
}

DecodeResult decodeCorpus(const fs::path& corpus, const std::string& rel) {
    return decodeFile((corpus / rel).string());
}

bool hasWarning(const Asset& a, const std::string& code) {
    for (const auto& d : a.diagnostics)
        if (d.code == code && d.severity == Severity::Warning) return true;
    return false;
}

TEST(FileMeshCorpus, EveryFileDecodesWithTheManifestCounts) {
    MESHSCOPE_REQUIRE_CORPUS(corpus);
    const auto manifest = readManifest(corpus);
    ASSERT_GE(manifest.size(), 22u) << "MANIFEST.md lists 22 roblox-mesh files";
    std::size_t files = 0;
    for (const auto& entry : fs::recursive_directory_iterator(corpus / "roblox-mesh"))
        files += entry.is_regular_file();
    EXPECT_EQ(files, manifest.size()) << "every real FileMesh is in the manifest";

    for (const auto& e : manifest) {
        SCOPED_TRACE(e.path + ": " + e.notes);
        const DecodeResult r = decodeCorpus(corpus, e.path);
        ASSERT_TRUE(r.ok()) << r.error->toString();
        const Asset& a = r.asset;
        EXPECT_EQ(a.format, "roblox-mesh");
        EXPECT_EQ(a.version, e.version);
        ASSERT_EQ(a.meshes.size(), 1u);
        const Mesh& m = a.meshes[0];
        EXPECT_EQ(m.name, "FileMesh");
        EXPECT_GT(m.vertexCount(), 0u);
        EXPECT_TRUE(m.bounds.valid());
        const auto f = [&](const char* k) { return e.fields.count(k) ? e.fields.at(k) : -1; };
        if (e.version[0] == '1') {
            // v1: three stored vertices per face.
            EXPECT_EQ(long(m.triangleCount()), f("faces"));
            EXPECT_EQ(long(m.vertexCount()), 3 * f("faces"));
        }
        if (f("verts") >= 0) {
            EXPECT_EQ(long(m.vertexCount()), f("verts"));
        }
        if (f("faces") >= 0) {
            EXPECT_EQ(long(m.triangleCount()), f("faces"));
        }
        if (f("vsize") == 36) {
            EXPECT_TRUE(m.colors.empty());
        }
        if (f("lods") >= 0) {
            EXPECT_EQ(long(m.lodOffsets.size()), f("lods"));
        }
        if (f("bones") >= 0) {
            const long bones = a.skeletons.empty() ? 0 : long(a.skeletons[0].bones.size());
            EXPECT_EQ(bones, f("bones"));
            EXPECT_EQ(m.skinned(), f("bones") > 0);
        }
        if (f("subsets") >= 0) {
            EXPECT_EQ(long(m.surfaces.size()), f("subsets"));
        }
        EXPECT_FALSE(m.lods.empty());
        // The resolved LODs stay inside the index buffer.
        for (const auto& l : m.lods)
            EXPECT_LE(l.firstTriangle + l.triangleCount, m.triangleCount());
        // The file node names the version; every byte is claimed by a decoder range.
        ASSERT_FALSE(a.nodes.empty());
        EXPECT_EQ(a.name(0), "FileMesh " + e.version);
        for (const auto& range : a.byteMap.ranges())
            EXPECT_NE(range.kind, RangeKind::Unparsed) << range.path << " at " << range.offset;
    }
}

TEST(FileMeshCorpus, V301NanVerticesAreKeptAndWarned) {
    MESHSCOPE_REQUIRE_CORPUS(corpus);
    const auto r = decodeCorpus(corpus, "roblox-mesh/krakow10_rbx_mesh/meshes/5648093777");
    ASSERT_TRUE(r.ok()) << r.error->toString();
    const Mesh& m = r.asset.meshes.at(0);
    std::size_t nan = 0;
    for (const auto& p : m.positions) nan += !p.finite();
    EXPECT_EQ(nan, 17u);  // FORMAT-NOTES: 17 all-NaN vertices used by LOD1/LOD2
    EXPECT_TRUE(hasWarning(r.asset, errc::kNonFiniteVertices));
    EXPECT_TRUE(std::isfinite(m.bounds.min.x) && std::isfinite(m.bounds.max.y));
}

TEST(FileMeshCorpus, V401RandomPaddingAndLodType4) {
    MESHSCOPE_REQUIRE_CORPUS(corpus);
    const fs::path file = corpus / "roblox-mesh/krakow10_rbx_mesh/meshes/7665777615";
    const auto bytes = test::readFile(file);
    ASSERT_GT(bytes.size(), 36u);
    EXPECT_NE(bytes[13 + 23], 0) << "the sample's padding byte is not zero";
    const auto r = decodeBytes(bytes);
    ASSERT_TRUE(r.ok()) << r.error->toString();
    int header = -1;
    for (std::size_t i = 0; i < r.asset.nodes.size(); ++i)
        if (r.asset.kind(int(i)) == "header") header = int(i);
    ASSERT_GE(header, 0);
    ASSERT_NE(r.asset.ownProperty(header, "lodType"), nullptr);
    EXPECT_EQ(std::get<std::int64_t>(r.asset.ownProperty(header, "lodType")->value), 4);
    EXPECT_EQ(r.asset.meshes.at(0).lods.size(), 5u);  // six offsets: five levels
}

TEST(FileMeshCorpus, V7DracoPointCountEqualsSkinEnvelopes) {
    MESHSCOPE_REQUIRE_CORPUS(corpus);
    const auto r =
        decodeCorpus(corpus, "roblox-mesh/krakow10_rbx_mesh/meshes/mesh7_100025761449828.bin");
    ASSERT_TRUE(r.ok()) << r.error->toString();
    const Asset& a = r.asset;
    const Mesh& m = a.meshes.at(0);
    // SKINNING v1 of this file: numSkinnings 1569, 52 bones, 2 subsets (read with a separate
    // struct script); its Draco mesh must have as many points.
    EXPECT_EQ(m.vertexCount(), 1569u);
    ASSERT_EQ(m.skin.size(), m.vertexCount());
    EXPECT_FALSE(hasWarning(a, errc::kSkinCount));
    EXPECT_FALSE(hasWarning(a, errc::kSkinUnresolved));
    ASSERT_EQ(a.skeletons.size(), 1u);
    EXPECT_EQ(a.skeletons[0].bones.size(), 52u);
    EXPECT_EQ(m.surfaces.size(), 2u);
    EXPECT_EQ(m.lodOffsets, (std::vector<std::uint32_t>{0, 0}));
    ASSERT_EQ(m.lods.size(), 1u);
    EXPECT_EQ(m.lods[0].triangleCount, m.triangleCount());
    ASSERT_EQ(m.normals.size(), m.vertexCount());
    ASSERT_EQ(m.uv0.size(), m.vertexCount());
    // Every influence names a real bone; weights of a vertex sum to about 1.
    for (const auto& s : m.skin) {
        float sum = 0;
        for (int k = 0; k < 4; ++k) {
            EXPECT_LT(s.joints[k], 52);
            sum += s.weights[k];
        }
        EXPECT_NEAR(sum, 1.0f, 0.02f);
    }
    // FACS: 46 rows × 105 columns = 50 controls + 48 two-pose + 7 three-pose (FORMAT-NOTES).
    ASSERT_EQ(a.facs.size(), 1u);
    const FacsRig& f = a.facs[0];
    EXPECT_EQ(f.rows, 46u);
    EXPECT_EQ(f.cols, 105u);
    EXPECT_EQ(f.controlNames.size(), 50u);
    EXPECT_EQ(f.correctives.size(), 55u);
    EXPECT_EQ(f.cols, f.columnCount());
    bool draco = false;
    for (const auto& range : a.byteMap.ranges())
        draco |= range.kind == RangeKind::Payload && range.path.find("draco") != std::string::npos;
    EXPECT_TRUE(draco);
}

TEST(FileMeshCorpus, V7UnskinnedDracoMeshes) {
    MESHSCOPE_REQUIRE_CORPUS(corpus);
    // LODS of the hamster (struct script): lodType 4, offsets 0 19778 29666 34610 36586 37536.
    const auto r =
        decodeCorpus(corpus, "roblox-mesh/evilbocchi_rbx_mesh/meshes/mesh7_hamster.mesh");
    ASSERT_TRUE(r.ok()) << r.error->toString();
    const Mesh& m = r.asset.meshes.at(0);
    EXPECT_FALSE(m.skinned());
    EXPECT_EQ(m.triangleCount(), 37536u);
    ASSERT_EQ(m.lods.size(), 5u);
    EXPECT_EQ(m.lods[0].triangleCount, 19778u);
    EXPECT_EQ(m.lods[4].firstTriangle, 36586u);
    const auto small =
        decodeCorpus(corpus, "roblox-mesh/krakow10_rbx_mesh/meshes/mesh7_127279296594138.bin");
    ASSERT_TRUE(small.ok()) << small.error->toString();
    EXPECT_FALSE(small.asset.meshes.at(0).skinned());
    EXPECT_TRUE(small.asset.skeletons.empty());
}

TEST(FileMeshCorpus, V5HeadsHaveFacsColumnsForControlsAndCorrectives) {
    MESHSCOPE_REQUIRE_CORPUS(corpus);
    for (const char* rel : {"roblox-mesh/krakow10_rbx_mesh/meshes/13674780763",
                            "roblox-mesh/krakow10_rbx_mesh/meshes/15256456161"}) {
        SCOPED_TRACE(rel);
        const auto r = decodeCorpus(corpus, rel);
        ASSERT_TRUE(r.ok()) << r.error->toString();
        ASSERT_EQ(r.asset.facs.size(), 1u);
        const FacsRig& f = r.asset.facs[0];
        EXPECT_EQ(r.asset.meshes.at(0).facs, 0);
        EXPECT_EQ(f.controlNames.size(), 50u);  // the 50 standard FACS poses
        EXPECT_EQ(f.cols, f.controlNames.size() + f.correctives.size());
        EXPECT_EQ(f.rows, f.boneNames.size());
        for (const auto& ch : f.channels) EXPECT_EQ(ch.size(), std::size_t(f.rows) * f.cols);
        EXPECT_FALSE(hasWarning(r.asset, errc::kFacsShape));
        bool facsNode = false;
        for (std::size_t i = 0; i < r.asset.nodes.size(); ++i)
            facsNode |= r.asset.kind(int(i)) == "facs" && r.asset.links(int(i)).facs == 0;
        EXPECT_TRUE(facsNode);
    }
}

TEST(FileMeshCorpus, V1CrlfAndLfTwinsDecodeAlike) {
    MESHSCOPE_REQUIRE_CORPUS(corpus);
    // The same sword from two repositories: one with an LF header, one with CRLF.
    const auto lf =
        decodeCorpus(corpus, "roblox-mesh/InterrobangInterrogated_2007L/content/fonts/sword.mesh");
    const auto crlf =
        decodeCorpus(corpus, "roblox-mesh/Thomasluigi07_LuigiBlox/content/fonts/sword.mesh");
    ASSERT_TRUE(lf.ok() && crlf.ok());
    EXPECT_EQ(lf.asset.meshes[0].positions, crlf.asset.meshes[0].positions);
    EXPECT_EQ(lf.asset.meshes[0].uv0, crlf.asset.meshes[0].uv0);
}

}  // namespace
}  // namespace meshscope
