// Item model over Asset::nodes (the instance tree of a model, or a mesh file's own structure):
// columns Name and Kind; the internal id of an index is the node index. Follows the document.
#pragma once

#include <QAbstractItemModel>
#include <span>
#include <vector>

namespace meshscope::shell {

class AssetDocument;

class NodeTreeModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column { NameColumn, KindColumn, ColumnCount };
    static constexpr int NodeRole = Qt::UserRole + 1;

    explicit NodeTreeModel(AssetDocument* document, QObject* parent = nullptr);

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    QModelIndex indexForNode(int node, int column = NameColumn) const;
    static int nodeOf(const QModelIndex& index);

private:
    void rebuild();
    std::span<const int> childrenOf(int node) const;

    AssetDocument* document_;
    std::vector<int> roots_;
    std::vector<int> rowInParent_;  // per node
    // A place's Terrain: its node, a summary for the Kind column and the per-material counts for
    // its tooltip.
    int terrainNode_ = -1;
    QString terrainSummary_;
    QString terrainTip_;
};

}  // namespace meshscope::shell
