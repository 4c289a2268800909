// lesson/lesson_tool.cpp — see lesson_tool.h.
#include "lesson/lesson_tool.h"

#include <cstdint>
#include <cstdio>
#include <random>
#include <stdexcept>
#include <vector>

#include "engine/files/safe_write.h"
#include "lesson/conv_trace.h"
#include "lesson/lookback_trace.h"
#include "lesson/sat_trace.h"
#include "lesson/scan_picture.h"
#include "lesson/scan_trace.h"

namespace satdof::lesson {

int lessonTile(int n, int blocks) {
  const int perBlock = (n + blocks - 1) / blocks;
  int tile = 2;
  while (tile < perBlock) tile <<= 1;
  return tile;
}

std::vector<std::uint32_t> lessonInput(std::size_t count, unsigned seed) {
  std::mt19937 random(seed);
  std::uniform_int_distribution<std::uint32_t> digit(0, 9);
  std::vector<std::uint32_t> v(count);
  for (std::uint32_t& x : v) x = digit(random);
  return v;
}

namespace {

// Runs `lesson` (it prints the steps, writes the pictures and returns their paths), reports
// them, and turns a refusal into one line with exit 2 and a failed write into exit 1.
template <class Lesson>
int run(const char* topic, Lesson&& lesson) {
  try {
    const std::vector<std::filesystem::path> paths = lesson();
    if (!paths.empty())
      std::printf("satdof: lesson: wrote %zu pictures, %s .. %s\n", paths.size(), paths.front().string().c_str(),
                  paths.back().filename().string().c_str());
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "satdof: lesson %s: %s\n", topic, e.what());
    return 2;
  } catch (const files::WriteError& e) {
    std::fprintf(stderr, "satdof: %s\n", e.what());
    return 1;
  }
  return 0;
}

}  // namespace

int runScanLesson(const ScanLessonRequest& r) {
  if (r.variant == "decoupled-lookback")
    return run("scan", [&] {
      const LookbackTrace trace =
          traceLookback(lessonInput(static_cast<std::size_t>(r.n), r.seed), (r.n + r.blocks - 1) / r.blocks, r.seed);
      std::printf("%s", lookbackLessonText(trace).c_str());
      return r.outDir.empty() ? std::vector<std::filesystem::path>{} : writeLookbackLesson(trace, r.outDir);
    });
  if (const std::string why = whyNoTrace(r.variant); !why.empty()) {
    std::fprintf(stderr, "satdof: lesson scan: %s\n", why.c_str());
    return 2;
  }
  return run("scan", [&] {
    const ScanTrace trace =
        traceScan(r.variant, lessonInput(static_cast<std::size_t>(r.n), r.seed), lessonTile(r.n, r.blocks), r.target);
    std::printf("%s", scanLessonText(trace).c_str());
    return r.outDir.empty() ? std::vector<std::filesystem::path>{} : writeScanLesson(trace, r.outDir);
  });
}

int runSatLesson(const SatLessonRequest& r) {
  return run("sat", [&] {
    const SatTrace trace = traceSat(r.algorithm, lessonInput(static_cast<std::size_t>(r.n) * r.n, r.seed), r.n, r.n);
    std::printf("%s", satLessonText(trace).c_str());
    return r.outDir.empty() ? std::vector<std::filesystem::path>{} : writeSatLesson(trace, r.outDir);
  });
}

int runConvLesson(const ConvLessonRequest& r) {
  if (const std::string why = whyNoConvTrace(r.variant, r.radius, r.backend); !why.empty()) {
    std::fprintf(stderr, "satdof: lesson conv: %s\n", why.c_str());
    return 2;
  }
  return run("conv", [&] {
    const ConvTrace trace = traceConv(r.variant, convLessonImage(r.variant, r.radius, r.seed),
                                      convLessonFilter(r.variant, r.radius), r.clampBorder ? Border::Clamp : Border::Zero);
    std::printf("%s", convLessonText(trace).c_str());
    return r.outDir.empty() ? std::vector<std::filesystem::path>{} : writeConvLesson(trace, r.outDir);
  });
}

}  // namespace satdof::lesson
