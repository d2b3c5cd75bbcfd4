// Huge pages for the heap (app/launch/huge_pages.h): the tunable is added after the user's own,
// never over a user's choice, and undone in the started program; meshscope-cli starts itself
// again with it for export of a large input, and writes the same bytes as without.
#include "huge_pages.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "meshscope/core/mesh_generators.h"
#include "meshscope/core/roblox_mesh_writer.h"
#include "support/test_support.h"

using namespace meshscope;

namespace {

std::string env(const char* name) {
    const char* v = std::getenv(name);
    return v ? std::string(v) : std::string("<unset>");
}

// Sets or unsets the three variables, and puts them back when the test ends.
class TunablesEnv : public ::testing::Test {
protected:
    void SetUp() override {
        for (const char* n : kNames) saved_.push_back(env(n));
    }
    void TearDown() override {
        for (std::size_t i = 0; i < std::size(kNames); ++i) set(kNames[i], saved_[i]);
    }
    static void set(const char* name, const std::string& value) {
        if (value == "<unset>")
            unsetenv(name);
        else
            setenv(name, value.c_str(), 1);
    }
    static constexpr const char* kNames[] = {"GLIBC_TUNABLES", launch::kMarkerVariable,
                                             launch::kPreviousVariable};
    std::vector<std::string> saved_;
};

std::string readFile(const std::filesystem::path& p) {
    std::ifstream f(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(f), {}};
}

}  // namespace

TEST_F(TunablesEnv, AddedAloneAndUndone) {
    set("GLIBC_TUNABLES", "<unset>");
    set(launch::kMarkerVariable, "<unset>");
    ASSERT_TRUE(launch::addHugePageTunable());
    EXPECT_EQ(env("GLIBC_TUNABLES"), "glibc.malloc.hugetlb=1");
    EXPECT_EQ(env(launch::kPreviousVariable), "<unset>");
    EXPECT_FALSE(launch::addHugePageTunable()) << "already there: no second start";
    launch::restoreTunables();
    EXPECT_EQ(env("GLIBC_TUNABLES"), "<unset>");
    EXPECT_EQ(env(launch::kMarkerVariable), "<unset>");
}

TEST_F(TunablesEnv, AddedAfterTheUsersOwnAndUndone) {
    set("GLIBC_TUNABLES", "glibc.malloc.arena_max=2");
    set(launch::kMarkerVariable, "<unset>");
    ASSERT_TRUE(launch::addHugePageTunable());
    EXPECT_EQ(env("GLIBC_TUNABLES"), "glibc.malloc.arena_max=2:glibc.malloc.hugetlb=1");
    launch::restoreTunables();
    EXPECT_EQ(env("GLIBC_TUNABLES"), "glibc.malloc.arena_max=2");
    EXPECT_EQ(env(launch::kPreviousVariable), "<unset>");
}

TEST_F(TunablesEnv, TheUsersChoiceStands) {
    set("GLIBC_TUNABLES", "glibc.malloc.hugetlb=0");
    set(launch::kMarkerVariable, "<unset>");
    EXPECT_FALSE(launch::addHugePageTunable());
    EXPECT_EQ(env("GLIBC_TUNABLES"), "glibc.malloc.hugetlb=0");
    launch::restoreTunables();  // no marker: nothing to undo
    EXPECT_EQ(env("GLIBC_TUNABLES"), "glibc.malloc.hugetlb=0");
}

// A 5 MB FileMesh exported by the real executable: started again with huge pages (the default),
// and not (the user's glibc.malloc.hugetlb=0): the same file either way.
TEST(CliHugePages, LargeExportWritesTheSameBytesEitherWay) {
    FileMeshWriteOptions o;
    o.version = "4.00";
    const auto written = writeFileMesh(makeGridMesh(200'000), 0, o);
    ASSERT_TRUE(written.ok());
    ASSERT_GE(written.bytes.size(), std::size_t(4 << 20)) << "large enough to start again";
    const auto dir = test::tempDir("cli_huge_pages");
    const auto mesh = dir / "grid.mesh";
    std::ofstream(mesh, std::ios::binary)
        .write(reinterpret_cast<const char*>(written.bytes.data()),
               std::streamsize(written.bytes.size()));
    auto exportWith = [&](const std::string& prefix, const std::string& out) {
        const std::string cmd = prefix + " " + MESHSCOPE_CLI_EXE + " export --to glb '" +
                                mesh.string() + "' '" + (dir / out).string() + "'";
        return std::system(cmd.c_str());
    };
    ASSERT_EQ(exportWith("env -u GLIBC_TUNABLES", "huge.glb"), 0);
    ASSERT_EQ(exportWith("env GLIBC_TUNABLES=glibc.malloc.hugetlb=0", "plain.glb"), 0);
    const std::string huge = readFile(dir / "huge.glb"), plain = readFile(dir / "plain.glb");
    EXPECT_GT(huge.size(), std::size_t(1 << 20));
    EXPECT_TRUE(huge == plain);
}
