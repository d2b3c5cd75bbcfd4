// The Skeleton panel: the posed skeleton's bones as a tree (parents above children), numeric
// rotation (degrees, XYZ Euler) and translation fields for the selected bone, Reset Bone and
// Reset All, and a switch for the bone overlay. Selecting a bone here (or a bone node in the
// structure tree) highlights it and shows its skin weights as a heat map.
#pragma once

#include <QDockWidget>
#include <array>

class QCheckBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QTreeWidget;
class QTreeWidgetItem;

namespace meshscope::shell {

class AssetDocument;
class PoseController;

class SkeletonDock : public QDockWidget {
    Q_OBJECT
public:
    explicit SkeletonDock(PoseController* controller, QWidget* parent = nullptr);
    // Follows `document`'s selection: a bone node of the posed skeleton selects that bone, any
    // other node none.
    void setDocument(AssetDocument* document);

    // Selects bone `bone` of the posed skeleton (-1: none).
    void selectBone(int bone);
    int boneCount() const;
    // What the bone list says when there are no bones (why the panel is empty).
    QString emptyText() const;
    QDoubleSpinBox* rotationField(int axis) const { return rotation_[std::size_t(axis)]; }
    QDoubleSpinBox* translationField(int axis) const { return translation_[std::size_t(axis)]; }

private:
    void rebuild();
    void showBone(int bone);
    void commitFields();

    PoseController* controller_;
    AssetDocument* document_ = nullptr;
    QTreeWidget* tree_ = nullptr;
    QLabel* boneLabel_ = nullptr;
    std::array<QDoubleSpinBox*, 3> rotation_{};
    std::array<QDoubleSpinBox*, 3> translation_{};
    QPushButton* resetBone_ = nullptr;
    QPushButton* resetAll_ = nullptr;
    QCheckBox* showOverlay_ = nullptr;
    std::vector<QTreeWidgetItem*> items_;
    bool updating_ = false;
};

}  // namespace meshscope::shell
