// Test helpers (see test_support.h).
#include "support/test_support.h"

#include <cstdlib>
#include <fstream>

#include "meshscope/core/roblox_mesh_writer.h"

namespace meshscope::test {

std::optional<std::filesystem::path> corpusDir() {
    if (const char* env = std::getenv("MESHSCOPE_CORPUS"); env && *env) {
        if (std::filesystem::is_directory(env)) return std::filesystem::path(env);
        return std::nullopt;
    }
    std::filesystem::path p = MESHSCOPE_CORPUS_DIR;
    if (std::filesystem::is_directory(p)) return p;
    return std::nullopt;
}

bool inCi() {
    const char* env = std::getenv("CI");
    if (!env) return false;
    const std::string v = env;
    return !v.empty() && v != "0" && v != "false" && v != "FALSE" && v != "False";
}

std::filesystem::path testDataDir() {
    return MESHSCOPE_TEST_DATA_DIR;
}

std::vector<std::uint8_t> readFile(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return std::vector<std::uint8_t>(std::istreambuf_iterator<char>(in), {});
}

void writeFile(const std::filesystem::path& path, const std::vector<std::uint8_t>& bytes) {
    std::filesystem::create_directories(path.parent_path());
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
}

std::filesystem::path tempDir(const std::string& name) {
    // CTest runs tests in parallel processes: a folder per test (suite.name) keeps one test's
    // reset from wiping another's files.
    std::string unique = name;
    if (const auto* info = ::testing::UnitTest::GetInstance()->current_test_info()) {
        unique += std::string("/") + info->test_suite_name() + "." + info->name();
    }
    auto p = std::filesystem::path(MESHSCOPE_BINARY_DIR) / "test-tmp" / unique;
    std::filesystem::remove_all(p);
    std::filesystem::create_directories(p);
    return p;
}

std::filesystem::path writeFileMeshFixture(const std::string& dir, const std::string& name,
                                           const Asset& asset, const std::string& version) {
    FileMeshWriteOptions options;
    options.version = version;
    const FileMeshWriteResult written = writeFileMesh(asset, 0, options);
    EXPECT_TRUE(written.ok()) << version << ": " << (written.error ? *written.error : "");
    const auto path = tempDir(dir) / name;
    writeFile(path, written.bytes);
    return path;
}

std::string xmlPartsModel(std::size_t items) {
    std::string doc = "<roblox version=\"4\">";
    for (std::size_t i = 0; i < items; ++i) {
        doc += "<Item class=\"Part\" referent=\"RBX" + std::to_string(i) +
               "\"><Properties><string name=\"Name\">P" + std::to_string(i) +
               "</string><Vector3 name=\"Size\"><X>1</X><Y>2</Y><Z>3</Z></Vector3>"
               "<CoordinateFrame name=\"CFrame\"><X>1</X><Y>2</Y><Z>3</Z><R00>1</R00><R01>0"
               "</R01><R02>0</R02><R10>0</R10><R11>1</R11><R12>0</R12><R20>0</R20><R21>0</R21>"
               "<R22>1</R22></CoordinateFrame><bool name=\"Anchored\">true</bool></Properties>"
               "</Item>";
    }
    doc += "</roblox>";
    return doc;
}

std::vector<std::uint8_t> tinyPng() {
    // Signature, IHDR (1 × 1, 8-bit RGBA), IDAT (zlib of one filter byte and four zero bytes),
    // IEND, each chunk with its CRC.
    return {0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48,
            0x44, 0x52, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00,
            0x00, 0x1F, 0x15, 0xC4, 0x89, 0x00, 0x00, 0x00, 0x0A, 0x49, 0x44, 0x41, 0x54, 0x78,
            0x9C, 0x63, 0x00, 0x01, 0x00, 0x00, 0x05, 0x00, 0x01, 0x0D, 0x0A, 0x2D, 0xB4, 0x00,
            0x00, 0x00, 0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82};
}

}  // namespace meshscope::test
