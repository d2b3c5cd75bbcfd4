// Columns of a tree view sized to their contents up to a share of the view's width, so that one
// long entry (a property name such as BottomSurfaceInput, a kind such as
// NonReplicatedCSGDictionaryService) cannot squeeze the stretched column to nothing. Refits when
// the view is resized; call fit() after the rows change.
#pragma once

#include <QObject>
#include <utility>
#include <vector>

class QTreeView;

namespace meshscope::shell {

class ColumnFitter : public QObject {
public:
    // `caps`: (column, largest share of the viewport's width). The columns become Interactive
    // (the user may still drag them); `stretch` takes what they leave.
    ColumnFitter(QTreeView* view, int stretch, std::vector<std::pair<int, double>> caps);
    void fit();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QTreeView* view_;
    int stretch_;
    std::vector<std::pair<int, double>> caps_;
};

}  // namespace meshscope::shell
