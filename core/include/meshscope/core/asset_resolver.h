// Resolves Roblox asset references (rbxassetid://N, http(s)://…?id=N, a bare number) to files
// inside folders the user chose: a file named by the asset id, with or without ".mesh". Nothing
// outside the folders is ever returned: no URLs, no paths, no "..", no symlinks leading out.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace meshscope {

// The numeric asset id of a reference, or nullopt with `why` set (a path, a non-numeric id ...).
// Accepted: "rbxassetid://123", "rbxassetid://123/" , "http(s)://www.roblox.com/asset/?id=123"
// (any host; the id query parameter only), "123".
std::optional<std::uint64_t> parseAssetId(std::string_view reference, std::string* why = nullptr);

struct AssetResolution {
    std::filesystem::path path;  // empty when not resolved
    std::uint64_t id = 0;
    std::string warning;  // why it was refused or not found
    bool ok() const { return !path.empty(); }
};

class AssetResolver {
public:
    AssetResolver() = default;
    explicit AssetResolver(std::vector<std::filesystem::path> folders);

    void addFolder(const std::filesystem::path& folder);
    const std::vector<std::filesystem::path>& folders() const { return folders_; }

    // Looks for "<id>" then "<id>.mesh" in each folder in order. An "rbxasset://a/b.mesh"
    // reference (Roblox's built-in content) is looked up as a/b.mesh in each folder that is
    // named "content", or in its "content" subfolder; plain names only (no ".."). A candidate is
    // accepted only when it is a regular file whose canonical path (symlinks followed) lies inside
    // the folder's canonical path.
    AssetResolution resolve(std::string_view reference) const;

private:
    std::vector<std::filesystem::path> folders_;
};

}  // namespace meshscope
