// The properties dock (see properties_dock.h).
#include "tree/properties_dock.h"

#include <QLabel>
#include <QLocale>
#include <QPainter>
#include <QPixmap>
#include <QTreeWidget>
#include <QtMath>
#include <cmath>
#include <variant>

#include "document/asset_document.h"
#include "tree/roblox_property_format.h"
#include "widgets/column_fitter.h"
#include "widgets/qt_strings.h"

namespace meshscope::shell {

namespace {

QString num(double v) {
    if (std::isnan(v)) return QStringLiteral("NaN");
    if (std::isinf(v)) return v > 0 ? QStringLiteral("∞") : QStringLiteral("−∞");
    return QString::number(v, 'g', 7);
}

QString vec(std::initializer_list<double> values) {
    QStringList parts;
    for (double v : values) parts << num(v);
    return parts.join(QStringLiteral(", "));
}

QString hexRange(quint64 offset, quint64 length) {
    return QStringLiteral("0x%1 … 0x%2 (%3 bytes)")
        .arg(offset, 0, 16)
        .arg(offset + length - (length ? 1 : 0), 0, 16)
        .arg(QLocale().toString(length));
}

bool isColorType(const std::string& type) {
    return type.find("Color3") != std::string::npos || type == "Color" || type == "Color4";
}

// Colour of a Color3 value. Decoders give Color3uint8 as floats 0..1 like Color3 (binary and
// XML alike), so components are read as bytes only when one is past 1 (hand-made assets).
QColor colorOf(const Property& p) {
    double r = 0, g = 0, b = 0;
    if (const auto* v3 = std::get_if<Vec3>(&p.value)) {
        r = v3->x, g = v3->y, b = v3->z;
    } else if (const auto* v4 = std::get_if<Vec4>(&p.value)) {
        r = v4->x, g = v4->y, b = v4->z;
    } else if (const auto* i = std::get_if<std::int64_t>(&p.value)) {
        const auto u = static_cast<std::uint32_t>(*i);
        return QColor((u >> 16) & 255, (u >> 8) & 255, u & 255);
    } else {
        return {};
    }
    const bool bytes = r > 1.0 || g > 1.0 || b > 1.0;
    const double scale = bytes ? 1.0 / 255.0 : 1.0;
    auto c = [&](double v) { return std::clamp(std::isfinite(v) ? v * scale : 0.0, 0.0, 1.0); };
    return QColor::fromRgbF(float(c(r)), float(c(g)), float(c(b)));
}

QIcon swatch(const QColor& color) {
    QPixmap pm(14, 14);
    pm.fill(Qt::transparent);
    QPainter p(&pm);
    p.setPen(QColor(0, 0, 0, 140));
    p.setBrush(color);
    p.drawRoundedRect(QRectF(0.5, 0.5, 13, 13), 2, 2);
    return QIcon(pm);
}

// Euler angles (degrees) of a row-major rotation, XYZ order as Roblox's ToOrientation reports
// them (R = Rx · Ry · Rz).
std::array<double, 3> eulerXYZ(const std::array<float, 9>& m) {
    const double sy = std::clamp(double(m[2]), -1.0, 1.0);
    const double y = std::asin(sy);
    double x, z;
    if (std::abs(sy) < 0.9999) {
        x = std::atan2(-double(m[5]), double(m[8]));
        z = std::atan2(-double(m[1]), double(m[0]));
    } else {
        x = std::atan2(double(m[7]), double(m[4]));
        z = 0;
    }
    return {qRadiansToDegrees(x), qRadiansToDegrees(y), qRadiansToDegrees(z)};
}

QTreeWidgetItem* row(QTreeWidgetItem* parent, const QString& name, const QString& value,
                     const QString& type = {}) {
    auto* item = new QTreeWidgetItem(parent, QStringList{name, value, type});
    item->setToolTip(1, value);
    return item;
}

}  // namespace

PropertiesDock::PropertiesDock(QWidget* parent) : QDockWidget(tr("Properties"), parent) {
    setObjectName(QStringLiteral("PropertiesDock"));
    view_ = new QTreeWidget(this);
    view_->setColumnCount(3);
    view_->setHeaderLabels({tr("Property"), tr("Value"), tr("Type")});
    view_->setAlternatingRowColors(true);
    view_->setUniformRowHeights(false);
    view_->setRootIsDecorated(true);
    // Names take what they need up to 2/5 of the width, types up to 1/4, values the rest: a
    // Part's long names (BottomSurfaceInput) and types (SecurityCapabilities) sized to their
    // contents left its values a few pixels in a dock of the default width.
    columns_ = new ColumnFitter(view_, 1, {{0, 0.4}, {2, 0.25}});
    setWidget(view_);
}

void PropertiesDock::setDocument(AssetDocument* document) {
    if (document_) disconnect(document_, nullptr, this, nullptr);
    document_ = document;
    connect(document_, &AssetDocument::assetChanged, this, &PropertiesDock::rebuild);
    connect(document_, &AssetDocument::selectionChanged, this, &PropertiesDock::rebuild);
    rebuild();
}

QString PropertiesDock::valueText(const Property& p) {
    return std::visit(
        [&](const auto& v) -> QString {
            using T = std::decay_t<decltype(v)>;
            if constexpr (std::is_same_v<T, std::monostate>) {
                return QStringLiteral("—");
            } else if constexpr (std::is_same_v<T, bool>) {
                return v ? QStringLiteral("true") : QStringLiteral("false");
            } else if constexpr (std::is_same_v<T, std::int64_t>) {
                return QString::number(v);
            } else if constexpr (std::is_same_v<T, double>) {
                return num(v);
            } else if constexpr (std::is_same_v<T, std::string>) {
                return QString::fromStdString(v);
            } else if constexpr (std::is_same_v<T, Bytes>) {
                QString hex;
                for (std::size_t i = 0; i < v.size() && i < 24; ++i)
                    hex += QStringLiteral("%1 ").arg(v[i], 2, 16, QLatin1Char('0'));
                if (v.size() > 24) hex += QStringLiteral("…");
                return QStringLiteral("%1 bytes  %2").arg(v.size()).arg(hex.trimmed());
            } else if constexpr (std::is_same_v<T, Vec2>) {
                return vec({v.x, v.y});
            } else if constexpr (std::is_same_v<T, Vec3>) {
                if (isColorType(p.type))
                    return colorOf(p).name().toUpper() + "  (" + vec({v.x, v.y, v.z}) + ")";
                return vec({v.x, v.y, v.z});
            } else if constexpr (std::is_same_v<T, Vec4>) {
                return vec({v.x, v.y, v.z, v.w});
            } else if constexpr (std::is_same_v<T, CFrame>) {
                const auto e = eulerXYZ(v.rotation);
                return QStringLiteral("pos (%1)  rot (%2)°")
                    .arg(vec({v.position.x, v.position.y, v.position.z}), vec({e[0], e[1], e[2]}));
            } else if constexpr (std::is_same_v<T, NodeRef>) {
                return v.node < 0 ? QStringLiteral("nil") : QStringLiteral("→ node %1").arg(v.node);
            } else if constexpr (std::is_same_v<T, SharedStringRef>) {
                // addProperty shows the content; a bare reference names its table entry.
                return QStringLiteral("shared string %1").arg(v.index);
            } else {
                QStringList parts;
                for (double d : v) parts << num(d);
                return parts.join(QStringLiteral(", "));
            }
        },
        p.value);
}

void PropertiesDock::addProperty(QTreeWidgetItem* parent, const Property& p) {
    if (const auto* shared = std::get_if<SharedStringRef>(&p.value);
        shared && document_ && document_->hasAsset()) {
        // Shown as its content, as a string value is (one node's properties at a time).
        addProperty(parent, Property{p.name, p.type,
                                     std::string(document_->asset().sharedString(shared->index)),
                                     p.offset, p.length});
        return;
    }
    const QString name = QString::fromStdString(p.name);
    const QString type = QString::fromStdString(p.type);
    QTreeWidgetItem* item = row(parent, name, valueText(p), type);
    if (p.length) item->setToolTip(0, tr("bytes %1").arg(hexRange(p.offset, p.length)));

    if (const auto* cf = std::get_if<CFrame>(&p.value)) {
        const auto e = eulerXYZ(cf->rotation);
        row(item, tr("Position"), vec({cf->position.x, cf->position.y, cf->position.z}), "Vector3");
        row(item, tr("Orientation"), vec({e[0], e[1], e[2]}) + QStringLiteral(" °"),
            tr("XYZ degrees"));
        const auto& m = cf->rotation;
        row(item, tr("Right"), vec({m[0], m[3], m[6]}), "Vector3");
        row(item, tr("Up"), vec({m[1], m[4], m[7]}), "Vector3");
        row(item, tr("Back"), vec({m[2], m[5], m[8]}), "Vector3");
    } else if (isColorType(p.type)) {
        const QColor c = colorOf(p);
        if (c.isValid()) item->setIcon(1, swatch(c));
    } else if (const auto brick = brickColorDisplay(p)) {
        item->setText(1, brick->text);
        if (brick->color.isValid()) item->setIcon(1, swatch(brick->color));
    } else if (isBinaryProperty(p) && p.length > 0) {
        // Size plus a link that selects the value's bytes (hex dock and tree follow).
        item->setText(1, QString());
        auto* link = new QLabel(QStringLiteral("%1  <a href=\"bytes\">show bytes</a>")
                                    .arg(binarySummary(p).toHtmlEscaped()));
        link->setTextInteractionFlags(Qt::LinksAccessibleByMouse | Qt::LinksAccessibleByKeyboard);
        link->setToolTip(tr("Select bytes %1 in the hex view").arg(hexRange(p.offset, p.length)));
        const quint64 offset = p.offset, length = p.length;
        const int node = document_->selectedNode();
        connect(link, &QLabel::linkActivated, this, [this, offset, length, node](const QString&) {
            document_->selectBytes(offset, length, node);
        });
        view_->setItemWidget(item, 1, link);
    } else if (const auto* ref = std::get_if<NodeRef>(&p.value)) {
        const Asset& a = document_->asset();
        if (ref->node >= 0 && ref->node < int(a.nodes.size())) {
            const QString targetName = toQString(a.name(ref->node));
            item->setText(1, QString());
            auto* link = new QLabel(
                QStringLiteral("<a href=\"%1\">%2</a> <span style='color:gray'>%3</span>")
                    .arg(ref->node)
                    .arg(targetName.toHtmlEscaped(), toQString(a.kind(ref->node)).toHtmlEscaped()));
            link->setTextInteractionFlags(Qt::LinksAccessibleByMouse |
                                          Qt::LinksAccessibleByKeyboard);
            link->setToolTip(tr("Select %1").arg(targetName));
            const int targetNode = ref->node;
            connect(link, &QLabel::linkActivated, this,
                    [this, targetNode](const QString&) { document_->selectNode(targetNode); });
            view_->setItemWidget(item, 1, link);
        }
    }
}

void PropertiesDock::rebuild() {
    view_->clear();
    if (!document_ || !document_->hasAsset()) return;
    const Asset& a = document_->asset();
    const int node = document_->selectedNode();
    const auto bold = [](QTreeWidgetItem* item) {
        QFont f = item->font(0);
        f.setBold(true);
        item->setFont(0, f);
        item->setFirstColumnSpanned(true);
        return item;
    };
    if (node < 0 || node >= int(a.nodes.size())) {
        // Nothing selected: facts about the file.
        QTreeWidgetItem* file = bold(new QTreeWidgetItem(view_, {tr("File")}));
        row(file, tr("Name"), document_->displayName());
        row(file, tr("Format"), QString::fromStdString(a.formatName));
        row(file, tr("Version"), QString::fromStdString(a.version));
        row(file, tr("Size"), QLocale().toString(qulonglong(document_->fileSize())) + tr(" bytes"));
        if (document_->inflated())
            row(file, tr("Inflated (gzip)"),
                QLocale().toString(qulonglong(document_->bytes().size())) + tr(" bytes"));
        row(file, tr("Nodes"), QLocale().toString(qulonglong(a.nodes.size())));
        row(file, tr("Meshes"), QLocale().toString(qulonglong(a.meshes.size())));
        if (!a.skeletons.empty()) row(file, tr("Skeletons"), QString::number(a.skeletons.size()));
        if (!a.animations.empty())
            row(file, tr("Animations"), QString::number(a.animations.size()));
        row(file, tr("Byte ranges"), QLocale().toString(qulonglong(a.byteMap.size())));
        row(file, tr("Warnings"), QString::number(a.warningCount()));
        view_->expandAll();
        columns_->fit();
        return;
    }
    const Node& n = a.nodes[std::size_t(node)];
    const NodeLinks& links = a.links(node);
    QTreeWidgetItem* head = bold(new QTreeWidgetItem(view_, {toQString(a.kind(node))}));
    row(head, tr("Name"), toQString(a.name(node)));
    row(head, tr("Kind"), toQString(a.kind(node)));
    if (n.length) row(head, tr("Bytes"), hexRange(n.offset, n.length));
    if (links.mesh >= 0 && links.mesh < int(a.meshes.size())) {
        const Mesh& m = a.meshes[std::size_t(links.mesh)];
        row(head, tr("Vertices"), QLocale().toString(qulonglong(m.vertexCount())));
        row(head, tr("Triangles"), QLocale().toString(qulonglong(m.triangleCount())));
        row(head, tr("LODs"), QString::number(m.lods.size()));
        if (!m.surfaces.empty()) row(head, tr("Surfaces"), QString::number(m.surfaces.size()));
        QStringList streams{QStringLiteral("position")};
        if (!m.normals.empty()) streams << QStringLiteral("normal");
        if (!m.uv0.empty()) streams << QStringLiteral("uv0");
        if (!m.uv1.empty()) streams << QStringLiteral("uv1");
        if (!m.tangents.empty()) streams << QStringLiteral("tangent");
        if (!m.colors.empty()) streams << QStringLiteral("colour");
        if (m.skinned()) streams << QStringLiteral("skin");
        row(head, tr("Streams"), streams.join(QStringLiteral(", ")));
        if (m.bounds.valid())
            row(head, tr("Bounds"),
                QStringLiteral("(%1) … (%2)")
                    .arg(vec({m.bounds.min.x, m.bounds.min.y, m.bounds.min.z}),
                         vec({m.bounds.max.x, m.bounds.max.y, m.bounds.max.z})));
        if (links.lod >= 0 && links.lod < int(m.lods.size())) {
            const LodLevel& l = m.lods[std::size_t(links.lod)];
            row(head, tr("LOD"),
                QStringLiteral("%1: triangles %2 … %3")
                    .arg(links.lod)
                    .arg(l.firstTriangle)
                    .arg(qulonglong(l.firstTriangle) + l.triangleCount));
        }
    }
    if (links.skeleton >= 0 && links.skeleton < int(a.skeletons.size()) && links.bone >= 0) {
        const Skeleton& s = a.skeletons[std::size_t(links.skeleton)];
        if (links.bone < int(s.bones.size())) {
            const Bone& b = s.bones[std::size_t(links.bone)];
            row(head, tr("Bone"), QStringLiteral("#%1").arg(links.bone));
            row(head, tr("Parent bone"),
                b.parent >= 0 && b.parent < int(s.bones.size())
                    ? QString::fromStdString(s.bones[std::size_t(b.parent)].name)
                    : tr("(root)"));
            const Vec3 t{b.world.at(0, 3), b.world.at(1, 3), b.world.at(2, 3)};
            row(head, tr("Bind position"), vec({t.x, t.y, t.z}), "Vector3");
        }
    }
    row(head, tr("Children"), QString::number(a.children(node).size()));

    if (const std::vector<Property> properties = a.properties(node); !properties.empty()) {
        QTreeWidgetItem* props = bold(new QTreeWidgetItem(view_, {tr("Properties")}));
        for (const Property& p : properties) addProperty(props, p);
    }
    view_->expandToDepth(0);
    columns_->fit();
}

}  // namespace meshscope::shell
