// tests/test_scan_trace.cpp — the lesson's traces of the block scans (lesson/scan_trace.h):
// their final arrays against the plain reference scan on random inputs and edge sizes,
// their counts against the chapter's formulas, their bank-conflict degrees against ones
// worked out by hand for the kernels' own 1024-element tile, and their pictures.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "lesson/lesson_tool.h"
#include "lesson/scan_picture.h"
#include "lesson/scan_trace.h"
#include "satdof/reference/scan.h"

namespace {

using namespace satdof::lesson;
namespace fs = std::filesystem;

std::vector<std::uint32_t> randomInput(int n, std::mt19937& random) {
  std::uniform_int_distribution<std::uint32_t> any;  // wrapping sums, as on the GPU
  std::vector<std::uint32_t> v(static_cast<std::size_t>(n));
  for (auto& x : v) x = any(random);
  return v;
}

std::vector<std::uint32_t> exclusive(const std::vector<std::uint32_t>& in) {
  std::vector<std::uint32_t> out(in.size());
  satdof::reference::exclusiveScan<std::uint32_t>(in, out);
  return out;
}

// The first step of `phase` whose description ends with `ending`.
const TraceStep* findStep(const ScanTrace& t, const std::string& phase, const std::string& ending) {
  for (const TraceStep& s : t.steps)
    if (s.phase == phase && s.what.size() >= ending.size() &&
        s.what.compare(s.what.size() - ending.size(), ending.size(), ending) == 0)
      return &s;
  return nullptr;
}

TEST(ScanTrace, EveryTracedVariantEndsWithTheReferenceScan) {
  std::mt19937 random(20261205);
  for (const std::string& variant : tracedScanVariants())
    for (int n : {1, 2, 3, 8, 16, 31, 32, 33, 64, 65, 100, 257})
      for (int tile : {2, 8, 32, 64}) {
        SCOPED_TRACE(variant + " n=" + std::to_string(n) + " tile=" + std::to_string(tile));
        const auto in = randomInput(n, random);
        const ScanTrace t = traceScan(variant, in, tile);
        EXPECT_EQ(t.result, exclusive(in));
        EXPECT_EQ(t.blocks, (n + tile - 1) / tile);
      }
}

TEST(ScanTrace, TheKernelsOwnTilesEndWithTheReferenceScanToo) {
  std::mt19937 random(7);
  for (const std::string& variant : tracedScanVariants()) {
    const int tile = variant == "hillis-steele" ? 512 : 1024;
    const auto in = randomInput(3 * tile + 17, random);
    EXPECT_EQ(traceScan(variant, in, tile).result, exclusive(in)) << variant;
  }
}

TEST(ScanTrace, OneBlockCountsAreTheChaptersFormulas) {
  for (int n : {2, 4, 8, 16, 32, 64, 1024}) {
    const std::vector<std::uint32_t> in(static_cast<std::size_t>(n), 1u);
    int log2n = 0;
    while ((1 << log2n) < n) ++log2n;
    const ScanTrace hs = traceScan("hillis-steele", in, n);
    EXPECT_EQ(hs.additions, static_cast<long long>(n) * log2n - (n - 1)) << n;
    EXPECT_EQ(hs.treeSteps, log2n) << n;
    EXPECT_EQ(hs.additions, hs.formulaAdditions);
    for (const char* tree : {"blelloch", "blelloch-conflict-free"}) {
      const ScanTrace b = traceScan(tree, in, n);
      EXPECT_EQ(b.additions, 2LL * (n - 1)) << tree << " " << n;
      EXPECT_EQ(b.treeSteps, 2 * log2n) << tree << " " << n;
      EXPECT_EQ(b.formulaSteps, b.treeSteps);
    }
  }
}

TEST(ScanTrace, SeveralBlocksAddTheBlockSumsScanAndTheUniformAdd) {
  const std::vector<std::uint32_t> in(40, 1u);  // 3 blocks of 16: 16 + 16 + 8 (+ 8 identity)
  const ScanTrace t = traceScan("blelloch", in, 16);
  ASSERT_EQ(t.blocks, 3);
  const TraceStep* sums = findStep(t, "block sums", "");
  ASSERT_NE(sums, nullptr);
  EXPECT_EQ(sums->blockSums, (std::vector<std::uint32_t>{16, 16, 8}));
  const TraceStep* scanned = findStep(t, "scan of the block sums", "");
  ASSERT_NE(scanned, nullptr);
  EXPECT_EQ(scanned->blockSums, (std::vector<std::uint32_t>{0, 16, 32}));
  const TraceStep* add = findStep(t, "uniform add", "");
  ASSERT_NE(add, nullptr);
  EXPECT_EQ(add->additions, 24);  // the real elements of blocks 1 and 2
  // Three trees of 16 (30 additions each), the sums' tree of 4 (6), the uniform add.
  EXPECT_EQ(t.additions, 3 * 30 + 6 + 24);
}

// Worked by hand for the kernels' tile of 1024 (512 threads): at the up-sweep level whose
// nodes are 16 apart, thread t reads node 16(2t+1)-1 = 32t + 15, so a warp's 32 reads all
// fall in bank 15: 32-way. Padded, the node is at 32t + 15 + t = 33t + 15: bank (t + 15) % 32,
// 32 distinct banks. The first level reads 2t: stride 2, 2-way; padded, 2t for t < 16 stays
// in the even banks and 2t + 1 for t >= 16 moves to the odd ones: 1-way.
TEST(ScanTrace, BankConflictsOfTheKernelsTileMatchTheChaptersAnalysis) {
  const std::vector<std::uint32_t> in(1024, 1u);
  const ScanTrace plain = traceScan("blelloch", in, 1024);
  const ScanTrace padded = traceScan("blelloch-conflict-free", in, 1024);
  const TraceStep* plain16 = findStep(plain, "up-sweep", "offset 16");
  const TraceStep* padded16 = findStep(padded, "up-sweep", "offset 16");
  ASSERT_NE(plain16, nullptr);
  ASSERT_NE(padded16, nullptr);
  EXPECT_EQ(plain16->conflictDegree, 32);
  EXPECT_EQ(padded16->conflictDegree, 1);
  EXPECT_EQ(findStep(plain, "up-sweep", "offset 1")->conflictDegree, 2);
  EXPECT_EQ(findStep(padded, "up-sweep", "offset 1")->conflictDegree, 1);
  // Loads: blelloch's adjacent pairs store with stride 2 (2-way); the halves, unit stride.
  EXPECT_EQ(findStep(plain, "load", "")->conflictDegree, 2);
  EXPECT_EQ(findStep(padded, "load", "")->conflictDegree, 1);
  EXPECT_GT(plain.extraWavefronts, 4 * padded.extraWavefronts);
  // Blelloch's threads touch neighbouring words (2t, 2t+1) in the load, the store and the
  // levels 1 apart, which a compiler can fuse (Nsight Compute then counts fewer); the
  // conflict-free tree's halves and padding never do.
  EXPECT_TRUE(plain.adjacentPairs);
  EXPECT_TRUE(findStep(plain, "load", "")->adjacentPairs);
  EXPECT_FALSE(findStep(plain, "up-sweep", "offset 2")->adjacentPairs);
  EXPECT_FALSE(padded.adjacentPairs);
  // Hillis-Steele reads neighbours at unit stride: never a conflict.
  EXPECT_EQ(traceScan("hillis-steele", std::vector<std::uint32_t>(512, 1u), 512).extraWavefronts, 0);
}

TEST(ScanTrace, ConflictDegreeCountsDistinctWordsPerBank) {
  EXPECT_EQ(conflictDegree(std::vector<SharedAccess>{}), 0);
  EXPECT_EQ(conflictDegree(std::vector<SharedAccess>{{0, 5}, {1, 5}, {2, 5}}), 1);  // one word: a broadcast
  EXPECT_EQ(conflictDegree(std::vector<SharedAccess>{{0, 5}, {1, 37}}), 2);         // bank 5 twice
  EXPECT_EQ(conflictDegree(std::vector<SharedAccess>{{0, 0}, {1, 32}, {2, 64}, {3, 1}}), 3);
}

TEST(ScanTrace, VariantsWithoutATraceAndBadTilesAreRefused) {
  const std::vector<std::uint32_t> in(8, 1u);
  EXPECT_THROW(traceScan("cub", in, 8), std::invalid_argument);
  EXPECT_NE(whyNoTrace("cub").find("CUB"), std::string::npos);
  EXPECT_THROW(traceScan("no-such-scan", in, 8), std::invalid_argument);
  EXPECT_THROW(traceScan("blelloch", in, 12), std::invalid_argument);
  EXPECT_THROW(traceScan("blelloch", in, 2048), std::invalid_argument);
  EXPECT_THROW(traceScan("blelloch", std::vector<std::uint32_t>{}, 8), std::invalid_argument);
  EXPECT_EQ(runScanLesson({"cub", 8, 1, 1, {}}), 2);
  EXPECT_EQ(lessonTile(16, 1), 16);
  EXPECT_EQ(lessonTile(17, 1), 32);
  EXPECT_EQ(lessonTile(32, 4), 8);
  EXPECT_EQ(lessonTile(1, 1), 2);
}

TEST(ScanTrace, EveryStepIsAPictureLabelledWithTheVariantTheStepAndTheCounts) {
  const fs::path folder = fs::temp_directory_path() / ("satdof_test_scan_trace_" + std::to_string(::getpid()));
  fs::remove_all(folder);
  const ScanTrace t = traceScan("blelloch-conflict-free", std::vector<std::uint32_t>(32, 3u), 16);
  const auto paths = writeScanLesson(t, folder);
  ASSERT_EQ(paths.size(), t.steps.size());
  for (std::size_t k = 0; k < paths.size(); ++k) {
    std::ifstream f(paths[k]);
    std::stringstream text;
    text << f.rdbuf();
    const std::string svg = text.str();
    EXPECT_EQ(svg.rfind("<svg", 0), 0u) << paths[k];
    EXPECT_NE(svg.find("</svg>"), std::string::npos) << paths[k];
    EXPECT_NE(svg.find("blelloch-conflict-free — step " + std::to_string(k + 1) + " of " + std::to_string(paths.size())),
              std::string::npos)
        << paths[k];
    EXPECT_NE(svg.find("Additions so far"), std::string::npos);
  }
  EXPECT_NE(scanLessonText(t).find("2(n - 1) additions"), std::string::npos);
  fs::remove_all(folder);
}

}  // namespace
