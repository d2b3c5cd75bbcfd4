// Byte map bookkeeping: sorting, gap filling and containment queries for the hex inspector.
#include "meshscope/core/byte_map.h"

#include <algorithm>
#include <cstring>
#include <iterator>
#include <utility>

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

ByteMap::ByteMap(const ByteMap& other) {
    copyFrom(other);
}

ByteMap& ByteMap::operator=(const ByteMap& other) {
    if (this != &other) {
        ByteMap copy(other);
        *this = std::move(copy);
    }
    return *this;
}

ByteMap::ByteMap(ByteMap&& other) noexcept
    : ranges_(std::move(other.ranges_)),
      maxLength_(std::exchange(other.maxLength_, 0)),
      text_(std::move(other.text_)),
      textFree_(std::exchange(other.textFree_, nullptr)),
      textLeft_(std::exchange(other.textLeft_, 0)),
      textBlock_(std::exchange(other.textBlock_, 0)) {
    other.ranges_.clear();
    other.text_.clear();
}

ByteMap& ByteMap::operator=(ByteMap&& other) noexcept {
    if (this != &other) {
        ranges_ = std::move(other.ranges_);
        maxLength_ = std::exchange(other.maxLength_, 0);
        text_ = std::move(other.text_);
        textFree_ = std::exchange(other.textFree_, nullptr);
        textLeft_ = std::exchange(other.textLeft_, 0);
        textBlock_ = std::exchange(other.textBlock_, 0);
        other.ranges_.clear();
        other.text_.clear();
    }
    return *this;
}

void ByteMap::copyFrom(const ByteMap& other) {
    ranges_ = other.ranges_;
    maxLength_ = other.maxLength_;
    // One block for every path of the other map, and the views moved onto it.
    std::size_t total = 0;
    for (const ByteRange& r : ranges_) total += r.path.size();
    if (total == 0) return;
    char* out = reserveText(total);
    for (ByteRange& r : ranges_) {
        if (r.path.empty()) continue;
        std::memcpy(out, r.path.data(), r.path.size());
        r.path = std::string_view(out, r.path.size());
        out += r.path.size();
    }
    textFree_ = out;
    textLeft_ -= total;
}

char* ByteMap::newTextBlock(std::size_t size) {
    // Blocks grow with the map (512 bytes up to 256 KiB: a small model's few paths fit in a block
    // the allocator keeps at hand), and a longer path gets its own.
    constexpr std::size_t kFirst = 512, kLargest = 256 * 1024;
    textBlock_ = textBlock_ == 0 ? kFirst : std::min(textBlock_ * 2, kLargest);
    const std::size_t block = std::max(textBlock_, size);
    text_.push_back(std::make_unique_for_overwrite<char[]>(block));
    textFree_ = text_.back().get();
    textLeft_ = block;
    return textFree_;
}

int ByteMap::add(std::uint64_t offset, std::uint64_t length, std::string_view path, RangeKind kind,
                 int node) {
    return add(offset, length, path, {}, kind, node);
}

int ByteMap::add(std::uint64_t offset, std::uint64_t length, std::string_view parent,
                 std::string_view child, RangeKind kind, int node) {
    constexpr std::string_view separator = kPathSeparator;
    const std::size_t size =
        parent.size() + child.size() + (parent.empty() || child.empty() ? 0 : separator.size());
    std::string_view path;
    if (size) {
        char* out = reserveText(size);
        char* at = out;
        if (!parent.empty()) {
            std::memcpy(at, parent.data(), parent.size());
            at += parent.size();
            if (!child.empty()) {
                std::memcpy(at, separator.data(), separator.size());
                at += separator.size();
            }
        }
        if (!child.empty()) std::memcpy(at, child.data(), child.size());
        path = std::string_view(out, size);
        textFree_ += size;
        textLeft_ -= size;
    }
    ranges_.push_back({offset, length, path, kind, node});
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
        // The gaps are in order too: merged in from the back, into the array grown once (no
        // merge buffer the size of the map). Ties keep the decoder's ranges first, as a stable
        // sort of both together would: from the back, a gap goes first unless it sorts before.
        std::size_t i = ranges_.size(), j = gaps.size();
        ranges_.resize(i + j);
        for (std::size_t k = i + j; j > 0;) {
            if (i > 0 && before(gaps[j - 1], ranges_[i - 1]))
                ranges_[--k] = ranges_[--i];
            else
                ranges_[--k] = gaps[--j];
        }
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
