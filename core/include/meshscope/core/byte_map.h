// The byte map: named byte ranges (header, chunk, array, field) that say where every part of an
// asset came from. Ranges nest; together the top-level ranges cover the whole file (gaps are
// filled with "unparsed" ranges when decoding finishes). The hex inspector draws it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace meshscope {

enum class RangeKind : std::uint8_t {
    Header,    // a fixed header or magic
    Chunk,     // a framed chunk / block / section
    Array,     // a run of equal records (vertices, faces, ...)
    Record,    // one record inside an array or a structure
    Field,     // one scalar field
    Payload,   // compressed or opaque payload (Draco, LZ4, zlib ...)
    Padding,   // padding or stray trailing bytes
    Unparsed,  // bytes no decoder claimed
};

const char* rangeKindName(RangeKind kind);

struct ByteRange {
    std::uint64_t offset = 0;  // absolute file offset
    std::uint64_t length = 0;
    std::string path;  // "SKINNING › bones[3] › parentIndex"
    RangeKind kind = RangeKind::Field;
    int node = -1;  // Asset::nodes index this range belongs to, or -1
    std::uint64_t end() const { return offset + length; }
};

// Ranges in the order decoders add them. `finalize()` sorts them by (offset, larger first),
// and fills the gaps between top-level ranges with Unparsed ranges.
class ByteMap {
public:
    int add(std::uint64_t offset, std::uint64_t length, std::string path, RangeKind kind,
            int node = -1);
    void finalize(std::uint64_t fileSize);

    const std::vector<ByteRange>& ranges() const { return ranges_; }
    std::vector<ByteRange>& ranges() { return ranges_; }
    bool empty() const { return ranges_.empty(); }
    std::size_t size() const { return ranges_.size(); }

    // Innermost (shortest) range that contains `offset`, or -1. Requires finalize().
    int innermostAt(std::uint64_t offset) const;
    // All ranges containing `offset`, outermost first.
    std::vector<int> stackAt(std::uint64_t offset) const;

private:
    std::vector<ByteRange> ranges_;
    std::uint64_t maxLength_ = 0;  // for the containment search after finalize()
};

// Path helper: joins segments with " › " (U+203A, the separator used in every path).
// One allocation of the exact size.
std::string joinPath(std::string_view parent, std::string_view child);
// Appends " › child" (or child alone when path is empty) to path in place.
void appendPath(std::string& path, std::string_view child);
inline constexpr const char* kPathSeparator = " \xE2\x80\xBA ";

}  // namespace meshscope
