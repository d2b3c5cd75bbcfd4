// Tree view columns capped at a share of the width (see column_fitter.h).
#include "widgets/column_fitter.h"

#include <QEvent>
#include <QHeaderView>
#include <QTreeView>
#include <algorithm>

namespace meshscope::shell {

ColumnFitter::ColumnFitter(QTreeView* view, int stretch, std::vector<std::pair<int, double>> caps)
    : QObject(view), view_(view), stretch_(stretch), caps_(std::move(caps)) {
    view_->header()->setStretchLastSection(false);
    view_->installEventFilter(this);
}

void ColumnFitter::fit() {
    QHeaderView* header = view_->header();
    const QAbstractItemView* items = view_;  // QTreeView hides its sizeHintForColumn
    const int width = view_->viewport()->width();
    // Section modes apply to sections that exist: set them each time (the model may be new).
    if (stretch_ < header->count()) header->setSectionResizeMode(stretch_, QHeaderView::Stretch);
    for (const auto& [column, share] : caps_) {
        if (column >= header->count()) continue;  // no model yet
        header->setSectionResizeMode(column, QHeaderView::Interactive);
        header->resizeSection(column,
                              std::min(items->sizeHintForColumn(column), int(width * share)));
    }
}

bool ColumnFitter::eventFilter(QObject* watched, QEvent* event) {
    if (watched == view_ && event->type() == QEvent::Resize) fit();
    return QObject::eventFilter(watched, event);
}

}  // namespace meshscope::shell
