// The decoder registry: sniffing by content, gzip unwrapping, and the API boundary where
// DecodeFailure (and any other exception) is turned into a DecodeResult.
#include "meshscope/core/decode.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <new>

#include "formats/formats.h"
#include "io/decode_context.h"
#include "io/decompress.h"
#include "io/file_bytes.h"
#include "meshscope/core/error_codes.h"
#include "meshscope/core/roblox_animation.h"
#include "meshscope/core/version.h"

namespace meshscope {

const char* version() {
    return kVersion;
}

const std::vector<FormatDecoder>& decoders() {
    static const std::vector<FormatDecoder> all = {
        robloxMeshFormat(),     robloxModelBinaryFormat(), robloxModelXmlFormat(),
        secondLifeMeshFormat(), unigineFormat(),           robloxCsgFormat(),
        dracoFormat(),
    };
    return all;
}

namespace {

std::string lowerExtension(const std::string& name) {
    const auto slash = name.find_last_of("/\\");
    const auto dot = name.find_last_of('.');
    if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return {};
    std::string ext = name.substr(dot);
    std::transform(ext.begin(), ext.end(), ext.begin(),
                   [](unsigned char c) { return std::tolower(c); });
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
        for (std::size_t i = 8; i < bytes.size() && i < 24 && bytes[i] >= 0x20 && bytes[i] < 0x7f;
             ++i)
            v += char(bytes[i]);
        return "unknown FileMesh version \"" + v + "\"";
    }
    if (startsWith(bytes, "<html") || startsWith(bytes, "<!DOCTYPE"))
        return "this is an HTML page, not an asset";
    char buf[64];
    std::snprintf(buf, sizeof buf, "unrecognised content (first bytes %02x %02x %02x %02x)",
                  bytes[0], bytes.size() > 1 ? bytes[1] : 0, bytes.size() > 2 ? bytes[2] : 0,
                  bytes.size() > 3 ? bytes[3] : 0);
    // Say what the bytes were compared with, so that a user can tell "not a format Meshscope
    // knows" from "a file of a known format that is damaged at its very start".
    std::string reason = buf;
    reason += "; tried ";
    const auto& all = decoders();
    for (std::size_t i = 0; i < all.size(); ++i) {
        if (i) reason += i + 1 == all.size() ? " and " : ", ";
        reason += all[i].name;
    }
    return reason;
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
        const bool extMatch =
            std::find(d.extensions.begin(), d.extensions.end(), ext) != d.extensions.end();
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

// Defence in depth for every consumer (renderer, exporters): a mesh handed out — complete or
// partial — never has a stream of the wrong length or an index past its vertices. Decoders
// validate as they read; this catches a partial result cut mid-array and any decoder slip.
void sanitizeMesh(Asset& asset, Mesh& m) {
    // A mesh whose arrays were left in the file (Mesh::unloaded) has empty streams and indices
    // that its decoder checked where they lie; its LODs and surfaces are held to its counts.
    if (m.unloaded && (!m.positions.empty() || !m.indices.empty() || m.unloaded->indices % 3 ||
                       m.primitive != Primitive::Triangles))
        m.unloaded.reset();
    const std::size_t n = m.vertexCount();
    auto fixStream = [&](auto& stream, const char* name) {
        if (!stream.empty() && stream.size() != n) {
            asset.diagnostics.push_back({Severity::Warning, errc::kInconsistentMesh, 0, m.name,
                                         std::string(name) +
                                             " stream dropped: " + std::to_string(stream.size()) +
                                             " entries for " + std::to_string(n) + " vertices"});
            stream.clear();
        }
    };
    fixStream(m.normals, "normal");
    fixStream(m.uv0, "uv0");
    fixStream(m.uv1, "uv1");
    fixStream(m.tangents, "tangent");
    fixStream(m.colors, "colour");
    fixStream(m.skin, "skin");
    std::erase_if(m.morphTargets, [&](MorphTarget& t) {
        fixStream(t.normalDeltas, "morph target normal");
        if (t.positionDeltas.size() == n && n) return false;
        asset.diagnostics.push_back(
            {Severity::Warning, errc::kInconsistentMesh, 0, m.name,
             "morph target \"" + t.name + "\" dropped: " + std::to_string(t.positionDeltas.size()) +
                 " position deltas for " + std::to_string(n) + " vertices"});
        return true;
    });
    // An OR-reduction of compares: vectorises (SSE2 and up), so this pass costs about a memory
    // read of the index buffer.
    const std::uint32_t limit = n > UINT32_MAX ? UINT32_MAX : std::uint32_t(n);
    std::uint32_t bad = m.unloaded && !m.unloaded->indicesValid;
    const std::uint32_t* idx = m.indices.data();
    const std::size_t stored = m.indices.size();
    for (std::size_t k = 0; k < stored; ++k) bad |= std::uint32_t(idx[k] >= limit);
    const std::size_t count = m.indexCount();
    const std::size_t per = indicesPerPrimitive(m.primitive);
    if (bad || m.indices.size() % per != 0) {
        asset.diagnostics.push_back({Severity::Warning, errc::kInconsistentMesh, 0, m.name,
                                     "indices dropped: an index is past the " + std::to_string(n) +
                                         " vertices, or the index count " + std::to_string(count) +
                                         " is not a whole number of primitives"});
        m.indices.clear();
        if (m.unloaded) m.unloaded->indices = 0;
        m.lods.clear();
        m.surfaces.clear();
    }
    const std::uint64_t prims = m.indexCount() / per;
    std::erase_if(m.lods, [&](const LodLevel& l) {
        return std::uint64_t(l.firstTriangle) + l.triangleCount > prims;
    });
    std::erase_if(m.surfaces, [&](const Surface& s) {
        return std::uint64_t(s.firstTriangle) + s.triangleCount > prims ||
               std::uint64_t(s.firstVertex) + s.vertexCount > n;
    });
    if (m.skeleton >= int(asset.skeletons.size())) m.skeleton = -1;
    if (m.facs >= int(asset.facs.size())) m.facs = -1;
    if (!m.skin.empty()) {
        const std::size_t bones = m.skeleton >= 0 ? asset.skeletons[m.skeleton].bones.size() : 0;
        for (auto& v : m.skin)
            for (int k = 0; k < 4; ++k)
                if (v.joints[k] >= bones) {
                    v.joints[k] = 0;
                    v.weights[k] = 0;
                }
    }
}

// The node tree as every view may assume it: parents form no cycle and no chain deeper than
// Limits::maxDepth (views and the CLI walk trees recursively), and each node is in its parent's
// children exactly once, in no other list. Decoders build trees from untrusted links (a binary
// model's PRNT chunk can chain 10 million instances); whatever they left, a node that closes a
// cycle or lies deeper than the cap becomes a root, with a warning naming the cap.
//
// It reads each Node once (a place has hundreds of thousands of them): the
// parents and the child lists' claims go into compact arrays, the walks and checks run there,
// and nodes are written only where something is repaired.
void sanitizeTree(Asset& asset, std::vector<int>& parent, const std::vector<int>& claimedBy,
                  std::size_t repeatedClaims, std::uint32_t maxDepth) {
    auto& nodes = asset.nodes;
    const std::size_t n = nodes.size();
    constexpr std::uint32_t kUnknown = 0xffffffffu, kOnWalk = 0xfffffffeu;
    std::vector<std::uint32_t> depth(n, kUnknown);
    std::vector<int> path;
    std::size_t cycles = 0, tooDeep = 0;
    int firstTooDeep = -1;
    auto cut = [&](int v) {
        parent[std::size_t(v)] = -1;
        nodes[std::size_t(v)].parent = -1;
    };
    for (std::size_t start = 0; start < n; ++start) {
        if (depth[start] != kUnknown) continue;
        path.clear();
        int v = int(start);
        while (v >= 0 && depth[std::size_t(v)] == kUnknown) {
            depth[std::size_t(v)] = kOnWalk;
            path.push_back(v);
            v = parent[std::size_t(v)];
        }
        std::uint32_t d = 0;  // depth of the node above the walk's top (roots are at depth 1)
        if (v >= 0 && depth[std::size_t(v)] == kOnWalk) {
            // The top of the walk links back into it: cut that link.
            cut(path.back());
            ++cycles;
        } else if (v >= 0) {
            d = depth[std::size_t(v)];
        }
        for (auto it = path.rbegin(); it != path.rend(); ++it) {
            if (++d > maxDepth) {
                cut(*it);
                if (tooDeep++ == 0) firstTooDeep = *it;
                d = 1;
            }
            depth[std::size_t(*it)] = d;
        }
    }
    // Children lists follow the parents. The lists agree when every node is claimed by exactly
    // its parent's list and only once (the common case: nothing more to do); otherwise drop
    // entries whose parent says otherwise and repeats, and add the nodes no list holds.
    bool agree = repeatedClaims == 0;
    for (std::size_t c = 0; c < n && agree; ++c) agree = claimedBy[c] == parent[c];
    std::size_t strays = 0, unlisted = 0;
    if (!agree) {
        std::vector<std::uint8_t> listed(n, 0);
        for (std::size_t p = 0; p < n; ++p) {
            if (nodes[p].childList < 0) continue;
            std::erase_if(asset.childLists[std::size_t(nodes[p].childList)], [&](int c) {
                const bool keep = parent[std::size_t(c)] == int(p) && !listed[std::size_t(c)];
                if (keep) listed[std::size_t(c)] = 1;
                strays += !keep;
                return !keep;
            });
        }
        for (std::size_t c = 0; c < n; ++c)
            if (parent[c] >= 0 && !listed[c]) {
                asset.addChild(parent[c], int(c));
                ++unlisted;
            }
    }
    if (cycles)
        asset.diagnostics.push_back({Severity::Warning, errc::kNodeCycle, 0, "",
                                     std::to_string(cycles) +
                                         " parent cycles in the node tree were broken; their "
                                         "members are shown as roots"});
    if (tooDeep)
        asset.diagnostics.push_back(
            {Severity::Warning, errc::kLimit, nodes[std::size_t(firstTooDeep)].offset,
             std::string(asset.name(firstTooDeep)),
             std::to_string(tooDeep) + " nodes lie deeper than maxDepth (" +
                 std::to_string(maxDepth) + " levels); each is shown as a root"});
    if (strays + unlisted)
        asset.diagnostics.push_back({Severity::Info, errc::kNodeLinks, 0, "",
                                     std::to_string(strays + unlisted) +
                                         " child links disagreed with their parents and were "
                                         "repaired"});
}

void clampIndex(int& index, std::size_t size) {
    if (index < -1 || index >= int(size)) index = -1;
}

void sanitizeLinks(const Asset& asset, NodeLinks& l) {
    clampIndex(l.mesh, asset.meshes.size());
    clampIndex(l.skeleton, asset.skeletons.size());
    clampIndex(l.facs, asset.facs.size());
    clampIndex(l.animation, asset.animations.size());
    if (l.bone >= 0 &&
        (l.skeleton < 0 || l.bone >= int(asset.skeletons[std::size_t(l.skeleton)].bones.size())))
        l.bone = -1;
    if (l.lod >= 0 && (l.mesh < 0 || l.lod >= int(asset.meshes[std::size_t(l.mesh)].lods.size())))
        l.lod = -1;
}

// Node links that point nowhere become -1 / are dropped, so views can follow them blindly. A
// name outside nodeText becomes "", a kind outside the table "", and a child list, property list
// or links out of range, or already held by an earlier node, none.
void sanitizeNodeArray(Asset& asset, std::uint32_t maxDepth) {
    const std::size_t count = asset.nodes.size();
    const int nodes = int(count);
    std::vector<int> parent(count), claimedBy(count, -1);
    std::vector<std::uint8_t> childListHeld(asset.childLists.size(), 0);
    std::vector<std::uint8_t> propertyListHeld(asset.propertyLists.size(), 0);
    std::vector<std::uint8_t> linkListHeld(asset.nodeLinks.size(), 0);
    const auto holdList = [](int& list, std::vector<std::uint8_t>& held) {
        if (list < 0) return;
        if (std::size_t(list) >= held.size() || held[std::size_t(list)])
            list = -1;
        else
            held[std::size_t(list)] = 1;
    };
    std::size_t repeatedClaims = 0;
    for (std::size_t i = 0; i < count; ++i) {
        Node& n = asset.nodes[i];
        clampIndex(n.parent, count);
        parent[i] = n.parent;
        holdList(n.linkList, linkListHeld);
        if (n.linkList >= 0) sanitizeLinks(asset, asset.nodeLinks[std::size_t(n.linkList)]);
        if (n.nameAt > asset.nodeText.size() || n.nameSize > asset.nodeText.size() - n.nameAt)
            n.nameAt = n.nameSize = 0;
        if (n.kindId >= asset.kinds.size()) n.kindId = 0;
        holdList(n.propertyList, propertyListHeld);
        holdList(n.childList, childListHeld);
        if (n.childList < 0) continue;
        std::vector<int>& children = asset.childLists[std::size_t(n.childList)];
        std::erase_if(children, [&](int c) { return c < 0 || c >= nodes; });
        for (int c : children) {
            if (claimedBy[std::size_t(c)] < 0)
                claimedBy[std::size_t(c)] = int(i);
            else
                ++repeatedClaims;
        }
    }
    sanitizeTree(asset, parent, claimedBy, repeatedClaims, maxDepth);
}

// `treeChecked`: the decoder vouched for its node array (DecodeContext::setTreeChecked); only
// the links into it from outside are checked.
void sanitizeNodes(Asset& asset, std::uint32_t maxDepth, bool treeChecked) {
    if (!treeChecked) sanitizeNodeArray(asset, maxDepth);
    for (auto& m : asset.meshes) clampIndex(m.node, asset.nodes.size());
    for (auto& sk : asset.skeletons)
        for (auto& b : sk.bones) {
            clampIndex(b.parent, sk.bones.size());
            clampIndex(b.lodParent, sk.bones.size());
        }
}

// `mapped` false: the byte map is dropped rather than sorted and its gaps filled (a decode
// without DecodeOptions::byteMap).
void finish(Asset& asset, std::uint64_t fileSize, const Limits& limits, bool treeChecked,
            bool mapped = true) {
    for (auto& m : asset.meshes) sanitizeMesh(asset, m);
    sanitizeNodes(asset, limits.maxDepth, treeChecked);
    // A decoder may have computed the bounds while reading the positions (the FileMesh decoder
    // does, block by block while they are in cache); only meshes without valid bounds get them.
    for (auto& m : asset.meshes)
        if (!m.bounds.valid()) m.computeBounds();
    asset.fileSize = fileSize;
    if (mapped)
        asset.byteMap.finalize(fileSize);
    else if (!asset.byteMap.empty())
        asset.byteMap = ByteMap{};
}

DecodeResult decodeImpl(ByteSpan bytes, const DecodeOptions& options, int depth,
                        const FormatDecoder* forced = nullptr) {
    DecodeResult result;
    Asset& asset = result.asset;
    // What a cancelled decoder handed back (DecodeContext::discard), kept past the context.
    std::vector<std::shared_ptr<void>> discarded;
    // Whether the decoder vouched for its node tree (DecodeContext::setTreeChecked).
    bool treeChecked = false;
    struct KeepDiscarded {
        DecodeContext& ctx;
        std::vector<std::shared_ptr<void>>& out;
        bool& treeChecked;
        ~KeepDiscarded() {
            out = ctx.takeDiscarded();
            treeChecked = ctx.treeChecked();
        }
    };
    try {
        if (forced) {
            asset.format = forced->id;
            asset.formatName = forced->name;
            DecodeContext ctx(bytes, options, asset);
            KeepDiscarded keep{ctx, discarded, treeChecked};
            forced->decode(ctx);
        } else if (looksLikeGzip(bytes) && depth == 0) {
            // Asset downloads can arrive gzip-compressed: decode what is inside.
            Asset scratch;
            DecodeContext ctx(bytes, options, scratch);
            Bytes inner = inflateGzip(ctx, bytes, 0);
            DecodeResult r = decodeImpl(inner, options, depth + 1);
            r.asset.diagnostics.insert(r.asset.diagnostics.begin(),
                                       {Severity::Info, errc::kGzip, 0, "gzip",
                                        "the file is gzip-compressed; offsets refer to the "
                                        "inflated data (" +
                                            std::to_string(inner.size()) + " bytes)"});
            r.innerBytes = std::move(inner);
            return r;
        } else if (const SniffResult s = sniff(bytes, options.fileName); !s.decoder) {
            result.error = DecodeError{errc::kUnknownFormat, 0, "", s.reason};
        } else {
            asset.format = s.decoder->id;
            asset.formatName = s.decoder->name;
            DecodeContext ctx(bytes, options, asset);
            KeepDiscarded keep{ctx, discarded, treeChecked};
            s.decoder->decode(ctx);
        }
    } catch (const DecodeFailure& f) {
        result.error = f.error;
    } catch (const std::bad_alloc&) {
        result.error = DecodeError{errc::kOutOfMemory, 0, "", "ran out of memory while decoding"};
    } catch (const std::exception& e) {
        result.error =
            DecodeError{errc::kInternal, 0, "", std::string("internal error: ") + e.what()};
    } catch (...) {
        result.error = DecodeError{errc::kInternal, 0, "", "internal error"};
    }
    // A cancelled decode's partial result is never shown: return the format and the error with
    // an empty asset instead of sanitising the partial tree and sorting the byte map (for a large
    // place or XML model, most of the time between the flag and the return). The partial asset
    // and what the decoder handed back are not freed here either (about 0.1 s for 200 000 XML
    // items): DecodeResult::discarded carries them to the caller.
    if (result.error && result.error->code == errc::kCancelled) {
        struct Partial {
            Asset asset;
            std::vector<std::shared_ptr<void>> decoderData;
        };
        auto partial = std::make_shared<Partial>(Partial{std::move(asset), std::move(discarded)});
        asset = Asset{};
        asset.format = partial->asset.format;
        asset.formatName = partial->asset.formatName;
        asset.fileSize = bytes.size();
        result.discarded = std::move(partial);
        return result;
    }
    // Roblox characters: Motor6D rigs as skeletons, KeyframeSequences baked on them (#23).
    try {
        if (!result.error) addRobloxRigAndAnimations(asset);
    } catch (...) {
        asset.diagnostics.push_back(
            {Severity::Warning, "rig", 0, "", "the Roblox rig could not be built (out of memory)"});
    }
    try {
        finish(asset, bytes.size(), options.limits, treeChecked, options.byteMap);
    } catch (...) {
        asset.byteMap.ranges().clear();
    }
    return result;
}

}  // namespace

void sanitizeAsset(Asset& asset, const Limits& limits) {
    finish(asset, asset.fileSize, limits, false);
}

DecodeResult decodeBytes(ByteSpan bytes, const DecodeOptions& options) {
    return decodeImpl(bytes, options, 0);
}

DecodeResult decodeAs(const std::string& formatId, ByteSpan bytes, const DecodeOptions& options) {
    for (const auto& d : decoders())
        if (formatId == d.id) return decodeImpl(bytes, options, 1, &d);
    DecodeResult r;
    r.error = DecodeError{errc::kUnknownFormat, 0, "", "no decoder named \"" + formatId + "\""};
    return r;
}

DecodeResult decodeFile(const std::string& path, const DecodeOptions& options) {
    // Mapped, not copied: reading the file costs one pass over its pages (pipes and other
    // special files are read into memory instead). The mapping lives until the decode returns.
    DecodeResult result;
    FileBytes file;
    std::string code, message;
    if (!file.open(path, code, message)) {
        result.error = DecodeError{code, 0, "", message};
        return result;
    }
    DecodeOptions opts = options;
    if (opts.fileName.empty()) opts.fileName = path;
    return decodeBytes(file.bytes(), opts);
}

}  // namespace meshscope
