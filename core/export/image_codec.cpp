// PNG / JPEG decoding and PNG encoding for the exporters (see image_codec.h).
#include "export/image_codec.h"

#include <jpeglib.h>
#include <png.h>

#include <algorithm>
#include <csetjmp>
#include <cstdio>
#include <cstring>

namespace meshscope::exporting {

namespace {

bool sizeAllowed(std::uint32_t w, std::uint32_t h, std::string& error) {
    if (w == 0 || h == 0) {
        error = "image has no pixels";
        return false;
    }
    if (w > kMaxImageSide || h > kMaxImageSide) {
        error = "image is " + std::to_string(w) + "x" + std::to_string(h) + ", over the " +
                std::to_string(kMaxImageSide) + "x" + std::to_string(kMaxImageSide) + " cap";
        return false;
    }
    return true;
}

GreyImage decodePng(std::span<const std::uint8_t> bytes, std::string& error) {
    png_image img;
    std::memset(&img, 0, sizeof img);
    img.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_memory(&img, bytes.data(), bytes.size())) {
        error = std::string("PNG: ") + img.message;
        png_image_free(&img);
        return {};
    }
    if (!sizeAllowed(img.width, img.height, error)) {
        png_image_free(&img);
        return {};
    }
    img.format = PNG_FORMAT_GRAY;
    GreyImage out;
    out.width = img.width;
    out.height = img.height;
    out.pixels.resize(PNG_IMAGE_SIZE(img));
    if (!png_image_finish_read(&img, nullptr, out.pixels.data(), 0, nullptr)) {
        error = std::string("PNG: ") + img.message;
        png_image_free(&img);
        return {};
    }
    png_image_free(&img);
    if (out.pixels.size() != std::size_t(out.width) * out.height) {
        error = "PNG: unexpected decoded size";
        return {};
    }
    return out;
}

// libjpeg reports fatal errors through error_exit, which must not return: it jumps back to
// decodeJpeg's setjmp. Only C frames (libjpeg's) lie between, and the jump lands in the frame
// that called setjmp, whose objects with destructors live in the caller (decodeJpegInto's
// arguments), so no destructor is skipped.
struct JpegError {
    jpeg_error_mgr mgr;
    std::jmp_buf jump;
    char message[JMSG_LENGTH_MAX];
};

[[noreturn]] void jpegErrorExit(j_common_ptr cinfo) {
    auto* e = reinterpret_cast<JpegError*>(cinfo->err);
    (*cinfo->err->format_message)(cinfo, e->message);
    std::longjmp(e->jump, 1);
}
void jpegQuiet(j_common_ptr) {}  // warnings (corrupt data, premature end) are not printed

// A progressive JPEG can hold thousands of tiny scans (each a full pass over the image).
constexpr int kMaxJpegScans = 1000;
void jpegProgress(j_common_ptr cinfo) {
    if (cinfo->is_decompressor) {
        auto* d = reinterpret_cast<j_decompress_ptr>(cinfo);
        if (d->input_scan_number > kMaxJpegScans) {
            auto* e = reinterpret_cast<JpegError*>(cinfo->err);
            std::snprintf(e->message, sizeof e->message, "more than %d scans", kMaxJpegScans);
            std::longjmp(e->jump, 1);
        }
    }
}

// Fills `out` (owned by the caller, so that a jump skips no destructor). Returns false with
// `message` set on failure.
bool decodeJpegInto(const std::uint8_t* data, std::size_t size, GreyImage* out, char* message,
                    std::size_t messageSize) {
    jpeg_decompress_struct cinfo;
    JpegError err;
    jpeg_progress_mgr progress;
    std::memset(&cinfo, 0, sizeof cinfo);
    std::memset(&progress, 0, sizeof progress);
    err.message[0] = 0;
    cinfo.err = jpeg_std_error(&err.mgr);
    err.mgr.error_exit = jpegErrorExit;
    err.mgr.output_message = jpegQuiet;
    if (setjmp(err.jump)) {
        std::snprintf(message, messageSize, "JPEG: %s", err.message);
        jpeg_destroy_decompress(&cinfo);
        return false;
    }
    jpeg_create_decompress(&cinfo);
    progress.progress_monitor = jpegProgress;
    cinfo.progress = &progress;
    jpeg_mem_src(&cinfo, data, static_cast<unsigned long>(size));
    jpeg_read_header(&cinfo, TRUE);
    std::string sizeError;
    if (!sizeAllowed(cinfo.image_width, cinfo.image_height, sizeError)) {
        std::snprintf(message, messageSize, "JPEG: %s", sizeError.c_str());
        jpeg_destroy_decompress(&cinfo);
        return false;
    }
    cinfo.out_color_space = JCS_GRAYSCALE;  // CMYK / YCCK sources refuse this (an error)
    jpeg_start_decompress(&cinfo);
    if (cinfo.output_components != 1 || cinfo.output_width != cinfo.image_width ||
        cinfo.output_height != cinfo.image_height) {
        std::snprintf(message, messageSize, "JPEG: unexpected output format");
        jpeg_destroy_decompress(&cinfo);
        return false;
    }
    out->width = cinfo.output_width;
    out->height = cinfo.output_height;
    out->pixels.assign(std::size_t(out->width) * out->height, 0);
    while (cinfo.output_scanline < cinfo.output_height) {
        JSAMPROW row = out->pixels.data() + std::size_t(cinfo.output_scanline) * out->width;
        if (jpeg_read_scanlines(&cinfo, &row, 1) != 1) break;
    }
    jpeg_finish_decompress(&cinfo);
    jpeg_destroy_decompress(&cinfo);
    return true;
}

}  // namespace

GreyImage decodeGreyImage(std::span<const std::uint8_t> bytes, std::string& error) {
    error.clear();
    if (bytes.size() >= 8 && bytes[0] == 0x89 && bytes[1] == 'P' && bytes[2] == 'N' &&
        bytes[3] == 'G')
        return decodePng(bytes, error);
    if (bytes.size() >= 3 && bytes[0] == 0xFF && bytes[1] == 0xD8 && bytes[2] == 0xFF) {
        GreyImage out;
        char message[JMSG_LENGTH_MAX + 16] = {};
        try {
            if (!decodeJpegInto(bytes.data(), bytes.size(), &out, message, sizeof message)) {
                error = message;
                return {};
            }
        } catch (const std::bad_alloc&) {
            error = "JPEG: out of memory";
            return {};
        }
        return out;
    }
    error = "not a PNG or JPEG image";
    return {};
}

std::vector<std::uint8_t> encodeRgbPng(std::uint32_t width, std::uint32_t height,
                                       std::span<const std::uint8_t> rgb, std::string& error) {
    error.clear();
    if (!sizeAllowed(width, height, error)) return {};
    if (rgb.size() != std::size_t(width) * height * 3) {
        error = "PNG: pixel buffer does not match the size";
        return {};
    }
    png_image img;
    std::memset(&img, 0, sizeof img);
    img.version = PNG_IMAGE_VERSION;
    img.width = width;
    img.height = height;
    img.format = PNG_FORMAT_RGB;
    png_alloc_size_t size = 0;
    if (!png_image_write_to_memory(&img, nullptr, &size, 0, rgb.data(), 0, nullptr)) {
        error = std::string("PNG: ") + img.message;
        png_image_free(&img);
        return {};
    }
    std::vector<std::uint8_t> out(size);
    if (!png_image_write_to_memory(&img, out.data(), &size, 0, rgb.data(), 0, nullptr)) {
        error = std::string("PNG: ") + img.message;
        png_image_free(&img);
        return {};
    }
    png_image_free(&img);
    out.resize(size);
    return out;
}

PackedImage packMetallicRoughness(const GreyImage& roughness, const GreyImage& metalness) {
    PackedImage out;
    if (roughness.empty() && metalness.empty()) return out;
    out.width = std::max(roughness.width, metalness.width);
    out.height = std::max(roughness.height, metalness.height);
    out.rgb.assign(std::size_t(out.width) * out.height * 3, 255);
    // Nearest sample of `g` at the output pixel (x, y).
    auto sample = [&](const GreyImage& g, std::uint32_t x, std::uint32_t y) -> std::uint8_t {
        if (g.empty()) return 255;
        const auto sx = std::uint32_t(std::uint64_t(x) * g.width / out.width);
        const auto sy = std::uint32_t(std::uint64_t(y) * g.height / out.height);
        return g.at(std::min(sx, g.width - 1), std::min(sy, g.height - 1));
    };
    for (std::uint32_t y = 0; y < out.height; ++y)
        for (std::uint32_t x = 0; x < out.width; ++x) {
            std::uint8_t* px = &out.rgb[(std::size_t(y) * out.width + x) * 3];
            px[1] = sample(roughness, x, y);
            px[2] = sample(metalness, x, y);
        }
    return out;
}

}  // namespace meshscope::exporting
