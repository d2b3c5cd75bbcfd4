// The open document (see asset_document.h).
#include "document/asset_document.h"

#include <type_traits>

namespace meshscope::shell {

namespace {
const Asset& emptyAsset() {
    static const Asset empty;
    return empty;
}
}  // namespace

AssetDocument::AssetDocument(QObject* parent) : QObject(parent) {}
AssetDocument::~AssetDocument() = default;

const Asset& AssetDocument::asset() const {
    return result_ ? result_->asset : emptyAsset();
}

void AssetDocument::setDecoded(const QString& filePath, const QString& displayName,
                               QByteArray bytes, DecodeResult result, PartMeshes parts) {
    viewState_.reset();
    result_ = std::make_unique<DecodeResult>(std::move(result));
    std::vector<Diagnostic>& diagnostics = result_->asset.diagnostics;
    diagnostics.insert(diagnostics.end(), std::make_move_iterator(parts.diagnostics.begin()),
                       std::make_move_iterator(parts.diagnostics.end()));
    parts.diagnostics.clear();
    parts_ = std::move(parts);
    fileSize_ = bytes.size();
    inflated_ = result_->innerBytes.has_value();
    if (inflated_) {
        // The map indexes the inflated bytes: keep those (one copy, then the result's is freed)
        // and let the compressed ones go.
        const Bytes& inner = *result_->innerBytes;
        bytes_ = QByteArray(reinterpret_cast<const char*>(inner.data()), qsizetype(inner.size()));
        result_->innerBytes.reset();
    } else {
        bytes_ = std::move(bytes);
    }
    filePath_ = filePath;
    displayName_ = displayName;
    selectedNode_ = -1;
    selectionOffset_ = selectionLength_ = 0;
    emit assetChanged();
    emit selectionChanged(-1, 0, 0);
}

void AssetDocument::clear() {
    viewState_.reset();
    result_.reset();
    parts_ = {};
    bytes_.clear();
    fileSize_ = 0;
    inflated_ = false;
    filePath_.clear();
    displayName_.clear();
    selectedNode_ = -1;
    selectionOffset_ = selectionLength_ = 0;
    emit assetChanged();
    emit selectionChanged(-1, 0, 0);
}

std::size_t AssetDocument::releaseStaticMeshArrays() {
    if (!result_) return 0;
    std::size_t freed = 0;
    const auto release = [&freed](auto& v) {
        freed += v.capacity() * sizeof(v[0]);
        std::remove_reference_t<decltype(v)>().swap(v);
    };
    for (Mesh& m : result_->asset.meshes) {
        if (m.skinned() || !m.morphTargets.empty() || m.facs >= 0) continue;
        if (!m.bounds.valid()) m.computeBounds();
        release(m.positions);
        release(m.normals);
        release(m.uv0);
        release(m.uv1);
        release(m.tangents);
        release(m.colors);
        release(m.indices);
    }
    return freed;
}

void AssetDocument::selectNode(int node) {
    const Asset& a = asset();
    if (node < 0 || node >= static_cast<int>(a.nodes.size())) {
        setSelection(-1, 0, 0);
        return;
    }
    const Node& n = a.nodes[static_cast<std::size_t>(node)];
    quint64 offset = n.offset, length = n.length;
    if (length == 0) {
        for (const ByteRange& r : a.byteMap.ranges()) {
            if (r.node == node) {
                offset = r.offset;
                length = r.length;
                break;
            }
        }
    }
    setSelection(node, offset, length);
}

int AssetDocument::nodeAt(quint64 offset) const {
    const Asset& a = asset();
    const int count = static_cast<int>(a.nodes.size());
    int best = -1;
    std::uint64_t bestLength = ~std::uint64_t(0);
    for (int i = 0; i < count; ++i) {
        const Node& n = a.nodes[static_cast<std::size_t>(i)];
        if (n.length > 0 && offset >= n.offset && offset - n.offset < n.length &&
            n.length < bestLength) {
            best = i;
            bestLength = n.length;
        }
    }
    // The innermost byte-map range with an owner: walk the containment stack from the inside out.
    const std::vector<int> stack = a.byteMap.stackAt(offset);
    for (auto it = stack.rbegin(); it != stack.rend(); ++it) {
        const ByteRange& r = a.byteMap.ranges()[static_cast<std::size_t>(*it)];
        if (r.node >= 0 && r.node < count) {
            if (r.length < bestLength) best = r.node;
            break;
        }
    }
    return best;
}

int AssetDocument::meshOfNode(int node) const {
    const Asset& a = asset();
    if (node < 0 || node >= static_cast<int>(a.nodes.size())) return -1;
    const NodeLinks& links = a.links(node);
    int mesh = links.mesh;
    // A LOD node without a mesh of its own shows its parent's mesh.
    for (int p = a.nodes[static_cast<std::size_t>(node)].parent;
         mesh < 0 && links.lod >= 0 && p >= 0; p = a.nodes[static_cast<std::size_t>(p)].parent)
        mesh = a.links(p).mesh;
    return mesh;
}

void AssetDocument::selectBytes(quint64 offset, quint64 length, int node) {
    if (node < 0 || node >= static_cast<int>(asset().nodes.size())) node = nodeAt(offset);
    setSelection(node, offset, length);
}

void AssetDocument::setSelection(int node, quint64 offset, quint64 length) {
    if (node == selectedNode_ && offset == selectionOffset_ && length == selectionLength_) return;
    selectedNode_ = node;
    selectionOffset_ = offset;
    selectionLength_ = length;
    emit selectionChanged(node, offset, length);
}

}  // namespace meshscope::shell
