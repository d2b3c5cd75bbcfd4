// Skeleton panel (see skeleton_dock.h).
#include "posing/skeleton_dock.h"

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "document/asset_document.h"
#include "posing/bone_drag_controller.h"
#include "posing/pose_controller.h"

namespace meshscope::shell {

SkeletonDock::SkeletonDock(PoseController* controller, QWidget* parent)
    : QDockWidget(tr("Skeleton"), parent), controller_(controller) {
    setObjectName(QStringLiteral("SkeletonDock"));
    auto* w = new QWidget(this);
    auto* layout = new QVBoxLayout(w);
    layout->setContentsMargins(4, 4, 4, 4);
    tree_ = new QTreeWidget(w);
    tree_->setHeaderLabels({tr("Bone"), tr("Index")});
    tree_->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    tree_->header()->setStretchLastSection(false);
    layout->addWidget(tree_, 1);

    boneLabel_ = new QLabel(tr("No bone selected"), w);
    layout->addWidget(boneLabel_);
    auto* form = new QFormLayout;
    const char* axes[3] = {"X", "Y", "Z"};
    for (int i = 0; i < 3; ++i) {
        auto* r = new QDoubleSpinBox(w);
        r->setRange(-360, 360);
        r->setDecimals(1);
        r->setSingleStep(5);
        r->setSuffix(QStringLiteral("°"));
        r->setKeyboardTracking(false);
        rotation_[std::size_t(i)] = r;
        auto* t = new QDoubleSpinBox(w);
        t->setRange(-1e4, 1e4);
        t->setDecimals(3);
        t->setSingleStep(0.05);
        t->setKeyboardTracking(false);
        translation_[std::size_t(i)] = t;
        auto* row = new QHBoxLayout;
        row->addWidget(r);
        row->addWidget(t);
        form->addRow(tr("%1 rotation / move").arg(QLatin1String(axes[i])), row);
        connect(r, &QDoubleSpinBox::valueChanged, this, &SkeletonDock::commitFields);
        connect(t, &QDoubleSpinBox::valueChanged, this, &SkeletonDock::commitFields);
    }
    layout->addLayout(form);
    auto* buttons = new QHBoxLayout;
    resetBone_ = new QPushButton(tr("Reset Bone"), w);
    resetAll_ = new QPushButton(tr("Reset All"), w);
    showOverlay_ = new QCheckBox(tr("Show bones"), w);
    showOverlay_->setChecked(controller_->skeletonVisible());
    buttons->addWidget(resetBone_);
    buttons->addWidget(resetAll_);
    buttons->addStretch(1);
    buttons->addWidget(showOverlay_);
    layout->addLayout(buttons);
    // The mouse posing hint as tooltips (a label here would resize the dock, and with it the 3D
    // view that the image baselines frame).
    for (QWidget* widget : {static_cast<QWidget*>(tree_), static_cast<QWidget*>(boneLabel_)})
        widget->setToolTip(BoneDragController::usageHint());
    for (QDoubleSpinBox* field : rotation_) field->setToolTip(BoneDragController::usageHint());
    setWidget(w);

    connect(resetBone_, &QPushButton::clicked, this, [this]() {
        controller_->resetBone(controller_->selectedBone());
        showBone(controller_->selectedBone());
    });
    connect(resetAll_, &QPushButton::clicked, this, [this]() {
        controller_->resetAll();
        showBone(controller_->selectedBone());
    });
    connect(showOverlay_, &QCheckBox::toggled, controller_, &PoseController::setSkeletonVisible);
    connect(tree_, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem* item) {
        if (updating_) return;
        const int bone = item ? item->data(0, Qt::UserRole).toInt() : -1;
        controller_->setSelectedBone(bone);
        showBone(bone);
    });
    connect(controller_, &PoseController::reloaded, this, &SkeletonDock::rebuild);
    // The fields follow edits made elsewhere (a drag in the 3D view, --bone, Reset All).
    connect(controller_, &PoseController::poseChanged, this, [this]() {
        if (!updating_) showBone(controller_->selectedBone());
    });
    connect(controller_, &PoseController::selectedBoneChanged, this, [this](int bone) {
        if (updating_) return;
        updating_ = true;
        tree_->setCurrentItem(bone >= 0 && bone < int(items_.size()) ? items_[std::size_t(bone)]
                                                                     : nullptr);
        updating_ = false;
        showBone(bone);
    });
    connect(controller_, &PoseController::skeletonVisibleChanged, showOverlay_,
            &QCheckBox::setChecked);
    rebuild();
}

void SkeletonDock::setDocument(AssetDocument* document) {
    if (document_) disconnect(document_, nullptr, this, nullptr);
    document_ = document;
    if (!document_) return;
    // A bone node selects that bone for posing; any other node deselects it, so its weight heat
    // map does not stay over the newly selected part.
    connect(document_, &AssetDocument::selectionChanged, this, [this](int node) {
        const Asset& a = document_->asset();
        const NodeLinks* links = node >= 0 && node < int(a.nodes.size()) ? &a.links(node) : nullptr;
        if (links && links->bone >= 0 && links->skeleton == controller_->skeletonIndex())
            selectBone(links->bone);
        else
            selectBone(-1);
    });
}

QString SkeletonDock::emptyText() const {
    const Asset& a = controller_->asset();
    if (a.nodes.empty() && a.meshes.empty()) return tr("No file open");
    return tr(
        "No skeleton in this file: nothing here is skinned to bones. Skinned FileMeshes "
        "(v4+), Second Life skins, Unigine skinned meshes and rigs list their bones here.");
}

int SkeletonDock::boneCount() const {
    return int(items_.size());
}

void SkeletonDock::rebuild() {
    updating_ = true;
    tree_->clear();
    items_.clear();
    if (const Skeleton* s = controller_->skeleton()) {
        const auto order = boneOrder(*s);
        items_.assign(s->bones.size(), nullptr);
        for (int b : order.order) {
            const int p = order.parent[std::size_t(b)];
            QTreeWidgetItem* item = p >= 0 && items_[std::size_t(p)]
                                        ? new QTreeWidgetItem(items_[std::size_t(p)])
                                        : new QTreeWidgetItem(tree_);
            item->setText(0, QString::fromStdString(s->bones[std::size_t(b)].name));
            item->setText(1, QString::number(b));
            item->setData(0, Qt::UserRole, b);
            items_[std::size_t(b)] = item;
        }
        tree_->expandAll();
        setWindowTitle(tr("Skeleton — %n bones", nullptr, int(s->bones.size())));
    } else {
        setWindowTitle(tr("Skeleton"));
        // Say why the list is empty (a row, not a label: the dock keeps its size, and with it
        // the 3D view). Disabled rows cannot be selected, so no bone index is ever read off it.
        auto* why = new QTreeWidgetItem(tree_);
        why->setText(0, emptyText());
        why->setFlags(Qt::NoItemFlags);
        why->setFirstColumnSpanned(true);
        why->setToolTip(0, why->text(0));
    }
    // A selection kept by the document's view state (an animation loaded onto the open rig).
    const int kept = controller_->selectedBone();
    if (kept >= 0 && kept < int(items_.size())) tree_->setCurrentItem(items_[std::size_t(kept)]);
    updating_ = false;
    showBone(kept);
}

void SkeletonDock::selectBone(int bone) {
    if (bone < 0 || bone >= int(items_.size())) {
        tree_->setCurrentItem(nullptr);
        controller_->setSelectedBone(-1);
        showBone(-1);
        return;
    }
    tree_->setCurrentItem(items_[std::size_t(bone)]);
}

void SkeletonDock::showBone(int bone) {
    updating_ = true;
    const bool valid = bone >= 0 && bone < int(items_.size());
    const BoneEdit e = controller_->boneEdit(bone);
    const float r[3] = {e.rotation.x, e.rotation.y, e.rotation.z};
    const float t[3] = {e.translation.x, e.translation.y, e.translation.z};
    for (int i = 0; i < 3; ++i) {
        rotation_[std::size_t(i)]->setEnabled(valid);
        translation_[std::size_t(i)]->setEnabled(valid);
        rotation_[std::size_t(i)]->setValue(r[i]);
        translation_[std::size_t(i)]->setValue(t[i]);
    }
    resetBone_->setEnabled(valid);
    resetAll_->setEnabled(!items_.empty());
    boneLabel_->setText(valid ? tr("Bone: %1").arg(items_[std::size_t(bone)]->text(0))
                              : tr("No bone selected"));
    updating_ = false;
}

void SkeletonDock::commitFields() {
    if (updating_) return;
    const int bone = controller_->selectedBone();
    if (bone < 0) return;
    BoneEdit e;
    e.rotation = {float(rotation_[0]->value()), float(rotation_[1]->value()),
                  float(rotation_[2]->value())};
    e.translation = {float(translation_[0]->value()), float(translation_[1]->value()),
                     float(translation_[2]->value())};
    updating_ = true;  // the values came from these fields; poseChanged need not set them
    controller_->setBoneEdit(bone, e);
    updating_ = false;
}

}  // namespace meshscope::shell
