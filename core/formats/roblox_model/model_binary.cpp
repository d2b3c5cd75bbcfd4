// Roblox binary model decoder (.rbxm/.rbxl, "<roblox!"): file header, chunk framing with raw,
// LZ4 block or ZSTD bodies, and one function per chunk kind (META, SSTR, INST, PROP, PRNT, END,
// SIGN), each checking its own version. Values follow the conventions in model_values.h.
//
// Quirks handled here, with the sample or reader that shows them:
// - a PROP chunk may end right after the property name, with no type byte (rojo-rbx/rbx-dom
//   PR #168): skipped with a warning;
// - unknown chunk names and unknown type ids are kept as raw bytes with a warning, the rest of
//   the file decodes (rojo-rbx/rbx-dom #167);
// - corpus rbxm/rojo-rbx_rbx-dom/rbxm/test-output.rbxm holds an LZ4 *frame* magic (04 22 4d 18)
//   where the chunk lengths belong: the compressed length runs past the end and is refused;
// - binary places can hold instances the XML twin lacks (FilteredSelection).
#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cstring>
#include <exception>
#include <iterator>
#include <memory_resource>
#include <new>
#include <optional>
#include <span>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <utility>

#include "formats/roblox_model/model_decoders.h"
#include "formats/roblox_model/model_values.h"
#include "io/byte_reader.h"
#include "io/decompress.h"
#include "meshscope/core/error_codes.h"

namespace meshscope::rbx {
namespace {

struct ClassInfo {
    std::string_view name;  // kept by the asset (BinaryDecoder::keepText)
    int firstNode = 0;  // Asset::nodes index of row 0: an INST chunk's instances are consecutive
    std::size_t count = 0;
    int table = -1;  // Asset::propertyTables index: row i is node firstNode + i
};

// The INST chunk behind a property table: its range, its class and its instances (nodes
// [firstNode, firstNode + count), row i being node firstNode + i).
struct InstChunk {
    std::uint64_t offset = 0;
    std::uint64_t length = 0;
    std::uint32_t kind = 0;  // Asset::kinds index of the class name
    std::size_t firstNode = 0;
    std::size_t count = 0;
};

// The chunk names the decoder knows, told apart once when the chunk is framed.
enum class ChunkKind : std::uint8_t { Other, Meta, Sstr, Inst, Prop, Prnt, Sign, End };

constexpr std::pair<std::string_view, ChunkKind> kChunkNames[] = {
    {"PROP", ChunkKind::Prop}, {"INST", ChunkKind::Inst}, {"PRNT", ChunkKind::Prnt},
    {"SSTR", ChunkKind::Sstr}, {"META", ChunkKind::Meta}, {"SIGN", ChunkKind::Sign},
    {"END", ChunkKind::End}};

// kChunkNames as the little-endian words of their 4 stored bytes (NUL-padded).
constexpr auto kChunkWords = [] {
    std::array<std::pair<std::uint32_t, ChunkKind>, std::size(kChunkNames)> words{};
    for (std::size_t k = 0; k < words.size(); ++k) {
        const std::string_view n = kChunkNames[k].first;
        for (std::size_t i = 0; i < n.size(); ++i)
            words[k].first |= std::uint32_t(std::uint8_t(n[i])) << 8 * i;
        words[k].second = kChunkNames[k].second;
    }
    return words;
}();

// The kind of a chunk from its 4 stored name bytes: a known name, NUL-padded to 4 bytes (the
// name printable() makes of them then is the known one, and only then). One comparison a name.
ChunkKind chunkKind(const std::uint8_t* name) {
    std::uint32_t w;
    std::memcpy(&w, name, 4);
    for (const auto& [word, kind] : kChunkWords)
        if (w == word) return kind;
    return ChunkKind::Other;
}

std::string_view chunkName(ChunkKind kind) {
    // By kind (ChunkKind's order): looked up once per chunk.
    static constexpr std::string_view kByKind[] = {"",     "META", "SSTR", "INST",
                                                   "PROP", "PRNT", "SIGN", "END"};
    static_assert(std::size(kByKind) == std::size_t(ChunkKind::End) + 1);
    const auto i = std::size_t(kind);
    return i < std::size(kByKind) ? kByKind[i] : std::string_view();
}

// A known chunk's framing ranges in the byte map, named as the chunk's scope names them (its
// name, then " › chunk header" and so on), as static text: a place maps three ranges for each of
// its thousands of chunks, and putting their paths together and copying them was a third of its
// decode with the map. Used when the chunk's scope is the whole path (the file is the document).
struct FramePaths {
    std::string_view chunk, header, lz4, zstd;
};

const FramePaths& framePaths(ChunkKind kind) {
#define MESHSCOPE_FRAME_PATHS(n) \
    { n, n " \xE2\x80\xBA chunk header", n " \xE2\x80\xBA LZ4 block", n " \xE2\x80\xBA ZSTD frame" }
    // By kind (ChunkKind's order), as chunkName.
    static constexpr FramePaths kByKind[] = {
        {},
        MESHSCOPE_FRAME_PATHS("META"),
        MESHSCOPE_FRAME_PATHS("SSTR"),
        MESHSCOPE_FRAME_PATHS("INST"),
        MESHSCOPE_FRAME_PATHS("PROP"),
        MESHSCOPE_FRAME_PATHS("PRNT"),
        MESHSCOPE_FRAME_PATHS("SIGN"),
        MESHSCOPE_FRAME_PATHS("END"),
    };
#undef MESHSCOPE_FRAME_PATHS
    static_assert(std::size(kByKind) == std::size_t(ChunkKind::End) + 1);
    return kByKind[std::size_t(kind) < std::size(kByKind) ? std::size_t(kind) : 0];
}

struct Chunk {
    // An unknown chunk's name, printable (trailing NULs removed): 4 bytes take 16 characters at
    // most (\xNN each). Held in place, so that a Chunk is plain data (a place has thousands).
    char otherName[16] = {};
    std::uint8_t otherSize = 0;
    ChunkKind kind = ChunkKind::Other;
    // "INST": the name's printable form (static text for the known kinds).
    std::string_view name() const {
        return kind == ChunkKind::Other ? std::string_view(otherName, otherSize) : chunkName(kind);
    }
    bool compressed = false;
    bool zstd = false;                     // a compressed body is a ZSTD frame, else an LZ4 block
    std::uint32_t uncompressedLength = 0;  // what a compressed body inflates to
    std::uint64_t offset = 0;              // chunk header offset
    ByteSpan body;                         // the body's file bytes (compressed or raw)
    // (48 bytes: a place's thousands of chunks are framed into one array first.)
    std::uint64_t bodyOffset() const { return offset + 16; }
    std::uint64_t length() const { return 16 + body.size(); }  // header + body
};

static_assert(std::is_trivially_copyable_v<Chunk>);
static_assert(sizeof(Chunk) <= 48);

struct PendingRef {
    int node;
    int table;
    std::size_t column;
    std::size_t row;
    std::int32_t referent;
};

// Appends s to out with each byte outside printable ASCII as \xNN (names in paths and
// messages); stops at a NUL.
void appendPrintable(std::string& out, std::string_view s) {
    // Names are nearly always plain ASCII: copied at once.
    if (std::all_of(s.begin(), s.end(), [](char c) {
            const unsigned char u = static_cast<unsigned char>(c);
            return u >= 0x20 && u < 0x7f;
        })) {
        out.append(s);
        return;
    }
    for (char c : s) {
        if (c == 0) break;
        const unsigned char u = static_cast<unsigned char>(c);
        if (u >= 0x20 && u < 0x7f) {
            out += c;
        } else {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\x%02x", u);
            out += buf;
        }
    }
}

// s as appendPrintable writes it.
std::string printable(std::string_view s) {
    std::string out;
    appendPrintable(out, s);
    return out;
}

// Files whose compressed chunks add up to this many bytes are inflated on a worker thread
// (InflateAhead), at most kInflateAheadBytes ahead of the decoder; smaller files do not pay for
// starting a thread.
constexpr std::size_t kInflateAheadFrom = 256 << 10;
constexpr std::size_t kInflateAheadBytes = 32 << 20;

// ... and only when its chunks are this large on average: each chunk handed over costs a lock
// and often a thread switch, which chunks of a few hundred bytes do not repay (corpus
// UnitTest/Files/Binary.rbxl: 6 532 chunks of 60 compressed bytes on average).
constexpr std::size_t kInflateAheadChunkBytes = 4096;

std::atomic<bool> gInflatePathByInput{false};

bool inflateAhead(std::size_t compressedBytes, std::size_t chunks) {
    // Fuzzing: either path, picked by the input (the parity of its compressed bytes).
    if (gInflatePathByInput.load(std::memory_order_relaxed)) return compressedBytes % 2 == 1;
    return compressedBytes >= kInflateAheadFrom &&
           compressedBytes >= kInflateAheadChunkBytes * chunks;
}

// Memory for one decode's working arrays (the chunk list, class and referent tables, the tree's
// links): the first kBytes from a buffer inside the decoder, so that a small model's dozen arrays
// cost no heap allocation each (a third of a one-instance model's decode went to malloc and free);
// anything past it from the heap, freed as usual. Room in the buffer is not reused once given back
// (an array regrown inside it leaves its old room). Not std::pmr::monotonic_buffer_resource: that
// keeps every block until the end, so a large place's arrays, regrown as they fill, would hold
// each of their old sizes too. For the decoding thread only: worker jobs read these arrays but
// never grow them.
class ScratchMemory final : public std::pmr::memory_resource {
public:
    static constexpr std::size_t kBytes = 4096;

private:
    void* do_allocate(std::size_t bytes, std::size_t align) override {
        const std::size_t at = (used_ + align - 1) & ~(align - 1);
        if (align <= alignof(std::max_align_t) && at <= kBytes && bytes <= kBytes - at) {
            used_ = at + bytes;
            return buffer_ + at;
        }
        return std::pmr::new_delete_resource()->allocate(bytes, align);
    }
    void do_deallocate(void* p, std::size_t bytes, std::size_t align) override {
        const auto at = reinterpret_cast<std::uintptr_t>(p);
        const auto base = reinterpret_cast<std::uintptr_t>(buffer_);
        if (at >= base && at < base + kBytes) return;
        std::pmr::new_delete_resource()->deallocate(p, bytes, align);
    }
    bool do_is_equal(const std::pmr::memory_resource& other) const noexcept override {
        return this == &other;
    }

    alignas(std::max_align_t) std::byte buffer_[kBytes];
    std::size_t used_ = 0;
};

class BinaryDecoder {
public:
    explicit BinaryDecoder(DecodeContext& ctx)
        : ctx_(ctx), asset_(ctx.asset()), mapping_(ctx.options().byteMap) {}

    // The file offset of each shared string's SSTR record (hash, length, bytes) where the chunk
    // is stored uncompressed, by shared-string index: for addUnionContents.
    const std::vector<std::optional<std::uint64_t>>& sharedStringRecords() const {
        return sharedStringRecords_;
    }

    void run() {
        asset_.version = "0";
        ByteReader r(ctx_, ctx_.bytes());
        // The header's ranges in one allocation (readChunks makes room for the chunks' later).
        if (mapping_) asset_.byteMap.reserve(asset_.byteMap.size() + 8);
        readHeader(r);
        try {
            readChunks(r);
        } catch (const DecodeFailure& f) {
            // Keep the partial tree linked, unless the decode was cancelled (its result is
            // dropped: linking a large place would only delay the answer).
            if (f.error.code != errc::kCancelled) finishTree();
            throw;
        } catch (...) {
            finishTree();
            throw;
        }
        finishTree();
    }

private:
    // ---------------------------------------------------------------------------------------
    // File header and chunk framing

    void readHeader(ByteReader& r) {
        auto s = ctx_.scope("header");
        ctx_.mapRange(0, std::min<std::uint64_t>(32, r.size()), RangeKind::Header);
        if (r.string(8, "magic") != "<roblox!")
            r.failAt(0, errc::kBadMagic, "not a Roblox binary model");
        static const std::uint8_t kSignature[6] = {0x89, 0xff, 0x0d, 0x0a, 0x1a, 0x0a};
        ByteSpan sig = r.bytes(6, "signature");
        if (std::memcmp(sig.data(), kSignature, 6) != 0)
            ctx_.warn(8, errc::kBadSignature, "the 6 signature bytes are not 89 ff 0d 0a 1a 0a");
        const std::uint16_t version = r.u16("version");
        if (version != 0)
            r.failAt(
                14, errc::kUnsupportedVersion,
                "binary model version " + std::to_string(version) + " is not supported (only 0)");
        classCount_ = r.i32("class count");
        instanceCount_ = r.i32("instance count");
        if (classCount_ < 0 || instanceCount_ < 0)
            r.failAt(classCount_ < 0 ? 16 : 20, errc::kBadCount,
                     "negative class or instance count in the header");
        if (std::uint64_t(instanceCount_) > ctx_.limits().maxInstances)
            r.failAt(20, errc::kLimit,
                     "instance count " + std::to_string(instanceCount_) + " exceeds maxInstances");
        r.skip(8, "reserved");
        ctx_.mapRange(8, 6, RangeKind::Field, "signature");
        ctx_.mapRange(14, 2, RangeKind::Field, "version");
        ctx_.mapRange(16, 4, RangeKind::Field, "class count");
        ctx_.mapRange(20, 4, RangeKind::Field, "instance count");
    }

    // Two passes: frame every chunk (lengths checked against the file), then inflate and decode
    // them in order, each compressed body into the one reused buffer: only the largest chunk's
    // data is held at a time, and no byte of it is cleared before the decompressor writes it. A
    // framing failure still decodes the chunks framed before it (partial result), then reports
    // the failure.
    void readChunks(ByteReader& r) {
        std::pmr::vector<Chunk> chunks(&scratch_);
        // Never more than the allocation cap (a hostile file of empty chunks has one per 16
        // bytes; framing them grows the array that far anyway).
        chunks.reserve(
            std::min<std::uint64_t>(countChunks(r), ctx_.limits().maxAllocation / sizeof(Chunk)));
        // Framing names three ranges a compressed chunk (chunk, header, payload): room for them,
        // so that the map is not moved as it grows.
        if (ctx_.options().byteMap)
            asset_.byteMap.reserve(asset_.byteMap.size() + 3 * chunks.capacity() + 16);
        // PROP chunks a class, counted while framing (countProp).
        propsPerClass_.assign(
            std::min<std::size_t>(std::size_t(std::max(classCount_, 0)), chunks.capacity()), 0);
        std::optional<DecodeFailure> failure;
        bool sawEnd = false;
        try {
            sawEnd = frameChunks(r, chunks);
        } catch (const DecodeFailure& f) {
            failure = f;
        }
        // A large file's chunks are inflated on a worker thread while the ones before them are
        // decoded here.
        // The payload list is only built when a worker gets it (a small file has none).
        std::size_t compressedBytes = 0, compressedChunks = 0;
        // What the kept blocks will hold at most, about: the small PROP chunks inflated into
        // them and the names copied there. A small file's first block is that size rather than
        // a whole block (a 64 KiB block for a 300-byte model was a tenth of its decode, most of
        // it glibc consolidating its free lists when the block was freed).
        std::size_t keptEstimate = 256;
        for (const Chunk& c : chunks) {
            keptEstimate +=
                32 + (c.kind == ChunkKind::Prop && c.uncompressedLength <= kKeptBlock / 4
                          ? std::size_t(c.compressed ? c.uncompressedLength : c.body.size())
                          : 0);
            if (keptEstimate >= kKeptBlock) keptEstimate = kKeptBlock;
            if (!c.compressed) continue;
            compressedBytes += c.body.size();
            ++compressedChunks;
        }
        firstBlock_ = keptEstimate;
        if (inflateAhead(compressedBytes, compressedChunks)) {
            std::vector<InflateAhead::Payload> payloads;
            payloads.reserve(compressedChunks);
            for (const Chunk& c : chunks)
                if (c.compressed)
                    payloads.push_back({c.body, c.uncompressedLength, c.bodyOffset(), c.zstd});
            aheadStore_.emplace(ctx_, std::move(payloads), kInflateAheadBytes);
            ahead_ = &*aheadStore_;
        }
        classDense_.resize(
            std::min<std::size_t>(std::size_t(std::max(classCount_, 0)), chunks.size()));
        // A table a class (INST chunk): room for them once, rather than moving the tables (and
        // their columns) as they come. The header's count, no more than the file has chunks.
        asset_.propertyTables.reserve(asset_.propertyTables.size() + classDense_.size());
        instChunks_.reserve(classDense_.size());
        std::size_t payload = 0;
        const double total = double(std::max<std::size_t>(chunks.size(), 1));
        for (std::size_t i = 0; i < chunks.size(); ++i) {
            const Chunk& c = chunks[i];
            ctx_.checkCancel(c.offset);
            ctx_.progress(0.2 + 0.8 * double(i) / total);
            ByteSpan data = c.body;
            // The chunk's context, for its inflation and its contents (one scope for both; the
            // chunk array stays as it is meanwhile).
            auto s = ctx_.scopeRef(c.name());
            inKept_ = false;
            if (c.compressed) {
                payload_ = payload++;
                if (ahead_) {
                    data = ahead_->take(ctx_, payload_);
                } else if (c.zstd) {
                    data = inflated_.zstd(ctx_, c.body, c.uncompressedLength, c.bodyOffset());
                } else if (c.kind == ChunkKind::Prop && c.uncompressedLength > 0 &&
                           c.uncompressedLength <= kKeptBlock / 4) {
                    // A small PROP chunk is inflated straight into memory the asset keeps:
                    // its column views the bytes (and its name) where they are, without a
                    // copy. Given back after the chunk when nothing came to view them.
                    InflateBuffer::checkLz4Block(ctx_, c.body, c.uncompressedLength,
                                                 c.bodyOffset());
                    keptName_ = nullptr;
                    std::uint8_t* room = keptRoom(c.uncompressedLength);
                    keptFrom_ = blockUsed_ - c.uncompressedLength;
                    data = InflateBuffer::lz4BlockInto(ctx_, c.body, c.uncompressedLength,
                                                       c.bodyOffset(), room);
                    inKept_ = true;
                    chunkKept_ = false;
                } else {
                    data = inflated_.lz4Block(ctx_, c.body, c.uncompressedLength, c.bodyOffset());
                }
            }
            processChunk(c, data);
            if (inKept_) giveBackKept(data);
        }
        if (failure) throw *failure;
        if (!sawEnd) {
            ctx_.warn(r.offset(), errc::kMissingEnd, "the file ends without an END chunk");
        } else if (!r.atEnd()) {
            ctx_.mapRange(r.offset(), r.remaining(), RangeKind::Padding, "trailing bytes");
            ctx_.warn(r.offset(), errc::kTrailingBytes,
                      std::to_string(r.remaining()) + " bytes after the END chunk are ignored");
        }
        ctx_.progress(1.0);
    }

    // How many chunks frameChunks will find, from their headers alone (no checks beyond
    // bounds: a count for reserving, at most one chunk per 16 bytes left). Saves the chunk
    // array's regrowth, a copy of every chunk each time (a place has thousands).
    static std::size_t countChunks(const ByteReader& r) {
        const ByteSpan b = r.data();
        std::size_t at = r.pos(), n = 0;
        while (b.size() - at >= 16) {
            ++n;
            std::uint32_t compressed, uncompressed;
            std::memcpy(&compressed, b.data() + at + 4, 4);
            std::memcpy(&uncompressed, b.data() + at + 8, 4);
            const std::uint64_t body = compressed ? compressed : uncompressed;
            if (std::memcmp(b.data() + at, "END", 3) == 0 || body > b.size() - at - 16) break;
            at += 16 + std::size_t(body);
        }
        return n;
    }

    // Counts PROP chunks by class id, for readInst to reserve each class's columns once. The id
    // is read where it can be without inflating: a raw body's first four bytes, or an LZ4
    // block's when its first sequence starts with four literals or more (ZSTD: not counted).
    // Never trusted otherwise; ids past the table (sized by readChunks: the header's class
    // count, no more than the file has chunks) are not counted. Inline: it runs for every PROP
    // chunk while framing.
    void countProp(const Chunk& c) {
        const ByteSpan b = c.body;
        std::size_t at = 0;
        if (c.compressed) {
            if (c.zstd || b.empty() || (b[0] >> 4) < 4) return;
            at = 1;
            if ((b[0] >> 4) == 15)  // literal length continues in bytes of 255, then one less
                while (at < b.size() && b[at++] == 255) {
                }
        }
        if (b.size() < at || b.size() - at < 4) return;
        std::uint32_t id;
        std::memcpy(&id, b.data() + at, 4);
        if (id < propsPerClass_.size()) ++propsPerClass_[id];
    }

    // Frames the usual chunk, a whole header with a known name and a body within the file,
    // without the chunk's scope and the per-field checks, which only serve to name a failure;
    // false (nothing read) for any other, which frameChunks' general path frames, failures and
    // all. A place has thousands of chunks (UnitTest Binary.rbxl: 7 % of its decode's
    // instructions).
    bool frameKnownChunk(ByteReader& r, std::pmr::vector<Chunk>& chunks, bool staticPaths) {
        if (r.remaining() < 16 || (mapping_ && !staticPaths)) return false;
        const std::uint8_t* h = r.data().data() + r.pos();
        const ChunkKind kind = chunkKind(h);
        std::uint32_t compressedLength, uncompressedLength;
        std::memcpy(&compressedLength, h + 4, 4);
        std::memcpy(&uncompressedLength, h + 8, 4);
        const std::uint64_t bodyLength = compressedLength ? compressedLength : uncompressedLength;
        if (kind == ChunkKind::Other || bodyLength > r.remaining() - 16) return false;
        // Written where it is kept: a Chunk built aside and copied in was stored field by field
        // and read back 16 bytes at a time, which stalls (a fifth of this loop's time).
        Chunk& c = chunks.emplace_back();
        c.kind = kind;
        c.offset = r.offset();
        r.skip(16, "chunk header");
        c.compressed = compressedLength != 0;
        c.body = r.bytes(std::size_t(bodyLength), "chunk body");
        c.uncompressedLength = uncompressedLength;
        if (c.compressed) c.zstd = looksLikeZstd(c.body);
        if (mapping_) {
            ByteMap& map = asset_.byteMap;
            const FramePaths& paths = framePaths(kind);
            map.addStatic(c.offset, c.length(), paths.chunk, RangeKind::Chunk);
            map.addStatic(c.offset, 16, paths.header, RangeKind::Header);
            if (c.compressed)
                map.addStatic(c.bodyOffset(), bodyLength, c.zstd ? paths.zstd : paths.lz4,
                              RangeKind::Payload);
        }
        if (kind == ChunkKind::Prop) {
            ++propChunks_;
            countProp(c);
        }
        return true;
    }

    // Returns true when an END chunk was read.
    bool frameChunks(ByteReader& r, std::pmr::vector<Chunk>& chunks) {
        const double total = double(std::max<std::size_t>(r.size(), 1));
        // A known chunk's scope is then the whole path: its ranges take static paths.
        const bool staticPaths = ctx_.atRoot();
        while (!r.atEnd()) {
            ctx_.checkCancel(r.offset());
            ctx_.progress(0.2 * double(r.pos()) / total);
            if (frameKnownChunk(r, chunks, staticPaths)) {
                if (chunks.back().kind == ChunkKind::End) return true;
                continue;
            }
            Chunk c;
            c.offset = r.offset();
            const std::string_view rawName = r.string(4, "chunk name");
            c.kind = chunkKind(reinterpret_cast<const std::uint8_t*>(rawName.data()));
            if (c.kind == ChunkKind::Other) {
                const std::string name = printable(rawName);
                c.otherSize = std::uint8_t(std::min(name.size(), sizeof c.otherName));
                std::memcpy(c.otherName, name.data(), c.otherSize);
            }
            if (c.kind == ChunkKind::Prop) ++propChunks_;
            // A known name is static text; an unknown one is copied (`c` moves below).
            DecodeContext::Scope s(ctx_, c.name(), c.kind == ChunkKind::Other);
            const std::uint32_t compressedLength = r.u32("compressed length");
            const std::uint32_t uncompressedLength = r.u32("uncompressed length");
            r.skip(4, "reserved");
            c.compressed = compressedLength != 0;
            const std::uint64_t bodyLength = c.compressed ? compressedLength : uncompressedLength;
            if (bodyLength > r.remaining()) {
                // The offset of the length field at fault: compressed (+4) or uncompressed (+8).
                r.failAt(std::size_t(c.offset + (c.compressed ? 4 : 8)), errc::kTruncated,
                         std::string(c.compressed ? "compressed" : "uncompressed") + " length " +
                             std::to_string(bodyLength) + " of chunk \"" + std::string(c.name()) +
                             "\" runs past the end of the file (" + std::to_string(r.remaining()) +
                             " bytes remain)");
            }
            // (A known chunk gets here only to fail or without static paths.)
            if (mapping_) {
                ctx_.mapRange(c.offset, 16 + bodyLength, RangeKind::Chunk);
                ctx_.mapRange(c.offset, 16, RangeKind::Header, "chunk header");
            }
            c.body = r.bytes(std::size_t(bodyLength), "chunk body");
            c.uncompressedLength = uncompressedLength;
            if (c.compressed) {
                c.zstd = looksLikeZstd(c.body);
                if (mapping_)
                    ctx_.mapRange(c.bodyOffset(), bodyLength, RangeKind::Payload,
                                  c.zstd ? "ZSTD frame" : "LZ4 block");
            }
            if (c.kind == ChunkKind::Prop) countProp(c);
            const bool end = c.kind == ChunkKind::End;
            chunks.push_back(std::move(c));
            if (end) return true;
        }
        return false;
    }

    // `data`: the chunk's body, inflated when it is compressed.
    // In the chunk's scope (readChunks pushes it).
    void processChunk(const Chunk& c, ByteSpan data) {
        ByteReader cr(ctx_, data, c.compressed ? c.offset : c.bodyOffset(), !c.compressed);
        chunk_ = &c;
        if (!nodesPosted_ && (c.kind == ChunkKind::Prop || c.kind == ChunkKind::Prnt)) postNodes();
        if (c.kind == ChunkKind::Meta)
            readMeta(cr);
        else if (c.kind == ChunkKind::Sstr)
            readSstr(cr);
        else if (c.kind == ChunkKind::Inst)
            readInst(cr);
        else if (c.kind == ChunkKind::Prop)
            readProp(cr);
        else if (c.kind == ChunkKind::Prnt)
            readPrnt(cr);
        else if (c.kind == ChunkKind::Sign)
            readSign(cr);
        else if (c.kind == ChunkKind::End)
            readEnd(cr);
        else {
            ctx_.warn(c.offset, errc::kUnknownChunk,
                      "unknown chunk \"" + std::string(c.name()) + "\" kept as raw bytes");
            if (!c.compressed) mapIn(cr, 0, cr.size(), RangeKind::Payload, "unknown data");
        }
        chunk_ = nullptr;
    }

    // The current chunk's inflated bytes, handed over whole when they were inflated ahead into
    // a buffer of their own (empty otherwise: the caller copies what it keeps). `reader` must
    // read the chunk's data: the buffer handed over is checked to be the one it reads.
    UninitializedBytes adoptChunk(const ByteReader& reader) {
        if (!ahead_ || !chunk_ || !chunk_->compressed) return {};
        UninitializedBytes whole = ahead_->release(payload_);
        if (whole.data() != reader.data().data() || whole.size() != reader.size()) {
            // Not this chunk's buffer (never expected): the reader's bytes are elsewhere, and
            // this buffer is simply dropped.
            return {};
        }
        return whole;
    }

    // Keeps the chunk data [0, end) as the column's bytes: the chunk's own buffer when it can
    // be had, else a copy. Positions in the chunk stay positions in `col.bytes`.
    void keepChunk(const ByteReader& r, PropertyColumn& col, std::size_t end) {
        if (inKept_) {
            // Already in memory the asset keeps (readChunks).
            col.bytes.view(r.data().data(), std::min(end, r.size()));
            chunkKept_ = true;
        } else if (UninitializedBytes whole = adoptChunk(r); !whole.empty()) {
            // Kept by the asset, viewed by the column.
            auto kept = std::make_shared<const UninitializedBytes>(std::move(whole));
            col.bytes.view(kept->data(), std::min(end, kept->size()));
            asset_.storage.push_back(std::move(kept));
        } else {
            col.bytes.view(keepBytes(r.data().data(), end), end);
        }
    }

    // A copy of [data, data + size) in a block the asset keeps: the columns of small chunks
    // (a place's thousands of one-row PROP chunks) share blocks instead of each its own
    // allocation. Chunks over a quarter of a block get a block of their own.
    const std::uint8_t* keepBytes(const std::uint8_t* data, std::size_t size) {
        std::uint8_t* at = keptRoom(size);
        if (size) std::memcpy(at, data, size);
        return at;
    }
    // A chunk inflated into kept memory (readChunks) that nothing views: its room is given back
    // when it is still the block's last. The column's name, which views it, is moved to the
    // front of the room and kept.
    void giveBackKept(ByteSpan data) {
        inKept_ = false;
        if (chunkKept_) return;
        if (block_ + keptFrom_ != data.data() || blockUsed_ != keptFrom_ + data.size()) return;
        blockUsed_ = keptFrom_;
        if (keptName_ && !keptName_->name.empty()) {
            const std::string_view name = keptName_->name;
            std::uint8_t* at = block_ + blockUsed_;
            std::memmove(at, name.data(), name.size());  // from within the room: overlapping
            blockUsed_ += name.size();
            keptName_->name = {reinterpret_cast<const char*>(at), name.size()};
        }
        keptName_ = nullptr;
    }
    // Text kept as long as the asset (column, table and class names), as keepBytes keeps bytes.
    std::string_view keepText(std::string_view text) {
        if (text.empty()) return {};
        const auto* at = keepBytes(reinterpret_cast<const std::uint8_t*>(text.data()), text.size());
        return {reinterpret_cast<const char*>(at), text.size()};
    }
    // Room for `size` bytes (left unset) that the asset keeps: in the current shared block, or
    // a block of its own when over a quarter of a block; null for none.
    std::uint8_t* keptRoom(std::size_t size) {
        if (size == 0) return nullptr;
        if (size <= kKeptBlock / 4 && block_ && blockSize_ - blockUsed_ >= size) {
            std::uint8_t* at = block_ + blockUsed_;
            blockUsed_ += size;
            return at;
        }
        return keptRoomSlow(size);
    }
    static constexpr std::size_t kKeptBlock = 64 << 10;
    // keptRoom's new blocks (out of line: the inline part runs for thousands of small chunks).
    [[gnu::noinline]] std::uint8_t* keptRoomSlow(std::size_t size) {
        constexpr std::size_t kBlock = kKeptBlock;
        if (size > kBlock / 4) {
            std::shared_ptr<std::uint8_t[]> own(new std::uint8_t[size]);
            std::uint8_t* at = own.get();
            asset_.storage.push_back(std::move(own));
            return at;
        }
        if (!block_ || blockSize_ - blockUsed_ < size) {
            // The first block as large as the file needs (readChunks), then whole blocks.
            const std::size_t want = block_ ? kBlock : std::max(firstBlock_, size);
            std::shared_ptr<std::uint8_t[]> fresh(new std::uint8_t[want]);
            asset_.storage.push_back(fresh);
            block_ = fresh.get();
            blockSize_ = want;
            blockUsed_ = 0;
        }
        std::uint8_t* at = block_ + blockUsed_;
        blockUsed_ += size;
        return at;
    }

    // Maps a range inside the current chunk's data when the data has file offsets (raw chunk).
    void mapIn(const ByteReader& cr, std::size_t pos, std::size_t length, RangeKind kind,
               std::string_view name) {
        if (mapping_ && cr.mapped() && length) ctx_.mapRange(cr.offsetOf(pos), length, kind, name);
    }

    std::string readString(ByteReader& r, const char* what) {
        const std::uint32_t n = r.u32(what);
        return std::string(r.string(n, what));
    }

    // ---------------------------------------------------------------------------------------
    // Interleaved arrays, read straight from the column-major bytes into values.

    const std::uint8_t* columns(ByteReader& r, std::size_t count, std::size_t width,
                                const char* what) {
        r.checkCount(count, width, what);
        return r.bytes(count * width, what).data();
    }

    // Value i of n interleaved Roblox floats.
    static float floatAt(const std::uint8_t* c, std::size_t n, std::size_t i) {
        return robloxFloat(std::uint32_t(c[i]) << 24 | std::uint32_t(c[n + i]) << 16 |
                           std::uint32_t(c[2 * n + i]) << 8 | c[3 * n + i]);
    }

    void readU32s(ByteReader& r, std::size_t n, std::uint32_t* out, const char* what) {
        const std::uint8_t* c = columns(r, n, 4, what);
        for (std::size_t i = 0; i < n; ++i) {
            out[i] = std::uint32_t(c[i]) << 24 | std::uint32_t(c[n + i]) << 16 |
                     std::uint32_t(c[2 * n + i]) << 8 | c[3 * n + i];
        }
    }
    void readU32s(ByteReader& r, std::size_t n, std::vector<std::uint32_t>& out, const char* what) {
        out.resize(r.checkCount(n, 4, what));
        readU32s(r, n, out.data(), what);
    }
    void readU32s(ByteReader& r, std::size_t n, ColumnNumbers& out, const char* what) {
        readU32s(r, n, out.resize<std::uint32_t>(r.checkCount(n, 4, what)), what);
    }

    // Referent arrays: interleaved zigzag int32, each value added to the previous one, read in
    // one pass: store(i, referent) for i in [0, n).
    template <typename Store>
    void readRefs(ByteReader& r, std::size_t n, const char* what, Store&& store) {
        const std::uint8_t* c = columns(r, n, 4, what);
        std::uint32_t acc = 0;
        for (std::size_t i = 0; i < n; ++i) {
            acc +=
                std::uint32_t(unzigzag32(std::uint32_t(c[i]) << 24 | std::uint32_t(c[n + i]) << 16 |
                                         std::uint32_t(c[2 * n + i]) << 8 | c[3 * n + i]));
            store(i, std::int32_t(acc));
        }
    }
    void readRefs(ByteReader& r, std::size_t n, std::int32_t* refs, const char* what) {
        readRefs(r, n, what, [refs](std::size_t i, std::int32_t ref) { refs[i] = ref; });
    }
    void readRefs(ByteReader& r, std::size_t n, std::vector<std::int32_t>& out, const char* what) {
        out.resize(r.checkCount(n, 4, what));
        readRefs(r, n, out.data(), what);
    }

    // Cancel checks inside loops over rows or links: one chunk of a large place holds millions
    // of rows, too long to wait for between chunks (DecodeOptions::cancel is answered within
    // 100 ms). Checks every 65 536 iterations, at the current chunk (or the PRNT chunk).
    void pollCancel(std::size_t i) const {
        if ((i & 0xffffu) == 0 && i != 0) ctx_.checkCancel(chunk_ ? chunk_->offset : prntOffset_);
    }

    int nodeForRef(std::int32_t ref) const {
        if (ref >= 0 && std::size_t(ref) < denseRefs_.size()) return denseRefs_[ref];
        auto it = sparseRefs_.find(ref);
        return it == sparseRefs_.end() ? -1 : it->second;
    }
    // Grows the dense table once, to the largest of an INST chunk's referents (`most`) that it
    // will hold, instead of once per referent.
    void growRefs(std::int32_t most) {
        if (most >= 0 && std::size_t(most) < denseLimit() && std::size_t(most) >= denseRefs_.size())
            denseRefs_.resize(std::size_t(most) + 1, -1);
    }
    std::size_t denseLimit() const { return std::size_t(instanceCount_) * 2 + 1024; }
    bool registerRef(std::int32_t ref, int node) {
        if (ref >= 0 && std::size_t(ref) < denseLimit()) {
            if (std::size_t(ref) >= denseRefs_.size()) denseRefs_.resize(std::size_t(ref) + 1, -1);
            if (denseRefs_[ref] >= 0) return false;
            denseRefs_[ref] = node;
            return true;
        }
        return sparseRefs_.emplace(ref, node).second;
    }

    // ---------------------------------------------------------------------------------------
    // Chunks

    void readMeta(ByteReader& r) {
        const std::uint32_t count = r.u32("entry count");
        r.checkCount(count, 8, "META entries");
        for (std::uint32_t i = 0; i < count; ++i) {
            const std::size_t start = r.pos();
            std::string key = readString(r, "metadata key");
            std::string value = readString(r, "metadata value");
            if (mapping_)
                mapIn(r, start, r.pos() - start, RangeKind::Record,
                      printable(key) + " = " + printable(value.substr(0, 64)));
        }
    }

    void readSstr(ByteReader& r) {
        const std::uint32_t version = r.u32("version");
        if (version != 0) {
            ctx_.warn(chunk_->offset, errc::kUnsupportedChunkVersion,
                      "SSTR chunk version " + std::to_string(version) + " is not known; skipped");
            return;
        }
        const std::uint32_t count = r.u32("shared string count");
        r.checkCount(count, 20, "shared strings");
        // Stored once, in the asset: SharedString values refer to them by index.
        auto& shared = asset_.sharedStrings;
        shared.reserve(shared.size() + count);
        for (std::uint32_t i = 0; i < count; ++i) {
            const std::size_t start = r.pos();
            r.skip(16, "MD5 hash");
            const std::uint32_t n = r.u32("shared string");
            shared.emplace_back(r.string(n, "shared string"));
            ++sharedCount_;
            // Where the record stands in the file, when its bytes are the file's own.
            sharedStringRecords_.resize(shared.size());
            if (r.mapped()) sharedStringRecords_.back() = r.offsetOf(start);
            if (mapping_)
                mapIn(r, start, r.pos() - start, RangeKind::Record,
                      "strings[" + std::to_string(i) + "]");
        }
    }

    void readInst(ByteReader& r) {
        if (nodesPosted_ && ahead_) {
            // An INST chunk after a PROP chunk: the nodes built ahead lack its instances, and
            // finishTree builds them all. They are not built ahead again: a file of INST and
            // PROP chunks in turn would have them built once per pair.
            ahead_->discard();
            prebuilt_ = {};
            prebuiltDone_ = false;
            buildPosted_ = false;
        }
        const std::uint32_t classId = r.u32("class id");
        // Kept by the asset: the class's table and info name it (a view of the chunk's bytes
        // would not outlive the chunk).
        const std::string_view className = keepText(r.string(r.u32("class name"), "class name"));
        const std::uint8_t objectFormat = r.u8("object format");
        const std::uint32_t count = r.u32("instance count");
        if (mapping_) mapIn(r, 0, r.pos(), RangeKind::Field, "class " + printable(className));
        if (objectFormat > 1)
            r.warn(errc::kBadObjectFormat,
                   "object format " + std::to_string(objectFormat) + " (expected 0 or 1)");
        if (nodeCount_ + count > ctx_.limits().maxInstances)
            r.fail(errc::kLimit, "instance count exceeds maxInstances");
        const std::size_t refsPos = r.pos();
        std::int32_t most = -1;  // the largest referent
        refs_.resize(r.checkCount(count, 4, "referents"));
        std::int32_t* refs = refs_.data();
        readRefs(r, count, "referents", [refs, &most](std::size_t i, std::int32_t ref) {
            refs[i] = ref;
            most = std::max(most, ref);
        });
        mapIn(r, refsPos, r.pos() - refsPos, RangeKind::Array, "referents");
        ByteSpan markers;
        if (objectFormat == 1) {
            const std::size_t at = r.pos();
            markers = r.bytes(r.checkCount(count, 1, "service markers"), "service markers");
            mapIn(r, at, count, RangeKind::Array, "service markers");
        }
        if (findClass(classId))
            r.warn(errc::kDuplicateClassId,
                   "class id " + std::to_string(classId) + " is defined twice");
        ClassInfo& info = classSlot(classId);
        info.name = className;
        info.firstNode = int(nodeCount_);
        info.count = 0;
        info.table = int(asset_.propertyTables.size());
        instChunks_.resize(std::size_t(info.table) + 1);
        instChunks_[std::size_t(info.table)] = {chunk_->offset, chunk_->length(),
                                                asset_.kinds.intern(className), nodeCount_, 0};
        PropertyTable& table = asset_.propertyTables.emplace_back();
        table.name = className;
        // Room for the class's PROP chunks as counted while framing (countProp), or, where they
        // could not be counted (ZSTD chunks), for the file's average, so that the columns (large
        // records) are moved to a bigger array at most once as they come.
        table.columns.reserve(classId < propsPerClass_.size() && propsPerClass_[classId]
                                  ? propsPerClass_[classId]
                                  : columnsGuess());
        // The instances are nodes [first, first + count) (built in finishTree, or ahead); the
        // few that are services are listed.
        const std::size_t first = nodeCount_;
        nodeCount_ += count;
        info.count = count;
        instChunks_[std::size_t(info.table)].count = count;
        for (std::size_t i = 0; i < markers.size(); ++i)
            if (markers[i] != 0) services_.push_back(first + i);
        growRefs(most);
        for (std::uint32_t i = 0; i < count; ++i) {
            pollCancel(i);
            const std::int32_t ref = refs_[i];
            if (!registerRef(ref, int(first + i))) {
                ctx_.warn(chunk_->offset, errc::kDuplicateReferent,
                          "referent " + std::to_string(ref) + " of a " + std::string(className) +
                              " is already used by another instance; the instance stays a root");
            }
        }
    }

    // One PROP chunk becomes one column of its class's table: interleaved numbers and strings
    // keep the chunk's bytes (its own inflated buffer when it has one), other types are read
    // into the column's typed array; the name, type and source range are stored once.
    void readProp(ByteReader& r) {
        const std::uint32_t classId = r.u32("class id");
        // A view of the chunk's bytes, which stay as they are while the chunk is read.
        const std::string_view propName = r.string(r.u32("property name"), "property name");
        const ClassInfo* cls = findClass(classId);
        if (!cls) {
            ctx_.warn(chunk_->offset, errc::kUnknownClassId,
                      "PROP chunk \"" + printable(propName) + "\" refers to class id " +
                          std::to_string(classId) +
                          ", which no INST chunk defined; kept as raw bytes");
            mapIn(r, r.pos(), r.remaining(), RangeKind::Payload, "unknown class values");
            return;
        }
        const ClassInfo& info = *cls;
        // "Class.Property", put together only when the path is read.
        propScope_ = {info.name, propName};
        auto s = ctx_.scopeWith(&appendPropScope, &propScope_);
        mapIn(r, 0, r.pos(), RangeKind::Field, "property header");
        if (r.atEnd()) {
            // rojo-rbx/rbx-dom PR #168: Roblox ignores PROP chunks without a type byte.
            ctx_.warn(chunk_->offset, errc::kMissingType,
                      "PROP chunk " + std::string(info.name) + "." + printable(propName) +
                          " has no type byte; skipped");
            return;
        }
        const std::size_t typePos = r.pos();
        const std::uint8_t type = r.u8("type id");
        mapIn(r, typePos, 1, RangeKind::Field, "type id");
        const char* tname = typeName(type);
        const std::size_t valuesPos = r.pos();
        if (!tname) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "0x%02x", type);
            ctx_.warn(r.offsetOf(typePos), errc::kUnknownType,
                      "property " + std::string(info.name) + "." + printable(propName) +
                          " has unknown type id " + buf + "; its " + std::to_string(r.remaining()) +
                          " bytes are kept raw");
            mapIn(r, valuesPos, r.remaining(), RangeKind::Payload, "unknown values");
            return;
        }
        // Offsets: the values array when the chunk is raw, else the whole chunk. The column is
        // added before its values are read, so a chunk that fails part way keeps the rows read.
        auto& columns = asset_.propertyTables[std::size_t(info.table)].columns;
        PropertyColumn& col = columns.emplace_back();
        // A chunk in kept memory holds the name where it is (giveBackKept keeps it otherwise).
        col.name = inKept_ ? propName : keepText(propName);
        keptName_ = inKept_ ? &col : nullptr;
        col.type = tname;
        col.offset = r.mapped() ? r.offsetOf(valuesPos) : chunk_->offset;
        col.length = r.mapped() ? r.size() - valuesPos : chunk_->length();
        col_ = &col;
        currentTable_ = info.table;
        columnIndex_ = columns.size() - 1;
        firstNode_ = info.firstNode;
        readValues(r, type, info.count);
        col_ = nullptr;
        mapIn(r, valuesPos, r.pos() - valuesPos, RangeKind::Array, "values");
        if (!r.atEnd()) {
            ctx_.warn(r.offset(), errc::kTrailingBytes,
                      std::to_string(r.remaining()) + " bytes after the values are ignored");
            mapIn(r, r.pos(), r.remaining(), RangeKind::Payload, "trailing bytes");
        }
    }

    using Storage = PropertyColumn::Storage;

    // CFrame rotations: an id byte each, then a matrix (or a quaternion) for id 0. Checks and
    // skips n of them: bounds, and the ids, with their warnings. `heads`, when given, gets the
    // offset of each row's rotation in the chunk's data.
    void walkRotations(ByteReader& r, std::size_t n, bool quaternion, std::uint32_t* heads) {
        badRotationIds_ = 0;
        const std::size_t rotationsPos = r.pos();
        const std::size_t matrixSize = quaternion ? 16 : 36;
        const auto& special = specialRotations();
        // Unchecked walk while every record is whole; the reader takes over (and fails as it
        // should) at the first that is not.
        const std::uint8_t* data = r.data().data();
        const std::size_t size = r.size();
        std::size_t at = rotationsPos, i = 0;
        for (; i < n && at < size; ++i) {
            pollCancel(i);
            if (heads) heads[i] = std::uint32_t(at);
            const std::uint8_t id = data[at];
            if (id == 0) {
                if (size - at - 1 < matrixSize) break;
                at += 1 + matrixSize;
                continue;
            }
            if (!special[id] && badRotationIds_++ == 0)
                // RobloxAPI/rbxfile bin/cframe.rbxl stores every id byte 1..255: keep the
                // position, use the identity rotation and say so.
                ctx_.warn(r.offsetOf(at), errc::kBadRotationId,
                          "CFrame rotation id " + std::to_string(id) +
                              " is not one of the 24 special ids; identity rotation used");
            ++at;
        }
        r.skip(at - rotationsPos, "rotation ids");
        if (i < n) {
            if (r.u8("rotation id") == 0)
                r.skip(matrixSize, quaternion ? "quaternion" : "rotation matrix");
            r.fail(errc::kTruncated, "CFrame rotations end early");  // not reached
        }
    }

    // A CFrame column stays as the chunk stores it (a Record of the three position planes, each
    // row headed by its rotation, found through u32s): a value is made when it is read.
    void readCFrameColumn(ByteReader& r, std::size_t n, bool quaternion, PropertyColumn& col) {
        col.storage = Storage::Values;  // no rows until the positions are whole too
        walkRotations(r, n, quaternion, col.numbers.resize<std::uint32_t>(n));
        const std::uint8_t* x = columns(r, n, 4, "position X");
        columns(r, n, 4, "position Y");
        columns(r, n, 4, "position Z");
        keepPlanes(r, col, x, n, 12, quaternion ? &cframeQuatValue : &cframeValue);
        col.headSize = quaternion ? 1 + 16 : 1 + 36;
    }

    // A CFrame from a row's head (rotation id, then its matrix or quaternion) and its 12 bytes
    // of position planes.
    static CFrame cframeFrom(const std::uint8_t* rec, bool quaternion) {
        CFrame cf;
        const std::uint8_t id = rec[0];
        if (id == 0) {
            if (quaternion) {
                float q[4];
                std::memcpy(q, rec + 1, 16);
                cf.rotation = quaternionToMatrix(q[0], q[1], q[2], q[3]);
            } else {
                std::memcpy(cf.rotation.data(), rec + 1, 36);
            }
        } else if (const auto& m = specialRotations()[id]) {
            cf.rotation = *m;
        }
        const std::uint8_t* p = rec + (quaternion ? 17 : 37);
        cf.position = {robloxFloat(loadBe32(p)), robloxFloat(loadBe32(p + 4)),
                       robloxFloat(loadBe32(p + 8))};
        return cf;
    }
    static Value cframeValue(const std::uint8_t* rec) { return cframeFrom(rec, false); }
    static Value cframeQuatValue(const std::uint8_t* rec) { return cframeFrom(rec, true); }

    // Rotations, then the three position arrays, into CFrames (OptionalCoordinateFrame values).
    void readCFrames(ByteReader& r, std::size_t n, std::vector<CFrame>& out) {
        out.clear();
        const std::size_t rotationsPos = r.pos();
        walkRotations(r, n, false, nullptr);
        const std::uint8_t* x = columns(r, n, 4, "position X");
        const std::uint8_t* y = columns(r, n, 4, "position Y");
        const std::uint8_t* z = columns(r, n, 4, "position Z");
        const std::uint8_t* rot = r.data().data() + rotationsPos;
        const auto& special = specialRotations();
        out.reserve(n);
        for (std::size_t i = 0; i < n; ++i) {
            CFrame& cf = out.emplace_back();
            const std::uint8_t id = *rot++;
            if (id == 0) {
                std::memcpy(cf.rotation.data(), rot, 36);
                rot += 36;
            } else if (const auto& m = special[id]) {
                cf.rotation = *m;
            }
            cf.position = {floatAt(x, n, i), floatAt(y, n, i), floatAt(z, n, i)};
        }
    }

    // specialRotation() for every id byte, computed once.
    static const std::array<std::optional<std::array<float, 9>>, 256>& specialRotations() {
        static const auto table = [] {
            std::array<std::optional<std::array<float, 9>>, 256> t;
            for (int id = 0; id < 256; ++id) t[std::size_t(id)] = specialRotation(std::uint8_t(id));
            return t;
        }();
        return table;
    }

    void warnBadRotations() {
        if (badRotationIds_ > 1)
            ctx_.warn(chunk_->offset, errc::kBadRotationId,
                      std::to_string(badRotationIds_) +
                          " CFrames in this chunk have an unknown rotation id");
    }

    // String rows: a u32 length, then the bytes. The rows are kept as stored, length prefixes
    // and all (PropertyColumn::rowPrefix), in the chunk's own buffer when it can be had: reading
    // them is a walk over the lengths. Rows that all take the same bytes (a Tags or a
    // CollisionGroup column, as a rule) need no ends: the column's recordSize places them. From
    // the first row that is cut short (a chunk that ends before its rows), the reader reads on
    // and fails as a row-by-row read does, the rows before it staying in the column. A Name
    // column also names its class's instances (the rows it has), a later Name column replacing
    // the names read before.
    void readStrings(ByteReader& r, std::size_t n, PropertyColumn& col) {
        if (col.name == "Name") {
            nameColumns_.emplace_back(std::size_t(currentTable_), columnIndex_);
        }
        const std::uint8_t* data = r.data().data();
        const std::size_t size = r.size();
        const std::size_t start = r.pos();
        // Each row takes at least its 4-byte length: no more rows than that can be whole.
        const std::size_t most = std::min(n, (size - start) / 4);
        // The length of the row at `at`.
        const auto lengthAt = [&](std::size_t at) {
            std::uint32_t len;
            std::memcpy(&len, data + at, 4);
            return std::size_t(len);
        };
        // Rows that take the bytes of the first: each length compared with its, as far as whole
        // rows of that size reach (65 536 rows between cancel checks).
        std::size_t i = 0;
        const std::size_t length0 = most ? lengthAt(start) : 0;
        const std::size_t stride = 4 + length0;
        const std::size_t fit = std::min(most, (size - start) / stride);
        while (i < fit) {
            pollCancel(i);
            const std::size_t block = std::min(fit, (i | 0xffff) + 1);
            for (const std::uint8_t* p = data + start + i * stride; i < block; ++i, p += stride) {
                std::uint32_t len;
                std::memcpy(&len, p, 4);
                if (len != length0) break;
            }
            if (i < block) break;
        }
        std::size_t at = start + i * stride;
        // The bytes of the row at `at` when it is whole, else 0.
        const auto row = [&]() -> std::size_t {
            if (size - at < 4) return 0;
            const std::size_t len = lengthAt(at);
            return size - at - 4 < len ? 0 : 4 + len;
        };
        if (i < most && row()) {
            // Rows of different sizes: each one's end is kept.
            col.ends.resize(most);
            std::uint64_t* ends = col.ends.data();
            for (std::size_t k = 0; k < i; ++k) ends[k] = start + (k + 1) * stride;
            bool whole = true;
            while (whole && i < most) {
                pollCancel(i);
                const std::size_t block = std::min(most, (i | 0xffff) + 1);
                for (; i < block; ++i) {
                    const std::size_t bytes = row();
                    if (!bytes) {
                        whole = false;
                        break;
                    }
                    at += bytes;
                    ends[i] = at;
                }
            }
            col.ends.resize(i);
        } else if (i) {
            col.recordSize = std::uint32_t(stride);
        }
        col.first = start;
        col.rowPrefix = 4;
        keepChunk(r, col, at);
        r.skip(at - r.pos(), "string");
        if (i < n) {
            // Fails: the row is cut short.
            const std::uint32_t len = r.u32("string");
            r.bytes(len, "string");
        }
    }

    // Appends row values of Tuple storage.
    void pushTuple(std::initializer_list<double> v) {
        for (const double d : v) col_->numbers.push(d);
        col_->ends.push_back(col_->numbers.size<double>());
    }

    void readValues(ByteReader& r, std::uint8_t type, std::size_t n) {
        PropertyColumn& col = *col_;
        switch (type) {
            case kString:
                col.storage = Storage::String;
                readStrings(r, n, col);
                break;
            case kBytecode:
                col.storage = Storage::Binary;
                col.ends.reserve(n);
                for (std::size_t i = 0; i < n; ++i) {
                    const std::uint32_t len = r.u32("bytecode length");
                    const ByteSpan b = r.bytes(len, "bytecode");
                    col.bytes.append(b.data(), b.data() + b.size());
                    col.ends.push_back(col.bytes.size());
                }
                break;
            case kBool: {
                col.storage = Storage::Bool;
                const ByteSpan b = r.bytes(r.checkCount(n, 1, "bools"), "bools");
                // Into a block the asset keeps (a place has hundreds of one-row Bool chunks),
                // viewed by the column; through a local pointer, so that the loop vectorises.
                // A chunk in kept memory is rewritten in place (its bytes are this decoder's).
                std::uint8_t* out = inKept_ ? const_cast<std::uint8_t*>(b.data()) : keptRoom(n);
                for (std::size_t i = 0; i < n; ++i) out[i] = b[i] != 0;
                col.bytes.view(out, n);
                chunkKept_ = chunkKept_ || inKept_;
                break;
            }
            case kInt32:
                keepPlanes(r, col, columns(r, n, 4, "int32 values"), n, 4, &int32Value);
                break;
            case kEnum:
            case kBrickColor:
                keepPlanes(r, col, columns(r, n, 4, "values"), n, 4, &uint32Value);
                break;
            case kFloat32:
                keepPlanes(r, col, columns(r, n, 4, "float values"), n, 4, &floatValue);
                break;
            case kFloat64: {
                col.storage = Storage::Double;
                const std::uint8_t* p =
                    r.bytes(r.checkCount(n, 8, "doubles") * 8, "doubles").data();
                double* d = col.numbers.resize<double>(n);
                if (n) std::memcpy(d, p, n * 8);
                break;
            }
            case kUDim: {
                const std::uint8_t* planes = columns(r, n, 4, "scale");
                columns(r, n, 4, "offset");
                keepPlanes(r, col, planes, n, 8, &udimValue);
                break;
            }
            case kUDim2: {
                const std::uint8_t* planes = columns(r, n, 4, "X scale");
                columns(r, n, 4, "Y scale");
                columns(r, n, 4, "X offset");
                columns(r, n, 4, "Y offset");
                keepPlanes(r, col, planes, n, 16, &udim2Value);
                break;
            }
            case kRay: {
                col.storage = Storage::Tuple;
                const std::uint8_t* p = r.bytes(r.checkCount(n, 24, "rays") * 24, "rays").data();
                col.numbers.reserve<double>(6 * n);
                col.ends.reserve(n);
                for (std::size_t i = 0; i < n; ++i) {
                    float f[6];
                    std::memcpy(f, p + 24 * i, 24);
                    pushTuple({f[0], f[1], f[2], f[3], f[4], f[5]});
                }
                break;
            }
            case kFaces:
            case kAxes: {
                col.storage = Storage::UInt32;
                const ByteSpan b = r.bytes(r.checkCount(n, 1, "bit fields"), "bit fields");
                std::copy(b.begin(), b.end(), col.numbers.resize<std::uint32_t>(b.size()));
                break;
            }
            case kColor3:
            case kVector3: {
                const std::uint8_t* x = columns(r, n, 4, "X");
                columns(r, n, 4, "Y");
                columns(r, n, 4, "Z");
                keepPlanes(r, col, x, n, 12, &vec3Value);
                break;
            }
            case kVector2: {
                const std::uint8_t* x = columns(r, n, 4, "X");
                columns(r, n, 4, "Y");
                keepPlanes(r, col, x, n, 8, &vec2Value);
                break;
            }
            case kVector2int16: {
                col.storage = Storage::Vec2;
                const std::uint8_t* p =
                    r.bytes(r.checkCount(n, 4, "Vector2int16") * 4, "Vector2int16").data();
                Vec2* out = col.numbers.resize<Vec2>(n);
                for (std::size_t i = 0; i < n; ++i) {
                    std::int16_t v[2];
                    std::memcpy(v, p + 4 * i, 4);
                    out[i] = {float(v[0]), float(v[1])};
                }
                break;
            }
            case kVector3int16: {
                col.storage = Storage::Vec3;
                const std::uint8_t* p =
                    r.bytes(r.checkCount(n, 6, "Vector3int16") * 6, "Vector3int16").data();
                Vec3* out = col.numbers.resize<Vec3>(n);
                for (std::size_t i = 0; i < n; ++i) {
                    std::int16_t v[3];
                    std::memcpy(v, p + 6 * i, 6);
                    out[i] = {float(v[0]), float(v[1]), float(v[2])};
                }
                break;
            }
            case kCFrame:
            case kCFrameQuat: {
                r.checkCount(n, 13, "CFrames");
                readCFrameColumn(r, n, type == kCFrameQuat, col);
                warnBadRotations();
                break;
            }
            case kOptionalCFrame: {
                col.storage = Storage::Values;
                r.checkCount(n, 14, "optional CFrames");
                const std::uint8_t inner = r.u8("CFrame type marker");
                if (inner != kCFrame)
                    r.failAt(r.pos() - 1, errc::kBadOptionalCframe,
                             "OptionalCFrame values should start with type 0x10, found " +
                                 std::to_string(inner));
                readCFrames(r, n, cframes_);
                warnBadRotations();
                const std::uint8_t boolMarker = r.u8("Bool type marker");
                if (boolMarker != kBool)
                    r.failAt(r.pos() - 1, errc::kBadOptionalCframe,
                             "OptionalCFrame presence flags should start with type 0x02, found " +
                                 std::to_string(boolMarker));
                const ByteSpan has =
                    r.bytes(r.checkCount(n, 1, "presence flags"), "presence flags");
                col.values.reserve(n);
                for (std::size_t i = 0; i < n; ++i)
                    col.values.push_back(has[i] ? Value(cframes_[i]) : Value());
                break;
            }
            case kRef: {
                col.storage = Storage::Ref;
                std::int32_t* refs =
                    col.numbers.resize<std::int32_t>(r.checkCount(n, 4, "referents"));
                readRefs(r, n, refs, "referents");
                for (std::size_t i = 0; i < n; ++i) refs[i] = resolveRef(i, refs[i]);
                break;
            }
            case kNumberSequence:
            case kColorSequence: {
                col.storage = Storage::Tuple;
                col.ends.reserve(n);
                const std::size_t per = type == kNumberSequence ? 3 : 5;
                for (std::size_t i = 0; i < n; ++i) {
                    const std::uint32_t count = r.u32("keypoint count");
                    const std::size_t k = r.checkCount(count, per * 4, "keypoints");
                    const std::uint8_t* p = r.bytes(k * per * 4, "keypoints").data();
                    for (std::size_t j = 0; j < k * per; ++j) {
                        float f;
                        std::memcpy(&f, p + 4 * j, 4);
                        col.numbers.push(double(f));
                    }
                    col.ends.push_back(col.numbers.size<double>());
                }
                break;
            }
            case kNumberRange: {
                col.storage = Storage::Tuple;
                const std::uint8_t* p = r.bytes(r.checkCount(n, 8, "ranges") * 8, "ranges").data();
                col.numbers.reserve<double>(2 * n);
                col.ends.reserve(n);
                for (std::size_t i = 0; i < n; ++i) {
                    float f[2];
                    std::memcpy(f, p + 8 * i, 8);
                    pushTuple({f[0], f[1]});
                }
                break;
            }
            case kRect: {
                const std::uint8_t* planes = columns(r, n, 4, "min X");
                columns(r, n, 4, "min Y");
                columns(r, n, 4, "max X");
                columns(r, n, 4, "max Y");
                keepPlanes(r, col, planes, n, 16, &rectValue);
                break;
            }
            case kPhysicalProperties: {
                // A flags byte a row, then 5 or 6 floats when the row has custom values. Rows
                // are walked in place while they are whole; the reader reads the first that is
                // not, and fails there as a row-by-row read does.
                col.storage = Storage::Tuple;
                col.ends.resize(n);
                const std::uint8_t* data = r.data().data();
                const std::size_t size = r.size();
                std::size_t at = r.pos(), i = 0;
                for (; i < n && at < size; ++i) {
                    const std::uint8_t flags = data[at];
                    const std::size_t k = (flags & 1) ? ((flags & 2) ? 6 : 5) : 0;
                    if (size - at - 1 < 4 * k) break;
                    ++at;
                    if (k) {
                        const std::size_t first = col.numbers.size<double>();
                        double* d = col.numbers.resize<double>(first + 6) + first;
                        d[5] = 1.0;  // AcousticAbsorption defaults to 1
                        for (std::size_t j = 0; j < k; ++j, at += 4) {
                            float f;
                            std::memcpy(&f, data + at, 4);
                            d[j] = f;
                        }
                    }
                    col.ends[i] = col.numbers.size<double>();
                }
                col.ends.resize(i);
                r.skip(at - r.pos(), "physical properties");
                if (i < n && r.u8("physical properties flags") & 1)
                    r.bytes(4 * ((data[at] & 2) ? 6 : 5), "custom physical properties");
                break;
            }
            case kColor3uint8: {
                col.storage = Storage::Vec3;
                keepPlanes(r, col, columns(r, n, 3, "Color3uint8"), n, 3, &color3uint8Value);
                break;
            }
            case kInt64:
            case kSecurityCapabilities:
                // SecurityCapabilities are stored like Int64 (interleaved, zigzag): rbx-test-files
                // number-values-with-security-capabilities holds 2882400000 as 2 × that.
                keepPlanes(r, col,
                           columns(r, n, 8, type == kInt64 ? "int64 values" : "capabilities"), n, 8,
                           &int64Value);
                break;
            case kSharedString: {
                // Indices into Asset::sharedStrings (the SSTR strings, stored once), not copies:
                // a place's thousands of values share a few large strings.
                col.storage = Storage::Shared;
                readU32s(r, n, col.numbers, "shared string indices");
                const std::uint32_t base =
                    std::uint32_t(asset_.sharedStrings.size() - sharedCount_);
                std::uint32_t* idx = col.u32s().data();
                for (std::size_t i = 0; i < n; ++i) {
                    if (idx[i] < sharedCount_) {
                        idx[i] += base;
                    } else {
                        ctx_.warn(chunk_->offset, errc::kBadSharedString,
                                  "shared string index " + std::to_string(idx[i]) +
                                      " >= " + std::to_string(sharedCount_) + " strings in SSTR");
                        idx[i] = PropertyColumn::kNoSharedString;
                    }
                }
                break;
            }
            case kUniqueId: {
                // Kept as the stored byte planes (index, time, random, interleaved); the text
                // form is made when a value is read.
                keepPlanes(r, col, columns(r, n, 16, "unique ids"), n, 16, &uniqueIdValue);
                break;
            }
            case kFont:
                col.storage = Storage::Values;
                col.values.reserve(n);
                for (std::size_t i = 0; i < n; ++i) {
                    std::string family = readString(r, "font family");
                    const std::uint16_t weight = r.u16("font weight");
                    const std::uint8_t style = r.u8("font style");
                    std::string cached = readString(r, "cached face id");
                    col.values.emplace_back(
                        formatFont(family, weight, fontStyleName(style), cached));
                }
                break;
            case kContent: {
                // Source types are zigzag int32 like Int32 values (rbx-test-files content-mixed
                // stores Uri = 1 as 02), not plain Enum values as the document's table suggests.
                col.storage = Storage::Values;
                readU32s(r, n, u32_, "source types");
                std::vector<std::int32_t> sourceTypes(n);
                for (std::size_t i = 0; i < n; ++i) sourceTypes[i] = unzigzag32(u32_[i]);
                const std::uint32_t uriCount = r.u32("uri count");
                r.checkCount(uriCount, 4, "uris");
                std::vector<std::string> uris(uriCount);
                for (auto& u : uris) u = readString(r, "uri");
                const std::uint32_t objectCount = r.u32("object count");
                std::vector<std::int32_t> objects;
                readRefs(r, r.checkCount(objectCount, 4, "object referents"), objects,
                         "object referents");
                const std::uint32_t externalCount = r.u32("external object count");
                std::vector<std::int32_t> external;
                readRefs(r, r.checkCount(externalCount, 4, "external referents"), external,
                         "external referents");
                std::size_t nextUri = 0, nextObject = 0;
                col.values.reserve(n);
                for (std::size_t i = 0; i < n; ++i) {
                    const std::int32_t t = sourceTypes[i];
                    if (t == 1 && nextUri < uris.size()) {
                        col.values.emplace_back(std::move(uris[nextUri++]));
                    } else if (t == 2 && nextObject < objects.size()) {
                        col.values.emplace_back(NodeRef{resolveRef(i, objects[nextObject++])});
                    } else {
                        if (t != 0)
                            ctx_.warn(chunk_->offset, errc::kBadContent,
                                      "Content source type " + std::to_string(t) +
                                          " without a matching value; read as None");
                        col.values.emplace_back(std::string());
                    }
                }
                break;
            }
            default:
                break;  // unreachable: typeName() rejected the id
        }
    }

    // A column kept as the file's byte planes: `width` planes of n bytes, byte b of row r at
    // planes[b * n + r], read by `r`; `record` makes a row's value when it is read.
    void keepPlanes(const ByteReader& r, PropertyColumn& col, const std::uint8_t* planes,
                    std::size_t n, std::uint32_t width, Value (*record)(const std::uint8_t*)) {
        col.storage = Storage::Record;
        col.recordSize = width;
        col.record = record;
        col.first = std::size_t(planes - r.data().data());
        keepChunk(r, col, std::size_t(col.first) + n * width);
    }
    static Value int32Value(const std::uint8_t* rec) {
        return std::int64_t(unzigzag32(loadBe32(rec)));
    }
    static Value uint32Value(const std::uint8_t* rec) { return std::int64_t(loadBe32(rec)); }
    static Value floatValue(const std::uint8_t* rec) { return double(robloxFloat(loadBe32(rec))); }
    static Value vec3Value(const std::uint8_t* rec) {
        return Vec3{robloxFloat(loadBe32(rec)), robloxFloat(loadBe32(rec + 4)),
                    robloxFloat(loadBe32(rec + 8))};
    }
    static Value color3uint8Value(const std::uint8_t* rec) {
        return Vec3{rec[0] / 255.0f, rec[1] / 255.0f, rec[2] / 255.0f};
    }
    static Value int64Value(const std::uint8_t* rec) { return unzigzag64(loadBe64(rec)); }
    static Value vec2Value(const std::uint8_t* rec) {
        return Vec2{robloxFloat(loadBe32(rec)), robloxFloat(loadBe32(rec + 4))};
    }
    static Value udimValue(const std::uint8_t* rec) {
        return std::vector<double>{robloxFloat(loadBe32(rec)),
                                   double(unzigzag32(loadBe32(rec + 4)))};
    }
    static Value udim2Value(const std::uint8_t* rec) {
        return std::vector<double>{
            robloxFloat(loadBe32(rec)), double(unzigzag32(loadBe32(rec + 8))),
            robloxFloat(loadBe32(rec + 4)), double(unzigzag32(loadBe32(rec + 12)))};
    }
    static Value rectValue(const std::uint8_t* rec) {
        return std::vector<double>{robloxFloat(loadBe32(rec)), robloxFloat(loadBe32(rec + 4)),
                                   robloxFloat(loadBe32(rec + 8)), robloxFloat(loadBe32(rec + 12))};
    }

    static Value uniqueIdValue(const std::uint8_t* rec) {
        // Binary stores the random part rotated left by one bit (rbx-dom rbx_binary:
        // read_be_i64().rotate_right(1)).
        const std::uint64_t random = std::rotr(loadBe64(rec + 8), 1);
        return formatUniqueId(loadBe32(rec), loadBe32(rec + 4), std::int64_t(random));
    }

    // The node a referent of row `row` of the current column names (-1 for nil); a referent
    // not known yet is looked up again when the tree is finished.
    int resolveRef(std::size_t row, std::int32_t ref) {
        if (ref == -1) return -1;
        const int target = nodeForRef(ref);
        if (target < 0)
            pendingRefs_.push_back({firstNode_ + int(row), currentTable_, columnIndex_, row, ref});
        return target;
    }

    void readPrnt(ByteReader& r) {
        const std::uint8_t version = r.u8("version");
        if (version != 0) {
            ctx_.warn(chunk_->offset, errc::kUnsupportedChunkVersion,
                      "PRNT chunk version " + std::to_string(version) + " is not known; skipped");
            return;
        }
        const std::uint32_t count = r.u32("instance count");
        r.checkCount(count, 8, "parent links");
        // Both arrays are there (checked above): they go straight into the links.
        const std::size_t childPos = r.pos();
        const std::size_t first = links_.size();
        links_.resize(first + count);
        auto* links = links_.data() + first;
        readRefs(r, count, "child referents",
                 [links](std::size_t i, std::int32_t ref) { links[i].first = ref; });
        const std::size_t parentPos = r.pos();
        readRefs(r, count, "parent referents",
                 [links](std::size_t i, std::int32_t ref) { links[i].second = ref; });
        mapIn(r, childPos, parentPos - childPos, RangeKind::Array, "child referents");
        mapIn(r, parentPos, r.pos() - parentPos, RangeKind::Array, "parent referents");
        prntOffset_ = chunk_->offset;
    }

    void readSign(ByteReader& r) {
        // Signatures are kept and shown, never interpreted: count, then {type i32, key id i64,
        // length u32, bytes}. An inconsistent layout leaves the rest mapped as raw bytes.
        if (r.remaining() < 4) return;
        const std::uint32_t count = r.u32("signature count");
        for (std::uint32_t i = 0; i < count; ++i) {
            if (r.remaining() < 16) break;
            const std::size_t start = r.pos();
            r.skip(12, "signature type and key id");
            const std::uint32_t len = r.u32("signature length");
            if (len > r.remaining()) {
                r.seek(start);
                break;
            }
            r.skip(len, "signature");
            if (mapping_)
                mapIn(r, start, r.pos() - start, RangeKind::Record,
                      "signatures[" + std::to_string(i) + "]");
        }
        if (!r.atEnd()) mapIn(r, r.pos(), r.remaining(), RangeKind::Payload, "raw signature data");
        ctx_.info(chunk_->offset, errc::kSigned,
                  "the file carries a SIGN chunk (kept, not verified)");
    }

    void readEnd(ByteReader& r) {
        if (chunk_->compressed)
            ctx_.warn(chunk_->offset, errc::kCompressedEnd,
                      "the END chunk should not be compressed");
        const std::string_view body(reinterpret_cast<const char*>(r.data().data()), r.size());
        if (body != "</roblox>")
            ctx_.warn(chunk_->offset, errc::kBadEnd, "END chunk does not hold \"</roblox>\"");
        mapIn(r, 0, r.size(), RangeKind::Field, "end marker");
    }

    // ---------------------------------------------------------------------------------------
    // Tree: parents from PRNT (first link per child wins), then cycles broken, children in PRNT
    // order. Never loops: every walk marks what it visited.

    // Appends the nodes of the INST chunks, with what each takes from its chunk: class, table
    // row, the chunk's range, service flag. Returns false when `stop` said to leave (polled
    // between blocks of nodes).
    template <typename Stop>
    bool buildNodes(std::vector<Node>& nodes, Stop&& stop) const {
        nodes.reserve(nodeCount_);
        for (std::size_t t = 0; t < instChunks_.size(); ++t) {
            const InstChunk& chunk = instChunks_[t];
            for (std::size_t row = 0; row < chunk.count; ++row) {
                if ((row & 4095) == 0 && stop()) return false;
                Node& node = nodes.emplace_back();
                node.offset = chunk.offset;
                node.length = chunk.length;
                node.table = int(t);
                node.row = std::uint32_t(row);
                node.kindId = chunk.kind;
            }
        }
        for (std::size_t s : services_) nodes[s].service = true;
        return true;
    }

    // Once the INST chunks are read (at the first PROP or PRNT chunk), the worker that inflates
    // the chunks, when it is done with them, builds the node array (all but names and links,
    // which later chunks give) while the PROP chunks are decoded here. It reads what the INST
    // chunks wrote, and what this thread leaves alone until finishTree: the instances' tables,
    // rows and service flags, and the INST chunks' ranges and classes.
    void postNodes() {
        nodesPosted_ = true;
        if (!ahead_ || !ahead_->threaded()) return;
        buildPosted_ = true;
        const InflateAhead* ahead = ahead_;
        ahead_->post([this, ahead] {
            try {
                std::vector<Node> nodes;
                if (!buildNodes(nodes, [&] { return ahead->stopping() || ctx_.cancelRequested(); }))
                    return;
                prebuilt_ = std::move(nodes);
                prebuiltDone_ = true;
            } catch (...) {
                // No memory: finishTree builds them, or fails as it does.
            }
        });
    }

    // Names the nodes of `nodes`, table by table: row r of a table is named by the last of the
    // table's Name columns that has the row, and a row that none has by its class, whose bytes are
    // stored once for all of them (a crafted file can give millions of instances a long class
    // name). A column's rows go into asset_.nodeText as the column holds them, in one copy, and
    // each node's name is found there (the bytes between two names are the next one's length
    // prefix). Returns false when `stop` said to leave (polled between blocks of rows).
    template <typename Stop>
    bool nameNodes(std::vector<Node>& nodes, Stop&& stop) {
        std::string& text = asset_.nodeText;
        std::size_t bytes = 0;  // what the names take at most: their columns' bytes
        for (const auto& [t, c] : nameColumns_) {
            const PropertyColumn& column = asset_.propertyTables[t].columns[c];
            bytes += column.bytes.size() - std::min<std::size_t>(column.first, column.bytes.size());
        }
        // By table, each table's in the order read (a file's PROP chunks come class by class:
        // already so, as a rule).
        std::vector<std::pair<std::size_t, std::size_t>> sorted;
        const auto byTable = [](const auto& a, const auto& b) { return a.first < b.first; };
        const bool inOrder = std::is_sorted(nameColumns_.begin(), nameColumns_.end(), byTable);
        if (!inOrder) {
            // (On the heap: this may run on the worker, which takes nothing of scratch_.)
            sorted.assign(nameColumns_.begin(), nameColumns_.end());
            std::stable_sort(sorted.begin(), sorted.end(), byTable);
        }
        const std::span<const std::pair<std::size_t, std::size_t>> columnsByTable =
            inOrder ? std::span<const std::pair<std::size_t, std::size_t>>(nameColumns_)
                    : std::span<const std::pair<std::size_t, std::size_t>>(sorted);
        std::size_t nextColumn = 0;  // columnsByTable's first entry of table t or later
        text.reserve(text.size() + bytes);
        constexpr std::size_t kBlock = 1024;
        // Left unset (storage in which the views come to be as texts() writes them): a
        // `std::string_view views[kBlock]` zeroes 16 KB on every decode, which was half of
        // the instructions of a small model's whole decode (callgrind, tags/binary.rbxm).
        alignas(std::string_view) unsigned char viewStorage[kBlock * sizeof(std::string_view)];
        auto* const views = std::launder(reinterpret_cast<std::string_view*>(viewStorage));
        for (std::size_t t = 0; t < instChunks_.size(); ++t) {
            const InstChunk& chunk = instChunks_[t];
            Node* rows = nodes.data() + chunk.firstNode;
            std::size_t named = 0;               // rows [0, named) have their name
            std::size_t endColumn = nextColumn;  // [nextColumn, endColumn): table t's
            while (endColumn < columnsByTable.size() && columnsByTable[endColumn].first == t)
                ++endColumn;
            {
                for (std::size_t e = endColumn; e-- > nextColumn;) {
                    const PropertyColumn& column =
                        asset_.propertyTables[t].columns[columnsByTable[e].second];
                    const std::size_t to = std::min(column.rows(), chunk.count);
                    while (named < to) {
                        if (stop()) return false;
                        const std::size_t got =
                            column.texts(named, std::min(to, named + kBlock), views);
                        if (!got) break;
                        // The bytes that hold these names (in order: from the first to the end
                        // of the last). Within UINT32_MAX: they are bytes of inflated chunks, and
                        // those add up to the decompression budget (1 GiB at most).
                        const char* from = views[0].data();
                        const char* end = from;
                        for (std::size_t k = 0; k < got; ++k) {
                            from = std::min(from, views[k].data());
                            end = std::max(end, views[k].data() + views[k].size());
                        }
                        const std::size_t base = text.size();
                        text.append(from, end);
                        for (std::size_t k = 0; k < got; ++k) {
                            Node& node = rows[named + k];
                            node.nameAt = std::uint32_t(base + std::size_t(views[k].data() - from));
                            node.nameSize = std::uint32_t(views[k].size());
                        }
                        named += got;
                    }
                }
            }
            nextColumn = endColumn;
            if (named < chunk.count) {
                const std::string_view cls = asset_.kinds[chunk.kind];
                const auto at = std::uint32_t(text.size());
                text.append(cls);
                for (std::size_t r = named; r < chunk.count; ++r) {
                    rows[r].nameAt = at;
                    rows[r].nameSize = std::uint32_t(cls.size());
                }
            }
        }
        return true;
    }

    // The node array built ahead is named on the worker while this thread links the tree. It
    // reads the Name columns, which no chunk changes any more, and writes the names into
    // asset_.nodeText, which this thread leaves alone until the worker is done (finish()).
    void postNames() {
        if (!buildPosted_) return;
        const InflateAhead* ahead = ahead_;
        ahead_->post([this, ahead] {
            if (!prebuiltDone_) return;
            try {
                namedAhead_ = nameNodes(
                    prebuilt_, [&] { return ahead->stopping() || ctx_.cancelRequested(); });
            } catch (...) {
                // No memory: finishTree names them again, or fails as it does.
                asset_.nodeText.clear();
            }
        });
    }

    void resolvePendingRefs() {
        for (const auto& p : pendingRefs_) {
            const int target = nodeForRef(p.referent);
            PropertyColumn& col = asset_.propertyTables[std::size_t(p.table)].columns[p.column];
            if (col.storage == PropertyColumn::Storage::Ref && p.row < col.refs().size())
                col.refs()[p.row] = target;
            else if (p.row < col.values.size())
                col.values[p.row] = NodeRef{target};
            if (target < 0)
                ctx_.warn(col.offset, errc::kDanglingReferent,
                          std::string(asset_.propertyTables[std::size_t(p.table)].name) + "." +
                              std::string(col.name) + " refers to referent " +
                              std::to_string(p.referent) + ", which no instance has; read as nil");
        }
        pendingRefs_.clear();
    }

    void finishTree() {
        chunk_ = nullptr;     // a chunk that failed left it set; the chunks are gone by now
        inflated_.release();  // the nodes to come are the decode's peak of memory
        if (ahead_) postNames();
        resolvePendingRefs();
        const std::size_t n = nodeCount_;
        std::pmr::vector<int> parent(n, -1, &scratch_);
        std::pmr::vector<std::uint8_t> linked(n, 0,
                                              &scratch_);  // 1: the child's first link was read
        // Children lists, flat: node p's children will be kids[firstKid[p] .. firstKid[p + 1]),
        // in PRNT order (first link per child only). Each parent's count goes to
        // firstKid[p + 1] as its children are found.
        std::pmr::vector<std::uint32_t> firstKid(n + 1, 0, &scratch_);
        std::size_t missingParents = 0, unknownChildren = 0, duplicates = 0;
        std::size_t polled = 0;
        for (auto& [childRef, parentRef] : links_) {
            pollCancel(++polled);
            const int c = nodeForRef(childRef);
            childRef = c;  // the child's node from here on
            if (c < 0) {
                ++unknownChildren;
                continue;
            }
            if (linked[std::size_t(c)]) {
                ++duplicates;
                continue;
            }
            linked[std::size_t(c)] = 1;
            if (parentRef == -1) continue;
            const int p = nodeForRef(parentRef);
            if (p < 0) {
                ++missingParents;
                continue;
            }
            parent[std::size_t(c)] = p;
            ++firstKid[std::size_t(p) + 1];
        }
        if (unknownChildren)
            ctx_.warn(prntOffset_, errc::kUnknownReferent,
                      std::to_string(unknownChildren) +
                          " PRNT links name a child referent no INST chunk defined");
        if (duplicates)
            ctx_.warn(prntOffset_, errc::kDuplicateParent,
                      std::to_string(duplicates) +
                          " instances are given a parent twice; the first link is kept");
        if (missingParents)
            ctx_.warn(
                prntOffset_, errc::kMissingParent,
                std::to_string(missingParents) +
                    " instances have a parent referent no INST chunk defined; shown as roots");
        // Break cycles, and measure depths on the same walks (roots are at depth 1) to know
        // whether the tree is within Limits::maxDepth. A node whose parent's depth is known
        // (the common case: parents come first) needs no walk.
        constexpr std::uint32_t kUnknown = 0xffffffffu, kOnWalk = 0xfffffffeu;
        const std::uint32_t maxDepth = ctx_.limits().maxDepth;
        std::pmr::vector<std::uint32_t> depth(n, kUnknown, &scratch_);
        std::pmr::vector<int> path(&scratch_);
        std::size_t cycles = 0;
        bool tooDeep = false;
        for (std::size_t start = 0; start < n; ++start) {
            if (depth[start] != kUnknown) continue;
            if (const int p = parent[start]; p < 0) {
                depth[start] = 1;
                continue;
            } else if (depth[std::size_t(p)] < kOnWalk) {
                const std::uint32_t d = std::min(depth[std::size_t(p)] + 1, kOnWalk - 1);
                tooDeep |= d > maxDepth;
                depth[start] = d;
                continue;
            }
            int v = int(start);
            path.clear();
            while (v >= 0 && depth[std::size_t(v)] == kUnknown) {
                depth[std::size_t(v)] = kOnWalk;
                path.push_back(v);
                v = parent[std::size_t(v)];
            }
            std::uint32_t d = 0;  // depth of the node above the walk's top
            if (v >= 0 && depth[std::size_t(v)] == kOnWalk) {
                // v is on the current walk: the link from the last node of the path closes a cycle.
                ++cycles;
                int& cut = parent[std::size_t(path.back())];
                --firstKid[std::size_t(cut) + 1];
                cut = -1;
            } else if (v >= 0) {
                d = depth[std::size_t(v)];
            }
            for (auto it = path.rbegin(); it != path.rend(); ++it) {
                d = std::min(d + 1, kOnWalk - 1);
                tooDeep |= d > maxDepth;
                depth[std::size_t(*it)] = d;
            }
        }
        depth = {};
        if (cycles)
            ctx_.warn(prntOffset_, errc::kReferentCycle,
                      std::to_string(cycles) +
                          " parent cycles were broken; their members are shown as roots");
        // The counts' sums are where each list begins, and each list's next free place while it
        // is filled. Nodes with children get a list each, in node order; those of the first half
        // are counted for the two threads that fill them.
        const std::size_t half = n / 2;
        std::size_t lists = 0, listsBeforeHalf = 0;
        for (std::size_t p = 0; p < n; ++p) {
            if (firstKid[p + 1]) {
                ++lists;
                listsBeforeHalf += p < half;
            }
            firstKid[p + 1] += firstKid[p];
        }
        std::pmr::vector<int> kids(firstKid[n], &scratch_);
        for (const auto& [c, parentRef] : links_) {
            pollCancel(++polled);
            if (c < 0 || linked[std::size_t(c)] != 1) continue;
            linked[std::size_t(c)] = 2;  // first link only
            const int p = parent[std::size_t(c)];
            if (p >= 0) kids[firstKid[std::size_t(p)]++] = c;
        }
        // Each list's next free place is the next list's beginning: back by one list.
        if (n) std::memmove(firstKid.data() + 1, firstKid.data(), n * sizeof(std::uint32_t));
        firstKid[0] = 0;
        links_.clear();
        // The nodes: built and named ahead, or built and named here.
        if (ahead_ && nodesPosted_) ahead_->finish();
        const bool built = prebuiltDone_ && prebuilt_.size() == n && asset_.nodes.empty();
        bool named = built && namedAhead_;
        if (built) {
            asset_.nodes = std::move(prebuilt_);
        } else {
            buildNodes(asset_.nodes, [&] {
                ctx_.checkCancel(prntOffset_);
                return false;
            });
        }
        prebuilt_ = {};
        if (!named) {
            asset_.nodeText.clear();
            nameNodes(asset_.nodes, [&] {
                ctx_.checkCancel(prntOffset_);
                return false;
            });
        }
        // Parents and children: each half of the nodes on one thread when the worker is there.
        // The lists are made first, then filled.
        const bool split = built && ahead_ && ahead_->threaded();
        asset_.childLists.resize(asset_.childLists.size() + lists);
        const std::size_t firstList = asset_.childLists.size() - lists;
        const auto link = [&](std::size_t from, std::size_t to, std::size_t list, auto&& poll) {
            for (std::size_t i = from; i < to; ++i) {
                if ((i & 4095) == 0 && poll()) return;
                Node& node = asset_.nodes[i];
                node.parent = parent[i];
                if (firstKid[i + 1] == firstKid[i]) continue;
                node.childList = int(list);
                asset_.childLists[list++].assign(kids.begin() + firstKid[i],
                                                 kids.begin() + firstKid[i + 1]);
            }
        };
        if (split) {
            std::exception_ptr failed;
            bool cut = false;  // the worker left its half early: the user cancelled
            struct Join {      // the worker is done with this frame before it goes, failing or not
                InflateAhead& ahead;
                ~Join() { ahead.finish(); }
            } join{*ahead_};
            ahead_->post([&] {
                try {
                    link(half, n, firstList + listsBeforeHalf,
                         [&] { return cut = ctx_.cancelRequested(); });
                } catch (...) {
                    failed = std::current_exception();
                }
            });
            link(0, half, firstList, [&] {
                ctx_.checkCancel(prntOffset_);
                return false;
            });
            ahead_->finish();
            if (failed) std::rethrow_exception(failed);
            if (cut) ctx_.checkCancel(prntOffset_);
        } else {
            link(0, n, firstList, [&] {
                ctx_.checkCancel(prntOffset_);
                return false;
            });
        }
        // Acyclic, within maxDepth, and each child listed once by its parent: the registry's
        // generic tree check would find nothing to repair. A tree too deep is left to it (it
        // cuts at the cap and names the first node cut).
        if (!tooDeep) ctx_.setTreeChecked();
    }

    DecodeContext& ctx_;
    Asset& asset_;
    // DecodeOptions::byteMap: ranges are mapped (and their names made) only when it is set.
    const bool mapping_;
    // Before every array that takes its memory (they are freed before it goes).
    ScratchMemory scratch_;
    std::int32_t classCount_ = 0, instanceCount_ = 0;
    // readProp's scope segment: "Class.Property" (the property name printable).
    struct PropScope {
        std::string_view className;
        std::string_view propName;
    } propScope_;
    static void appendPropScope(std::string& out, const void* arg) {
        const auto& p = *static_cast<const PropScope*>(arg);
        out.append(p.className).push_back('.');
        appendPrintable(out, p.propName);
    }
    std::vector<std::optional<std::uint64_t>> sharedStringRecords_;
    std::pmr::vector<std::uint32_t> propsPerClass_{
        &scratch_};               // PROP chunks framed, by class id (countProp)
    std::size_t propChunks_ = 0;  // PROP chunks framed (sizes each table's first column array)

    std::size_t columnsGuess() const {
        const std::size_t classes = std::size_t(std::max(classCount_, 1));
        // The file's average, not more: a reserved array is touched page by page as the class's
        // columns fill it, so room that stays unused still costs page faults (all-instances-415:
        // 880 -> 805 for the process, for 0.6% more instructions in the regrowth).
        return std::clamp<std::size_t>(propChunks_ / classes + 1, 4, 64);
    }
    // Classes by id: ids below classDense_'s size (the header's class count, at most the chunk
    // count) in the array, where table -1 marks an id no INST chunk defined; others in the map.
    std::pmr::vector<ClassInfo> classDense_{&scratch_};
    std::unordered_map<std::uint32_t, ClassInfo> classes_;
    ClassInfo* findClass(std::uint32_t id) {
        if (id < classDense_.size()) return classDense_[id].table >= 0 ? &classDense_[id] : nullptr;
        const auto it = classes_.find(id);
        return it == classes_.end() ? nullptr : &it->second;
    }
    // The id's entry, made when new (the array is sized once, before any chunk is read).
    ClassInfo& classSlot(std::uint32_t id) {
        return id < classDense_.size() ? classDense_[id] : classes_[id];
    }
    std::pmr::vector<int> denseRefs_{&scratch_};
    std::unordered_map<std::int32_t, int> sparseRefs_;
    // SSTR strings read so far: the last sharedCount_ of Asset::sharedStrings.
    std::uint32_t sharedCount_ = 0;
    std::pmr::vector<PendingRef> pendingRefs_{&scratch_};
    std::pmr::vector<std::pair<std::int32_t, std::int32_t>> links_{&scratch_};
    std::size_t nodeCount_ = 0;  // the instances of the INST chunks read: Asset::nodes to be
    std::pmr::vector<std::size_t> services_{&scratch_};  // those with a service marker
    std::pmr::vector<std::int32_t> refs_{&scratch_};     // scratch: an INST chunk's referents
    // String columns named "Name" (table, column), in the order read; of a table's, the last
    // with a row names it.
    std::pmr::vector<std::pair<std::size_t, std::size_t>> nameColumns_{&scratch_};
    std::pmr::vector<InstChunk> instChunks_{&scratch_};  // by Asset::propertyTables index
    std::uint64_t prntOffset_ = 0;
    const Chunk* chunk_ = nullptr;
    // Current PROP chunk: its column and the nodes of its rows.
    PropertyColumn* col_ = nullptr;
    int currentTable_ = -1;
    std::size_t columnIndex_ = 0;
    int firstNode_ = 0;
    std::size_t badRotationIds_ = 0;
    // Scratch arrays reused by every PROP chunk.
    std::vector<std::uint32_t> u32_;
    std::vector<CFrame> cframes_;
    InflateBuffer inflated_;  // the current chunk's data, when it is compressed
    // keepBytes' current block (in Asset::storage) and how much of it is used.
    std::uint8_t* block_ = nullptr;
    std::size_t blockSize_ = 0;  // block_'s size
    std::size_t blockUsed_ = 0;
    std::size_t firstBlock_ = kKeptBlock;  // the first block's size (readChunks)
    // The current chunk was inflated into keptRoom at block_ + keptFrom_ (readChunks);
    // chunkKept_ once something views it; keptName_: the column whose name views it.
    bool inKept_ = false;
    bool chunkKept_ = false;
    std::size_t keptFrom_ = 0;
    PropertyColumn* keptName_ = nullptr;
    std::size_t payload_ = 0;  // the current chunk's payload index in ahead_
    // Nodes built ahead by the worker (postNodes); prebuiltDone_ once they are whole,
    // namedAhead_ once the worker has named them too (postNames).
    std::vector<Node> prebuilt_;
    bool prebuiltDone_ = false;
    bool namedAhead_ = false;
    bool nodesPosted_ = false;
    bool buildPosted_ = false;  // the build job is posted and was not dropped since
    // A large file's chunks, inflated ahead (readChunks). Last: it goes first, stopping and
    // joining its worker before anything a job reads is gone.
    std::optional<InflateAhead> aheadStore_;
    InflateAhead* ahead_ = nullptr;
};

}  // namespace

void setInflatePathByInput(bool on) {
    gInflatePathByInput.store(on, std::memory_order_relaxed);
}

void decodeBinaryModel(DecodeContext& ctx) {
    BinaryDecoder decoder(ctx);
    decoder.run();
    addTerrain(ctx);
    addUnionContents(ctx, decoder.sharedStringRecords());
}

}  // namespace meshscope::rbx
