// tests/test_app_lesson.cpp — `satdof lesson scan`, `sat` and `conv` end to end: the
// pictures they write, their summary lines against the chapter's counts (and the register
// variants' own), and one line with exit code 2 for a variant they cannot trace or a size
// out of range. No GL, no GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>

#include "app_run_support.h"

namespace {

namespace fs = std::filesystem;

// `satdof ARGS --out FOLDER`, FOLDER fresh under the tests' output and removed afterwards.
struct LessonRun {
  LessonRun(const std::string& name, const std::string& args) : folder(fs::path(kTestOut) / name) {
    fs::remove_all(folder);
    r = ::run(args + " --out " + folder.string());
  }
  ~LessonRun() { fs::remove_all(folder); }
  const fs::path folder;
  RunResult r;
};

TEST(AppLesson, ScanWritesOnePictureAStepAndTheChaptersCounts) {
  const LessonRun l("lesson", "lesson scan --variant hillis-steele --n 16");
  ASSERT_EQ(l.r.exitCode, 0) << l.r.err;
  // Hillis-Steele on 16: log2 16 = 4 steps, 16 * 4 - 15 = 49 additions, plus a load and a store.
  EXPECT_NE(l.r.out.find("49 additions and 4 tree steps in all"), std::string::npos) << l.r.out;
  for (int k = 1; k <= 6; ++k) {
    const fs::path svg = l.folder / ("hillis-steele-step-0" + std::to_string(k) + ".svg");
    EXPECT_TRUE(fs::is_regular_file(svg)) << svg;
  }
  EXPECT_FALSE(fs::exists(l.folder / "hillis-steele-step-07.svg"));
}

// warp-shuffle on 16: 4 threads of 4 in 2 warps of 2 lanes; 4 * 3 in registers, 3 shuffle
// scans of 2 lanes (1 addition each), warp 1's 2 lanes adding warp 0's total, 4 * 4
// rescanning: 33 additions, 2 shuffle steps; 9 pictures (load, reduce, a warp-scan step,
// the totals out, in, scanned and back, the prefixes, the rescan).
TEST(AppLesson, WarpShuffleShowsItsLanesAndWarpTotals) {
  const LessonRun l("lesson_warp_shuffle", "lesson scan --variant warp-shuffle --n 16");
  ASSERT_EQ(l.r.exitCode, 0) << l.r.err;
  EXPECT_NE(l.r.out.find("warp-shuffle, n = 16 in 1 block(s) of 16: 33 additions and 2 shuffle steps in all"),
            std::string::npos) << l.r.out;
  EXPECT_NE(l.r.out.find("__shfl_up_sync(offset 1)"), std::string::npos) << l.r.out;
  EXPECT_TRUE(fs::is_regular_file(l.folder / "warp-shuffle-step-09.svg"));
  EXPECT_FALSE(fs::exists(l.folder / "warp-shuffle-step-10.svg"));
}

// subgroup (the GLSL block scan) on 16 with this GL's subgroups of 8, narrowed to 4 to
// show two: 8 invocations of 2; 8 pair sums, 2 subgroup scans of 4 (3 each), the totals'
// scan (3) and its 2 subtractions, 8 * 2 offsets, 8 * 2 to finish: 51 additions, 2 subgroup
// scans; 9 pictures (load, pairs, the scan, the totals out, in, scanned and back, the
// offsets, adding them).
TEST(AppLesson, SubgroupShowsItsSubgroupsAndTheirTotals) {
  const LessonRun l("lesson_subgroup", "lesson scan --variant subgroup --n 16 --subgroup-size 8");
  ASSERT_EQ(l.r.exitCode, 0) << l.r.err;
  EXPECT_NE(l.r.out.find("subgroup, n = 16 in 1 block(s) of 16: 51 additions and 2 subgroup scans in all"),
            std::string::npos) << l.r.out;
  EXPECT_NE(l.r.out.find("subgroupInclusiveAdd"), std::string::npos) << l.r.out;
  EXPECT_NE(slurp(l.folder / "subgroup-step-01.svg").find("subgroups are 8"), std::string::npos);
  EXPECT_TRUE(fs::is_regular_file(l.folder / "subgroup-step-09.svg"));
  EXPECT_FALSE(fs::exists(l.folder / "subgroup-step-10.svg"));
}

// --backend gl-compute: the GLSL block's shape (hillis-steele: two elements an invocation).
TEST(AppLesson, GlComputeShowsTheGlslBlocks) {
  const LessonRun l("lesson_glsl_hillis_steele", "lesson scan --variant hillis-steele --n 8 --backend gl-compute");
  ASSERT_EQ(l.r.exitCode, 0) << l.r.err;
  EXPECT_NE(l.r.out.find("invocation t stores elements t and t + n/2"), std::string::npos) << l.r.out;
  EXPECT_NE(slurp(l.folder / "hillis-steele-step-01.svg").find("GLSL block: 256 invocations of 2"), std::string::npos);
}

// blelloch-8-per-thread on 64 in 2 blocks of 32 (4 threads of 8): reduce-then-scan. Each
// block reduces (4 * 7 in registers, a butterfly of 2 steps over 4 lanes: 8), the 2 sums
// are scanned (a tile of 2: 2 * 2 + 2), each block scans seeded (2 * 32 + 2 * 3):
// 2 * 36 + 6 + 2 * 70 = 218.
TEST(AppLesson, Blelloch8PerThreadReducesThenScans) {
  const LessonRun l("lesson_blelloch8", "lesson scan --variant blelloch-8-per-thread --n 64 --blocks 2");
  ASSERT_EQ(l.r.exitCode, 0) << l.r.err;
  EXPECT_NE(l.r.out.find("blelloch-8-per-thread, n = 64 in 2 block(s) of 32: 218 additions and 4 tree steps in all"),
            std::string::npos) << l.r.out;
  EXPECT_NE(l.r.out.find("step 1 of 10: reduce the tiles"), std::string::npos) << l.r.out;
  EXPECT_TRUE(fs::is_regular_file(l.folder / "blelloch-8-per-thread-step-10.svg"));
}

TEST(AppLesson, SatWritesItsTwoScansAndTheirAdditions) {
  const LessonRun l("lesson_sat", "lesson sat --algorithm rows-columns --n 8");
  ASSERT_EQ(l.r.exitCode, 0) << l.r.err;
  EXPECT_NE(l.r.out.find("112 additions in all"), std::string::npos) << l.r.out;  // 8 * 7 + 8 * 7
  EXPECT_TRUE(fs::is_regular_file(l.folder / "rows-columns-step-03.svg"));
}

TEST(AppLesson, DecoupledLookbackShowsItsTilesStatuses) {
  const LessonRun l("lesson_lookback", "lesson scan --variant decoupled-lookback --n 32 --blocks 8");
  ASSERT_EQ(l.r.exitCode, 0) << l.r.err;
  EXPECT_NE(l.r.out.find("decoupled-lookback, n = 32 in 8 tiles of 4"), std::string::npos) << l.r.out;
  EXPECT_TRUE(fs::is_regular_file(l.folder / "decoupled-lookback-step-01.svg"));
}

TEST(AppLesson, ConvWritesTheTileAndItsLoadsPerOutput) {
  const LessonRun l("lesson_conv", "lesson conv --variant tiled-halo --radius 3");
  ASSERT_EQ(l.r.exitCode, 0) << l.r.err;
  // (64 + 6)^2 loads for 64^2 outputs; (8 + 6) rows of 8 words for 8 x 2 outputs a thread.
  EXPECT_NE(l.r.out.find("per output pixel 1.20 global loads of pixels (1.20 distinct), 7.00 shared-memory reads"),
            std::string::npos) << l.r.out;
  EXPECT_TRUE(fs::is_regular_file(l.folder / "tiled-halo-step-01.svg"));
  EXPECT_TRUE(fs::is_regular_file(l.folder / "tiled-halo-step-02.svg"));
}

TEST(AppLesson, ConvFollowsTheStripPathBelowRadius3) {
  const LessonRun l("lesson_conv_strips", "lesson conv --variant tiled-cached-halo --radius 1");
  ASSERT_EQ(l.r.exitCode, 0) << l.r.err;
  EXPECT_NE(l.r.out.find("tiled-cached-halo, r = 1 (the strip engine), a 128 x 104 output tile"), std::string::npos) << l.r.out;
  EXPECT_TRUE(fs::is_regular_file(l.folder / "tiled-cached-halo-step-02.svg"));
}

TEST(AppLesson, ConvSeparableShowsBothPassesAndTheirCounts) {
  const LessonRun l("lesson_separable", "lesson conv --variant separable --radius 3");
  ASSERT_EQ(l.r.exitCode, 0) << l.r.err;
  // A segment of 48 rows computes 4 chunks of intermediate rows (64): 24 words loaded for
  // every 16 values, 7 multiply-adds each; the column pass reads 16 + 6 rows for 16 outputs.
  EXPECT_NE(l.r.out.find("row pass: per output pixel 2.00 global loads of pixels, 1.33 shared-memory writes, 9.33 multiply-adds"),
            std::string::npos) << l.r.out;
  EXPECT_NE(l.r.out.find("column pass: per output pixel 1.38 shared-memory reads, 7.00 multiply-adds"), std::string::npos) << l.r.out;
  EXPECT_NE(l.r.out.find("2(2r+1) = 14 taps per output"), std::string::npos) << l.r.out;
  EXPECT_TRUE(fs::is_regular_file(l.folder / "separable-step-02.svg"));
  EXPECT_FALSE(fs::exists(l.folder / "separable-step-03.svg"));
}

TEST(AppLesson, ConvSatBoxReadsFourTimesAPixel) {
  const LessonRun l("lesson_sat_box", "lesson conv --variant sat-box --radius 15 --border clamp");
  ASSERT_EQ(l.r.exitCode, 0) << l.r.err;
  // 160 rows of row windows for 158 input rows: 2 prefix reads each, and 160 + 129 ring reads a column.
  EXPECT_NE(l.r.out.find("row pass: per output pixel 1.25 shared-memory writes, 2.50 reads from registers"), std::string::npos)
      << l.r.out;
  EXPECT_NE(l.r.out.find("column pass: per output pixel 2.26 shared-memory reads"), std::string::npos) << l.r.out;
  for (int k = 1; k <= 3; ++k) EXPECT_TRUE(fs::is_regular_file(l.folder / ("sat-box-step-0" + std::to_string(k) + ".svg")));
}

// --backend gl-compute: the GLSL shaders' work groups, 16 x 16 outputs from a (16 + 6)^2 tile.
TEST(AppLesson, ConvOnGlComputeShowsTheGlslWorkGroups) {
  const LessonRun l("lesson_glsl_tiled_halo", "lesson conv --backend gl-compute --variant glsl-tiled-halo --radius 3");
  ASSERT_EQ(l.r.exitCode, 0) << l.r.err;
  EXPECT_NE(l.r.out.find("glsl-tiled-halo, r = 3 (the tile), a 16 x 16 output tile: per output pixel 1.89 global loads of "
                         "pixels (1.89 distinct), 49.00 shared-memory reads"),
            std::string::npos) << l.r.out;
  EXPECT_TRUE(fs::is_regular_file(l.folder / "glsl-tiled-halo-step-02.svg"));
  const LessonRun box("lesson_glsl_sat_box", "lesson conv --backend gl-compute --variant glsl-sat-box --radius 3");
  ASSERT_EQ(box.r.exitCode, 0) << box.r.err;
  EXPECT_NE(box.r.out.find("per output pixel 4.00 reads of the summed-area table"), std::string::npos) << box.r.out;
  const RunResult cuda = ::run("lesson conv --backend gl-compute --variant tiled-halo");
  EXPECT_EQ(cuda.exitCode, 2);
  EXPECT_NE(cuda.err.find("traced: glsl-tiled-halo, glsl-basic, glsl-separable, glsl-sat-box"), std::string::npos) << cuda.err;
}

TEST(AppLesson, AVariantWithoutATraceOrABadSizeIsOneLineAndExit2) {
  for (const std::string args : {"lesson scan --variant cub --n 8", "lesson scan --variant no-such --n 8",
                                 "lesson scan --variant blelloch --n 0", "lesson scan --variant blelloch --blocks 9",
                                 "lesson scan --variant warp-shuffle --n 2049", "lesson scan --variant hillis-steele --n 2048",
                                 "lesson scan --n 8", "lesson sat --algorithm single-pass --n 8",
                                 "lesson sat --algorithm rows-columns --n 33", "lesson conv --variant glsl-separable",
                                 "lesson conv --variant cpu-box-sum --radius 2", "lesson conv --variant basic --radius 16",
                                 "lesson conv --variant basic --border mirror"}) {
    const RunResult r = ::run(args);
    EXPECT_EQ(r.exitCode, 2) << args;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << args << ": " << r.err;
  }
  const RunResult r = ::run("lesson scan --variant no-such --n 8");
  EXPECT_NE(r.err.find("traced: hillis-steele, blelloch, blelloch-conflict-free, blelloch-8-per-thread, warp-shuffle, subgroup"),
            std::string::npos) << r.err;
}

}  // namespace
