// engine/content/image_checks.h — what an image file's bytes are, known by its first bytes
// (never its name), and the checks made on a PNG's or JPEG's bytes before any decoder sees
// them: the format decides which decoder may run at all (image_files.cpp), the checks
// refuse what the decoder would over-allocate for or write past its tables on.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <vector>

namespace satdof::content {

enum class ImageFormat { Png, Jpeg, Exr, Other };

struct SniffedImage {
  ImageFormat format = ImageFormat::Other;
  const char* what = "";  // for messages: "a PNG image", "a GIF image", kUnknownImage
};

// What sniffImage calls bytes it cannot name (a TGA has no signature to know it by).
inline constexpr const char* kUnknownImage = "not an image this build reads";

// PNG, JPEG and OpenEXR by their signatures; GIF, BMP, TIFF, WebP, PSD, Radiance HDR,
// PNM / PGM / PPM / PAM, QOI, JPEG 2000 / XL, AVIF / HEIF, DDS, KTX, Softimage PIC named.
SniffedImage sniffImage(const std::uint8_t* bytes, std::size_t size);

// Throws ContentError (naming `name`) for a PNG's or JPEG's bytes a decoder must not see:
// over 1 GiB, a stated size over the limits (checkImageSize), a PNG chunk longer than the
// file, a JPEG Huffman table of more than 256 codes.
void checkBeforeDecoding(const std::filesystem::path& name, const std::uint8_t* bytes, std::size_t size);

// stb_image copies each IDAT chunk into a buffer it allocates for the first chunk with data:
// an empty IDAT before that makes it memcpy to a null pointer (undefined behaviour, though
// nothing is copied). Empty IDAT chunks hold nothing: this returns the PNG without them, or
// an empty vector where it has none (then the bytes are decoded as they are). Call it after
// checkBeforeDecoding, which has checked that every chunk fits in the file.
std::vector<std::uint8_t> withoutEmptyPngData(const std::uint8_t* bytes, std::size_t size);

}  // namespace satdof::content
