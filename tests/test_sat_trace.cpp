// tests/test_sat_trace.cpp — the lesson's SAT as two scans (lesson/sat_trace.h): its table
// against the reference SAT (satdof/reference/sat.h, which builds it another way) on random
// images of edge sizes, its additions against h(w-1) + w(h-1), and its pictures.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "lesson/lesson_tool.h"
#include "lesson/sat_trace.h"
#include "satdof/reference/sat.h"

namespace {

using namespace satdof::lesson;
namespace fs = std::filesystem;

TEST(SatTrace, BothAlgorithmsEndWithTheReferenceTable) {
  std::mt19937 random(5);
  std::uniform_int_distribution<int> byte(0, 255);
  for (const std::string& algorithm : tracedSatAlgorithms())
    for (const auto& [w, h] : std::vector<std::pair<int, int>>{{1, 1}, {1, 17}, {17, 1}, {2, 2}, {16, 16}, {31, 33}, {32, 5}}) {
      SCOPED_TRACE(algorithm + " " + std::to_string(w) + "x" + std::to_string(h));
      satdof::reference::ImageRgba8 image(w, h);
      std::vector<std::uint32_t> values(std::size_t(w) * h);
      for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
          const int v = byte(random);
          values[std::size_t(y) * w + x] = std::uint32_t(v);
          for (int c = 0; c < 4; ++c) image.at(x, y)[c] = std::uint8_t(v);
        }
      const satdof::reference::Sat sat = satdof::reference::computeSat(image, 1u);
      const SatTrace t = traceSat(algorithm, values, w, h);
      for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) ASSERT_EQ(t.result[std::size_t(y) * w + x], sat.at(x, y, 0)) << x << "," << y;
      EXPECT_EQ(t.additions, t.formulaAdditions);
      EXPECT_EQ(t.formulaAdditions, static_cast<long long>(h) * (w - 1) + static_cast<long long>(w) * (h - 1));
      EXPECT_EQ(t.steps.size(), algorithm == "rows-columns" ? 3u : 5u);
      EXPECT_EQ(t.steps.back().width, w);
    }
}

TEST(SatTrace, TheTransposeSwapsTheGridAndAddsNothing) {
  const std::vector<std::uint32_t> image{1, 2, 3, 4, 5, 6};  // 3 x 2
  const SatTrace t = traceSat("rows-transpose-rows", image, 3, 2);
  ASSERT_EQ(t.steps[2].phase, "transpose");
  EXPECT_EQ(t.steps[2].width, 2);
  EXPECT_EQ(t.steps[2].height, 3);
  EXPECT_EQ(t.steps[2].additions, 0);
  EXPECT_EQ(t.steps[2].values, (std::vector<std::uint32_t>{1, 4, 3, 9, 6, 15}));  // rows 1 3 6 | 4 9 15, transposed
  EXPECT_EQ(t.result, (std::vector<std::uint32_t>{1, 3, 6, 5, 12, 21}));
}

TEST(SatTrace, OtherAlgorithmsAndBadImagesAreRefused) {
  EXPECT_THROW(traceSat("single-pass", std::vector<std::uint32_t>(4, 1u), 2, 2), std::invalid_argument);
  EXPECT_THROW(traceSat("rows-columns", std::vector<std::uint32_t>(3, 1u), 2, 2), std::invalid_argument);
  EXPECT_EQ(runSatLesson({"reduce-then-scan", 4, 1, {}}), 2);
}

TEST(SatTrace, EveryStepIsAPicture) {
  const fs::path folder = fs::temp_directory_path() / ("satdof_test_sat_trace_" + std::to_string(::getpid()));
  fs::remove_all(folder);
  const SatTrace t = traceSat("rows-columns", std::vector<std::uint32_t>(16, 1u), 4, 4);
  const auto paths = writeSatLesson(t, folder);
  ASSERT_EQ(paths.size(), 3u);
  std::ifstream f(paths.back());
  std::stringstream svg;
  svg << f.rdbuf();
  EXPECT_EQ(svg.str().rfind("<svg", 0), 0u);
  EXPECT_NE(svg.str().find("rows-columns — step 3 of 3: columns"), std::string::npos);
  EXPECT_NE(svg.str().find(">16<"), std::string::npos);  // S(3, 3) of a 4 x 4 image of ones
  fs::remove_all(folder);
}

}  // namespace
