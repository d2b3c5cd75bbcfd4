// PiecewiseXml: see xml_pieces.h. The character classes and the checks below follow pugixml's
// parser (parse_tree, parse_exclamation, parse_question, end tags), so that the scanner splits
// the text only where pugixml sees the same structure.
#include "formats/roblox_model/xml_pieces.h"

#include <algorithm>
#include <cstring>
#include <string>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace meshscope::rbx {
namespace {

// pugixml's ct_start_symbol and ct_symbol (bytes >= 0x80 count as letters) and ct_space.
constexpr bool isStartSymbol(unsigned char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':' || c >= 0x80;
}
bool isSymbol(unsigned char c) {
    return isStartSymbol(c) || (c >= '0' && c <= '9') || c == '-' || c == '.';
}
bool isSpace(unsigned char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

// The first of the characters Cs in [s, end), or end: 16 bytes at a time where SSE2 is there.
template <char... Cs>
[[gnu::always_inline]] inline const char* findFirst(const char* s, const char* end) {
#if defined(__SSE2__)
    while (end - s >= 16) {
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s));
        __m128i hit = _mm_setzero_si128();
        ((hit = _mm_or_si128(hit, _mm_cmpeq_epi8(v, _mm_set1_epi8(Cs)))), ...);
        if (const int bits = _mm_movemask_epi8(hit)) return s + __builtin_ctz(unsigned(bits));
        s += 16;
    }
#endif
    while (s < end && ((*s != Cs) && ...)) ++s;
    return s;
}

// Nesting the scanner follows; deeper text is left unsplit (parsed in one piece).
constexpr std::size_t kMaxScanDepth = 1u << 16;

// Offset of the first start tag in a piece the scanner has read (text, comments, CDATA and
// processing instructions before it), or npos.
std::size_t firstStartTag(std::string_view piece) {
    std::size_t i = 0;
    while ((i = piece.find('<', i)) != std::string_view::npos) {
        const std::string_view at = piece.substr(i);
        if (at.size() > 1 && isStartSymbol(static_cast<unsigned char>(at[1]))) return i;
        std::string_view open, close;  // searched for past the whole opening, as pugixml does
        if (at.starts_with("<!--"))
            open = "<!--", close = "-->";
        else if (at.starts_with("<![CDATA["))
            open = "<![CDATA[", close = "]]>";
        else if (at.starts_with("<?"))
            open = "<?", close = "?>";
        else
            return std::string_view::npos;
        const std::size_t end = piece.find(close, i + open.size());
        if (end == std::string_view::npos) return std::string_view::npos;
        i = end + close.size();
    }
    return std::string_view::npos;
}

}  // namespace

const char* XmlLoadResult::description() const {
    pugi::xml_parse_result r;
    r.status = status;
    return r.description();
}

// First pass. Each open element is a frame; an element becomes Open/Close events when it closes
// spanning pieceBytes or more with child elements, and a Cut is placed before a child that
// starts pieceBytes or more after the last split in its parent. Events of an element are
// committed with it, so elements still open where the scan stops are never split.
void PiecewiseXml::scan(std::size_t pieceBytes, const Tick& tick) {
    struct Frame {
        std::uint64_t start;       // '<'
        std::uint64_t contentEnd;  // one past the start tag's '>'
        std::uint64_t runStart;    // where the current run of content began
        std::size_t firstEvent;    // in events_
        std::size_t firstOpen;     // in opens
        bool hasChild;
    };
    // Pointer loops rather than find(): most runs of text and most tags are a few bytes long.
    const char* const begin = text_.data();
    const char* end = begin + text_.size();
    // pugixml reads the text as a C string: a NUL byte ends it.
    if (const void* nul = std::memchr(begin, 0, text_.size())) end = static_cast<const char*>(nul);
    auto past = [&](const char* from, std::string_view what) -> const char* {
        const std::string_view rest(from, std::size_t(end - from));
        const std::size_t at = rest.find(what);
        return at == std::string_view::npos ? nullptr : from + at + what.size();
    };
    std::vector<Frame> stack;
    // Open events are known when their element closes: kept apart (in the order elements
    // close) and merged by position at the end, rather than inserted into events_ each time.
    std::vector<Event> opens;
    const char* s = begin;
    std::size_t nextTick = pieceBytes;
    while (true) {
        const std::uint64_t p = std::uint64_t(s - begin);
        if (p >= nextTick) {
            if (tick) tick(Phase::Scan, p);
            nextTick = p + pieceBytes;
        }
        s = findFirst<'<'>(s, end);
        if (end - s < 2) break;  // the end of the text (or a '<' at its end)
        const std::uint64_t at = std::uint64_t(s - begin);
        const std::string_view tag(s, std::size_t(end - s));
        const unsigned char c = static_cast<unsigned char>(s[1]);
        const char* next = nullptr;
        if (c == '/') {
            const char* gt = findFirst<'>'>(s + 2, end);
            if (!stack.empty() && gt < end) {
                next = gt + 1;
                const std::uint64_t tagEnd = std::uint64_t(next - begin);
                const Frame f = stack.back();
                stack.pop_back();
                if (f.hasChild && tagEnd - f.start >= pieceBytes) {
                    opens.push_back({Event::Open, f.start, f.contentEnd});
                    events_.push_back({Event::Close, at, tagEnd});
                    if (!stack.empty()) stack.back().runStart = tagEnd;
                }
            }
        } else if (isStartSymbol(c)) {
            // The start tag ends at the first '>' outside quoted attribute values.
            const char* gt = findFirst<'>', '"', '\''>(s + 2, end);
            while (gt < end && *gt != '>') {
                gt = *gt == '"' ? findFirst<'"'>(gt + 1, end) : findFirst<'\''>(gt + 1, end);
                if (gt < end) gt = findFirst<'>', '"', '\''>(gt + 1, end);
            }
            if (gt < end && stack.size() < kMaxScanDepth) {
                next = gt + 1;
                if (!stack.empty()) {
                    Frame& parent = stack.back();
                    parent.hasChild = true;
                    if (at - parent.runStart >= pieceBytes) {
                        events_.push_back({Event::Cut, at, at});
                        parent.runStart = at;
                    }
                }
                if (gt[-1] != '/') {
                    const std::uint64_t contentEnd = std::uint64_t(next - begin);
                    stack.push_back(
                        {at, contentEnd, contentEnd, events_.size(), opens.size(), false});
                }
            }
        } else if (tag.starts_with("<!--")) {
            next = past(s + 4, "-->");
        } else if (tag.starts_with("<![CDATA[")) {
            if (!stack.empty()) next = past(s + 9, "]]>");  // document-level CDATA: a node
        } else if (c == '?') {
            if (tag.size() > 2 && isStartSymbol(static_cast<unsigned char>(s[2])))
                next = past(s + 2, "?>");
        }
        if (!next) {
            // Something the scanner does not follow: leave it to pugixml, in one piece with
            // whatever is still open. At the document level, the whole text is one piece.
            if (stack.empty()) events_.clear(), opens.clear();
            break;
        }
        s = next;
    }
    if (!stack.empty()) {
        events_.resize(stack.front().firstEvent);
        opens.resize(stack.front().firstOpen);
    }
    // Cut and Close events are in position order already; an element's Open goes after a Cut
    // at the same position (the Cut ends the run before that child).
    std::sort(opens.begin(), opens.end(),
              [](const Event& a, const Event& b) { return a.pos < b.pos; });
    std::vector<Event> merged(events_.size() + opens.size());
    std::merge(events_.begin(), events_.end(), opens.begin(), opens.end(), merged.begin(),
               [](const Event& a, const Event& b) {
                   return a.pos < b.pos ||
                          (a.pos == b.pos && a.kind == Event::Cut && b.kind == Event::Open);
               });
    events_ = std::move(merged);
}

XmlLoadResult PiecewiseXml::append(pugi::xml_node parent, std::uint64_t from,
                                   std::string_view piece, unsigned options, bool whole) {
    ++pieces_;
    if (whole) {
        // One buffer: pugixml's own offsets hold. offset_debug() gives the first element's; its
        // name locates pugixml's copy of the text, so that offsetOf finds every other element's
        // from its name alone, as for pieces (offset_debug is a tenth of an element's reading).
        const pugi::xml_parse_result res =
            doc_.load_buffer(piece.data(), piece.size(), options, pugi::encoding_utf8);
        if (res) {
            const pugi::xml_node first = doc_.document_element();
            const std::ptrdiff_t at = first ? first.offset_debug() : -1;
            if (at > 0)
                ranges_.push_back(
                    {reinterpret_cast<std::uintptr_t>(first.name()) - std::uintptr_t(at),
                     piece.size(), from});
        }
        return {res.status, std::uint64_t(res.offset)};
    }
    const pugi::xml_node last = parent.last_child();
    const pugi::xml_parse_result res =
        parent.append_buffer(piece.data(), piece.size(), options, pugi::encoding_utf8);
    if (!res) return {res.status, from + std::uint64_t(res.offset)};
    pugi::xml_node first = last ? last.next_sibling() : parent.first_child();
    if (parent.type() == pugi::node_document) {
        // A fragment keeps text at the document level; a document does not.
        for (pugi::xml_node n = first; n;) {
            const pugi::xml_node next = n.next_sibling();
            if (n.type() == pugi::node_pcdata) {
                if (n == first) first = next;
                parent.remove_child(n);
            }
            n = next;
        }
    }
    while (first && first.type() != pugi::node_element) first = first.next_sibling();
    if (first) {
        // pugixml parses a copy of the piece in place: an element's name points just past its
        // '<' in that copy, so the first element's name locates the copy.
        const std::size_t k = firstStartTag(piece);
        if (k != std::string_view::npos) {
            const Range r{reinterpret_cast<std::uintptr_t>(first.name()) - (k + 1), piece.size(),
                          from};
            ranges_.push_back(r);  // sorted at the end of load()
        }
    }
    return {};
}

XmlLoadResult PiecewiseXml::checkEndTag(pugi::xml_node open, std::uint64_t at) const {
    // As pugixml: the name must be the open element's, then optional spaces and '>'.
    auto ch = [&](std::uint64_t i) -> unsigned char {
        return i < text_.size() ? static_cast<unsigned char>(text_[i]) : 0;
    };
    const char* name = open.name();
    std::uint64_t s = at + 2;
    for (; isSymbol(ch(s)); ++s, ++name)
        if (char(ch(s)) != *name) return {pugi::status_end_element_mismatch, at + 2};
    if (*name) return {pugi::status_end_element_mismatch, at + 2};
    while (isSpace(ch(s))) ++s;
    if (ch(s) != '>') return {pugi::status_bad_end_element, s};
    return {};
}

XmlLoadResult PiecewiseXml::load(std::string_view text, unsigned options, std::size_t pieceBytes,
                                 const Tick& tick, std::size_t wholeBytes) {
    doc_.reset();
    text_ = text;
    events_.clear();
    ranges_.clear();
    pieces_ = 0;
    lastRange_ = 0;
    pieceBytes = std::max<std::size_t>(pieceBytes, 1);
    // A text shorter than a piece has no element spanning a piece and no point a piece past a
    // split: the scan would find nothing, so it is skipped (it was a third of the decode of a
    // 600 KB animation). A text shorter than wholeBytes is not split either.
    if (text.size() >= std::max(pieceBytes, wholeBytes)) scan(pieceBytes, tick);
    if (events_.empty()) return append(doc_, 0, text, options, true);

    // offsetOf() searches the pieces' copies by address: sorted once, whichever way this ends.
    struct SortRanges {
        std::vector<Range>& ranges;
        ~SortRanges() {
            std::sort(ranges.begin(), ranges.end(),
                      [](const Range& a, const Range& b) { return a.base < b.base; });
        }
    } sortRanges{ranges_};
    // Every piece is parsed as a fragment: a run of content may hold no element.
    const unsigned fragment = options | pugi::parse_fragment;
    std::vector<pugi::xml_node> open{doc_};
    std::uint64_t cursor = 0;
    std::string tag;
    auto flush = [&](std::uint64_t to) -> XmlLoadResult {
        if (to <= cursor) return {};
        return append(open.back(), cursor, text.substr(cursor, to - cursor), fragment, false);
    };
    for (const Event& e : events_) {
        if (XmlLoadResult r = flush(e.pos); !r) return r;
        cursor = e.pos;
        if (e.kind == Event::Open) {
            // The start tag as an empty-element tag: pugixml reads its name and attributes.
            tag.assign(text.substr(e.pos, e.end - 1 - e.pos));
            tag += "/>";
            if (XmlLoadResult r = append(open.back(), e.pos, tag, fragment, false); !r) {
                // pugixml reports some errors one past the character it stopped at: past the
                // '/' of the copy is past the '>' in the text.
                r.offset = std::min<std::uint64_t>(r.offset, e.end);
                return r;
            }
            open.push_back(open.back().last_child());
            cursor = e.end;
        } else if (e.kind == Event::Close) {
            if (XmlLoadResult r = checkEndTag(open.back(), e.pos); !r) return r;
            open.pop_back();
            cursor = e.end;
        }
        if (tick) tick(Phase::Build, cursor);
    }
    return flush(text.size());
}

std::int64_t PiecewiseXml::offsetOf(pugi::xml_node element) const {
    if (element.type() != pugi::node_element) return -1;
    if (ranges_.empty()) {
        const std::ptrdiff_t o = element.offset_debug();
        return o > 0 ? std::int64_t(o - 1) : -1;
    }
    const auto p = reinterpret_cast<std::uintptr_t>(element.name());
    auto inside = [&](const Range& r) { return p > r.base && p <= r.base + r.length; };
    if (lastRange_ < ranges_.size() && inside(ranges_[lastRange_]))
        return std::int64_t(ranges_[lastRange_].offset + (p - ranges_[lastRange_].base) - 1);
    auto it = std::upper_bound(ranges_.begin(), ranges_.end(), p,
                               [](std::uintptr_t v, const Range& r) { return v < r.base; });
    if (it == ranges_.begin()) return -1;
    --it;
    if (!inside(*it)) return -1;
    lastRange_ = std::size_t(it - ranges_.begin());
    return std::int64_t(it->offset + (p - it->base) - 1);
}

}  // namespace meshscope::rbx
