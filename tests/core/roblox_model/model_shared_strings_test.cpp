// Shared strings are stored once per asset (Asset::sharedStrings) and SharedString values refer to
// them by index (SharedStringRef), in binary (SSTR) and XML (<SharedStrings>) models alike.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <set>
#include <string>

#include "meshscope/core/decode.h"
#include "meshscope/core/roblox_model_writer.h"
#include "support/test_support.h"

namespace meshscope {
namespace {

// Every SharedString value of the asset (own properties and columns), in node order.
std::vector<Value> sharedValues(const Asset& a) {
    std::vector<Value> out;
    for (int n = 0; n < int(a.nodes.size()); ++n)
        for (const Property& p : a.properties(n))
            if (p.type == "SharedString") out.push_back(p.value);
    return out;
}

ByteSpan span(const std::string& s) {
    return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()};
}

TEST(RobloxModelSharedStrings, BinaryValuesReferToOneCopyEach) {
    const Asset model = makeRobloxTypesModel();
    std::vector<std::string> written;  // the generator's SharedString contents, in node order
    for (const Value& v : sharedValues(model)) written.push_back(std::get<std::string>(v));
    ASSERT_GE(written.size(), 3u);
    const std::set<std::string> distinct(written.begin(), written.end());
    ASSERT_LT(distinct.size(), written.size()) << "the model should repeat a shared string";

    const auto file = writeRobloxModel(model);
    ASSERT_TRUE(file.ok());
    const DecodeResult r = decodeBytes(file.bytes);
    ASSERT_TRUE(r.ok()) << r.error->toString();
    // One copy of each distinct content, however many values use it.
    EXPECT_EQ(r.asset.sharedStrings.size(), distinct.size());
    EXPECT_EQ(std::set<std::string>(r.asset.sharedStrings.begin(), r.asset.sharedStrings.end()),
              distinct);

    const std::vector<Value> decoded = sharedValues(r.asset);
    ASSERT_EQ(decoded.size(), written.size());
    std::map<std::string, std::uint32_t> indexOf;
    for (std::size_t i = 0; i < decoded.size(); ++i) {
        const auto* ref = std::get_if<SharedStringRef>(&decoded[i]);
        ASSERT_NE(ref, nullptr) << "value " << i << " is not a reference";
        ASSERT_LT(ref->index, r.asset.sharedStrings.size());
        EXPECT_EQ(r.asset.sharedString(ref->index), written[i]);
        EXPECT_EQ(r.asset.textOf(decoded[i]), written[i]);
        // Equal contents, one index: the view is the same bytes.
        const auto [it, added] = indexOf.emplace(written[i], ref->index);
        if (!added) {
            EXPECT_EQ(it->second, ref->index);
            EXPECT_EQ(r.asset.sharedString(it->second).data(),
                      r.asset.sharedString(ref->index).data());
        }
    }
    // The column holds indices, not strings.
    bool sawColumn = false;
    for (const auto& t : r.asset.propertyTables)
        for (const auto& c : t.columns)
            if (c.type == "SharedString") {
                sawColumn = true;
                EXPECT_EQ(c.storage, PropertyColumn::Storage::Shared);
                EXPECT_TRUE(c.values.empty());
            }
    EXPECT_TRUE(sawColumn);
}

TEST(RobloxModelSharedStrings, WritingADecodedModelKeepsTheContents) {
    const auto first = writeRobloxModel(makeRobloxTypesModel());
    ASSERT_TRUE(first.ok());
    const DecodeResult a = decodeBytes(first.bytes);
    ASSERT_TRUE(a.ok());
    const auto second = writeRobloxModel(a.asset);
    ASSERT_TRUE(second.ok());
    const DecodeResult b = decodeBytes(second.bytes);
    ASSERT_TRUE(b.ok());
    const auto va = sharedValues(a.asset), vb = sharedValues(b.asset);
    ASSERT_EQ(va.size(), vb.size());
    for (std::size_t i = 0; i < va.size(); ++i) {
        EXPECT_FALSE(a.asset.textOf(va[i]).empty());
        EXPECT_EQ(a.asset.textOf(va[i]), b.asset.textOf(vb[i]));
    }
    EXPECT_EQ(a.asset.sharedStrings.size(), b.asset.sharedStrings.size());
}

TEST(RobloxModelSharedStrings, XmlSectionIsStoredOnceAndReferenced) {
    const std::string xml =
        "<roblox version=\"4\">"
        "<SharedStrings>"
        "<SharedString md5=\"a\">AAECAwQFBgcICQ==</SharedString>"
        "<SharedString md5=\"b\">aGk=</SharedString>"
        "</SharedStrings>"
        "<Item class=\"Part\" referent=\"RBX0\"><Properties>"
        "<SharedString name=\"PhysicsData\">a</SharedString></Properties></Item>"
        "<Item class=\"Part\" referent=\"RBX1\"><Properties>"
        "<SharedString name=\"PhysicsData\">a</SharedString></Properties></Item>"
        "<Item class=\"Part\" referent=\"RBX2\"><Properties>"
        "<SharedString name=\"PhysicsData\">b</SharedString></Properties></Item>"
        "<Item class=\"Part\" referent=\"RBX3\"><Properties>"
        "<SharedString name=\"PhysicsData\">missing</SharedString></Properties></Item>"
        "</roblox>";
    const DecodeResult r = decodeBytes(span(xml), {.fileName = "x.rbxmx"});
    ASSERT_TRUE(r.ok()) << r.error->toString();
    ASSERT_EQ(r.asset.sharedStrings.size(), 2u);
    const std::vector<Value> v = sharedValues(r.asset);
    ASSERT_EQ(v.size(), 4u);
    const auto* a0 = std::get_if<SharedStringRef>(&v[0]);
    const auto* a1 = std::get_if<SharedStringRef>(&v[1]);
    const auto* b = std::get_if<SharedStringRef>(&v[2]);
    ASSERT_TRUE(a0 && a1 && b);
    EXPECT_EQ(a0->index, a1->index);
    EXPECT_NE(a0->index, b->index);
    EXPECT_EQ(r.asset.sharedString(a0->index),
              std::string("\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09", 10));
    EXPECT_EQ(r.asset.sharedString(b->index), "hi");
    // An md5 the section lacks: no value, and a warning.
    EXPECT_TRUE(std::holds_alternative<std::monostate>(v[3]));
    bool warned = false;
    for (const auto& d : r.asset.diagnostics) warned |= d.code == "bad-shared-string";
    EXPECT_TRUE(warned);
    // Out of range: an empty view, never a read past the table.
    EXPECT_TRUE(r.asset.sharedString(2).empty());
    EXPECT_TRUE(r.asset.textOf(Value(SharedStringRef{99})).empty());
}

// Base64 as files write it: padded or not, broken by white space anywhere (a line every 76
// characters), a long run (read four characters at a time) and bad characters (a warning, the
// bytes before them kept). A UniqueId's hex digits come out in lower case, as the binary reader
// writes them.
TEST(RobloxModelSharedStrings, XmlBase64FormsAndUniqueIds) {
    std::string longBytes;
    for (int i = 0; i < 1000; ++i) longBytes += char((i * 37 + 11) & 0xff);
    // The long run's base64, written here (not by the decoder under test), wrapped at 76.
    static const char* kAlphabet =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string b64;
    for (std::size_t i = 0; i < longBytes.size(); i += 3) {
        const std::size_t n = std::min<std::size_t>(3, longBytes.size() - i);
        std::uint32_t v = 0;
        for (std::size_t k = 0; k < 3; ++k)
            v = v << 8 | (k < n ? std::uint8_t(longBytes[i + k]) : 0u);
        for (std::size_t k = 0; k < 4; ++k)
            b64 += k <= n ? kAlphabet[(v >> (18 - 6 * k)) & 63] : '=';
    }
    std::string wrapped;
    for (std::size_t i = 0; i < b64.size(); i += 76) wrapped += b64.substr(i, 76) + "\r\n";
    auto item = [](const std::string& name, const std::string& text) {
        return "<Item class=\"Folder\" referent=\"" + name +
               "\"><Properties><string name=\"Name\">" + name +
               "</string><BinaryString name=\"B\">" + text + "</BinaryString></Properties></Item>";
    };
    const std::string xml =
        "<roblox version=\"4\">" + item("Padded", "AAEC/w==") + item("Bare", "AAEC/w") +
        item("Spaced", " AA\nE C\t/w= =") + item("Long", wrapped) + item("Bad", "AAEC/w!!AAAA") +
        "<Item class=\"Folder\" referent=\"U\"><Properties><UniqueId name=\"UniqueId\">"
        "0123456789ABCDEF00C0FFEE0000002A</UniqueId></Properties></Item></roblox>";
    const DecodeResult r = decodeBytes(span(xml), {.fileName = "x.rbxmx"});
    ASSERT_TRUE(r.ok()) << r.error->toString();
    std::map<std::string, std::string> bytesOf;
    std::string uniqueId;
    for (int n = 0; n < int(r.asset.nodes.size()); ++n)
        for (const Property& p : r.asset.properties(n)) {
            if (p.name == "B") bytesOf[std::string(r.asset.name(n))] = r.asset.textOf(p.value);
            if (p.name == "UniqueId") uniqueId = r.asset.textOf(p.value);
        }
    const std::string small("\x00\x01\x02\xff", 4);
    EXPECT_EQ(bytesOf["Padded"], small);
    EXPECT_EQ(bytesOf["Bare"], small);
    EXPECT_EQ(bytesOf["Spaced"], small);
    EXPECT_EQ(bytesOf["Long"], longBytes);
    EXPECT_EQ(bytesOf["Bad"], small);
    int bad = 0;
    for (const auto& d : r.asset.diagnostics) bad += d.code == "bad-value";
    EXPECT_EQ(bad, 1);
    EXPECT_EQ(uniqueId, "0123456789abcdef00c0ffee0000002a");
}

// Real places: every SharedString value is a reference into the table (no copies), and the table
// holds no more strings than the file's SSTR chunk or section.
TEST(RobloxModelSharedStrings, CorpusValuesAreReferences) {
    MESHSCOPE_REQUIRE_CORPUS(corpus);
    namespace fs = std::filesystem;
    std::size_t files = 0, values = 0;
    for (const char* top : {"rbxm", "rbxmx"}) {
        if (!fs::exists(corpus / top)) continue;
        for (const auto& e : fs::recursive_directory_iterator(corpus / top)) {
            if (!e.is_regular_file() || e.file_size() > (8u << 20)) continue;
            const std::string ext = e.path().extension().string();
            if (ext != ".rbxm" && ext != ".rbxl" && ext != ".rbxmx" && ext != ".rbxlx") continue;
            const DecodeResult r = decodeFile(e.path().string());
            if (!r.ok()) continue;
            const auto v = sharedValues(r.asset);
            if (v.empty()) continue;
            ++files;
            for (const Value& x : v) {
                if (std::holds_alternative<std::monostate>(x)) continue;
                const auto* ref = std::get_if<SharedStringRef>(&x);
                ASSERT_NE(ref, nullptr) << e.path();
                EXPECT_LT(ref->index, r.asset.sharedStrings.size()) << e.path();
                ++values;
            }
        }
    }
    EXPECT_GT(files, 0u) << "no corpus model holds a SharedString";
    EXPECT_GT(values, 0u);
}

}  // namespace
}  // namespace meshscope
