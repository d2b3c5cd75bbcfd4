// What a CSG union keeps inside its property values, made visible after a model's tree is whole
// (model_decoders.h addUnionContents): the original parts of ChildData / ChildData2 (an embedded
// binary or XML model) as Structure children of the union, and the named ranges of its
// MeshData / MeshData2 / PhysicsData blobs in the byte map where the value's bytes are the
// file's own.
#include <algorithm>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "formats/formats.h"
#include "formats/roblox_model/model_decoders.h"
#include "io/decode_context.h"
#include "meshscope/core/error_codes.h"
#include "meshscope/core/roblox_parts.h"

namespace meshscope::rbx {
namespace {

// ChildData nested in ChildData nested in ...: at most this many models deep.
constexpr int kMaxNesting = 4;
thread_local int nesting = 0;

struct NestingGuard {
    NestingGuard() { ++nesting; }
    ~NestingGuard() { --nesting; }
    NestingGuard(const NestingGuard&) = delete;
    NestingGuard& operator=(const NestingGuard&) = delete;
};

// A property value's bytes (copied: the tree grows while they are used), where they are in the
// file when they are the file's own bytes (`at`), and the property's source range.
struct Located {
    Bytes blob;
    std::optional<std::uint64_t> at;
    std::uint64_t offset = 0, length = 0;
};

bool sameBytes(ByteSpan file, std::uint64_t at, const Bytes& blob) {
    return at <= file.size() && file.size() - at >= blob.size() &&
           std::memcmp(file.data() + at, blob.data(), blob.size()) == 0;
}

// File offsets of the asset's shared strings whose bytes are the file's own (a binary model's
// uncompressed SSTR chunk: the decoder's record offsets), checked byte for byte.
class SharedStringPlaces {
public:
    explicit SharedStringPlaces(std::span<const std::optional<std::uint64_t>> records)
        : records_(records) {}

    std::optional<std::uint64_t> find(const Asset& asset, ByteSpan file, std::uint32_t index) {
        if (index >= records_.size() || index >= asset.sharedStrings.size() || !records_[index])
            return std::nullopt;
        const std::uint64_t at = *records_[index] + 20;
        const std::string_view s = asset.sharedString(index);
        if (at > file.size() || file.size() - at < s.size() ||
            std::memcmp(file.data() + at, s.data(), s.size()) != 0)
            return std::nullopt;
        return at;
    }

private:
    std::span<const std::optional<std::uint64_t>> records_;
};

std::optional<Located> locate(const Asset& asset, ByteSpan file, int node, std::string_view name,
                              SharedStringPlaces& shared) {
    const Node& n = asset.nodes[std::size_t(node)];
    Located out;
    // A binary model's column: the row's bytes, at the column's offset plus the row's place
    // among the values (the column keeps the chunk's bytes from its values on, `first`).
    if (n.table >= 0 && std::size_t(n.table) < asset.propertyTables.size())
        if (const PropertyColumn* col = asset.propertyTables[std::size_t(n.table)].column(name);
            col && n.row < col->rows()) {
            out.offset = col->offset;
            out.length = col->length;
            if (col->storage == PropertyColumn::Storage::String) {
                const std::string_view text = col->text(n.row);
                if (text.empty()) return std::nullopt;
                out.blob.assign(text.begin(), text.end());
                const auto* base = reinterpret_cast<const char*>(col->bytes.data());
                const std::uint64_t rel = std::uint64_t(text.data() - base);
                if (rel >= col->first &&
                    sameBytes(file, col->offset + (rel - col->first), out.blob))
                    out.at = col->offset + (rel - col->first);
                return out;
            }
            const Value v = col->value(n.row);
            if (const auto* ref = std::get_if<SharedStringRef>(&v)) {
                const std::string_view s = asset.sharedString(ref->index);
                if (s.empty()) return std::nullopt;
                out.blob.assign(s.begin(), s.end());
                out.at = shared.find(asset, file, ref->index);
                return out;
            }
            const std::string_view s = asset.textOf(v);
            if (const auto* b = std::get_if<Bytes>(&v))
                out.blob = *b;
            else
                out.blob.assign(s.begin(), s.end());
            if (out.blob.empty()) return std::nullopt;
            return out;
        }
    // An own property (an XML model's, or one set by hand).
    const Property* p = asset.ownProperty(node, name);
    if (!p) return std::nullopt;
    out.offset = p->offset;
    out.length = p->length;
    if (const auto* b = std::get_if<Bytes>(&p->value)) {
        out.blob = *b;
    } else {
        const std::string_view s = asset.textOf(p->value);
        out.blob.assign(s.begin(), s.end());
        if (const auto* ref = std::get_if<SharedStringRef>(&p->value)) {
            if (!out.blob.empty()) out.at = shared.find(asset, file, ref->index);
            return out.blob.empty() ? std::nullopt : std::optional(std::move(out));
        }
    }
    if (out.blob.empty()) return std::nullopt;
    for (std::uint64_t candidate : {p->offset + 4, p->offset})
        if (p->length && sameBytes(file, candidate, out.blob)) {
            out.at = candidate;
            break;
        }
    return out;
}

int depthOf(const Asset& asset, int node) {
    int d = 0;
    for (int p = asset.nodes[std::size_t(node)].parent;
         p >= 0 && std::size_t(p) < asset.nodes.size() && d <= int(asset.nodes.size());
         p = asset.nodes[std::size_t(p)].parent)
        ++d;
    return d;
}

// Limits for a decode of `blob` nested in this file's: no more decompression than this file has
// left, no more instances, no deeper trees.
DecodeOptions nestedOptions(DecodeContext& ctx, std::size_t depthLeft) {
    DecodeOptions o;
    o.limits = ctx.limits();
    const std::uint64_t allowance = ctx.decompressionAllowance();
    o.limits.maxDecompressedTotal = allowance;
    o.limits.minDecompressedTotal = std::min(o.limits.minDecompressedTotal, allowance);
    const std::uint64_t nodes = ctx.asset().nodes.size();
    o.limits.maxInstances = o.limits.maxInstances > nodes ? o.limits.maxInstances - nodes : 0;
    o.limits.maxDepth = std::uint32_t(depthLeft);
    o.cancel = ctx.options().cancel;
    o.robloxTerrain = false;
    o.byteMap = ctx.options().byteMap;
    return o;
}

// What a nested decode used of this file's decompression budget is charged to it.
void chargeNested(DecodeContext& ctx, DecodeContext& nested, const DecodeOptions& o,
                  std::size_t blobSize, std::uint64_t at) {
    const std::uint64_t budget = o.limits.decompressionBudget(blobSize);
    const std::uint64_t used = budget - std::min(budget, nested.decompressionAllowance());
    ctx.chargeDecompressed(at, std::min(used, ctx.decompressionAllowance()));
}

// A nested decoder's diagnostic, moved to this file: the absolute offset when the value's bytes
// are the file's own, else the property's; the context under the union's property; warnings at
// most (a problem inside a value never fails the file).
Diagnostic moved(Diagnostic d, const Located& v, const std::string& context) {
    d.offset = v.at ? *v.at + d.offset : v.offset;
    d.context = d.context.empty() ? context : context + kPathSeparator + d.context;
    if (d.severity == Severity::Error) d.severity = Severity::Warning;
    return d;
}

// The embedded model's instances as children of the union (depth first, each reached node once,
// as deep as `depthLeft` allows), with their properties; their ranges moved to the file when the
// value's bytes are the file's own, else each the whole property.
void graft(DecodeContext& ctx, const Asset& inner, int unionNode, const std::string& property,
           const Located& v, std::size_t depthLeft, const std::string& context) {
    Asset& asset = ctx.asset();
    const std::size_t count = inner.nodes.size();
    std::vector<int> newIndex(count, -1);
    std::vector<std::pair<int, std::size_t>> stack;  // inner node, its depth below the union
    std::vector<int> order;
    std::vector<int> roots;
    for (std::size_t i = 0; i < count; ++i) {
        const int p = inner.nodes[i].parent;
        if (p < 0 || std::size_t(p) >= count) roots.push_back(int(i));
    }
    bool cut = false;
    std::vector<std::uint8_t> seen(count);
    for (auto it = roots.rbegin(); it != roots.rend(); ++it) stack.push_back({*it, 1});
    while (!stack.empty()) {
        const auto [n, depth] = stack.back();
        stack.pop_back();
        if (seen[std::size_t(n)]) continue;
        if (depth > depthLeft) {
            cut = true;
            continue;
        }
        seen[std::size_t(n)] = 1;
        order.push_back(n);
        const std::span<const int> ch = inner.children(n);
        for (auto it = ch.rbegin(); it != ch.rend(); ++it)
            if (*it >= 0 && std::size_t(*it) < count) stack.push_back({*it, depth + 1});
    }
    if (cut)
        asset.diagnostics.push_back({Severity::Warning, errc::kLimit, v.at.value_or(v.offset),
                                     context,
                                     "instances nested deeper than maxDepth are not shown"});
    const std::string suffix = " (" + property + ")";
    for (int n : order) {
        const int p = inner.nodes[std::size_t(n)].parent;
        const bool root = p < 0 || std::size_t(p) >= count || newIndex[std::size_t(p)] < 0;
        const int parent = root ? unionNode : newIndex[std::size_t(p)];
        const std::string name = std::string(inner.name(n)) + (root ? suffix : std::string());
        const int m = asset.addNode(name, inner.kind(n), -1);
        asset.nodes[std::size_t(m)].parent = parent;
        asset.addChild(parent, m);
        newIndex[std::size_t(n)] = m;
        Node& node = asset.nodes[std::size_t(m)];
        node.embedded = true;
        node.service = inner.nodes[std::size_t(n)].service;
        if (v.at) {
            node.offset = *v.at + inner.nodes[std::size_t(n)].offset;
            node.length = inner.nodes[std::size_t(n)].length;
        } else {
            node.offset = v.offset;
            node.length = v.length;
        }
    }
    // Properties once every node has its index (Refs point into the embedded model).
    for (int n : order) {
        const int m = newIndex[std::size_t(n)];
        for (Property p : inner.properties(n)) {
            if (std::holds_alternative<SharedStringRef>(p.value))
                p.value = std::string(inner.textOf(p.value));
            else if (auto* ref = std::get_if<NodeRef>(&p.value))
                ref->node = ref->node >= 0 && std::size_t(ref->node) < count
                                ? newIndex[std::size_t(ref->node)]
                                : -1;
            if (v.at) {
                p.offset += *v.at;
            } else {
                p.offset = v.offset;
                p.length = v.length;
            }
            asset.addProperty(m, std::move(p));
        }
    }
    if (!v.at) return;
    for (const ByteRange& r : inner.byteMap.ranges()) {
        if (r.kind == RangeKind::Unparsed) continue;
        const int node =
            r.node >= 0 && std::size_t(r.node) < count && newIndex[std::size_t(r.node)] >= 0
                ? newIndex[std::size_t(r.node)]
                : unionNode;
        ctx.mapRange(*v.at + r.offset, r.length, r.kind, joinPath(context, r.path), node);
    }
}

void addChildData(DecodeContext& ctx, int unionNode, const std::string& property,
                  const Located& v) {
    Asset& asset = ctx.asset();
    const std::string context =
        std::string(asset.nameOrKind(unionNode)) + kPathSeparator + property;
    const std::uint64_t where = v.at.value_or(v.offset);
    if (v.at) ctx.mapRange(*v.at, v.blob.size(), RangeKind::Payload, context, unionNode);
    const ByteSpan blob(v.blob.data(), v.blob.size());
    const FormatDecoder* decoder = nullptr;
    if (robloxModelBinaryFormat().probe(blob))
        decoder = &robloxModelBinaryFormat();
    else if (robloxModelXmlFormat().probe(blob))
        decoder = &robloxModelXmlFormat();
    if (!decoder) {
        asset.diagnostics.push_back({Severity::Warning, errc::kBadContent, where, context,
                                     "the value is not a Roblox model (" +
                                         std::to_string(v.blob.size()) +
                                         " bytes); its instances are not shown"});
        return;
    }
    const int depth = depthOf(asset, unionNode);
    const std::size_t maxDepth = ctx.limits().maxDepth;
    if (nesting >= kMaxNesting || std::size_t(depth) + 1 >= maxDepth) {
        asset.diagnostics.push_back({Severity::Warning, errc::kLimit, where, context,
                                     "models nested this deep in ChildData are not decoded"});
        return;
    }
    const std::size_t depthLeft = maxDepth - std::size_t(depth) - 1;
    const DecodeOptions o = nestedOptions(ctx, depthLeft);
    Asset inner;
    inner.format = decoder->id;
    std::optional<DecodeError> error;
    {
        NestingGuard guard;
        DecodeContext nested(blob, o, inner);
        try {
            decoder->decode(nested);
        } catch (const DecodeFailure& f) {
            if (f.error.code == errc::kCancelled) throw;
            error = f.error;
        } catch (const std::bad_alloc&) {
            error = DecodeError{errc::kOutOfMemory, 0, "", "ran out of memory"};
        } catch (...) {
            error = DecodeError{errc::kInternal, 0, "", "internal error"};
        }
        chargeNested(ctx, nested, o, blob.size(), where);
    }
    for (Diagnostic& d : inner.diagnostics)
        asset.diagnostics.push_back(moved(std::move(d), v, context));
    if (error) {
        Diagnostic d = moved(error->asDiagnostic(), v, context);
        d.message +=
            "; the " + std::to_string(inner.nodes.size()) + " instances read before it are shown";
        asset.diagnostics.push_back(std::move(d));
    }
    graft(ctx, inner, unionNode, property, v, depthLeft, context);
}

// A union blob whose bytes are the file's: the CSG decoder's ranges at their absolute place,
// linked to the union; its failures as warnings.
void mapCsgBlob(DecodeContext& ctx, int unionNode, const std::string& property, const Located& v) {
    Asset& asset = ctx.asset();
    const std::string context =
        std::string(asset.nameOrKind(unionNode)) + kPathSeparator + property;
    const ByteSpan blob(v.blob.data(), v.blob.size());
    const FormatDecoder& csgFormat = robloxCsgFormat();
    if (!csgFormat.probe(blob)) return;
    ctx.mapRange(*v.at, v.blob.size(), RangeKind::Payload, context, unionNode);
    const DecodeOptions o = nestedOptions(ctx, ctx.limits().maxDepth);
    Asset inner;
    std::optional<DecodeError> error;
    {
        DecodeContext nested(blob, o, inner);
        try {
            csgFormat.decode(nested);
        } catch (const DecodeFailure& f) {
            if (f.error.code == errc::kCancelled) throw;
            error = f.error;
        } catch (const std::bad_alloc&) {
            error = DecodeError{errc::kOutOfMemory, 0, "", "ran out of memory"};
        } catch (...) {
            error = DecodeError{errc::kInternal, 0, "", "internal error"};
        }
        chargeNested(ctx, nested, o, blob.size(), *v.at);
    }
    for (const ByteRange& r : inner.byteMap.ranges())
        if (r.kind != RangeKind::Unparsed)
            ctx.mapRange(*v.at + r.offset, r.length, r.kind, joinPath(context, r.path), unionNode);
    if (error) asset.diagnostics.push_back(moved(error->asDiagnostic(), v, context));
}

}  // namespace

void addUnionContents(DecodeContext& ctx,
                      std::span<const std::optional<std::uint64_t>> sharedStringRecords) {
    Asset& asset = ctx.asset();
    std::vector<std::uint8_t> unionKind(asset.kinds.size());
    bool any = false;
    for (std::uint32_t k = 0; k < asset.kinds.size(); ++k)
        any |= unionKind[k] = isUnionClass(asset.kinds[k]);
    if (!any) return;
    const ByteSpan file = ctx.bytes();
    SharedStringPlaces shared(sharedStringRecords);
    const std::size_t count = asset.nodes.size();  // nodes grafted below are not visited again
    for (std::size_t i = 0; i < count; ++i) {
        const Node& n = asset.nodes[i];
        if (n.embedded || n.kindId >= unionKind.size() || !unionKind[n.kindId]) continue;
        ctx.checkCancel(n.offset);
        for (const char* name : {"ChildData2", "ChildData"})
            if (const auto v = locate(asset, file, int(i), name, shared))
                addChildData(ctx, int(i), name, *v);
        for (const char* name : {"MeshData2", "MeshData", "PhysicsData"})
            if (const auto v = locate(asset, file, int(i), name, shared); v && v->at)
                mapCsgBlob(ctx, int(i), name, *v);
    }
}

}  // namespace meshscope::rbx
