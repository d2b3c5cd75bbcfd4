// Face (FACS) panel (see facs_dock.h).
#include "posing/facs_dock.h"

#include <QComboBox>
#include <QFile>
#include <QFileDialog>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonDocument>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QScrollArea>
#include <QSlider>
#include <QToolButton>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <array>

#include "document/asset_document.h"
#include "document/view_state.h"
#include "meshscope/core/pose.h"
#include "posing/pose_controller.h"

namespace meshscope::shell {

namespace {

constexpr int kSliderSteps = 1000;

QString controlDisplayName(const std::string& stored) {
    return QString::fromUtf8(facsDisplayName(stored).data(),
                             qsizetype(facsDisplayName(stored).size()));
}

FacsGroup controlGroup(const std::string& stored) {
    const FacsControlInfo* info = findFacsControl(stored);
    return info ? info->group : FacsGroup::Other;
}

}  // namespace

FacsDock::FacsDock(PoseController* controller, QWidget* parent)
    : QDockWidget(tr("Face (FACS)"), parent), controller_(controller) {
    setObjectName(QStringLiteral("FacsDock"));
    auto* w = new QWidget(this);
    auto* layout = new QVBoxLayout(w);
    layout->setContentsMargins(4, 4, 4, 4);
    summary_ = new QLabel(w);
    summary_->setWordWrap(true);
    layout->addWidget(summary_);

    auto* scroll = new QScrollArea(w);
    scroll->setWidgetResizable(true);
    controlsHost_ = new QWidget(scroll);
    controlsLayout_ = new QVBoxLayout(controlsHost_);
    controlsLayout_->setContentsMargins(0, 0, 0, 0);
    controlsLayout_->setSpacing(2);
    scroll->setWidget(controlsHost_);

    layout->addWidget(scroll, 3);

    // The sliders get the height (the list showed about seven rows beside an equally tall
    // corrective list): the read-only correctives fold under a header, closed at first, the way
    // the slider groups fold.
    correctivesHeader_ = new QToolButton(w);
    correctivesHeader_->setObjectName(QStringLiteral("facs-correctives"));
    correctivesHeader_->setCheckable(true);
    correctivesHeader_->setChecked(false);
    correctivesHeader_->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    correctivesHeader_->setArrowType(Qt::RightArrow);
    correctivesHeader_->setAutoRaise(true);
    correctivesHeader_->setToolTip(
        tr("Correctives: weights that are the product of their controls'"));
    layout->addWidget(correctivesHeader_);
    correctives_ = new QTreeWidget(w);
    correctives_->setHeaderLabels({tr("Corrective (product of its controls)"), tr("Weight")});
    correctives_->setRootIsDecorated(false);
    correctives_->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    correctives_->header()->setStretchLastSection(false);
    correctives_->setMinimumHeight(correctives_->fontMetrics().height() * 4 + 12);
    correctives_->hide();
    layout->addWidget(correctives_, 1);
    connect(correctivesHeader_, &QToolButton::toggled, this, [this](bool open) {
        correctivesHeader_->setArrowType(open ? Qt::DownArrow : Qt::RightArrow);
        correctives_->setVisible(open);
    });
    unmatched_ = new QLabel(w);
    unmatched_->setWordWrap(true);
    layout->addWidget(unmatched_);

    auto* row = new QHBoxLayout;
    expressionBox_ = new QComboBox(w);
    auto* apply = new QPushButton(tr("Apply"), w);
    auto* reset = new QPushButton(tr("Reset"), w);
    // One row for the expressions: the height goes to the sliders.
    auto* save = new QToolButton(w);
    save->setText(tr("Save…"));
    save->setToolTip(tr("Save the current weights as an expression (JSON)"));
    auto* load = new QToolButton(w);
    load->setText(tr("Load…"));
    load->setToolTip(tr("Load an expression saved as JSON"));
    row->addWidget(expressionBox_, 1);
    row->addWidget(apply);
    row->addWidget(reset);
    row->addWidget(save);
    row->addWidget(load);
    layout->addLayout(row);
    setWidget(w);

    // Built-in expressions (FaceControls names).
    addExpressions(QJsonObject{
        {QStringLiteral("Smile"), QJsonObject{{QStringLiteral("LeftLipCornerPuller"), 1.0},
                                              {QStringLiteral("RightLipCornerPuller"), 1.0},
                                              {QStringLiteral("LeftCheekRaiser"), 0.5},
                                              {QStringLiteral("RightCheekRaiser"), 0.5}}},
        {QStringLiteral("Surprise"), QJsonObject{{QStringLiteral("LeftInnerBrowRaiser"), 1.0},
                                                 {QStringLiteral("RightInnerBrowRaiser"), 1.0},
                                                 {QStringLiteral("LeftOuterBrowRaiser"), 1.0},
                                                 {QStringLiteral("RightOuterBrowRaiser"), 1.0},
                                                 {QStringLiteral("LeftEyeUpperLidRaiser"), 1.0},
                                                 {QStringLiteral("RightEyeUpperLidRaiser"), 1.0},
                                                 {QStringLiteral("JawDrop"), 0.6}}},
        {QStringLiteral("Blink"), QJsonObject{{QStringLiteral("LeftEyeClosed"), 1.0},
                                              {QStringLiteral("RightEyeClosed"), 1.0}}}});

    connect(apply, &QPushButton::clicked, this,
            [this]() { applyExpression(expressionBox_->currentText()); });
    connect(reset, &QPushButton::clicked, this, [this]() {
        if (ViewState* s = state()) s->setFacsWeights(std::vector<float>(s->facsWeights().size()));
    });
    connect(save, &QToolButton::clicked, this, [this]() {
        const QString path =
            QFileDialog::getSaveFileName(this, tr("Save Expressions"), {}, tr("JSON (*.json)"));
        if (path.isEmpty()) return;
        storeExpression(tr("Current"));
        QString error;
        if (!saveExpressions(path, &error))
            QMessageBox::warning(this, tr("Save Expressions"), error);
    });
    connect(load, &QToolButton::clicked, this, [this]() {
        const QString path =
            QFileDialog::getOpenFileName(this, tr("Load Expressions"), {}, tr("JSON (*.json)"));
        QString error;
        if (!path.isEmpty() && !loadExpressions(path, &error))
            QMessageBox::warning(this, tr("Load Expressions"), error);
    });
    connect(controller_, &PoseController::reloaded, this, &FacsDock::rebuild);
    connect(controller_, &PoseController::poseChanged, this, &FacsDock::refreshValues);
    setDocument(controller_->document());
    rebuild();
}

void FacsDock::setDocument(AssetDocument* document) {
    if (document_) disconnect(&document_->viewState(), nullptr, this, nullptr);
    document_ = document;
    if (!document_) return;
    connect(&document_->viewState(), &ViewState::facsWeightsChanged, this,
            &FacsDock::refreshValues);
    refreshValues();
}

ViewState* FacsDock::state() const {
    return document_ ? &document_->viewState() : nullptr;
}

void FacsDock::rebuild() {
    sliders_.clear();
    valueLabels_.clear();
    while (QLayoutItem* item = controlsLayout_->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    const FacsRig* rig = controller_->facsRig();
    if (!rig) {
        summary_->setText(tr("The open file has no face rig (FileMesh 5.00 and later heads)."));
        correctives_->clear();
        correctivesHeader_->setText(tr("Correctives"));
        unmatched_->clear();
        unmatched_->hide();
        setEnabled(false);
        return;
    }
    setEnabled(true);
    summary_->setText(tr("%1 controls, %2 correctives, %3 face bones")
                          .arg(rig->controlNames.size())
                          .arg(rig->correctives.size())
                          .arg(rig->boneNames.size()));
    const std::vector<int> still = controller_->stillFacsControls();
    sliders_.assign(rig->controlNames.size(), nullptr);
    valueLabels_.assign(rig->controlNames.size(), nullptr);
    constexpr std::array groups{FacsGroup::Brows, FacsGroup::Eyes, FacsGroup::Cheeks,
                                FacsGroup::Lips,  FacsGroup::Jaw,  FacsGroup::Tongue,
                                FacsGroup::Nose,  FacsGroup::Other};
    for (FacsGroup g : groups) {
        std::vector<int> members;
        for (int c = 0; c < int(rig->controlNames.size()); ++c)
            if (controlGroup(rig->controlNames[std::size_t(c)]) == g) members.push_back(c);
        if (members.empty()) continue;
        auto* header = new QToolButton(controlsHost_);
        const std::string_view gn = facsGroupName(g);
        QString title = QString::fromLatin1(gn.data(), qsizetype(gn.size()));
        title[0] = title[0].toUpper();
        header->setText(tr("%1 (%2)").arg(title).arg(members.size()));
        header->setCheckable(true);
        header->setChecked(true);
        header->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
        header->setArrowType(Qt::DownArrow);
        header->setAutoRaise(true);
        header->setObjectName(QStringLiteral("facs-group-") + title.toLower());
        auto* body = new QWidget(controlsHost_);
        auto* grid = new QGridLayout(body);
        grid->setContentsMargins(12, 0, 0, 0);
        grid->setVerticalSpacing(1);
        int r = 0;
        for (int c : members) {
            const std::string& stored = rig->controlNames[std::size_t(c)];
            auto* name = new QLabel(controlDisplayName(stored), body);
            name->setToolTip(QString::fromStdString(stored));
            if (std::binary_search(still.begin(), still.end(), c)) {
                // Its face bones move, the mesh does not: greyed, and the tooltip says why.
                name->setForegroundRole(QPalette::PlaceholderText);
                name->setToolTip(tr("%1: moves only face bones that no vertex of this mesh is "
                                    "weighted to, so the mesh does not change")
                                     .arg(QString::fromStdString(stored)));
                name->setProperty("stillControl", true);
            }
            auto* s = new QSlider(Qt::Horizontal, body);
            s->setRange(0, kSliderSteps);
            s->setObjectName(controlDisplayName(stored));
            s->setToolTip(
                tr("%1 (%2)").arg(controlDisplayName(stored), QString::fromStdString(stored)));
            auto* value = new QLabel(QStringLiteral("0.00"), body);
            value->setMinimumWidth(32);
            grid->addWidget(name, r, 0);
            grid->addWidget(s, r, 1);
            grid->addWidget(value, r, 2);
            ++r;
            sliders_[std::size_t(c)] = s;
            valueLabels_[std::size_t(c)] = value;
            connect(s, &QSlider::valueChanged, this, [this, c](int v) {
                if (updating_) return;
                if (ViewState* s = state()) s->setFacsWeight(c, float(v) / kSliderSteps);
            });
        }
        connect(header, &QToolButton::toggled, body, [header, body](bool open) {
            body->setVisible(open);
            header->setArrowType(open ? Qt::DownArrow : Qt::RightArrow);
        });
        controlsLayout_->addWidget(header);
        controlsLayout_->addWidget(body);
        // Added to a panel that may already be visible: shown explicitly.
        header->show();
        body->show();
    }
    controlsLayout_->addStretch(1);

    correctives_->clear();
    correctivesHeader_->setText(tr("Correctives (%1)").arg(rig->correctives.size()));
    correctivesHeader_->setEnabled(!rig->correctives.empty());
    for (const auto& members : rig->correctives) {
        QStringList names;
        for (std::uint16_t m : members)
            names << (m < rig->controlNames.size() ? controlDisplayName(rig->controlNames[m])
                                                   : tr("#%1").arg(m));
        auto* item = new QTreeWidgetItem(correctives_);
        item->setText(0, names.join(QStringLiteral(" × ")));
        item->setText(1, QStringLiteral("0.000"));
    }
    // A warning line only when there is something to warn of; otherwise the summary says it
    // (the height goes to the sliders).
    const QStringList unmatched = controller_->unmatchedFaceBones();
    if (unmatched.isEmpty())
        summary_->setText(summary_->text() + tr(", each driving a bone of the skeleton"));
    QStringList notes;
    if (!unmatched.isEmpty())
        notes << tr("Face bones not in the skeleton (not shown): %1")
                     .arg(unmatched.join(QStringLiteral(", ")));
    if (!still.empty())
        notes << (std::size_t(still.size()) == rig->controlNames.size()
                      ? tr("No control moves this mesh: its face bones have no weighted vertex "
                           "(the bones move, the mesh stays as it is).")
                      : tr("%n control(s), greyed, move only face bones without weighted "
                           "vertices and leave the mesh as it is.",
                           nullptr, int(still.size())));
    unmatched_->setText(notes.join(QLatin1Char('\n')));
    unmatched_->setVisible(!notes.isEmpty());
    refreshValues();
}

QString FacsDock::notes() const {
    return unmatched_->text();
}

void FacsDock::refreshValues() {
    const FacsRig* rig = controller_->facsRig();
    if (!rig || !state()) return;
    updating_ = true;
    const auto& weights = state()->facsWeights();
    for (std::size_t c = 0; c < sliders_.size() && c < weights.size(); ++c) {
        sliders_[c]->setValue(int(std::lround(weights[c] * kSliderSteps)));
        valueLabels_[c]->setText(QString::number(weights[c], 'f', 2));
    }
    const std::vector<float> cw = controller_->facsCorrectiveWeights();
    for (int i = 0; i < correctives_->topLevelItemCount() && i < int(cw.size()); ++i)
        correctives_->topLevelItem(i)->setText(1, QString::number(cw[std::size_t(i)], 'f', 3));
    updating_ = false;
}

bool FacsDock::applyExpression(const QString& name) {
    const FacsRig* rig = controller_->facsRig();
    if (!rig || !expressions_.contains(name)) return false;
    std::vector<float> weights(rig->controlNames.size(), 0.0f);
    const auto& e = expressions_[name];
    for (auto it = e.begin(); it != e.end(); ++it) {
        const int c = findRigControl(*rig, it.key().toStdString());
        if (c >= 0) weights[std::size_t(c)] = float(it.value());
    }
    if (ViewState* s = state()) s->setFacsWeights(std::move(weights));
    return true;
}

void FacsDock::storeExpression(const QString& name) {
    const FacsRig* rig = controller_->facsRig();
    if (!rig || !state()) return;
    QMap<QString, double> e;
    const auto& weights = state()->facsWeights();
    for (std::size_t c = 0; c < weights.size(); ++c)
        if (weights[c] > 0) e[controlDisplayName(rig->controlNames[c])] = weights[c];
    expressions_[name] = e;
    if (expressionBox_->findText(name) < 0) expressionBox_->addItem(name);
}

QJsonObject FacsDock::expressionsJson() const {
    QJsonObject out;
    for (auto it = expressions_.begin(); it != expressions_.end(); ++it) {
        QJsonObject e;
        for (auto w = it.value().begin(); w != it.value().end(); ++w) e[w.key()] = w.value();
        out[it.key()] = e;
    }
    return out;
}

int FacsDock::addExpressions(const QJsonObject& json) {
    int n = 0;
    for (auto it = json.begin(); it != json.end(); ++it) {
        if (!it.value().isObject()) continue;
        QMap<QString, double> e;
        const QJsonObject o = it.value().toObject();
        for (auto w = o.begin(); w != o.end(); ++w)
            if (w.value().isDouble()) e[w.key()] = std::clamp(w.value().toDouble(), 0.0, 1.0);
        expressions_[it.key()] = e;
        if (expressionBox_->findText(it.key()) < 0) expressionBox_->addItem(it.key());
        ++n;
    }
    return n;
}

bool FacsDock::saveExpressions(const QString& path, QString* error) const {
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate)) {
        if (error) *error = f.errorString();
        return false;
    }
    f.write(QJsonDocument(expressionsJson()).toJson());
    return true;
}

bool FacsDock::loadExpressions(const QString& path, QString* error) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        if (error) *error = f.errorString();
        return false;
    }
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(f.readAll(), &pe);
    if (!doc.isObject()) {
        if (error)
            *error = pe.error != QJsonParseError::NoError ? pe.errorString()
                                                          : tr("expected an object of expressions");
        return false;
    }
    if (addExpressions(doc.object()) == 0) {
        if (error) *error = tr("no expression in the file");
        return false;
    }
    return true;
}

}  // namespace meshscope::shell
