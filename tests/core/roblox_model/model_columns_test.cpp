// Column storage of binary model properties: one PropertyTable per INST chunk and one typed
// PropertyColumn per PROP chunk, nodes pointing at their row, and Asset::properties() /
// Asset::property() materializing a node's list in the stored order. A chunk that fails part way
// keeps the rows read before the failure.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "meshscope/core/decode.h"
#include "meshscope/core/roblox_model_writer.h"
#include "model_compare.h"

namespace meshscope {
namespace {

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
        if (n.kind != "Part") continue;
        ++parts;
        EXPECT_EQ(n.table, partTable);
        ASSERT_LT(n.row, 300u);
        ++rowsSeen[n.row];
        EXPECT_TRUE(n.properties.empty());  // nothing is stored per node
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
        if (a.nodes[i].kind == "Part") decodedByName[a.nodes[i].name] = int(i);
    for (const Node& n : place.nodes) {
        if (n.kind != "Part") continue;
        ASSERT_TRUE(decodedByName.contains(n.name)) << n.name;
        const int i = decodedByName[n.name];
        for (const Property& want : n.properties) {
            const auto got = a.property(i, want.name);
            ASSERT_TRUE(got.has_value()) << want.name;
            EXPECT_EQ(got->type, want.type) << want.name;
            // PhysicalProperties are written as floats: the generator's 0.7 comes back rounded.
            if (want.type == "PhysicalProperties") continue;
            EXPECT_TRUE(got->value == want.value) << n.name << "." << want.name;
        }
    }
}

TEST(RobloxModelColumns, StringChunkCutShortKeepsTheRowsRead) {
    RawModel m(1, 3);
    m.chunk("INST", RawModel::inst(0, "Folder", {0, 1, 2}));
    Bytes prop;
    RawModel::put(prop, std::uint32_t(0));
    RawModel::putString(prop, "Name");
    prop.push_back(0x01);  // string
    RawModel::putString(prop, "first");
    RawModel::putString(prop, "second");
    RawModel::put(prop, std::uint32_t(1000));  // the third string runs past the chunk
    m.chunk("PROP", prop);
    m.end();
    const DecodeResult r = decodeBytes(m.bytes, {.fileName = "cut.rbxm"});
    ASSERT_FALSE(r.ok());
    ASSERT_EQ(r.asset.nodes.size(), 3u);
    EXPECT_EQ(r.asset.nodes[0].name, "first");
    EXPECT_EQ(r.asset.nodes[1].name, "second");
    EXPECT_EQ(r.asset.nodes[2].name, "Folder");
    const auto second = r.asset.property(1, "Name");
    ASSERT_TRUE(second.has_value());
    EXPECT_EQ(std::get<std::string>(second->value), "second");
    EXPECT_FALSE(r.asset.property(2, "Name").has_value());
    EXPECT_EQ(r.asset.propertyCount(2), 0u);
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

TEST(RobloxModelColumns, OwnPropertiesComeBeforeColumnValues) {
    Asset a;
    const int n = a.addNode("x", "Part");
    a.nodes[std::size_t(n)].properties.push_back({"Own", "bool", true, 7, 1});
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
