// The Face (FACS) panel for FileMesh v5–v7 heads: one 0–1 slider per base control of the rig,
// named by its full FaceControls name (c_JD → JawDrop, core's table), in collapsible groups
// (brows, eyes, cheeks, lips, jaw, tongue, nose, other); the correctives listed read-only with
// their current weight (the product of their members); face bones the skeleton lacks; Reset;
// and expressions (name → control weights) applied from a list, saved and loaded as JSON.
// The weights are the document's (AssetDocument::viewState): the sliders show and write them.
#pragma once

#include <QDockWidget>
#include <QJsonObject>
#include <QMap>
#include <vector>

class QComboBox;
class QLabel;
class QSlider;
class QToolButton;
class QTreeWidget;
class QVBoxLayout;

namespace meshscope::shell {

class AssetDocument;
class PoseController;
class ViewState;

class FacsDock : public QDockWidget {
    Q_OBJECT
public:
    // Follows `controller`'s rig and, until setDocument, the view state of its document.
    explicit FacsDock(PoseController* controller, QWidget* parent = nullptr);
    // Shows and edits the FACS weights of `document`'s view state.
    void setDocument(AssetDocument* document);

    int sliderCount() const { return int(sliders_.size()); }
    QSlider* slider(int control) const { return sliders_[std::size_t(control)]; }
    // The corrective list (one top-level item per corrective; column 1 holds the weight).
    QTreeWidget* correctiveList() const { return correctives_; }
    // Folds the corrective list open or closed (closed at first; the header shows the count).
    QToolButton* correctivesHeader() const { return correctivesHeader_; }
    // What the rig cannot do here (face bones not in the skeleton, controls that move no vertex),
    // one line each; empty and hidden when there is nothing to say.
    QString notes() const;

    // Expressions: full control name → weight. The built-in ones are Smile, Surprise and Blink.
    QStringList expressionNames() const { return expressions_.keys(); }
    bool applyExpression(const QString& name);
    // Stores the current slider values as expression `name`.
    void storeExpression(const QString& name);
    // {"Smile": {"LeftLipCornerPuller": 1, ...}, ...}
    QJsonObject expressionsJson() const;
    // Adds (or replaces) expressions from JSON; returns how many were read.
    int addExpressions(const QJsonObject& json);
    bool saveExpressions(const QString& path, QString* error = nullptr) const;
    bool loadExpressions(const QString& path, QString* error = nullptr);

private:
    void rebuild();
    void refreshValues();
    ViewState* state() const;

    PoseController* controller_;
    AssetDocument* document_ = nullptr;
    QWidget* controlsHost_ = nullptr;
    QVBoxLayout* controlsLayout_ = nullptr;
    QLabel* summary_ = nullptr;
    QLabel* unmatched_ = nullptr;
    QTreeWidget* correctives_ = nullptr;
    QToolButton* correctivesHeader_ = nullptr;
    QComboBox* expressionBox_ = nullptr;
    std::vector<QSlider*> sliders_;
    std::vector<QLabel*> valueLabels_;
    QMap<QString, QMap<QString, double>> expressions_;
    bool updating_ = false;
};

}  // namespace meshscope::shell
