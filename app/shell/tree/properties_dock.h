// The properties dock: what the selected node is (kind, bytes, mesh / bone / LOD facts) and its
// typed property values: vectors, CFrames as position + rotation, colours as swatches, and
// references as links that select their target.
#pragma once

#include <QDockWidget>

class QTreeWidget;
class QTreeWidgetItem;

namespace meshscope {
struct Property;
}

namespace meshscope::shell {

class AssetDocument;
class ColumnFitter;

class PropertiesDock : public QDockWidget {
    Q_OBJECT
public:
    explicit PropertiesDock(QWidget* parent = nullptr);
    void setDocument(AssetDocument* document);
    QTreeWidget* view() const { return view_; }

    // The text a property value shows (also used for copying); exposed for tests.
    static QString valueText(const Property& property);

private:
    void rebuild();
    void addProperty(QTreeWidgetItem* parent, const Property& property);

    AssetDocument* document_ = nullptr;
    QTreeWidget* view_ = nullptr;
    ColumnFitter* columns_ = nullptr;
};

}  // namespace meshscope::shell
