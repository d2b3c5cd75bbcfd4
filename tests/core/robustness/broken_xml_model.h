// Broken Roblox XML models (.rbxmx). There is no XML writer, so each document is assembled here
// from its pieces, and every expected offset is the length of the pieces before it (an element's
// offset is the offset of its '<').
#pragma once

#include <cmath>

#include "broken_case.h"
#include "meshscope/core/error_codes.h"

namespace meshscope::test::broken {

namespace rbxmx {

inline const std::string kOpen = "<roblox version=\"4\">";
inline const std::string kClose = "</roblox>";

inline std::string item(const std::string& cls, const std::string& referent,
                        const std::string& properties, const std::string& children = {}) {
    return "<Item class=\"" + cls + "\" referent=\"" + referent + "\"><Properties>" + properties +
           "</Properties>" + children + "</Item>";
}

inline std::string name(const std::string& n) {
    return "<string name=\"Name\">" + n + "</string>";
}

// Property `n` of the item named "A", or null.
inline const Property* propertyOfA(const DecodeResult& r, const char* n) {
    const int a = nodeNamed(r.asset, "A");
    return a < 0 ? nullptr : r.asset.ownProperty(a, n);
}

}  // namespace rbxmx

inline void addXmlModelCases(std::vector<BrokenCase>& out) {
    using namespace rbxmx;
    auto add = [&](std::string caseName, const std::string& doc, std::optional<Expect> error,
                   std::optional<Expect> warning = {},
                   std::function<void(const DecodeResult&)> keeps = {}) {
        out.push_back({"roblox_model_xml", std::move(caseName), ".rbxmx", text(doc),
                       std::move(error), std::move(warning), std::move(keeps)});
    };
    const std::string partA = item("Part", "RBX1", name("A"));
    const std::string linkBefore = name("Link") + "<Ref name=\"Value\">";
    auto link = [&](const std::string& target) {
        return item("ObjectValue", "RBX2", linkBefore + target + "</Ref>");
    };
    const std::string rootStart =
        "<Item class=\"Model\" referent=\"RBX0\"><Properties>" + name("Root") + "</Properties>";
    const std::string good = kOpen + rootStart + partA + link("RBX1") + "</Item>" + kClose;

    // Cut in the middle of A's start tag: the parser stops at the end of the data.
    {
        const std::size_t at = good.find("<Item class=\"Part\"") + 8;
        add("truncated_in_start_tag", good.substr(0, at), diag(errc::kXml, at, "malformed XML"));
    }
    // "<roblox>" only inside a comment: the sniffer sees it, the document has another root.
    add("no_roblox_root", "<!-- not a <roblox> file --><model><Item class=\"Part\"/></model>",
        diag(errc::kXml, 0, "no <roblox> root element"));
    // 600 nested Folders: item k (1-based) starts at kOpen + (k - 1) × the opening's length;
    // item 513 is the first deeper than Limits::maxDepth = 512. The 512 above it are kept.
    {
        const std::string opening = "<Item class=\"Folder\">";
        std::string doc = kOpen;
        for (int i = 0; i < 600; ++i) doc += opening;
        for (int i = 0; i < 600; ++i) doc += "</Item>";
        doc += kClose;
        add("deep_nesting", doc,
            diag(errc::kLimit, kOpen.size() + 512 * opening.size(),
                 "items nest deeper than maxDepth (512)"),
            {}, [](const DecodeResult& r) { EXPECT_EQ(r.asset.nodes.size(), 512u); });
    }
    // Link's Value names a referent no item has; its <Ref> starts after Root, A and Link's name.
    {
        const std::string doc = kOpen + rootStart + partA + link("RBX999") + "</Item>" + kClose;
        const std::size_t ref =
            kOpen.size() + rootStart.size() + partA.size() +
            std::string("<Item class=\"ObjectValue\" referent=\"RBX2\"><Properties>").size() +
            name("Link").size();
        add("dangling_referent", doc, {},
            diag(errc::kDanglingReferent, ref,
                 "property \"Value\" refers to \"RBX999\", which no item has"),
            [](const DecodeResult& r) {
                const int l = nodeNamed(r.asset, "Link");
                ASSERT_GE(l, 0);
                EXPECT_EQ(std::get<NodeRef>(r.asset.ownProperty(l, "Value")->value).node, -1);
            });
    }
    // Link reuses A's referent: the second item (Link) is reported at its '<'.
    {
        const std::string dup = item("ObjectValue", "RBX1", linkBefore + "RBX1</Ref>");
        const std::string doc = kOpen + rootStart + partA + dup + "</Item>" + kClose;
        add("duplicate_referent", doc, {},
            diag(errc::kDuplicateReferent, kOpen.size() + rootStart.size() + partA.size(),
                 "referent \"RBX1\" is used by two items; the first keeps it"));
    }
    // A reference cycle through a Ref property (Link → Link) is a value, never followed.
    add("ref_to_itself", kOpen + rootStart + partA + link("RBX2") + "</Item>" + kClose, {}, {},
        [](const DecodeResult& r) {
            const int l = nodeNamed(r.asset, "Link");
            ASSERT_GE(l, 0);
            EXPECT_EQ(std::get<NodeRef>(r.asset.ownProperty(l, "Value")->value).node, l);
        });
    // A shared string that is not base64, after the root's opening tag.
    add("shared_string_bad_base64",
        kOpen +
            "<SharedStrings><SharedString md5=\"x\">@@not base64@@</SharedString></SharedStrings>" +
            rootStart + "</Item>" + kClose,
        {},
        diag(errc::kBadBase64, kOpen.size() + std::string("<SharedStrings>").size(),
             "shared string is not valid base64"));
    // Roblox writes NAN and INF in XML: they are kept as the numbers they name.
    add("vector3_nan_inf",
        kOpen +
            item("Part", "RBX1",
                 name("A") + "<Vector3 name=\"Size\"><X>NAN</X><Y>INF</Y><Z>-INF</Z></Vector3>") +
            kClose,
        {}, {}, [](const DecodeResult& r) {
            const Property* p = propertyOfA(r, "Size");
            ASSERT_NE(p, nullptr);
            const Vec3 v = std::get<Vec3>(p->value);
            EXPECT_TRUE(std::isnan(v.x));
            EXPECT_EQ(v.y, INFINITY);
            EXPECT_EQ(v.z, -INFINITY);
        });
    // A Part "A" whose properties after its Name are `props`, the first of them with a bad value:
    // kept (as 0, or no value) with a warning at its '<'.
    auto badValue = [&](std::string caseName, const std::string& props, const std::string& message,
                        std::function<void(const DecodeResult&)> keeps = {}) {
        const std::string before =
            kOpen + "<Item class=\"Part\" referent=\"RBX1\"><Properties>" + name("A");
        add(std::move(caseName), before + props + "</Properties></Item>" + kClose, {},
            diag(errc::kBadValue, before.size(), message), std::move(keeps));
    };
    // A malformed number: 0, in a composite value as alone.
    badValue("vector3_malformed_number",
             "<Vector3 name=\"Size\"><X>1.5.5</X><Y>2</Y><Z>3</Z></Vector3>",
             "property \"Size\" (Vector3): missing or malformed X", [](const DecodeResult& r) {
                 const Property* p = propertyOfA(r, "Size");
                 ASSERT_NE(p, nullptr);
                 const Vec3 v = std::get<Vec3>(p->value);
                 EXPECT_EQ(v.x, 0);
                 EXPECT_EQ(v.y, 2);
                 EXPECT_EQ(v.z, 3);
             });
    badValue("float_malformed_number", "<float name=\"Transparency\">0.5x</float>",
             "property \"Transparency\" (float): missing or malformed number",
             [](const DecodeResult& r) {
                 const Property* p = propertyOfA(r, "Transparency");
                 ASSERT_NE(p, nullptr);
                 EXPECT_EQ(std::get<double>(p->value), 0);
             });
    // A UniqueId that is not 32 hex digits: no value.
    badValue("unique_id_not_hex",
             "<UniqueId name=\"UniqueId\">0123456789ABCDEG00C0FFEE0000002A</UniqueId>"
             "<UniqueId name=\"Short\">0123</UniqueId>",
             "property \"UniqueId\" (UniqueId): missing or malformed unique id",
             [](const DecodeResult& r) {
                 for (const char* n : {"UniqueId", "Short"}) {
                     const Property* p = propertyOfA(r, n);
                     ASSERT_NE(p, nullptr) << n;
                     EXPECT_TRUE(std::holds_alternative<std::monostate>(p->value)) << n;
                 }
             });
    // A CFrame's components out of the order Roblox writes them, one twice (the first is read)
    // and one missing: each is read by its name, the missing one is 0.
    badValue("cframe_components_out_of_order",
             "<CoordinateFrame name=\"CFrame\"><Z>3</Z><X>1</X><Y>2</Y><X>9</X>"
             "<R22>9</R22><R21>8</R21><R20>7</R20><R12>6</R12><R11>5</R11><R10>4</R10>"
             "<R02>3</R02><R00>1</R00></CoordinateFrame>",
             "property \"CFrame\" (CoordinateFrame): missing or malformed R01",
             [](const DecodeResult& r) {
                 const Property* p = propertyOfA(r, "CFrame");
                 ASSERT_NE(p, nullptr);
                 const CFrame cf = std::get<CFrame>(p->value);
                 EXPECT_EQ(cf.position.x, 1);
                 EXPECT_EQ(cf.position.y, 2);
                 EXPECT_EQ(cf.position.z, 3);
                 const float rotation[9] = {1, 0, 3, 4, 5, 6, 7, 8, 9};
                 for (int i = 0; i < 9; ++i) EXPECT_EQ(cf.rotation[i], rotation[i]) << i;
                 int warnings = 0;
                 for (const auto& d : r.asset.diagnostics) warnings += d.code == errc::kBadValue;
                 EXPECT_EQ(warnings, 1);
             });
}

}  // namespace meshscope::test::broken
