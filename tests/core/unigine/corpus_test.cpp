// Every real Unigine file in the corpus. They are other versions than the documented ones
// (MANIFEST: mr02, ms10, ms11, ms14 meshes, an10 animations); each must be recognised and
// refused with an error that names its version, never crash or produce garbage.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "meshscope/core/decode.h"
#include "support/test_support.h"

using namespace meshscope;

TEST(UnigineCorpus, EveryRealFileIsRefusedNamingItsVersion) {
    MESHSCOPE_REQUIRE_CORPUS(corpus);
    const auto dir = corpus / "unigine";
    if (!std::filesystem::is_directory(dir)) GTEST_SKIP() << "SKIPPED: no corpus/unigine";
    std::set<std::string> versions;
    std::size_t files = 0;
    for (const auto& e : std::filesystem::recursive_directory_iterator(dir)) {
        if (!e.is_regular_file()) continue;
        const auto ext = e.path().extension().string();
        if (ext != ".mesh" && ext != ".anim" && ext != ".smesh" && ext != ".sanim") continue;
        ++files;
        const auto bytes = test::readFile(e.path());
        ASSERT_GE(bytes.size(), 4u) << e.path();
        const std::string signature(bytes.begin(), bytes.begin() + 4);
        const DecodeResult r = decodeFile(e.path().string());
        SCOPED_TRACE(e.path().string());
        EXPECT_EQ(r.asset.format, "unigine");
        EXPECT_EQ(r.asset.version, signature);
        if (signature == "mi08" || signature == "ms08" || signature == "as08") {
            EXPECT_TRUE(r.ok()) << r.error->toString();
            continue;
        }
        versions.insert(signature);
        ASSERT_FALSE(r.ok());
        EXPECT_EQ(r.error->code, "unsupported-version");
        EXPECT_EQ(r.error->offset, 0u);
        EXPECT_NE(r.error->message.find("version " + signature + " is not supported"),
                  std::string::npos)
            << r.error->message;
        EXPECT_TRUE(r.asset.meshes.empty());
    }
    // MANIFEST lists 19 Unigine files of these five versions.
    EXPECT_GE(files, 19u);
    EXPECT_EQ(versions, (std::set<std::string>{"an10", "mr02", "ms10", "ms11", "ms14"}));
}

TEST(UnigineCorpus, RobloxMeshesAreNotTakenForUnigine) {
    MESHSCOPE_REQUIRE_CORPUS(corpus);
    const auto dir = corpus / "roblox-mesh";
    if (!std::filesystem::is_directory(dir)) GTEST_SKIP() << "SKIPPED: no corpus/roblox-mesh";
    const FormatDecoder* unigine = nullptr;
    for (const auto& d : decoders())
        if (std::string(d.id) == "unigine") unigine = &d;
    ASSERT_NE(unigine, nullptr);
    std::size_t files = 0;
    for (const auto& e : std::filesystem::recursive_directory_iterator(dir)) {
        if (!e.is_regular_file()) continue;
        ++files;
        EXPECT_EQ(unigine->probe(test::readFile(e.path())), 0) << e.path();
    }
    EXPECT_GT(files, 0u);
}
