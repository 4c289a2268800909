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
// balance) and runs them on a pool. Results do not depend on the thread count as long
// as chunks write disjoint outputs, which is how every caller uses it, so the CPU
// backend's bytes are the same on 1 core or 64.
#pragma once

#include <algorithm>
#include <atomic>
#include <condition_variable>
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

 private:
  void stopWorkers();
  void workerLoop();
  void takeTasks();

  std::mutex mutex_;
  std::condition_variable wake_, done_;
  std::uint64_t generation_ = 0;  // one per job: a worker runs each job once
  bool stop_ = false;
  bool open_ = false;   // the current job takes workers that wake
  unsigned joined_ = 0;  // workers in the current job
  const std::function<void(std::size_t)>* body_ = nullptr;
  std::size_t tasks_ = 0;
  std::atomic<std::size_t> next_{0};
  std::atomic<bool> running_{false};
  std::exception_ptr error_;
  std::vector<std::thread> workers_;
};

// Chunks per thread that parallelFor makes when the work allows: enough that a thread
// delayed by another process costs a few per cent, few enough that a chunk's fixed cost
// (a wake-up, a band's halo rows) stays small.
inline constexpr std::size_t kChunksPerThread = 4;

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
