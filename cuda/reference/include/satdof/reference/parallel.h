// satdof/reference/parallel.h — parallelFor: splits [0, count) into contiguous chunks run
// on up to `threads` std::threads (the calling thread takes the first chunk). Results do
// not depend on the thread count as long as chunks write disjoint outputs, which is how
// every caller uses it, so the CPU backend's bytes are the same on 1 core or 64.
#pragma once

#include <algorithm>
#include <cstddef>
#include <thread>
#include <vector>

namespace satdof::reference {

// 0: one per hardware thread.
inline unsigned defaultThreadCount() { return std::max(1u, std::thread::hardware_concurrency()); }

// body(begin, end) for disjoint chunks covering [0, count), each at least minChunk long.
template <class Body>
void parallelFor(std::size_t count, Body&& body, unsigned threads = 0, std::size_t minChunk = 1) {
  if (count == 0) return;
  if (threads == 0) threads = defaultThreadCount();
  const std::size_t chunks =
      std::max<std::size_t>(1, std::min<std::size_t>(threads, count / std::max<std::size_t>(minChunk, 1)));
  if (chunks == 1) {
    body(std::size_t(0), count);
    return;
  }
  std::vector<std::jthread> workers;
  workers.reserve(chunks - 1);
  auto range = [&](std::size_t k) { return std::pair{count * k / chunks, count * (k + 1) / chunks}; };
  for (std::size_t k = 1; k < chunks; ++k)
    workers.emplace_back([&, k] {
      const auto [b, e] = range(k);
      body(b, e);
    });
  const auto [b, e] = range(0);
  body(b, e);
}

}  // namespace satdof::reference
