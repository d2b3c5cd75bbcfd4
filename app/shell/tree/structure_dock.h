// The structure dock: the node tree (instances of a model, or a mesh file's structure) with a
// filter box. Selecting a row selects the node in the document, and the document's selection
// selects the row. On a large tree the filter waits for a pause in the typing (or Enter), so that
// one filtering pass runs per word instead of one per keystroke.
#pragma once

#include <QDockWidget>
#include <QString>
#include <cstddef>

class QLineEdit;
class QTimer;
class QSortFilterProxyModel;
class QTreeView;

namespace meshscope::shell {

class AssetDocument;
class ColumnFitter;
class NodeTreeModel;

class StructureDock : public QDockWidget {
    Q_OBJECT
public:
    explicit StructureDock(QWidget* parent = nullptr);
    void setDocument(AssetDocument* document);

    NodeTreeModel* model() const { return model_; }
    QTreeView* view() const { return view_; }
    QLineEdit* filterEdit() const { return filter_; }
    // Trees with more nodes than this filter after kFilterDelayMs without a keystroke; smaller
    // ones at every keystroke. Clearing the box always applies at once.
    static constexpr std::size_t kImmediateFilterNodes = 20000;
    static constexpr int kFilterDelayMs = 250;
    // True while typed text waits for that pause.
    bool filterPending() const;
    // The text the tree is filtered by now.
    QString appliedFilter() const;

private:
    void onDocumentSelection(int node);
    void onViewSelection();
    void onFilterTextChanged(const QString& text);
    void applyFilter();

    AssetDocument* document_ = nullptr;
    NodeTreeModel* model_ = nullptr;
    QSortFilterProxyModel* proxy_ = nullptr;
    QTreeView* view_ = nullptr;
    QLineEdit* filter_ = nullptr;
    QTimer* filterTimer_ = nullptr;
    ColumnFitter* columns_ = nullptr;
    QString applied_;  // the filter the proxy holds
    bool syncing_ = false;
};

}  // namespace meshscope::shell
