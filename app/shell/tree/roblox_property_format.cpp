// Roblox property display forms (see roblox_property_format.h).
#include "tree/roblox_property_format.h"

#include <QLocale>

#include "meshscope/core/roblox_parts.h"

namespace meshscope::shell {

std::optional<BrickColorDisplay> brickColorDisplay(const Property& p) {
    if (p.type != "BrickColor") return std::nullopt;
    const auto* number = std::get_if<std::int64_t>(&p.value);
    if (!number) return std::nullopt;
    const int n = int(*number);
    const char* name = brickColorName(n);
    const auto rgb = brickColorRgb(n);
    BrickColorDisplay d;
    d.text = name ? QStringLiteral("%1  %2").arg(n).arg(QString::fromLatin1(name))
                  : QStringLiteral("%1  (not in the palette table)").arg(n);
    if (rgb) d.color = QColor::fromRgbF(rgb->x, rgb->y, rgb->z);
    return d;
}

bool isBinaryProperty(const Property& p) {
    if (std::holds_alternative<Bytes>(p.value) || std::holds_alternative<SharedStringRef>(p.value))
        return true;
    return std::holds_alternative<std::string>(p.value) &&
           (p.type == "SharedString" || p.type == "BinaryString" || p.type == "Bytecode");
}

QString binarySummary(const Property& p) {
    std::size_t size = 0;
    if (const auto* b = std::get_if<Bytes>(&p.value)) size = b->size();
    if (const auto* s = std::get_if<std::string>(&p.value)) size = s->size();
    return QStringLiteral("%1 bytes").arg(QLocale().toString(qulonglong(size)));
}

}  // namespace meshscope::shell
