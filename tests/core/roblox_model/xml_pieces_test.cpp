// The XML model decoder parses documents in pieces (core/formats/roblox_model/xml_pieces.h) so
// that Cancel works during the parse. These tests hold it to "the same document pugixml builds
// from the whole text": for hand-written documents with every construct the splitter has to step
// over, every truncation of one, seeded byte mutations and the corpus XML files, the tree built
// in pieces (pieces down to 1 byte, so that every element with children is split) equals
// pugixml's load_buffer node for node (type, name, value, attributes, offset) and fails with the
// same status at the same offset. Then a decoded multi-megabyte model (split at the decoder's own
// 1 MB) keeps absolute offsets for its items and properties.
#include "formats/roblox_model/xml_pieces.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <pugixml.hpp>
#include <random>
#include <string>
#include <vector>

#include "meshscope/core/decode.h"
#include "support/test_support.h"

using namespace meshscope;
using meshscope::rbx::PiecewiseXml;

namespace {

constexpr unsigned kOptions = pugi::parse_default | pugi::parse_ws_pcdata_single;

// First difference between two trees, or "".
std::string diffTrees(pugi::xml_node a, pugi::xml_node b, const PiecewiseXml& pieces) {
    std::vector<std::pair<pugi::xml_node, pugi::xml_node>> stack{{a, b}};
    while (!stack.empty()) {
        auto [x, y] = stack.back();
        stack.pop_back();
        const std::string where =
            std::string("<") + x.name() + "> at " + std::to_string(x.offset_debug()) + ": ";
        if (x.type() != y.type()) return where + "node type differs";
        if (std::string(x.name()) != y.name()) return where + "name " + y.name();
        if (std::string(x.value()) != y.value()) return where + "value \"" + y.value() + "\"";
        if (x.type() == pugi::node_element) {
            const std::int64_t expected = x.offset_debug() - 1;
            if (pieces.offsetOf(y) != expected)
                return where + "offset " + std::to_string(pieces.offsetOf(y));
        }
        pugi::xml_attribute ax = x.first_attribute(), ay = y.first_attribute();
        for (; ax && ay; ax = ax.next_attribute(), ay = ay.next_attribute())
            if (std::string(ax.name()) != ay.name() || std::string(ax.value()) != ay.value())
                return where + "attribute " + ay.name() + "=\"" + ay.value() + "\"";
        if (ax || ay) return where + "attribute count differs";
        pugi::xml_node cx = x.first_child(), cy = y.first_child();
        for (; cx && cy; cx = cx.next_sibling(), cy = cy.next_sibling()) stack.push_back({cx, cy});
        if (cx || cy) return where + "child count differs";
    }
    return {};
}

// Loads `text` whole and in pieces of each size; the outcomes must be equal. Returns the largest
// number of pieces used (to show that splitting happened).
std::size_t expectSameAsWhole(const std::string& text, const std::string& label,
                              std::initializer_list<std::size_t> pieceSizes = {1, 5, 64}) {
    pugi::xml_document whole;
    const pugi::xml_parse_result expected =
        whole.load_buffer(text.data(), text.size(), kOptions, pugi::encoding_utf8);
    std::size_t most = 0;
    for (const std::size_t pieceBytes : pieceSizes) {
        PiecewiseXml pieces;
        const rbx::XmlLoadResult got = pieces.load(text, kOptions, pieceBytes);
        most = std::max(most, pieces.pieceCount());
        EXPECT_EQ(got.status, expected.status)
            << label << " (pieces of " << pieceBytes << "): " << got.description() << " at "
            << got.offset << ", whole: " << expected.description() << " at " << expected.offset;
        if (got.status != expected.status) continue;
        if (!expected) {
            EXPECT_EQ(got.offset, std::uint64_t(expected.offset))
                << label << " (pieces of " << pieceBytes << "): " << expected.description();
            continue;
        }
        EXPECT_EQ(diffTrees(whole, pieces.document(), pieces), "")
            << label << " (pieces of " << pieceBytes << ")";
    }
    return most;
}

std::string item(int i, const std::string& inner = {}) {
    return "<Item class=\"Part\" referent=\"RBX" + std::to_string(i) +
           "\">\r\n  <Properties><string name=\"Name\">P" + std::to_string(i) +
           " &amp; &lt;&#x41;&#66;&unknown;</string><Vector3 name=\"Size\"><X>1</X><Y> 2 </Y>"
           "<Z>3</Z></Vector3>\n<BinaryString name=\"B\"><![CDATA[a<b>]]>c</BinaryString>"
           "<bool name='A' x=\"a>b/\" y='\"'>true</bool><empty/><ws>  </ws><e a=\"\t1\n\"/>"
           "</Properties>\n" +
           inner + "</Item>\n";
}

// A document with every construct the scanner steps over: declaration, comments (with "--" and
// '>' inside), processing instructions, CDATA, attributes holding '>', '/' and quotes, entities,
// CR LF, whitespace-only and mixed content, nested items.
std::string sampleDocument(int items = 12) {
    std::string doc =
        "\xEF\xBB\xBF<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<!-- a <comment> -- "
        "-> -->\n<roblox xmlns:xmime=\"http://www.w3.org/2005/05/xmlmime\" "
        "version=\"4\">\n<External>null</External><?pi data ?>";
    for (int i = 0; i < items; ++i)
        doc += item(i, i % 3 == 0 ? item(1000 + i, item(2000 + i)) + "text<!--x-->more" : "");
    doc +=
        "<SharedStrings><SharedString md5=\"x\">QUJD</SharedString></SharedStrings>\n"
        "</roblox>\n<!-- trailing -->\n";
    return doc;
}

std::string deepDocument(int depth) {
    std::string d = "<roblox>";
    for (int i = 0; i < depth; ++i) d += "<Item class=\"Folder\">";
    for (int i = 0; i < depth; ++i) d += "</Item>";
    return d + "</roblox>";
}

}  // namespace

TEST(XmlPieces, SampleDocumentIsTheSameInPieces) {
    const std::string doc = sampleDocument();
    EXPECT_GT(expectSameAsWhole(doc, "sample"), 100u) << "the document was not split";
    // Without a declaration, BOM or anything after the root.
    EXPECT_GT(expectSameAsWhole("<roblox>" + item(1, item(2)) + item(3) + "</roblox>", "bare"), 5u);
}

TEST(XmlPieces, EveryTruncationFailsAlike) {
    const std::string doc = sampleDocument(3);
    for (std::size_t n = 0; n <= doc.size(); ++n)
        expectSameAsWhole(doc.substr(0, n), "first " + std::to_string(n) + " bytes", {1, 37});
}

TEST(XmlPieces, MalformedAndOddDocuments) {
    const std::string body = item(1, item(2)) + item(3);
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"mismatched end tag of a split element", "<roblox>" + body + "</roblo>"},
        {"end tag with junk", "<roblox>" + body + "</roblox x>"},
        {"end tag with spaces", "<roblox>" + body + "</roblox \r\n>"},
        {"stray end tag at the end", "<roblox>" + body + "</roblox></Item>"},
        {"stray end tag inside", "<roblox>" + body + "</Item>" + body + "</roblox>"},
        {"unclosed item", "<roblox>" + body + "<Item>" + body + "</roblox>"},
        {"bad attribute in a split start tag", "<roblox version=4>" + body + "</roblox>"},
        {"attribute without value", "<roblox version>" + body + "</roblox>"},
        {"space before />", "<roblox><Item / >" + body + "</Item></roblox>"},
        {"doctype first", "<!DOCTYPE roblox [<!ENTITY e \"<x>\">]><roblox>" + body + "</roblox>"},
        {"doctype inside", "<roblox>" + body + "<!DOCTYPE x>" + body + "</roblox>"},
        {"doctype after the root", "<roblox>" + body + "</roblox><!DOCTYPE x><roblox/>"},
        {"cdata at document level", "<roblox>" + body + "</roblox><![CDATA[x]]>"},
        {"text after the root", "<roblox>" + body + "</roblox>tail text<a/>more"},
        {"second root", "<roblox>" + body + "</roblox><roblox>" + body + "</roblox>"},
        {"nul inside", "<roblox>" + body + std::string(1, '\0') + body + "</roblox>"},
        {"nul after the root", "<roblox>" + body + "</roblox>" + std::string(1, '\0') + "<x"},
        {"comment opened by <!-->", "<roblox>" + body + "<!-->x<a>--><s/>" + body + "</roblox>"},
        {"bad comment", "<roblox>" + body + "<!- x -->" + body + "</roblox>"},
        {"unterminated comment", "<roblox>" + body + "<!-- x" + body + "</roblox>"},
        {"bad pi", "<roblox>" + body + "<? x ?>" + body + "</roblox>"},
        {"unrecognized tag", "<roblox>" + body + "< Item/>" + body + "</roblox>"},
        {"stray < at the end", "<roblox>" + body + "</roblox><"},
        {"no element", "<!-- only a comment --> text"},
        {"empty", ""},
        {"whitespace-only big element", "<roblox>" + std::string(300, ' ') + "</roblox>"},
        {"text-only big element", "<roblox>" + std::string(300, 'x') + "</roblox>"},
        {"unquoted gt in text", "<roblox>a > b" + body + "c > d</roblox>"},
        {"quote in text", "<roblox>it's \"" + body + "\"</roblox>"},
        {"deep nesting", deepDocument(700)},
        // 20 000 nested elements, each split: events and pieces stay linear in number.
        {"very deep nesting", deepDocument(20000)},
    };
    for (const auto& [label, doc] : cases) expectSameAsWhole(doc, label);
}

TEST(XmlPieces, SeededMutationsFailOrBuildAlike) {
    const std::string doc = sampleDocument(4);
    const std::string alphabet = std::string("<>/!?-[]\"'= \n&;CDATAItem") + '\0';
    std::mt19937 rng(8);
    for (int i = 0; i < 3000; ++i) {
        std::string m = doc;
        const int edits = 1 + int(rng() % 3);
        for (int e = 0; e < edits; ++e) {
            const std::size_t at = rng() % m.size();
            const char c = alphabet[rng() % alphabet.size()];
            switch (rng() % 3) {
                case 0:
                    m[at] = c;
                    break;
                case 1:
                    m.insert(m.begin() + std::ptrdiff_t(at), c);
                    break;
                default:
                    m.erase(at, 1 + rng() % 8);
                    break;
            }
        }
        expectSameAsWhole(m, "mutation " + std::to_string(i), {1, 23});
    }
}

// The tick runs during the scan and between pieces, with positions that never go back, and an
// exception from it abandons the load part-way (what the decoder's cancel check does).
TEST(XmlPieces, TickRunsBetweenPiecesAndCanStopTheLoad) {
    std::string doc = "<roblox>";
    for (int i = 0; i < 2000; ++i) doc += item(i);
    doc += "</roblox>";
    const std::size_t pieceBytes = 32u << 10;
    ASSERT_GT(doc.size(), 12 * pieceBytes);
    std::size_t scans = 0, builds = 0;
    std::uint64_t last = 0;
    bool backwards = false;
    PiecewiseXml pieces;
    ASSERT_TRUE(
        pieces.load(doc, kOptions, pieceBytes, [&](PiecewiseXml::Phase phase, std::uint64_t at) {
            if (phase == PiecewiseXml::Phase::Scan) {
                ++scans;
            } else {
                backwards = backwards || (builds > 0 && at < last);
                last = at;
                ++builds;
            }
        }));
    EXPECT_GE(scans, doc.size() / pieceBytes - 1);
    EXPECT_GE(builds, doc.size() / pieceBytes - 1);
    EXPECT_GE(pieces.pieceCount(), doc.size() / pieceBytes - 1);
    EXPECT_FALSE(backwards);

    // Under wholeBytes: one buffer, no scan, the same document.
    {
        PiecewiseXml whole;
        std::size_t wholeScans = 0;
        ASSERT_TRUE(whole.load(
            doc, kOptions, pieceBytes,
            [&](PiecewiseXml::Phase phase, std::uint64_t) {
                wholeScans += phase == PiecewiseXml::Phase::Scan;
            },
            doc.size() + 1));
        EXPECT_EQ(whole.pieceCount(), 1u);
        EXPECT_EQ(wholeScans, 0u);
        EXPECT_EQ(whole.document().child("roblox").select_nodes("Item").size(), 2000u);
        // At wholeBytes or over: pieces again.
        PiecewiseXml split;
        ASSERT_TRUE(split.load(doc, kOptions, pieceBytes, {}, doc.size()));
        EXPECT_GT(split.pieceCount(), 1u);
    }
    const std::size_t allItems = pieces.document().child("roblox").select_nodes("Item").size();
    EXPECT_EQ(allItems, 2000u);

    struct Stop {};
    for (const PiecewiseXml::Phase stopIn :
         {PiecewiseXml::Phase::Scan, PiecewiseXml::Phase::Build}) {
        PiecewiseXml stopped;
        std::size_t calls = 0;
        EXPECT_THROW(stopped.load(doc, kOptions, pieceBytes,
                                  [&](PiecewiseXml::Phase phase, std::uint64_t) {
                                      if (phase == stopIn && ++calls == 3) throw Stop{};
                                  }),
                     Stop);
        EXPECT_LT(stopped.document().child("roblox").select_nodes("Item").size(), allItems);
    }
}

TEST(XmlPieces, CorpusXmlFilesAreTheSameInPieces) {
    MESHSCOPE_REQUIRE_CORPUS(corpus);
    int files = 0;
    for (const char* dir : {"rbxmx", "rbxm"}) {
        if (!std::filesystem::exists(corpus / dir)) continue;
        for (const auto& e : std::filesystem::recursive_directory_iterator(corpus / dir)) {
            if (!e.is_regular_file() || e.file_size() > (8u << 20)) continue;
            const Bytes b = test::readFile(e.path());
            const std::string text(b.begin(), b.end());
            if (text.find("<roblox") > 200) continue;
            ++files;
            expectSameAsWhole(text, e.path().string(), {256, 4096});
        }
    }
    EXPECT_GT(files, 20);
}

// The decoder's own pieces (1 MB): a 5 MB model with one big Workspace. Every item's and
// property's offset still points at its element in the file.
TEST(XmlPieces, DecodedModelKeepsAbsoluteOffsets) {
    std::string doc =
        "<roblox version=\"4\"><Item class=\"Workspace\" referent=\"W\"><Properties>"
        "<string name=\"Name\">Workspace</string></Properties>";
    for (int i = 0; i < 16000; ++i) doc += item(i);
    doc += "</Item></roblox>";
    ASSERT_GT(doc.size(), 4u << 20);
    const Bytes bytes(doc.begin(), doc.end());
    const DecodeResult r = decodeBytes(bytes, {.fileName = "big.rbxmx"});
    ASSERT_TRUE(r.ok()) << r.error->toString();
    ASSERT_EQ(r.asset.nodes.size(), 16001u);
    std::size_t checked = 0;
    for (std::size_t i = 0; i < r.asset.nodes.size(); ++i) {
        const Node& n = r.asset.nodes[i];
        const std::string_view name = r.asset.name(int(i));
        ASSERT_EQ(doc.compare(n.offset, 6, "<Item "), 0) << name << " at " << n.offset;
        for (const Property& p : r.asset.ownProperties(int(i))) {
            ASSERT_LT(p.offset, doc.size());
            const std::string tag = doc.substr(p.offset, doc.find('>', p.offset) - p.offset);
            ASSERT_EQ(tag[0], '<') << name << "." << p.name << " at " << p.offset;
            // Named properties: the tag names them (<empty/> and <ws> are unknown, unnamed).
            if (!p.name.empty()) {
                ASSERT_NE(tag.find("name=" + std::string(1, tag[tag.find("name=") + 5]) + p.name),
                          std::string::npos)
                    << tag << " is not " << p.name;
            }
            // Its length ends at its own end tag (or its empty-element tag).
            const std::string whole = doc.substr(p.offset, p.length);
            const std::string element = tag.substr(1, tag.find_first_of(" />") - 1);
            ASSERT_TRUE(whole.ends_with("/>") || whole.ends_with("</" + element + ">"))
                << name << "." << p.name << ": " << whole;
            ++checked;
        }
    }
    EXPECT_GT(checked, 16000u * 4);
    // Item 7000 lies past the first few pieces; its Name is where the text says.
    const std::size_t at = doc.find("<Item class=\"Part\" referent=\"RBX7000\"");
    bool found = false;
    for (std::size_t i = 0; i < r.asset.nodes.size(); ++i)
        found = found ||
                (r.asset.name(int(i)) == "P7000 & <AB&unknown;" && r.asset.nodes[i].offset == at);
    EXPECT_TRUE(found);
}

// A property's bytes run from its start tag to its end tag, whatever stands between it and the
// next element: white space, a comment, a processing instruction, or nothing; an element of the
// same name inside it does not end it early.
TEST(XmlPieces, PropertyBytesEndAtTheirOwnEndTag) {
    const std::string doc =
        "<roblox version=\"4\"><Item class=\"Folder\" referent=\"A\"><Properties>"
        "<string name=\"Name\">F</string>\n\t <float name=\"Spaced\">1</float><!-- c -->"
        "<float name=\"Commented\">2</float><?pi x?><int name=\"Instructed\">3</int>"
        "<int name=\"Tight\">4</int><Vector3 name=\"Nested\"><X>1</X><Y>2</Y><Z>3</Z></Vector3 >"
        "<string name=\"Empty\"/><string name=\"Last\">x</string><!-- c -->"
        "<NumberRange name=\"Nest\"><NumberRange>1</NumberRange> 2 </NumberRange>"
        "<string name=\"InComment\">a<!-- </string> -->b</string>"
        "<string name=\"InCdata\"><![CDATA[</string>]]></string><string name=\"Sp\">y</string \n>"
        "  </Properties>"
        "</Item></roblox>";
    const Bytes bytes(doc.begin(), doc.end());
    const DecodeResult r = decodeBytes(bytes, {.fileName = "props.rbxmx"});
    ASSERT_TRUE(r.ok()) << r.error->toString();
    ASSERT_EQ(r.asset.nodes.size(), 1u);
    std::map<std::string, std::string> bytesOf;
    for (const Property& p : r.asset.ownProperties(0))
        bytesOf[p.name] = doc.substr(p.offset, p.length);
    EXPECT_EQ(bytesOf["Name"], "<string name=\"Name\">F</string>");
    EXPECT_EQ(bytesOf["Spaced"], "<float name=\"Spaced\">1</float>");
    EXPECT_EQ(bytesOf["Commented"], "<float name=\"Commented\">2</float>");
    EXPECT_EQ(bytesOf["Instructed"], "<int name=\"Instructed\">3</int>");
    EXPECT_EQ(bytesOf["Tight"], "<int name=\"Tight\">4</int>");
    EXPECT_EQ(bytesOf["Nested"], "<Vector3 name=\"Nested\"><X>1</X><Y>2</Y><Z>3</Z></Vector3 >");
    EXPECT_EQ(bytesOf["Empty"], "<string name=\"Empty\"/>");
    EXPECT_EQ(bytesOf["Last"], "<string name=\"Last\">x</string>");
    EXPECT_EQ(bytesOf["Nest"],
              "<NumberRange name=\"Nest\"><NumberRange>1</NumberRange> 2 </NumberRange>");
    EXPECT_EQ(bytesOf["InComment"], "<string name=\"InComment\">a<!-- </string> -->b</string>");
    EXPECT_EQ(bytesOf["InCdata"], "<string name=\"InCdata\"><![CDATA[</string>]]></string>");
    EXPECT_EQ(bytesOf["Sp"], "<string name=\"Sp\">y</string \n>");
    const Node& n = r.asset.nodes[0];
    EXPECT_EQ(doc.substr(n.offset, n.length).substr(0, 6), "<Item ");
    EXPECT_TRUE(doc.substr(n.offset, n.length).ends_with("</Properties>"));
}

// An item's bytes run to the end tag of its last Properties element, found after its last
// property or, for one that holds none (white space, a comment, or nothing), by a search from its
// start.
TEST(XmlPieces, ItemBytesEndAtTheirLastPropertiesEndTag) {
    const std::string first = "<Properties><string name=\"Name\">F</string>\n</Properties>";
    for (const std::string second :
         {"<Properties> </Properties>", "<Properties><!-- none --></Properties>", "<Properties/>",
          "<Properties> <int name=\"N\">1</int><!-- c --> </Properties >"}) {
        const std::string item = "<Item class=\"Folder\" referent=\"A\">" + first + second;
        const std::string doc = "<roblox version=\"4\">" + item + "</Item></roblox>";
        const Bytes bytes(doc.begin(), doc.end());
        const DecodeResult r = decodeBytes(bytes, {.fileName = "props.rbxmx"});
        ASSERT_TRUE(r.ok()) << r.error->toString();
        ASSERT_EQ(r.asset.nodes.size(), 1u);
        const Node& n = r.asset.nodes[0];
        EXPECT_EQ(doc.substr(n.offset, n.length), item) << second;
    }
}
