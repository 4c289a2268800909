// lesson/lesson_tool.cpp — see lesson_tool.h.
#include "lesson/lesson_tool.h"

#include <cstdint>
#include <cstdio>
#include <random>
#include <stdexcept>
#include <vector>

#include "engine/files/safe_write.h"
#include "lesson/scan_svg.h"
#include "lesson/scan_trace.h"

namespace satdof::lesson {

int lessonTile(int n, int blocks) {
  const int perBlock = (n + blocks - 1) / blocks;
  int tile = 2;
  while (tile < perBlock) tile <<= 1;
  return tile;
}

int runScanLesson(const ScanLessonRequest& r) {
  if (const std::string why = whyNoTrace(r.variant); !why.empty()) {
    std::fprintf(stderr, "satdof: lesson scan: %s\n", why.c_str());
    return 2;
  }
  std::mt19937 random(r.seed);
  std::uniform_int_distribution<std::uint32_t> digit(0, 9);
  std::vector<std::uint32_t> input(static_cast<std::size_t>(r.n));
  for (std::uint32_t& v : input) v = digit(random);
  try {
    const ScanTrace trace = traceScan(r.variant, input, lessonTile(r.n, r.blocks));
    std::printf("%s", scanLessonText(trace).c_str());
    if (!r.outDir.empty()) {
      const auto paths = writeScanLesson(trace, r.outDir);
      std::printf("satdof: lesson: wrote %zu pictures, %s .. %s\n", paths.size(), paths.front().string().c_str(),
                  paths.back().filename().string().c_str());
    }
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "satdof: lesson scan: %s\n", e.what());
    return 2;
  } catch (const files::WriteError& e) {
    std::fprintf(stderr, "satdof: %s\n", e.what());
    return 1;
  }
  return 0;
}

}  // namespace satdof::lesson
