// tests/test_app_lesson.cpp — `satdof lesson scan` end to end: the pictures it writes, its
// summary line against the chapter's counts (and the register variants' own), and one line
// with exit code 2 for a variant it cannot trace or a size out of range. It needs no GL and
// no GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>

#include "app_run_support.h"

namespace {

namespace fs = std::filesystem;

// `satdof ARGS --out FOLDER`, FOLDER a fresh one under the tests' output.
RunResult runInto(const std::string& args, const fs::path& out) {
  fs::remove_all(out);
  return ::run(args + " --out " + out.string());
}

TEST(AppLesson, ScanWritesOnePictureAStepAndTheChaptersCounts) {
  const fs::path out = fs::path(kTestOut) / "lesson";
  const RunResult r = runInto("lesson scan --variant hillis-steele --n 16", out);
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

// warp-shuffle on 16: 4 threads of 4 in 2 warps of 2 lanes; 4 * 3 in registers, 3 shuffle
// scans of 2 lanes (1 addition each), warp 1's 2 lanes adding warp 0's total, 4 * 4
// rescanning: 33 additions, 2 shuffle steps; 9 pictures (load, reduce, a warp-scan step,
// the totals out, in, scanned and back, the prefixes, the rescan).
TEST(AppLesson, WarpShuffleShowsItsLanesAndWarpTotals) {
  const fs::path out = fs::path(kTestOut) / "lesson_warp_shuffle";
  const RunResult r = runInto("lesson scan --variant warp-shuffle --n 16", out);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("warp-shuffle, n = 16 in 1 block(s) of 16: 33 additions and 2 shuffle steps in all"),
            std::string::npos) << r.out;
  EXPECT_NE(r.out.find("__shfl_up_sync(offset 1)"), std::string::npos) << r.out;
  EXPECT_TRUE(fs::is_regular_file(out / "warp-shuffle-step-09.svg"));
  EXPECT_FALSE(fs::exists(out / "warp-shuffle-step-10.svg"));
  fs::remove_all(out);
}

// blelloch-8-per-thread on 64 in 2 blocks of 32 (4 threads of 8): reduce-then-scan. Each
// block reduces (4 * 7 in registers, a butterfly of 2 steps over 4 lanes: 8), the 2 sums
// are scanned (a tile of 2: 2 * 2 + 2), each block scans seeded (2 * 32 + 2 * 3):
// 2 * 36 + 6 + 2 * 70 = 218.
TEST(AppLesson, Blelloch8PerThreadReducesThenScans) {
  const fs::path out = fs::path(kTestOut) / "lesson_blelloch8";
  const RunResult r = runInto("lesson scan --variant blelloch-8-per-thread --n 64 --blocks 2", out);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("blelloch-8-per-thread, n = 64 in 2 block(s) of 32: 218 additions and 4 tree steps in all"),
            std::string::npos) << r.out;
  EXPECT_NE(r.out.find("step 1 of 10: reduce the tiles"), std::string::npos) << r.out;
  EXPECT_TRUE(fs::is_regular_file(out / "blelloch-8-per-thread-step-10.svg"));
  fs::remove_all(out);
}

TEST(AppLesson, SatWritesItsTwoScansAndTheirAdditions) {
  const fs::path out = fs::path(kTestOut) / "lesson_sat";
  const RunResult r = runInto("lesson sat --algorithm rows-columns --n 8", out);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("112 additions in all"), std::string::npos) << r.out;  // 8 * 7 + 8 * 7
  EXPECT_TRUE(fs::is_regular_file(out / "rows-columns-step-03.svg"));
  fs::remove_all(out);
}

TEST(AppLesson, DecoupledLookbackShowsItsTilesStatuses) {
  const fs::path out = fs::path(kTestOut) / "lesson_lookback";
  const RunResult r = runInto("lesson scan --variant decoupled-lookback --n 32 --blocks 8", out);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("decoupled-lookback, n = 32 in 8 tiles of 4"), std::string::npos) << r.out;
  EXPECT_TRUE(fs::is_regular_file(out / "decoupled-lookback-step-01.svg"));
  fs::remove_all(out);
}

TEST(AppLesson, ConvWritesTheTileAndItsLoadsPerOutput) {
  const fs::path out = fs::path(kTestOut) / "lesson_conv";
  const RunResult r = runInto("lesson conv --variant tiled-halo --radius 3", out);
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
                                 "lesson scan --variant warp-shuffle --n 2049", "lesson scan --variant hillis-steele --n 2048",
                                 "lesson scan --n 8", "lesson sat --algorithm single-pass --n 8",
                                 "lesson sat --algorithm rows-columns --n 33", "lesson conv --variant separable",
                                 "lesson conv --variant tiled-halo --radius 2", "lesson conv --variant basic --radius 16",
                                 "lesson conv --variant basic --border mirror"}) {
    const RunResult r = ::run(args);
    EXPECT_EQ(r.exitCode, 2) << args;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << args << ": " << r.err;
  }
  const RunResult r = ::run("lesson scan --variant no-such --n 8");
  EXPECT_NE(r.err.find("traced: hillis-steele, blelloch, blelloch-conflict-free, blelloch-8-per-thread, warp-shuffle"),
            std::string::npos) << r.err;
}

}  // namespace
