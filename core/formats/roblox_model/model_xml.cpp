// Roblox XML model decoder (.rbxmx/.rbxlx, and XML stored under .rbxm/.rbxl names) through
// pugixml: <roblox version> → <Item class referent> → <Properties> of typed elements, nested
// Items, <SharedStrings>. Values follow the conventions in model_values.h so that a binary file
// and its XML twin decode to equal trees.
//
// Quirks: 2007-era files store Color3 as one ARGB integer instead of <R><G><B> (corpus
// rbxmx/Thomasluigi07_LuigiBlox/Blank Place.rbxl); the element <Content> carries both the
// legacy ContentId (<url>) and the newer Content type (<null/>, <uri>, <Ref>); unknown elements
// (rbx-test-files edge-cases/xml-unknown-type: <Baloney>) are kept as raw text with a warning.
// Items are walked with an explicit stack; nesting deeper than Limits::maxDepth is refused.
//
// The document is parsed in pieces of about 1 MB (xml_pieces.h) so that Cancel is honoured and
// the progress bar moves while pugixml parses: the parse takes about a third of the decode.
#include <algorithm>
#include <array>
#include <charconv>
#include <cstring>
#include <memory>
#include <pugixml.hpp>
#include <unordered_map>

#include "formats/roblox_model/model_decoders.h"
#include "formats/roblox_model/model_values.h"
#include "formats/roblox_model/xml_pieces.h"
#include "io/decimal.h"
#include "meshscope/core/error_codes.h"

namespace meshscope::rbx {
namespace {

bool isXmlSpace(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

[[gnu::always_inline]] inline std::string_view trim(std::string_view s) {
    while (!s.empty() && isXmlSpace(s.front())) s.remove_prefix(1);
    while (!s.empty() && isXmlSpace(s.back())) s.remove_suffix(1);
    return s;
}

// The whole of `s` (white space around it allowed) as a number. A number followed by anything
// else ("1.5.5") is malformed and leaves 0 in `out`; text with no number at all leaves `out` as
// it was (a default the caller set).
template <typename T>
bool parseNumber(std::string_view s, T& out) {
    s = trim(s);
    if (!s.empty() && s.front() == '+') s.remove_prefix(1);
    if (s.empty()) return false;
    std::from_chars_result r;
    if constexpr (std::is_floating_point_v<T>)
        // Roblox writes INF, -INF and NAN; from_chars (decimalFromChars's fallback) accepts
        // them case-insensitively.
        r = decimalFromChars(s.data(), s.data() + s.size(), out);
    else
        r = std::from_chars(s.data(), s.data() + s.size(), out);
    if (r.ec != std::errc()) return false;
    if (r.ptr == s.data() + s.size()) return true;
    out = T{};
    return false;
}

// Base64 text to bytes, white space anywhere and '=' padding allowed (the text ends at the
// first '='); false on any other character. Four characters at a time while they are whole
// groups (a place's SharedStrings and BinaryStrings are megabytes of it), one at a time across
// white space and the tail.
bool decodeBase64(std::string_view in, std::string& out) {
    static constexpr auto kTable = [] {
        std::array<std::int8_t, 256> t{};
        for (auto& v : t) v = -1;
        const char* a = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        for (int i = 0; i < 64; ++i) t[static_cast<unsigned char>(a[i])] = std::int8_t(i);
        return t;
    }();
    bool ok = true;
    // Every 4 characters give 3 bytes at most: room for all of them, trimmed to what was made.
    out.resize_and_overwrite(in.size() / 4 * 3 + 3, [&](char* buf, std::size_t) {
        auto* o = reinterpret_cast<unsigned char*>(buf);
        const auto* s = reinterpret_cast<const unsigned char*>(in.data());
        const auto* end = s + in.size();
        std::uint32_t acc = 0;
        int bits = 0;
        while (s < end) {
            if (bits == 0 && end - s >= 4) {
                const int a = kTable[s[0]], b = kTable[s[1]], c = kTable[s[2]], d = kTable[s[3]];
                if ((a | b | c | d) >= 0) {
                    const std::uint32_t v = std::uint32_t(a) << 18 | std::uint32_t(b) << 12 |
                                            std::uint32_t(c) << 6 | std::uint32_t(d);
                    o[0] = static_cast<unsigned char>(v >> 16);
                    o[1] = static_cast<unsigned char>(v >> 8);
                    o[2] = static_cast<unsigned char>(v);
                    o += 3;
                    s += 4;
                    continue;
                }
            }
            const unsigned char ch = *s++;
            if (ch == '=') break;
            if (ch == ' ' || ch == '\n' || ch == '\r' || ch == '\t') continue;
            const int v = kTable[ch];
            if (v < 0) {
                ok = false;
                break;
            }
            acc = acc << 6 | std::uint32_t(v);
            bits += 6;
            if (bits >= 8) {
                bits -= 8;
                *o++ = static_cast<unsigned char>((acc >> bits) & 0xff);
            }
        }
        return std::size_t(reinterpret_cast<char*>(o) - buf);
    });
    return ok;
}

class XmlDecoder {
public:
    explicit XmlDecoder(DecodeContext& ctx)
        : ctx_(ctx),
          asset_(ctx.asset()),
          text_(reinterpret_cast<const char*>(ctx.bytes().data()), ctx.bytes().size()) {}

    // A cancelled decode leaves its parsed document and tables to the caller
    // (DecodeContext::discard): freeing them takes tens of ms for a large place.
    void handOver() {
        struct Working {
            std::shared_ptr<PiecewiseXml> xml;
            std::unordered_map<std::string_view, std::uint32_t> sharedStrings;
            std::unordered_map<std::string_view, int> refs;
            std::vector<PendingRef> pendingRefs;
        };
        ctx_.discard(std::make_shared<Working>(Working{std::move(xml_), std::move(sharedStrings_),
                                                       std::move(refs_), std::move(pendingRefs_)}));
    }

    void run() {
        auto s = ctx_.scope("XML");
        ctx_.mapRange(0, text_.size(), RangeKind::Chunk, "document");
        // Progress: the scan for piece boundaries, pugixml's parse of the pieces, then the items
        // (shares of the decode time of a large place).
        const double size = double(std::max<std::size_t>(text_.size(), 1));
        const XmlLoadResult res = xml_->load(
            text_, pugi::parse_default | pugi::parse_ws_pcdata_single, kPieceBytes,
            [&](PiecewiseXml::Phase phase, std::uint64_t at) {
                ctx_.progress(phase == PiecewiseXml::Phase::Scan
                                  ? kScanShare * double(at) / size
                                  : kScanShare + kParseShare * double(at) / size);
                ctx_.checkCancel(at);
            },
            kWholeBytes);
        if (!res)
            // pugixml reports "end of input" errors one past the last byte: clamp to the file.
            ctx_.fail(std::min<std::uint64_t>(res.offset, text_.size()), errc::kXml,
                      std::string("malformed XML: ") + res.description());
        const pugi::xml_node root = xml_->document().child("roblox");
        if (!root) ctx_.fail(0, errc::kXml, "no <roblox> root element");
        asset_.version = root.attribute("version").value();
        ctx_.mapRange(startOf(root), tagEnd(startOf(root)) - startOf(root), RangeKind::Header,
                      "roblox");
        for (pugi::xml_node n : root.children("SharedStrings")) readSharedStrings(n);
        readItems(root);
        resolveRefs();
    }

private:
    // Pieces of the document handed to pugixml at a time: about 1–2 ms of parsing each here
    // (bench_corpus_models: 2.8 ms for Xml.rbxlx's 2.5 MB).
    static constexpr std::size_t kPieceBytes = 1u << 20;
    // A document under this size is parsed whole, without the scan for pieces (a tenth of the
    // decode of Xml.rbxlx): a Cancel then waits for pugixml's parse, 5 ms at most here.
    static constexpr std::size_t kWholeBytes = 4u << 20;
    static constexpr double kScanShare = 0.05, kParseShare = 0.30;

    // Offset of an element's '<'.
    std::uint64_t startOf(pugi::xml_node n) const {
        const std::int64_t o = xml_->offsetOf(n);
        return o > 0 ? std::uint64_t(o) : 0;
    }
    // Offset just past the '>' of the tag that starts at `start`.
    std::uint64_t tagEnd(std::uint64_t start) const {
        const auto gt = text_.find('>', start);
        return gt == std::string_view::npos ? text_.size() : gt + 1;
    }
    // Offset just past an element's end tag (or its self-closing tag).
    std::uint64_t endOf(pugi::xml_node n, std::uint64_t start) const {
        return endOf(n, start, n.name());
    }
    // The same, for an element whose name the caller has (n.name()).
    std::uint64_t endOf(pugi::xml_node n, std::uint64_t start, std::string_view name) const {
        const std::uint64_t open = tagEnd(start);
        if (open >= 2 && text_[open - 2] == '/') return open;
        // Most properties hold text only (<float name="X">1.5</float>): when the first '<' after
        // the start tag begins "</name>", it is this element's end tag (no element starts before
        // it, and a comment or CDATA in the text would begin there instead; pugixml has checked
        // that the document nests).
        if (open < text_.size()) {
            if (const void* lt = std::memchr(text_.data() + open, '<', text_.size() - open)) {
                if (const std::uint64_t e =
                        closesAt(std::uint64_t(static_cast<const char*>(lt) - text_.data()), name))
                    return e;
            }
        }
        // Most elements have an element after them: the text before its '<', less white space,
        // ends with this element's "</name>" (a comment or processing instruction between them
        // ends otherwise, and the walk below is made). One look back rather than a search
        // through the element's content and a string made for each property.
        if (const pugi::xml_node next = n.next_sibling(); next.type() == pugi::node_element) {
            const std::int64_t o = xml_->offsetOf(next);
            if (o > std::int64_t(open)) {
                std::uint64_t e = std::uint64_t(o);
                while (e > open && isXmlSpace(text_[e - 1])) --e;
                const std::uint64_t tag = name.size() + 3;
                if (e >= open + tag && text_[e - 1] == '>' &&
                    text_.compare(e - tag, 2, "</") == 0 &&
                    text_.compare(e - tag + 2, name.size(), name) == 0)
                    return e;
            }
        }
        // Else each element's end tag is the first after the end of its last child element:
        // down the chain of last children, then back up, one end tag searched for at each
        // level (an element of the same name inside n does not end it early).
        std::vector<pugi::xml_node>& chain = chain_;  // reused: no allocation a call
        chain.assign(1, n);
        for (pugi::xml_node c = lastElement(n); c && chain.size() <= ctx_.limits().maxDepth;
             c = lastElement(c))
            chain.push_back(c);
        std::uint64_t at = open;
        if (chain.size() > 1) {
            const std::uint64_t s = startOf(chain.back());
            if (s < open) return open;  // not inside n: the length is left at the start tag
            const std::uint64_t o = tagEnd(s);
            at = o >= 2 && text_[o - 2] == '/' ? o : endTagAfter(chain.back().name(), o);
            for (std::size_t i = chain.size() - 1; at && i-- > 1;)
                at = endTagAfter(chain[i].name(), at);
            if (at == 0) return open;
        }
        const std::uint64_t end = endTagAfter(name, at);
        return end ? end : open;
    }
    // Offset just past "</name" + white space + '>' when that starts at `at`, else 0.
    std::uint64_t closesAt(std::uint64_t at, std::string_view name) const {
        const std::uint64_t size = text_.size();
        if (at > size || size - at < name.size() + 3 || text_[at] != '<' || text_[at + 1] != '/' ||
            text_.substr(at + 2, name.size()) != name)
            return 0;
        std::uint64_t e = at + 2 + name.size();
        while (e < size && isXmlSpace(text_[e])) ++e;
        return e < size && text_[e] == '>' ? e + 1 : 0;
    }
    static pugi::xml_node lastElement(pugi::xml_node n) {
        pugi::xml_node c = n.last_child();
        while (c && c.type() != pugi::node_element) c = c.previous_sibling();
        return c;
    }
    // Offset just past the first end tag "</name>" (white space allowed before its '>') at or
    // after `from`; 0 if there is none.
    std::uint64_t endTagAfter(std::string_view name, std::uint64_t from) const {
        std::string close;
        close.reserve(name.size() + 2);
        close.append("</").append(name);
        // memmem rather than string_view::find, which stops at every '<' of the element's
        // content (a fifth of the decode, in a large place). Searched in windows from `from`
        // that grow eightfold (at most about 1.14 times the distance searched again): a
        // sanitizer's memmem checks its whole haystack first, so one search to the end of a
        // large file per item was quadratic there.
        while (from < text_.size()) {
            const std::size_t rest = text_.size() - from;
            const char* found = nullptr;
            for (std::size_t window = 4096;; window *= 8) {
                const std::size_t n = std::min(window, rest);
                if (const void* at = memmem(text_.data() + from, n, close.data(), close.size())) {
                    found = static_cast<const char*>(at);
                    break;
                }
                if (n == rest) return 0;
            }
            std::uint64_t e = std::uint64_t(found - text_.data()) + close.size();
            while (e < text_.size() && isXmlSpace(text_[e])) ++e;
            if (e < text_.size() && text_[e] == '>') return e + 1;
            from = std::uint64_t(found - text_.data()) + 1;  // "</nameX": a longer name
        }
        return 0;
    }

    void readSharedStrings(pugi::xml_node list) {
        for (pugi::xml_node s : list.children("SharedString")) {
            std::string content;
            if (!decodeBase64(s.child_value(), content))
                ctx_.warn(startOf(s), errc::kBadBase64, "shared string is not valid base64");
            // Stored once, in the asset: SharedString values refer to it by index.
            sharedStrings_[s.attribute("md5").value()] = std::uint32_t(asset_.sharedStrings.size());
            asset_.sharedStrings.push_back(std::move(content));
        }
    }

    void readItems(pugi::xml_node root) {
        // Referents by item: one per item, and an item takes a few hundred bytes at least, so
        // the table is sized once instead of rehashing as it grows (never past the file size).
        refs_.reserve(text_.size() / 512);
        struct Frame {
            pugi::xml_node item;
            int parent;
            std::uint32_t depth;
        };
        std::vector<Frame> stack;
        auto pushChildren = [&](pugi::xml_node parent, int parentNode, std::uint32_t depth) {
            const std::size_t first = stack.size();
            for (pugi::xml_node c : parent.children("Item")) {
                if (depth > ctx_.limits().maxDepth)
                    ctx_.fail(startOf(c), errc::kLimit,
                              "items nest deeper than maxDepth (" +
                                  std::to_string(ctx_.limits().maxDepth) + ")");
                stack.push_back({c, parentNode, depth});
            }
            // The parent's list of children sized once, not grown child by child.
            if (parentNode >= 0 && stack.size() > first)
                asset_.childList(parentNode).reserve(stack.size() - first);
            std::reverse(stack.begin() + std::ptrdiff_t(first), stack.end());
        };
        pushChildren(root, -1, 1);
        std::size_t done = 0;
        while (!stack.empty()) {
            const Frame f = stack.back();
            stack.pop_back();
            if ((++done & 1023) == 0) {
                ctx_.progress(kScanShare + kParseShare +
                              (1.0 - kScanShare - kParseShare) * double(startOf(f.item)) /
                                  double(std::max<std::size_t>(text_.size(), 1)));
                ctx_.checkCancel(startOf(f.item));
            }
            if (asset_.nodes.size() >= ctx_.limits().maxInstances)
                ctx_.fail(startOf(f.item), errc::kLimit, "instance count exceeds maxInstances");
            const int node = readItem(f.item, f.parent);
            pushChildren(f.item, node, f.depth + 1);
        }
        ctx_.progress(1.0);
    }

    int readItem(pugi::xml_node item, int parent) {
        // Views of the document's text, which lives as long as this decoder (xml_).
        const std::string_view className = item.attribute("class").value();
        // Named by its Name property, else after its class.
        const int node = asset_.addNode({}, className, parent);
        named_ = false;
        const std::uint64_t start = startOf(item);
        std::uint64_t end = tagEnd(start);
        const std::string_view referent = item.attribute("referent").value();
        if (!referent.empty() && referent != "null") {
            if (!refs_.emplace(referent, node).second)
                ctx_.warn(start, errc::kDuplicateReferent,
                          "referent \"" + std::string(referent) +
                              "\" is used by two items; the first keeps it");
        }
        asset_.nodes[node].service = parent < 0 && isServiceClass(className);
        for (pugi::xml_node props : item.children("Properties")) {
            // The node's list sized once (an item has tens of properties: grown one by one, the
            // list was moved five or six times an item); its children are counted, elements or
            // not (a room or two too many, as a rule none).
            std::size_t count = 0;
            for (pugi::xml_node p = props.first_child(); p; p = p.next_sibling()) ++count;
            auto& list = asset_.propertyList(node);
            const std::size_t before = list.size();
            list.reserve(before + count);
            for (pugi::xml_node p = props.first_child(); p; p = p.next_sibling())
                if (p.type() == pugi::node_element) readProperty(node, list, p);
            // Its end tag, as a rule, follows its last property's (white space between): one
            // look there rather than a search from its start.
            std::uint64_t propsEnd = 0;
            if (list.size() > before) {  // it held a property
                std::uint64_t e = list.back().offset + list.back().length;
                while (e < text_.size() && isXmlSpace(text_[e])) ++e;
                propsEnd = closesAt(e, "Properties");
            }
            end = std::max(end, propsEnd ? propsEnd : endOf(props, startOf(props)));
        }
        if (!named_) asset_.setName(node, className);
        Node& n = asset_.nodes[node];
        n.offset = start;
        n.length = end - start;
        if (ctx_.options().byteMap)  // the range's name is not made for a decode without the map
            ctx_.mapRange(start, end - start, RangeKind::Record,
                          std::string(className) + " " + std::string(asset_.name(node)), node);
        return node;
    }

    // The child of p named `name`. Children are mostly read in the order they are written (X,
    // Y, Z, R00 ... R22 of a CFrame): the sibling after the last child found is tried first,
    // then a search from p's first child (pugixml's child(), a string compare a child).
    pugi::xml_node child(pugi::xml_node p, const char* name) {
        pugi::xml_node c;
        if (lastParent_ == p) c = lastChild_.next_sibling();  // a sibling of p's child: in p
        if (!c || std::strcmp(c.name(), name) != 0) c = p.child(name);
        if (c) {
            lastChild_ = c;
            lastParent_ = p;
        }
        return c;
    }
    float childFloat(pugi::xml_node p, const char* name) {
        float f = 0;
        const pugi::xml_node c = child(p, name);
        if (!c || !parseNumber(std::string_view(c.child_value()), f)) bad(p, name);
        return f;
    }
    double childDouble(pugi::xml_node p, const char* name) {
        double f = 0;
        const pugi::xml_node c = child(p, name);
        if (!c || !parseNumber(std::string_view(c.child_value()), f)) bad(p, name);
        return f;
    }
    std::int64_t childInt(pugi::xml_node p, const char* name) {
        std::int64_t v = 0;
        const pugi::xml_node c = child(p, name);
        if (!c || !parseNumber(std::string_view(c.child_value()), v)) bad(p, name);
        return v;
    }
    void bad(pugi::xml_node p, const char* what) {
        ctx_.warn(startOf(p), errc::kBadValue,
                  std::string("property \"") + p.attribute("name").value() + "\" (" + p.name() +
                      "): missing or malformed " + what);
    }
    Vec3 vec3(pugi::xml_node p) {
        static constexpr const char* kNames[3] = {"X", "Y", "Z"};
        float v[3];
        childFloats(p, kNames, v);
        return {v[0], v[1], v[2]};
    }
    // The children of p named `names` as numbers, in one walk over p's children rather than a
    // lookup a name (a CFrame's twelve are most of an animation's numbers): each name's first
    // child is read, and what is missing or malformed is warned about in the order of `names`,
    // as childFloat would have, one name after the other.
    template <std::size_t N>
    void childFloats(pugi::xml_node p, const char* const (&names)[N], float (&out)[N]) {
        enum : std::uint8_t { kMissing, kRead, kMalformed };
        std::uint8_t state[N] = {};
        std::fill(std::begin(out), std::end(out), 0.0f);  // what is missing or malformed is 0
        std::size_t next = 0;  // the name expected next: children come in the order written
        for (pugi::xml_node c = p.first_child(); c; c = c.next_sibling()) {
            if (c.type() != pugi::node_element) continue;
            const char* name = c.name();
            std::size_t i = next < N && sameName(name, names[next]) ? next : N;
            for (std::size_t k = 0; i == N && k < N; ++k)
                if (sameName(name, names[k])) i = k;
            if (i == N || state[i] != kMissing) continue;
            next = i + 1;
            state[i] = parseNumber(std::string_view(c.child_value()), out[i]) ? kRead : kMalformed;
        }
        for (std::size_t i = 0; i < N; ++i)
            if (state[i] != kRead) bad(p, names[i]);
    }
    static bool sameName(const char* a, const char* b) {
        while (*a && *a == *b) ++a, ++b;
        return *a == *b;
    }
    std::vector<double> floatList(pugi::xml_node p) {
        std::vector<double> v;
        std::string_view s = p.child_value();
        while (true) {
            s = trim(s);
            if (s.empty()) break;
            const auto sp = s.find_first_of(" \t\r\n");
            float f = 0;
            if (!parseNumber(s.substr(0, sp), f)) {
                bad(p, "number list");
                break;
            }
            v.push_back(f);
            if (sp == std::string_view::npos) break;
            s.remove_prefix(sp);
        }
        return v;
    }
    static Vec3 argb(std::uint64_t v) {
        return {float((v >> 16) & 255) / 255.0f, float((v >> 8) & 255) / 255.0f,
                float(v & 255) / 255.0f};
    }

    // A property's type, static text: one of 15 characters at most is moved in from a string
    // made in place, which compiles to a few stores, where assigning the text is a call to the
    // general replace (an XML place sets one a property).
    template <std::size_t N>
    static void setType(Property& prop, const char (&name)[N]) {
        if constexpr (N <= 16)
            prop.type = std::string(name, N - 1);
        else
            prop.type.assign(name, N - 1);
    }

    // `props` is the node's own list (readItem looked it up once for all its properties).
    void readProperty(int node, std::vector<Property>& props, pugi::xml_node p) {
        const std::string_view tag = p.name();
        // Built where it is kept (the list was sized by readItem): no move and no destruction
        // of a local copy a property.
        Property& prop = props.emplace_back();
        prop.name = p.attribute("name").value();
        prop.offset = startOf(p);
        prop.length = endOf(p, prop.offset, tag) - prop.offset;
        const std::string_view text = p.child_value();
        std::string_view pendingRef;
        if (tag == "string" || tag == "ProtectedString") {
            prop.type = std::string(tag);
            prop.value = std::string(text);
            if (prop.name == "Name") {
                asset_.setName(node, text);
                named_ = true;
            }
        } else if (tag == "BinaryString") {
            setType(prop, "BinaryString");
            std::string decoded;
            if (!decodeBase64(text, decoded)) bad(p, "base64");
            prop.value = std::move(decoded);
        } else if (tag == "bool") {
            setType(prop, "bool");
            prop.value = trim(text) == "true";
        } else if (tag == "int" || tag == "int64" || tag == "token" || tag == "BrickColor") {
            if (tag == "int")
                setType(prop, "int32");
            else if (tag == "token")
                setType(prop, "Enum");
            else
                prop.type = std::string(tag);
            std::int64_t v = 0;
            if (!parseNumber(text, v)) {
                // Enum/BrickColor values are unsigned 32-bit; int32 may be written unsigned.
                std::uint64_t u = 0;
                if (parseNumber(text, u))
                    v = std::int64_t(u);
                else
                    bad(p, "integer");
            }
            prop.value = v;
        } else if (tag == "SecurityCapabilities") {
            setType(prop, "SecurityCapabilities");
            std::uint64_t v = 0;
            if (!parseNumber(text, v)) bad(p, "integer");
            prop.value = std::int64_t(v);
        } else if (tag == "float") {
            setType(prop, "float");
            float f = 0;
            if (!parseNumber(text, f)) bad(p, "number");
            prop.value = double(f);
        } else if (tag == "double") {
            setType(prop, "double");
            double d = 0;
            if (!parseNumber(text, d)) bad(p, "number");
            prop.value = d;
        } else if (tag == "Vector3") {
            setType(prop, "Vector3");
            prop.value = vec3(p);
        } else if (tag == "Vector3int16") {
            setType(prop, "Vector3int16");
            prop.value =
                Vec3{float(childInt(p, "X")), float(childInt(p, "Y")), float(childInt(p, "Z"))};
        } else if (tag == "Vector2") {
            setType(prop, "Vector2");
            prop.value = Vec2{childFloat(p, "X"), childFloat(p, "Y")};
        } else if (tag == "Vector2int16") {
            setType(prop, "Vector2int16");
            prop.value = Vec2{float(childInt(p, "X")), float(childInt(p, "Y"))};
        } else if (tag == "Color3") {
            setType(prop, "Color3");
            if (p.child("R")) {
                prop.value = Vec3{childFloat(p, "R"), childFloat(p, "G"), childFloat(p, "B")};
            } else {
                std::uint64_t v = 0;  // 2007-era files: one ARGB integer
                if (!parseNumber(text, v)) bad(p, "color");
                prop.value = argb(v);
            }
        } else if (tag == "Color3uint8") {
            setType(prop, "Color3uint8");
            std::uint64_t v = 0;
            if (!parseNumber(text, v)) bad(p, "color");
            prop.value = argb(v);
        } else if (tag == "CoordinateFrame" || tag == "OptionalCoordinateFrame") {
            if (tag == "CoordinateFrame")
                setType(prop, "CFrame");
            else
                setType(prop, "OptionalCFrame");
            const pugi::xml_node src = tag == "CoordinateFrame" ? p : p.child("CFrame");
            if (src) {
                static constexpr const char* kNames[12] = {
                    "X", "Y", "Z", "R00", "R01", "R02", "R10", "R11", "R12", "R20", "R21", "R22"};
                float v[12];
                childFloats(src, kNames, v);
                CFrame cf;
                cf.position = {v[0], v[1], v[2]};
                for (int i = 0; i < 9; ++i) cf.rotation[i] = v[3 + i];
                prop.value = cf;
            }
        } else if (tag == "UDim") {
            setType(prop, "UDim");
            prop.value = std::vector<double>{childFloat(p, "S"), double(childInt(p, "O"))};
        } else if (tag == "UDim2") {
            setType(prop, "UDim2");
            prop.value = std::vector<double>{childFloat(p, "XS"), double(childInt(p, "XO")),
                                             childFloat(p, "YS"), double(childInt(p, "YO"))};
        } else if (tag == "Ray") {
            setType(prop, "Ray");
            const Vec3 o = vec3(p.child("origin")), d = vec3(p.child("direction"));
            prop.value = std::vector<double>{o.x, o.y, o.z, d.x, d.y, d.z};
        } else if (tag == "Faces" || tag == "Axes") {
            prop.type = std::string(tag);
            prop.value = childInt(p, tag == "Faces" ? "faces" : "axes");
        } else if (tag == "NumberRange" || tag == "NumberSequence" || tag == "ColorSequence") {
            prop.type = std::string(tag);
            prop.value = floatList(p);
        } else if (tag == "Rect2D") {
            setType(prop, "Rect");
            const pugi::xml_node mn = p.child("min"), mx = p.child("max");
            prop.value = std::vector<double>{childFloat(mn, "X"), childFloat(mn, "Y"),
                                             childFloat(mx, "X"), childFloat(mx, "Y")};
        } else if (tag == "PhysicalProperties") {
            setType(prop, "PhysicalProperties");
            std::vector<double> v;
            if (trim(p.child("CustomPhysics").child_value()) == "true") {
                v = {childFloat(p, "Density"),          childFloat(p, "Friction"),
                     childFloat(p, "Elasticity"),       childFloat(p, "FrictionWeight"),
                     childFloat(p, "ElasticityWeight"), 1.0};
                if (p.child("AcousticAbsorption")) v[5] = childFloat(p, "AcousticAbsorption");
            }
            prop.value = std::move(v);
        } else if (tag == "Ref") {
            setType(prop, "Ref");
            prop.value = NodeRef{-1};
            pendingRef = trim(text);
        } else if (tag == "SharedString" || tag == "NetAssetRef") {
            setType(prop, "SharedString");
            auto it = sharedStrings_.find(trim(text));
            if (it != sharedStrings_.end()) {
                prop.value = SharedStringRef{it->second};
            } else {
                ctx_.warn(
                    prop.offset, errc::kBadSharedString,
                    "shared string \"" + std::string(trim(text)) + "\" is not in <SharedStrings>");
            }
        } else if (tag == "UniqueId") {
            setType(prop, "UniqueId");
            // 32 hex digits, which the value keeps in lower case (formatUniqueId's form of the
            // numbers parseUniqueId reads from them, without the round trip: an XML place has
            // one on most items).
            static constexpr auto kLowerHex = [] {  // a hex digit in lower case, else 0
                std::array<char, 256> t{};
                for (char c = '0'; c <= '9'; ++c) t[std::uint8_t(c)] = c;
                for (char c = 'a'; c <= 'f'; ++c) t[std::uint8_t(c)] = t[std::uint8_t(c - 32)] = c;
                return t;
            }();
            std::string value(trim(text));
            unsigned hex = value.size() == 32;
            for (char& c : value) {
                c = kLowerHex[std::uint8_t(c)];
                hex &= c != 0;
            }
            if (!hex)
                bad(p, "unique id");
            else
                prop.value = std::move(value);
        } else if (tag == "Font") {
            setType(prop, "Font");
            std::uint64_t weight = 400;
            if (p.child("Weight") &&
                !parseNumber(std::string_view(p.child("Weight").child_value()), weight))
                bad(p, "Weight");
            prop.value = formatFont(
                trim(p.child("Family").child("url").child_value()), unsigned(weight),
                trim(p.child("Style").child_value()).empty() ? "Normal"
                                                             : trim(p.child("Style").child_value()),
                trim(p.child("CachedFaceId").child("url").child_value()));
        } else if (tag == "Content" || tag == "ContentId") {
            setType(prop, "Content");
            if (pugi::xml_node u = p.child("url"))
                prop.value = std::string(u.child_value());
            else if (pugi::xml_node u = p.child("uri"))
                prop.value = std::string(u.child_value());
            else if (pugi::xml_node r = p.child("Ref")) {
                prop.value = NodeRef{-1};
                pendingRef = trim(r.child_value());
            } else
                prop.value = std::string();
        } else {
            prop.type = std::string(tag);
            const std::string_view raw = text_.substr(prop.offset, prop.length);
            prop.value = Bytes(raw.begin(), raw.end());
            ctx_.warn(prop.offset, errc::kUnknownType,
                      "property \"" + prop.name + "\" has unknown type <" + std::string(tag) +
                          ">; kept as raw text");
        }
        if (!pendingRef.empty() && pendingRef != "null")
            pendingRefs_.push_back({node, props.size() - 1, pendingRef});
    }

    void resolveRefs() {
        for (auto& r : pendingRefs_) {
            Property& prop = asset_.propertyList(r.node)[r.property];
            auto it = refs_.find(r.referent);
            if (it != refs_.end()) {
                prop.value = NodeRef{it->second};
            } else {
                ctx_.warn(prop.offset, errc::kDanglingReferent,
                          "property \"" + prop.name + "\" refers to \"" + std::string(r.referent) +
                              "\", which no item has; read as nil");
            }
        }
    }

    struct PendingRef {
        int node;
        std::size_t property;
        std::string_view referent;  // in the document's text
    };

    DecodeContext& ctx_;
    Asset& asset_;
    std::string_view text_;
    // Shared so that a cancelled decode can hand the parsed document back (handOver).
    std::shared_ptr<PiecewiseXml> xml_ = std::make_shared<PiecewiseXml>();
    // md5 (the document's text) -> Asset::sharedStrings
    std::unordered_map<std::string_view, std::uint32_t> sharedStrings_;
    std::unordered_map<std::string_view, int> refs_;  // keys: the document's text
    std::vector<PendingRef> pendingRefs_;
    bool named_ = false;                         // the item being read had a Name property
    pugi::xml_node lastChild_;                   // the child child() found last
    pugi::xml_node lastParent_;                  // and its parent
    mutable std::vector<pugi::xml_node> chain_;  // endOf()'s walk down the last children
};

}  // namespace

void decodeXmlModel(DecodeContext& ctx) {
    XmlDecoder decoder(ctx);
    try {
        decoder.run();
    } catch (const DecodeFailure& f) {
        if (f.error.code == errc::kCancelled) decoder.handOver();
        throw;
    }
    addTerrain(ctx);
    addUnionContents(ctx);
}

}  // namespace meshscope::rbx
