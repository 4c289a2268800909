// engine/content/stb_decoders.cpp — see stb_decoders.h.
#include "engine/content/stb_decoders.h"

#include "engine/content/image_files.h"

#define STB_IMAGE_IMPLEMENTATION
#define STB_IMAGE_STATIC
#define STBI_ONLY_PNG
#define STBI_NO_STDIO
#define STBI_NO_LINEAR
#define STBI_NO_HDR
#define STBI_MAX_DIMENSIONS 16384  // kMaxImageSide: a decoder refuses a larger side itself too
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wsign-compare"
#include <stb/stb_image.h>
#pragma GCC diagnostic pop
static_assert(STBI_MAX_DIMENSIONS == satdof::content::kMaxImageSide);

namespace satdof::content::stb {

void Free::operator()(void* pixels) const { stbi_image_free(pixels); }

bool info(const std::uint8_t* bytes, int size, int& width, int& height, int& channels) {
  return stbi_info_from_memory(bytes, size, &width, &height, &channels) != 0;
}

bool is16Bit(const std::uint8_t* bytes, int size) { return stbi_is_16_bit_from_memory(bytes, size) != 0; }

Pixels<std::uint8_t> load8(const std::uint8_t* bytes, int size, int& width, int& height, int channels) {
  int inFile = 0;
  return Pixels<std::uint8_t>(stbi_load_from_memory(bytes, size, &width, &height, &inFile, channels));
}

Pixels<std::uint16_t> load16(const std::uint8_t* bytes, int size, int& width, int& height, int channels) {
  int inFile = 0;
  return Pixels<std::uint16_t>(stbi_load_16_from_memory(bytes, size, &width, &height, &inFile, channels));
}

std::string reason() {
  const char* why = stbi_failure_reason();
  return why ? why : "unknown";
}

}  // namespace satdof::content::stb
