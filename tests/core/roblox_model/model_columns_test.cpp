// Column storage of binary model properties: one PropertyTable per INST chunk and one typed
// PropertyColumn per PROP chunk, nodes pointing at their row, and Asset::properties() /
// Asset::property() materializing a node's list in the stored order. A chunk that fails part way
// keeps the rows read before the failure.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "meshscope/core/decode.h"
#include "meshscope/core/error_codes.h"
#include "meshscope/core/roblox_model_writer.h"
#include "model_compare.h"

namespace meshscope {
namespace {

using test::chunkAt;
using test::chunkEnd;
using test::RawModel;

TEST(RobloxModelColumns, PlaceValuesLiveInOneColumnPerPropChunk) {
    const Asset place = makeRobloxPlace(300);
    const auto written = writeRobloxModel(place);
    ASSERT_TRUE(written.ok());
    const DecodeResult r = decodeBytes(written.bytes, {.fileName = "place.rbxl"});
    ASSERT_TRUE(r.ok()) << r.error->toString();
    const Asset& a = r.asset;
    // Workspace, Lighting, Model and Part: one INST chunk, so one table, each.
    ASSERT_EQ(a.propertyTables.size(), 4u);
    int partTable = -1;
    for (std::size_t t = 0; t < a.propertyTables.size(); ++t)
        if (a.propertyTables[t].name == "Part") partTable = int(t);
    ASSERT_GE(partTable, 0);
    const PropertyTable& table = a.propertyTables[std::size_t(partTable)];
    // The generator gives every part the same 20 properties: 20 columns of 300 rows.
    ASSERT_EQ(table.columns.size(), 20u);
    for (const PropertyColumn& c : table.columns) EXPECT_EQ(c.rows(), 300u) << c.name;

    std::vector<int> rowsSeen(300, 0);
    std::size_t parts = 0;
    for (std::size_t i = 0; i < a.nodes.size(); ++i) {
        const Node& n = a.nodes[i];
        if (a.kind(int(i)) != "Part") continue;
        ++parts;
        EXPECT_EQ(n.table, partTable);
        ASSERT_LT(n.row, 300u);
        ++rowsSeen[n.row];
        EXPECT_TRUE(a.ownProperties(int(i)).empty());  // nothing is stored per node
        const std::vector<Property> props = a.properties(int(i));
        ASSERT_EQ(props.size(), 20u);
        EXPECT_EQ(a.propertyCount(int(i)), 20u);
        for (std::size_t k = 0; k < props.size(); ++k) {
            EXPECT_EQ(props[k].name, table.columns[k].name);
            EXPECT_EQ(props[k].type, table.columns[k].type);
        }
    }
    EXPECT_EQ(parts, 300u);
    for (int seen : rowsSeen) EXPECT_EQ(seen, 1);

    // Values equal the generated ones (parts matched by their unique names).
    std::map<std::string, int> decodedByName;
    for (std::size_t i = 0; i < a.nodes.size(); ++i)
        if (a.kind(int(i)) == "Part") decodedByName[std::string(a.name(int(i)))] = int(i);
    for (std::size_t w = 0; w < place.nodes.size(); ++w) {
        if (place.kind(int(w)) != "Part") continue;
        const std::string name(place.name(int(w)));
        ASSERT_TRUE(decodedByName.contains(name)) << name;
        const int i = decodedByName[name];
        for (const Property& want : place.ownProperties(int(w))) {
            const auto got = a.property(i, want.name);
            ASSERT_TRUE(got.has_value()) << want.name;
            EXPECT_EQ(got->type, want.type) << want.name;
            // The value alone, as property() finds it.
            const auto value = a.propertyValue(i, want.name);
            ASSERT_TRUE(value.has_value()) << want.name;
            EXPECT_TRUE(*value == got->value) << name << "." << want.name;
            // PhysicalProperties are written as floats: the generator's 0.7 comes back rounded.
            if (want.type == "PhysicalProperties") continue;
            EXPECT_TRUE(got->value == want.value) << name << "." << want.name;
        }
    }
}

// Node `node` has the name `name`, and a Name property (from its column) of that value.
void expectNamed(const Asset& a, int node, const std::string& name) {
    EXPECT_EQ(a.name(node), name);
    const auto value = a.property(node, "Name");
    ASSERT_TRUE(value.has_value()) << "node " << node;
    EXPECT_EQ(std::get<std::string>(value->value), name);
}

// PhysicalProperties rows: a flags byte, then 5 floats (6 with bit 2) when bit 1 is set. A row
// cut short fails at its floats, the rows before it staying in the column.
TEST(RobloxModelColumns, PhysicalPropertiesCutShortKeepTheRowsRead) {
    RawModel m(1, 4);
    m.chunk("INST", RawModel::inst(0, "Part", {0, 1, 2, 3}));
    Bytes prop = RawModel::propHeader(0, "CustomPhysicalProperties", 0x19);
    prop.push_back(0);  // default
    prop.push_back(1);
    for (float f : {0.7f, 0.3f, 0.5f, 1.0f, 2.0f}) RawModel::put(prop, f);
    prop.push_back(3);
    for (float f : {0.1f, 0.2f, 0.3f, 0.4f, 0.5f, 0.25f}) RawModel::put(prop, f);
    prop.push_back(1);
    RawModel::put(prop, 9.0f);  // 4 of its 20 bytes
    const std::size_t chunkAt = m.bytes.size();
    m.chunk("PROP", prop);
    m.end();
    const DecodeResult r = decodeBytes(m.bytes, {.fileName = "physics.rbxm"});
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error->code, errc::kTruncated) << r.error->toString();
    EXPECT_EQ(r.error->offset, chunkAt + 16 + prop.size() - 4);  // the cut row's floats
    ASSERT_EQ(r.asset.nodes.size(), 4u);
    EXPECT_EQ(std::get<std::vector<double>>(r.asset.property(0, "CustomPhysicalProperties")->value),
              std::vector<double>{});
    EXPECT_EQ(std::get<std::vector<double>>(r.asset.property(1, "CustomPhysicalProperties")->value),
              (std::vector<double>{0.7f, 0.3f, 0.5f, 1.0f, 2.0f, 1.0}));
    EXPECT_EQ(std::get<std::vector<double>>(r.asset.property(2, "CustomPhysicalProperties")->value),
              (std::vector<double>{0.1f, 0.2f, 0.3f, 0.4f, 0.5f, 0.25f}));
    EXPECT_FALSE(r.asset.property(3, "CustomPhysicalProperties").has_value());
}

TEST(RobloxModelColumns, StringChunkCutShortKeepsTheRowsRead) {
    RawModel m(1, 3);
    m.chunk("INST", RawModel::inst(0, "Folder", {0, 1, 2}));
    Bytes prop = RawModel::propHeader(0, "Name", 0x01);  // string
    RawModel::putString(prop, "first");
    RawModel::putString(prop, "second");
    RawModel::put(prop, std::uint32_t(1000));  // the third string runs past the chunk
    m.chunk("PROP", prop);
    m.end();
    const DecodeResult r = decodeBytes(m.bytes, {.fileName = "cut.rbxm"});
    ASSERT_FALSE(r.ok());
    ASSERT_EQ(r.asset.nodes.size(), 3u);
    expectNamed(r.asset, 0, "first");
    expectNamed(r.asset, 1, "second");
    EXPECT_EQ(r.asset.name(2), "Folder");
    EXPECT_FALSE(r.asset.property(2, "Name").has_value());
    EXPECT_EQ(r.asset.propertyCount(2), 0u);
}

// Names are taken in blocks of rows: a later Name column cut short names the rows it has, an
// earlier one the rest, past the first block too.
TEST(RobloxModelColumns, ALaterNameColumnCutShortNamesItsRowsOnly) {
    constexpr int kCount = 3000, kCut = 1500;
    RawModel m(1, kCount);
    std::vector<std::int32_t> refs(kCount);
    for (int i = 0; i < kCount; ++i) refs[std::size_t(i)] = i;
    m.chunk("INST", RawModel::inst(0, "Folder", refs));
    Bytes whole = RawModel::propHeader(0, "Name", 0x01);  // string
    for (int i = 0; i < kCount; ++i) RawModel::putString(whole, "a" + std::to_string(i));
    m.chunk("PROP", whole);
    Bytes cut = RawModel::propHeader(0, "Name", 0x01);
    for (int i = 0; i < kCut; ++i) RawModel::putString(cut, "b" + std::to_string(i));
    RawModel::put(cut, std::uint32_t(1000));  // row kCut runs past the chunk
    m.chunk("PROP", cut);
    m.end();
    const DecodeResult r = decodeBytes(m.bytes, {.fileName = "names.rbxm"});
    ASSERT_FALSE(r.ok());
    ASSERT_EQ(r.asset.nodes.size(), std::size_t(kCount));
    for (int i = 0; i < kCount; ++i)
        ASSERT_EQ(r.asset.name(i), (i < kCut ? "b" : "a") + std::to_string(i)) << i;
}

// A node's name comes from the last Name column of its class (an empty string included), else
// it is its class name; children follow PRNT order, the first link of a child winning.
TEST(RobloxModelColumns, NamesComeFromTheLastNameColumnElseTheClass) {
    RawModel m(2, 5);
    m.chunk("INST", RawModel::inst(0, "Folder", {0, 1, 2}));
    const std::size_t partsAt = m.bytes.size();
    m.chunk("INST", RawModel::inst(1, "Part", {3, 4}));
    for (const auto& names :
         {std::vector<std::string>{"a", "b", "c"}, std::vector<std::string>{"x", "", "z"}}) {
        Bytes prop = RawModel::propHeader(0, "Name", 0x01);  // string
        for (const auto& n : names) RawModel::putString(prop, n);
        m.chunk("PROP", prop);
    }
    m.chunk("PRNT", RawModel::prnt({3, 4, 1, 2, 3}, {0, 0, 0, 1, 2}));  // 3's second link loses
    m.end();
    const DecodeResult r = decodeBytes(m.bytes, {.fileName = "names.rbxm"});
    ASSERT_TRUE(r.ok()) << r.error->toString();
    ASSERT_EQ(r.asset.nodes.size(), 5u);
    const std::vector<std::string> names = {"x", "", "z", "Part", "Part"};
    const std::vector<std::string> kinds = {"Folder", "Folder", "Folder", "Part", "Part"};
    const std::vector<int> parents = {-1, 0, 1, 0, 0};
    const std::vector<std::vector<int>> children = {{3, 4, 1}, {2}, {}, {}, {}};
    for (std::size_t i = 0; i < 5; ++i) {
        SCOPED_TRACE(i);
        const Node& n = r.asset.nodes[i];
        EXPECT_EQ(r.asset.name(int(i)), names[i]);
        EXPECT_EQ(r.asset.kind(int(i)), kinds[i]);
        EXPECT_EQ(n.parent, parents[i]);
        const std::span<const int> kids = r.asset.children(int(i));
        EXPECT_EQ(std::vector<int>(kids.begin(), kids.end()), children[i]);
        EXPECT_EQ(n.table, i < 3 ? 0 : 1);
        EXPECT_EQ(n.row, i < 3 ? i : i - 3);
        EXPECT_EQ(n.offset, i < 3 ? 32u : partsAt);  // the INST chunk
        EXPECT_EQ(n.length, i < 3 ? partsAt - 32 : 16 + RawModel::inst(1, "Part", {3, 4}).size());
    }
    // The first column's values stay readable in their own column.
    ASSERT_EQ(r.asset.propertyTables[0].columns.size(), 2u);
    EXPECT_EQ(r.asset.propertyTables[0].columns[0].text(1), "b");
    std::size_t duplicates = 0;
    for (const auto& d : r.asset.diagnostics) duplicates += d.code == errc::kDuplicateParent;
    EXPECT_EQ(duplicates, 1u);
}

// A chunk that ends before its rows (no length for rows 1 and 2) can hold a string longer than
// its bytes less 4 per row, the room the column's text was once sized to: it must still land in
// the column whole (an ASan build sees any write past that room).
TEST(RobloxModelColumns, StringCutBeforeItsRowsKeepsTheLongerTextRead) {
    RawModel m(1, 3);
    m.chunk("INST", RawModel::inst(0, "Folder", {0, 1, 2}));
    Bytes prop = RawModel::propHeader(0, "Name", 0x01);  // string
    RawModel::putString(prop, "0123456789abcdef");       // 20 bytes for 3 rows: 8 left for the text
    m.chunk("PROP", prop);
    m.end();
    const DecodeResult r = decodeBytes(m.bytes, {.fileName = "short.rbxm"});
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error->code, errc::kTruncated);
    ASSERT_EQ(r.asset.nodes.size(), 3u);
    expectNamed(r.asset, 0, "0123456789abcdef");
    EXPECT_EQ(r.asset.name(1), "Folder");
    EXPECT_FALSE(r.asset.property(1, "Name").has_value());
}

TEST(RobloxModelColumns, RecordRowsAreReadAcrossBytePlanes) {
    // Three 2-byte records stored as planes: first bytes {1,2,3}, second bytes {4,5,6}.
    PropertyColumn c;
    c.storage = PropertyColumn::Storage::Record;
    c.recordSize = 2;
    c.bytes = {1, 2, 3, 4, 5, 6};
    c.record = [](const std::uint8_t* b) { return Value(std::int64_t(b[0]) * 256 + b[1]); };
    ASSERT_EQ(c.rows(), 3u);
    EXPECT_EQ(std::get<std::int64_t>(c.value(0)), 1 * 256 + 4);
    EXPECT_EQ(std::get<std::int64_t>(c.value(1)), 2 * 256 + 5);
    EXPECT_EQ(std::get<std::int64_t>(c.value(2)), 3 * 256 + 6);
    EXPECT_TRUE(std::holds_alternative<std::monostate>(c.value(3)));  // past the rows
}

// A column that keeps its chunk's bytes whole: the rows begin at `first`, after the chunk's
// header, and string rows keep their 4-byte length prefixes (rowPrefix).
TEST(RobloxModelColumns, RowsBeginAtFirstAndSkipTheirPrefixes) {
    PropertyColumn planes;
    planes.storage = PropertyColumn::Storage::Record;
    planes.recordSize = 2;
    planes.first = 3;
    planes.bytes = {0xee, 0xee, 0xee, 1, 2, 3, 4, 5, 6};  // 3 header bytes, then the planes
    planes.record = [](const std::uint8_t* b) { return Value(std::int64_t(b[0]) * 256 + b[1]); };
    ASSERT_EQ(planes.rows(), 3u);
    EXPECT_EQ(std::get<std::int64_t>(planes.value(0)), 1 * 256 + 4);
    EXPECT_EQ(std::get<std::int64_t>(planes.value(2)), 3 * 256 + 6);

    PropertyColumn text;
    text.storage = PropertyColumn::Storage::String;
    text.first = 2;
    text.rowPrefix = 4;
    text.bytes = {0xee, 0xee, 1, 0, 0, 0, 'a', 3, 0, 0, 0, 'b', 'c', 'd', 0, 0, 0, 0};
    text.ends = {7, 14, 18};  // "a", "bcd", ""
    ASSERT_EQ(text.rows(), 3u);
    EXPECT_EQ(text.text(0), "a");
    EXPECT_EQ(text.text(1), "bcd");
    EXPECT_EQ(text.text(2), "");
    EXPECT_EQ(std::get<std::string>(text.value(1)), "bcd");
    PropertyColumn binary = text;
    binary.storage = PropertyColumn::Storage::Binary;
    EXPECT_EQ(std::get<Bytes>(binary.value(1)), (Bytes{'b', 'c', 'd'}));

    // Fields that disagree with the bytes give empty rows, never a read outside them.
    text.ends = {7, 40, 2};
    EXPECT_EQ(text.text(1), "");  // ends past the bytes
    EXPECT_EQ(text.text(2), "");  // starts after it ends
    planes.first = 100;
    EXPECT_EQ(planes.rows(), 0u);
}

// String rows that all take the same bytes keep no ends: recordSize places them.
TEST(RobloxModelColumns, StringRowsOfOneSizeNeedNoEnds) {
    PropertyColumn text;
    text.storage = PropertyColumn::Storage::String;
    text.first = 1;
    text.rowPrefix = 4;
    text.recordSize = 6;
    text.bytes = {0xee, 2, 0, 0, 0, 'a', 'b', 2, 0, 0, 0, 'c', 'd', 2, 0, 0, 0, 'e', 'f'};
    ASSERT_EQ(text.rows(), 3u);
    EXPECT_EQ(text.text(0), "ab");
    EXPECT_EQ(text.text(2), "ef");
    EXPECT_EQ(text.text(3), "");
    EXPECT_EQ(std::get<std::string>(text.value(1)), "cd");
    PropertyColumn binary = text;
    binary.storage = PropertyColumn::Storage::Binary;
    EXPECT_EQ(std::get<Bytes>(binary.value(2)), (Bytes{'e', 'f'}));
    // A row prefix longer than the rows, a first past the bytes: no rows read outside them.
    text.rowPrefix = 7;
    EXPECT_EQ(text.text(0), "");
    text.first = 40;
    EXPECT_EQ(text.rows(), 0u);
}

// Record rows can begin with a head of bytes found through u32s (a CFrame's rotation), before
// their plane bytes; a head cut by the end of the bytes reads as zeros.
TEST(RobloxModelColumns, RecordRowsCanBeginWithAHead) {
    PropertyColumn c;
    c.storage = PropertyColumn::Storage::Record;
    c.recordSize = 1;
    c.headSize = 2;
    c.first = 4;
    c.bytes = {10, 11, 12, 13, 1, 2, 3};  // heads at 0, 2 and 6; planes {1, 2, 3} from 4
    c.numbers.assign<std::uint32_t>({0, 2, 6});
    c.record = [](const std::uint8_t* b) {
        return Value(std::int64_t(b[0]) * 10000 + std::int64_t(b[1]) * 100 + b[2]);
    };
    ASSERT_EQ(c.rows(), 3u);
    EXPECT_EQ(std::get<std::int64_t>(c.value(0)), 10 * 10000 + 11 * 100 + 1);
    EXPECT_EQ(std::get<std::int64_t>(c.value(1)), 12 * 10000 + 13 * 100 + 2);
    EXPECT_EQ(std::get<std::int64_t>(c.value(2)), 3 * 10000 + 0 * 100 + 3);  // cut: zero
    c.numbers.assign<std::uint32_t>(
        {0, 2});  // fewer heads than rows: the rows without one are not there
    EXPECT_EQ(c.rows(), 2u);
    EXPECT_TRUE(std::holds_alternative<std::monostate>(c.value(2)));
    c.numbers.assign<std::uint32_t>({0, 99, 2});  // a head past the bytes: zeros
    EXPECT_EQ(std::get<std::int64_t>(c.value(1)), 2);
    c.headSize = 64;  // head and planes over 64 bytes: refused
    EXPECT_TRUE(std::holds_alternative<std::monostate>(c.value(0)));
}

// A place large enough that its chunks are inflated on a worker thread and its columns keep
// the inflated buffers: every value of a sample of parts equals the generated one, as for the
// small place above (decoded on one thread, its columns copied).
TEST(RobloxModelColumns, ALargePlaceKeepsEveryValue) {
    const Asset place = makeRobloxPlace(30'000);
    for (auto c : {RobloxChunkCompression::Lz4, RobloxChunkCompression::Zstd}) {
        SCOPED_TRACE(int(c));
        RobloxModelWriteOptions o;
        o.compression = c;
        const auto written = writeRobloxModel(place, o);
        ASSERT_TRUE(written.ok());
        ASSERT_GT(written.bytes.size(), std::size_t(300'000));  // over the worker's threshold
        const DecodeResult r = decodeBytes(written.bytes, {.fileName = "place.rbxl"});
        ASSERT_TRUE(r.ok()) << r.error->toString();
        const Asset& a = r.asset;
        ASSERT_EQ(a.nodes.size(), place.nodes.size());
        // Parts matched by their unique names (the writer groups instances by class).
        std::map<std::string, int> decodedByName;
        for (std::size_t i = 0; i < a.nodes.size(); ++i)
            if (a.kind(int(i)) == "Part") decodedByName[std::string(a.name(int(i)))] = int(i);
        std::size_t compared = 0, parts = 0;
        for (std::size_t w = 0; w < place.nodes.size(); ++w) {
            if (place.kind(int(w)) != "Part" || parts++ % 37 != 0) continue;
            const std::string want(place.name(int(w)));
            ASSERT_TRUE(decodedByName.contains(want)) << want;
            const int i = decodedByName[want];
            for (const Property& p : place.ownProperties(int(w))) {
                const auto got = a.property(i, p.name);
                ASSERT_TRUE(got.has_value()) << want << "." << p.name;
                if (p.type == "PhysicalProperties") continue;  // written as floats
                EXPECT_TRUE(got->value == p.value) << want << "." << p.name;
                ++compared;
            }
        }
        EXPECT_GT(compared, 10'000u);
    }
}

// Node by node: what a binary model gives every instance besides its values.
void expectSameTree(const Asset& got, const Asset& want) {
    ASSERT_EQ(got.nodes.size(), want.nodes.size());
    for (std::size_t i = 0; i < got.nodes.size(); ++i) {
        SCOPED_TRACE(i);
        const Node& g = got.nodes[i];
        const Node& w = want.nodes[i];
        ASSERT_EQ(got.name(int(i)), want.name(int(i)));
        ASSERT_EQ(got.kind(int(i)), want.kind(int(i)));
        ASSERT_EQ(g.parent, w.parent);
        ASSERT_TRUE(std::ranges::equal(got.children(int(i)), want.children(int(i))));
        ASSERT_EQ(g.table, w.table);
        ASSERT_EQ(g.row, w.row);
        ASSERT_EQ(g.service, w.service);
    }
}

// A large place with compressed chunks is decoded on two threads: the worker that inflates the
// chunks builds the node array while this thread decodes the values, then names the nodes
// while this thread links the tree, and each thread links half of the nodes. The tree is the
// one the same place gives with raw chunks, decoded on one thread.
TEST(RobloxModelColumns, ALargePlaceGivesTheTreeOfItsRawTwin) {
    const Asset place = makeRobloxPlace(30'000);
    RobloxModelWriteOptions raw;
    raw.compression = RobloxChunkCompression::None;
    const DecodeResult want =
        decodeBytes(writeRobloxModel(place, raw).bytes, {.fileName = "raw.rbxl"});
    ASSERT_TRUE(want.ok()) << want.error->toString();
    ASSERT_EQ(want.asset.nodes.size(), place.nodes.size());
    for (auto c : {RobloxChunkCompression::Lz4, RobloxChunkCompression::Zstd}) {
        SCOPED_TRACE(int(c));
        RobloxModelWriteOptions o;
        o.compression = c;
        const DecodeResult r =
            decodeBytes(writeRobloxModel(place, o).bytes, {.fileName = "place.rbxl"});
        ASSERT_TRUE(r.ok()) << r.error->toString();
        expectSameTree(r.asset, want.asset);
        EXPECT_EQ(r.asset.diagnostics.size(), want.asset.diagnostics.size());
    }
}

// An INST chunk after the first PROP chunk: the nodes the worker began to build lack its
// instances, and the decoding thread builds them all instead. Every instance is there, named and
// linked, as when the INST chunks come first.
TEST(RobloxModelColumns, AnInstChunkAfterAPropChunkStillGivesEveryNode) {
    const Bytes b = writeRobloxModel(makeRobloxPlace(30'000)).bytes;
    const DecodeResult want = decodeBytes(b, {.fileName = "place.rbxl"});
    ASSERT_TRUE(want.ok()) << want.error->toString();
    // Moves the last INST chunk (before the PROP chunks) to just after the first PROP chunk.
    std::size_t lastInst = chunkAt(b, "INST");
    for (std::size_t at = lastInst; at < b.size(); at = chunkAt(b, "INST", chunkEnd(b, at)))
        lastInst = at;
    const std::size_t prop = chunkAt(b, "PROP");
    ASSERT_LT(lastInst, prop);
    ASSERT_LT(prop, b.size());
    const std::size_t instEnd = chunkEnd(b, lastInst), propEnd = chunkEnd(b, prop);
    ASSERT_EQ(instEnd, prop) << "the writer puts every INST chunk before the PROP chunks";
    Bytes moved(b.begin(), b.begin() + std::ptrdiff_t(lastInst));
    moved.insert(moved.end(), b.begin() + std::ptrdiff_t(prop),
                 b.begin() + std::ptrdiff_t(propEnd));
    moved.insert(moved.end(), b.begin() + std::ptrdiff_t(lastInst),
                 b.begin() + std::ptrdiff_t(instEnd));
    moved.insert(moved.end(), b.begin() + std::ptrdiff_t(propEnd), b.end());
    ASSERT_EQ(moved.size(), b.size());
    ASSERT_EQ(chunkAt(moved, "PROP"), lastInst);
    const DecodeResult r = decodeBytes(moved, {.fileName = "moved.rbxl"});
    ASSERT_TRUE(r.ok()) << r.error->toString();
    expectSameTree(r.asset, want.asset);
}

TEST(RobloxModelColumns, OwnPropertiesComeBeforeColumnValues) {
    Asset a;
    const int n = a.addNode("x", "Part");
    a.addProperty(n, {"Own", "bool", true, 7, 1});
    PropertyTable& t = a.propertyTables.emplace_back();
    PropertyColumn& c = t.columns.emplace_back();
    c.name = "Tags";
    c.type = "string";
    c.storage = PropertyColumn::Storage::String;
    c.offset = 100;
    c.length = 12;
    c.bytes = {'a', 'b', 'c', 'd'};
    c.ends = {1, 4};  // rows "a" and "bcd"
    a.nodes[std::size_t(n)].table = 0;
    a.nodes[std::size_t(n)].row = 1;
    const std::vector<Property> props = a.properties(n);
    ASSERT_EQ(props.size(), 2u);
    EXPECT_EQ(props[0].name, "Own");
    EXPECT_EQ(props[1].name, "Tags");
    EXPECT_EQ(std::get<std::string>(props[1].value), "bcd");
    EXPECT_EQ(props[1].offset, 100u);  // the column's range, shared by its rows
    EXPECT_EQ(props[1].length, 12u);
    EXPECT_EQ(c.text(0), "a");
}

}  // namespace
}  // namespace meshscope
