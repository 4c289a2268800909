// Reference summed-area table and box filter (see satdof/reference/sat.h).
#include "satdof/reference/sat.h"

#include <algorithm>

namespace satdof::reference {

Sat computeSat(const ImageRgba8& image) {
  Sat sat{image.width, image.height, std::vector<std::uint32_t>(image.pixels.size())};
  const std::size_t rowValues = std::size_t(image.width) * 4;
  for (int y = 0; y < image.height; ++y) {
    std::uint32_t run[4] = {0, 0, 0, 0};  // running sum of this row, per channel
    std::uint32_t* dst = &sat.values[y * rowValues];
    const std::uint32_t* above = y > 0 ? dst - rowValues : nullptr;
    for (int x = 0; x < image.width; ++x) {
      const std::uint8_t* px = image.at(x, y);
      for (int c = 0; c < 4; ++c) {
        run[c] += px[c];  // wraps modulo 2^32, like the GPU
        dst[x * 4 + c] = run[c] + (above ? above[x * 4 + c] : 0u);
      }
    }
  }
  return sat;
}

Box clipBox(Box b, int width, int height) {
  return {std::max(b.x0, 0), std::max(b.y0, 0), std::min(b.x1, width - 1),
          std::min(b.y1, height - 1)};
}

std::uint32_t boxSum(const Sat& s, Box b, int c) {
  return s.at(b.x1, b.y1, c) - s.at(b.x0 - 1, b.y1, c) - s.at(b.x1, b.y0 - 1, c) +
         s.at(b.x0 - 1, b.y0 - 1, c);
}

std::array<float, 4> boxMean(const Sat& sat, Box box) {
  const Box b = clipBox(box, sat.width, sat.height);
  std::array<float, 4> mean{0, 0, 0, 0};
  if (b.x1 < b.x0 || b.y1 < b.y0) return mean;
  const float area = float(b.x1 - b.x0 + 1) * float(b.y1 - b.y0 + 1);
  for (int c = 0; c < 4; ++c) mean[c] = float(boxSum(sat, b, c)) / area;
  return mean;
}

std::uint64_t boxSumBruteForce(const ImageRgba8& image, Box box, int c) {
  const Box b = clipBox(box, image.width, image.height);
  std::uint64_t sum = 0;
  for (int y = b.y0; y <= b.y1; ++y)
    for (int x = b.x0; x <= b.x1; ++x) sum += image.at(x, y)[c];
  return sum;
}

}  // namespace satdof::reference
