// The level-of-detail panel (see lod_dock.h).
#include "posing/lod_dock.h"

#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QListWidget>
#include <QLocale>
#include <QVBoxLayout>
#include <Qt3DRender/QCamera>
#include <algorithm>
#include <array>
#include <cmath>
#include <string_view>

#include "document/asset_document.h"
#include "document/view_state.h"
#include "meshscope/core/pose.h"
#include "meshscope/render/asset_scene.h"
#include "meshscope/render/viewport.h"

namespace meshscope::shell {

namespace {

// Second Life stores one mesh per level under these block names, finest first.
constexpr std::array<std::string_view, 4> kSecondLifeLevels = {"high_lod", "medium_lod", "low_lod",
                                                               "lowest_lod"};

int secondLifeLevel(const std::string& name) {
    for (std::size_t i = 0; i < kSecondLifeLevels.size(); ++i)
        if (name == kSecondLifeLevels[i]) return int(i);
    return -1;
}

}  // namespace

LodDock::LodDock(render::Viewport* viewport, QWidget* parent)
    : QDockWidget(tr("Level of Detail"), parent), viewport_(viewport) {
    setObjectName(QStringLiteral("LodDock"));
    auto* body = new QWidget(this);
    auto* layout = new QVBoxLayout(body);
    modelCombo_ = new QComboBox(body);
    auto_ = new QCheckBox(tr("Auto (by camera distance)"), body);
    auto_->setChecked(true);
    list_ = new QListWidget(body);
    // Three levels in view at the least (the column's height goes to the tabs above).
    list_->setMinimumHeight(list_->fontMetrics().height() * 3 + 2 * list_->frameWidth() + 6);
    info_ = new QLabel(body);
    info_->setWordWrap(true);
    layout->addWidget(modelCombo_);
    layout->addWidget(auto_);
    layout->addWidget(list_, 1);
    layout->addWidget(info_);
    setWidget(body);

    connect(modelCombo_, &QComboBox::currentIndexChanged, this, [this](int i) {
        if (!updating_) setCurrentModel(i);
    });
    connect(auto_, &QCheckBox::toggled, this, [this](bool on) {
        if (!updating_) setAuto(on);
    });
    connect(list_, &QListWidget::itemClicked, this,
            [this](QListWidgetItem* item) { pinLevel(list_->row(item)); });
    connect(viewport_->camera(), &Qt3DRender::QCamera::positionChanged, this, &LodDock::updateAuto);
    connect(viewport_->camera(), &Qt3DRender::QCamera::viewCenterChanged, this,
            &LodDock::updateAuto);
    // A level set on the scene by someone else (a LOD node selected in the tree, --lod) pins it.
    connect(viewport_->scene(), &render::AssetScene::lodChanged, this, [this](int mesh, int lod) {
        if (applying_) return;
        for (Model& m : models_)
            if (!m.perMeshLevels && m.meshes.front() == mesh) {
                m.drawn = lod;
                pin(int(&m - models_.data()), lod);
                refreshLevels();
            }
    });
    refreshModels();
}

void LodDock::setDocument(AssetDocument* document) {
    if (document_) {
        disconnect(document_, nullptr, this, nullptr);
        disconnect(viewport_, &render::Viewport::assetShown, this, nullptr);
    }
    document_ = document;
    if (!document_) {
        setAsset(nullptr);
        return;
    }
    connect(viewport_, &render::Viewport::assetShown, this,
            [this]() { setAsset(document_->hasAsset() ? &document_->asset() : nullptr); });
    connect(document_, &AssetDocument::selectionChanged, this,
            [this](int node) { setCurrentMesh(document_->meshOfNode(node)); });
    // A level pinned in the view state by someone else.
    connect(&document_->viewState(), &ViewState::pinnedLodChanged, this,
            [this](int model, int level) {
                if (writingState_ || model < 0 || model >= modelCount()) return;
                Model& m = models_[std::size_t(model)];
                const int count = int(m.levels.lods.size());
                m.pinned = level < 0 || count == 0 ? -1 : std::min(level, count - 1);
                if (m.pinned >= 0) applyLevel(m, m.pinned);
                updateAuto();
                refreshLevels();
            });
    setAsset(document_->hasAsset() ? &document_->asset() : nullptr);
}

void LodDock::setAsset(const Asset* asset) {
    asset_ = asset;
    models_.clear();
    current_ = -1;
    render::AssetScene* scene = viewport_->scene();
    if (asset && int(asset->meshes.size()) == scene->meshCount()) {
        Model sl;
        sl.name = tr("Second Life model");
        sl.perMeshLevels = true;
        std::array<int, 4> slMesh{-1, -1, -1, -1};
        for (int m = 0; m < int(asset->meshes.size()); ++m) {
            const Mesh& mesh = asset->meshes[std::size_t(m)];
            const int level = asset->formatName.find("Second Life") != std::string::npos
                                  ? secondLifeLevel(mesh.name)
                                  : -1;
            if (level >= 0 && slMesh[std::size_t(level)] < 0) {
                slMesh[std::size_t(level)] = m;
                continue;
            }
            if (mesh.primitive != Primitive::Triangles || mesh.lods.empty()) continue;
            Model model;
            model.name =
                QString::fromStdString(mesh.name.empty() ? "mesh " + std::to_string(m) : mesh.name);
            model.meshes = {m};
            model.levels.lods = mesh.lods;
            model.bounds = mesh.bounds;
            models_.push_back(std::move(model));
        }
        // The SL levels present, in order, become one model (a missing level is skipped).
        for (std::size_t l = 0; l < slMesh.size(); ++l) {
            const int m = slMesh[l];
            if (m < 0) continue;
            const Mesh& mesh = asset->meshes[std::size_t(m)];
            sl.meshes.push_back(m);
            sl.levels.lods.push_back(
                {0, std::uint32_t(mesh.triangleCount()), std::string(kSecondLifeLevels[l])});
            if (sl.meshes.size() == 1) sl.bounds = mesh.bounds;
        }
        if (!sl.meshes.empty()) models_.insert(models_.begin(), std::move(sl));
    }
    if (!models_.empty()) current_ = 0;
    // Levels pinned earlier for this document (the view state outlives the model list).
    if (document_)
        for (int i = 0; i < modelCount(); ++i) {
            Model& m = models_[std::size_t(i)];
            const int level = document_->viewState().pinnedLod(i);
            if (level >= 0 && level < int(m.levels.lods.size())) m.pinned = m.drawn = level;
        }
    updateAuto();
    for (Model& m : models_) applyLevel(m, m.drawn);
    refreshModels();
}

void LodDock::setCurrentModel(int model) {
    if (model < 0 || model >= modelCount() || model == current_) return;
    current_ = model;
    refreshModels();
}

void LodDock::setCurrentMesh(int mesh) {
    for (int i = 0; i < modelCount(); ++i)
        if (std::ranges::find(models_[std::size_t(i)].meshes, mesh) !=
            models_[std::size_t(i)].meshes.end()) {
            setCurrentModel(i);
            return;
        }
}

int LodDock::levelCount() const {
    return current_ < 0 ? 0 : int(models_[std::size_t(current_)].levels.lods.size());
}

int LodDock::triangleCount(int level) const {
    if (level < 0 || level >= levelCount()) return 0;
    return int(models_[std::size_t(current_)].levels.lods[std::size_t(level)].triangleCount);
}

int LodDock::drawnLevel() const {
    return current_ < 0 ? -1 : models_[std::size_t(current_)].drawn;
}

bool LodDock::isAuto() const {
    return current_ < 0 || models_[std::size_t(current_)].pinned < 0;
}

void LodDock::setAuto(bool on) {
    if (current_ < 0) return;
    Model& m = models_[std::size_t(current_)];
    pin(current_, on ? -1 : m.drawn);
    updateAuto();
    refreshLevels();
}

void LodDock::pinLevel(int level) {
    if (current_ < 0 || levelCount() == 0) return;
    Model& m = models_[std::size_t(current_)];
    pin(current_, std::clamp(level, 0, levelCount() - 1));
    applyLevel(m, m.pinned);
    refreshLevels();
}

void LodDock::stepLevel(int delta) {
    if (current_ < 0) return;
    pinLevel(models_[std::size_t(current_)].drawn + delta);
}

void LodDock::updateAuto() {
    if (models_.empty()) return;
    const QVector3D eye = viewport_->camera()->position();
    bool changed = false;
    for (Model& m : models_) {
        if (m.pinned >= 0) continue;
        float distance = 0, radius = 0;
        if (m.bounds.valid()) {
            const Vec3 c = m.bounds.center();
            const Vec3 e = m.bounds.size();
            distance = (eye - QVector3D(c.x, c.y, c.z)).length();
            radius = 0.5f * std::sqrt(e.x * e.x + e.y * e.y + e.z * e.z);
        }
        const int level = chooseLod(m.levels, distance, radius);
        if (level != m.drawn) changed = true;
        applyLevel(m, level);
    }
    if (changed) refreshLevels();
}

void LodDock::pin(int model, int level) {
    models_[std::size_t(model)].pinned = std::max(level, -1);
    if (!document_) return;
    writingState_ = true;
    document_->viewState().setPinnedLod(model, level);
    writingState_ = false;
}

void LodDock::applyLevel(Model& m, int level) {
    const int previous = m.drawn;
    m.drawn = level;
    render::AssetScene* scene = viewport_->scene();
    applying_ = true;
    if (m.perMeshLevels) {
        for (std::size_t i = 0; i < m.meshes.size(); ++i)
            scene->setMeshVisible(m.meshes[i], int(i) == level);
    } else {
        scene->setLod(m.meshes.front(), level);
    }
    applying_ = false;
    if (previous != level) emit drawnLevelChanged(int(&m - models_.data()), level);
}

void LodDock::refreshModels() {
    updating_ = true;
    modelCombo_->clear();
    for (const Model& m : models_) modelCombo_->addItem(m.name);
    modelCombo_->setCurrentIndex(current_);
    modelCombo_->setVisible(models_.size() > 1);
    updating_ = false;
    refreshLevels();
}

void LodDock::refreshLevels() {
    updating_ = true;
    list_->clear();
    auto_->setEnabled(current_ >= 0);
    auto_->setChecked(isAuto());
    if (current_ < 0) {
        info_->setText(tr("No mesh with levels of detail."));
        updating_ = false;
        return;
    }
    const Model& m = models_[std::size_t(current_)];
    QLocale loc;
    for (int l = 0; l < int(m.levels.lods.size()); ++l) {
        const LodLevel& level = m.levels.lods[std::size_t(l)];
        QString text = tr("LOD %1 · %2 triangles").arg(l).arg(loc.toString(level.triangleCount));
        if (!level.name.empty() && level.name != "LOD" + std::to_string(l))
            text += QStringLiteral(" (%1)").arg(QString::fromStdString(level.name));
        auto* item = new QListWidgetItem(text, list_);
        if (l == m.drawn) {
            QFont f = item->font();
            f.setBold(true);
            item->setFont(f);
            item->setText(text + tr("  ← drawn"));
            list_->setCurrentItem(item);
        }
    }
    info_->setText(m.pinned >= 0 ? tr("Pinned to LOD %1.").arg(m.pinned)
                                 : tr("Auto: LOD %1 at this camera distance.").arg(m.drawn));
    updating_ = false;
}

}  // namespace meshscope::shell
