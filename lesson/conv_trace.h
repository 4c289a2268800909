// lesson/conv_trace.h — one block of a convolution kernel followed load by load, from the
// index arithmetic its kernel runs (satdof/conv_tiles.h): the input cells the block reads
// (its output tile and the halo around it), which memory serves each read and how often,
// the block's outputs computed from the values those reads return, and the loads per
// output pixel against the chapter's. The block shown is the middle one of an image three
// output tiles wide and high, so its halo lies inside the image.
//   basic                 every tap a global load of the pixel and one of the weight
//   constant-memory       every tap a global load; the weights from the constant cache
//   tiled-halo            (r >= 3) the input tile, halo included, loaded once into shared
//                         memory; every tap a shared-memory read
//   tiled-cached-halo     (r >= 3) the output tile alone in shared memory; taps inside it
//                         read there, the halo's from global memory through the caches
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "lesson/canvas.h"
#include "satdof/reference/conv.h"

namespace satdof::lesson {

struct ConvStep {
  std::string phase;  // "load the tile", "compute"
  std::string what;
  bool reads = false;  // the step's picture shows the compute's reads (else the tile's loads)
};

struct ConvTrace {
  std::string variant;
  Filter filter;
  Border border = Border::Zero;
  int imageWidth = 0, imageHeight = 0;
  int outX0 = 0, outY0 = 0, outW = 0, outH = 0;      // the block's output tile, image pixels
  int footX0 = 0, footY0 = 0, footW = 0, footH = 0;  // the cells its taps cover: tile and halo
  // Per footprint cell, row by row:
  std::vector<int> tileLoads;    // global loads into the shared tile (tiled variants; else 0)
  std::vector<int> globalReads;  // taps read from global memory (through L1 / L2)
  std::vector<int> sharedReads;  // taps read from shared memory (a word each)
  std::vector<char> inTile;      // held in the block's shared tile
  long long outputs = 0;         // the block's output pixels
  long long globalLoads = 0;     // all the block's global loads of pixels (tile and taps)
  long long distinctPixels = 0;  // the distinct pixels they load: each first comes from DRAM or L2
  long long sharedWords = 0;     // all its shared-memory reads
  long long weightLoads = 0;     // weight reads, and where from:
  std::string weightsFrom;
  std::string chapter;           // the chapter's counts for its kernel, one line
  std::vector<std::uint8_t> result;  // the block's outputs (channel 0), row by row
  std::vector<ConvStep> steps;
};

std::vector<std::string> tracedConvVariants();
// Why `variant` at `radius` has no trace (empty: it has one).
std::string whyNoConvTrace(std::string_view variant, int radius);
// Throws std::invalid_argument where whyNoConvTrace says why. `image` must be the size
// convLessonImage gives; its channel 0 is convolved.
ConvTrace traceConv(std::string_view variant, const reference::ImageRgba8& image, const Filter& filter, Border border);
// The image a variant's lesson works on: three of its output tiles on a side, random.
reference::ImageRgba8 convLessonImage(std::string_view variant, int radius, unsigned seed);

void drawConvStep(Canvas& canvas, const ConvTrace& trace, int step);
std::string convStepSvg(const ConvTrace& trace, int step);
std::vector<std::filesystem::path> writeConvLesson(const ConvTrace& trace, const std::filesystem::path& folder);
std::string convLessonText(const ConvTrace& trace);

}  // namespace satdof::lesson
