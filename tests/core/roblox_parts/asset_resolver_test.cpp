// Asset reference parsing and resolution inside the chosen folders only (asset_resolver.h),
// including path traversal, absolute paths, URLs without ids and symlinks leading out.
#include "meshscope/core/asset_resolver.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "support/test_support.h"

namespace meshscope {
namespace {

namespace fs = std::filesystem;

TEST(AssetResolver, ParsesIdForms) {
    EXPECT_EQ(parseAssetId("rbxassetid://123456"), 123456u);
    EXPECT_EQ(parseAssetId("RBXASSETID://42/"), 42u);
    EXPECT_EQ(parseAssetId("http://www.roblox.com/asset/?id=987"), 987u);
    EXPECT_EQ(parseAssetId("https://assetdelivery.roblox.com/v1/asset?version=2&id=55"), 55u);
    EXPECT_EQ(parseAssetId(" 77 "), 77u);
}

TEST(AssetResolver, RefusesPathsUrlsAndNonNumericIds) {
    std::string why;
    for (const char* bad :
         {"../secret", "/etc/passwd", "rbxassetid://../../etc/passwd", "rbxassetid://12/../../x",
          "rbxassetid://abc", "http://evil.example/x.mesh",
          "http://www.roblox.com/asset/?id=1/../2", "rbxasset://fonts/a.mesh", "C:\\Windows\\x", "",
          "12a", "99999999999999999999999"}) {
        why.clear();
        EXPECT_FALSE(parseAssetId(bad, &why).has_value()) << bad;
        EXPECT_FALSE(why.empty()) << bad;
    }
}

TEST(AssetResolver, FindsFilesByIdWithOrWithoutExtension) {
    const fs::path dir = test::tempDir("resolver_find");
    fs::create_directories(dir / "a");
    fs::create_directories(dir / "b");
    test::writeFile(dir / "a" / "100", {1});
    test::writeFile(dir / "b" / "200.mesh", {2});
    const AssetResolver r({dir / "a", dir / "b"});
    const auto one = r.resolve("rbxassetid://100");
    ASSERT_TRUE(one.ok()) << one.warning;
    EXPECT_EQ(one.path, fs::canonical(dir / "a" / "100"));
    const auto two = r.resolve("http://www.roblox.com/asset/?id=200");
    ASSERT_TRUE(two.ok()) << two.warning;
    EXPECT_EQ(two.path.filename(), "200.mesh");
    const auto missing = r.resolve("rbxassetid://300");
    EXPECT_FALSE(missing.ok());
    EXPECT_EQ(missing.id, 300u);
    EXPECT_NE(missing.warning.find("not found"), std::string::npos);
    EXPECT_FALSE(AssetResolver().resolve("rbxassetid://100").ok());
}

TEST(AssetResolver, TraversalNeverLeavesTheFolder) {
    const fs::path dir = test::tempDir("resolver_traversal");
    fs::create_directories(dir / "assets");
    test::writeFile(dir / "outside.mesh", {9});
    test::writeFile(dir / "5", {9});
    const AssetResolver r({dir / "assets"});
    // The absolute path must outlive the loop (a temporary's c_str() in the braced list dangles).
    const std::string absolute = (dir / "5").string();
    for (const char* ref :
         {"../outside.mesh", "../5", absolute.c_str(), "rbxassetid://../5", "file:///etc/passwd"}) {
        const auto res = r.resolve(ref);
        EXPECT_FALSE(res.ok()) << ref;
        EXPECT_FALSE(res.warning.empty()) << ref;
    }
}

TEST(AssetResolver, SymlinkLeadingOutIsRefused) {
    const fs::path dir = test::tempDir("resolver_symlink");
    fs::create_directories(dir / "assets");
    test::writeFile(dir / "secret", {7});
    std::error_code ec;
    fs::create_symlink(dir / "secret", dir / "assets" / "321", ec);
    if (ec) GTEST_SKIP() << "SKIPPED: symlinks unavailable: " << ec.message();
    // A symlink inside the folder to a file inside the folder is fine.
    test::writeFile(dir / "assets" / "real", {8});
    fs::create_symlink(dir / "assets" / "real", dir / "assets" / "654.mesh", ec);
    const AssetResolver r({dir / "assets"});
    const auto out = r.resolve("rbxassetid://321");
    EXPECT_FALSE(out.ok());
    EXPECT_NE(out.warning.find("outside"), std::string::npos) << out.warning;
    const auto in = r.resolve("rbxassetid://654");
    ASSERT_TRUE(in.ok()) << in.warning;
    EXPECT_EQ(in.path, fs::canonical(dir / "assets" / "real"));
}

}  // namespace
}  // namespace meshscope

namespace meshscope {
namespace {

TEST(AssetResolver, BuiltInContentResolvesInsideAContentFolder) {
    const fs::path dir = test::tempDir("resolver_content");
    fs::create_directories(dir / "install" / "content" / "fonts");
    test::writeFile(dir / "install" / "content" / "fonts" / "leftarm.mesh", {1});
    test::writeFile(dir / "install" / "secret.mesh", {2});
    // The content folder itself, or a folder holding one.
    for (const fs::path& folder : {dir / "install" / "content", dir / "install"}) {
        SCOPED_TRACE(folder.string());
        const AssetResolver r({folder});
        const auto found = r.resolve("rbxasset://fonts/leftarm.mesh");
        ASSERT_TRUE(found.ok()) << found.warning;
        EXPECT_EQ(found.path,
                  fs::canonical(dir / "install" / "content" / "fonts" / "leftarm.mesh"));
        const auto missing = r.resolve("rbxasset://fonts/rightarm.mesh");
        EXPECT_FALSE(missing.ok());
        EXPECT_NE(missing.warning.find("not found"), std::string::npos);
    }
    const AssetResolver r({dir / "install" / "content"});
    for (const char* bad : {"rbxasset://../secret.mesh", "rbxasset://fonts/../../secret.mesh",
                            "rbxasset:///etc/passwd", "rbxasset://", "rbxasset://a\\b.mesh",
                            "rbxasset://C:/x.mesh", "rbxasset://fonts//x.mesh"}) {
        const auto res = r.resolve(bad);
        EXPECT_FALSE(res.ok()) << bad;
        EXPECT_FALSE(res.warning.empty()) << bad;
    }
    // A folder that is not (and holds no) content folder does not resolve built-in content.
    EXPECT_FALSE(AssetResolver({dir / "install" / "content" / "fonts"})
                     .resolve("rbxasset://fonts/leftarm.mesh")
                     .ok());
}

}  // namespace
}  // namespace meshscope
