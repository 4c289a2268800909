// lesson/conv_trace_glsl.cpp — the gl-compute backend's glsl-basic, glsl-tiled-halo and
// glsl-separable (shaders/compute/conv_basic.comp, conv_tiled_halo.comp,
// conv_separable.comp) followed with the shaders' own index arithmetic
// (shaders/compute/conv_index.glsl, satdof/conv_tiles.h's namespace glsl): the middle work
// group of an image three groups on a side, its invocations one after the other in
// gl_LocalInvocationIndex order (lx = v % 16, ly = v / 16), every invocation's load phase
// before the barrier, then every invocation's taps; on channel 0, one float fma chain per
// output as the shaders and the reference keep it. glsl-sat-box is in
// conv_trace_glsl_sat_box.cpp.
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "lesson/conv_trace_detail.h"
#include "satdof/conv_tiles.h"

namespace satdof::lesson::conv_detail {
namespace {

namespace gl = conv_tiles::glsl;

constexpr int kGroup = 1;  // the middle work group along each axis
constexpr const char* kTextureFetch = "texture fetches: global memory through the texture cache";
constexpr const char* kBufferWeights =
    "from a storage buffer (global memory), a read each tap: every invocation the same address";

int borderOf(const ImageLoads& loads) { return loads.border() == Border::Clamp ? gl::kBorderClamp : gl::kBorderZero; }

// A texel fetch of (sx, sy), inside the image (sourceIndex's): a global read on grid `g`.
float fetch(ConvGrid& g, ImageLoads& loads, int sx, int sy, ConvCounts& pass) {
  bump(g, &ConvGrid::globalReads, sx, sy);
  markUsed(g, sx, sy);
  return channel0(loads.load(sx, sy, pass));
}

// The cells invocation 0 fills in a tile of `cells` cells, `side` a row from (x0, y0).
std::vector<ConvMark> invocationZero(int cells, int side, int x0, int y0) {
  std::vector<ConvMark> marks;
  for (int k = 0; k < cells; k += gl::kGroupInvocations)
    marks.push_back({x0 + gl::cellColumn(k, side), y0 + gl::cellRow(k, side), 1, 1, "#2e7d32", "0"});
  return marks;
}

void traceGlslBasic(ConvTrace& t, ImageLoads& loads) {
  const int r = t.filter.radius, n = t.filter.size(), border = borderOf(loads);
  t.grids.push_back(makeGrid("the input image", t.outX0 - r, t.outY0 - r, gl::inputTileSide(r), gl::inputTileSide(r)));
  ConvCounts& pass = t.passes.emplace_back(ConvPass{"compute", {}}).counts;
  for (int v = 0; v < gl::kGroupInvocations; ++v) {
    const int px = t.outX0 + v % gl::kTile, py = t.outY0 + v / gl::kTile;
    float acc = 0.0f;
    for (int i = 0; i < n; ++i) {
      const int sy = gl::sourceIndex(gl::tapSource(py, r, i), t.imageHeight, border);
      if (sy < 0) continue;
      for (int j = 0; j < n; ++j) {
        const int sx = gl::sourceIndex(gl::tapSource(px, r, j), t.imageWidth, border);
        if (sx < 0) continue;
        acc = std::fma(t.filter.at(i, j), fetch(t.grids[0], loads, sx, sy, pass), acc);
        ++t.weightLoads, ++pass.fmas;
      }
    }
    t.result.push_back(reference::roundToByte(acc));
  }
  t.path = "one invocation a pixel";
  t.chapter = basicChapter(r);
  t.steps.push_back({"compute", "one invocation a pixel: every tap a texture fetch (the texture cache serves the repeats), "
                                "its weight a storage-buffer read; a ghost tap (zero border) is skipped",
                     true, 0, 0, {topLeftWindow(t)}, "the window of its top-left output (red)"});
}

void traceGlslTiledHalo(ConvTrace& t, ImageLoads& loads) {
  const int r = t.filter.radius, n = t.filter.size(), border = borderOf(loads), side = gl::inputTileSide(r);
  const int x0 = gl::haloFirst(kGroup, r), y0 = gl::haloFirst(kGroup, r);
  t.grids.push_back(makeGrid("the input tile", x0, y0, side, side));
  ConvGrid& g = t.grids[0];
  std::vector<std::uint32_t> tile(std::size_t(side) * std::size_t(side));
  // Load phase: invocation v the cells v, v + 256, ... of the tile, row-major.
  ConvCounts& load = t.passes.emplace_back(ConvPass{"load the tile", {}}).counts;
  for (int v = 0; v < gl::kGroupInvocations; ++v)
    for (int k = v; k < side * side; k += gl::kGroupInvocations) {
      const int x = x0 + gl::cellColumn(k, side), y = y0 + gl::cellRow(k, side);
      const int sx = gl::sourceIndex(x, t.imageWidth, border), sy = gl::sourceIndex(y, t.imageHeight, border);
      g.inTile[g.at(x, y)] = 1;
      if (sx < 0 || sy < 0) continue;  // a ghost cell holds 0
      bump(g, &ConvGrid::tileLoads, x, y);
      tile[std::size_t(k)] = loads.load(sx, sy, load);
    }
  // After the barrier: invocation (lx, ly) reads its taps from the tile.
  ConvCounts& compute = t.passes.emplace_back(ConvPass{"compute", {}}).counts;
  for (int v = 0; v < gl::kGroupInvocations; ++v) {
    const int lx = v % gl::kTile, ly = v / gl::kTile;
    float acc = 0.0f;
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        const int word = gl::tileWord(lx, ly, i, j, side);
        const int x = x0 + gl::cellColumn(word, side), y = y0 + gl::cellRow(word, side);
        bump(g, &ConvGrid::sharedReads, x, y);
        markUsed(g, x, y);
        ++compute.sharedReads, ++compute.fmas, ++t.weightLoads;
        acc = std::fma(t.filter.at(i, j), channel0(tile[std::size_t(word)]), acc);
      }
    t.result.push_back(reference::roundToByte(acc));
  }
  const std::string cells = std::to_string(side * side);
  t.path = "the tile";
  t.chapter = tiledChapter(r);
  std::vector<ConvMark> loadMarks = invocationZero(side * side, side, x0, y0);
  loadMarks.push_back(topLeftWindow(t));
  t.steps.push_back({"load the tile",
                     "the 256 invocations fetch the input tile, halo included ((16 + 2r)^2 = " + cells +
                         " cells), into shared memory as packed words: invocation v the cells v, v + 256, ... row by row, " +
                         std::to_string(side) + " a row; a ghost cell (zero border) holds 0, nothing fetched",
                     false, 0, 0, loadMarks, "the cells invocation 0 fetches (green, 0) and the window of the top-left output (red)"});
  t.steps.push_back({"compute", "after the barrier each invocation reads its (2r+1)^2 taps from shared memory, word (ly + i) * " +
                                    std::to_string(side) + " + lx + j, and each tap's weight from the storage buffer",
                     true, 0, 1, {topLeftWindow(t)}, "the window of its top-left output (red)"});
}

void traceGlslSeparable(ConvTrace& t, ImageLoads& loads) {
  const int r = t.filter.radius, n = t.filter.size(), border = borderOf(loads), rows = gl::inputTileSide(r);
  const int x0 = gl::groupFirst(kGroup), y0 = gl::groupFirst(kGroup);
  t.grids.push_back(makeGrid("the input image", x0 - r, y0 - r, gl::inputTileSide(r), rows));
  t.grids.push_back(makeGrid("the row pass's values (shared memory)", x0, gl::tapSource(y0, r, 0), gl::kTile, rows));
  ConvGrid &in = t.grids[0], &mid = t.grids[1];
  std::vector<float> horizontal(std::size_t(rows) * gl::kTile);
  // Row pass: value k is column cellColumn(k, 16) of tile row cellRow(k, 16), invocation v
  // the values v, v + 256, ...
  ConvCounts& rowPass = t.passes.emplace_back(ConvPass{"row pass", {}}).counts;
  for (int v = 0; v < gl::kGroupInvocations; ++v)
    for (int k = v; k < rows * gl::kTile; k += gl::kGroupInvocations) {
      const int x = x0 + gl::cellColumn(k, gl::kTile), y = gl::tapSource(y0, r, gl::cellRow(k, gl::kTile));
      const int sy = gl::sourceIndex(y, t.imageHeight, border);
      float acc = 0.0f;
      if (sy >= 0 && x < t.imageWidth)
        for (int j = 0; j < n; ++j) {
          const int sx = gl::sourceIndex(gl::tapSource(x, r, j), t.imageWidth, border);
          if (sx < 0) continue;
          acc = std::fma(t.filter.rowWeights[std::size_t(j)], fetch(in, loads, sx, sy, rowPass), acc);
          ++rowPass.fmas, ++t.weightLoads;
        }
      horizontal[std::size_t(k)] = acc;
      bump(mid, &ConvGrid::writes, x, y);
      ++rowPass.sharedWrites;
    }
  // After the barrier: invocation (lx, ly) reads its column's 2r + 1 values, ghost rows skipped.
  ConvCounts& columnPass = t.passes.emplace_back(ConvPass{"column pass", {}}).counts;
  for (int v = 0; v < gl::kGroupInvocations; ++v) {
    const int lx = v % gl::kTile, ly = v / gl::kTile, py = y0 + ly;
    float acc = 0.0f;
    for (int i = 0; i < n; ++i) {
      if (gl::sourceIndex(gl::tapSource(py, r, i), t.imageHeight, border) < 0) continue;  // a ghost row
      const int word = gl::tileWord(lx, ly, i, 0, gl::kTile);
      const int x = x0 + gl::cellColumn(word, gl::kTile), y = gl::tapSource(y0, r, gl::cellRow(word, gl::kTile));
      bump(mid, &ConvGrid::sharedReads, x, y);
      markUsed(mid, x, y);
      ++columnPass.sharedReads, ++columnPass.fmas, ++t.weightLoads;
      acc = std::fma(t.filter.colWeights[std::size_t(i)], horizontal[std::size_t(word)], acc);
    }
    t.result.push_back(reference::roundToByte(acc));
  }
  t.path = "one dispatch, the intermediate in shared memory";
  t.chapter = separableChapter(n);
  std::vector<ConvMark> rowMarks = invocationZero(rows * gl::kTile, gl::kTile, x0, gl::tapSource(y0, r, 0));
  for (std::size_t k = 0, values = rowMarks.size(); k < values; ++k)  // their taps
    rowMarks.push_back({rowMarks[k].x - r, rowMarks[k].y, n, 1, "#2e7d32", ""});
  rowMarks.push_back(topLeftWindow(t));
  t.steps.push_back({"row pass",
                     "the 256 invocations compute the horizontal values of the group's 16 columns in its 16 + 2r = " +
                         std::to_string(rows) + " rows into shared memory: invocation v the values v, v + 256, ... (16 a "
                         "row), each an fma chain over the row factors, a texture fetch a tap; a ghost row (zero border) is 0, "
                         "nothing fetched",
                     true, 0, 0, rowMarks,
                     "the values invocation 0 computes (green, 0) and their taps, and the window of the top-left output (red)"});
  t.steps.push_back({"column pass",
                     "after the barrier each invocation reads the 2r + 1 values of its column, word (ly + i) * 16 + lx, from "
                     "shared memory (a ghost row skipped), an fma chain over the column factors",
                     true, 1, 1, {{x0, gl::tapSource(y0, r, 0), 1, n, "#c62828", ""}},
                     "the column of the group's top-left output (red)"});
}

}  // namespace

BlockShape glslBlockShape() { return {gl::kTile, gl::kTile}; }

void traceGlsl(ConvTrace& t, ImageLoads& loads) {
  t.outX0 = gl::groupFirst(kGroup), t.outY0 = gl::groupFirst(kGroup), t.outW = gl::kTile, t.outH = gl::kTile;
  t.block = "16 x 16 invocations, a pixel each";
  t.weightsFrom = kBufferWeights;
  t.globalReadsAre = kTextureFetch;
  if (t.variant == "glsl-basic") traceGlslBasic(t, loads);
  else if (t.variant == "glsl-tiled-halo") traceGlslTiledHalo(t, loads);
  else traceGlslSeparable(t, loads);
}

}  // namespace satdof::lesson::conv_detail
