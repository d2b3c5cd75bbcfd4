// Every prefix of a generated file of each FileMesh version is refused cleanly: an error is set
// and its offset lies within the bytes given (never a crash, never a read past the end; run
// under the sanitizer build to check the latter). A v6/v7 file cut exactly between two chunks
// is itself a well-formed file with fewer chunks, so such prefixes may decode.
#include <gtest/gtest.h>

#include <set>

#include "roundtrip_support.h"
#include "support/test_support.h"

namespace meshscope::test {
namespace {

// Offsets where a chunk ends (v6/v7): the end of the version line and of every chunk.
std::set<std::size_t> chunkBoundaries(const Bytes& b) {
    std::set<std::size_t> ends{13};
    std::size_t pos = 13;
    while (pos + 16 <= b.size()) {
        std::uint32_t size;
        std::memcpy(&size, b.data() + pos + 12, 4);
        pos += 16 + size;
        ends.insert(pos);
    }
    return ends;
}

void expectEveryPrefixRefused(const Asset& asset, const std::string& version) {
    FileMeshWriteOptions options;
    options.version = version;
    const Bytes bytes = writeOrFail(asset, options);
    ASSERT_FALSE(bytes.empty());
    {
        const DecodeResult whole = decodeBytes(bytes);
        ASSERT_TRUE(whole.ok()) << whole.error->toString();
    }
    const bool chunked = majorOf(version) >= 6;
    const std::set<std::size_t> boundaries =
        chunked ? chunkBoundaries(bytes) : std::set<std::size_t>{};
    int reported = 0;
    for (std::size_t n = 0; n < bytes.size(); ++n) {
        const DecodeResult r = decodeBytes(test::ExactPrefix(bytes, n));
        if (boundaries.count(n)) continue;  // a shorter but well-formed chunk list
        if (r.ok()) {
            if (reported++ < 5)
                ADD_FAILURE() << version << ": the prefix of " << n << " of " << bytes.size()
                              << " bytes decoded without an error";
            continue;
        }
        if (r.error->offset > n && reported++ < 5)
            ADD_FAILURE() << version << ": prefix " << n << ": error offset " << r.error->offset
                          << " lies beyond the bytes given (" << r.error->toString() << ")";
    }
    EXPECT_EQ(reported, 0) << version << ": prefixes accepted or misplaced errors";
}

class Prefix : public ::testing::TestWithParam<std::string> {};

TEST_P(Prefix, FacsHead) {
    expectEveryPrefixRefused(makeFacsHead(), GetParam());
}
TEST_P(Prefix, LodSphere) {
    expectEveryPrefixRefused(makeLodSphere(3, 8, 8), GetParam());
}
TEST_P(Prefix, TwoSubsetCylinder) {
    expectEveryPrefixRefused(makeSkinnedCylinder(30, 8, 4), GetParam());
}

INSTANTIATE_TEST_SUITE_P(FileMesh, Prefix, ::testing::ValuesIn(writerVersions()),
                         [](const auto& info) { return "v" + safeName(info.param); });

}  // namespace
}  // namespace meshscope::test
