// The FileMesh FACS blob (FileMeshFacsData), shared by v5.00 (after the subsets) and the FACS
// chunk of v6/v7: face bone names, control names, six quantized matrices (px py pz rx ry rz) and
// the two- and three-pose correctives. Fills one FacsRig.
#include <algorithm>
#include <cstring>

#include "formats/roblox_mesh/mesh_decoder.h"
#include "meshscope/core/error_codes.h"

namespace meshscope::filemesh {

namespace {

std::string str(std::uint64_t v) {
    return std::to_string(v);
}

// Splits a buffer of NUL-terminated strings; a missing final NUL still ends the last name.
std::vector<std::string> splitNames(ByteSpan s) {
    std::vector<std::string> out;
    std::size_t start = 0;
    for (std::size_t i = 0; i <= s.size(); ++i) {
        if (i == s.size() || s[i] == 0) {
            if (i > start || i < s.size())
                out.emplace_back(reinterpret_cast<const char*>(s.data()) + start, i - start);
            start = i + 1;
        }
    }
    return out;
}

constexpr const char* kChannels[6] = {"px", "py", "pz", "rx", "ry", "rz"};

// One QuantizedMatrix: u16 version, u32 rows, u32 cols, then v1 raw floats or
// v2 min, max and u16 values (value = min + q * (max - min) / 65535).
void readMatrix(ByteReader& q, Builder& b, FacsRig& rig, int channel, bool first, int node) {
    auto scope = b.ctx.scope(kChannels[channel]);
    const std::uint64_t at = q.offset();
    const std::uint16_t version = q.u16("matrix version");
    const std::uint32_t rows = q.u32("rows");
    const std::uint32_t cols = q.u32("cols");
    const std::uint64_t cells = std::uint64_t(rows) * cols;
    std::vector<float>& out = rig.channels[channel];
    if (version == 1) {
        q.readArray(out, cells, "matrix values");
    } else if (version == 2) {
        const float lo = q.f32("min"), hi = q.f32("max");
        std::vector<std::uint16_t> raw;
        q.readArray(raw, cells, "matrix values");
        out.resize(raw.size());
        const float step = (hi - lo) / 65535.0f;
        for (std::size_t i = 0; i < raw.size(); ++i) out[i] = lo + float(raw[i]) * step;
    } else {
        b.ctx.fail(
            at, errc::kUnsupported,
            "QuantizedMatrix version " + str(version) + " (known: 1 raw floats, 2 quantized)");
    }
    b.ctx.mapRange(at, q.offset() - at, RangeKind::Record, {}, node);
    b.ctx.mapRange(at, 10, RangeKind::Header, "header", node);
    b.property(node, std::string(kChannels[channel]) + " version", "uint16", std::int64_t(version),
               at, 2);
    if (first) {
        rig.rows = rows;
        rig.cols = cols;
    } else if (rows != rig.rows || cols != rig.cols) {
        b.ctx.warn(at, errc::kFacsShape,
                   std::string(kChannels[channel]) + " is " + str(rows) + " × " + str(cols) +
                       " but px is " + str(rig.rows) + " × " + str(rig.cols) +
                       "; its values are replaced by zeros");
        out.assign(std::size_t(rig.rows) * rig.cols, 0.0f);
    }
}

}  // namespace

void readFacs(ByteReader& r, Builder& b, std::uint64_t size, int parent) {
    auto scope = b.ctx.scope("FACS");
    const std::uint64_t at = r.offset();
    ByteReader f = r.sub(r.checkCount(size, 1, "FACS data"), "FACS data");

    Asset& a = b.asset;
    const int index = int(a.facs.size());
    a.facs.emplace_back();
    b.mesh().facs = index;
    const int node = b.addNode("FACS", "facs", parent, at, size);
    a.linksOf(node).facs = index;
    a.linksOf(node).mesh = 0;
    b.ctx.mapRange(at, size, RangeKind::Chunk, {}, node);

    std::uint32_t boneNamesSize, controlNamesSize, twoSize, threeSize;
    std::uint64_t quantizedSize;
    {
        auto h = b.ctx.scope("header");
        b.ctx.mapRange(f.offset(), 24, RangeKind::Header, {}, node);
        boneNamesSize = b.field<std::uint32_t>(f, node, "sizeof_faceBoneNamesBlob");
        controlNamesSize = b.field<std::uint32_t>(f, node, "sizeof_faceControlNamesBlob");
        quantizedSize = b.field<std::uint64_t>(f, node, "sizeof_quantizedTransforms");
        twoSize = b.field<std::uint32_t>(f, node, "sizeof_twoPoseCorrectives");
        threeSize = b.field<std::uint32_t>(f, node, "sizeof_threePoseCorrectives");
    }
    FacsRig& rig = a.facs[std::size_t(index)];

    const std::uint64_t bonesAt = f.offset();
    const ByteSpan boneNames =
        f.bytes(f.checkCount(boneNamesSize, 1, "face bone names"), "face bone names");
    b.ctx.mapRange(bonesAt, boneNames.size(), RangeKind::Array, "faceBoneNames", node);
    rig.boneNames = splitNames(boneNames);

    const std::uint64_t controlsAt = f.offset();
    const ByteSpan controlNames =
        f.bytes(f.checkCount(controlNamesSize, 1, "face control names"), "face control names");
    b.ctx.mapRange(controlsAt, controlNames.size(), RangeKind::Array, "faceControlNames", node);
    rig.controlNames = splitNames(controlNames);

    const std::uint64_t transformsAt = f.offset();
    ByteReader q =
        f.sub(f.checkCount(quantizedSize, 1, "quantized transforms"), "quantized transforms");
    const int transformsNode = b.addNode("transforms", "group", node, transformsAt, quantizedSize);
    {
        auto t = b.ctx.scope("quantizedTransforms");
        b.ctx.mapRange(transformsAt, quantizedSize, RangeKind::Array, {}, transformsNode);
        for (int c = 0; c < 6; ++c) readMatrix(q, b, rig, c, c == 0, transformsNode);
        if (!q.atEnd()) {
            b.ctx.warn(q.offset(), errc::kTrailingBytes,
                       str(q.remaining()) + " bytes after the six matrices");
            b.ctx.mapRange(q.offset(), q.remaining(), RangeKind::Padding, "trailing",
                           transformsNode);
        }
    }

    auto readCorrectives = [&](std::uint32_t bytes, std::size_t members, const char* name) {
        auto s = b.ctx.scope(name);
        const std::uint64_t cat = f.offset();
        std::vector<std::uint16_t> v;
        f.readArray(v, f.checkCount(bytes, 1, name) / 2, name);
        if (bytes % 2) f.skip(1);
        b.ctx.mapRange(cat, bytes, RangeKind::Array, {}, node);
        if (bytes % (2 * members))
            b.ctx.warn(cat, errc::kFacsCorrectives,
                       std::string(name) + ": " + str(bytes) + " bytes is not a whole number of " +
                           str(2 * members) + "-byte records");
        for (std::size_t i = 0; i + members <= v.size(); i += members)
            rig.correctives.emplace_back(v.begin() + std::ptrdiff_t(i),
                                         v.begin() + std::ptrdiff_t(i + members));
    };
    readCorrectives(twoSize, 2, "twoPoseCorrectives");
    readCorrectives(threeSize, 3, "threePoseCorrectives");
    if (!f.atEnd()) {
        b.ctx.warn(f.offset(), errc::kTrailingBytes,
                   str(f.remaining()) + " bytes after the FACS data");
        b.ctx.mapRange(f.offset(), f.remaining(), RangeKind::Padding, "trailing", node);
    }

    if (rig.rows != rig.boneNames.size())
        b.ctx.warn(transformsAt, errc::kFacsShape,
                   "the matrices have " + str(rig.rows) + " rows for " + str(rig.boneNames.size()) +
                       " face bones");
    if (rig.cols != rig.columnCount())
        b.ctx.warn(transformsAt, errc::kFacsShape,
                   "the matrices have " + str(rig.cols) + " columns for " +
                       str(rig.controlNames.size()) + " controls + " + str(rig.correctives.size()) +
                       " correctives");
    std::uint32_t badMember = 0;
    for (const auto& c : rig.correctives)
        for (std::uint16_t m : c)
            if (m >= rig.controlNames.size())
                badMember = std::max<std::uint32_t>(badMember, m + 1u);
    if (badMember)
        b.ctx.warn(controlsAt, errc::kFacsCorrectives,
                   "a corrective names control " + str(badMember - 1) + " but there are " +
                       str(rig.controlNames.size()) + " controls");

    b.property(node, "rows", "uint32", std::int64_t(rig.rows));
    b.property(node, "cols", "uint32", std::int64_t(rig.cols));
    // Face bones are matched by name to the skeleton the head is worn on: in a real v5 head 60 of
    // 61 are not in the mesh's own skeleton. Show them all; say which are local.
    const Skeleton* sk = a.skeletons.empty() ? nullptr : &a.skeletons[0];
    const int bonesNode = b.addNode("face bones", "group", node, bonesAt, boneNames.size());
    std::size_t unmatched = 0;
    b.faceBoneNodes.clear();
    b.faceBonesOffset = bonesAt;
    for (std::size_t i = 0; i < rig.boneNames.size(); ++i) {
        const int n = b.addNode(rig.boneNames[i], "faceBone", bonesNode);
        b.faceBoneNodes.push_back(n);
        a.linksOf(n).facs = index;
        const bool local = sk && sk->find(rig.boneNames[i]) >= 0;
        unmatched += !local;
        b.property(n, "row", "uint32", std::int64_t(i));
        b.property(n, "inMeshSkeleton", "bool", local);
    }
    if (unmatched && !rig.boneNames.empty())
        b.ctx.info(bonesAt, errc::kFacsBones,
                   str(unmatched) + " of " + str(rig.boneNames.size()) +
                       " face bones are not in the mesh's skeleton (they are matched by name to "
                       "the avatar's skeleton)");
    const int controlsNode = b.addNode("controls", "group", node, controlsAt, controlNames.size());
    const std::vector<std::string> columns = rig.columnNames();
    for (std::size_t i = 0; i < columns.size(); ++i) {
        const bool corrective = i >= rig.controlNames.size();
        const int n = b.addNode(columns[i], corrective ? "corrective" : "control", controlsNode);
        a.linksOf(n).facs = index;
        b.property(n, "column", "uint32", std::int64_t(i));
    }
}

}  // namespace meshscope::filemesh
