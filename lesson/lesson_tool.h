// lesson/lesson_tool.h — `satdof lesson scan`, `sat` and `conv`: a scan variant, a SAT
// algorithm or one block of a convolution variant traced at a small size, its steps
// printed and written as SVG pictures.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "lesson/conv_trace.h"
#include "lesson/scan_trace.h"

namespace satdof::lesson {

struct ScanLessonRequest {
  std::string variant;            // a traced scan variant (tracedScanVariants())
  int n = 16;                     // elements
  int blocks = 1;                 // blocks the row is split over (the tile: n / blocks, rounded up to a power of two)
  unsigned seed = 1;              // the input: values 0..9 from this seed
  std::filesystem::path outDir;   // where the SVGs go (empty: none written)
  ScanTarget target;              // the CUDA kernels' blocks, or the GLSL ones (--backend gl-compute)
};

// Runs the request: prints each step and the totals, writes the pictures. Returns the exit
// code: 0, or 2 with one line on stderr for a variant without a trace or a bad size.
int runScanLesson(const ScanLessonRequest& request);

// The request's tile: n / blocks rounded up to a power of two, at least 2.
int lessonTile(int n, int blocks);
// A lesson's input: `count` values 0..9 from `seed` (the same in the window and the files).
std::vector<std::uint32_t> lessonInput(std::size_t count, unsigned seed);

struct SatLessonRequest {
  std::string algorithm;          // a traced SAT algorithm (tracedSatAlgorithms())
  int n = 16;                     // an n x n image
  unsigned seed = 1;              // its values 0..9 from this seed
  std::filesystem::path outDir;   // where the SVGs go (empty: none written)
};

// `satdof lesson sat`: as runScanLesson.
int runSatLesson(const SatLessonRequest& request);

struct ConvLessonRequest {
  std::string variant;            // a traced convolution variant (tracedConvVariants(backend))
  int radius = 3;                 // the filter's radius (convLessonFilter: a Gaussian, sigma r / 2; sat-box a box)
  bool clampBorder = false;       // the border rule: zero (the book's) or clamp
  unsigned seed = 1;              // the image's random bytes
  std::filesystem::path outDir;   // where the SVGs go (empty: none written)
  ConvBackend backend = ConvBackend::Cuda;  // the CUDA kernels, or the GLSL shaders (--backend gl-compute)
};

// `satdof lesson conv`: as runScanLesson.
int runConvLesson(const ConvLessonRequest& request);

}  // namespace satdof::lesson
