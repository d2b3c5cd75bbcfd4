// Helpers for the Second Life tests: zlib compression, hand-built assets from LLSD blocks (for
// the broken inputs the writer refuses to make), the feature-complete sample asset and lookups.
#pragma once

#include <zlib.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "formats/secondlife/llsd.h"
#include "meshscope/core/decode.h"

namespace meshscope::sltest {

inline Bytes zlibCompress(const Bytes& in) {
    uLongf len = compressBound(in.size());
    Bytes out(len);
    compress2(out.data(), &len, in.data(), in.size(), 9);
    out.resize(len);
    return out;
}

inline Bytes llsdBytes(const Llsd& v) {
    Bytes b;
    appendBinaryLlsd(b, v);
    return b;
}

// An asset whose blocks are the given LLSD documents, each zlib-compressed, laid out in order
// after a header holding `headerExtras` first and then {offset, size} per block.
inline Bytes buildAsset(const std::vector<std::pair<std::string, Llsd>>& blocks,
                        const Llsd& headerExtras = Llsd::map()) {
    Llsd header = Llsd::map();
    for (std::size_t i = 0; i < headerExtras.size(); ++i)
        header.set(headerExtras.keys()[i], headerExtras.items()[i]);
    std::vector<Bytes> data;
    std::int32_t offset = 0;
    for (const auto& [name, doc] : blocks) {
        data.push_back(zlibCompress(llsdBytes(doc)));
        Llsd e = Llsd::map();
        e.set("offset", Llsd::integer(offset));
        e.set("size", Llsd::integer(static_cast<std::int32_t>(data.back().size())));
        header.set(name, e);
        offset += static_cast<std::int32_t>(data.back().size());
    }
    Bytes out = llsdBytes(header);
    for (const auto& d : data) out.insert(out.end(), d.begin(), d.end());
    return out;
}

inline Bytes u16s(std::initializer_list<unsigned> values) {
    Bytes b;
    for (unsigned v : values) {
        b.push_back(static_cast<std::uint8_t>(v & 0xff));
        b.push_back(static_cast<std::uint8_t>(v >> 8));
    }
    return b;
}

inline Llsd triangleFace(Bytes positions, Bytes triangles) {
    Llsd f = Llsd::map();
    f.set("Position", Llsd::binary(std::move(positions)));
    f.set("TriangleList", Llsd::binary(std::move(triangles)));
    return f;
}

inline Llsd faces(std::initializer_list<Llsd> list) {
    Llsd a = Llsd::array();
    for (const auto& f : list) a.push(f);
    return a;
}

inline const Mesh* findMesh(const Asset& a, const std::string& name) {
    for (const auto& m : a.meshes)
        if (m.name == name) return &m;
    return nullptr;
}

// The first node of that name and kind, or -1.
inline int findNode(const Asset& a, const std::string& name, const std::string& kind) {
    for (std::size_t i = 0; i < a.nodes.size(); ++i)
        if (a.name(int(i)) == name && a.kind(int(i)) == kind) return int(i);
    return -1;
}

inline bool hasDiagnostic(const Asset& a, const std::string& code) {
    return std::any_of(a.diagnostics.begin(), a.diagnostics.end(),
                       [&](const Diagnostic& d) { return d.code == code; });
}

inline DecodeResult decode(const Bytes& b, const Limits& limits = {}) {
    DecodeOptions o;
    o.limits = limits;
    return decodeBytes(b, o);
}

}  // namespace meshscope::sltest
