// lesson/conv_trace.cpp — see conv_trace.h. Each variant's block runs its kernel's loops in
// their order (phase 1 fills the tile, phase 2 reads the taps), on channel 0 of the image,
// with one float fma chain per output as the kernels and the reference keep it.
#include "lesson/conv_trace.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <set>
#include <sstream>
#include <stdexcept>
#include <utility>

#include "satdof/conv_tiles.h"

namespace satdof::lesson {
namespace {

namespace ct = conv_tiles;

struct Shape {
  int outW = 0, outH = 0;
  bool tiled = false;
};

Shape shapeOf(std::string_view variant) {
  if (variant == "tiled-halo") return {ct::kTiledOutW, ct::kTiledOutH, true};
  if (variant == "tiled-cached-halo") return {ct::kCachedOutW, ct::kCachedOutH, true};
  return {ct::kPixelBlockX, ct::kPixelBlockY, false};
}

// The block's reads, as the kernels' fetchWord makes them: a cell outside the image is 0
// with no load under Border::Zero, and the nearest edge pixel, loaded, under Clamp.
class Block {
 public:
  Block(const reference::ImageRgba8& image, ConvTrace& t) : image_(image), t_(t) {}

  std::size_t cell(int x, int y) const { return std::size_t(y - t_.footY0) * std::size_t(t_.footW) + std::size_t(x - t_.footX0); }
  bool inImage(int x, int y) const { return x >= 0 && y >= 0 && x < image_.width && y < image_.height; }
  // Whether reading (x, y) loads a pixel (a ghost cell under Zero loads none).
  bool loads(int x, int y) const { return t_.border == Border::Clamp || inImage(x, y); }
  // A global load of the cell (x, y): its value, counted.
  float load(int x, int y) {
    if (!loads(x, y)) return 0.0f;
    x = std::clamp(x, 0, image_.width - 1), y = std::clamp(y, 0, image_.height - 1);
    ++t_.globalLoads;
    pixels_.insert({x, y});
    return float(image_.at(x, y)[0]);
  }
  long long distinct() const { return static_cast<long long>(pixels_.size()); }

 private:
  const reference::ImageRgba8& image_;
  ConvTrace& t_;
  std::set<std::pair<int, int>> pixels_;
};

void traceBasic(ConvTrace& t, Block& b) {
  const int r = t.filter.radius, n = t.filter.size();
  for (int y = t.outY0; y < t.outY0 + t.outH; ++y)
    for (int x = t.outX0; x < t.outX0 + t.outW; ++x) {  // a thread each
      float acc = 0.0f;
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
          const int px = x - r + j, py = y - r + i;
          if (!b.loads(px, py)) continue;  // the bounds check: a ghost tap adds nothing
          ++t.globalReads[b.cell(px, py)];
          ++t.weightLoads;
          acc = std::fma(t.filter.at(i, j), b.load(px, py), acc);
        }
      t.result.push_back(reference::roundToByte(acc));
    }
}

void traceTiledHalo(ConvTrace& t, Block& b) {
  const int r = t.filter.radius, n = t.filter.size();
  const int inW = ct::tiledInputSide(t.outW, r), inH = ct::tiledInputSide(t.outH, r);
  std::vector<float> tile(std::size_t(inW) * std::size_t(inH));
  // Phase 1: thread (tx, ty) loads columns tx, tx + 32, ... of rows ty, ty + 8, ...
  for (int ty = 0; ty < ct::kTiledThreadsY; ++ty)
    for (int tx = 0; tx < ct::kTiledThreadsX; ++tx)
      for (int row = ty; row < inH; row += ct::kTiledThreadsY)
        for (int col = tx; col < inW; col += ct::kTiledThreadsX) {
          const int x = t.outX0 - r + col, y = t.outY0 - r + row;
          if (b.loads(x, y)) ++t.tileLoads[b.cell(x, y)];
          t.inTile[b.cell(x, y)] = 1;
          tile[std::size_t(row) * inW + col] = b.load(x, y);
        }
  // Phase 2: thread (tx, ty) computes rows tr.. tr + 7, columns tc, tc + 1 of the tile,
  // reading its window's rows one at a time, 2r + 2 words each (r + 1 pairs).
  std::vector<float> acc(std::size_t(t.outW) * std::size_t(t.outH), 0.0f);
  for (int ty = 0; ty < ct::kTiledThreadsY; ++ty)
    for (int tx = 0; tx < ct::kTiledThreadsX; ++tx) {
      const int tr = ty * ct::kTiledRowsPerThread, tc = tx * ct::kTiledColsPerThread;
      for (int rr = 0; rr < ct::kTiledRowsPerThread + 2 * r; ++rr)
        for (int q = 0; q < 2 * r + 2; ++q) {
          ++t.sharedReads[b.cell(t.outX0 - r + tc + q, t.outY0 - r + tr + rr)];
          ++t.sharedWords;
          const float v = tile[std::size_t(tr + rr) * inW + std::size_t(tc + q)];
          for (int m = 0; m < ct::kTiledColsPerThread; ++m)
            for (int k = 0; k < ct::kTiledRowsPerThread; ++k) {
              const int i = rr - k, j = q - m;
              if (i < 0 || i >= n || j < 0 || j >= n) continue;
              float& a = acc[std::size_t(tr + k) * t.outW + std::size_t(tc + m)];
              a = std::fma(t.filter.at(i, j), v, a);
            }
        }
    }
  for (float a : acc) t.result.push_back(reference::roundToByte(a));
}

void traceTiledCached(ConvTrace& t, Block& b) {
  const int r = t.filter.radius, n = t.filter.size();
  std::vector<float> tile(std::size_t(t.outW) * std::size_t(t.outH));
  // Phase 1: each thread its own column's 8 cells.
  for (int ty = 0; ty < ct::kTiledThreadsY; ++ty)
    for (int tx = 0; tx < ct::kTiledThreadsX; ++tx)
      for (int k = 0; k < ct::kCachedRowsPerThread; ++k) {
        const int row = ty * ct::kCachedRowsPerThread + k, x = t.outX0 + tx, y = t.outY0 + row;
        if (b.loads(x, y)) ++t.tileLoads[b.cell(x, y)];
        t.inTile[b.cell(x, y)] = 1;
        tile[std::size_t(row) * t.outW + tx] = b.load(x, y);
      }
  // Phase 2: 8 outputs a thread; a tap from the tile where it holds it, else from global.
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
            ++t.sharedReads[b.cell(x, y)];
            ++t.sharedWords;
            v = tile[std::size_t(sr) * t.outW + std::size_t(sc)];
          } else {
            if (b.loads(x, y)) ++t.globalReads[b.cell(x, y)];
            v = b.load(x, y);
          }
          for (int k = 0; k < ct::kCachedRowsPerThread; ++k) {
            const int i = rr - k;
            if (i < 0 || i >= n) continue;
            float& a = acc[std::size_t(tr + k) * t.outW + std::size_t(tx)];
            a = std::fma(t.filter.at(i, j), v, a);
          }
        }
      }
    }
  for (float a : acc) t.result.push_back(reference::roundToByte(a));
}

std::string fixed(double v, int digits = 2) {
  char s[32];
  std::snprintf(s, sizeof s, "%.*f", digits, v);
  return s;
}

}  // namespace

std::vector<std::string> tracedConvVariants() { return {"basic", "constant-memory", "tiled-halo", "tiled-cached-halo"}; }

std::string whyNoConvTrace(std::string_view variant, int radius) {
  const std::vector<std::string> traced = tracedConvVariants();
  std::ostringstream why;
  if (std::find(traced.begin(), traced.end(), variant) == traced.end()) {
    const bool other = variant == "separable" || variant == "sat-box";
    why << "'" << variant << "': " << (other ? "no step-by-step trace yet" : "no such convolution variant") << " (traced:";
    for (std::size_t i = 0; i < traced.size(); ++i) why << (i == 0 ? " " : ", ") << traced[i];
    why << ")";
  } else if (radius < kMinFilterRadius || radius > kMaxFilterRadius) {
    why << "radius " << radius << ": must be " << kMinFilterRadius << ".." << kMaxFilterRadius;
  } else if (shapeOf(variant).tiled && radius < ct::kTiledMinRadius) {
    why << variant << " at radius " << radius << " runs the streaming strip path (cuda/conv/strip_engine.cuh), not "
        << "its tile: the trace follows the tile, radius " << ct::kTiledMinRadius << ".." << kMaxFilterRadius;
  }
  return why.str();
}

reference::ImageRgba8 convLessonImage(std::string_view variant, int radius, unsigned seed) {
  (void)radius;
  const Shape s = shapeOf(variant);
  reference::ImageRgba8 image(3 * s.outW, 3 * s.outH);
  std::mt19937 random(seed);
  std::uniform_int_distribution<int> byte(0, 255);
  for (std::uint8_t& v : image.pixels) v = static_cast<std::uint8_t>(byte(random));
  return image;
}

ConvTrace traceConv(std::string_view variant, const reference::ImageRgba8& image, const Filter& filter, Border border) {
  if (const std::string why = whyNoConvTrace(variant, filter.radius); !why.empty()) throw std::invalid_argument(why);
  if (const auto bad = validateFilter(filter)) throw std::invalid_argument(*bad);
  const Shape s = shapeOf(variant);
  if (image.width != 3 * s.outW || image.height != 3 * s.outH)
    throw std::invalid_argument("the image must be three output tiles on a side (convLessonImage)");
  ConvTrace t;
  t.variant = std::string(variant);
  t.filter = filter;
  t.border = border;
  t.imageWidth = image.width, t.imageHeight = image.height;
  t.outX0 = s.outW, t.outY0 = s.outH, t.outW = s.outW, t.outH = s.outH;
  const int r = filter.radius;
  t.footX0 = t.outX0 - r, t.footY0 = t.outY0 - r, t.footW = t.outW + 2 * r, t.footH = t.outH + 2 * r;
  const std::size_t cells = std::size_t(t.footW) * std::size_t(t.footH);
  t.tileLoads.assign(cells, 0);
  t.globalReads.assign(cells, 0);
  t.sharedReads.assign(cells, 0);
  t.inTile.assign(cells, 0);
  t.outputs = static_cast<long long>(t.outW) * t.outH;
  Block block(image, t);
  const int n = filter.size(), taps = n * n;
  const std::string tapsText = "(2r+1)^2 = " + std::to_string(taps);
  if (!s.tiled) {
    traceBasic(t, block);
    t.weightsFrom = variant == "basic" ? "global memory (a load each tap; every thread of a warp the same address)"
                                       : "the constant cache (one broadcast a tap for the whole warp)";
    t.chapter = variant == "basic"
                    ? "the chapter's basic kernel: " + tapsText + " global loads of pixels and as many of weights per output, 2 FLOPs per 8 bytes (0.25 FLOP/B)"
                    : "the chapter's constant-memory kernel: " + tapsText + " global loads of pixels per output, the weights cached: 2 FLOPs per 4 bytes (0.5 FLOP/B)";
    t.steps.push_back({"compute", "one thread a pixel: every tap a global load (L1 and L2 serve the repeats)", true});
  } else if (variant == "tiled-halo") {
    traceTiledHalo(t, block);
    const double chapterOut = double(32 - 2 * r) * double(32 - 2 * r);
    t.chapter = "the chapter's tiled kernel (a 32 x 32 input tile, a thread a cell, " + fixed(chapterOut, 0) +
                " of its 1024 threads computing): " + fixed(1024.0 / chapterOut) + " global loads and " + tapsText +
                " shared reads per output";
    t.steps.push_back({"load the tile", "phase 1: the 256 threads load the input tile, halo included, into shared memory: "
                                        "each cell once, thread (x, y) the columns x, x + 32, ... of rows y, y + 8, ...", false});
    t.steps.push_back({"compute", "phase 2: each thread 8 x 2 outputs from shared memory, a window row at a time "
                                  "(2r + 2 words, reused for every output it feeds)", true});
  } else {
    traceTiledCached(t, block);
    t.chapter = "the chapter's cached-halo kernel (a 32 x 32 tile): 1 global load per output into the tile; of its " +
                tapsText + " taps those in the tile from shared memory, the halo's from global memory through L1 / L2";
    t.steps.push_back({"load the tile", "phase 1: each thread loads its column's 8 cells of the output tile into shared memory", false});
    t.steps.push_back({"compute", "phase 2: a tap in the tile from shared memory, one in the halo from global memory "
                                  "(the neighbouring blocks' loads have likely put it in L1 or L2)", true});
  }
  if (s.tiled) {
    const bool unrolled = r <= ct::kTiledUnrollMaxRadius;
    t.weightLoads = unrolled ? 0 : static_cast<long long>(taps);
    t.weightsFrom = unrolled ? "the kernel's parameters: constant-bank operands of the unrolled taps"
                             : "shared memory, copied once a block";
  }
  t.distinctPixels = block.distinct();
  return t;
}

std::string convLessonText(const ConvTrace& t) {
  std::ostringstream o;
  for (std::size_t k = 0; k < t.steps.size(); ++k)
    o << "  step " << k + 1 << " of " << t.steps.size() << ": " << t.steps[k].phase << ": " << t.steps[k].what << "\n";
  const double out = double(t.outputs);
  o << "satdof: lesson: " << t.variant << ", r = " << t.filter.radius << ", a " << t.outW << " x " << t.outH
    << " output tile: per output pixel " << fixed(double(t.globalLoads) / out) << " global loads of pixels ("
    << fixed(double(t.distinctPixels) / out) << " distinct), " << fixed(double(t.sharedWords) / out)
    << " shared-memory reads; weights from " << t.weightsFrom << "\n";
  o << "satdof: lesson: " << t.chapter << "\n";
  return o.str();
}

}  // namespace satdof::lesson
