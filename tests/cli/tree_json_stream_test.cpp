// writeTreeJson (the streaming `tree --json`) against the document it replaces: the same bytes as
// dumpJson(treeJson(...)) on every real file and generated places, with each depth and without
// values, and on assets that are not trees (a node listed twice), which it writes through
// treeJson.
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>
#include <string>

#include "json_report.h"
#include "meshscope/core/decode.h"
#include "meshscope/core/roblox_model_writer.h"
#include "support/test_support.h"

using namespace meshscope;
using meshscope::cli::TreeJsonOptions;

namespace {

const TreeJsonOptions kVariants[] = {{-1, true}, {0, true}, {1, false}, {3, true}, {-1, false}};

std::string streamed(const Asset& asset, const TreeJsonOptions& options) {
    std::ostringstream out;
    cli::writeTreeJson(out, asset, options);
    return out.str();
}

std::string document(const Asset& asset, const TreeJsonOptions& options) {
    return cli::dumpJson(cli::treeJson(asset, options));
}

// The first line where the two differ, for the failure message.
std::string firstDifference(const std::string& a, const std::string& b) {
    std::size_t i = 0;
    while (i < a.size() && i < b.size() && a[i] == b[i]) ++i;
    const std::size_t line = a.rfind('\n', i == 0 ? 0 : i - 1);
    const std::size_t from = line == std::string::npos ? 0 : line + 1;
    return "at byte " + std::to_string(i) + ":\n  streamed: " + a.substr(from, 120) +
           "\n  document: " + b.substr(from, 120);
}

void expectSame(const Asset& asset, const std::string& what) {
    for (const TreeJsonOptions& o : kVariants) {
        const std::string s = streamed(asset, o), d = document(asset, o);
        EXPECT_TRUE(s == d) << what << " (depth " << o.depth << ", values " << o.values << ") "
                            << firstDifference(s, d);
    }
}

}  // namespace

TEST(TreeJsonStream, SameBytesAsTheDocumentOnEveryCorpusFile) {
    MESHSCOPE_REQUIRE_CORPUS(corpus);
    DecodeOptions options;
    options.loadGeometry = false;  // as `tree` decodes
    std::size_t files = 0, nodes = 0;
    for (const auto& e : std::filesystem::recursive_directory_iterator(corpus)) {
        if (!e.is_regular_file()) continue;
        const std::string ext = e.path().extension().string();
        if (ext == ".md" || ext == ".png") continue;
        const DecodeResult r = decodeFile(e.path().string(), options);
        expectSame(r.asset, e.path().lexically_relative(corpus).string());
        ++files;
        nodes += r.asset.nodes.size();
    }
    EXPECT_GT(files, 100u);
    EXPECT_GT(nodes, 10000u);
}

TEST(TreeJsonStream, SameBytesOnGeneratedPlaces) {
    for (std::size_t parts : {0u, 1u, 250u}) expectSame(makeRobloxPlace(parts), "place");
    // A deep chain: the writer keeps its own stack.
    Asset chain;
    int parent = chain.addNode("Root", "Model");
    for (int i = 0; i < 300; ++i) parent = chain.addNode("Folder", "Folder", parent);
    chain.addNode("Second root", "Model");
    expectSame(chain, "chain");
    EXPECT_EQ(streamed(chain, {}).find("\"childrenOmitted\""), std::string::npos);
    EXPECT_NE(streamed(chain, {3, false}).find("\"childrenOmitted\": 1"), std::string::npos);
}

TEST(TreeJsonStream, EmptyAssetAndNodesWithoutChildren) {
    Asset empty;
    expectSame(empty, "empty");
    EXPECT_EQ(streamed(empty, {}), "{\n  \"roots\": [],\n  \"sharedStrings\": []\n}");
    Asset flat;
    for (int i = 0; i < 3; ++i) flat.addNode("Part", "Part");
    expectSame(flat, "flat");
}

// A node under two parents is not a tree: the document's post-order walk decides where it goes,
// so the writer hands such an asset to it.
TEST(TreeJsonStream, NodeListedTwiceFallsBackToTheDocument) {
    Asset a;
    const int root = a.addNode("Root", "Model");
    const int left = a.addNode("Left", "Folder", root);
    const int right = a.addNode("Right", "Folder", root);
    const int shared = a.addNode("Shared", "Part", left);
    a.addChild(right, shared);
    a.addChild(root, root);  // and a cycle
    expectSame(a, "listed twice");
    EXPECT_FALSE(streamed(a, {}).empty());
}
