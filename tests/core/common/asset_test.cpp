// The node model: names, kinds, children, own properties and links kept beside the node array,
// read and edited through the Asset, and the registry's checks of those handles.
#include "meshscope/core/asset.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <span>
#include <string>
#include <vector>

#include "meshscope/core/decode.h"
#include "meshscope/core/error_codes.h"

namespace meshscope {
namespace {

std::vector<int> list(std::span<const int> s) {
    return {s.begin(), s.end()};
}

TEST(StringTable, InternsEachStringOnce) {
    StringTable t;
    EXPECT_EQ(t.size(), 1u);  // "" is there from the start
    EXPECT_EQ(t[0], "");
    EXPECT_EQ(t.intern(""), 0u);
    const std::uint32_t part = t.intern("Part");
    const std::uint32_t model = t.intern("Model");
    EXPECT_NE(part, model);
    EXPECT_EQ(t.intern(std::string("Pa") + "rt"), part);
    EXPECT_EQ(t[part], "Part");
    EXPECT_EQ(t[model], "Model");
    EXPECT_EQ(t.size(), 3u);
    EXPECT_EQ(t[99], "");  // out of range
    // find() looks up without adding.
    EXPECT_EQ(t.find("Part"), part);
    EXPECT_EQ(t.find("Model"), model);
    EXPECT_EQ(t.find("Missing"), 0u);
    EXPECT_EQ(t.find(""), 0u);
    EXPECT_EQ(t.size(), 3u);
    EXPECT_EQ(StringTable{}.find("Part"), 0u);
}

TEST(Asset, NodesKeepNamesKindsChildrenAndPropertiesBesideTheArray) {
    Asset a;
    const int root = a.addNode("Workspace", "Workspace");
    const int first = a.addNode("Part1", "Part", root);
    const int second = a.addNode("", "Part", root);
    const int inner = a.addNode("Mesh", "SpecialMesh", second);
    ASSERT_EQ(a.nodes.size(), 4u);
    EXPECT_EQ(a.name(first), "Part1");
    EXPECT_EQ(a.kind(first), "Part");
    EXPECT_EQ(a.nodes[std::size_t(first)].kindId, a.nodes[std::size_t(second)].kindId);
    EXPECT_EQ(a.kinds.size(), 4u);  // "", Workspace, Part, SpecialMesh
    EXPECT_EQ(a.nameOrKind(second), "Part");
    EXPECT_EQ(a.nameOrKind(first), "Part1");
    EXPECT_EQ(list(a.children(root)), (std::vector<int>{first, second}));
    EXPECT_EQ(list(a.children(second)), (std::vector<int>{inner}));
    EXPECT_TRUE(a.children(first).empty());
    EXPECT_EQ(a.nodes[std::size_t(inner)].parent, second);
    EXPECT_EQ(a.roots(), (std::vector<int>{root}));

    a.setName(first, "Renamed");
    a.setKind(first, "WedgePart");
    EXPECT_EQ(a.name(first), "Renamed");
    EXPECT_EQ(a.kind(first), "WedgePart");
    EXPECT_EQ(a.name(root), "Workspace");  // others keep theirs

    EXPECT_TRUE(a.ownProperties(first).empty());
    a.addProperty(first, {"Anchored", "bool", true, 4, 1});
    a.propertyList(first).push_back({"Size", "Vector3", Vec3{1, 2, 3}, 0, 0});
    ASSERT_EQ(a.ownProperties(first).size(), 2u);
    ASSERT_NE(a.ownProperty(first, "Size"), nullptr);
    EXPECT_EQ(std::get<Vec3>(a.ownProperty(first, "Size")->value), (Vec3{1, 2, 3}));
    EXPECT_EQ(a.ownProperty(first, "Missing"), nullptr);
    EXPECT_EQ(a.ownProperty(root, "Size"), nullptr);
    EXPECT_EQ(a.properties(first).size(), 2u);
    EXPECT_EQ(a.property(first, "Anchored")->offset, 4u);
    ASSERT_TRUE(a.propertyValue(first, "Size").has_value());
    EXPECT_EQ(std::get<Vec3>(*a.propertyValue(first, "Size")), (Vec3{1, 2, 3}));
    EXPECT_FALSE(a.propertyValue(first, "Missing").has_value());
    EXPECT_FALSE(a.propertyValue(-1, "Size").has_value());
    EXPECT_FALSE(a.propertyValue(99, "Size").has_value());

    EXPECT_EQ(a.links(inner), NodeLinks{});
    a.linksOf(inner).mesh = 0;
    a.linksOf(inner).lod = 2;
    EXPECT_EQ(a.links(inner).mesh, 0);
    EXPECT_EQ(a.links(inner).lod, 2);
    EXPECT_EQ(a.links(inner).skeleton, -1);
    EXPECT_EQ(a.nodeLinks.size(), 1u);  // one entry, made once
}

TEST(Asset, NodesOutOfRangeReadAsEmpty) {
    Asset a;
    a.addNode("x", "Part");
    for (int node : {-1, 1, 1000}) {
        EXPECT_EQ(a.name(node), "");
        EXPECT_EQ(a.kind(node), "");
        EXPECT_TRUE(a.children(node).empty());
        EXPECT_TRUE(a.ownProperties(node).empty());
        EXPECT_EQ(a.links(node), NodeLinks{});
        EXPECT_TRUE(a.properties(node).empty());
    }
    // Handles that point past their stores read as nothing too.
    Node& n = a.nodes[0];
    n.nameAt = 100;
    n.kindId = 77;
    n.childList = 5;
    n.propertyList = 5;
    n.linkList = 5;
    EXPECT_EQ(a.name(0), "");
    EXPECT_EQ(a.kind(0), "");
    EXPECT_TRUE(a.children(0).empty());
    EXPECT_TRUE(a.ownProperties(0).empty());
    EXPECT_EQ(a.links(0), NodeLinks{});
}

TEST(Asset, CopiesKeepTheirNames) {
    Asset a;
    const int n = a.addNode("Part1", "Part");
    Asset b = a;
    b.setName(n, "Other");
    EXPECT_EQ(a.name(n), "Part1");
    EXPECT_EQ(b.name(n), "Other");
    a = Asset();
    EXPECT_EQ(b.kind(n), "Part");
}

// The registry's checks, on handles a decoder could leave wrong.
TEST(Asset, SanitizeDropsHandlesThatPointNowhere) {
    Asset a;
    const int root = a.addNode("root", "Model");
    const int child = a.addNode("child", "Part", root);
    const int other = a.addNode("other", "Part", root);
    a.addProperty(child, {"A", "bool", true});
    a.linksOf(child).mesh = 3;      // no mesh 3
    a.linksOf(other).skeleton = 0;  // no skeleton
    a.linksOf(other).bone = 1;
    a.nodes[std::size_t(other)].nameAt = 1000;  // past nodeText
    a.nodes[std::size_t(other)].kindId = 50;    // past the kinds
    a.childList(child).push_back(99);           // no node 99
    // `other` shares the root's child list and `child`'s property list.
    a.nodes[std::size_t(other)].childList = a.nodes[std::size_t(root)].childList;
    a.nodes[std::size_t(other)].propertyList = a.nodes[std::size_t(child)].propertyList;
    sanitizeAsset(a);
    EXPECT_EQ(a.name(other), "");
    EXPECT_EQ(a.kind(other), "");
    EXPECT_EQ(a.links(child).mesh, -1);
    EXPECT_EQ(a.links(other).skeleton, -1);
    EXPECT_EQ(a.links(other).bone, -1);
    EXPECT_EQ(a.nodes[std::size_t(other)].childList, -1);  // the root keeps the list
    EXPECT_EQ(a.nodes[std::size_t(other)].propertyList, -1);
    EXPECT_EQ(a.ownProperties(child).size(), 1u);
    EXPECT_EQ(list(a.children(root)), (std::vector<int>{child, other}));
    EXPECT_TRUE(a.children(child).empty());
    EXPECT_EQ(a.name(child), "child");
}

TEST(Asset, SanitizeMakesChildListsAgreeWithParents) {
    Asset a;
    const int r1 = a.addNode("r1", "Model");
    const int r2 = a.addNode("r2", "Model");
    const int c = a.addNode("c", "Part", r1);
    a.addChild(r2, c);                     // listed by a node that is not its parent
    const int d = a.addNode("d", "Part");  // a root ...
    a.nodes[std::size_t(d)].parent = r2;   // ... whose parent does not list it
    sanitizeAsset(a);
    EXPECT_EQ(list(a.children(r1)), (std::vector<int>{c}));
    EXPECT_EQ(list(a.children(r2)), (std::vector<int>{d}));
    const auto repaired =
        std::find_if(a.diagnostics.begin(), a.diagnostics.end(),
                     [](const Diagnostic& g) { return g.code == errc::kNodeLinks; });
    ASSERT_NE(repaired, a.diagnostics.end());
    EXPECT_NE(repaired->message.find("2 child links"), std::string::npos) << repaired->message;
}

TEST(PropertyColumn, TextsWalkStringRows) {
    PropertyColumn c;
    c.storage = PropertyColumn::Storage::String;
    // Rows as a binary model keeps them: each after a 4-byte length, from `first`.
    const std::string bytes = std::string("HEAD") + std::string("\x02\0\0\0ab", 6) +
                              std::string("\0\0\0\0", 4) + std::string("\x03\0\0\0xyz", 7);
    const auto* raw = reinterpret_cast<const std::uint8_t*>(bytes.data());
    c.bytes.assign(raw, raw + bytes.size());
    c.first = 4;
    c.rowPrefix = 4;
    c.ends = {10, 14, 21};
    std::string_view out[3];
    ASSERT_EQ(c.texts(0, 3, out), 3u);
    EXPECT_EQ(out[0], "ab");
    EXPECT_EQ(out[1], "");
    EXPECT_EQ(out[2], "xyz");
    for (std::size_t r = 0; r < 3; ++r) EXPECT_EQ(out[r], c.text(r));
    EXPECT_EQ(c.texts(1, 9, out), 2u);  // rows past rows() are not written
    EXPECT_EQ(out[1], "xyz");
    EXPECT_EQ(c.texts(3, 5, out), 0u);
    // Rows of one size need no ends.
    PropertyColumn u;
    u.storage = PropertyColumn::Storage::String;
    const std::string same = std::string("\x01\0\0\0p", 5) + std::string("\x01\0\0\0q", 5);
    const auto* sameRaw = reinterpret_cast<const std::uint8_t*>(same.data());
    u.bytes.assign(sameRaw, sameRaw + same.size());
    u.rowPrefix = 4;
    u.recordSize = 5;
    ASSERT_EQ(u.texts(0, 2, out), 2u);
    EXPECT_EQ(out[0], "p");
    EXPECT_EQ(out[1], "q");
    // Other storages have no text.
    PropertyColumn b;
    b.storage = PropertyColumn::Storage::Bool;
    b.bytes = {1, 0};
    EXPECT_EQ(b.texts(0, 2, out), 0u);
}

// A column's numbers: one array for every number type; elements survive growth, copies are
// copies, a move leaves the source empty.
TEST(ColumnNumbers, KeepElementsThroughGrowthCopyAndMove) {
    ColumnNumbers n;
    EXPECT_TRUE(n.empty());
    for (int i = 0; i < 100; ++i) n.push(double(i) * 0.5);
    ASSERT_EQ(n.size<double>(), 100u);
    EXPECT_EQ(n.view<double>()[99], 49.5);
    ColumnNumbers copy = n;
    copy.view<double>()[0] = -1;
    EXPECT_EQ(n.view<double>()[0], 0.0);  // not shared
    EXPECT_EQ(copy.view<double>()[1], 0.5);
    double* grown = copy.resize<double>(200);  // kept, then room for more
    EXPECT_EQ(grown[99], 49.5);
    ColumnNumbers moved = std::move(copy);
    EXPECT_EQ(moved.size<double>(), 200u);
    EXPECT_TRUE(copy.empty());  // NOLINT(bugprone-use-after-move): a moved-from array is empty
    n.assign<std::uint32_t>({7, 8, 9});
    EXPECT_EQ(n.size<std::uint32_t>(), 3u);
    EXPECT_EQ(n.view<std::uint32_t>()[2], 9u);
    n = moved;
    EXPECT_EQ(n.size<double>(), 200u);
    // Up to 8 bytes are held in place: copies and moves of them carry the values, and growing
    // past them keeps the values.
    ColumnNumbers small;
    small.assign<std::uint32_t>({11, 12});
    ColumnNumbers smallCopy = small;
    ColumnNumbers smallMoved = std::move(small);
    EXPECT_TRUE(small.empty());  // NOLINT(bugprone-use-after-move)
    smallCopy.view<std::uint32_t>()[0] = 99;
    EXPECT_EQ(smallMoved.view<std::uint32_t>()[0], 11u);
    smallMoved.push(std::uint32_t(13));  // past the 8 bytes
    ASSERT_EQ(smallMoved.size<std::uint32_t>(), 3u);
    EXPECT_EQ(smallMoved.view<std::uint32_t>()[1], 12u);
    EXPECT_EQ(smallMoved.view<std::uint32_t>()[2], 13u);
    smallCopy = smallMoved;  // a heap array over one held in place
    EXPECT_EQ(smallCopy.view<std::uint32_t>()[0], 11u);
    smallMoved = ColumnNumbers(small);  // an empty one over a heap array
    EXPECT_TRUE(smallMoved.empty());
}

// Each number storage reads its rows from the one array, and a column copied reads the same; a
// Tuple whose ends run past its numbers gives no value rather than reading past them.
TEST(PropertyColumn, NumberStoragesReadTheirRows) {
    PropertyColumn i;
    i.storage = PropertyColumn::Storage::Int32;
    i.numbers.assign<std::uint32_t>({0xffffffffu, 5});
    PropertyColumn d;
    d.storage = PropertyColumn::Storage::Double;
    d.numbers.assign<double>({1.5});
    PropertyColumn v;
    v.storage = PropertyColumn::Storage::Vec3;
    v.numbers.assign<Vec3>({Vec3{1, 2, 3}, Vec3{4, 5, 6}});
    PropertyColumn r;
    r.storage = PropertyColumn::Storage::Ref;
    r.numbers.assign<std::int32_t>({-1, 3});
    PropertyColumn t;
    t.storage = PropertyColumn::Storage::Tuple;
    t.numbers.assign<double>({1, 2, 3});
    t.ends = {2, 3, 9};
    for (const PropertyColumn* c : {&i, &d, &v, &r, &t}) {
        const PropertyColumn copy = *c;
        EXPECT_EQ(copy.rows(), c->rows());
        for (std::size_t row = 0; row < c->rows(); ++row) EXPECT_EQ(copy.value(row), c->value(row));
    }
    EXPECT_EQ(i.rows(), 2u);
    EXPECT_EQ(std::get<std::int64_t>(i.value(0)), -1);
    EXPECT_EQ(std::get<std::int64_t>(i.value(1)), 5);
    EXPECT_EQ(std::get<double>(d.value(0)), 1.5);
    EXPECT_EQ(std::get<Vec3>(v.value(1)).y, 5.0f);
    EXPECT_EQ(std::get<NodeRef>(r.value(1)).node, 3);
    EXPECT_EQ(std::get<std::vector<double>>(t.value(0)), (std::vector<double>{1, 2}));
    EXPECT_EQ(std::get<std::vector<double>>(t.value(1)), (std::vector<double>{3}));
    EXPECT_TRUE(std::holds_alternative<std::monostate>(t.value(2)));  // ends past the numbers
}

// A column's bytes: a view of bytes kept elsewhere is never written through; copies of a view
// view the same bytes, copies of own bytes are copies; editing a view makes the bytes its own.
TEST(ColumnBytes, ViewsAndOwnBytes) {
    const std::uint8_t kept[4] = {1, 2, 3, 4};
    ColumnBytes v;
    v.view(kept, 4);
    EXPECT_TRUE(v.isView());
    ColumnBytes copy = v;
    EXPECT_EQ(std::as_const(copy).data(), kept);  // (data() for writing makes them its own)
    copy.resize(6);  // now its own: the 4 bytes copied, the view's bytes untouched
    EXPECT_FALSE(copy.isView());
    EXPECT_NE(copy.data(), kept);
    ASSERT_EQ(copy.size(), 6u);
    EXPECT_EQ(copy[3], 4);
    copy.data()[0] = 9;
    EXPECT_EQ(kept[0], 1);
    EXPECT_EQ(v[0], 1);
    ColumnBytes own = {5, 6};
    ColumnBytes ownCopy = own;
    EXPECT_NE(ownCopy.data(), own.data());
    const std::uint8_t more[2] = {7, 8};
    ownCopy.append(more, more + 2);
    ASSERT_EQ(ownCopy.size(), 4u);
    EXPECT_EQ(ownCopy[0], 5);
    EXPECT_EQ(ownCopy[3], 8);
    EXPECT_EQ(own.size(), 2u);
    ColumnBytes moved = std::move(ownCopy);
    EXPECT_EQ(moved.size(), 4u);
    EXPECT_TRUE(ownCopy.empty());
    moved.clear();
    EXPECT_TRUE(moved.empty());
}

TEST(UninitializedBytes, GrowWithoutZeroingAndFillWhenAsked) {
    UninitializedBytes b;
    b.resize(16);
    EXPECT_EQ(b.size(), 16u);
    b.assign(8, 0x5a);  // a value given is written
    EXPECT_TRUE(std::all_of(b.begin(), b.end(), [](std::uint8_t v) { return v == 0x5a; }));
    b.push_back(1);
    EXPECT_EQ(b.back(), 1);
    const Bytes copy(b.begin(), b.end());
    EXPECT_EQ(copy.size(), 9u);
}

}  // namespace
}  // namespace meshscope
