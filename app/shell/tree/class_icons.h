// Icons for Roblox instance classes: a small coloured badge with a glyph per class family
// (parts, meshes, scripts, services, folders, models, values, lights, GUI, constraints,
// effects, sounds, animation, characters), painted with QPainter and cached.
#pragma once

#include <QIcon>
#include <QString>
#include <string_view>

namespace meshscope::shell {

enum class ClassFamily {
    Other,
    Part,
    Mesh,
    Script,
    Service,
    Folder,
    Model,
    Value,
    Light,
    Gui,
    Constraint,
    Effect,
    Sound,
    Animation,
    Character,
    Camera
};

ClassFamily classFamily(std::string_view className, bool service = false);
QString classFamilyName(ClassFamily family);
// Null icon for ClassFamily::Other.
QIcon classIcon(std::string_view className, bool service = false);

}  // namespace meshscope::shell
