// tests/test_reference_parallel.cpp — the reference SAT and convolutions give the same
// bytes on 1, 2, 3, 7 and 64 threads (more than most images have rows) and with the
// automatic count, on odd sizes including 1x1, 1xN and Nx1 and widths around the SAT's
// four-pixel steps, so the CPU backend's output never depends on the machine's cores;
// the SAT also equals its definition, computed here independently, on a caller's pool
// into memory it never initialised, aligned (streaming stores) or not. ThreadPool runs
// every task once (jobs back to back and after its workers slept), reports a task's
// exception and refuses a nested run; its tiles cover an image once, and the pool's
// convolutions cut into column blocks give the bytes of one thread.
// An explicit thread count splits even a 2-row image (see minRowsPerThread), so these
// small images do exercise the bands and the carries between them. (Totals that wrap
// past 2^32 need no test of their own here: every step adds modulo 2^32, and addition
// modulo 2^32 does not care about order; test_reference checks a wrapping table, built
// on every core, against brute force.)
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <stdexcept>
#include <thread>

#include "satdof/reference/conv.h"
#include "satdof/reference/parallel.h"
#include "satdof/reference/sat.h"
#include "test_support.h"

namespace ref = satdof::reference;

using satdof::Border;
using satdof::ConvMath;
using satdof::test::freshRng;
using satdof::test::randomImage;

namespace {

const std::vector<std::pair<int, int>> kSizes = {{1, 1},  {1, 2},  {2, 1},  {1, 37},  {37, 1},
                                                 {3, 5},  {4, 3},  {5, 9},  {7, 13},  {8, 2},
                                                 {9, 70}, {31, 33}, {100, 7}, {129, 67}};
const unsigned kThreads[] = {2, 3, 7, 64, 0};

// S(x, y) by its definition, one entry from its three neighbours (wrapping uint32).
std::vector<std::uint32_t> satByDefinition(const ref::ImageRgba8& img) {
  const int w = img.width, h = img.height;
  std::vector<std::uint32_t> s(std::size_t(w) * h * 4);
  auto at = [&](int x, int y, int c) -> std::uint32_t {
    return x < 0 || y < 0 ? 0u : s[(std::size_t(y) * w + x) * 4 + c];
  };
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      for (int c = 0; c < 4; ++c)
        s[(std::size_t(y) * w + x) * 4 + c] = img.at(x, y)[c] + at(x - 1, y, c) + at(x, y - 1, c) - at(x - 1, y - 1, c);
  return s;
}

std::string where(int w, int h, unsigned t) {
  return std::to_string(w) + "x" + std::to_string(h) + " threads=" + std::to_string(t);
}

}  // namespace

TEST(ReferenceParallel, SatSameBytesForAnyThreadCount) {
  auto rng = freshRng();
  for (auto [w, h] : kSizes) {
    const auto img = randomImage(w, h, rng);
    const ref::Sat one = ref::computeSat(img, 1);
    EXPECT_EQ(one.values, satByDefinition(img)) << where(w, h, 1);
    for (unsigned t : kThreads) {
      const ref::Sat many = ref::computeSat(img, t);
      EXPECT_EQ(many.width, w);
      EXPECT_EQ(many.height, h);
      EXPECT_EQ(many.values, one.values) << where(w, h, t);
    }
  }
}

TEST(ReferenceParallel, SatIntoAnExistingTable) {
  auto rng = freshRng();
  ref::Sat sat;  // reused across sizes: grown, shrunk, and refilled at the same size
  for (auto [w, h] : {std::pair{31, 33}, {31, 33}, {129, 67}, {1, 37}, {0, 0}, {100, 7}}) {
    const auto img = randomImage(w, h, rng);
    for (auto& v : sat.values) v = 0xdeadbeef;  // stale contents must not leak through
    ref::computeSat(img, sat, 3);
    EXPECT_EQ(sat.width, w);
    EXPECT_EQ(sat.height, h);
    EXPECT_EQ(sat.values, ref::computeSat(img, 1).values) << where(w, h, 3);
  }
}

// The pool overload into raw memory: bands of ~32K pixels, so sizes from one band to
// many; the table is filled with garbage first and offset by one word (no streaming
// stores) as well as aligned.
TEST(ReferenceParallel, SatOnAPoolIntoUninitialisedMemory) {
  auto rng = freshRng();
  for (unsigned threads : {1u, 2u, 5u, 16u}) {
    ref::ThreadPool pool(threads);
    for (auto [w, h] : {std::pair{1, 1}, {3, 1000}, {257, 300}, {1000, 257}, {4099, 37}}) {
      const auto img = randomImage(w, h, rng);
      const auto expected = satByDefinition(img);
      for (std::size_t offset : {0u, 1u}) {
        const auto buffer = std::make_unique<std::uint32_t[]>(expected.size() + 8);
        std::uint32_t* table = buffer.get() + offset;
        std::fill(table, table + expected.size(), 0xdeadbeefu);
        ref::computeSat(img, table, pool);
        EXPECT_TRUE(std::equal(expected.begin(), expected.end(), table))
            << where(w, h, threads) << " offset " << offset;
      }
      ref::Sat sat;
      ref::computeSat(img, sat, pool);
      EXPECT_EQ(sat.values, expected) << where(w, h, threads);
    }
  }
}

TEST(ReferenceParallel, ThreadPoolRunsEveryTaskOnce) {
  for (unsigned threads : {1u, 2u, 8u}) {
    ref::ThreadPool pool(threads);
    EXPECT_EQ(pool.size(), threads);
    for (std::size_t tasks : {0u, 1u, 3u, 100u, 1000u}) {  // many jobs on one pool
      std::vector<std::atomic<int>> runs(tasks);
      pool.run(tasks, [&](std::size_t k) { runs[k].fetch_add(1); });
      for (std::size_t k = 0; k < tasks; ++k) EXPECT_EQ(runs[k].load(), 1) << "task " << k << " of " << tasks;
    }
    std::vector<int> covered(1001, 0);  // parallelFor's chunks cover the range once
    ref::parallelFor(pool, covered.size(), [&](std::size_t b, std::size_t e) {
      for (std::size_t i = b; i < e; ++i) ++covered[i];
    });
    EXPECT_EQ(std::count(covered.begin(), covered.end(), 1), std::ptrdiff_t(covered.size()));
  }
}

// Jobs back to back (workers still watching for the next one) and jobs after the workers
// have gone to sleep, with a profile attached: every task once, all counted.
TEST(ReferenceParallel, ThreadPoolWakesFromSpinAndSleep) {
  ref::ThreadPool pool(4);
  ref::PoolProfile profile;
  pool.attach(&profile);
  std::size_t total = 0;
  for (int job = 0; job < 40; ++job) {
    if (job % 10 == 9) std::this_thread::sleep_for(std::chrono::milliseconds(5));  // past the spin
    const std::size_t tasks = 1 + std::size_t(job) * 7 % 97;
    std::vector<std::atomic<int>> runs(tasks);
    pool.run(tasks, [&](std::size_t k) { runs[k].fetch_add(1); });
    for (std::size_t k = 0; k < tasks; ++k) ASSERT_EQ(runs[k].load(), 1) << "job " << job << " task " << k;
    if (tasks > 1) total += tasks;
  }
  pool.attach(nullptr);
  std::size_t counted = 0;
  for (std::size_t t : profile.tasks) counted += t;
  EXPECT_EQ(counted, total);
  EXPECT_EQ(profile.busySeconds.size(), 4u);
  EXPECT_EQ(profile.joins[0], profile.jobs);  // the caller is in every job
  EXPECT_GT(profile.jobSeconds, 0.0);
}

// parallelForTiles covers every cell once; with rows to spare the tiles are the pool's
// chunks (a multiple of its size), bands at least minRows high and column edges aligned.
TEST(ReferenceParallel, TilesCoverEveryCellOnce) {
  for (unsigned threads : {1u, 2u, 3u, 7u, 16u}) {
    ref::ThreadPool pool(threads);
    for (auto [rows, cols] : {std::pair{1, 1}, {1, 37}, {37, 1}, {9, 70}, {200, 640}, {1080, 1920}}) {
      for (std::size_t minRows : {1u, 20u, 120u}) {
        const auto g = ref::tileGrid(threads, rows, cols, minRows, 64, 16);
        std::vector<int> covered(std::size_t(rows) * cols, 0);
        std::atomic<int> tiles{0};
        ref::parallelForTiles(
            pool, rows, cols,
            [&](std::size_t y0, std::size_t y1, std::size_t x0, std::size_t x1) {
              ASSERT_LT(y0, y1);
              ASSERT_LT(x0, x1);
              tiles.fetch_add(1);
              for (std::size_t y = y0; y < y1; ++y)
                for (std::size_t x = x0; x < x1; ++x) ++covered[y * cols + x];  // disjoint tiles: no race
            },
            minRows, 64, 16);
        const std::string at = where(cols, rows, threads) + " minRows " + std::to_string(minRows);
        EXPECT_EQ(std::count(covered.begin(), covered.end(), 1), std::ptrdiff_t(covered.size())) << at;
        if (threads == 1) continue;
        EXPECT_EQ(std::size_t(tiles.load()), g.rowBands * g.colBlocks) << at;
        if (g.rowBands > 1) {
          EXPECT_GE(std::size_t(rows) / g.rowBands, minRows) << at;
        }
        if (rows == 1080) {  // rows and columns enough for an even share of tiles a thread
          EXPECT_EQ(g.rowBands * g.colBlocks % threads, 0u) << at;
          EXPECT_GE(g.rowBands * g.colBlocks, threads * ref::kChunksPerThread / 2) << at;
        }
        for (std::size_t b = 1; b < g.colBlocks; ++b) EXPECT_EQ(g.col(cols, b) % g.colAlign, 0u) << at;
      }
    }
  }
}

TEST(ReferenceParallel, ThreadPoolReportsErrors) {
  ref::ThreadPool pool(4);
  std::atomic<int> ran{0};
  EXPECT_THROW(pool.run(50,
                        [&](std::size_t k) {
                          ran.fetch_add(1);
                          if (k == 7) throw std::runtime_error("task 7");
                        }),
               std::runtime_error);
  EXPECT_EQ(ran.load(), 50);  // the other tasks still ran
  EXPECT_THROW(pool.run(4, [&](std::size_t) { pool.run(2, [](std::size_t) {}); }), std::logic_error);
  std::atomic<int> after{0};  // and the pool still works
  pool.run(10, [&](std::size_t) { after.fetch_add(1); });
  EXPECT_EQ(after.load(), 10);
}

TEST(ReferenceParallel, ConvolutionSameBytesForAnyThreadCount) {
  auto rng = freshRng();
  const satdof::Filter filters[] = {satdof::gaussian(2, 1.0f), satdof::box(3), satdof::box(1),
                                    satdof::sharpen(1), satdof::emboss(2)};
  for (auto [w, h] : kSizes) {
    const auto img = randomImage(w, h, rng);
    for (const satdof::Filter& f : filters) {
      for (ConvMath m : {ConvMath::Direct, ConvMath::Separable, ConvMath::BoxSum}) {
        if (m == ConvMath::Separable && !f.separable) continue;
        if (m == ConvMath::BoxSum && f.kind != satdof::FilterKind::Box) continue;
        for (Border b : {Border::Zero, Border::Clamp}) {
          const ref::ImageRgba8 one = ref::convolve(img, f, b, m, 1);
          for (unsigned t : kThreads)
            EXPECT_EQ(ref::convolve(img, f, b, m, t).pixels, one.pixels)
                << f.name << " r=" << f.radius << " " << satdof::toString(m) << " "
                << satdof::toString(b) << " " << where(w, h, t);
        }
      }
    }
  }
}

// The pool overload writes into last call's image: stale pixels must not survive, at
// the same size or a new one.
TEST(ReferenceParallel, ConvolutionOnAPoolIntoAReusedImage) {
  auto rng = freshRng();
  ref::ThreadPool pool(3);
  ref::ImageRgba8 out;
  for (auto [w, h] : {std::pair{640, 200}, {640, 200}, {31, 900}, {1, 1}}) {
    const auto img = randomImage(w, h, rng);
    for (ConvMath m : {ConvMath::Direct, ConvMath::Separable, ConvMath::BoxSum}) {
      std::fill(out.pixels.begin(), out.pixels.end(), std::uint8_t(0x5a));
      ref::convolve(img, satdof::box(2), Border::Clamp, m, out, pool);
      EXPECT_EQ(out.width, w);
      EXPECT_EQ(out.height, h);
      EXPECT_EQ(out.pixels, ref::convolve(img, satdof::box(2), Border::Clamp, m, 1).pixels)
          << satdof::toString(m) << " " << where(w, h, 3);
    }
  }
}

// Pools of the CPU backend's kind (automatic bands): images whose rows are too few for
// every thread are cut into column blocks as well; every maths, both borders, against
// one thread.
TEST(ReferenceParallel, ConvolutionOnAPoolInTiles) {
  auto rng = freshRng();
  const satdof::Filter filters[] = {satdof::gaussian(2, satdof::defaultGaussianSigma(2)), satdof::box(7),
                                    satdof::box(1)};
  for (unsigned threads : {2u, 5u, 16u}) {
    ref::ThreadPool pool(threads);
    for (auto [w, h] : {std::pair{640, 200}, {1001, 97}, {333, 1000}, {70, 30}}) {
      const auto img = randomImage(w, h, rng);
      for (const satdof::Filter& f : filters)
        for (ConvMath m : {ConvMath::Separable, ConvMath::BoxSum}) {
          if (m == ConvMath::BoxSum && f.kind != satdof::FilterKind::Box) continue;
          for (Border b : {Border::Zero, Border::Clamp}) {
            ref::ImageRgba8 out;
            ref::convolve(img, f, b, m, out, pool);
            EXPECT_EQ(out.pixels, ref::convolve(img, f, b, m, 1).pixels)
                << f.name << " r=" << f.radius << " " << satdof::toString(m) << " " << satdof::toString(b) << " "
                << where(w, h, threads);
          }
        }
    }
  }
}

TEST(ReferenceParallel, EmptyImages) {
  const ref::ImageRgba8 empty;
  for (unsigned t : {1u, 3u, 0u}) {
    EXPECT_TRUE(ref::computeSat(empty, t).values.empty());
    EXPECT_TRUE(ref::convolve(empty, satdof::box(1), Border::Zero, ConvMath::BoxSum, t).pixels.empty());
    EXPECT_TRUE(ref::convolve(empty, satdof::box(1), Border::Clamp, ConvMath::Separable, t)
                    .pixels.empty());
  }
}

TEST(ReferenceParallel, RowBandsHonourExplicitCounts) {
  EXPECT_EQ(ref::minRowsPerThread(1, 1920), 1u);
  EXPECT_EQ(ref::minRowsPerThread(7, 1), 1u);
  EXPECT_GE(ref::minRowsPerThread(0, 1920), 2u);  // automatic: no thread for a sliver
  EXPECT_GE(ref::minRowsPerThread(0, 0), 1u);
}
