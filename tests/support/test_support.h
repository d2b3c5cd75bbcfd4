// Shared test helpers: where the real-file corpus and test data are, file reading, and the
// corpus skip that says so visibly.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <memory>
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
// A Part named `name` under `parent` (its child), placed at `position` with a Size and,
// when given, a Color3uint8 (0..1 components): what extractRobloxParts draws as a box.
inline int addPart(Asset& a, int parent, const std::string& name, Vec3 position,
                   Vec3 size = {2, 2, 2}, std::optional<Vec3> color = std::nullopt) {
    const int part = a.addNode(name, "Part", parent);
    if (parent >= 0) a.addChild(parent, part);
    CFrame cf;
    cf.position = position;
    a.propertyList(part) = {prop("Name", "string", name), prop("CFrame", "CFrame", cf),
                            prop("size", "Vector3", size)};
    if (color) a.addProperty(part, prop("Color3uint8", "Color3uint8", *color));
    return part;
}
// The first `n` bytes of a buffer, copied into a heap block of exactly n bytes: a decoder that
// reads past the cut then reads past the block, which AddressSanitizer reports (a view into the
// whole buffer would read its next bytes unnoticed). For prefix tests.
class ExactPrefix {
public:
    ExactPrefix(ByteSpan bytes, std::size_t n)
        : size_(std::min(n, bytes.size())), data_(new std::uint8_t[size_]) {
        if (size_) std::memcpy(data_.get(), bytes.data(), size_);
    }
    ByteSpan span() const { return {data_.get(), size_}; }
    operator ByteSpan() const { return span(); }  // NOLINT: used where a ByteSpan is

private:
    std::size_t size_;
    std::unique_ptr<std::uint8_t[]> data_;
};

std::filesystem::path writeFileMeshFixture(const std::string& dir, const std::string& name,
                                           const Asset& asset, const std::string& version = "4.00");

// The bytes of a valid 1 × 1 RGBA PNG (a transparent pixel), for texture fixtures.
std::vector<std::uint8_t> tinyPng();
// The bytes of a valid 1 × 1 baseline JPEG (JFIF), for texture fixtures.
std::vector<std::uint8_t> tinyJpeg();

// Whether the tests run in continuous integration (the environment has CI=true, as GitHub
// Actions, GitLab CI and most others set): there, a missing corpus fails instead of skipping.
bool inCi();

}  // namespace meshscope::test

// Skips the current test with a visible message when a part of the shared corpus is absent, or
// fails it when running in CI (inCi()), where the corpus must be present.
#define MESHSCOPE_CORPUS_ABSENT(message)                                                 \
    do {                                                                                 \
        if (::meshscope::test::inCi()) {                                                 \
            GTEST_FAIL() << "CI=true but " << message                                    \
                         << " (the corpus must be present in CI; set MESHSCOPE_CORPUS)"; \
        }                                                                                \
        GTEST_SKIP() << "SKIPPED: " << message                                           \
                     << " (set MESHSCOPE_CORPUS to run the real-file tests)";            \
    } while (false)

// Skips (fails in CI) the current test when the shared corpus is absent; else names it `var`.
#define MESHSCOPE_REQUIRE_CORPUS(var)                                      \
    auto var##_opt = ::meshscope::test::corpusDir();                       \
    if (!var##_opt) MESHSCOPE_CORPUS_ABSENT("../shared/corpus is absent"); \
    const std::filesystem::path var = *var##_opt
