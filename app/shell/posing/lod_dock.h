// The level-of-detail panel: the levels of the current model with their triangle counts, the
// one drawn marked. "Auto" picks each model's level from the camera distance with core's
// chooseLod; choosing a level pins it. A FileMesh's levels are index ranges of one mesh; a Second
// Life asset's high_lod / medium_lod / low_lod / lowest_lod meshes are treated as the levels of
// one model, and only the chosen one is shown. Switching changes only what AssetScene draws.
// The pinned level of each model is kept in the document's view state (ViewState::pinnedLod), so
// it survives the model list being rebuilt and is forgotten when another file is opened.
#pragma once

#include <QDockWidget>
#include <QString>
#include <vector>

#include "meshscope/core/asset.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QListWidget;

namespace meshscope::render {
class Viewport;
}

namespace meshscope::shell {

class AssetDocument;

class LodDock : public QDockWidget {
    Q_OBJECT
public:
    explicit LodDock(render::Viewport* viewport, QWidget* parent = nullptr);
    // Follows `document`: its asset's models once the viewport shows them (Viewport::assetShown),
    // and the model of the mesh its selected node shows.
    void setDocument(AssetDocument* document);

    // Call after the viewport has uploaded `asset` (the asset must outlive the next call).
    void setAsset(const Asset* asset);

    int modelCount() const { return int(models_.size()); }
    int currentModel() const { return current_; }
    void setCurrentModel(int model);
    // Makes the model that shows scene mesh `mesh` current (no change when none does).
    void setCurrentMesh(int mesh);

    int levelCount() const;
    int triangleCount(int level) const;
    // The level drawn for the current model (-1 without a model).
    int drawnLevel() const;
    bool isAuto() const;
    // Auto for the current model (pinned levels of other models stay).
    void setAuto(bool on);
    // Pins `level` of the current model (clamped).
    void pinLevel(int level);
    // Steps the current model's level (pins it).
    void stepLevel(int delta);
    // Re-evaluates every Auto model from the camera (also runs when the camera moves).
    void updateAuto();

    QListWidget* levelList() const { return list_; }

signals:
    void drawnLevelChanged(int model, int level);

private:
    struct Model {
        QString name;
        // A FileMesh-like model: one scene mesh with index-range levels (meshes.size() == 1);
        // a Second Life model: one scene mesh per level.
        std::vector<int> meshes;
        Mesh levels;  // only .lods filled: what chooseLod needs
        Bounds bounds;
        bool perMeshLevels = false;
        int pinned = -1;
        int drawn = 0;
    };
    void applyLevel(Model& m, int level);
    // Pins (level >= 0) or unpins model `model` here and in the document's view state.
    void pin(int model, int level);
    void refreshModels();
    void refreshLevels();

    render::Viewport* viewport_;
    AssetDocument* document_ = nullptr;
    const Asset* asset_ = nullptr;
    std::vector<Model> models_;
    int current_ = -1;
    bool updating_ = false;
    bool applying_ = false;
    bool writingState_ = false;

    QComboBox* modelCombo_ = nullptr;
    QCheckBox* auto_ = nullptr;
    QListWidget* list_ = nullptr;
    QLabel* info_ = nullptr;
};

}  // namespace meshscope::shell
