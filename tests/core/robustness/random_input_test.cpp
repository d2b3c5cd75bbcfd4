// Random and mutated input, seeded so every run sees the same bytes:
// - 200 MB of random bytes through decodeBytes, alone and behind each format's magic or header
//   (so every decoder has to chew on them): each ends in an error or a result no larger than the
//   file could describe, in seconds (the times are printed, never asserted);
// - a few thousand mutations (bit flips, extreme counts, cuts, inserted and removed bytes) of
//   files the project's writers make, for every format: never a crash, a hang, an offset outside
//   the file or an internal error.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <random>

#include "broken_case.h"
#include "broken_secondlife.h"
#include "broken_unigine.h"
#include "meshscope/core/decode.h"
#include "meshscope/core/error_codes.h"
#include "meshscope/core/mesh_generators.h"
#include "meshscope/core/roblox_mesh_writer.h"
#include "meshscope/core/roblox_model_writer.h"
#include "meshscope/core/secondlife_writer.h"
#include "meshscope/core/unigine_writer.h"
#include "support/test_support.h"

using namespace meshscope;

namespace {

double secondsSince(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

// Whatever a decode returns must hold together and fit the input.
void expectSane(const DecodeResult& r, ByteSpan bytes, const std::string& what) {
    if (!r.ok()) {
        EXPECT_FALSE(r.error->message.empty()) << what;
        EXPECT_NE(r.error->code, errc::kInternal) << what << ": " << r.error->toString();
        const std::uint64_t limit = r.innerBytes ? r.innerBytes->size() : bytes.size();
        const bool gzip = bytes.size() >= 2 && bytes[0] == 0x1f && bytes[1] == 0x8b;
        if (!gzip) {
            EXPECT_LE(r.error->offset, limit) << what << ": " << r.error->toString();
        }
    }
    for (const auto& m : r.asset.meshes) {
        for (std::uint32_t i : m.indices) ASSERT_LT(i, m.positions.size()) << what;
        if (!m.skin.empty()) {
            ASSERT_EQ(m.skin.size(), m.positions.size()) << what;
        }
    }
    for (std::size_t i = 0; i < r.asset.nodes.size(); ++i)
        for (int c : r.asset.children(int(i)))
            ASSERT_LT(std::size_t(c), r.asset.nodes.size()) << what;
}

// Each format's magic, or the start of a valid header, in front of random bytes.
std::vector<std::pair<std::string, Bytes>> prefixes() {
    using test::broken::text;
    std::vector<std::pair<std::string, Bytes>> p = {
        {"none", {}},
        {"FileMesh 1.00", text("version 1.00\n")},
        {"FileMesh 2.00", text("version 2.00\n")},
        {"FileMesh 3.01", text("version 3.01\n")},
        {"FileMesh 4.01", text("version 4.01\n")},
        {"FileMesh 5.00", text("version 5.00\n")},
        {"FileMesh 6.00", text("version 6.00\n")},
        {"FileMesh 7.00", text("version 7.00\n")},
        {"binary model", text(std::string("<roblox!\x89\xff\r\n\x1a\n\0\0", 16))},
        {"XML model", text("<roblox version=\"4\">")},
        {"Second Life", text(std::string("{\0\0\0\x03k\0\0\0\x08high_lod", 18))},
        {"Unigine mi08", text("mi08")},
        {"Unigine ms08", text("ms08")},
        {"Unigine as08", text("as08")},
        {"Unigine mr02", text("mr02")},
        {"gzip", Bytes{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3}},
    };
    // Headers whose counts fit the file, so the decoders read ~100 MB of random records before
    // they meet something they refuse. FileMesh 4.00: 24-byte header {size, lodType, numVerts,
    // numFaces, numLods, numBones, nameSize, numSubsets, hq, unused}: 2.5 M vertices (100 MB),
    // then faces of random indices.
    {
        Bytes h = text("version 4.00\n");
        h.resize(13 + 24, 0);
        h = test::broken::putLe<std::uint16_t>(h, 13, 24);
        h = test::broken::putLe<std::uint32_t>(h, 13 + 4, 2'500'000);
        h = test::broken::putLe<std::uint32_t>(h, 13 + 8, 8'000'000);
        p.push_back({"FileMesh 4.00 fit", h});
    }
    // Unigine mi08: bounds, 1 surface, its name (empty) and bounds, then 5 M vertices of 18 bytes.
    {
        Bytes h = text("mi08");
        h.resize(4 + 40 + 4 + 4 + 1 + 40 + 4, 0);
        h = test::broken::putLe<std::int32_t>(h, 44, 1);
        h = test::broken::putLe<std::int32_t>(h, 48, 1);
        h = test::broken::putLe<std::int32_t>(h, 48 + 4 + 1 + 40, 5'000'000);
        p.push_back({"Unigine mi08 fit", h});
    }
    return p;
}

}  // namespace

TEST(RandomInput, TwoHundredMegabytesOfRandomBytes) {
    constexpr std::size_t kSize = 200u << 20;
    std::mt19937_64 rng(20261122);
    Bytes bytes(kSize);
    for (std::size_t i = 0; i < kSize; i += 8) {
        const std::uint64_t v = rng();
        std::memcpy(bytes.data() + i, &v, 8);
    }
    const Bytes original(bytes.begin(), bytes.begin() + 64);
    double total = 0;
    for (const auto& [name, prefix] : prefixes()) {
        std::memcpy(bytes.data(), original.data(), original.size());
        if (!prefix.empty()) std::memcpy(bytes.data(), prefix.data(), prefix.size());
        const auto start = std::chrono::steady_clock::now();
        const DecodeResult r = decodeBytes(bytes);
        const double s = secondsSince(start);
        total += s;
        std::printf("[ measured ] 200 MB random after %-14s %6.3f s: %s\n", name.c_str(), s,
                    r.ok() ? "decoded" : r.error->toString().substr(0, 110).c_str());
        expectSane(r, bytes, name);
        // An error, or a partial result bounded by the input: no more vertices, instances or
        // frames than the bytes could hold.
        if (r.ok()) {
            std::size_t vertices = 0;
            for (const auto& m : r.asset.meshes) vertices += m.positions.size();
            EXPECT_LE(vertices * 12, kSize) << name;
            EXPECT_LE(r.asset.nodes.size(), kSize) << name;
        }
    }
    std::printf("[ measured ] 200 MB random, %zu decodes: %.2f s in all\n", prefixes().size(),
                total);
}

namespace {

// Files of every format the project can write (mr02 and XML from their layouts).
std::vector<std::pair<std::string, Bytes>> writerFiles() {
    std::vector<std::pair<std::string, Bytes>> files;
    const Asset sphere = makeUvSphere(4, 6), skinned = makeSkinnedCylinder(3, 3, 5),
                facs = makeFacsHead();
    for (const char* v : {"2.00", "3.00", "4.00", "5.00", "6.00", "7.00"}) {
        for (const auto* a : {&sphere, &skinned, &facs}) {
            FileMeshWriteOptions o;
            o.version = v;
            if (auto r = writeFileMesh(*a, 0, o); r.ok())
                files.push_back({std::string("FileMesh ") + v, r.bytes});
        }
    }
    for (auto c : {RobloxChunkCompression::None, RobloxChunkCompression::Lz4,
                   RobloxChunkCompression::Zstd}) {
        RobloxModelWriteOptions o;
        o.compression = c;
        if (auto r = writeRobloxModel(makeRobloxTypesModel(), o); r.ok())
            files.push_back({"binary model " + std::to_string(int(c)), r.bytes});
    }
    files.push_back(
        {"XML model",
         test::broken::text(
             "<roblox version=\"4\"><SharedStrings><SharedString md5=\"a\">aGk=</SharedString>"
             "</SharedStrings><Item class=\"Model\" referent=\"RBX0\"><Properties>"
             "<string name=\"Name\">M</string><CoordinateFrame name=\"C\"><X>1</X><Y>2</Y>"
             "<Z>3</Z><R00>1</R00><R01>0</R01><R02>0</R02><R10>0</R10><R11>1</R11><R12>0"
             "</R12><R20>0</R20><R21>0</R21><R22>1</R22></CoordinateFrame></Properties>"
             "<Item class=\"ObjectValue\" referent=\"RBX1\"><Properties><Ref name=\"Value\">"
             "RBX0</Ref></Properties></Item></Item></roblox>")});
    files.push_back(
        {"Second Life", test::broken::secondlife::write(test::broken::secondlife::lods())});
    {
        Asset s = skinned;
        s.meshes[0].name = "high_lod";
        files.push_back({"Second Life skinned", test::broken::secondlife::write(s)});
    }
    const Asset anim = test::broken::unigine::skinnedWithAnimation();
    files.push_back({"Unigine mi08", test::broken::unigine::checked(writeUnigineMesh(sphere))});
    files.push_back(
        {"Unigine ms08", test::broken::unigine::checked(writeUnigineSkinnedMesh(anim))});
    files.push_back(
        {"Unigine as08", test::broken::unigine::checked(writeUnigineAnimation(anim, 0))});
    files.push_back({"Unigine mr02", test::broken::unigine::mr02({{0, 0, 0, 0, 0, 1, 0, 0},
                                                                  {1, 0, 0, 0, 0, 1, 1, 0},
                                                                  {0, 1, 0, 0, 0, 1, 0, 1}})});
    return files;
}

Bytes mutate(const Bytes& original, std::mt19937& rng) {
    Bytes b = original;
    if (b.empty()) return b;
    auto at = [&] { return std::size_t(rng() % b.size()); };
    switch (rng() % 5) {
        case 0: {  // 1-8 bit flips
            const int flips = 1 + int(rng() % 8);
            for (int i = 0; i < flips; ++i) b[at()] ^= std::uint8_t(1u << (rng() % 8));
            break;
        }
        case 1: {  // an extreme 32-bit value anywhere (counts, lengths, offsets)
            static const std::uint32_t extremes[] = {0,          1,       0x7fffffff, 0x80000000,
                                                     0xffffffff, 0x10000, 0xffff};
            const std::uint32_t v = extremes[rng() % 7];
            const std::size_t p = at();
            for (std::size_t k = 0; k < 4 && p + k < b.size(); ++k)
                b[p + k] = std::uint8_t(v >> (8 * k));
            break;
        }
        case 2:  // cut anywhere
            b.resize(at());
            break;
        case 3: {  // random bytes inserted
            const std::size_t p = at(), n = 1 + rng() % 16;
            Bytes ins(n);
            for (auto& x : ins) x = std::uint8_t(rng());
            b.insert(b.begin() + std::ptrdiff_t(p), ins.begin(), ins.end());
            break;
        }
        default: {  // bytes removed
            const std::size_t p = at();
            const std::size_t n = std::min<std::size_t>(1 + rng() % 16, b.size() - p);
            b.erase(b.begin() + std::ptrdiff_t(p), b.begin() + std::ptrdiff_t(p + n));
            break;
        }
    }
    return b;
}

}  // namespace

TEST(RandomInput, MutatedWriterFilesOfEveryFormat) {
    const auto files = writerFiles();
    ASSERT_GE(files.size(), 20u);
    std::mt19937 rng(8);
    const auto start = std::chrono::steady_clock::now();
    int cases = 0, failures = 0;
    for (const auto& [name, original] : files) {
        ASSERT_TRUE(decodeBytes(original).ok()) << name << " does not decode unmutated";
        for (int i = 0; i < 120; ++i) {
            const Bytes b = mutate(original, rng);
            // Decoded from a block of exactly its size: a cut or an erase leaves the vector's
            // capacity, where ASan would not see a read past the end.
            const DecodeResult r = decodeBytes(test::ExactPrefix(b, b.size()));
            expectSane(r, b, name + " mutation #" + std::to_string(i));
            failures += !r.ok();
            ++cases;
        }
    }
    std::printf("[ measured ] %d mutated writer files (%zu originals): %d errors, %.2f s\n", cases,
                files.size(), failures, secondsSince(start));
    EXPECT_GE(cases, 3000);
}
