// fuzz/fuzz_extent.cpp — parseExtent on arbitrary bytes. Beyond "no crash, no UB": a
// success is in range and reads back the same from its canonical "WxH"; a failure has
// one of the two documented messages.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_check.h"
#include "engine/text/parse.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::string error;
  const auto extent = satdof::parseExtent(text, error);
  if (!extent) {
    FUZZ_CHECK(error.starts_with("expected WxH (e.g. 1920x1080), got '") ||
               error.starts_with("width and height must be between 1 and 16384, got '"));
    return 0;
  }
  FUZZ_CHECK(extent->width >= 1 && extent->width <= satdof::kMaxExtent);
  FUZZ_CHECK(extent->height >= 1 && extent->height <= satdof::kMaxExtent);
  const std::string canonical = std::to_string(extent->width) + "x" + std::to_string(extent->height);
  std::string again;
  FUZZ_CHECK(satdof::parseExtent(canonical, again) == extent);
  return 0;
}
