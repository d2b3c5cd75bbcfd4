// UTF-8 text from the core (names and kinds are std::string_view into an Asset) as QString.
#pragma once

#include <QString>
#include <string_view>

namespace meshscope::shell {

inline QString toQString(std::string_view s) {
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

}  // namespace meshscope::shell
