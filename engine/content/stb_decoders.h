// engine/content/stb_decoders.h — stb_image's PNG and JPEG decoders (Debian's libstb-dev
// header), compiled alone in stb_decoders.cpp: its functions are static there, so nothing
// else in the program (Debian's libstb, which tinygltf and the PNG writer link) binds to
// them or they to it, and the two compile flags they need stay theirs:
// - -fwrapv: Debian's stb_image (2.27) multiplies a JPEG block's running DC prediction by
//   its quantiser in int; a broken file can make that overflow, which upstream's 2.28
//   refuses and 2.27 leaves to the compiler. With -fwrapv it wraps (a wrong grey in a
//   broken picture, nothing else), and the sanitizers' builds see defined arithmetic.
// - -fno-sanitize=shift: when a JPEG's entropy-coded data stops at a marker, 2.27
//   keeps taking bits (2.28 stops), its bit count goes below zero, and the refill shifts
//   the zeros it pads with by 32 or more (stbi__grow_buffer_unsafe: once `nomore` is set
//   the byte shifted is always 0, and the bit count only grows). The value is 0 however
//   the shift is done, so the sanitizers' builds leave the shift checks out of this file
//   alone (GCC 12 ignores -fno-sanitize=shift-exponent; a shift's base is defined in C++20).
// Callers check the bytes first (image_checks.h); tests/test_image_files.cpp decodes the
// files that showed both.
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
