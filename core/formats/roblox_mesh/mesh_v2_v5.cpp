// FileMesh 2.00 to 5.00: a fixed binary header after the version line, then vertices,
// [skinning], faces, [LOD offsets], [bones, bone names, subsets], [FACS blob].
//   v2   12-byte header: sizes of header / vertex / face, numVerts, numFaces
//   v3   16 bytes: + sizeof_LodOffset, numLodOffsets (3.00 and 3.01 share the layout)
//   v4   24 bytes: lodType, counts, numHighQualityLODs and a padding byte (4.00 and 4.01)
//   v5   32 bytes: v4 + facsDataFormat, facsDataSize
#include "formats/roblox_mesh/mesh_decoder.h"
#include "meshscope/core/error_codes.h"

namespace meshscope::filemesh {

namespace {

std::string str(std::uint64_t v) {
    return std::to_string(v);
}

}  // namespace

void decodeFixedV2V5(Builder& b) {
    DecodeContext& ctx = b.ctx;
    ByteReader r(ctx, ctx.bytes());
    r.seek(b.version.dataStart);
    const int major = b.version.major;

    std::uint32_t vertexSize = 40, faceSize = 12, lodSize = 4;
    std::uint64_t numVerts = 0, numFaces = 0, numLods = 0, numBones = 0, nameSize = 0,
                  numSubsets = 0;
    std::uint32_t facsFormat = 0, facsSize = 0;
    const std::uint64_t headerAt = r.offset();
    const int header = b.addNode("header", "header", b.root, headerAt, 0);
    {
        auto scope = ctx.scope("header");
        const std::uint16_t headerSize = b.field<std::uint16_t>(r, header, "sizeof_FileMeshHeader");
        std::size_t known = 12;
        if (major == 2 || major == 3) {
            vertexSize = b.field<std::uint8_t>(r, header, "sizeof_FileMeshVertex");
            faceSize = b.field<std::uint8_t>(r, header, "sizeof_FileMeshFace");
            if (major == 3) {
                lodSize = b.field<std::uint16_t>(r, header, "sizeof_LodOffset");
                numLods = b.field<std::uint16_t>(r, header, "numLodOffsets");
                known = 16;
            }
            numVerts = b.field<std::uint32_t>(r, header, "numVerts");
            numFaces = b.field<std::uint32_t>(r, header, "numFaces");
        } else {
            const std::uint16_t lodType = b.field<std::uint16_t>(r, header, "lodType");
            numVerts = b.field<std::uint32_t>(r, header, "numVerts");
            numFaces = b.field<std::uint32_t>(r, header, "numFaces");
            numLods = b.field<std::uint16_t>(r, header, "numLodOffsets");
            numBones = b.field<std::uint16_t>(r, header, "numBones");
            nameSize = b.field<std::uint32_t>(r, header, "sizeof_boneNames");
            numSubsets = b.field<std::uint16_t>(r, header, "numSubsets");
            b.field<std::uint8_t>(r, header, "numHighQualityLODs");
            // In real v4.01 files this byte can hold any value (krakow10 7665777615): ignore it.
            b.field<std::uint8_t>(r, header, "unused");
            known = 24;
            if (major == 5) {
                facsFormat = b.field<std::uint32_t>(r, header, "facsDataFormat");
                facsSize = b.field<std::uint32_t>(r, header, "facsDataSize");
                known = 32;
            }
            // lodType 4 occurs in 4.01, 5.00 and 7.00 files though the document stops at 3.
            const char* names[] = {"None", "Unknown", "RbxSimplifier", "ZeuxMeshOptimizer"};
            b.property(
                header, "lodTypeName", "string",
                std::string(lodType < 4 ? names[lodType] : "unlisted (" + str(lodType) + ")"));
        }
        if (headerSize < known)
            ctx.fail(headerAt, errc::kBadHeader,
                     "header size " + str(headerSize) + " is smaller than the " + str(known) +
                         " bytes of a version " + b.version.text + " header");
        if (headerSize > known) {
            ctx.warn(r.offset(), errc::kHeaderSize,
                     "header size " + str(headerSize) + " is larger than the " + str(known) +
                         " known bytes; the extra bytes are skipped");
            const std::uint64_t extraAt = r.offset();
            r.skip(headerSize - known, "header extra bytes");
            ctx.mapRange(extraAt, headerSize - known, RangeKind::Padding, "unknown", header);
        }
        b.setBytes(header, headerAt, headerSize);
        ctx.mapRange(headerAt, headerSize, RangeKind::Header, {}, header);
    }

    readVertices(r, b, numVerts, vertexSize, b.root);
    // Skinning is present only when there are bones (meshes with numBones 0 exist on production).
    if (major >= 4 && numBones > 0) readEnvelopes(r, b, numVerts, b.root);
    readFaces(r, b, numFaces, faceSize, b.root);
    if (major >= 3) readLodOffsets(r, b, numLods, lodSize, b.root);
    if (major >= 4) {
        if (numBones > 0) readBones(r, b, numBones, b.root);
        if (nameSize > 0 || numBones > 0)
            readBoneNames(r, b, nameSize, b.skeletonNode >= 0 ? b.skeletonNode : b.root);
        if (numSubsets > 0) readSubsets(r, b, numSubsets, b.root);
    }
    if (major == 5 && facsSize > 0) {
        if (facsFormat != 1)
            ctx.warn(headerAt + 24, errc::kFacsFormat,
                     "facsDataFormat " + str(facsFormat) + " (every known file has 1)");
        if (facsFormat == 0) {
            const std::uint64_t at = r.offset();
            r.skip(r.checkCount(facsSize, 1, "FACS data"), "FACS data");
            ctx.mapRange(at, facsSize, RangeKind::Payload, "FACS (facsDataFormat 0)", b.root);
        } else {
            readFacs(r, b, facsSize, b.root);
            for (std::size_t n = 0; n < b.asset.nodes.size(); ++n)
                if (b.asset.kind(int(n)) == "facs")
                    b.asset.addProperty(int(n), {"facsDataFormat", "uint32",
                                                 std::int64_t(facsFormat), headerAt + 24, 4});
        }
    }
    if (!r.atEnd()) {
        ctx.warn(r.offset(), errc::kTrailingBytes,
                 str(r.remaining()) + " bytes after the mesh data");
        ctx.mapRange(r.offset(), r.remaining(), RangeKind::Padding, "trailing bytes", b.root);
    }
}

}  // namespace meshscope::filemesh
