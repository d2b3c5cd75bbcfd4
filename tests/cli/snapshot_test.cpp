// Snapshots of every real file (as rbx-dom does): `meshscope-cli tree --json` and `map` of each
// file of the shared corpus, compared with what tests/data/snapshots/<path in corpus>.tree.json
// and .map.txt hold. A changed property value, node, byte range or error message fails the file's
// test, which prints the first line that differs.
//
// After an intended change, refresh the snapshots and review the diff:
//   MESHSCOPE_UPDATE_SNAPSHOTS=1 build/tests/cli/test_cli --gtest_filter='*Snapshot*'
// An output over kMaxSnapshotBytes is stored as its first kHeadLines lines plus a line with its
// size and a hash of the whole (a change past the head fails too, without the line).
// A file that does not decode is stored as its exit status and error line.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cli_commands.h"
#include "support/test_support.h"

namespace fs = std::filesystem;

namespace {

constexpr std::size_t kMaxSnapshotBytes = 64 * 1024;
constexpr std::size_t kHeadLines = 400;

struct SnapshotKind {
    const char* suffix;  // appended to the corpus path
    std::vector<std::string> args;
};

const std::vector<SnapshotKind>& snapshots() {
    static const std::vector<SnapshotKind> all = {{".tree.json", {"tree", "--json"}},
                                                  {".map.txt", {"map"}}};
    return all;
}

bool updating() {
    const char* env = std::getenv("MESHSCOPE_UPDATE_SNAPSHOTS");
    return env && *env && std::string(env) != "0";
}

fs::path snapshotDir() {
    return meshscope::test::testDataDir() / "snapshots";
}

// Files of the corpus that are not assets: its manifest, the READMEs and pictures of the
// repositories the files come from.
bool isAssetCandidate(const fs::path& p) {
    const std::string name = p.filename().string();
    const std::string ext = p.extension().string();
    return name != "MANIFEST.md" && ext != ".md" && ext != ".png";
}

// Every corpus file a snapshot is kept for, as paths relative to the corpus, sorted; empty
// without the corpus.
const std::vector<std::string>& corpusFiles() {
    static const std::vector<std::string> files = [] {
        std::vector<std::string> out;
        const auto dir = meshscope::test::corpusDir();
        if (!dir) return out;
        for (const auto& e : fs::recursive_directory_iterator(*dir)) {
            if (!e.is_regular_file() || !isAssetCandidate(e.path())) continue;
            out.push_back(e.path().lexically_relative(*dir).generic_string());
        }
        std::sort(out.begin(), out.end());
        return out;
    }();
    return files;
}

std::uint64_t fnv1a64(const std::string& s) {
    std::uint64_t h = 0xcbf29ce484222325ull;
    for (const unsigned char c : s) {
        h ^= c;
        h *= 0x100000001b3ull;
    }
    return h;
}

std::vector<std::string> lines(const std::string& s) {
    std::vector<std::string> out;
    std::istringstream in(s);
    for (std::string line; std::getline(in, line);) out.push_back(line);
    return out;
}

// What is stored for an output: the output itself, or its head plus its size and hash.
std::string stored(const std::string& output) {
    if (output.size() <= kMaxSnapshotBytes) return output;
    const auto all = lines(output);
    std::string head;
    for (std::size_t i = 0; i < std::min(all.size(), kHeadLines); ++i) head += all[i] + "\n";
    char tail[160];
    std::snprintf(tail, sizeof tail,
                  "... snapshot truncated: %zu lines, %zu bytes in all; fnv1a-64 of the whole: "
                  "%016llx\n",
                  all.size(), output.size(), static_cast<unsigned long long>(fnv1a64(output)));
    return head + tail;
}

// The CLI's output for one corpus file, with the corpus location taken out (so that snapshots
// do not depend on where the checkout is).
std::string cliOutput(const SnapshotKind& snapshot, const fs::path& corpus,
                      const std::string& rel) {
    const std::string path = (corpus / rel).string();
    std::vector<std::string> args = snapshot.args;
    args.push_back(path);
    std::ostringstream out, err;
    const int status = meshscope::cli::run(args, out, err);
    std::string text =
        status == 0 ? out.str() : "exit status " + std::to_string(status) + "\n" + err.str();
    for (std::size_t at = text.find(path); at != std::string::npos; at = text.find(path, at))
        text.replace(at, path.size(), rel);
    return text;
}

// "line 12:\n  stored:  ...\n  now:     ..." for the first line where the two differ.
std::string firstDifference(const std::string& expected, const std::string& actual) {
    const auto a = lines(expected), b = lines(actual);
    const std::size_t n = std::max(a.size(), b.size());
    auto shown = [](const std::vector<std::string>& v, std::size_t i) {
        if (i >= v.size())
            return std::string("(no such line: ") + std::to_string(v.size()) + " lines in all)";
        return v[i].size() > 300 ? v[i].substr(0, 300) + " ..." : v[i];
    };
    for (std::size_t i = 0; i < n; ++i) {
        if (i < a.size() && i < b.size() && a[i] == b[i]) continue;
        return "line " + std::to_string(i + 1) + ":\n  stored: " + shown(a, i) +
               "\n  now:    " + shown(b, i);
    }
    return "the line ends differ";
}

std::string testName(const ::testing::TestParamInfo<std::string>& info) {
    std::string name;
    for (const char c : info.param) name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
    // Unique even where two paths differ only in punctuation.
    return name + "_" + std::to_string(info.index);
}

class Snapshot : public ::testing::TestWithParam<std::string> {};

}  // namespace

TEST_P(Snapshot, TreeAndMapAsStored) {
    MESHSCOPE_REQUIRE_CORPUS(corpus);
    const std::string& rel = GetParam();
    for (const SnapshotKind& snapshot : snapshots()) {
        SCOPED_TRACE(std::string("meshscope-cli ") + snapshot.args.front() + " of " + rel);
        const std::string now = stored(cliOutput(snapshot, corpus, rel));
        const fs::path file = snapshotDir() / (rel + snapshot.suffix);
        if (updating()) {
            meshscope::test::writeFile(file, std::vector<std::uint8_t>(now.begin(), now.end()));
            continue;
        }
        ASSERT_TRUE(fs::exists(file))
            << file << " is missing: run with MESHSCOPE_UPDATE_SNAPSHOTS=1 and review it";
        const auto bytes = meshscope::test::readFile(file);
        const std::string expected(bytes.begin(), bytes.end());
        EXPECT_TRUE(expected == now)
            << file << " differs at " << firstDifference(expected, now)
            << "\n(if the change is intended: MESHSCOPE_UPDATE_SNAPSHOTS=1, then review the diff)";
    }
}

INSTANTIATE_TEST_SUITE_P(Corpus, Snapshot, ::testing::ValuesIn(corpusFiles()), testName);
// Without the corpus there are no files, hence no tests: that is fine.
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(Snapshot);

// The corpus is there (a failure in CI when it is not), and every stored snapshot belongs to a
// file of it: a snapshot left behind by a renamed or removed file fails (and is removed when
// updating).
TEST(Snapshots, EverySnapshotHasItsFile) {
    MESHSCOPE_REQUIRE_CORPUS(corpus);
    ASSERT_FALSE(corpusFiles().empty());
    if (!fs::is_directory(snapshotDir())) {
        ASSERT_TRUE(updating()) << snapshotDir() << " is missing: run with "
                                << "MESHSCOPE_UPDATE_SNAPSHOTS=1";
        return;
    }
    const std::set<std::string> files(corpusFiles().begin(), corpusFiles().end());
    std::vector<fs::path> stale;
    for (const auto& e : fs::recursive_directory_iterator(snapshotDir())) {
        if (!e.is_regular_file()) continue;
        const std::string rel = e.path().lexically_relative(snapshotDir()).generic_string();
        bool owned = false;
        for (const SnapshotKind& snapshot : snapshots()) {
            const std::string suffix = snapshot.suffix;
            if (rel.size() > suffix.size() && rel.ends_with(suffix) &&
                files.count(rel.substr(0, rel.size() - suffix.size())))
                owned = true;
        }
        if (!owned) stale.push_back(e.path());
    }
    for (const auto& path : stale) {
        if (updating())
            fs::remove(path);
        else
            ADD_FAILURE() << path << " belongs to no corpus file: remove it (or run with "
                          << "MESHSCOPE_UPDATE_SNAPSHOTS=1)";
    }
}
