// lesson/conv_trace.cpp — see conv_trace.h. The book's four kernels are followed here: each
// block runs its kernel's loops in their order (phase 1 fills the tile, phase 2 reads the
// taps), on channel 0 of the image, with one float fma chain per output as the kernels and
// the reference keep it. The strip engine and separable are in conv_trace_strips.cpp,
// sat-box in conv_trace_sat_box.cpp, the gl-compute backend's in conv_trace_glsl*.cpp; what
// they share in conv_trace_detail.h.
#include "lesson/conv_trace.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <sstream>
#include <stdexcept>

#include "lesson/conv_trace_detail.h"
#include "satdof/conv_tiles.h"

namespace satdof::lesson {

namespace conv_detail {

ConvGrid makeGrid(std::string name, int x0, int y0, int w, int h) {
  ConvGrid g;
  g.name = std::move(name);
  g.x0 = x0, g.y0 = y0, g.w = w, g.h = h;
  const std::size_t cells = std::size_t(w) * std::size_t(h);
  for (std::vector<int>* v : {&g.tileLoads, &g.globalReads, &g.sharedReads, &g.registerReads, &g.writes}) v->assign(cells, 0);
  g.inTile.assign(cells, 0);
  g.used.assign(cells, 0);
  return g;
}

bool ImageLoads::loads(int x, int y) const {
  return border_ == Border::Clamp || (conv_tiles::insideAxis(x, image_.width) && conv_tiles::insideAxis(y, image_.height));
}

std::uint32_t ImageLoads::load(int x, int y, ConvCounts& pass) {
  if (!loads(x, y)) return 0u;
  x = conv_tiles::clampToEdge(x, image_.width), y = conv_tiles::clampToEdge(y, image_.height);
  ++pass.globalLoads;
  pixels_.insert({x, y});
  const std::uint8_t* p = image_.at(x, y);
  return std::uint32_t(p[0]) | std::uint32_t(p[1]) << 8 | std::uint32_t(p[2]) << 16 | std::uint32_t(p[3]) << 24;
}

std::string fixed(double v, int digits) {
  char s[32];
  std::snprintf(s, sizeof s, "%.*f", digits, v);
  return s;
}

std::string tiledChapter(int r) {
  const double computing = double(32 - 2 * r) * double(32 - 2 * r);
  return "the chapter's tiled kernel (a 32 x 32 input tile, a thread a cell, " + fixed(computing, 0) +
         " of its 1024 threads computing): " + fixed(1024.0 / computing) + " global loads and (2r+1)^2 = " +
         std::to_string((2 * r + 1) * (2 * r + 1)) + " shared reads per output";
}

std::string cachedChapter(int r) {
  return "the chapter's cached-halo kernel (a 32 x 32 tile): 1 global load per output into the tile; of its (2r+1)^2 = " +
         std::to_string((2 * r + 1) * (2 * r + 1)) +
         " taps those in the tile from shared memory, the halo's from global memory through L1 / L2";
}

std::string separableChapter(int n) {
  return "the chapter's separable filter: 2(2r+1) = " + std::to_string(2 * n) + " taps per output (a row pass of " +
         std::to_string(n) + " into an intermediate image, a column pass of " + std::to_string(n) +
         " over it) instead of (2r+1)^2 = " + std::to_string(n * n);
}

std::string basicChapter(int r) {
  return "the chapter's basic kernel: (2r+1)^2 = " + std::to_string((2 * r + 1) * (2 * r + 1)) +
         " global loads of pixels and as many of weights per output, 2 FLOPs per 8 bytes (0.25 FLOP/B)";
}

ConvMark topLeftWindow(const ConvTrace& t) {
  const int r = t.filter.radius, n = t.filter.size();
  return {t.outX0 - r, t.outY0 - r, n, n, "#c62828", ""};
}

bool isGlsl(std::string_view variant) {
  const std::vector<std::string> glsl = tracedConvVariants(ConvBackend::GlCompute);
  return std::find(glsl.begin(), glsl.end(), variant) != glsl.end();
}

}  // namespace conv_detail

using namespace conv_detail;

ConvCounts& ConvCounts::operator+=(const ConvCounts& o) {
  globalLoads += o.globalLoads, sharedReads += o.sharedReads, sharedWrites += o.sharedWrites;
  registerReads += o.registerReads, tableReads += o.tableReads, fmas += o.fmas;
  return *this;
}

ConvCounts ConvTrace::total() const {
  ConvCounts all;
  for (const ConvPass& p : passes) all += p.counts;
  return all;
}

namespace {

namespace ct = conv_tiles;

bool isBook(std::string_view v) { return v == "basic" || v == "constant-memory"; }
bool isTiled(std::string_view v) { return v == "tiled-halo" || v == "tiled-cached-halo"; }
// Whether the variant runs the strip engine at `radius` (conv/strip_engine.cuh).
bool onStrips(std::string_view v, int radius) { return (isTiled(v) || v == "separable") && radius < ct::kTiledMinRadius; }

BlockShape blockShape(std::string_view variant, int radius) {
  if (isGlsl(variant)) return glslBlockShape();
  if (onStrips(variant, radius)) return stripBlockShape(radius);
  if (variant == "separable") return separableBlockShape();
  if (variant == "sat-box") return satBoxBlockShape();
  if (variant == "tiled-halo") return {ct::kTiledOutW, ct::kTiledOutH};
  if (variant == "tiled-cached-halo") return {ct::kCachedOutW, ct::kCachedOutH};
  return {ct::kPixelBlockX, ct::kPixelBlockY};
}

// The book's kernels' block: the middle one, its taps' cells r around its output tile.
void bookBlock(ConvTrace& t, int outW, int outH) {
  const int r = t.filter.radius;
  t.outX0 = outW, t.outY0 = outH, t.outW = outW, t.outH = outH;
  t.grids.push_back(makeGrid("the input image", t.outX0 - r, t.outY0 - r, outW + 2 * r, outH + 2 * r));
}

void traceBasic(ConvTrace& t, ImageLoads& loads) {
  const int r = t.filter.radius, n = t.filter.size();
  ConvGrid& g = t.grids[0];
  ConvCounts& pass = t.passes.emplace_back(ConvPass{"compute", {}}).counts;
  for (int y = t.outY0; y < t.outY0 + t.outH; ++y)
    for (int x = t.outX0; x < t.outX0 + t.outW; ++x) {  // a thread each
      float acc = 0.0f;
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
          const int px = x - r + j, py = y - r + i;
          if (!loads.loads(px, py)) continue;  // the bounds check: a ghost tap adds nothing
          bump(g, &ConvGrid::globalReads, px, py);
          markUsed(g, px, py);
          ++t.weightLoads;
          ++pass.fmas;
          acc = std::fma(t.filter.at(i, j), channel0(loads.load(px, py, pass)), acc);
        }
      t.result.push_back(reference::roundToByte(acc));
    }
}

void traceTiledHalo(ConvTrace& t, ImageLoads& loads) {
  const int r = t.filter.radius, n = t.filter.size();
  ConvGrid& g = t.grids[0];
  const int inW = ct::tiledInputSide(t.outW, r), inH = ct::tiledInputSide(t.outH, r);
  std::vector<float> tile(std::size_t(inW) * std::size_t(inH));
  // Phase 1: thread (tx, ty) loads columns tx, tx + 32, ... of rows ty, ty + 8, ...
  ConvCounts& load = t.passes.emplace_back(ConvPass{"load the tile", {}}).counts;
  for (int ty = 0; ty < ct::kTiledThreadsY; ++ty)
    for (int tx = 0; tx < ct::kTiledThreadsX; ++tx)
      for (int row = ty; row < inH; row += ct::kTiledThreadsY)
        for (int col = tx; col < inW; col += ct::kTiledThreadsX) {
          const int x = t.outX0 - r + col, y = t.outY0 - r + row;
          if (loads.loads(x, y)) bump(g, &ConvGrid::tileLoads, x, y);
          g.inTile[g.at(x, y)] = 1;
          tile[std::size_t(row) * inW + col] = channel0(loads.load(x, y, load));
        }
  // Phase 2: thread (tx, ty) computes rows tr.. tr + 7, columns tc, tc + 1 of the tile,
  // reading its window's rows one at a time, 2r + 2 words each (r + 1 pairs).
  ConvCounts& compute = t.passes.emplace_back(ConvPass{"compute", {}}).counts;
  std::vector<float> acc(std::size_t(t.outW) * std::size_t(t.outH), 0.0f);
  for (int ty = 0; ty < ct::kTiledThreadsY; ++ty)
    for (int tx = 0; tx < ct::kTiledThreadsX; ++tx) {
      const int tr = ty * ct::kTiledRowsPerThread, tc = tx * ct::kTiledColsPerThread;
      for (int rr = 0; rr < ct::kTiledRowsPerThread + 2 * r; ++rr)
        for (int q = 0; q < 2 * r + 2; ++q) {
          const int x = t.outX0 - r + tc + q, y = t.outY0 - r + tr + rr;
          bump(g, &ConvGrid::sharedReads, x, y);
          markUsed(g, x, y);
          ++compute.sharedReads;
          const float v = tile[std::size_t(tr + rr) * inW + std::size_t(tc + q)];
          for (int m = 0; m < ct::kTiledColsPerThread; ++m)
            for (int k = 0; k < ct::kTiledRowsPerThread; ++k) {
              const int i = rr - k, j = q - m;
              if (i < 0 || i >= n || j < 0 || j >= n) continue;
              float& a = acc[std::size_t(tr + k) * t.outW + std::size_t(tc + m)];
              a = std::fma(t.filter.at(i, j), v, a);
              ++compute.fmas;
            }
        }
    }
  for (float a : acc) t.result.push_back(reference::roundToByte(a));
}

void traceTiledCached(ConvTrace& t, ImageLoads& loads) {
  const int r = t.filter.radius, n = t.filter.size();
  ConvGrid& g = t.grids[0];
  std::vector<float> tile(std::size_t(t.outW) * std::size_t(t.outH));
  // Phase 1: each thread its own column's 8 cells.
  ConvCounts& load = t.passes.emplace_back(ConvPass{"load the tile", {}}).counts;
  for (int ty = 0; ty < ct::kTiledThreadsY; ++ty)
    for (int tx = 0; tx < ct::kTiledThreadsX; ++tx)
      for (int k = 0; k < ct::kCachedRowsPerThread; ++k) {
        const int row = ty * ct::kCachedRowsPerThread + k, x = t.outX0 + tx, y = t.outY0 + row;
        if (loads.loads(x, y)) bump(g, &ConvGrid::tileLoads, x, y);
        g.inTile[g.at(x, y)] = 1;
        tile[std::size_t(row) * t.outW + tx] = channel0(loads.load(x, y, load));
      }
  // Phase 2: 8 outputs a thread; a tap from the tile where it holds it, else from global.
  ConvCounts& compute = t.passes.emplace_back(ConvPass{"compute", {}}).counts;
  std::vector<float> acc(std::size_t(t.outW) * std::size_t(t.outH), 0.0f);
  for (int ty = 0; ty < ct::kTiledThreadsY; ++ty)
    for (int tx = 0; tx < ct::kTiledThreadsX; ++tx) {
      const int tr = ty * ct::kCachedRowsPerThread;
      for (int rr = 0; rr < ct::kCachedRowsPerThread + 2 * r; ++rr) {
        const int sr = tr + rr - r;
        for (int j = 0; j < n; ++j) {
          const int sc = tx + j - r, x = t.outX0 + sc, y = t.outY0 + sr;
          float v = 0.0f;
          if (ct::cachedTileHolds(sr, sc)) {
            bump(g, &ConvGrid::sharedReads, x, y);
            ++compute.sharedReads;
            v = tile[std::size_t(sr) * t.outW + std::size_t(sc)];
          } else {
            if (loads.loads(x, y)) bump(g, &ConvGrid::globalReads, x, y);
            v = channel0(loads.load(x, y, compute));
          }
          markUsed(g, x, y);
          for (int k = 0; k < ct::kCachedRowsPerThread; ++k) {
            const int i = rr - k;
            if (i < 0 || i >= n) continue;
            float& a = acc[std::size_t(tr + k) * t.outW + std::size_t(tx)];
            a = std::fma(t.filter.at(i, j), v, a);
            ++compute.fmas;
          }
        }
      }
    }
  for (float a : acc) t.result.push_back(reference::roundToByte(a));
}

// The book's kernels: their block, trace, steps and the chapter's counts.
void traceBook(ConvTrace& t, ImageLoads& loads) {
  const std::string_view variant = t.variant;
  const int r = t.filter.radius, n = t.filter.size(), taps = n * n;
  const std::string tapsText = "(2r+1)^2 = " + std::to_string(taps);
  const std::string window = "the window of its top-left output (red)";
  if (isBook(variant)) {
    bookBlock(t, ct::kPixelBlockX, ct::kPixelBlockY);
    t.path = "one thread a pixel";
    t.block = "32 x 8 threads, a pixel each";
    traceBasic(t, loads);
    t.weightsFrom = variant == "basic" ? "from global memory (a load each tap; every thread of a warp the same address)"
                                       : "from the constant cache (one broadcast a tap for the whole warp)";
    t.chapter = variant == "basic"
                    ? basicChapter(r)
                    : "the chapter's constant-memory kernel: " + tapsText + " global loads of pixels per output, the weights cached: 2 FLOPs per 4 bytes (0.5 FLOP/B)";
    t.steps.push_back({"compute", "one thread a pixel: every tap a global load (L1 and L2 serve the repeats)", true, 0, 0,
                       {topLeftWindow(t)}, window});
    return;
  }
  if (variant == "tiled-halo") {
    bookBlock(t, ct::kTiledOutW, ct::kTiledOutH);
    t.path = "the tile";
    t.block = "32 x 8 threads, 8 x 2 outputs each";
    traceTiledHalo(t, loads);
    t.chapter = tiledChapter(r);
    t.steps.push_back({"load the tile", "phase 1: the 256 threads load the input tile, halo included, into shared memory: "
                                        "each cell once, thread (x, y) the columns x, x + 32, ... of rows y, y + 8, ...",
                       false, 0, 0, {topLeftWindow(t)}, window});
    t.steps.push_back({"compute", "phase 2: each thread 8 x 2 outputs from shared memory, a window row at a time "
                                  "(2r + 2 words, reused for every output it feeds)",
                       true, 0, 1, {topLeftWindow(t)}, window});
  } else {
    bookBlock(t, ct::kCachedOutW, ct::kCachedOutH);
    t.path = "the tile";
    t.block = "32 x 8 threads, 8 x 1 outputs each";
    traceTiledCached(t, loads);
    t.chapter = cachedChapter(r);
    t.steps.push_back({"load the tile", "phase 1: each thread loads its column's 8 cells of the output tile into shared memory",
                       false, 0, 0, {topLeftWindow(t)}, window});
    t.steps.push_back({"compute", "phase 2: a tap in the tile from shared memory, one in the halo from global memory "
                                  "(the neighbouring blocks' loads have likely put it in L1 or L2)",
                       true, 0, 1, {topLeftWindow(t)}, window});
  }
  const bool unrolled = r <= ct::kTiledUnrollMaxRadius;
  t.weightLoads = unrolled ? 0 : static_cast<long long>(taps);
  t.weightsFrom = unrolled ? kParameterWeights : "from shared memory, copied once a block";
}

// "1.20 global loads of pixels (1.20 distinct), 7.00 shared-memory reads, 49.00
// multiply-adds", per output: all of them (distinct >= 0) or a pass's, whose zeros are left out.
std::string perOutput(const ConvCounts& c, double outputs, long long distinct) {
  const bool all = distinct >= 0;
  std::vector<std::string> parts;
  auto part = [&](long long count, const std::string& what, bool always = false) {
    if (count > 0 || always) parts.push_back(fixed(double(count) / outputs) + " " + what);
  };
  const bool pixels = all && c.tableReads == 0;  // (glsl-sat-box reads the table alone)
  part(c.globalLoads, "global loads of pixels", pixels);
  if (pixels) parts.back() += " (" + fixed(double(distinct) / outputs) + " distinct)";
  part(c.sharedReads, "shared-memory reads", pixels);
  part(c.sharedWrites, "shared-memory writes");
  part(c.registerReads, "reads from registers");
  part(c.tableReads, "reads of the summed-area table");
  part(c.fmas, "multiply-adds");
  std::string text;
  for (const std::string& p : parts) text += (text.empty() ? "" : ", ") + p;
  return text;
}

}  // namespace

std::vector<std::string> tracedConvVariants(ConvBackend backend) {
  if (backend == ConvBackend::GlCompute) return {"glsl-tiled-halo", "glsl-basic", "glsl-separable", "glsl-sat-box"};
  return {"basic", "constant-memory", "tiled-halo", "tiled-cached-halo", "separable", "sat-box"};
}

std::string whyNoConvTrace(std::string_view variant, int radius, ConvBackend backend) {
  const std::vector<std::string> traced = tracedConvVariants(backend);
  std::ostringstream why;
  if (std::find(traced.begin(), traced.end(), variant) == traced.end()) {
    why << "'" << variant << "': no such convolution variant" << (backend == ConvBackend::GlCompute ? " in gl-compute" : "")
        << " (traced: ";
    for (std::size_t i = 0; i < traced.size(); ++i) why << (i == 0 ? "" : ", ") << traced[i];
    why << (backend == ConvBackend::Cuda ? "; the GLSL ones with --backend gl-compute)" : ")");
  } else if (radius < kMinFilterRadius || radius > kMaxFilterRadius) {
    why << "radius " << radius << ": must be " << kMinFilterRadius << ".." << kMaxFilterRadius;
  }
  return why.str();
}

Filter convLessonFilter(std::string_view variant, int radius) {
  return variant.ends_with("sat-box") ? box(radius) : gaussian(radius, defaultGaussianSigma(radius));
}

reference::ImageRgba8 convLessonImage(std::string_view variant, int radius, unsigned seed) {
  const BlockShape s = blockShape(variant, radius);
  reference::ImageRgba8 image(3 * s.outW, 3 * s.outH);
  std::mt19937 random(seed);
  std::uniform_int_distribution<int> byte(0, 255);
  for (std::uint8_t& v : image.pixels) v = static_cast<std::uint8_t>(byte(random));
  return image;
}

ConvTrace traceConv(std::string_view variant, const reference::ImageRgba8& image, const Filter& filter, Border border) {
  const bool glsl = isGlsl(variant);
  if (const std::string why = whyNoConvTrace(variant, filter.radius, glsl ? ConvBackend::GlCompute : ConvBackend::Cuda);
      !why.empty())
    throw std::invalid_argument(why);
  if (const auto bad = validateFilter(filter)) throw std::invalid_argument(*bad);
  if (variant.ends_with("separable") && !filter.separable)
    throw std::invalid_argument(std::string(variant) + " needs a separable (rank-one) filter; '" + filter.name + "' is not");
  if (variant.ends_with("sat-box") && filter.kind != FilterKind::Box)
    throw std::invalid_argument(std::string(variant) + ": box filters only (the mean of a window); '" + filter.name +
                                "' is not a box");
  const BlockShape s = blockShape(variant, filter.radius);
  if (image.width != 3 * s.outW || image.height != 3 * s.outH)
    throw std::invalid_argument("the image must be three blocks on a side (convLessonImage)");
  ConvTrace t;
  t.variant = std::string(variant);
  t.filter = filter;
  t.border = border;
  t.imageWidth = image.width, t.imageHeight = image.height;
  ImageLoads loads(image, border);
  if (variant == "glsl-sat-box") traceGlslSatBox(t, loads);
  else if (glsl) traceGlsl(t, loads);
  else if (onStrips(variant, filter.radius)) traceStrips(t, loads);
  else if (variant == "separable") traceSeparable(t, loads);
  else if (variant == "sat-box") traceSatBox(t, loads);
  else traceBook(t, loads);
  t.outputs = static_cast<long long>(t.outW) * t.outH;
  t.distinctPixels = loads.distinct();
  return t;
}

std::string convPassText(const ConvTrace& t, int pass) {
  const ConvPass& p = t.passes.at(static_cast<std::size_t>(pass));
  return p.name + ": per output pixel " + perOutput(p.counts, double(t.outputs), -1);
}

std::string convTotalText(const ConvTrace& t) { return perOutput(t.total(), double(t.outputs), t.distinctPixels); }

std::string convLessonText(const ConvTrace& t) {
  std::ostringstream o;
  for (std::size_t k = 0; k < t.steps.size(); ++k)
    o << "  step " << k + 1 << " of " << t.steps.size() << ": " << t.steps[k].phase << ": " << t.steps[k].what << "\n";
  if (t.passes.size() > 1)
    for (std::size_t p = 0; p < t.passes.size(); ++p) o << "  " << convPassText(t, int(p)) << "\n";
  o << "satdof: lesson: " << t.variant << ", r = " << t.filter.radius << " (" << t.path << "), a " << t.outW << " x "
    << t.outH << " output tile: per output pixel " << convTotalText(t) << "; weights " << t.weightsFrom << "\n";
  o << "satdof: lesson: " << t.chapter << "\n";
  return o.str();
}

}  // namespace satdof::lesson
