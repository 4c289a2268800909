// ThreadPool (see satdof/reference/parallel.h).
//
// One job at a time. run() publishes the job under the mutex (body, task count, a new
// generation, open) and wakes every worker; a worker that wakes while the job is open
// joins it (counted in joined_), and each joined worker and the caller take tasks from
// the atomic counter until none are left. When the caller runs out, it closes the job
// and waits only for the workers that joined (they hold tasks); a worker that wakes
// after the job closed (the machine was busy, or the caller was quick) goes back to
// sleep without touching it. So a job never waits for a thread the scheduler has not
// run, and no worker reads a job (or its body) after run() returns.
#include "satdof/reference/parallel.h"

#include <stdexcept>
#include <utility>

namespace satdof::reference {

ThreadPool::ThreadPool(unsigned threads) {
  if (threads == 0) threads = defaultThreadCount();
  workers_.reserve(threads - 1);
  try {
    for (unsigned k = 1; k < threads; ++k) workers_.emplace_back([this] { workerLoop(); });
  } catch (...) {
    stopWorkers();  // join the ones that started
    throw;
  }
}

ThreadPool::~ThreadPool() { stopWorkers(); }

void ThreadPool::stopWorkers() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  for (std::thread& t : workers_)
    if (t.joinable()) t.join();
  workers_.clear();
}

void ThreadPool::takeTasks() {
  for (;;) {
    const std::size_t task = next_.fetch_add(1, std::memory_order_relaxed);
    if (task >= tasks_) return;
    try {
      (*body_)(task);
    } catch (...) {
      std::lock_guard lock(mutex_);
      if (!error_) error_ = std::current_exception();
    }
  }
}

void ThreadPool::workerLoop() {
  std::unique_lock lock(mutex_);
  // Not generation_ as read now: a job published before this thread first ran must
  // still be seen as new (every worker starts before any job: generation 0).
  std::uint64_t seen = 0;
  for (;;) {
    wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
    if (stop_) return;
    seen = generation_;
    if (!open_) continue;  // finished without this thread
    ++joined_;
    lock.unlock();
    takeTasks();
    lock.lock();
    if (--joined_ == 0) done_.notify_one();
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
  {
    std::lock_guard lock(mutex_);
    body_ = &body;
    tasks_ = tasks;
    next_.store(0, std::memory_order_relaxed);
    error_ = nullptr;
    open_ = true;
    ++generation_;
  }
  wake_.notify_all();
  takeTasks();
  std::unique_lock lock(mutex_);
  open_ = false;  // every task is taken: no one else joins
  done_.wait(lock, [&] { return joined_ == 0; });
  body_ = nullptr;
  if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
}

}  // namespace satdof::reference
