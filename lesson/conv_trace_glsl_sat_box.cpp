// lesson/conv_trace_glsl_sat_box.cpp — the gl-compute backend's glsl-sat-box
// (shaders/compute/conv_sat_box.comp) followed with its own index arithmetic
// (shaders/compute/conv_index.glsl): every invocation of the image's top-left work group
// reads the input's summed-area table S (uint32, built by the backend's SAT passes before
// the dispatch; here from the image, wrapping as the GL's uint does) at the corners of up to
// 3 x 3 rectangles (its window clipped to the image and, under clamp, the edge lines the
// window repeats past the top and left edges), and takes the exact integer mean. The
// top-left group, as the CUDA sat-box lesson: its windows run past the image's edges, where
// the border rule and the corners left of and above the table show.
#include <cstdint>
#include <string>
#include <vector>

#include "lesson/conv_trace_detail.h"
#include "satdof/conv_tiles.h"

namespace satdof::lesson::conv_detail {
namespace {

namespace gl = conv_tiles::glsl;

// S(x, y) of channel 0 for every pixel, row by row.
std::vector<std::uint32_t> summedAreaTable(const reference::ImageRgba8& image) {
  const std::size_t w = std::size_t(image.width);
  std::vector<std::uint32_t> s(w * std::size_t(image.height));
  for (int y = 0; y < image.height; ++y)
    for (int x = 0; x < image.width; ++x) {
      const std::size_t i = std::size_t(y) * w + std::size_t(x);
      std::uint32_t v = image.at(x, y)[0];
      if (x > 0) v += s[i - 1];
      if (y > 0) v += s[i - w];
      if (x > 0 && y > 0) v -= s[i - w - 1];
      s[i] = v;
    }
  return s;
}

// Output (px, py)'s window clipped to the image (range 0 along each axis) as marks: its
// outline and its four corners, labelled + or -, 0 where the corner is before the table.
void clippedWindow(std::vector<ConvMark>& marks, const ConvTrace& t, int px, int py, const char* colour) {
  const int r = t.filter.radius;
  const int x0 = gl::satRangeLow(0, px, r, t.imageWidth), x1 = gl::satRangeHigh(0, px, r, t.imageWidth);
  const int y0 = gl::satRangeLow(0, py, r, t.imageHeight), y1 = gl::satRangeHigh(0, py, r, t.imageHeight);
  marks.push_back({x0, y0, x1 - x0 + 1, y1 - y0 + 1, colour, ""});
  for (int c = 0; c < 4; ++c) {
    const int x = gl::satCornerX(c, x0, x1), y = gl::satCornerY(c, y0, y1);
    marks.push_back({x, y, 1, 1, colour, gl::satBeforeTable(x, y) ? "0" : gl::satCornerAdds(c) ? "+" : "-"});
  }
}

}  // namespace

void traceGlslSatBox(ConvTrace& t, ImageLoads& loads) {
  const int r = t.filter.radius, n = t.filter.size(), w = t.imageWidth, h = t.imageHeight;
  const int border = loads.border() == Border::Clamp ? gl::kBorderClamp : gl::kBorderZero;
  const std::vector<std::uint32_t> table = summedAreaTable(loads.image());
  t.outX0 = gl::groupFirst(0), t.outY0 = gl::groupFirst(0), t.outW = gl::kTile, t.outH = gl::kTile;
  // The corners the group meets: from left of its first window to its last window's right.
  const int gx0 = gl::satRangeLow(0, t.outX0, r, w) - 1, gx1 = gl::satRangeHigh(0, t.outX0 + gl::kTile - 1, r, w);
  const int gy0 = gl::satRangeLow(0, t.outY0, r, h) - 1, gy1 = gl::satRangeHigh(0, t.outY0 + gl::kTile - 1, r, h);
  t.grids.push_back(makeGrid("the summed-area table S", gx0, gy0, gx1 - gx0 + 1, gy1 - gy0 + 1));
  ConvGrid& g = t.grids[0];
  ConvCounts& pass = t.passes.emplace_back(ConvPass{"compute", {}}).counts;
  const std::uint32_t area = std::uint32_t(n * n);
  for (int v = 0; v < gl::kGroupInvocations; ++v) {
    const int px = t.outX0 + v % gl::kTile, py = t.outY0 + v / gl::kTile;
    std::uint32_t sum = 0;
    for (int a = 0; a < 3; ++a) {  // row range
      const std::uint32_t wy = std::uint32_t(gl::satRangeWeight(a, py, r, h, border));
      if (wy == 0) continue;
      const int y0 = gl::satRangeLow(a, py, r, h), y1 = gl::satRangeHigh(a, py, r, h);
      for (int b = 0; b < 3; ++b) {  // column range
        const std::uint32_t wx = std::uint32_t(gl::satRangeWeight(b, px, r, w, border));
        if (wx == 0) continue;
        const int x0 = gl::satRangeLow(b, px, r, w), x1 = gl::satRangeHigh(b, px, r, w);
        std::uint32_t rect = 0;
        for (int c = 0; c < 4; ++c) {
          // The load always happens, at the clamped index; a corner before the table is 0.
          const int x = gl::satCornerX(c, x0, x1), y = gl::satCornerY(c, y0, y1), index = gl::satIndex(x, y, w);
          const int rx = index % w, ry = index / w;
          bump(g, &ConvGrid::globalReads, rx, ry);
          ++pass.tableReads;
          const bool zero = gl::satBeforeTable(x, y);
          if (!zero) markUsed(g, rx, ry);
          const std::uint32_t s = zero ? 0u : table[std::size_t(index)];
          rect = gl::satCornerAdds(c) ? rect + s : rect - s;
        }
        sum += wy * wx * rect;
      }
    }
    t.result.push_back(static_cast<std::uint8_t>((2u * sum + area) / (2u * area)));
  }

  std::vector<ConvMark> marks;
  clippedWindow(marks, t, t.outX0, t.outY0, "#c62828");
  clippedWindow(marks, t, t.outX0 + gl::kTile / 2, t.outY0 + gl::kTile / 2, "#6a1b9a");
  t.path = "one invocation a pixel, from the table";
  t.block = "16 x 16 invocations, a pixel each; the image's top-left group, whose windows run past its top and left edges";
  t.weightsFrom = "are not read: the mean of the window's sum, (2 sum + n^2) / (2 n^2), in integers";
  t.globalReadsAre = "table reads: a storage buffer in global memory";
  t.steps.push_back(
      {"compute",
       "each invocation sums its window from the table: the window clipped to the image, four reads at its corners (+ - - +); "
       "a corner left of column 0 or above row 0 is read at the clamped index and taken as 0. Under clamp the window's rows "
       "(columns) past the top (left) edge repeat the edge row (column): its rectangle again, weighted by how many (up to 3 x 3 "
       "rectangles: the edge row and column are read the most). The table itself is built before, by the backend's SAT passes",
       true, 0, 0, marks, "the clipped windows of the top-left output (red) and of one inside (purple), their corners"});
  t.chapter = "the chapter's summed-area table: 4 table reads per output at any radius, S(x+r, y+r) - S(x-r-1, y+r) - "
              "S(x+r, y-r-1) + S(x-r-1, y-r-1), against (2r+1)^2 = " + std::to_string(n * n) + " taps";
}

}  // namespace satdof::lesson::conv_detail
