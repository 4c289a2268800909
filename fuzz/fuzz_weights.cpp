// fuzz/fuzz_weights.cpp — parseWeights (and through it parseNumber) on arbitrary bytes.
// A success has one finite value per comma-separated item; a failure says "not a
// number" or "out of range" and names the item.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_check.h"
#include "engine/text/parse.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::string error;
  const auto weights = satdof::parseWeights(text, error);
  if (!weights) {
    FUZZ_CHECK(error.starts_with("not a number: '") || error.starts_with("out of range: '"));
    FUZZ_CHECK(error.ends_with(")") && error.find(" (item ") != std::string::npos);
    return 0;
  }
  FUZZ_CHECK(weights->size() == std::size_t(std::count(text.begin(), text.end(), ',')) + 1);
  for (float w : *weights) FUZZ_CHECK(std::isfinite(w));
  // A single number parses alone exactly as it does in a list.
  if (weights->size() == 1) {
    const auto one = satdof::parseNumber(text, error);
    FUZZ_CHECK(one && *one == weights->front());
  }
  return 0;
}
