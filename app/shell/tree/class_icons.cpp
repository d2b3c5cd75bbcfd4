// Class family badges for the instance tree (see class_icons.h).
#include "tree/class_icons.h"

#include <QHash>
#include <QPainter>
#include <QPixmap>
#include <array>

namespace meshscope::shell {

namespace {

bool endsWith(std::string_view s, std::string_view suffix) {
    return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}
bool contains(std::string_view s, std::string_view part) {
    return s.find(part) != std::string_view::npos;
}
template <std::size_t N>
bool oneOf(std::string_view s, const std::array<std::string_view, N>& names) {
    for (std::string_view n : names)
        if (s == n) return true;
    return false;
}

struct Badge {
    QColor color;
    QString glyph;
};

Badge badgeOf(ClassFamily f) {
    switch (f) {
        case ClassFamily::Part:
            return {QColor(86, 140, 214), QStringLiteral("P")};
        case ClassFamily::Mesh:
            return {QColor(64, 170, 190), QStringLiteral("M")};
        case ClassFamily::Script:
            return {QColor(222, 178, 44), QStringLiteral("S")};
        case ClassFamily::Service:
            return {QColor(120, 126, 138), QStringLiteral("★")};
        case ClassFamily::Folder:
            return {QColor(200, 160, 90), QStringLiteral("F")};
        case ClassFamily::Model:
            return {QColor(72, 166, 96), QStringLiteral("▣")};
        case ClassFamily::Value:
            return {QColor(150, 100, 200), QStringLiteral("V")};
        case ClassFamily::Light:
            return {QColor(250, 210, 70), QStringLiteral("☀")};
        case ClassFamily::Gui:
            return {QColor(40, 160, 150), QStringLiteral("G")};
        case ClassFamily::Constraint:
            return {QColor(230, 120, 50), QStringLiteral("C")};
        case ClassFamily::Effect:
            return {QColor(220, 90, 160), QStringLiteral("✦")};
        case ClassFamily::Sound:
            return {QColor(90, 110, 220), QStringLiteral("♪")};
        case ClassFamily::Animation:
            return {QColor(200, 80, 80), QStringLiteral("A")};
        case ClassFamily::Character:
            return {QColor(110, 180, 60), QStringLiteral("H")};
        case ClassFamily::Camera:
            return {QColor(100, 100, 100), QStringLiteral("◉")};
        case ClassFamily::Other:
            break;
    }
    return {};
}

QPixmap paintBadge(const Badge& b, int size, qreal dpr) {
    QPixmap pm(QSize(size, size) * dpr);
    pm.setDevicePixelRatio(dpr);
    pm.fill(Qt::transparent);
    QPainter p(&pm);
    p.setRenderHint(QPainter::Antialiasing);
    p.setPen(QPen(b.color.darker(150), 1));
    p.setBrush(b.color);
    p.drawRoundedRect(QRectF(0.5, 0.5, size - 1, size - 1), size * 0.22, size * 0.22);
    QFont f = p.font();
    f.setBold(true);
    f.setPixelSize(int(size * 0.68));
    p.setFont(f);
    p.setPen(b.color.lightness() > 170 ? QColor(40, 40, 40) : QColor(Qt::white));
    p.drawText(QRectF(0, 0, size, size), Qt::AlignCenter, b.glyph);
    return pm;
}

}  // namespace

ClassFamily classFamily(std::string_view c, bool service) {
    static constexpr std::array<std::string_view, 15> kParts{"Part",
                                                             "WedgePart",
                                                             "CornerWedgePart",
                                                             "TrussPart",
                                                             "SpawnLocation",
                                                             "Seat",
                                                             "VehicleSeat",
                                                             "UnionOperation",
                                                             "NegateOperation",
                                                             "IntersectOperation",
                                                             "PartOperation",
                                                             "SkateboardPlatform",
                                                             "Terrain",
                                                             "FlagStand",
                                                             "Platform"};
    static constexpr std::array<std::string_view, 7> kMeshes{
        "MeshPart",     "SpecialMesh",       "FileMesh", "BlockMesh",
        "CylinderMesh", "SurfaceAppearance", "WrapLayer"};
    static constexpr std::array<std::string_view, 3> kModels{"Model", "Workspace", "WorldModel"};
    static constexpr std::array<std::string_view, 5> kCharacters{"Humanoid", "HumanoidDescription",
                                                                 "Shirt", "Pants", "Accessory"};
    if (oneOf(c, kParts)) return ClassFamily::Part;
    if (oneOf(c, kMeshes)) return ClassFamily::Mesh;
    if (endsWith(c, "Script")) return ClassFamily::Script;
    if (service) return ClassFamily::Service;
    if (c == "Folder" || c == "Configuration") return ClassFamily::Folder;
    if (oneOf(c, kModels) || c == "Tool" || c == "Backpack") return ClassFamily::Model;
    if (endsWith(c, "Value")) return ClassFamily::Value;
    if (endsWith(c, "Light") && c != "Lighting") return ClassFamily::Light;
    if (c == "Camera") return ClassFamily::Camera;
    if (endsWith(c, "Gui") || c.starts_with("Text") || c.starts_with("Image") ||
        c.starts_with("UI") || c == "Frame" || c == "ScrollingFrame" || c == "ViewportFrame" ||
        c == "CanvasGroup")
        return ClassFamily::Gui;
    if (endsWith(c, "Constraint") || c == "Attachment" || c == "Bone" || c.starts_with("Weld") ||
        endsWith(c, "Weld") || c == "Motor6D" || c.starts_with("Body") || c == "AlignPosition" ||
        c == "AlignOrientation")
        return ClassFamily::Constraint;
    if (c == "ParticleEmitter" || c == "Beam" || c == "Trail" || c == "Fire" || c == "Smoke" ||
        c == "Sparkles" || endsWith(c, "Effect") || c == "Decal" || c == "Texture" ||
        c == "Atmosphere" || c == "Sky" || c == "Highlight")
        return ClassFamily::Effect;
    if (contains(c, "Sound")) return ClassFamily::Sound;
    if (contains(c, "Animat") || contains(c, "Keyframe") || c == "Pose" || c == "FaceControls")
        return ClassFamily::Animation;
    if (oneOf(c, kCharacters)) return ClassFamily::Character;
    return ClassFamily::Other;
}

QString classFamilyName(ClassFamily f) {
    static const char* const kNames[] = {
        "other", "part", "mesh",       "script", "service", "folder",    "model",     "value",
        "light", "GUI",  "constraint", "effect", "sound",   "animation", "character", "camera"};
    return QString::fromLatin1(kNames[int(f)]);
}

QIcon classIcon(std::string_view className, bool service) {
    const ClassFamily f = classFamily(className, service);
    if (f == ClassFamily::Other) return {};
    static QHash<int, QIcon> cache;
    auto it = cache.find(int(f));
    if (it != cache.end()) return *it;
    QIcon icon;
    const Badge b = badgeOf(f);
    for (int size : {16, 24, 32}) {
        icon.addPixmap(paintBadge(b, size, 1.0));
        icon.addPixmap(paintBadge(b, size, 2.0));
    }
    cache.insert(int(f), icon);
    return icon;
}

}  // namespace meshscope::shell
