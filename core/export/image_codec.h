// PNG / JPEG decoding to one grey channel and PNG encoding, for images the exporters combine
// (glTF packs a roughness and a metalness map into one metallicRoughnessTexture). Images are
// untrusted: their size is capped before anything is allocated, every failure is a message (no
// exception, no crash). libpng and libjpeg (Debian libpng-dev, libjpeg62-turbo-dev).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace meshscope::exporting {

// Images larger than this on either side, or with more pixels than kMaxImageSide², are refused.
inline constexpr std::uint32_t kMaxImageSide = 8192;

struct GreyImage {
    std::uint32_t width = 0, height = 0;
    std::vector<std::uint8_t> pixels;  // width * height bytes, rows top to bottom
    bool empty() const { return width == 0 || height == 0; }
    std::uint8_t at(std::uint32_t x, std::uint32_t y) const {
        return pixels[std::size_t(y) * width + x];
    }
};

// A PNG or JPEG (sniffed by its first bytes) as 8-bit grey (colour images: their luminance;
// alpha dropped). Empty image and `error` set when it cannot be decoded or is too large.
GreyImage decodeGreyImage(std::span<const std::uint8_t> bytes, std::string& error);

// An 8-bit RGB image as PNG bytes; empty and `error` set on failure.
std::vector<std::uint8_t> encodeRgbPng(std::uint32_t width, std::uint32_t height,
                                       std::span<const std::uint8_t> rgb, std::string& error);

// glTF's metallicRoughnessTexture: roughness in G, metalness in B (R 255: no occlusion). Either
// map may be empty: its channel is then 255 (the caller uses the material's factor instead). The
// image has the larger width and the larger height of the two; a smaller map is resampled
// (nearest). Both empty: empty result.
struct PackedImage {
    std::uint32_t width = 0, height = 0;
    std::vector<std::uint8_t> rgb;
};
PackedImage packMetallicRoughness(const GreyImage& roughness, const GreyImage& metalness);

}  // namespace meshscope::exporting
