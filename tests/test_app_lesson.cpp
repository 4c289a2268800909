// tests/test_app_lesson.cpp — `satdof lesson scan` end to end: the pictures it writes, its
// summary line against the chapter's counts, and one line with exit code 2 for a variant
// it cannot trace or a size out of range. It needs no GL and no GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>

#include "app_run_support.h"

namespace {

namespace fs = std::filesystem;

TEST(AppLesson, ScanWritesOnePictureAStepAndTheChaptersCounts) {
  const fs::path out = fs::path(kTestOut) / "lesson";
  fs::remove_all(out);
  const RunResult r = ::run("lesson scan --variant hillis-steele --n 16 --out " + out.string());
  ASSERT_EQ(r.exitCode, 0) << r.err;
  // Hillis-Steele on 16: log2 16 = 4 steps, 16 * 4 - 15 = 49 additions, plus a load and a store.
  EXPECT_NE(r.out.find("49 additions and 4 tree steps in all"), std::string::npos) << r.out;
  for (int k = 1; k <= 6; ++k) {
    const fs::path svg = out / ("hillis-steele-step-0" + std::to_string(k) + ".svg");
    EXPECT_TRUE(fs::is_regular_file(svg)) << svg;
  }
  EXPECT_FALSE(fs::exists(out / "hillis-steele-step-07.svg"));
  fs::remove_all(out);
}

TEST(AppLesson, SatWritesItsTwoScansAndTheirAdditions) {
  const fs::path out = fs::path(kTestOut) / "lesson_sat";
  fs::remove_all(out);
  const RunResult r = ::run("lesson sat --algorithm rows-columns --n 8 --out " + out.string());
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("112 additions in all"), std::string::npos) << r.out;  // 8 * 7 + 8 * 7
  EXPECT_TRUE(fs::is_regular_file(out / "rows-columns-step-03.svg"));
  fs::remove_all(out);
}

TEST(AppLesson, DecoupledLookbackShowsItsTilesStatuses) {
  const fs::path out = fs::path(kTestOut) / "lesson_lookback";
  fs::remove_all(out);
  const RunResult r = ::run("lesson scan --variant decoupled-lookback --n 32 --blocks 8 --out " + out.string());
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("decoupled-lookback, n = 32 in 8 tiles of 4"), std::string::npos) << r.out;
  EXPECT_TRUE(fs::is_regular_file(out / "decoupled-lookback-step-01.svg"));
  fs::remove_all(out);
}

TEST(AppLesson, ConvWritesTheTileAndItsLoadsPerOutput) {
  const fs::path out = fs::path(kTestOut) / "lesson_conv";
  fs::remove_all(out);
  const RunResult r = ::run("lesson conv --variant tiled-halo --radius 3 --out " + out.string());
  ASSERT_EQ(r.exitCode, 0) << r.err;
  // (64 + 6)^2 loads for 64^2 outputs; (8 + 6) rows of 8 words for 8 x 2 outputs a thread.
  EXPECT_NE(r.out.find("per output pixel 1.20 global loads of pixels (1.20 distinct), 7.00 shared-memory reads"),
            std::string::npos) << r.out;
  EXPECT_TRUE(fs::is_regular_file(out / "tiled-halo-step-01.svg"));
  EXPECT_TRUE(fs::is_regular_file(out / "tiled-halo-step-02.svg"));
  fs::remove_all(out);
}

TEST(AppLesson, AVariantWithoutATraceOrABadSizeIsOneLineAndExit2) {
  for (const std::string args : {"lesson scan --variant cub --n 8", "lesson scan --variant no-such --n 8",
                                 "lesson scan --variant blelloch --n 0", "lesson scan --variant blelloch --blocks 9",
                                 "lesson scan --n 8", "lesson sat --algorithm single-pass --n 8",
                                 "lesson sat --algorithm rows-columns --n 33", "lesson conv --variant separable",
                                 "lesson conv --variant tiled-halo --radius 2", "lesson conv --variant basic --radius 16",
                                 "lesson conv --variant basic --border mirror"}) {
    const RunResult r = ::run(args);
    EXPECT_EQ(r.exitCode, 2) << args;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << args << ": " << r.err;
  }
}

}  // namespace
