// Display forms of Roblox property values the generic properties panel does not know:
// BrickColor numbers with their palette name and colour, and binary-ish values (SharedString,
// BinaryString, Bytecode) summarised by size so the panel can offer a "show bytes" link.
#pragma once

#include <QColor>
#include <QString>
#include <optional>

#include "meshscope/core/asset.h"

namespace meshscope::shell {

// For a BrickColor property: "194 Medium stone grey" and its colour; nullopt otherwise.
struct BrickColorDisplay {
    QString text;
    QColor color;
};
std::optional<BrickColorDisplay> brickColorDisplay(const Property& p);

// True for values shown as a size plus a link to their bytes rather than as text.
bool isBinaryProperty(const Property& p);
// "1,234 bytes" (the value's size, not the stored range's).
QString binarySummary(const Property& p);

}  // namespace meshscope::shell
