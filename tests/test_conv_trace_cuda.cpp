// tests/test_conv_trace_cuda.cpp — each traced convolution variant's trace
// (lesson/conv_trace.h) against its CUDA kernel. Without a device: every traced variant is
// in the conv registry, and the trace's block and output tile are the launch shape the
// registry prints for the kernel at that radius (its tuning: the strip engine below
// kTiledMinRadius, the variant's own tile from there on). On a device: the kernel, run
// through the registry on the whole image (all four channels of RGBA8), gives the trace's
// outputs (channel 0 of its output tile) element for element, at radii 1, 2, 3, 7 and 15,
// both borders, on the lesson's image and on another random image of the same size. The
// run's seed is fresh (SATDOF_SEED=N replays it, tests/test_support.h) and printed.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <optional>
#include <random>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "conv_test_support.h"
#include "cuda_test_support.h"
#include "lesson/conv_trace.h"
#include "satdof/conv2d.h"
#include "satdof/conv_tiles.h"

namespace {

using namespace satdof;
namespace ct = conv_tiles;

// ---- the launch shape the registry prints --------------------------------------------

// The tuning's words for the kernel at `radius`: "r<=2: A; else B" is A below
// kTiledMinRadius (the strip engine) and B from there on.
std::string tuningAt(const ConvVariant& kernel, int radius) {
  const std::string tuning(kernel.tuning);
  const std::string strips = "r<=" + std::to_string(ct::kTiledMinRadius - 1) + ": ", otherwise = "; else ";
  if (tuning.rfind(strips, 0) != 0) return tuning;
  const std::size_t split = tuning.find(otherwise);
  if (split == std::string::npos) return tuning;
  return radius < ct::kTiledMinRadius ? tuning.substr(strips.size(), split - strips.size())
                                      : tuning.substr(split + otherwise.size());
}

// A block's threads and output tile, as the tuning words them (0: they do not say).
struct PrintedShape {
  int threads = 0;
  int outW = 0, outH = 0;
  int stepRows = 0;  // a strip walked down this many rows a step: the tile is whole steps
};

PrintedShape printedShape(const std::string& words) {
  std::smatch m;
  const auto found = [&](const char* pattern) { return std::regex_search(words, m, std::regex(pattern)); };
  const auto number = [&](int i) { return std::stoi(m[i].str()); };
  PrintedShape s;
  if (found(R"((\d+) threads \((\d+)x(\d+)\), 1 pixel each)") || found(R"((\d+) threads, (\d+)x(\d+) tile)") ||
      found(R"((\d+) threads walk a (\d+)x(\d+) strip)")) {
    s.threads = number(1), s.outW = number(2), s.outH = number(3);
  } else if (found(R"((\d+) warps x strips (\d+) wide)")) {
    s.threads = number(1) * 32, s.outW = number(1) * number(2);
  } else if (found(R"(warp strips (\d+) wide)")) {
    s.outW = number(1);
  }
  if (found(R"((\d+) rows a step)")) s.stepRows = number(1);
  return s;
}

// The threads of the trace's block, from its words ("32 x 8 threads, ...", "4 warps, ...",
// "128 threads, ...").
int tracedThreads(const std::string& block) {
  std::smatch m;
  if (std::regex_search(block, m, std::regex(R"(^(\d+) x (\d+) threads)"))) return std::stoi(m[1].str()) * std::stoi(m[2].str());
  if (std::regex_search(block, m, std::regex(R"(^(\d+) warps)"))) return std::stoi(m[1].str()) * 32;
  if (std::regex_search(block, m, std::regex(R"(^(\d+) threads)"))) return std::stoi(m[1].str());
  return 0;
}

TEST(ConvTraceCuda, TheTracesRunTheKernelsBlocks) {
  for (const std::string& name : lesson::tracedConvVariants()) {
    const ConvVariant* kernel = findConvVariant(name);
    ASSERT_NE(kernel, nullptr) << name << " is traced but not in the CUDA conv registry";
    for (int r = kMinFilterRadius; r <= kMaxFilterRadius; ++r) {
      const std::string words = tuningAt(*kernel, r);
      SCOPED_TRACE(name + " r " + std::to_string(r) + ": the registry prints \"" + words + "\"");
      const lesson::ConvTrace t =
          lesson::traceConv(name, lesson::convLessonImage(name, r, 1), lesson::convLessonFilter(name, r), Border::Zero);
      const PrintedShape printed = printedShape(words);
      ASSERT_GT(printed.outW, 0) << "the tuning names no tile width";
      EXPECT_EQ(t.outW, printed.outW);
      if (printed.outH > 0) {
        EXPECT_EQ(t.outH, printed.outH);
      }
      if (printed.stepRows > 0) {
        EXPECT_EQ(t.outH % printed.stepRows, 0) << t.outH << " rows: not whole steps";
      }
      const bool strips = words.rfind("warp strips", 0) == 0;
      EXPECT_EQ(t.path == "the strip engine", strips) << t.path;
      if (strips) {
        // The tuning does not say the strip engine's block: 4 warps on strips stacked
        // vertically, stripRows(r) rows each (strip_engine.cuh, from conv_tiles.h).
        EXPECT_EQ(tracedThreads(t.block), ct::kStripWarpsPerBlock * ct::kStripLanes) << t.block;
        EXPECT_EQ(t.outH, ct::kStripWarpsPerBlock * ct::stripRows(r));
      } else {
        EXPECT_EQ(tracedThreads(t.block), printed.threads) << t.block;
      }
    }
  }
}

// ---- the kernel's outputs against the trace's ----------------------------------------

// `kernel`'s output over the whole of `image` (all four channels), run through the
// registry (conv_test_support.h: every CUDA call checked, a failure thrown as CudaError).
reference::ImageRgba8 onTheGpu(const ConvVariant& kernel, const reference::ImageRgba8& image, const Filter& filter,
                               Border border) {
  test::DeviceImage in(image.width, image.height, 0), out(image.width, image.height, 0);
  in.upload(image);
  reference::ImageRgba8 computed(image.width, image.height);
  computed.pixels = test::runVariant(kernel, in, out, filter, border);  // rows packed: no padding
  return computed;
}

// The trace's outputs against the kernel's channel 0 over the trace's output tile.
::testing::AssertionResult sameOutputs(const lesson::ConvTrace& t, const reference::ImageRgba8& kernel) {
  if (t.result.size() != std::size_t(t.outW) * std::size_t(t.outH))
    return ::testing::AssertionFailure() << t.result.size() << " outputs traced for a " << t.outW << " x " << t.outH << " tile";
  if (t.outX0 < 0 || t.outY0 < 0 || t.outX0 + t.outW > kernel.width || t.outY0 + t.outH > kernel.height)
    return ::testing::AssertionFailure() << "the output tile runs past the image";
  std::size_t differ = 0;
  std::ostringstream first;
  for (int y = 0; y < t.outH; ++y)
    for (int x = 0; x < t.outW; ++x) {
      const int traced = t.result[std::size_t(y) * std::size_t(t.outW) + std::size_t(x)];
      const int computed = kernel.at(t.outX0 + x, t.outY0 + y)[0];
      if (traced != computed && differ++ == 0)
        first << "(" << t.outX0 + x << ", " << t.outY0 + y << "): traced " << traced << ", the kernel " << computed;
    }
  if (differ == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << differ << " of " << t.result.size() << " outputs differ; the first at " << first.str();
}

TEST(ConvTraceCuda, EveryTraceGivesItsKernelsOutputs) {
  SATDOF_SKIP_WITHOUT_DEVICE();
  const unsigned seed = test::freshSeed();
  std::printf("seed %u (SATDOF_SEED=%u runs it again)\n", seed, seed);
  std::mt19937 random(seed);
  for (const std::string& name : lesson::tracedConvVariants()) {
    const ConvVariant* kernel = findConvVariant(name);
    ASSERT_NE(kernel, nullptr) << name << " is traced but not in the CUDA conv registry";
    int compared = 0;
    for (int r : {1, 2, 3, 7, kMaxFilterRadius}) {
      const Filter filter = lesson::convLessonFilter(name, r);
      if (const auto why = kernel->supports(filter)) {
        std::printf("%s r %d: not run (%s)\n", name.c_str(), r, why->c_str());
        continue;
      }
      const unsigned lessonSeed = random();
      const reference::ImageRgba8 lessonImage = lesson::convLessonImage(name, r, lessonSeed);
      const reference::ImageRgba8 other = test::randomImage(lessonImage.width, lessonImage.height, random);
      for (Border border : {Border::Zero, Border::Clamp})
        for (const reference::ImageRgba8* image : {&lessonImage, &other}) {
          SCOPED_TRACE(name + " r " + std::to_string(r) + (border == Border::Zero ? " zero" : " clamp") + " border, " +
                       (image == &lessonImage ? "convLessonImage seed " + std::to_string(lessonSeed)
                                              : std::string("another random image")) +
                       "; run seed " + std::to_string(seed));
          const lesson::ConvTrace t = lesson::traceConv(name, *image, filter, border);
          reference::ImageRgba8 computed;
          try {
            computed = onTheGpu(*kernel, *image, filter, border);
          } catch (const CudaError& e) {
            FAIL() << e.what();  // here, under the case's trace
          }
          EXPECT_TRUE(sameOutputs(t, computed));
          ++compared;
        }
    }
    EXPECT_GT(compared, 0) << name << ": no radius run";
  }
}

}  // namespace
