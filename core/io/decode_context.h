// What a decoder works with: the file's bytes, the options and limits, the Asset being built,
// the context path used in every error and the byte map helpers. Private to core.
//
// Failures inside a decoder are thrown as DecodeFailure (by ByteReader or by fail()); the
// registry catches them at the API boundary, so no exception ever leaves core, and the Asset
// built so far is returned as a partial result.
#pragma once

#include <algorithm>
#include <cstdint>
#include <exception>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "meshscope/core/decode.h"

namespace meshscope {

class DecodeFailure : public std::exception {
public:
    explicit DecodeFailure(DecodeError e) : error(std::move(e)) {}
    const char* what() const noexcept override { return error.message.c_str(); }
    DecodeError error;
};

class DecodeContext {
public:
    DecodeContext(ByteSpan bytes, const DecodeOptions& options, Asset& asset);
    DecodeContext(const DecodeContext&) = delete;  // its path may point into itself
    DecodeContext& operator=(const DecodeContext&) = delete;

    ByteSpan bytes() const { return bytes_; }
    const DecodeOptions& options() const { return options_; }
    const Limits& limits() const { return options_.limits; }
    Asset& asset() { return asset_; }

    // Context path: push a segment for the lifetime of the returned guard. The path is only
    // put together when something reads it (fail, warn, info, mapRange, path()): a decoder
    // pushes a segment per chunk or record, and nearly all of them are popped unread.
    // A segment's text appends itself to `out` (nothing for none): for segments made of parts.
    using AppendSegment = void (*)(std::string& out, const void* arg);
    class Scope {
    public:
        // The text is copied, or, with `copy` false, referred to.
        Scope(DecodeContext& ctx, std::string_view segment, bool copy = true)
            : ctx_(ctx), depth_(ctx.depth_), text_(ctx.text_.size()) {
            if (segment.empty()) return;  // an empty segment adds nothing to the path
            if (copy) ctx.text_.append(segment);
            ctx.push({copy ? nullptr : segment.data(), segment.size(), nullptr});
        }
        Scope(DecodeContext& ctx, AppendSegment append, const void* arg)
            : ctx_(ctx), depth_(ctx.depth_), text_(ctx.text_.size()) {
            ctx.push({arg, 0, append});
        }
        // Small enough to be inlined (a decoder pops a scope per chunk or record): the copied
        // text's cut is a call of its own.
        ~Scope() {
            if (ctx_.depth_ == depth_) return;  // it pushed nothing
            ctx_.depth_ = depth_;
            ++ctx_.epoch_;
            if (ctx_.text_.size() != text_) ctx_.cutText(text_);
        }
        Scope(const Scope&) = delete;
        Scope& operator=(const Scope&) = delete;

    private:
        DecodeContext& ctx_;
        std::size_t depth_;  // the segment count and own text size before this scope
        std::size_t text_;
    };
    // The segment's text is copied (a temporary string is fine).
    Scope scope(std::string_view segment) { return Scope(*this, segment); }
    // The segment's bytes are referred to, not copied: they must stay as they are until the
    // returned guard is gone.
    Scope scopeRef(std::string_view segment) { return Scope(*this, segment, false); }
    // The segment is `append(out, arg)`, called whenever the path is read while the guard
    // lives: what `arg` points to must stay as it is until then.
    Scope scopeWith(AppendSegment append, const void* arg) { return Scope(*this, append, arg); }
    // The current path (segments joined by kPathSeparator). Valid until the next call.
    const std::string& path() const;
    // Whether no scope adds to the path now (path() would be empty).
    bool atRoot() const { return depth_ == 0; }

    [[noreturn]] void fail(std::uint64_t offset, std::string code, std::string message) const;
    void warn(std::uint64_t offset, std::string code, std::string message);
    void info(std::uint64_t offset, std::string code, std::string message);

    // Byte map: the range is named by the current path, plus `name` when given.
    int mapRange(std::uint64_t offset, std::uint64_t length, RangeKind kind,
                 std::string_view name = {}, int node = -1);

    // Checks `count × elementSize` against the allocation cap (throws a "limit" failure).
    // Inline: called for every array of every chunk (a place has thousands of one-row chunks).
    void checkAllocation(std::uint64_t offset, std::uint64_t count, std::uint64_t elementSize,
                         const char* what) const {
        // count × elementSize > the cap, without a division (an overflowing product is over).
        std::uint64_t total = 0;
        if (__builtin_mul_overflow(count, elementSize, &total) ||
            total > options_.limits.maxAllocation)
            failAllocation(offset, count, what);
    }

    // Accounts decompressed bytes against the per-file budget (throws a "limit" failure).
    // Returns the bytes still allowed.
    std::uint64_t decompressionAllowance() const {
        return budget_ > decompressed_ ? budget_ - decompressed_ : 0;
    }
    void chargeDecompressed(std::uint64_t offset, std::uint64_t bytes) {
        if (bytes > decompressionAllowance()) failBudget(offset);
        decompressed_ += bytes;
    }

    // Throws a "cancelled" failure when the user cancelled. Decoders call it in their long
    // loops, so it is also the progress tick: `offset` over the file's size, unless the decoder
    // reports its own progress().
    void checkCancel(std::uint64_t offset) const {
        if (options_.cancel || options_.progress) checkCancelSlow(offset);
    }
    // Whether the user cancelled, without throwing: for work on another thread, which leaves
    // early and lets the decoding thread's next checkCancel fail.
    bool cancelRequested() const {
        return options_.cancel && options_.cancel->load(std::memory_order_relaxed);
    }
    // The decoder's own progress, 0..1 (from then on checkCancel reports none).
    void progress(double fraction) const {
        ownProgress_ = true;
        if (options_.progress) reportProgress(fraction);
    }
    // A second phase after the decoder's own (a place's terrain meshed after its tree): progress
    // starts again from 0.
    void restartProgress() const {
        ownProgress_ = true;
        reportedProgress_ = -1.0;
    }
    // A cancelled decoder hands its working data here instead of freeing it on the way out
    // (DecodeResult::discarded keeps it).
    void discard(std::shared_ptr<void> data) { discarded_.push_back(std::move(data)); }
    std::vector<std::shared_ptr<void>> takeDiscarded() { return std::move(discarded_); }
    // A decoder whose node tree already holds what the registry's tree check enforces (every
    // parent and child index in range, no cycle, no node deeper than Limits::maxDepth, each node
    // in its parent's children exactly once and in no other list, no mesh, skeleton, bone, FACS,
    // animation or LOD link, every name, kind and list handle in range and each list held by one
    // node) says so as its last step, and that check is skipped: for a large
    // place it is a second pass over every node that would repair nothing. Set it only once the
    // tree is final.
    void setTreeChecked() { treeChecked_ = true; }
    bool treeChecked() const { return treeChecked_; }

private:
    ByteSpan bytes_;
    const DecodeOptions& options_;
    Asset& asset_;
    // The context path's segments, innermost last: text copied into text_ (`data` and
    // `append` null: the next `size` bytes of text_), text referred to (`data`, `size`), or a
    // function's (`append(out, data)`).
    struct Segment {
        const void* data;
        std::size_t size;
        AppendSegment append;
    };
    // Segments [0, depth_) are the path: in inline_ while they fit (a decode rarely nests
    // deeper, and a small file's decode then allocates nothing for them), else in more_. The
    // array only grows (a push is a store).
    Segment inline_[16];
    std::vector<Segment> more_;
    Segment* segments_ = inline_;
    std::size_t capacity_ = std::size(inline_);
    std::size_t depth_ = 0;
    void push(const Segment& s) {
        if (depth_ == capacity_) growSegments();
        segments_[depth_++] = s;
        ++epoch_;
    }
    void growSegments();
    // Counts pushes and pops: path_ holds the path while pathEpoch_ equals it (a chunk maps
    // several ranges under one path, and each would put it together again).
    std::uint64_t epoch_ = 0;
    mutable std::uint64_t pathEpoch_ = ~std::uint64_t(0);
    std::string text_;          // copied segments' text, back to back
    mutable std::string path_;  // path(): put together when read
    void appendPathTo(std::string& out) const;
    [[gnu::noinline]] void cutText(std::size_t size) { text_.resize(size); }
    // The slow and failing halves of the inline checks above.
    [[noreturn]] void failAllocation(std::uint64_t offset, std::uint64_t count,
                                     const char* what) const;
    [[noreturn]] void failBudget(std::uint64_t offset) const;
    void checkCancelSlow(std::uint64_t offset) const;
    std::uint64_t decompressed_ = 0;
    std::uint64_t budget_ = 0;
    // Forwards to DecodeOptions::progress at most every 1/512 step, never backwards.
    void reportProgress(double fraction) const;
    mutable double reportedProgress_ = -1.0;
    mutable bool ownProgress_ = false;
    std::vector<std::shared_ptr<void>> discarded_;
    bool treeChecked_ = false;
};

}  // namespace meshscope
