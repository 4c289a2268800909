// tests/test_scan_trace.cpp — the lesson's traces of the block scans (lesson/scan_trace.h):
// their final arrays against the plain reference scan on random inputs, at edge sizes and
// at every size the lesson offers, their counts against the chapter's formulas (and the
// register variants' against theirs), their bank-conflict degrees against ones worked out
// by hand for the kernels' own tiles, the register variants' lanes and warp totals, and
// their pictures.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <numeric>
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

// Every n and block count the window's lesson view offers (n 8..64, 1..4 blocks), as
// `satdof lesson scan` and the view split them.
TEST(ScanTrace, EveryLessonSizeEndsWithTheReferenceScan) {
  std::mt19937 random(20261206);
  for (const std::string& variant : tracedScanVariants())
    for (int n = 8; n <= 64; ++n)
      for (int blocks = 1; blocks <= 4; ++blocks) {
        SCOPED_TRACE(variant + " n=" + std::to_string(n) + " blocks=" + std::to_string(blocks));
        const auto in = randomInput(n, random);
        const ScanTrace t = traceScan(variant, in, lessonTile(n, blocks));
        ASSERT_EQ(t.result, exclusive(in));
        ASSERT_EQ(t.steps.back().values.size(), static_cast<std::size_t>(t.blocks * t.tileItems));
      }
}

TEST(ScanTrace, TheKernelsOwnTilesEndWithTheReferenceScanToo) {
  std::mt19937 random(7);
  for (const std::string& variant : tracedScanVariants()) {
    const int tile = kernelTile(variant);
    const auto in = randomInput(3 * tile + 17, random);
    EXPECT_EQ(traceScan(variant, in, tile).result, exclusive(in)) << variant;
  }
}

// At the kernels' own tiles the traces run the kernels' blocks (cuda/scan/variants.h;
// test_scan_trace_cuda checks them against the registry); lesson-sized tiles keep the
// elements a thread and narrow the warps.
TEST(ScanTrace, TheKernelsTilesRunTheKernelsBlocks) {
  auto same = [](BlockShape a, BlockShape b) {
    return a.threads == b.threads && a.itemsPerThread == b.itemsPerThread && a.warpLanes == b.warpLanes;
  };
  EXPECT_TRUE(same(blockShape("hillis-steele", 512), {512, 1, 0}));
  EXPECT_TRUE(same(blockShape("blelloch", 1024), {512, 2, 0}));
  EXPECT_TRUE(same(blockShape("blelloch-8-per-thread", 512), {64, 8, 32}));
  EXPECT_TRUE(same(blockShape("warp-shuffle", 2048), {512, 4, 32}));
  EXPECT_TRUE(same(blockShape("warp-shuffle", 64), {16, 4, 8}));  // two warps of 8 lanes
  EXPECT_TRUE(same(blockShape("warp-shuffle", 16), {4, 4, 2}));
  EXPECT_TRUE(same(blockShape("warp-shuffle", 2), {2, 1, 2}));
  EXPECT_TRUE(same(blockShape("blelloch-8-per-thread", 64), {8, 8, 8}));
  EXPECT_TRUE(same(blockShape("blelloch-8-per-thread", 8), {2, 4, 2}));  // two threads at least
  for (const std::string& variant : tracedScanVariants())
    for (int tile = 2; tile <= 2048; tile *= 2) {
      const BlockShape s = blockShape(variant, tile);
      EXPECT_EQ(s.threads * s.itemsPerThread, tile) << variant << " " << tile;
      if (s.warpLanes > 0) {
        EXPECT_EQ(s.threads % s.warpLanes, 0) << variant << " " << tile;
        EXPECT_LE(s.threads / s.warpLanes, s.warpLanes) << "one warp scans the warp totals";
      }
    }
}

// subgroup (the GLSL block scan) at every lesson size and subgroup width, and at the GLSL
// tile (512: 256 invocations) with subgroups wide enough for one to scan the totals (32)
// and too narrow (8, llvmpipe's: one invocation adds them in order).
TEST(ScanTrace, SubgroupEndsWithTheReferenceScanAtEveryWidth) {
  std::mt19937 random(20261207);
  for (int width : {1, 2, 4, 8, 16, 32, 64, 128})
    for (int n = 8; n <= 64; ++n)
      for (int blocks = 1; blocks <= 4; ++blocks) {
        SCOPED_TRACE("w=" + std::to_string(width) + " n=" + std::to_string(n) + " blocks=" + std::to_string(blocks));
        const auto in = randomInput(n, random);
        const ScanTrace t = traceScan("subgroup", in, lessonTile(n, blocks), {true, width});
        ASSERT_EQ(t.result, exclusive(in));
        ASSERT_EQ(t.warpWord, "subgroup");
      }
  for (int width : {8, 32}) {
    const auto in = randomInput(3 * 512 + 5, random);
    const ScanTrace t = traceScan("subgroup", in, 512, {true, width});
    EXPECT_EQ(t.result, exclusive(in)) << width;
    EXPECT_EQ(t.warpLanes, width);
    const ScanTrace one = traceScan("subgroup", std::vector<std::uint32_t>(512, 1u), 512, {true, width});
    EXPECT_EQ(one.additions, one.formulaAdditions) << width;
    EXPECT_EQ(one.treeSteps, width == 32 ? 2 : 1) << "the totals by a subgroup scan, or in order";
  }
  EXPECT_THROW(traceScan("subgroup", randomInput(8, random), 8, {true, 3}), std::invalid_argument);
}

// The GLSL blocks (ScanTarget::glsl): 256 invocations of 2 in a tile of 512, one element of
// each half of the tile; blelloch-8-per-thread's agrees with the CUDA kernel's.
TEST(ScanTrace, TheGlslBlocksAreTheShadersShapes) {
  const ScanTarget glsl{true, 32};
  for (const std::string& variant : tracedScanVariants()) {
    if (variant == "warp-shuffle") continue;  // CUDA only (GLSL has subgroup)
    EXPECT_EQ(kernelTile(variant, glsl), 512) << variant;
    const BlockShape s = blockShape(variant, 512, glsl);
    EXPECT_EQ(s.threads * s.itemsPerThread, 512) << variant;
    EXPECT_EQ(s.threads, variant == "blelloch-8-per-thread" ? 64 : 256) << variant;
  }
  std::mt19937 random(11);
  for (const char* variant : {"hillis-steele", "blelloch", "blelloch-conflict-free"})
    for (int tile : {2, 8, 64, 512}) {
      const auto in = randomInput(2 * tile + 3, random);
      const ScanTrace t = traceScan(variant, in, tile, glsl);
      EXPECT_EQ(t.result, exclusive(in)) << variant << " " << tile;
      EXPECT_EQ(t.itemsPerThread, 2) << variant;
      // Thread 1's elements: 1 and 1 + tile/2, as the shaders' tileHalvesElement.
      const SharedInstruction& second = t.steps.front().instructions.back();
      if (tile > 2) EXPECT_EQ(second.accesses.at(1).slot % (tile + tile / 32 + 1), 1 + tile / 2 + (std::string(variant) == "blelloch-conflict-free" ? (1 + tile / 2) / 32 : 0)) << variant;
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

// warp-shuffle, one block of p threads of k in W warps of w lanes: p(k - 1) adding each
// thread's registers, W + 1 shuffle scans of w lanes (the warps', then warp 0's of the warp
// totals; Hillis-Steele over lanes: w log2 w - (w - 1) each), (W - 1)w adding the warps
// before, pk rescanning. The kernel's tile: 1536 + 17 * 129 + 15 * 32 + 2048 = 6257, and
// 2 log2 32 = 10 shuffle steps. blelloch-8-per-thread: n - p in registers, the tree's
// 2(p - 1), p seeds, n rescanning: 2n + 2(p - 1), 1150 on the kernel's 512.
TEST(ScanTrace, TheRegisterVariantsCountsAreTheirFormulas) {
  for (int n = 2; n <= 2048; n *= 2) {
    SCOPED_TRACE(n);
    const std::vector<std::uint32_t> in(static_cast<std::size_t>(n), 1u);
    const BlockShape s = blockShape("warp-shuffle", n);
    const long long p = s.threads, k = s.itemsPerThread, w = s.warpLanes, warps = p / w;
    int log2w = 0;
    while ((1 << log2w) < w) ++log2w;
    const ScanTrace ws = traceScan("warp-shuffle", in, n);
    EXPECT_EQ(ws.additions, p * (k - 1) + (warps + 1) * (w * log2w - (w - 1)) + (warps - 1) * w + p * k);
    EXPECT_EQ(ws.additions, ws.formulaAdditions);
    EXPECT_EQ(ws.treeSteps, 2 * log2w);
    EXPECT_EQ(ws.treeSteps, ws.formulaSteps);
    const ScanTrace b8 = traceScan("blelloch-8-per-thread", in, n);
    const int threads = blockShape("blelloch-8-per-thread", n).threads;
    int log2p = 0;
    while ((1 << log2p) < threads) ++log2p;
    EXPECT_EQ(b8.additions, 2LL * n + 2LL * (threads - 1));
    EXPECT_EQ(b8.additions, b8.formulaAdditions);
    EXPECT_EQ(b8.treeSteps, 2 * log2p);
    EXPECT_EQ(b8.treeSteps, b8.formulaSteps);
  }
  EXPECT_EQ(traceScan("warp-shuffle", std::vector<std::uint32_t>(2048, 1u), 2048).additions, 6257);
  EXPECT_EQ(traceScan("warp-shuffle", std::vector<std::uint32_t>(2048, 1u), 2048).treeSteps, 10);
  EXPECT_EQ(traceScan("blelloch-8-per-thread", std::vector<std::uint32_t>(512, 1u), 512).additions, 1150);
}

// The warp-shuffle scan's rows hold what the kernel's registers and shared words hold: after
// the warp scans, each thread's inclusive sum within its warp; the warp totals, then their
// inclusive scan; each thread's exclusive prefix over the block.
TEST(ScanTrace, WarpShuffleLanesAndWarpTotalsHoldTheirSums) {
  std::mt19937 random(11);
  for (int n : {16, 64, 2048}) {
    SCOPED_TRACE(n);
    const auto in = randomInput(n, random);
    const ScanTrace t = traceScan("warp-shuffle", in, n);
    const int k = t.itemsPerThread, p = t.threads, w = t.warpLanes, warps = p / w;
    std::vector<std::uint32_t> totals(static_cast<std::size_t>(p)), warpTotals(static_cast<std::size_t>(warps));
    for (int i = 0; i < n; ++i) totals[static_cast<std::size_t>(i / k)] += in[static_cast<std::size_t>(i)];
    for (int i = 0; i < p; ++i) warpTotals[static_cast<std::size_t>(i / w)] += totals[static_cast<std::size_t>(i)];
    const TraceStep* lastShuffle = nullptr;
    for (const TraceStep& s : t.steps)
      if (s.phase == "warp scan") lastShuffle = &s;
    ASSERT_NE(lastShuffle, nullptr);
    ASSERT_EQ(lastShuffle->rows.size(), 4u);
    std::uint32_t running = 0;
    for (int i = 0; i < p; ++i) {
      running = i % w == 0 ? totals[static_cast<std::size_t>(i)] : running + totals[static_cast<std::size_t>(i)];
      EXPECT_EQ(lastShuffle->rows[0].values[static_cast<std::size_t>(i)], running) << "lane sum of thread " << i;
    }
    const TraceStep* written = findStep(t, "warp totals", "");
    const TraceStep* back = findStep(t, "totals back", "");
    const TraceStep* prefix = findStep(t, "thread prefix", "");
    ASSERT_TRUE(written && back && prefix);
    EXPECT_EQ(written->rows[2].values, warpTotals);
    std::vector<std::uint32_t> inclusive(warpTotals.size());
    std::inclusive_scan(warpTotals.begin(), warpTotals.end(), inclusive.begin());
    EXPECT_EQ(back->rows[2].values, inclusive);
    EXPECT_EQ(prefix->rows[1].values, exclusive(totals));
  }
}

// The kernels' tiles, worked by hand. warp-shuffle's shared memory holds only the 16 warp
// totals: lane 31 of each warp writes one word (one access a warp), lanes 0..15 of warp 0
// read and write slots 0..15 (unit stride), and the prefix step's reads are one word a warp
// (a broadcast): no conflict anywhere. blelloch-8-per-thread's tree runs over the 64 thread
// totals, padded: at the level whose nodes are 16 apart, threads 0 and 1 read nodes 15 and
// 47, padded to 15 and 48: banks 15 and 16; every level is conflict-free, and so are the
// totals' stores at t + t/32. Its loads are global: none in shared memory, though staging
// them there (thread t's i-th read at word 8t + i) would be 8-way.
TEST(ScanTrace, TheRegisterVariantsKernelTilesAreConflictFree) {
  const ScanTrace ws = traceScan("warp-shuffle", std::vector<std::uint32_t>(2048, 1u), 2048);
  EXPECT_EQ(ws.extraWavefronts, 0);
  const TraceStep* totals = findStep(ws, "warp totals", "");
  ASSERT_NE(totals, nullptr);
  ASSERT_EQ(totals->instructions.size(), 1u);
  ASSERT_EQ(totals->instructions[0].accesses.size(), 16u);
  EXPECT_EQ(totals->instructions[0].accesses[1].thread, 63);
  EXPECT_EQ(totals->instructions[0].accesses[1].slot, 1);
  EXPECT_EQ(findStep(ws, "read totals", "")->conflictDegree, 1);
  EXPECT_EQ(findStep(ws, "load", "")->conflictDegree, 0) << "registers: no shared memory";
  const ScanTrace b8 = traceScan("blelloch-8-per-thread", std::vector<std::uint32_t>(512, 1u), 512);
  EXPECT_EQ(b8.extraWavefronts, 0);
  const TraceStep* level16 = findStep(b8, "up-sweep", "offset 16");
  ASSERT_NE(level16, nullptr);
  EXPECT_EQ(level16->instructions[0].accesses[1].slot, 48);
  EXPECT_EQ(level16->conflictDegree, 1);
  EXPECT_EQ(findStep(b8, "load", "")->conflictDegree, 0);
  EXPECT_NE(findStep(b8, "load", "")->what.find("8-way"), std::string::npos);
}

// More than one block: warp-shuffle scans then adds (the block sums, their scan, the uniform
// add); blelloch-8-per-thread reduces first (every tile's sum), scans the sums, and scans
// every tile seeded with its sum: no uniform add.
TEST(ScanTrace, TheRegisterVariantsCrossBlocksAsTheirKernelsDo) {
  const std::vector<std::uint32_t> in(40, 1u);  // 3 blocks of 16: 16 + 16 + 8 (+ 8 identity)
  const ScanTrace ws = traceScan("warp-shuffle", in, 16);
  EXPECT_NE(findStep(ws, "uniform add", ""), nullptr);
  EXPECT_EQ(ws.result, exclusive(in));
  const ScanTrace b8 = traceScan("blelloch-8-per-thread", in, 16);
  ASSERT_EQ(b8.blocks, 3);
  EXPECT_TRUE(b8.reduceThenScan);
  EXPECT_EQ(b8.steps[0].phase, "reduce the tiles");
  EXPECT_EQ(b8.steps[0].blockSums, (std::vector<std::uint32_t>{16, 16, 8}));
  EXPECT_EQ(b8.steps[1].phase, "scan of the block sums");
  EXPECT_EQ(b8.steps[1].blockSums, (std::vector<std::uint32_t>{0, 16, 32}));
  EXPECT_EQ(findStep(b8, "uniform add", ""), nullptr);
  EXPECT_EQ(b8.steps.back().blockSums, (std::vector<std::uint32_t>{0, 16, 32})) << "the seeds";
  EXPECT_EQ(b8.result, exclusive(in));
  // 16 elements: 2 threads of 8 in one warp of 2 lanes. Reducing: 2 * 7 in registers, one
  // butterfly step (2 lanes adding); the sums' tile of 4: 2 threads of 2, 2 * 4 + 2 * 1;
  // every tile: 2 * 16 + 2 * 1.
  EXPECT_EQ(b8.additions, 3 * (14 + 2) + (8 + 2) + 3 * 34);
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
  EXPECT_THROW(traceScan("blelloch", in, 4096), std::invalid_argument);
  EXPECT_THROW(traceScan("hillis-steele", in, 2048), std::invalid_argument);  // 2048 threads
  EXPECT_NO_THROW(traceScan("warp-shuffle", in, 2048));
  EXPECT_NE(whyNoTrace("no-such-scan").find("blelloch-8-per-thread, warp-shuffle"), std::string::npos);
  EXPECT_THROW(traceScan("blelloch", std::vector<std::uint32_t>{}, 8), std::invalid_argument);
  EXPECT_EQ(runScanLesson({"cub", 8, 1, 1, {}}), 2);
  EXPECT_EQ(lessonTile(16, 1), 16);
  EXPECT_EQ(lessonTile(17, 1), 32);
  EXPECT_EQ(lessonTile(32, 4), 8);
  EXPECT_EQ(lessonTile(1, 1), 2);
}

// Writes every step of `t` and checks each file is a whole SVG labelled with the variant,
// the step and the counts; returns the pictures' texts.
std::vector<std::string> labelledPictures(const ScanTrace& t) {
  const fs::path folder = fs::temp_directory_path() / ("satdof_test_scan_trace_" + std::to_string(::getpid()));
  fs::remove_all(folder);
  const auto paths = writeScanLesson(t, folder);
  EXPECT_EQ(paths.size(), t.steps.size());
  std::vector<std::string> svgs;
  for (std::size_t k = 0; k < paths.size(); ++k) {
    std::ifstream f(paths[k]);
    std::stringstream text;
    text << f.rdbuf();
    const std::string svg = text.str();
    EXPECT_EQ(svg.rfind("<svg", 0), 0u) << paths[k];
    EXPECT_NE(svg.find("</svg>"), std::string::npos) << paths[k];
    EXPECT_NE(svg.find(t.variant + " — step " + std::to_string(k + 1) + " of " + std::to_string(paths.size())),
              std::string::npos)
        << paths[k];
    EXPECT_NE(svg.find("Additions so far"), std::string::npos) << paths[k];
    EXPECT_NE(svg.find(t.stepsName), std::string::npos) << paths[k];
    svgs.push_back(svg);
  }
  fs::remove_all(folder);
  return svgs;
}

TEST(ScanTrace, EveryStepIsAPictureLabelledWithTheVariantTheStepAndTheCounts) {
  const ScanTrace t = traceScan("blelloch-conflict-free", std::vector<std::uint32_t>(32, 3u), 16);
  labelledPictures(t);
  EXPECT_NE(scanLessonText(t).find("2(n - 1) additions"), std::string::npos);
}

TEST(ScanTrace, TheRegisterVariantsPicturesShowTheirRowsAndShapes) {
  for (const char* variant : {"warp-shuffle", "blelloch-8-per-thread"}) {
    const ScanTrace t = traceScan(variant, std::vector<std::uint32_t>(64, 3u), 32);
    const std::vector<std::string> svgs = labelledPictures(t);
    for (std::size_t k = 0; k < svgs.size(); ++k) {
      EXPECT_NE(svgs[k].find("Block: k = "), std::string::npos) << variant << " step " << k + 1;
      if (!t.steps[k].rows.empty()) {
        EXPECT_NE(svgs[k].find(t.steps[k].rows[0].label), std::string::npos) << variant << " step " << k + 1;
      }
    }
  }
  EXPECT_NE(svgOf([](Canvas& c) {
              drawScanStep(c, traceScan("warp-shuffle", std::vector<std::uint32_t>(64, 1u), 64), 3);
            }).find("warp 1 (lanes 0..7)"),
            std::string::npos);
}

}  // namespace
