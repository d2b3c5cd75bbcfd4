// Shared test helpers: where the real-file corpus and test data are, file reading, and the
// corpus skip that says so visibly.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "meshscope/core/decode.h"

namespace meshscope::test {

// ../shared/corpus (or $MESHSCOPE_CORPUS), when present.
std::optional<std::filesystem::path> corpusDir();
std::filesystem::path testDataDir();
std::vector<std::uint8_t> readFile(const std::filesystem::path& path);
void writeFile(const std::filesystem::path& path, const std::vector<std::uint8_t>& bytes);
// A fresh, empty temporary directory for one test (unique per running test).
std::filesystem::path tempDir(const std::string& name);
// Writes `asset` as a FileMesh of `version` (its mesh 0) to tempDir(dir)/name and returns the
// path; a failed write fails the current test.
// An XML model (.rbxmx) of `items` Parts with a name, size, CFrame and a bool each: about 370
// bytes an item.
std::string xmlPartsModel(std::size_t items);
// A node property for hand-built models.
inline Property prop(std::string name, std::string type, Value value) {
    Property p;
    p.name = std::move(name);
    p.type = std::move(type);
    p.value = std::move(value);
    return p;
}
std::filesystem::path writeFileMeshFixture(const std::string& dir, const std::string& name,
                                           const Asset& asset, const std::string& version = "4.00");

}  // namespace meshscope::test

// Skips the current test with a visible message when the shared corpus is absent.
#define MESHSCOPE_REQUIRE_CORPUS(var)                                                       \
    auto var##_opt = ::meshscope::test::corpusDir();                                        \
    if (!var##_opt) {                                                                       \
        GTEST_SKIP() << "SKIPPED: ../shared/corpus is absent (set MESHSCOPE_CORPUS to run " \
                        "the real-file tests)";                                             \
    }                                                                                       \
    const std::filesystem::path var = *var##_opt
