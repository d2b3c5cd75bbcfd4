// The structure dock (see structure_dock.h).
#include "tree/structure_dock.h"

#include <QItemSelectionModel>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QTimer>
#include <QTreeView>
#include <QVBoxLayout>

#include "document/asset_document.h"
#include "tree/node_tree_model.h"
#include "widgets/column_fitter.h"

namespace meshscope::shell {

StructureDock::StructureDock(QWidget* parent) : QDockWidget(tr("Structure"), parent) {
    setObjectName(QStringLiteral("StructureDock"));
    auto* body = new QWidget(this);
    auto* layout = new QVBoxLayout(body);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->setSpacing(4);
    filter_ = new QLineEdit(body);
    filter_->setPlaceholderText(tr("Filter by name or kind"));
    filter_->setClearButtonEnabled(true);
    view_ = new QTreeView(body);
    view_->setUniformRowHeights(true);
    view_->setAlternatingRowColors(true);
    view_->setSelectionMode(QAbstractItemView::SingleSelection);
    view_->setSelectionBehavior(QAbstractItemView::SelectRows);
    view_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    // Expand / collapse the whole tree from the context menu.
    view_->setContextMenuPolicy(Qt::ActionsContextMenu);
    view_->addAction(tr("Expand All"), view_, &QTreeView::expandAll);
    view_->addAction(tr("Collapse All"), view_, &QTreeView::collapseAll);
    layout->addWidget(filter_);
    layout->addWidget(view_);
    setWidget(body);
    // Kinds take what they need up to 2/5 of the width, names the rest: sized to their
    // contents, kinds such as NonReplicatedCSGDictionaryService left nested names a few letters
    // in a dock of the default width.
    columns_ =
        new ColumnFitter(view_, NodeTreeModel::NameColumn, {{NodeTreeModel::KindColumn, 0.4}});

    proxy_ = new QSortFilterProxyModel(this);
    proxy_->setRecursiveFilteringEnabled(true);
    proxy_->setFilterCaseSensitivity(Qt::CaseInsensitive);
    proxy_->setFilterKeyColumn(-1);
    view_->setModel(proxy_);
    filterTimer_ = new QTimer(this);
    filterTimer_->setSingleShot(true);
    filterTimer_->setInterval(kFilterDelayMs);
    connect(filterTimer_, &QTimer::timeout, this, &StructureDock::applyFilter);
    connect(filter_, &QLineEdit::textChanged, this, &StructureDock::onFilterTextChanged);
    connect(filter_, &QLineEdit::returnPressed, this, &StructureDock::applyFilter);
    connect(view_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &StructureDock::onViewSelection);
}

void StructureDock::setDocument(AssetDocument* document) {
    if (document_) disconnect(document_, nullptr, this, nullptr);
    document_ = document;
    delete model_;
    model_ = new NodeTreeModel(document, this);
    proxy_->setSourceModel(model_);
    auto expandTop = [this]() {
        view_->collapseAll();
        view_->expandToDepth(1);
        columns_->fit();
    };
    connect(document_, &AssetDocument::assetChanged, this, expandTop);
    connect(document_, &AssetDocument::selectionChanged, this,
            [this](int node, quint64, quint64) { onDocumentSelection(node); });
    expandTop();
}

void StructureDock::onFilterTextChanged(const QString& text) {
    const std::size_t nodes = document_ ? document_->asset().nodes.size() : 0;
    if (text.isEmpty() || nodes <= kImmediateFilterNodes)
        applyFilter();
    else
        filterTimer_->start();  // restarts: the pass runs once the typing pauses
}

void StructureDock::applyFilter() {
    filterTimer_->stop();
    const QString text = filter_->text();
    if (text == applied_) return;
    applied_ = text;
    proxy_->setFilterFixedString(text);
    if (!text.isEmpty()) view_->expandAll();
}

bool StructureDock::filterPending() const {
    return filterTimer_->isActive();
}

QString StructureDock::appliedFilter() const {
    return applied_;
}

void StructureDock::onDocumentSelection(int node) {
    if (syncing_) return;
    syncing_ = true;
    const QModelIndex index = proxy_->mapFromSource(model_->indexForNode(node));
    if (index.isValid()) {
        view_->selectionModel()->setCurrentIndex(
            index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        view_->scrollTo(index);
    } else {
        view_->selectionModel()->clearSelection();
    }
    syncing_ = false;
}

void StructureDock::onViewSelection() {
    if (syncing_ || !document_) return;
    syncing_ = true;
    const int node = NodeTreeModel::nodeOf(proxy_->mapToSource(view_->currentIndex()));
    document_->selectNode(node);
    syncing_ = false;
}

}  // namespace meshscope::shell
