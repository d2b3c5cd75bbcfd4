// The open document: the file's bytes, its decode result and the current selection (a node and
// a byte range). Every panel (tree, properties, diagnostics, hex view, 3D view) follows it
// through its signals; nothing else owns the asset.
#pragma once

#include <QByteArray>
#include <QObject>
#include <QString>
#include <memory>

#include "document/view_state.h"
#include "meshscope/core/decode.h"
#include "meshscope/core/part_meshes.h"

namespace meshscope::shell {

class AssetDocument : public QObject {
    Q_OBJECT
public:
    explicit AssetDocument(QObject* parent = nullptr);
    ~AssetDocument() override;

    bool hasAsset() const { return result_ != nullptr; }
    // Valid while hasAsset(); an empty Asset otherwise.
    const Asset& asset() const;
    const DecodeResult* result() const { return result_.get(); }
    // The bytes the byte map describes and the hex view shows: the file as read, or for a
    // gzip-wrapped file its inflated contents (DecodeResult::innerBytes), which every offset of
    // the map and the diagnostics refers to.
    const QByteArray& bytes() const { return bytes_; }
    // The size of the file as read (the compressed size of a gzip-wrapped file).
    qint64 fileSize() const { return fileSize_; }
    // True when bytes() are the inflated contents of a gzip-wrapped file.
    bool inflated() const { return inflated_; }
    const ByteMap& byteMap() const { return asset().byteMap; }
    // A Roblox model's parts and the meshes resolved for them (empty otherwise).
    const PartMeshes& partMeshes() const { return parts_; }
    // Where the bytes came from ("" for the built-in sample) and the name to show.
    const QString& filePath() const { return filePath_; }
    const QString& displayName() const { return displayName_; }

    // Replaces the document (emits assetChanged, then selectionChanged with nothing selected).
    // `bytes` are the file as read; when `result` carries innerBytes, those are kept instead.
    // `parts`: a Roblox model's parts and resolved meshes (DecodeOutcome::parts); their
    // diagnostics join the asset's, so that the panels and the summary count them.
    void setDecoded(const QString& filePath, const QString& displayName, QByteArray bytes,
                    DecodeResult result, PartMeshes parts = {});
    void clear();

    // Frees the vertex and index arrays of the asset's meshes that cannot be posed (no
    // skin, morph targets or face rig) and returns the bytes freed. For a run that only draws
    // the view it has set up (--screenshot): the 3D view keeps its own packed copy, and nothing
    // else reads these arrays once it has it (the normals overlay, built when first shown, then
    // finds none). Mesh bounds are kept (computed first when unset), so framing still works.
    // Posable meshes keep theirs: posing reads them.
    std::size_t releaseStaticMeshArrays();

    // The innermost node at a byte of bytes(), or -1: the node whose own extent (Node::offset,
    // length) or node-owned byte-map range covering the byte is shortest. Nodes without offsets
    // of their own are known only through the byte map.
    int nodeAt(quint64 offset) const;

    // The mesh a node shows: its own, or for a level-of-detail node the nearest ancestor's; -1.
    int meshOfNode(int node) const;

    // How the document is viewed (animation, pinned levels of detail, FACS weights): reset when
    // a new file is set or the document is cleared, before assetChanged.
    ViewState& viewState() { return viewState_; }
    const ViewState& viewState() const { return viewState_; }

    int selectedNode() const { return selectedNode_; }
    quint64 selectionOffset() const { return selectionOffset_; }
    quint64 selectionLength() const { return selectionLength_; }

    // Selects a node and the bytes that describe it (its offset/length; when it has none, the
    // first byte-map range that belongs to it). -1 clears the selection.
    void selectNode(int node);
    // Selects a byte range; `node` -1 picks nodeAt(offset).
    void selectBytes(quint64 offset, quint64 length, int node = -1);

signals:
    void assetChanged();
    void selectionChanged(int node, quint64 offset, quint64 length);

private:
    void setSelection(int node, quint64 offset, quint64 length);

    std::unique_ptr<DecodeResult> result_;
    ViewState viewState_;
    PartMeshes parts_;
    QByteArray bytes_;
    qint64 fileSize_ = 0;
    bool inflated_ = false;
    QString filePath_;
    QString displayName_;
    int selectedNode_ = -1;
    quint64 selectionOffset_ = 0;
    quint64 selectionLength_ = 0;
};

}  // namespace meshscope::shell
