// lesson/conv_trace.h — one block of a convolution kernel followed load by load, from the
// index arithmetic its kernel runs (satdof/conv_tiles.h): the cells the block reads (its
// output tile and the halo around it, and the intermediate values of the two-pass
// variants), which memory serves each read and how often, the block's outputs computed
// from the values those reads return, and the loads per output pixel, pass by pass,
// against the chapter's. The block is the middle one of an image three blocks wide and
// high (its halo inside the image); sat-box's is the top-left one, whose windows run past
// the image's edges.
//   basic                 every tap a global load of the pixel and one of the weight
//   constant-memory       every tap a global load; the weights from the constant cache
//   tiled-halo            r >= 3: the input tile, halo included, loaded once into shared
//                         memory, every tap a shared-memory read; r <= 2: the strip path
//                         (warps walking down 128-column strips, rows copied with their
//                         halo into a shared-memory ring)
//   tiled-cached-halo     r >= 3: the output tile alone in shared memory, the halo's taps
//                         from global memory through the caches; r <= 2: the strip path, a
//                         lane's own pixels through the ring, its halo from global memory
//   separable             r >= 3: a row pass from global memory into a shared-memory ring
//                         of intermediate rows, a column pass over them; r <= 2: the strip
//                         path, both passes in registers
//   sat-box               one pass of row prefixes and row windows into a shared-memory
//                         ring, running column sums over it: four reads per pixel
// And the gl-compute backend's GLSL convolutions (shaders/compute/conv_*.comp, their index
// arithmetic from shaders/compute/conv_index.glsl, which satdof/conv_tiles.h includes): a
// 16 x 16 work group, the middle one (glsl-sat-box: the top-left one, as sat-box):
//   glsl-basic            every tap a texture fetch; the weights from a storage buffer
//   glsl-tiled-halo       the (16 + 2r)^2 input tile fetched once into shared memory, in
//                         strides of the group, every tap a shared-memory read
//   glsl-separable        a row pass of fetches into shared memory (the group's 16 columns,
//                         16 + 2r rows), a column pass over it
//   glsl-sat-box          four reads of the input's summed-area table (a storage buffer) per
//                         rectangle: one rectangle inside the image, up to 3 x 3 at its
//                         edges under clamp (the edge lines repeated)
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "lesson/canvas.h"
#include "satdof/reference/conv.h"

namespace satdof::lesson {

// A rectangle of cells one step's picture draws, in image coordinates: the input image's,
// or the intermediate's (one value a pixel: the row pass's, sat-box's row windows).
struct ConvGrid {
  std::string name;                  // "the input image", "the intermediate rows"
  int x0 = 0, y0 = 0, w = 0, h = 0;
  // Per cell, row by row:
  std::vector<int> tileLoads;        // loads by the block's load phase (into shared memory or registers)
  std::vector<int> globalReads;      // taps read from global memory (through L1 / L2)
  std::vector<int> sharedReads;      // reads from shared memory (a pixel's word, or one intermediate value)
  std::vector<int> registerReads;    // reads of values held in registers (or a neighbour lane's, by a shuffle)
  std::vector<int> writes;           // intermediate values computed into the cell
  std::vector<char> inTile;          // held by the load phase
  std::vector<char> used;            // its value feeds an output (a loaded or computed cell that does not: waste)

  bool holds(int x, int y) const { return x >= x0 && y >= y0 && x < x0 + w && y < y0 + h; }
  std::size_t at(int x, int y) const { return std::size_t(y - y0) * std::size_t(w) + std::size_t(x - x0); }
};

// Counts of one pass of the block (or all of them).
struct ConvCounts {
  long long globalLoads = 0;    // pixels loaded from global memory (a word each)
  long long sharedReads = 0;    // values read from shared memory
  long long sharedWrites = 0;   // intermediate values written to shared memory
  long long registerReads = 0;  // sat-box: prefix sums read from registers or by a shuffle
  long long tableReads = 0;     // glsl-sat-box: entries of the summed-area table read (global memory)
  long long fmas = 0;           // multiply-adds (four channels each)
  ConvCounts& operator+=(const ConvCounts& o);
};

struct ConvPass {
  std::string name;  // "load the tile", "row pass"
  ConvCounts counts;
};

// Cells outlined in a step's picture, labelled ("+", "-", "0": a window's corner).
struct ConvMark {
  int x = 0, y = 0, w = 1, h = 1;  // image coordinates, in cells
  std::string colour;
  std::string label;
  bool faint = false;  // thin, under the output tile's outline (a warp's strip, a chunk)
};

struct ConvStep {
  std::string phase;    // "load the tile", "compute", "row pass"
  std::string what;
  bool reads = false;   // the picture shows reads (else what the load phase holds)
  int grid = 0;         // the grid it draws
  int pass = 0;         // whose counts it gives
  std::vector<ConvMark> marks;
  std::string marksNote;  // what the marks are
};

struct ConvTrace {
  std::string variant;
  std::string path;     // the kernel's path at this radius: "tile", "strips", "one thread a pixel"
  std::string block;    // the block, in words
  Filter filter;
  Border border = Border::Zero;
  int imageWidth = 0, imageHeight = 0;
  int outX0 = 0, outY0 = 0, outW = 0, outH = 0;  // the block's output tile, image pixels
  std::vector<ConvGrid> grids;                   // [0]: the input image's cells its reads cover
  std::vector<ConvPass> passes;
  long long outputs = 0;         // the block's output pixels
  long long distinctPixels = 0;  // the distinct pixels it loads: each first comes from DRAM or L2
  long long weightLoads = 0;     // weight reads, and where from:
  std::string weightsFrom;       // "from global memory (...)", "are not read: ..."
  std::string globalReadsAre = "read from global memory";  // the legend's words for globalReads
  std::string chapter;           // the chapter's counts for its kernel, one line
  std::vector<std::uint8_t> result;  // the block's outputs (channel 0), row by row
  std::vector<ConvStep> steps;

  const ConvGrid& input() const { return grids.front(); }
  ConvCounts total() const;
};

// Whose convolutions a list names: the CUDA kernels' (cuda/conv/, the CUDA registry's names)
// or the gl-compute backend's GLSL shaders (its kConvolutions' names).
enum class ConvBackend { Cuda, GlCompute };
std::vector<std::string> tracedConvVariants(ConvBackend backend = ConvBackend::Cuda);
// Why `variant` at `radius` has no trace among `backend`'s (empty: it has one).
std::string whyNoConvTrace(std::string_view variant, int radius, ConvBackend backend = ConvBackend::Cuda);
// The filter a lesson runs: a Gaussian of sigma r / 2, sat-box's box (the mean).
Filter convLessonFilter(std::string_view variant, int radius);
// Throws std::invalid_argument where whyNoConvTrace says why (for the backend whose list
// holds `variant`), or for a filter the variant does not run (the separable ones: rank-one;
// the sat-box ones: a box). `image` must be the size
// convLessonImage gives; its channel 0 is convolved.
ConvTrace traceConv(std::string_view variant, const reference::ImageRgba8& image, const Filter& filter, Border border);
// The image a variant's lesson works on at `radius`: three of its blocks on a side, random.
reference::ImageRgba8 convLessonImage(std::string_view variant, int radius, unsigned seed);

void drawConvStep(Canvas& canvas, const ConvTrace& trace, int step);
std::string convStepSvg(const ConvTrace& trace, int step);
std::vector<std::filesystem::path> writeConvLesson(const ConvTrace& trace, const std::filesystem::path& folder);
std::string convLessonText(const ConvTrace& trace);
// "row pass: per output pixel 2.00 global loads of pixels, ..." for trace.passes[pass].
std::string convPassText(const ConvTrace& trace, int pass);
// All passes, per output pixel: "1.20 global loads of pixels (1.20 distinct), 7.00 ...".
std::string convTotalText(const ConvTrace& trace);

}  // namespace satdof::lesson
