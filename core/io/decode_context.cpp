// DecodeContext: context path, failures, warnings, byte map and budget bookkeeping.
#include "io/decode_context.h"

#include <algorithm>
#include <cstdio>

#include "meshscope/core/error_codes.h"

namespace meshscope {

DecodeContext::DecodeContext(ByteSpan bytes, const DecodeOptions& options, Asset& asset)
    : bytes_(bytes),
      options_(options),
      asset_(asset),
      budget_(options.limits.decompressionBudget(bytes.size())) {}

void DecodeContext::growSegments() {
    std::vector<Segment> grown(2 * capacity_);
    std::copy(segments_, segments_ + depth_, grown.begin());
    more_ = std::move(grown);
    segments_ = more_.data();
    capacity_ = more_.size();
}

void DecodeContext::appendPathTo(std::string& out) const {
    std::size_t own = 0;  // where the next copied segment's text begins in text_
    for (std::size_t i = 0; i < depth_; ++i) {
        const Segment& s = segments_[i];
        const std::size_t before = out.size();
        if (!out.empty()) out.append(std::string_view(kPathSeparator));
        const std::size_t at = out.size();
        if (s.append) {
            s.append(out, s.data);
        } else if (s.data) {
            out.append(static_cast<const char*>(s.data), s.size);
        } else {
            out.append(text_, own, s.size);
            own += s.size;
        }
        if (out.size() == at) out.resize(before);  // nothing appended: no separator either
    }
}

const std::string& DecodeContext::path() const {
    // A segment's text stays as it is while its scope lives (Scope's contract), so the path
    // changes only with a push or a pop.
    if (pathEpoch_ == epoch_) return path_;
    path_.clear();
    appendPathTo(path_);
    pathEpoch_ = epoch_;
    return path_;
}

void DecodeContext::fail(std::uint64_t offset, std::string code, std::string message) const {
    throw DecodeFailure(DecodeError{std::move(code), offset, path(), std::move(message)});
}

void DecodeContext::warn(std::uint64_t offset, std::string code, std::string message) {
    // Cap the number of stored warnings so a hostile file cannot exhaust memory through them.
    constexpr std::size_t kMaxDiagnostics = 10000;
    if (asset_.diagnostics.size() == kMaxDiagnostics) {
        asset_.diagnostics.push_back({Severity::Warning, errc::kTooManyWarnings, offset, path(),
                                      "further warnings are not recorded"});
    }
    if (asset_.diagnostics.size() > kMaxDiagnostics) return;
    asset_.diagnostics.push_back(
        {Severity::Warning, std::move(code), offset, path(), std::move(message)});
}

void DecodeContext::info(std::uint64_t offset, std::string code, std::string message) {
    if (asset_.diagnostics.size() > 10000) return;
    asset_.diagnostics.push_back(
        {Severity::Info, std::move(code), offset, path(), std::move(message)});
}

int DecodeContext::mapRange(std::uint64_t offset, std::uint64_t length, RangeKind kind,
                            std::string_view name, int node) {
    if (!options_.byteMap) return -1;  // DecodeOptions::byteMap: nobody reads it
    return asset_.byteMap.add(offset, length, path(), name, kind, node);
}

void DecodeContext::failAllocation(std::uint64_t offset, std::uint64_t count,
                                   const char* what) const {
    // checkAllocation's failure: `count` elements of the size it was given exceed the cap.
    const std::uint64_t cap = options_.limits.maxAllocation;
    fail(offset, errc::kLimit,
         std::string(what) + ": " + std::to_string(count) +
             " elements exceed the allocation cap (maxAllocation = " + std::to_string(cap) +
             " bytes)");
}

void DecodeContext::failBudget(std::uint64_t offset) const {
    fail(offset, errc::kLimit,
         "decompressed data would exceed the decompression budget (" + std::to_string(budget_) +
             " bytes for this file: min(maxDecompressedTotal, " +
             std::to_string(options_.limits.decompressionRatio) + " × file size))");
}

void DecodeContext::checkCancelSlow(std::uint64_t offset) const {
    if (options_.cancel && options_.cancel->load(std::memory_order_relaxed))
        fail(offset, errc::kCancelled, "decoding was cancelled");
    if (options_.progress && !ownProgress_ && !bytes_.empty())
        reportProgress(double(offset) / double(bytes_.size()));
}

void DecodeContext::reportProgress(double fraction) const {
    if (!options_.progress) return;
    fraction = fraction < 0.0 ? 0.0 : fraction > 1.0 ? 1.0 : fraction;
    if (fraction < reportedProgress_ + 1.0 / 512.0 && !(fraction >= 1.0 && reportedProgress_ < 1.0))
        return;
    reportedProgress_ = fraction;
    options_.progress(fraction);
}

}  // namespace meshscope
