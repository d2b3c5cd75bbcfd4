// The structure dock: the node tree (instances of a model, or a mesh file's structure) with a
// filter box. Selecting a row selects the node in the document, and the document's selection
// selects the row.
#pragma once

#include <QDockWidget>

class QLineEdit;
class QSortFilterProxyModel;
class QTreeView;

namespace meshscope::shell {

class AssetDocument;
class NodeTreeModel;

class StructureDock : public QDockWidget {
    Q_OBJECT
public:
    explicit StructureDock(QWidget* parent = nullptr);
    void setDocument(AssetDocument* document);

    NodeTreeModel* model() const { return model_; }
    QTreeView* view() const { return view_; }
    QLineEdit* filterEdit() const { return filter_; }

private:
    void onDocumentSelection(int node);
    void onViewSelection();

    AssetDocument* document_ = nullptr;
    NodeTreeModel* model_ = nullptr;
    QSortFilterProxyModel* proxy_ = nullptr;
    QTreeView* view_ = nullptr;
    QLineEdit* filter_ = nullptr;
    bool syncing_ = false;
};

}  // namespace meshscope::shell
