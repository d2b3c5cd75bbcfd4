// The diagnostics dock: the decode error (if any) and every warning, with its offset and
// context. Activating one selects its bytes (and the node that owns them) in the document.
#pragma once

#include <QDockWidget>

class QTreeWidget;
class QTreeWidgetItem;

namespace meshscope::shell {

class AssetDocument;

class DiagnosticsDock : public QDockWidget {
    Q_OBJECT
public:
    explicit DiagnosticsDock(QWidget* parent = nullptr);
    void setDocument(AssetDocument* document);
    QTreeWidget* view() const { return view_; }
    // Selects the bytes of row `row` in the document (what activating it does).
    void activateRow(int row);

signals:
    void countChanged(int errors, int warnings);

private:
    void rebuild();

    AssetDocument* document_ = nullptr;
    QTreeWidget* view_ = nullptr;
};

}  // namespace meshscope::shell
