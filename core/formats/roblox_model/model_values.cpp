// Roblox model value helpers: type names, interleaving, special CFrame ids, quaternions,
// UniqueId and Font text forms, service class names (see model_values.h).
#include "formats/roblox_model/model_values.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace meshscope::rbx {

namespace {
constexpr const char* kNames[] = {
    nullptr,
    "string",
    "bool",
    "int32",
    "float",
    "double",
    "UDim",
    "UDim2",
    "Ray",
    "Faces",
    "Axes",
    "BrickColor",
    "Color3",
    "Vector2",
    "Vector3",
    "Vector2int16",
    "CFrame",
    "CFrame",
    "Enum",
    "Ref",
    "Vector3int16",
    "NumberSequence",
    "ColorSequence",
    "NumberRange",
    "Rect",
    "PhysicalProperties",
    "Color3uint8",
    "int64",
    "SharedString",
    "Bytecode",
    "OptionalCFrame",
    "UniqueId",
    "Font",
    "SecurityCapabilities",
    "Content",
};
static_assert(std::size(kNames) == kLastTypeId + 1);
}  // namespace

const char* typeName(std::uint8_t id) {
    return id <= kLastTypeId ? kNames[id] : nullptr;
}

std::uint8_t typeIdForName(std::string_view name) {
    // XML-only names that the binary format stores as strings.
    if (name == "BinaryString" || name == "ProtectedString") return kString;
    for (std::uint8_t id = 1; id <= kLastTypeId; ++id) {
        if (id == kCFrameQuat) continue;  // "CFrame" maps to 0x10; 0x11 is a writer option
        if (name == kNames[id]) return id;
    }
    return 0;
}

void deinterleave(const std::uint8_t* src, std::size_t count, std::size_t width,
                  std::uint8_t* dst) {
    if (width == 4) {
        const std::uint8_t* c0 = src;
        const std::uint8_t* c1 = src + count;
        const std::uint8_t* c2 = src + 2 * count;
        const std::uint8_t* c3 = src + 3 * count;
        for (std::size_t i = 0; i < count; ++i) {
            dst[4 * i] = c0[i];
            dst[4 * i + 1] = c1[i];
            dst[4 * i + 2] = c2[i];
            dst[4 * i + 3] = c3[i];
        }
        return;
    }
    for (std::size_t b = 0; b < width; ++b) {
        const std::uint8_t* col = src + b * count;
        for (std::size_t i = 0; i < count; ++i) dst[i * width + b] = col[i];
    }
}

void interleave(const std::uint8_t* src, std::size_t count, std::size_t width, std::uint8_t* dst) {
    for (std::size_t b = 0; b < width; ++b) {
        std::uint8_t* col = dst + b * count;
        for (std::size_t i = 0; i < count; ++i) col[i] = src[i * width + b];
    }
}

namespace {
std::array<float, 3> normalVector(int n) {
    std::array<float, 3> v{0, 0, 0};
    v[n % 3] = n < 3 ? 1.0f : -1.0f;
    return v;
}
}  // namespace

std::optional<std::array<float, 9>> specialRotation(std::uint8_t id) {
    if (id < 1 || id > 36) return std::nullopt;
    const int right = (id - 1) / 6, up = (id - 1) % 6;
    if (right > 5 || right % 3 == up % 3) return std::nullopt;
    const auto r = normalVector(right), u = normalVector(up);
    const std::array<float, 3> b{r[1] * u[2] - r[2] * u[1], r[2] * u[0] - r[0] * u[2],
                                 r[0] * u[1] - r[1] * u[0]};
    std::array<float, 9> m{};
    for (int row = 0; row < 3; ++row) {
        m[row * 3 + 0] = r[row];
        m[row * 3 + 1] = u[row];
        m[row * 3 + 2] = b[row] + 0.0f;  // no negative zero
    }
    return m;
}

std::uint8_t specialRotationId(const std::array<float, 9>& m) {
    for (std::uint8_t id = 2; id <= 35; ++id) {
        const auto s = specialRotation(id);
        if (s && std::equal(s->begin(), s->end(), m.begin())) return id;
    }
    return 0;
}

std::array<float, 9> quaternionToMatrix(float x, float y, float z, float w) {
    return {1 - 2 * (y * y + z * z), 2 * (x * y - z * w),     2 * (x * z + y * w),
            2 * (x * y + z * w),     1 - 2 * (x * x + z * z), 2 * (y * z - x * w),
            2 * (x * z - y * w),     2 * (y * z + x * w),     1 - 2 * (x * x + y * y)};
}

std::array<float, 4> matrixToQuaternion(const std::array<float, 9>& m) {
    const float trace = m[0] + m[4] + m[8];
    float x, y, z, w;
    if (trace > 0) {
        const float s = std::sqrt(trace + 1.0f) * 2;
        w = 0.25f * s;
        x = (m[7] - m[5]) / s;
        y = (m[2] - m[6]) / s;
        z = (m[3] - m[1]) / s;
    } else if (m[0] > m[4] && m[0] > m[8]) {
        const float s = std::sqrt(1.0f + m[0] - m[4] - m[8]) * 2;
        w = (m[7] - m[5]) / s;
        x = 0.25f * s;
        y = (m[1] + m[3]) / s;
        z = (m[2] + m[6]) / s;
    } else if (m[4] > m[8]) {
        const float s = std::sqrt(1.0f + m[4] - m[0] - m[8]) * 2;
        w = (m[2] - m[6]) / s;
        x = (m[1] + m[3]) / s;
        y = 0.25f * s;
        z = (m[5] + m[7]) / s;
    } else {
        const float s = std::sqrt(1.0f + m[8] - m[0] - m[4]) * 2;
        w = (m[3] - m[1]) / s;
        x = (m[2] + m[6]) / s;
        y = (m[5] + m[7]) / s;
        z = 0.25f * s;
    }
    return {x, y, z, w};
}

std::string formatUniqueId(std::uint32_t index, std::uint32_t time, std::int64_t random) {
    // "%016llx%08x%08x", by hand: an XML place has a UniqueId on most of its items.
    static constexpr char kHex[] = "0123456789abcdef";
    std::string out(32, '0');
    auto put = [&](std::size_t at, std::uint64_t v, int digits) {
        for (int i = digits - 1; i >= 0; --i, v >>= 4) out[at + std::size_t(i)] = kHex[v & 15];
    };
    put(0, static_cast<std::uint64_t>(random), 16);
    put(16, time, 8);
    put(24, index, 8);
    return out;
}

bool parseUniqueId(std::string_view text, std::uint32_t& index, std::uint32_t& time,
                   std::int64_t& random) {
    if (text.size() != 32) return false;
    auto hex = [&](std::size_t from, std::size_t n, std::uint64_t& out) {
        out = 0;
        for (std::size_t i = from; i < from + n; ++i) {
            const char c = text[i];
            int d;
            if (c >= '0' && c <= '9')
                d = c - '0';
            else if (c >= 'a' && c <= 'f')
                d = c - 'a' + 10;
            else if (c >= 'A' && c <= 'F')
                d = c - 'A' + 10;
            else
                return false;
            out = out << 4 | std::uint64_t(d);
        }
        return true;
    };
    std::uint64_t r, t, i;
    if (!hex(0, 16, r) || !hex(16, 8, t) || !hex(24, 8, i)) return false;
    random = std::int64_t(r);
    time = std::uint32_t(t);
    index = std::uint32_t(i);
    return true;
}

std::string fontStyleName(unsigned style) {
    if (style == 0) return "Normal";
    if (style == 1) return "Italic";
    return std::to_string(style);
}

unsigned fontStyleValue(std::string_view name) {
    if (name == "Normal" || name.empty()) return 0;
    if (name == "Italic") return 1;
    unsigned v = 0;
    for (char c : name) {
        if (c < '0' || c > '9') return 0;
        v = v * 10 + unsigned(c - '0');
        if (v > 255) return 0;
    }
    return v;
}

std::string formatFont(std::string_view family, unsigned weight, std::string_view style,
                       std::string_view cachedFaceId) {
    std::string s = "Family=";
    s += family;
    s += "; Weight=" + std::to_string(weight) + "; Style=";
    s += style;
    s += "; CachedFaceId=";
    s += cachedFaceId;
    return s;
}

FontParts parseFont(std::string_view text) {
    FontParts f;
    const auto w = text.find("; Weight=");
    const auto st = text.find("; Style=", w == std::string_view::npos ? 0 : w);
    const auto c = text.find("; CachedFaceId=", st == std::string_view::npos ? 0 : st);
    if (text.rfind("Family=", 0) != 0 || w == std::string_view::npos ||
        st == std::string_view::npos || c == std::string_view::npos) {
        f.family = std::string(text);
        return f;
    }
    f.family = std::string(text.substr(7, w - 7));
    f.weight =
        unsigned(std::strtoul(std::string(text.substr(w + 9, st - w - 9)).c_str(), nullptr, 10));
    f.style = std::string(text.substr(st + 8, c - st - 8));
    f.cachedFaceId = std::string(text.substr(c + 15));
    return f;
}

bool isServiceClass(std::string_view c) {
    static constexpr std::string_view kServices[] = {
        "Workspace",
        "Lighting",
        "Players",
        "StarterGui",
        "StarterPack",
        "StarterPlayer",
        "Teams",
        "Chat",
        "Debris",
        "ReplicatedFirst",
        "TextChatService",
        "VoiceChatService",
        "MaterialService",
        "CSGDictionaryService",
        "NonReplicatedCSGDictionaryService",
        "Selection",
        "TouchInputService",
        "Visit",
        "NetworkClient",
        "NetworkServer",
        "JointsService",
        "InsertService",
        "ContentProvider",
        "PhysicsService",
    };
    if (std::find(std::begin(kServices), std::end(kServices), c) != std::end(kServices))
        return true;
    return c.size() > 7 && c.substr(c.size() - 7) == "Service";
}

}  // namespace meshscope::rbx
