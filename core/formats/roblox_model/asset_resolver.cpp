// Asset reference resolution inside user-chosen folders (see asset_resolver.h). The id is
// reduced to decimal digits before any path is built, so a reference can never name a path.
#include "meshscope/core/asset_resolver.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <string>
#include <system_error>

namespace meshscope {

namespace {

bool startsWithNoCase(std::string_view s, std::string_view prefix) {
    return s.size() >= prefix.size() &&
           std::equal(prefix.begin(), prefix.end(), s.begin(), [](char a, char b) {
               return std::tolower(static_cast<unsigned char>(a)) ==
                      std::tolower(static_cast<unsigned char>(b));
           });
}

std::optional<std::uint64_t> digits(std::string_view s) {
    if (s.empty() || s.size() > 19) return std::nullopt;
    std::uint64_t v = 0;
    for (char c : s) {
        if (c < '0' || c > '9') return std::nullopt;
        v = v * 10 + std::uint64_t(c - '0');
    }
    return v;
}

std::optional<std::uint64_t> fail(std::string* why, std::string text) {
    if (why) *why = std::move(text);
    return std::nullopt;
}

// True when `child` (canonical) lies inside `folder` (canonical).
bool inside(const std::filesystem::path& child, const std::filesystem::path& folder) {
    auto c = child.begin();
    for (auto f = folder.begin(); f != folder.end(); ++f, ++c) {
        if (f->empty()) continue;  // trailing separator
        if (c == child.end() || *c != *f) return false;
    }
    return c != child.end();
}

// The relative path of an rbxasset:// reference ("fonts/x.mesh"), or nothing with `why` set:
// plain names separated by '/', no "..", no absolute path, no drive or backslash.
std::optional<std::string> contentPath(std::string_view ref, std::string& why) {
    std::string_view rest = ref.substr(std::string_view("rbxasset://").size());
    while (!rest.empty() && rest.back() == ' ') rest.remove_suffix(1);
    if (rest.empty() || rest.front() == '/') {
        why = "built-in content reference without a relative path: " + std::string(ref);
        return std::nullopt;
    }
    std::string_view segments = rest;
    while (true) {
        const auto slash = segments.find('/');
        const std::string_view seg = segments.substr(0, slash);
        const bool plain = !seg.empty() && seg != "." && seg != ".." &&
                           std::all_of(seg.begin(), seg.end(), [](char c) {
                               return std::isalnum(static_cast<unsigned char>(c)) || c == '_' ||
                                      c == '-' || c == '.' || c == ' ';
                           });
        if (!plain) {
            why = "refused built-in content path (plain names only): " + std::string(ref);
            return std::nullopt;
        }
        if (slash == std::string_view::npos) break;
        segments.remove_prefix(slash + 1);
    }
    return std::string(rest);
}

bool namedContent(const std::filesystem::path& p) {
    std::string n = p.filename().string();
    std::transform(n.begin(), n.end(), n.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    return n == "content";
}

}  // namespace

std::optional<std::uint64_t> parseAssetId(std::string_view ref, std::string* why) {
    while (!ref.empty() && std::isspace(static_cast<unsigned char>(ref.front())))
        ref.remove_prefix(1);
    while (!ref.empty() && std::isspace(static_cast<unsigned char>(ref.back())))
        ref.remove_suffix(1);
    if (ref.empty()) return fail(why, "empty asset reference");
    if (startsWithNoCase(ref, "rbxassetid://")) {
        std::string_view id = ref.substr(13);
        if (!id.empty() && id.back() == '/') id.remove_suffix(1);
        if (auto v = digits(id)) return v;
        return fail(why, "asset id is not a number: " + std::string(ref));
    }
    if (startsWithNoCase(ref, "http://") || startsWithNoCase(ref, "https://")) {
        // Only the id query parameter is used; the URL itself is never fetched.
        const auto q = ref.find('?');
        if (q != std::string_view::npos) {
            std::string_view query = ref.substr(q + 1);
            while (!query.empty()) {
                const auto amp = query.find('&');
                const std::string_view param = query.substr(0, amp);
                if (startsWithNoCase(param, "id=")) {
                    if (auto v = digits(param.substr(3))) return v;
                    return fail(why, "asset id is not a number: " + std::string(ref));
                }
                if (amp == std::string_view::npos) break;
                query.remove_prefix(amp + 1);
            }
        }
        return fail(why, "URL without a numeric id (never fetched): " + std::string(ref));
    }
    if (auto v = digits(ref)) return v;
    if (startsWithNoCase(ref, "rbxasset://") || startsWithNoCase(ref, "rbxthumb://"))
        return fail(why, "built-in content is not available: " + std::string(ref));
    return fail(why, "not an asset id (paths are never followed): " + std::string(ref));
}

AssetResolver::AssetResolver(std::vector<std::filesystem::path> folders)
    : folders_(std::move(folders)) {}

void AssetResolver::addFolder(const std::filesystem::path& folder) {
    folders_.push_back(folder);
}

AssetResolution AssetResolver::resolve(std::string_view reference) const {
    AssetResolution r;
    std::string why;
    // Takes `candidate` (under the canonical folder `root`) when it is a regular file that does
    // not lead outside `root`; remembers a refusal as the warning.
    const auto take = [&r](const std::filesystem::path& root,
                           const std::filesystem::path& candidate) {
        std::error_code ec;
        const auto real = std::filesystem::canonical(candidate, ec);
        if (ec) return false;
        if (!inside(real, root)) {
            r.warning = "refused " + candidate.string() + ": it leads outside the asset folder";
            return false;
        }
        if (!std::filesystem::is_regular_file(real, ec)) return false;
        r.path = real;
        r.warning.clear();
        return true;
    };
    // rbxasset://fonts/x.mesh: a file of Roblox's content folder, found in an asset folder that
    // is a "content" folder (or holds one, like a Roblox install).
    if (startsWithNoCase(reference, "rbxasset://")) {
        const auto rel = contentPath(reference, why);
        if (!rel) {
            r.warning = why;
            return r;
        }
        for (const auto& folder : folders_) {
            std::error_code ec;
            const auto root = std::filesystem::canonical(folder, ec);
            if (ec || !std::filesystem::is_directory(root, ec)) continue;
            if (take(root, (namedContent(root) ? root : root / "content") / *rel)) return r;
        }
        if (r.warning.empty())
            r.warning = "built-in content " + *rel +
                        " not found (add Roblox's content folder as an asset folder)";
        return r;
    }
    const auto id = parseAssetId(reference, &why);
    if (!id) {
        r.warning = why;
        return r;
    }
    r.id = *id;
    const std::string name = std::to_string(*id);
    for (const auto& folder : folders_) {
        std::error_code ec;
        const auto root = std::filesystem::canonical(folder, ec);
        if (ec || !std::filesystem::is_directory(root, ec)) continue;
        for (const std::string& file : {name, name + ".mesh"})
            if (take(root, root / file)) return r;
    }
    if (r.warning.empty())
        r.warning = folders_.empty() ? "no asset folder to look in for asset " + name
                                     : "asset " + name + " not found in the asset folders";
    return r;
}

}  // namespace meshscope
