// fuzz/fuzz_colour_image.cpp — a colour image (a photo, a glTF's texture) decoded from
// arbitrary bytes by decodeColourImage (engine/content/image_files.h), the JPEG and PNG
// decoders alone: a refused image gives one ContentError line naming it; an accepted one
// starts like a PNG or a JPEG, has its size within the limits and 4 bytes a pixel.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "engine/content/content_error.h"
#include "engine/content/image_files.h"
#include "fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const satdof::content::ColourImage c = satdof::content::decodeColourImage("texture.jpg", data, size);
    FUZZ_CHECK(c.width > 0 && c.height > 0 && c.width <= satdof::content::kMaxImageSide &&
               c.height <= satdof::content::kMaxImageSide &&
               std::int64_t(c.width) * c.height <= satdof::content::kMaxImagePixels);
    FUZZ_CHECK(c.rgba.size() == std::size_t(c.width) * std::size_t(c.height) * 4);
    FUZZ_CHECK((size >= 8 && std::memcmp(data, "\x89PNG\r\n\x1a\n", 8) == 0) ||
               (size >= 3 && std::memcmp(data, "\xff\xd8\xff", 3) == 0));
  } catch (const satdof::content::ContentError& e) {
    const std::string what = e.what();
    FUZZ_CHECK(what.find('\n') == std::string::npos);
    FUZZ_CHECK(what.rfind("'texture.jpg': ", 0) == 0);
  }
  return 0;
}
