// Builds a pugixml document in pieces, so that parsing a large XML model can be interrupted
// (cancel) and can report progress: pugixml parses a whole buffer in one call that cannot be
// stopped (0.8–1.0 s for a 75 MB place).
//
// A first pass, a light scanner aware of quotes, comments, CDATA and processing instructions,
// finds the elements that span at least `pieceBytes` and have child elements ("big" elements),
// and points between their children every `pieceBytes` or so. A second pass creates each big
// element itself (its start tag, written as an empty-element tag, parsed by pugixml) and feeds
// the balanced runs of content between those points through xml_node::append_buffer under the
// element that is open there; end tags of big elements are checked as pugixml checks them. The
// caller's tick runs between pieces (and every `pieceBytes` of the scan) and may throw.
//
// The result is the document pugixml's load_buffer builds from the whole text with the same
// options, node for node, and the same error status and absolute offset for malformed text
// (tests/core/roblox_model/xml_pieces_test.cpp compares the two). Where the scanner meets
// anything it does not follow (a DOCTYPE, an unrecognised tag, an unterminated comment or tag,
// text cut short), the elements still open there are not split, so that part is parsed in one
// piece exactly as before. A NUL byte ends the text for pugixml, and so for the scanner.
//
// pugixml reports no node offsets for a document built from several buffers; offsetOf() maps a
// node back to its absolute offset in the text.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <pugixml.hpp>
#include <string_view>
#include <vector>

namespace meshscope::rbx {

struct XmlLoadResult {
    pugi::xml_parse_status status = pugi::status_ok;
    std::uint64_t offset = 0;  // absolute, in the text
    explicit operator bool() const { return status == pugi::status_ok; }
    // pugixml's sentence for the status ("Start-end tags mismatch").
    const char* description() const;
};

class PiecewiseXml {
public:
    enum class Phase { Scan, Build };
    // Called with the phase and the text position reached; may throw to abandon the load.
    using Tick = std::function<void(Phase, std::uint64_t position)>;

    // Parses `text` (which must outlive this object) into document(). `options` are pugixml's
    // parse options for the whole document. A text shorter than `wholeBytes` (or than a piece)
    // is parsed in one buffer, without the scan: for a text that pugixml parses in a few
    // milliseconds, pieces only add the scan's pass (a tenth of an XML model's decode).
    XmlLoadResult load(std::string_view text, unsigned options, std::size_t pieceBytes,
                       const Tick& tick = {}, std::size_t wholeBytes = 0);

    pugi::xml_document& document() { return doc_; }
    // Absolute offset of an element's '<' in the text, or -1 for a node that is not an element
    // of this document.
    std::int64_t offsetOf(pugi::xml_node element) const;
    // How many buffers pugixml parsed for the last load (1 when nothing was split).
    std::size_t pieceCount() const { return pieces_; }

private:
    struct Event {
        enum Kind : std::uint8_t { Open, Close, Cut } kind;
        std::uint64_t pos;  // the '<' of the tag (Open, Close) or of the child (Cut)
        std::uint64_t end;  // one past the tag's '>' (Open, Close)
    };
    struct Range {
        std::uintptr_t base;  // pugixml's copy of a piece
        std::size_t length;
        std::uint64_t offset;  // the piece's offset in the text
    };

    void scan(std::size_t pieceBytes, const Tick& tick);
    XmlLoadResult append(pugi::xml_node parent, std::uint64_t from, std::string_view piece,
                         unsigned options, bool whole);
    XmlLoadResult checkEndTag(pugi::xml_node open, std::uint64_t at) const;

    pugi::xml_document doc_;
    std::string_view text_;
    std::vector<Event> events_;
    std::vector<Range> ranges_;  // sorted by base when load() returns
    std::size_t pieces_ = 0;
    mutable std::size_t lastRange_ = 0;
};

}  // namespace meshscope::rbx
