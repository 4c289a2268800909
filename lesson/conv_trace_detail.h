// lesson/conv_trace_detail.h — what the convolution traces (conv_trace.cpp, the book's
// kernels; conv_trace_strips.cpp, the strip engine and separable; conv_trace_sat_box.cpp;
// conv_trace_glsl*.cpp, the gl-compute backend's) share. Private to lesson/.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <utility>

#include "lesson/conv_trace.h"

namespace satdof::lesson::conv_detail {

// A grid of w x h cells from (x0, y0), its counts zero.
ConvGrid makeGrid(std::string name, int x0, int y0, int w, int h);

// Adds one to `field` of the cell (x, y) of `grid`.
inline void bump(ConvGrid& grid, std::vector<int> ConvGrid::*field, int x, int y) { ++(grid.*field)[grid.at(x, y)]; }
inline void markUsed(ConvGrid& grid, int x, int y) { grid.used[grid.at(x, y)] = 1; }

// The block's loads of pixels, as the kernels make them: outside the image a ghost cell
// (0, nothing loaded) under Border::Zero, the nearest edge pixel (loaded) under Clamp.
class ImageLoads {
 public:
  ImageLoads(const reference::ImageRgba8& image, Border border) : image_(image), border_(border) {}
  // Whether reading (x, y) loads a pixel.
  bool loads(int x, int y) const;
  // The pixel (x, y) as the kernels' packed RGBA word (channel 0 in the low byte),
  // counted as a global load of `pass` where it loads one.
  std::uint32_t load(int x, int y, ConvCounts& pass);
  long long distinct() const { return static_cast<long long>(pixels_.size()); }
  int width() const { return image_.width; }
  int height() const { return image_.height; }
  Border border() const { return border_; }
  const reference::ImageRgba8& image() const { return image_; }

 private:
  const reference::ImageRgba8& image_;
  Border border_;
  std::set<std::pair<int, int>> pixels_;
};

inline float channel0(std::uint32_t word) { return float(word & 0xffu); }

std::string fixed(double v, int digits = 2);

// The chapter's tiled and cached-halo kernels at radius r, one line each.
std::string tiledChapter(int r);
std::string cachedChapter(int r);
// The chapter's separable filter for n = 2r + 1 taps a line, and its basic kernel at radius r.
std::string separableChapter(int n);
std::string basicChapter(int r);
// The window of the block's top-left output (red).
ConvMark topLeftWindow(const ConvTrace& t);
// Where the unrolled kernels' weights come from.
inline constexpr const char* kParameterWeights = "from the kernel's parameters: constant-bank operands of the unrolled taps";

// The traces of the paths in conv_trace_strips.cpp and conv_trace_sat_box.cpp: each fills
// `t` (whose variant, filter, border and image size are set) for the block it shows.
void traceStrips(ConvTrace& t, ImageLoads& loads);    // r <= 2: tiled-halo, tiled-cached-halo, separable
void traceSeparable(ConvTrace& t, ImageLoads& loads);  // r >= 3
void traceSatBox(ConvTrace& t, ImageLoads& loads);
// The gl-compute backend's (conv_trace_glsl.cpp, conv_trace_glsl_sat_box.cpp).
bool isGlsl(std::string_view variant);
void traceGlsl(ConvTrace& t, ImageLoads& loads);  // glsl-basic, glsl-tiled-halo, glsl-separable
void traceGlslSatBox(ConvTrace& t, ImageLoads& loads);

// The block sizes of those paths, for convLessonImage: its output tile, and the image's size.
struct BlockShape {
  int outW = 0, outH = 0;
};
BlockShape stripBlockShape(int radius);
BlockShape separableBlockShape();
BlockShape satBoxBlockShape();
BlockShape glslBlockShape();  // the work group: 16 x 16

}  // namespace satdof::lesson::conv_detail
