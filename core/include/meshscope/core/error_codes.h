// The codes of decode errors and diagnostics (DecodeError::code, Diagnostic::code): short, stable
// identifiers that the CLI's JSON, the viewer and the tests compare against. Decoders and tests
// use these constants, so a misspelt code fails to compile and every code has one place that
// lists it. A new code is added here (and to kAll); a code is never renamed (the CLI's JSON
// carries it). The CSG, terrain and UNIGINE 2 codes were listed before their decoders met this
// header: those decoders may still write the strings (tests/core/robustness checks that every
// code the decoders give for the broken corpus is listed).
#pragma once

#include <algorithm>
#include <array>
#include <string_view>

namespace meshscope::errc {

// --- Codes any decoder or the registry gives
inline constexpr char kBadCount[] = "bad-count";
inline constexpr char kBadParent[] = "bad-parent";
inline constexpr char kBadSignature[] = "bad-signature";
inline constexpr char kBoneParentCycle[] = "bone-parent-cycle";
// DecodeOptions::cancel was set.
inline constexpr char kCancelled[] = "cancelled";
inline constexpr char kCountMismatch[] = "count-mismatch";
// A count read from the file needs more bytes than remain.
inline constexpr char kCountTooLarge[] = "count-too-large";
inline constexpr char kDraco[] = "draco";
inline constexpr char kGzip[] = "gzip";
inline constexpr char kInconsistentMesh[] = "inconsistent-mesh";
// An index read from the file points past its array.
inline constexpr char kIndexOutOfRange[] = "index-out-of-range";
// An exception escaped a decoder (a bug).
inline constexpr char kInternal[] = "internal";
// The file could not be opened or read.
inline constexpr char kIo[] = "io";
// A cap of Limits: allocation, decompression budget, depth.
inline constexpr char kLimit[] = "limit";
inline constexpr char kLz4[] = "lz4";
inline constexpr char kNodeCycle[] = "node-cycle";
inline constexpr char kNodeLinks[] = "node-links";
inline constexpr char kNonFiniteVertices[] = "non-finite-vertices";
// An allocation failed.
inline constexpr char kOutOfMemory[] = "out-of-memory";
// The 10 000 stored diagnostics are reached: later warnings are dropped.
inline constexpr char kTooManyWarnings[] = "too-many-warnings";
// Bytes after the last structure (kept in the byte map).
inline constexpr char kTrailingBytes[] = "trailing-bytes";
// The bytes end before a structure does.
inline constexpr char kTruncated[] = "truncated";
// A chunk the decoder does not know (kept as raw bytes).
inline constexpr char kUnknownChunk[] = "unknown-chunk";
// No decoder recognised the bytes.
inline constexpr char kUnknownFormat[] = "unknown-format";
inline constexpr char kUnsupportedVersion[] = "unsupported-version";
inline constexpr char kZlib[] = "zlib";
inline constexpr char kZstd[] = "zstd";

// --- Roblox FileMesh
inline constexpr char kBadFaceSize[] = "bad-face-size";
inline constexpr char kBadHeader[] = "bad-header";
inline constexpr char kBadLodSize[] = "bad-lod-size";
inline constexpr char kBadNameIndex[] = "bad-name-index";
inline constexpr char kBadSubset[] = "bad-subset";
inline constexpr char kBadVertexSize[] = "bad-vertex-size";
inline constexpr char kDracoAttribute[] = "draco-attribute";
inline constexpr char kDuplicateChunk[] = "duplicate-chunk";
inline constexpr char kFacsBones[] = "facs-bones";
inline constexpr char kFacsCorrectives[] = "facs-correctives";
inline constexpr char kFacsFormat[] = "facs-format";
inline constexpr char kFacsShape[] = "facs-shape";
// Face bones of the mesh's skeleton that no vertex is weighted to: controls that move only them
// leave the mesh as it is.
inline constexpr char kFacsUnweightedBones[] = "facs-unweighted-bones";
inline constexpr char kGitLfsPointer[] = "git-lfs-pointer";
inline constexpr char kHeaderSize[] = "header-size";
inline constexpr char kLodRange[] = "lod-range";
inline constexpr char kNoCoremesh[] = "no-coremesh";
inline constexpr char kNoTangents[] = "no-tangents";
inline constexpr char kOddFaceSize[] = "odd-face-size";
inline constexpr char kOddVertexSize[] = "odd-vertex-size";
inline constexpr char kSkinCount[] = "skin-count";
inline constexpr char kSkinUnresolved[] = "skin-unresolved";
inline constexpr char kSubsetRange[] = "subset-range";
inline constexpr char kSyntax[] = "syntax";
// A FACS structure of a version the decoder cannot read (a QuantizedMatrix version other than 1 or
// 2). Not "no decoder for this file": that is kUnknownFormat.
inline constexpr char kUnsupported[] = "unsupported";

// --- Roblox binary and XML models (terrain included)
inline constexpr char kBadBase64[] = "bad-base64";
inline constexpr char kBadChunkSize[] = "bad-chunk-size";
inline constexpr char kBadContent[] = "bad-content";
inline constexpr char kBadEnd[] = "bad-end";
inline constexpr char kBadMagic[] = "bad-magic";
inline constexpr char kBadObjectFormat[] = "bad-object-format";
inline constexpr char kBadOptionalCframe[] = "bad-optional-cframe";
inline constexpr char kBadRotationId[] = "bad-rotation-id";
inline constexpr char kBadSharedString[] = "bad-shared-string";
inline constexpr char kBadValue[] = "bad-value";
inline constexpr char kChunkCoordinate[] = "chunk-coordinate";
inline constexpr char kChunkSize[] = "chunk-size";
inline constexpr char kCompressedEnd[] = "compressed-end";
inline constexpr char kDanglingReferent[] = "dangling-referent";
inline constexpr char kDuplicateClassId[] = "duplicate-class-id";
inline constexpr char kDuplicateParent[] = "duplicate-parent";
inline constexpr char kDuplicateReferent[] = "duplicate-referent";
inline constexpr char kMissingEnd[] = "missing-end";
inline constexpr char kMissingParent[] = "missing-parent";
inline constexpr char kMissingType[] = "missing-type";
inline constexpr char kReferentCycle[] = "referent-cycle";
inline constexpr char kRunOverflow[] = "run-overflow";
inline constexpr char kSigned[] = "signed";
inline constexpr char kUnknownClassId[] = "unknown-class-id";
inline constexpr char kUnknownMaterial[] = "unknown-material";
inline constexpr char kUnknownReferent[] = "unknown-referent";
inline constexpr char kUnknownType[] = "unknown-type";
inline constexpr char kUnsupportedChunkVersion[] = "unsupported-chunk-version";
inline constexpr char kXml[] = "xml";

// --- Second Life mesh assets
inline constexpr char kAltCountMismatch[] = "alt-count-mismatch";
inline constexpr char kBadDomain[] = "bad-domain";
inline constexpr char kBadJointName[] = "bad-joint-name";
inline constexpr char kBadMatrix[] = "bad-matrix";
inline constexpr char kBadSubmesh[] = "bad-submesh";
inline constexpr char kBadVersion[] = "bad-version";
inline constexpr char kBlockOutOfRange[] = "block-out-of-range";
inline constexpr char kBlockWithoutRange[] = "block-without-range";
inline constexpr char kGzipBlock[] = "gzip-block";
inline constexpr char kHullCountMismatch[] = "hull-count-mismatch";
inline constexpr char kHullsWithPhysicsMesh[] = "hulls-with-physics-mesh";
inline constexpr char kIncompleteTriangle[] = "incomplete-triangle";
inline constexpr char kLlsd[] = "llsd";
inline constexpr char kMissingBindShape[] = "missing-bind-shape";
inline constexpr char kMissingBoundingVerts[] = "missing-bounding-verts";
inline constexpr char kMissingHighLod[] = "missing-high-lod";
inline constexpr char kMissingJointNames[] = "missing-joint-names";
inline constexpr char kMissingPositions[] = "missing-positions";
inline constexpr char kMissingTriangles[] = "missing-triangles";
inline constexpr char kMissingWeights[] = "missing-weights";
inline constexpr char kNoGeometry[] = "no-geometry";
inline constexpr char kNoVersion[] = "no-version";
inline constexpr char kPartialVertex[] = "partial-vertex";
inline constexpr char kPositionsWithoutHulls[] = "positions-without-hulls";
inline constexpr char kRawBlock[] = "raw-block";
inline constexpr char kSkinJointCountMismatch[] = "skin-joint-count-mismatch";
inline constexpr char kStreamLength[] = "stream-length";
inline constexpr char kSubmeshCountMismatch[] = "submesh-count-mismatch";
inline constexpr char kTooManyHulls[] = "too-many-hulls";
inline constexpr char kTruncatedWeights[] = "truncated-weights";
inline constexpr char kUnknownJoint[] = "unknown-joint";
inline constexpr char kWeightsWithoutSkin[] = "weights-without-skin";

// --- Unigine meshes and animations (UNIGINE 1 and 2)
inline constexpr char kBadBlockOffset[] = "bad-block-offset";
inline constexpr char kBadBoneIndex[] = "bad-bone-index";
inline constexpr char kBadIndex[] = "bad-index";
inline constexpr char kBadInt[] = "bad-int";
inline constexpr char kBadLength[] = "bad-length";
inline constexpr char kBadNameLength[] = "bad-name-length";
inline constexpr char kBlockSizeMismatch[] = "block-size-mismatch";
inline constexpr char kBoundsMismatch[] = "bounds-mismatch";
inline constexpr char kIncompleteFirstFrame[] = "incomplete-first-frame";
inline constexpr char kIndexCountMismatch[] = "index-count-mismatch";
inline constexpr char kMorphTargetsIgnored[] = "morph-targets-ignored";
inline constexpr char kNameWithoutNul[] = "name-without-nul";
inline constexpr char kNoBindPose[] = "no-bind-pose";
inline constexpr char kPartialTriangle[] = "partial-triangle";
inline constexpr char kTooManyInfluences[] = "too-many-influences";
inline constexpr char kUvCountMismatch[] = "uv-count-mismatch";

// --- Roblox CSG (union and negate) mesh data
inline constexpr char kAttributeCountMismatch[] = "attribute-count-mismatch";
inline constexpr char kBadClers[] = "bad-clers";
inline constexpr char kBadCsgkKey[] = "bad-csgk-key";
inline constexpr char kBadFloatSize[] = "bad-float-size";
inline constexpr char kBadRange[] = "bad-range";
inline constexpr char kBadRangeMarkers[] = "bad-range-markers";
inline constexpr char kCsgBlock[] = "csg-block";
inline constexpr char kCsgReferenceOnly[] = "csg-reference-only";
inline constexpr char kEdgebreaker[] = "edgebreaker";
inline constexpr char kLengthMismatch[] = "length-mismatch";
inline constexpr char kNonzeroPadding[] = "nonzero-padding";
inline constexpr char kUnusedIndexBytes[] = "unused-index-bytes";
inline constexpr char kUnusualHullPrefix[] = "unusual-hull-prefix";
inline constexpr char kUnusualVertexSize[] = "unusual-vertex-size";

// Every code above, for checks that a decoder gives no code outside this list.
inline constexpr std::array<const char*, 143> kAll = {
    kBadCount,
    kBadParent,
    kBadSignature,
    kBoneParentCycle,
    kCancelled,
    kCountMismatch,
    kCountTooLarge,
    kDraco,
    kGzip,
    kInconsistentMesh,
    kIndexOutOfRange,
    kInternal,
    kIo,
    kLimit,
    kLz4,
    kNodeCycle,
    kNodeLinks,
    kNonFiniteVertices,
    kOutOfMemory,
    kTooManyWarnings,
    kTrailingBytes,
    kTruncated,
    kUnknownChunk,
    kUnknownFormat,
    kUnsupportedVersion,
    kZlib,
    kZstd,
    kBadFaceSize,
    kBadHeader,
    kBadLodSize,
    kBadNameIndex,
    kBadSubset,
    kBadVertexSize,
    kDracoAttribute,
    kDuplicateChunk,
    kFacsBones,
    kFacsCorrectives,
    kFacsFormat,
    kFacsShape,
    kFacsUnweightedBones,
    kGitLfsPointer,
    kHeaderSize,
    kLodRange,
    kNoCoremesh,
    kNoTangents,
    kOddFaceSize,
    kOddVertexSize,
    kSkinCount,
    kSkinUnresolved,
    kSubsetRange,
    kSyntax,
    kUnsupported,
    kBadBase64,
    kBadChunkSize,
    kBadContent,
    kBadEnd,
    kBadMagic,
    kBadObjectFormat,
    kBadOptionalCframe,
    kBadRotationId,
    kBadSharedString,
    kBadValue,
    kChunkCoordinate,
    kChunkSize,
    kCompressedEnd,
    kDanglingReferent,
    kDuplicateClassId,
    kDuplicateParent,
    kDuplicateReferent,
    kMissingEnd,
    kMissingParent,
    kMissingType,
    kReferentCycle,
    kRunOverflow,
    kSigned,
    kUnknownClassId,
    kUnknownMaterial,
    kUnknownReferent,
    kUnknownType,
    kUnsupportedChunkVersion,
    kXml,
    kAltCountMismatch,
    kBadDomain,
    kBadJointName,
    kBadMatrix,
    kBadSubmesh,
    kBadVersion,
    kBlockOutOfRange,
    kBlockWithoutRange,
    kGzipBlock,
    kHullCountMismatch,
    kHullsWithPhysicsMesh,
    kIncompleteTriangle,
    kLlsd,
    kMissingBindShape,
    kMissingBoundingVerts,
    kMissingHighLod,
    kMissingJointNames,
    kMissingPositions,
    kMissingTriangles,
    kMissingWeights,
    kNoGeometry,
    kNoVersion,
    kPartialVertex,
    kPositionsWithoutHulls,
    kRawBlock,
    kSkinJointCountMismatch,
    kStreamLength,
    kSubmeshCountMismatch,
    kTooManyHulls,
    kTruncatedWeights,
    kUnknownJoint,
    kWeightsWithoutSkin,
    kBadBlockOffset,
    kBadBoneIndex,
    kBadIndex,
    kBadInt,
    kBadLength,
    kBadNameLength,
    kBlockSizeMismatch,
    kBoundsMismatch,
    kIncompleteFirstFrame,
    kIndexCountMismatch,
    kMorphTargetsIgnored,
    kNameWithoutNul,
    kNoBindPose,
    kPartialTriangle,
    kTooManyInfluences,
    kUvCountMismatch,
    kAttributeCountMismatch,
    kBadClers,
    kBadCsgkKey,
    kBadFloatSize,
    kBadRange,
    kBadRangeMarkers,
    kCsgBlock,
    kCsgReferenceOnly,
    kEdgebreaker,
    kLengthMismatch,
    kNonzeroPadding,
    kUnusedIndexBytes,
    kUnusualHullPrefix,
    kUnusualVertexSize,
};

inline bool isKnown(std::string_view code) {
    return std::any_of(kAll.begin(), kAll.end(), [code](const char* c) { return code == c; });
}

}  // namespace meshscope::errc
