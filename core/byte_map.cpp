// Byte map bookkeeping: sorting, gap filling and containment queries for the hex inspector.
#include "meshscope/core/byte_map.h"

#include <algorithm>
#include <iterator>

namespace meshscope {

const char* rangeKindName(RangeKind kind) {
    switch (kind) {
        case RangeKind::Header:
            return "header";
        case RangeKind::Chunk:
            return "chunk";
        case RangeKind::Array:
            return "array";
        case RangeKind::Record:
            return "record";
        case RangeKind::Field:
            return "field";
        case RangeKind::Payload:
            return "payload";
        case RangeKind::Padding:
            return "padding";
        case RangeKind::Unparsed:
            return "unparsed";
    }
    return "?";
}

std::string joinPath(std::string_view parent, std::string_view child) {
    if (parent.empty()) return std::string(child);
    if (child.empty()) return std::string(parent);
    constexpr std::string_view separator = kPathSeparator;
    std::string out;
    out.reserve(parent.size() + separator.size() + child.size());
    out.append(parent).append(separator).append(child);
    return out;
}

void appendPath(std::string& path, std::string_view child) {
    if (child.empty()) return;
    if (!path.empty()) path.append(std::string_view(kPathSeparator));
    path.append(child);
}

int ByteMap::add(std::uint64_t offset, std::uint64_t length, std::string path, RangeKind kind,
                 int node) {
    ranges_.push_back({offset, length, std::move(path), kind, node});
    return static_cast<int>(ranges_.size() - 1);
}

void ByteMap::finalize(std::uint64_t fileSize) {
    // Drop empty ranges and clip ranges to the file.
    std::erase_if(ranges_,
                  [&](const ByteRange& r) { return r.length == 0 || r.offset >= fileSize; });
    for (auto& r : ranges_) r.length = std::min(r.length, fileSize - r.offset);
    const auto before = [](const ByteRange& a, const ByteRange& b) {
        if (a.offset != b.offset) return a.offset < b.offset;
        return a.length > b.length;
    };
    // Decoders add most ranges in file order (a binary model's thousands of chunks): no sort then.
    if (!std::is_sorted(ranges_.begin(), ranges_.end(), before))
        std::stable_sort(ranges_.begin(), ranges_.end(), before);
    // Fill gaps not covered by any range with Unparsed ranges.
    std::vector<ByteRange> gaps;
    std::uint64_t covered = 0;
    for (const auto& r : ranges_) {
        if (r.offset > covered)
            gaps.push_back({covered, r.offset - covered, "unparsed", RangeKind::Unparsed, -1});
        covered = std::max(covered, r.end());
    }
    if (covered < fileSize)
        gaps.push_back({covered, fileSize - covered, "unparsed", RangeKind::Unparsed, -1});
    if (!gaps.empty()) {
        // The gaps are in order too: merged in (ties keep the decoder's ranges first, as a stable
        // sort of both together would).
        const auto middle = std::ptrdiff_t(ranges_.size());
        ranges_.insert(ranges_.end(), std::make_move_iterator(gaps.begin()),
                       std::make_move_iterator(gaps.end()));
        std::inplace_merge(ranges_.begin(), ranges_.begin() + middle, ranges_.end(), before);
    }
    maxLength_ = 0;
    for (const auto& r : ranges_) maxLength_ = std::max(maxLength_, r.length);
}

std::vector<int> ByteMap::stackAt(std::uint64_t offset) const {
    std::vector<int> out;
    // Ranges are sorted by offset; any range containing `offset` starts in
    // [offset - maxLength_, offset]. Scan that window (binary search for its end).
    auto endIt = std::upper_bound(ranges_.begin(), ranges_.end(), offset,
                                  [](std::uint64_t o, const ByteRange& r) { return o < r.offset; });
    const std::uint64_t lo = offset >= maxLength_ ? offset - maxLength_ : 0;
    auto beginIt =
        std::lower_bound(ranges_.begin(), endIt, lo,
                         [](const ByteRange& r, std::uint64_t o) { return r.offset < o; });
    for (auto it = beginIt; it != endIt; ++it) {
        if (offset >= it->offset && offset < it->end()) out.push_back(int(it - ranges_.begin()));
    }
    std::stable_sort(out.begin(), out.end(),
                     [&](int a, int b) { return ranges_[a].length > ranges_[b].length; });
    return out;
}

int ByteMap::innermostAt(std::uint64_t offset) const {
    auto s = stackAt(offset);
    return s.empty() ? -1 : s.back();
}

}  // namespace meshscope
