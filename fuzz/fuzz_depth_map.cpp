// fuzz/fuzz_depth_map.cpp — the images of an RGB-D photo (engine/content/image_files.h) on
// arbitrary bytes: the first byte picks a depth map read from a .png or an .exr file, or a
// colour image decoded from memory (a glTF's embedded image). A refused image gives one
// ContentError line naming it; an accepted one has its size within the limits and as
// many samples as pixels, and is of a format the README names, known by its first bytes:
// a colour image a PNG or JPEG, a depth map an 8- or 16-bit PNG or a 32-bit (float) EXR.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "engine/content/content_error.h"
#include "engine/content/image_files.h"
#include "fuzz_check.h"
#include "fuzz_content_file.h"

namespace {

void checkSize(int width, int height) {
  FUZZ_CHECK(width > 0 && height > 0 && width <= satdof::content::kMaxImageSide &&
             height <= satdof::content::kMaxImageSide &&
             std::int64_t(width) * height <= satdof::content::kMaxImagePixels);
}

void checkError(const satdof::content::ContentError& e, const char* name) {
  const std::string what = e.what();
  FUZZ_CHECK(what.find('\n') == std::string::npos);
  FUZZ_CHECK(what.find(name) != std::string::npos);
}

bool startsWith(const std::uint8_t* data, std::size_t size, const char* magic, std::size_t length) {
  return size >= length && std::memcmp(data, magic, length) == 0;
}
bool isPng(const std::uint8_t* d, std::size_t n) { return startsWith(d, n, "\x89PNG\r\n\x1a\n", 8); }
bool isJpeg(const std::uint8_t* d, std::size_t n) { return startsWith(d, n, "\xff\xd8\xff", 3); }
bool isExr(const std::uint8_t* d, std::size_t n) { return startsWith(d, n, "v/1\x01", 4); }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::uint8_t kind = data[0] % 3;
  ++data, --size;
  try {
    if (kind == 2) {
      const satdof::content::ColourImage c = satdof::content::decodeColourImage("embedded.png", data, size);
      checkSize(c.width, c.height);
      FUZZ_CHECK(c.rgba.size() == std::size_t(c.width) * std::size_t(c.height) * 4);
      FUZZ_CHECK(isPng(data, size) || isJpeg(data, size));
      return 0;
    }
    const FuzzFile file("fuzz_depth", kind == 0 ? ".png" : ".exr", data, size);
    try {
      const satdof::content::DepthSamples d = satdof::content::readDepthImage(file.path());
      checkSize(d.width, d.height);
      FUZZ_CHECK(d.values.size() == std::size_t(d.width) * std::size_t(d.height));
      FUZZ_CHECK(d.bits == 8 || d.bits == 16 || d.bits == 32);
      FUZZ_CHECK(d.bits == 32 ? isExr(data, size) && std::strcmp(d.format, "EXR") == 0
                              : isPng(data, size) && std::strcmp(d.format, "PNG") == 0);
    } catch (const satdof::content::ContentError& e) {
      checkError(e, "fuzz_depth_");
    }
  } catch (const satdof::content::ContentError& e) {
    checkError(e, "embedded.png");
  }
  return 0;
}
