// ThreadPool and tileGrid (see satdof/reference/parallel.h).
//
// One job at a time, no lock on the way in or out. run() writes the job (body, task
// count), resets the task counter, sets open_ and bumps generation_, then wakes the
// workers that sleep. A worker that sees a new generation joins (joined_ + 1) and, if
// the job is still open, takes tasks from the counter with the caller. When the caller
// runs out it closes the job and waits only for the workers that joined (they hold
// tasks); a worker that comes after the job closed (the machine was busy, or the caller
// was quick) leaves again without touching it. So a job never waits for a thread the
// scheduler has not run, and no worker reads a job (or its body) after run() returns.
//
// joined_ and open_ are sequentially consistent: a worker adds itself, then reads open_;
// the caller clears open_, then reads joined_. Of the two, the later sees the other's
// write, so the caller either waits for the worker or the worker sees the job closed.
//
// Joining takes no mutex: with a condition variable, fifteen woken workers took one lock
// one after another, a hand-over each, before the first of them could start. A worker
// that has finished a job also keeps watching for the next one for kSpin before it
// sleeps, because callers run jobs back to back (the SAT's three passes, one frame's
// calls): a sleeping thread is woken by the kernel, in a virtual machine by an
// interrupt through the hypervisor, which costs more than many a short task.
#include "satdof/reference/parallel.h"

#include <chrono>
#include <stdexcept>
#include <utility>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace satdof::reference {

namespace {

using Clock = std::chrono::steady_clock;

// How long a worker that finished a job keeps looking for the next one before it sleeps:
// longer than the gap between a caller's consecutive jobs (the slowest task of the
// last one), short against a frame (a few per cent of one core per job at 60 frames a
// second, and nothing while no job comes).
constexpr auto kSpin = std::chrono::microseconds(50);

double seconds() { return std::chrono::duration<double>(Clock::now().time_since_epoch()).count(); }

void relax() {
#if defined(__SSE2__)
  _mm_pause();  // leaves the core's units to its sibling, and tells a hypervisor we spin
#else
  std::this_thread::yield();
#endif
}

}  // namespace

TileGrid tileGrid(unsigned threads, std::size_t rows, std::size_t cols, std::size_t minRows, std::size_t minCols,
                  std::size_t colAlign) {
  TileGrid g;
  if (threads <= 1 || rows == 0 || cols == 0) return g;
  const std::size_t target = std::size_t(threads) * kChunksPerThread;
  const std::size_t mostBands = std::max<std::size_t>(1, rows / std::max<std::size_t>(minRows, 1));
  // The most bands that divide the target: the blocks then make up exactly the target.
  for (std::size_t d = std::min(target, mostBands); d >= 1; --d)
    if (target % d == 0) {
      g.rowBands = d;
      break;
    }
  const std::size_t mostBlocks = std::max<std::size_t>(1, cols / std::max<std::size_t>(minCols, 1));
  g.colBlocks = std::min(target / g.rowBands, mostBlocks);
  // Fewer blocks than the target: still a multiple of the pool where one fits.
  for (std::size_t b = g.colBlocks; b > 1; --b)
    if (g.rowBands * b % threads == 0) {
      g.colBlocks = b;
      break;
    }
  if (g.colBlocks > 1 && cols / g.colBlocks >= 4 * std::max<std::size_t>(colAlign, 1)) g.colAlign = colAlign;
  return g;
}

ThreadPool::ThreadPool(unsigned threads) {
  if (threads == 0) threads = defaultThreadCount();
  workers_.reserve(threads - 1);
  try {
    for (unsigned k = 1; k < threads; ++k) workers_.emplace_back([this, k] { workerLoop(k); });
  } catch (...) {
    stopWorkers();  // join the ones that started
    throw;
  }
}

ThreadPool::~ThreadPool() { stopWorkers(); }

void ThreadPool::stopWorkers() {
  stop_.store(true);
  generation_.fetch_add(1);
  generation_.notify_all();
  for (std::thread& t : workers_)
    if (t.joinable()) t.join();
  workers_.clear();
}

void ThreadPool::attach(PoolProfile* profile) {
  profile_ = profile;
  if (!profile) return;
  *profile = {};
  profile->busySeconds.assign(size(), 0.0);
  profile->tasks.assign(size(), 0);
  profile->joins.assign(size(), 0);
  profile->wakeSeconds.assign(size(), 0.0);
  profile->wakeMostSeconds.assign(size(), 0.0);
}

void ThreadPool::takeTasks(unsigned index, double published) {
  PoolProfile* const profile = profile_;
  bool first = true;
  for (;;) {
    const std::size_t task = next_.fetch_add(1, std::memory_order_relaxed);
    if (task >= tasks_) return;
    const double start = profile ? seconds() : 0.0;
    if (profile && first && index > 0) {
      profile->wakeSeconds[index] += start - published;
      profile->wakeMostSeconds[index] = std::max(profile->wakeMostSeconds[index], start - published);
    }
    first = false;
    try {
      (*body_)(task);
    } catch (...) {
      std::lock_guard lock(errorMutex_);
      if (!error_) error_ = std::current_exception();
    }
    if (profile) {
      profile->busySeconds[index] += seconds() - start;
      ++profile->tasks[index];
    }
  }
}

void ThreadPool::workerLoop(unsigned index) {
  // Not generation_ as read now: a job published before this thread first ran must
  // still be seen as new (every worker starts before any job: generation 0).
  std::uint32_t seen = 0;
  for (;;) {
    std::uint32_t now = generation_.load(std::memory_order_acquire);
    if (now == seen) {
      const auto until = Clock::now() + kSpin;
      for (int k = 1; now == seen; ++k) {
        relax();
        now = generation_.load(std::memory_order_acquire);
        if (k % 64 == 0 && now == seen && Clock::now() > until) {
          generation_.wait(seen, std::memory_order_acquire);  // returns once it changed
          now = generation_.load(std::memory_order_acquire);
        }
      }
    }
    seen = now;
    if (stop_.load()) return;
    joined_.fetch_add(1);
    if (open_.load()) {
      if (profile_) ++profile_->joins[index];
      takeTasks(index, published_);
    }
    if (joined_.fetch_sub(1) == 1) joined_.notify_one();
  }
}

void ThreadPool::run(std::size_t tasks, const std::function<void(std::size_t)>& body) {
  if (tasks == 0) return;
  if (running_.exchange(true))
    throw std::logic_error("ThreadPool::run called from a task or from two threads at once");
  struct Release {
    std::atomic<bool>& flag;
    ~Release() { flag.store(false); }
  } release{running_};
  if (workers_.empty() || tasks == 1) {
    for (std::size_t k = 0; k < tasks; ++k) body(k);
    return;
  }
  body_ = &body;
  tasks_ = tasks;
  error_ = nullptr;
  published_ = profile_ ? seconds() : 0.0;
  next_.store(0, std::memory_order_relaxed);
  open_.store(true);  // after the job's fields: a worker that sees it open sees them
  generation_.fetch_add(1, std::memory_order_release);
  generation_.notify_all();
  takeTasks(0, published_);
  open_.store(false);  // every task is taken: no one else joins
  for (std::uint32_t j = joined_.load(); j != 0; j = joined_.load()) {
    // The joined workers are finishing their last tasks: watch, then sleep.
    for (int k = 0; k < 256 && j != 0; ++k, j = joined_.load()) relax();
    if (j != 0) joined_.wait(j);
  }
  if (profile_) {
    ++profile_->jobs;
    ++profile_->joins[0];
    profile_->jobSeconds += seconds() - published_;
  }
  body_ = nullptr;
  if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
}

}  // namespace satdof::reference
