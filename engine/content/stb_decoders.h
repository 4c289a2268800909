// engine/content/stb_decoders.h — stb_image's PNG decoder (Debian's libstb-dev header),
// compiled alone in stb_decoders.cpp: its functions are static there, so nothing else in the
// program (Debian's libstb, which tinygltf and the PNG writer link) binds to them or they to
// it. Its JPEG decoder is left out: Debian's 2.27 has undefined behaviour on broken JPEGs
// that upstream fixed later, and libjpeg-turbo reads them instead (jpeg_decoder.h).
// Callers check the bytes first (image_checks.h).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

namespace satdof::content::stb {

struct Free {
  void operator()(void* pixels) const;
};
template <class T>
using Pixels = std::unique_ptr<T, Free>;

// The header's size and channel count; false: not an image the decoders read (reason()).
bool info(const std::uint8_t* bytes, int size, int& width, int& height, int& channels);
bool is16Bit(const std::uint8_t* bytes, int size);
// The pixels with `channels` components each (converted), row by row; null: reason().
Pixels<std::uint8_t> load8(const std::uint8_t* bytes, int size, int& width, int& height, int channels);
Pixels<std::uint16_t> load16(const std::uint8_t* bytes, int size, int& width, int& height, int channels);
// Why the last call on this thread failed.
std::string reason();

}  // namespace satdof::content::stb
