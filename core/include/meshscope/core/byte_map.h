// The byte map: named byte ranges (header, chunk, array, field) that say where every part of an
// asset came from. Ranges nest; together the top-level ranges cover the whole file (gaps are
// filled with "unparsed" ranges when decoding finishes). The hex inspector draws it.
#pragma once

#include <cstdint>
#include <memory>
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
    // "SKINNING › bones[3] › parentIndex": characters kept by the ByteMap the range is in (valid
    // while that map lives and is not assigned to; a copy of the map has its own).
    std::string_view path;
    RangeKind kind = RangeKind::Field;
    int node = -1;  // Asset::nodes index this range belongs to, or -1
    std::uint64_t end() const { return offset + length; }
};

// Ranges in the order decoders add them. `finalize()` sorts them by (offset, larger first),
// and fills the gaps between top-level ranges with Unparsed ranges.
class ByteMap {
public:
    ByteMap() = default;
    ByteMap(const ByteMap& other);
    ByteMap& operator=(const ByteMap& other);
    ByteMap(ByteMap&& other) noexcept;
    ByteMap& operator=(ByteMap&& other) noexcept;
    ~ByteMap() = default;

    // The path's characters are copied into the map's own storage (blocks of text, not a heap
    // string per range: a binary place has tens of thousands of ranges).
    int add(std::uint64_t offset, std::uint64_t length, std::string_view path, RangeKind kind,
            int node = -1);
    // Path `parent › child` (either may be empty), joined straight into the map's storage.
    int add(std::uint64_t offset, std::uint64_t length, std::string_view parent,
            std::string_view child, RangeKind kind, int node = -1);
    // A path of static text (a string literal, or text that outlives every copy of the map),
    // referred to rather than copied: a decoder's thousands of ranges with the same few paths.
    int addStatic(std::uint64_t offset, std::uint64_t length, std::string_view path, RangeKind kind,
                  int node = -1) {
        ranges_.push_back({offset, length, path, kind, node});
        return static_cast<int>(ranges_.size() - 1);
    }
    void finalize(std::uint64_t fileSize);
    // Room for `count` ranges in all (a decoder that knows how many it will add).
    void reserve(std::size_t count) { ranges_.reserve(count); }

    const std::vector<ByteRange>& ranges() const { return ranges_; }
    // For changing offsets, lengths, kinds and nodes; a path must be one of this map's own (or a
    // string literal).
    std::vector<ByteRange>& ranges() { return ranges_; }
    bool empty() const { return ranges_.empty(); }
    std::size_t size() const { return ranges_.size(); }

    // Innermost (shortest) range that contains `offset`, or -1. Requires finalize().
    int innermostAt(std::uint64_t offset) const;
    // All ranges containing `offset`, outermost first.
    std::vector<int> stackAt(std::uint64_t offset) const;

private:
    // Room for `size` characters in the current text block (a new block when it is full).
    char* reserveText(std::size_t size) {
        return size <= textLeft_ ? textFree_ : newTextBlock(size);
    }
    char* newTextBlock(std::size_t size);
    void copyFrom(const ByteMap& other);

    std::vector<ByteRange> ranges_;
    std::uint64_t maxLength_ = 0;  // for the containment search after finalize()
    // The paths' characters: blocks that never move once made, so the views stay valid.
    std::vector<std::unique_ptr<char[]>> text_;
    char* textFree_ = nullptr;
    std::size_t textLeft_ = 0;
    std::size_t textBlock_ = 0;  // size of the last block made
};

// Path helper: joins segments with " › " (U+203A, the separator used in every path).
// One allocation of the exact size.
std::string joinPath(std::string_view parent, std::string_view child);
inline constexpr const char* kPathSeparator = " \xE2\x80\xBA ";

}  // namespace meshscope
