// satdof/reference/parallel.h — ThreadPool and parallelFor: the CPU reference's threads.
//
// A ThreadPool starts its threads once and parks them between jobs, so a caller that
// runs work every frame (the CPU backend) pays a wake-up per job, not a thread start
// per call (tens of microseconds each, made one after another by the calling thread).
// A job is a number of tasks handed out from a shared counter: a thread that finishes
// early takes the next task, so a core shared with another process, or a slower
// sibling hyper-thread, delays the job by one task, not by a fixed 1/N of it.
//
// parallelFor splits [0, count) into contiguous chunks (several per thread, for that
// balance) and runs them on a pool; parallelForTiles cuts rows x columns into tiles, for
// work whose bands pay for their edges (a halo of rows recomputed) and so cannot be cut
// into many thin bands. Results do not depend on the thread count as long as chunks
// write disjoint outputs, which is how every caller uses them, so the CPU backend's
// bytes are the same on 1 core or 64.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace satdof::reference {

// 0: one per hardware thread.
inline unsigned defaultThreadCount() { return std::max(1u, std::thread::hardware_concurrency()); }

// What a pool did while a PoolProfile was attached to it (ThreadPool::attach): enough to
// split a job's wall time into work, imbalance and hand-out cost. Thread 0 is the caller
// of run(), 1..size()-1 the workers.
struct PoolProfile {
  std::size_t jobs = 0;                   // run() calls that used the workers
  double jobSeconds = 0;                  // their wall time, publish to return, summed
  std::vector<double> busySeconds;        // per thread: time inside tasks
  std::vector<std::size_t> tasks;         // per thread: tasks run
  std::vector<std::size_t> joins;         // per thread: jobs joined
  std::vector<double> wakeSeconds;        // per worker: publish to its first task, summed
  std::vector<double> wakeMostSeconds;    // per worker: the longest of those
};

// Owns size() - 1 worker threads; the thread that calls run() is the size()-th. Not
// copyable or movable (the workers point at it). run() must not be called from inside
// a task, nor from two threads at once: it throws std::logic_error if it is.
class ThreadPool {
 public:
  explicit ThreadPool(unsigned threads = 0);  // 0: defaultThreadCount()
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  unsigned size() const { return unsigned(workers_.size()) + 1; }

  // body(task) once for every task in [0, tasks), on the pool's threads and the caller;
  // returns when all have finished, rethrowing the first exception a task threw (the
  // other tasks still run).
  void run(std::size_t tasks, const std::function<void(std::size_t)>& body);

  // From now on run() adds its figures to *profile (sized and zeroed here); nullptr
  // detaches. Between jobs only. Timing a task costs two clock reads: for benches.
  void attach(PoolProfile* profile);

 private:
  void stopWorkers();
  void workerLoop(unsigned index);
  void takeTasks(unsigned index, double published);

  // The job, published by run(): written before open_ is set, read by a worker only
  // after it has joined and seen open_ set (see parallel.cpp).
  const std::function<void(std::size_t)>* body_ = nullptr;
  std::size_t tasks_ = 0;
  double published_ = 0;  // when (profiling only)
  PoolProfile* profile_ = nullptr;

  std::atomic<std::uint32_t> generation_{0};  // one per job (and one to stop): wakes workers
  std::atomic<bool> stop_{false};
  std::atomic<bool> open_{false};        // the current job takes workers that come
  std::atomic<std::uint32_t> joined_{0};  // workers in the current job
  std::atomic<std::size_t> next_{0};     // the next task to hand out
  std::atomic<bool> running_{false};
  std::mutex errorMutex_;
  std::exception_ptr error_;
  std::vector<std::thread> workers_;
};

// Chunks per thread that parallelFor and parallelForTiles make when the work allows. A
// job ends when its last chunk does, about half a chunk after the average thread ran
// out, and threads are not equally fast (on a virtual machine's shared cores the
// busiest of 16 did 6-18 % more than the mean): with 4 chunks a thread, 16 threads were
// busy 83-89 % of a job's wall time (`satdof-cpu-bench --profile`), with 16 chunks
// 93.5-96 %. A chunk costs one step of a shared counter.
inline constexpr std::size_t kChunksPerThread = 16;

// body(begin, end) for disjoint contiguous chunks covering [0, count), each at least
// minChunk long (but one chunk when count < minChunk), at most kChunksPerThread per
// thread of the pool. Chunk boundaries depend only on count, minChunk and pool.size().
template <class Body>
void parallelFor(ThreadPool& pool, std::size_t count, Body&& body, std::size_t minChunk = 1) {
  if (count == 0) return;
  const std::size_t chunks = std::max<std::size_t>(
      1, std::min<std::size_t>(pool.size() * kChunksPerThread, count / std::max<std::size_t>(minChunk, 1)));
  if (chunks == 1 || pool.size() == 1) {
    body(std::size_t(0), count);
    return;
  }
  pool.run(chunks, [&](std::size_t k) { body(count * k / chunks, count * (k + 1) / chunks); });
}

// Tiles for parallelForTiles: `rowBands` x `colBlocks`, each band at least minRows
// rows where the rows allow, as many tiles as parallelFor's chunks (kChunksPerThread a
// thread) and a multiple of the pool's size where the columns allow, so no thread is
// left a round more than the others. Columns are cut only when the rows cannot be cut
// finely enough; block edges fall on multiples of colAlign columns where blocks are
// wide enough (then two tiles side by side share no cache line of output).
struct TileGrid {
  std::size_t rowBands = 1, colBlocks = 1, colAlign = 1;
  std::size_t row(std::size_t rows, std::size_t k) const { return rows * k / rowBands; }
  std::size_t col(std::size_t cols, std::size_t k) const {
    if (k >= colBlocks) return cols;
    const std::size_t c = cols * k / colBlocks;
    return c - c % colAlign;
  }
};
TileGrid tileGrid(unsigned threads, std::size_t rows, std::size_t cols, std::size_t minRows,
                  std::size_t minCols, std::size_t colAlign);

// body(y0, y1, x0, x1) for disjoint tiles covering [0, rows) x [0, cols) (tileGrid).
// Tile boundaries depend only on the sizes, the minimums and pool.size().
template <class Body>
void parallelForTiles(ThreadPool& pool, std::size_t rows, std::size_t cols, Body&& body, std::size_t minRows = 1,
                      std::size_t minCols = 1, std::size_t colAlign = 1) {
  if (rows == 0 || cols == 0) return;
  const TileGrid g = tileGrid(pool.size(), rows, cols, minRows, minCols, colAlign);
  const std::size_t tiles = g.rowBands * g.colBlocks;
  auto tile = [&](std::size_t k) {
    const std::size_t band = k / g.colBlocks, block = k % g.colBlocks;
    body(g.row(rows, band), g.row(rows, band + 1), g.col(cols, block), g.col(cols, block + 1));
  };
  if (tiles == 1 || pool.size() == 1) return body(std::size_t(0), rows, std::size_t(0), cols);
  pool.run(tiles, tile);
}

// run(pool) on a pool of `threads` threads (0: every hardware thread) started for this
// call alone, with no more threads than `most` (the chunks the work has); run(nullptr)
// where that is one thread. For one-off callers and tests: a caller that runs every
// frame keeps a ThreadPool.
template <class Run>
void withTemporaryPool(unsigned threads, std::size_t most, Run&& run) {
  if (threads == 0) threads = defaultThreadCount();
  if (threads == 1 || most <= 1) return run(static_cast<ThreadPool*>(nullptr));
  ThreadPool pool(unsigned(std::min<std::size_t>(threads, most)));
  run(&pool);
}

// parallelFor on a temporary pool (withTemporaryPool).
template <class Body>
void parallelFor(std::size_t count, Body&& body, unsigned threads = 0, std::size_t minChunk = 1) {
  withTemporaryPool(threads, count / std::max<std::size_t>(minChunk, 1), [&](ThreadPool* pool) {
    if (pool) parallelFor(*pool, count, body, minChunk);
    else if (count) body(std::size_t(0), count);
  });
}

}  // namespace satdof::reference
