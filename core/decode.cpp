// The decoder registry: sniffing by content, gzip unwrapping, and the API boundary where
// DecodeFailure (and any other exception) is turned into a DecodeResult.
#include "meshscope/core/decode.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <fstream>
#include <new>

#include "formats/formats.h"
#include "io/decode_context.h"
#include "io/decompress.h"

namespace meshscope {

const char* version() { return "0.1.0"; }

const std::vector<FormatDecoder>& decoders() {
    static const std::vector<FormatDecoder> all = {
        robloxMeshFormat(), robloxModelBinaryFormat(), robloxModelXmlFormat(),
        secondLifeMeshFormat(), unigineFormat(),
    };
    return all;
}

namespace {

std::string lowerExtension(const std::string& name) {
    const auto slash = name.find_last_of("/\\");
    const auto dot = name.find_last_of('.');
    if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return {};
    std::string ext = name.substr(dot);
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
    return ext;
}

bool startsWith(ByteSpan b, std::string_view s) {
    return b.size() >= s.size() && std::memcmp(b.data(), s.data(), s.size()) == 0;
}

std::string describeUnknown(ByteSpan bytes) {
    if (bytes.empty()) return "the file is empty";
    if (startsWith(bytes, "version https://git-lfs"))
        return "this is a Git LFS pointer file, not the asset itself (fetch it with git lfs pull)";
    if (startsWith(bytes, "version ")) {
        std::string v;
        for (std::size_t i = 8; i < bytes.size() && i < 24 && bytes[i] >= 0x20 && bytes[i] < 0x7f; ++i)
            v += char(bytes[i]);
        return "unknown FileMesh version \"" + v + "\"";
    }
    if (startsWith(bytes, "<html") || startsWith(bytes, "<!DOCTYPE"))
        return "this is an HTML page, not an asset";
    char buf[64];
    std::snprintf(buf, sizeof buf, "unrecognised content (first bytes %02x %02x %02x %02x)",
                  bytes[0], bytes.size() > 1 ? bytes[1] : 0, bytes.size() > 2 ? bytes[2] : 0,
                  bytes.size() > 3 ? bytes[3] : 0);
    return buf;
}

}  // namespace

SniffResult sniff(ByteSpan bytes, const std::string& fileName) {
    SniffResult best;
    const std::string ext = lowerExtension(fileName);
    int bestRank = 0;
    for (const auto& d : decoders()) {
        const int score = d.probe ? d.probe(bytes) : 0;
        if (score <= 0) continue;
        // The extension only breaks ties between equal content scores.
        const bool extMatch = std::find(d.extensions.begin(), d.extensions.end(), ext) != d.extensions.end();
        const int rank = score * 2 + (extMatch ? 1 : 0);
        if (rank > bestRank) {
            bestRank = rank;
            best.decoder = &d;
            best.score = score;
        }
    }
    if (!best.decoder) best.reason = describeUnknown(bytes);
    return best;
}

namespace {

void finish(Asset& asset, std::uint64_t fileSize) {
    for (auto& m : asset.meshes) m.computeBounds();
    asset.fileSize = fileSize;
    asset.byteMap.finalize(fileSize);
}

DecodeResult decodeImpl(ByteSpan bytes, const DecodeOptions& options, int depth,
                        const FormatDecoder* forced = nullptr) {
    DecodeResult result;
    Asset& asset = result.asset;
    try {
        if (forced) {
            asset.format = forced->id;
            asset.formatName = forced->name;
            DecodeContext ctx(bytes, options, asset);
            forced->decode(ctx);
        } else if (looksLikeGzip(bytes) && depth == 0) {
            // Asset downloads can arrive gzip-compressed: decode what is inside.
            Asset scratch;
            DecodeContext ctx(bytes, options, scratch);
            Bytes inner = inflateGzip(ctx, bytes, 0);
            DecodeResult r = decodeImpl(inner, options, depth + 1);
            r.asset.diagnostics.insert(r.asset.diagnostics.begin(),
                                       {Severity::Info, "gzip", 0, "gzip",
                                        "the file is gzip-compressed; offsets refer to the "
                                        "inflated data (" + std::to_string(inner.size()) + " bytes)"});
            r.innerBytes = std::move(inner);
            return r;
        } else if (const SniffResult s = sniff(bytes, options.fileName); !s.decoder) {
            result.error = DecodeError{"unknown-format", 0, "", s.reason};
        } else {
            asset.format = s.decoder->id;
            asset.formatName = s.decoder->name;
            DecodeContext ctx(bytes, options, asset);
            s.decoder->decode(ctx);
        }
    } catch (const DecodeFailure& f) {
        result.error = f.error;
    } catch (const std::bad_alloc&) {
        result.error = DecodeError{"out-of-memory", 0, "", "ran out of memory while decoding"};
    } catch (const std::exception& e) {
        result.error = DecodeError{"internal", 0, "", std::string("internal error: ") + e.what()};
    } catch (...) {
        result.error = DecodeError{"internal", 0, "", "internal error"};
    }
    try {
        finish(asset, bytes.size());
    } catch (...) {
        asset.byteMap.ranges().clear();
    }
    return result;
}

}  // namespace

DecodeResult decodeBytes(ByteSpan bytes, const DecodeOptions& options) {
    return decodeImpl(bytes, options, 0);
}

DecodeResult decodeAs(const std::string& formatId, ByteSpan bytes, const DecodeOptions& options) {
    for (const auto& d : decoders())
        if (formatId == d.id) return decodeImpl(bytes, options, 1, &d);
    DecodeResult r;
    r.error = DecodeError{"unknown-format", 0, "", "no decoder named \"" + formatId + "\""};
    return r;
}

DecodeResult decodeFile(const std::string& path, const DecodeOptions& options) {
    DecodeResult result;
    std::ifstream in(path, std::ios::binary);  // read-only: the input is never written
    if (!in) {
        result.error = DecodeError{"io", 0, "", "cannot open " + path + ": " + std::strerror(errno)};
        return result;
    }
    in.seekg(0, std::ios::end);
    const std::streamoff size = in.tellg();
    in.seekg(0);
    if (size < 0) {
        result.error = DecodeError{"io", 0, "", "cannot read " + path};
        return result;
    }
    Bytes data;
    try {
        data.resize(static_cast<std::size_t>(size));
    } catch (...) {
        result.error = DecodeError{"out-of-memory", 0, "", "file too large to load"};
        return result;
    }
    if (size > 0 && !in.read(reinterpret_cast<char*>(data.data()), size)) {
        result.error = DecodeError{"io", 0, "", "cannot read " + path};
        return result;
    }
    DecodeOptions opts = options;
    if (opts.fileName.empty()) opts.fileName = path;
    return decodeBytes(data, opts);
}

}  // namespace meshscope
