// satdof/reference/image.h — the CPU image types shared by the reference algorithms,
// the CPU backend and the tests.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace satdof::reference {

// Row-major RGBA8, four bytes per pixel, no padding between rows.
struct ImageRgba8 {
  int width = 0;
  int height = 0;
  std::vector<std::uint8_t> pixels;

  ImageRgba8() = default;
  ImageRgba8(int w, int h) : width(w), height(h), pixels(std::size_t(w) * h * 4, 0) {}
  std::uint8_t* at(int x, int y) { return &pixels[(std::size_t(y) * width + x) * 4]; }
  const std::uint8_t* at(int x, int y) const { return &pixels[(std::size_t(y) * width + x) * 4]; }
};

// Row-major single-channel float (e.g. linear view depth).
struct ImageR32F {
  int width = 0;
  int height = 0;
  std::vector<float> pixels;

  ImageR32F() = default;
  ImageR32F(int w, int h, float fill = 0.f) : width(w), height(h), pixels(std::size_t(w) * h, fill) {}
  float& at(int x, int y) { return pixels[std::size_t(y) * width + x]; }
  float at(int x, int y) const { return pixels[std::size_t(y) * width + x]; }
};

}  // namespace satdof::reference
