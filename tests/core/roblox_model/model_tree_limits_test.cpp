// Instance trees that a decoder must not hand on as they are: a parent chain deeper than
// Limits::maxDepth (views and the CLI walk trees recursively) is cut at the cap, with a warning
// naming it; every instance is kept. Built with the project's writer.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "meshscope/core/decode.h"
#include "meshscope/core/error_codes.h"
#include "meshscope/core/roblox_model_writer.h"

using namespace meshscope;

namespace {

Bytes chainModel(int length) {
    Asset a;
    a.format = "roblox-model";
    a.version = "0";
    int parent = -1;
    for (int i = 0; i < length; ++i) parent = a.addNode("F" + std::to_string(i), "Folder", parent);
    auto written = writeRobloxModel(a);
    EXPECT_TRUE(written.ok());
    return std::move(written.bytes);
}

int depthOf(const Asset& a, int node) {
    int d = 0;
    for (; node >= 0 && d <= int(a.nodes.size()); node = a.nodes[std::size_t(node)].parent) ++d;
    return d;
}

}  // namespace

TEST(RobloxModelTree, ChainDeeperThanTheCapIsCutAndReported) {
    const Bytes bytes = chainModel(600);
    DecodeOptions options;
    ASSERT_EQ(options.limits.maxDepth, 512u);
    const DecodeResult r = decodeBytes(bytes, options);
    ASSERT_TRUE(r.ok()) << r.error->toString();
    ASSERT_EQ(r.asset.nodes.size(), 600u);
    int deepest = 0, roots = 0;
    for (std::size_t i = 0; i < r.asset.nodes.size(); ++i) {
        deepest = std::max(deepest, depthOf(r.asset, int(i)));
        roots += r.asset.nodes[i].parent < 0;
    }
    EXPECT_EQ(deepest, 512);
    EXPECT_EQ(roots, 2);  // the chain's root, and its 513th link cut loose
    bool reported = false;
    for (const auto& d : r.asset.diagnostics)
        if (d.code == errc::kLimit && d.message.find("maxDepth (512") != std::string::npos) {
            reported = true;
            EXPECT_NE(d.message.find("1 nodes"), std::string::npos) << d.message;
        }
    EXPECT_TRUE(reported);
    // Children lists agree with the parents after the cut.
    for (std::size_t i = 0; i < r.asset.nodes.size(); ++i)
        for (int c : r.asset.children(int(i)))
            EXPECT_EQ(r.asset.nodes[std::size_t(c)].parent, int(i));
}

TEST(RobloxModelTree, ChainWithinTheCapIsKeptWhole) {
    const DecodeResult r = decodeBytes(chainModel(512));
    ASSERT_TRUE(r.ok()) << r.error->toString();
    ASSERT_EQ(r.asset.nodes.size(), 512u);
    EXPECT_EQ(depthOf(r.asset, 511), 512);
    for (const auto& d : r.asset.diagnostics) EXPECT_NE(d.code, errc::kLimit) << d.message;
}

TEST(RobloxModelTree, TheCapComesFromTheOptions) {
    DecodeOptions options;
    options.limits.maxDepth = 10;
    const DecodeResult r = decodeBytes(chainModel(35), options);
    ASSERT_TRUE(r.ok()) << r.error->toString();
    int roots = 0;
    for (const auto& n : r.asset.nodes) roots += n.parent < 0;
    EXPECT_EQ(roots, 4);  // depths 1-10, 11-20, 21-30, 31-35
}
