// The hex inspector dock: a go-to/find bar over the hex view and the data inspector, and a
// status line with the byte-map path under the cursor. It follows an AssetDocument (setDocument):
// the document's bytes over its byte map, its selection outlined; a selection made in the view
// selects those bytes in the document, and moving the cursor outside the selection selects the
// node there (AssetDocument::nodeAt).
#pragma once

#include <QDockWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QSplitter;
class QToolButton;

namespace meshscope {
class ByteMap;
}

namespace meshscope::shell {

class AssetDocument;
class DataInspector;
class HexView;

class HexDock : public QDockWidget {
    Q_OBJECT
public:
    explicit HexDock(QWidget* parent = nullptr);

    // Follows `document` (nullptr: none): shows its bytes now and after every assetChanged.
    void setDocument(AssetDocument* document);
    AssetDocument* document() const { return document_; }

    // Shows `bytes` (shared, not copied) over `map` (finalized, or nullptr); the caller keeps
    // the map alive while it is shown. An empty QByteArray clears the view.
    void setData(const QByteArray& bytes, const meshscope::ByteMap* map);

    HexView* hexView() const { return view_; }
    DataInspector* dataInspector() const { return inspector_; }

public slots:
    // Selects, outlines and centres [offset, offset + length) (a node chosen in the tree).
    // Programmatic: the dock does not re-emit cursorMoved/selectionChanged for it, and a range
    // equal to the current selection (the document echoing the view's own selection) is left
    // alone, so a document can call this from its selectionChanged without a loop.
    void selectRange(quint64 offset, quint64 length);
    // Outlines a structure range without moving the cursor.
    void setStructureRange(quint64 offset, quint64 length);
    void focusFind();
    void focusGoTo();

signals:
    // The user moved the cursor / changed the selection in the view (length 0: none).
    void cursorMoved(quint64 offset);
    void selectionChanged(quint64 offset, quint64 length);

protected:
    void changeEvent(QEvent* event) override;

private:
    void updateLegend();
    void updateCursorInfo(quint64 offset);
    void updateSelectionInfo(quint64 offset, quint64 length);
    void runFind(bool forward);
    void goTo();
    void showMessage(const QString& text);

    void showDocument();

    AssetDocument* document_ = nullptr;
    HexView* view_ = nullptr;
    DataInspector* inspector_ = nullptr;
    QSplitter* splitter_ = nullptr;
    QLineEdit* goToEdit_ = nullptr;
    QLineEdit* findEdit_ = nullptr;
    QComboBox* findMode_ = nullptr;
    QComboBox* rowWidth_ = nullptr;
    QLabel* pathLabel_ = nullptr;
    QLabel* selectionLabel_ = nullptr;
    QLabel* messageLabel_ = nullptr;
    QLabel* legend_ = nullptr;
};

}  // namespace meshscope::shell
