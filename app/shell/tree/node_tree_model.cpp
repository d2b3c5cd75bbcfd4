// Node tree model (see node_tree_model.h).
#include "tree/node_tree_model.h"

#include <QApplication>
#include <QFont>
#include <QStyle>

#include "document/asset_document.h"
#include "meshscope/core/roblox_parts.h"
#include "meshscope/core/roblox_terrain.h"
#include "tree/class_icons.h"
#include "widgets/qt_strings.h"

namespace meshscope::shell {

NodeTreeModel::NodeTreeModel(AssetDocument* document, QObject* parent)
    : QAbstractItemModel(parent), document_(document) {
    connect(document_, &AssetDocument::assetChanged, this, &NodeTreeModel::rebuild);
    rebuild();
}

void NodeTreeModel::rebuild() {
    beginResetModel();
    const Asset& a = document_->asset();
    roots_ = a.roots();
    rowInParent_.assign(a.nodes.size(), 0);
    for (std::size_t i = 0; i < roots_.size(); ++i) rowInParent_[std::size_t(roots_[i])] = int(i);
    for (const std::vector<int>& children : a.childLists)
        for (std::size_t i = 0; i < children.size(); ++i)
            if (children[i] >= 0 && std::size_t(children[i]) < a.nodes.size())
                rowInParent_[std::size_t(children[i])] = int(i);
    terrainNode_ = -1;
    terrainSummary_.clear();
    terrainTip_.clear();
    if (isRobloxModel(a)) {
        const int node = findTerrainNode(a);
        if (const std::optional<TerrainInfo> t = node >= 0 ? readTerrain(a, node) : std::nullopt;
            t && !t->grid.chunks.empty()) {
            const TerrainGrid& g = t->grid;
            terrainNode_ = node;
            terrainSummary_ = tr("Terrain: %1 chunks, %2 solid voxels, %3 water voxels")
                                  .arg(g.chunks.size())
                                  .arg(g.solidVoxels)
                                  .arg(g.waterVoxels);
            for (std::size_t m = 0; m < g.materialVoxels.size(); ++m) {
                if (!g.materialVoxels[m]) continue;
                const char* name = terrainMaterialName(int(m));
                terrainTip_ += QStringLiteral("<br>%1: %2 voxels")
                                   .arg(name ? QString::fromLatin1(name)
                                             : QStringLiteral("material %1").arg(m))
                                   .arg(g.materialVoxels[m]);
            }
            if (g.error)
                terrainTip_ += QStringLiteral("<br>") +
                               QString::fromStdString(g.error->toString()).toHtmlEscaped();
        }
    }
    endResetModel();
}

std::span<const int> NodeTreeModel::childrenOf(int node) const {
    if (node < 0) return roots_;
    return document_->asset().children(node);
}

int NodeTreeModel::nodeOf(const QModelIndex& index) {
    return index.isValid() ? int(index.internalId()) : -1;
}

QModelIndex NodeTreeModel::index(int row, int column, const QModelIndex& parent) const {
    if (column < 0 || column >= ColumnCount || row < 0) return {};
    const std::span<const int> kids = childrenOf(nodeOf(parent));
    if (row >= int(kids.size())) return {};
    return createIndex(row, column, quintptr(kids[std::size_t(row)]));
}

QModelIndex NodeTreeModel::parent(const QModelIndex& child) const {
    const int node = nodeOf(child);
    if (node < 0) return {};
    const int p = document_->asset().nodes[std::size_t(node)].parent;
    if (p < 0) return {};
    return createIndex(rowInParent_[std::size_t(p)], 0, quintptr(p));
}

int NodeTreeModel::rowCount(const QModelIndex& parent) const {
    if (parent.isValid() && parent.column() != 0) return 0;
    return int(childrenOf(nodeOf(parent)).size());
}

int NodeTreeModel::columnCount(const QModelIndex&) const {
    return ColumnCount;
}

QVariant NodeTreeModel::data(const QModelIndex& index, int role) const {
    const int node = nodeOf(index);
    if (node < 0) return {};
    const Asset& a = document_->asset();
    const Node& n = a.nodes[std::size_t(node)];
    switch (role) {
        case Qt::DisplayRole:
            if (index.column() == NameColumn)
                return a.name(node).empty() ? QStringLiteral("(%1)").arg(toQString(a.kind(node)))
                                            : toQString(a.name(node));
            if (node == terrainNode_) return terrainSummary_;
            return toQString(a.kind(node));
        case Qt::ToolTipRole: {
            QString tip = QStringLiteral("<b>%1</b> (%2)")
                              .arg(toQString(a.name(node)).toHtmlEscaped(),
                                   toQString(a.kind(node)).toHtmlEscaped());
            if (n.length)
                tip += QStringLiteral("<br>bytes 0x%1 … 0x%2 (%3 bytes)")
                           .arg(n.offset, 0, 16)
                           .arg(n.offset + n.length - 1, 0, 16)
                           .arg(n.length);
            if (node == terrainNode_) tip += QStringLiteral("<br>") + terrainSummary_ + terrainTip_;
            return tip;
        }
        case Qt::DecorationRole:
            if (index.column() != NameColumn) return {};
            if (isRobloxModel(a))
                if (QIcon icon = classIcon(a.kind(node), n.service); !icon.isNull()) return icon;
            if (a.links(node).mesh >= 0 || a.links(node).lod >= 0)
                return QApplication::style()->standardIcon(QStyle::SP_FileDialogDetailedView);
            if (!a.children(node).empty())
                return QApplication::style()->standardIcon(QStyle::SP_DirIcon);
            return QApplication::style()->standardIcon(QStyle::SP_FileIcon);
        case Qt::FontRole:
            if (n.service) {
                QFont f;
                f.setItalic(true);
                return f;
            }
            return {};
        case NodeRole:
            return node;
        default:
            return {};
    }
}

QVariant NodeTreeModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    return section == NameColumn ? tr("Name") : tr("Kind");
}

QModelIndex NodeTreeModel::indexForNode(int node, int column) const {
    const Asset& a = document_->asset();
    if (node < 0 || node >= int(a.nodes.size())) return {};
    return createIndex(rowInParent_[std::size_t(node)], column, quintptr(node));
}

}  // namespace meshscope::shell
