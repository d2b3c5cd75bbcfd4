// The diagnostics dock (see diagnostics_dock.h).
#include "tree/diagnostics_dock.h"

#include <QApplication>
#include <QHeaderView>
#include <QStyle>
#include <QTreeWidget>

#include "document/asset_document.h"

namespace meshscope::shell {

namespace {
constexpr int kOffsetRole = Qt::UserRole + 1;
}

DiagnosticsDock::DiagnosticsDock(QWidget* parent) : QDockWidget(tr("Diagnostics"), parent) {
    setObjectName(QStringLiteral("DiagnosticsDock"));
    view_ = new QTreeWidget(this);
    view_->setColumnCount(4);
    view_->setHeaderLabels({tr("Severity"), tr("Offset"), tr("Where"), tr("Message")});
    view_->setRootIsDecorated(false);
    view_->setAlternatingRowColors(true);
    view_->setUniformRowHeights(true);
    view_->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    view_->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    view_->header()->setSectionResizeMode(2, QHeaderView::Interactive);
    view_->header()->setStretchLastSection(true);
    view_->setColumnWidth(2, 220);
    setWidget(view_);
    connect(view_, &QTreeWidget::itemActivated, this,
            [this](QTreeWidgetItem* item) { activateRow(view_->indexOfTopLevelItem(item)); });
}

void DiagnosticsDock::setDocument(AssetDocument* document) {
    if (document_) disconnect(document_, nullptr, this, nullptr);
    document_ = document;
    connect(document_, &AssetDocument::assetChanged, this, &DiagnosticsDock::rebuild);
    rebuild();
}

void DiagnosticsDock::activateRow(int row) {
    QTreeWidgetItem* item = view_->topLevelItem(row);
    if (!item || !document_) return;
    const quint64 offset = item->data(1, kOffsetRole).toULongLong();
    // The innermost byte-map range at the offset says how many bytes the problem concerns.
    const ByteMap& map = document_->byteMap();
    quint64 length = 1;
    if (const int r = map.innermostAt(offset); r >= 0) {
        const ByteRange& range = map.ranges()[std::size_t(r)];
        length = range.end() - offset;
    }
    const quint64 size = quint64(document_->bytes().size());
    if (offset >= size)
        length = 0;
    else
        length = std::min(length, size - offset);
    document_->selectBytes(offset, length);
}

void DiagnosticsDock::rebuild() {
    view_->clear();
    int errors = 0, warnings = 0;
    if (document_ && document_->hasAsset()) {
        std::vector<Diagnostic> all;
        if (const DecodeResult* r = document_->result(); r && r->error)
            all.push_back(r->error->asDiagnostic());
        for (const Diagnostic& d : document_->asset().diagnostics) all.push_back(d);
        QStyle* style = QApplication::style();
        for (const Diagnostic& d : all) {
            QString severity;
            QIcon icon;
            switch (d.severity) {
                case Severity::Error:
                    severity = tr("Error");
                    icon = style->standardIcon(QStyle::SP_MessageBoxCritical);
                    ++errors;
                    break;
                case Severity::Warning:
                    severity = tr("Warning");
                    icon = style->standardIcon(QStyle::SP_MessageBoxWarning);
                    ++warnings;
                    break;
                case Severity::Info:
                    severity = tr("Info");
                    icon = style->standardIcon(QStyle::SP_MessageBoxInformation);
                    break;
            }
            auto* item = new QTreeWidgetItem(
                view_, {severity, QStringLiteral("0x%1").arg(d.offset, 0, 16),
                        QString::fromStdString(d.context), QString::fromStdString(d.message)});
            item->setIcon(0, icon);
            item->setData(1, kOffsetRole, QVariant::fromValue<qulonglong>(d.offset));
            item->setToolTip(
                3,
                QString::fromStdString(d.toString()) +
                    (d.code.empty() ? QString()
                                    : QStringLiteral(" [%1]").arg(QString::fromStdString(d.code))));
            QFont mono = item->font(1);
            mono.setFamily(QStringLiteral("monospace"));
            mono.setStyleHint(QFont::Monospace);
            item->setFont(1, mono);
        }
    }
    setWindowTitle(errors + warnings ? tr("Diagnostics (%1)").arg(errors + warnings)
                                     : tr("Diagnostics"));
    emit countChanged(errors, warnings);
}

}  // namespace meshscope::shell
