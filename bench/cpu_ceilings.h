// bench/cpu_ceilings.h — what the host can give satdof-cpu-bench's cases at most: its
// processor topology, two compute loops and its memory bandwidth, each a function that
// runs on a ThreadPool like the cases do (so 1 against N threads is measured alike).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "satdof/reference/parallel.h"

namespace satdof::bench {

// Logical threads and physical cores (distinct core ids per package) as Linux lists
// them; physicalCores is 0 where /sys does not say.
struct Topology {
  unsigned logical = 0, physicalCores = 0;
  std::string model;  // /proc/cpuinfo's "model name", or empty
};
Topology hostTopology();

// One dependent fma chain per task, 64 tasks: bound by the fma's latency, so a thread
// leaves its core's units mostly idle and a sibling hyper-thread gets them for free.
// Returns a checksum (so the loop is not optimised away).
std::uint32_t fmaLatency(reference::ThreadPool& pool);

// 32 independent multiply-add lanes per task, 64 tasks: bound by the core's arithmetic
// throughput, which two hyper-threads of one core share.
std::uint32_t mulAddThroughput(reference::ThreadPool& pool);

// Two buffers of kMemoryBytes each, touched once when made (so no run pays page faults).
struct MemoryBuffers {
  static constexpr std::size_t kMemoryBytes = std::size_t(512) << 20;
  std::unique_ptr<std::uint8_t[]> a, b;
  explicit MemoryBuffers(reference::ThreadPool& pool);
};

// Bytes moved by each (read: kMemoryBytes; the copies: 2 x kMemoryBytes, read + written).
std::uint32_t memoryRead(MemoryBuffers& m, reference::ThreadPool& pool);
void memoryCopy(MemoryBuffers& m, reference::ThreadPool& pool);            // memcpy per chunk
void memoryCopyStreaming(MemoryBuffers& m, reference::ThreadPool& pool);   // streaming stores
// Bytes written: kMemoryBytes, with streaming stores and no read: the ceiling of a pass
// that writes its output so (the SAT's table), which a copy's GB/s does not show when
// the host's reads and writes do not share one limit.
void memoryWriteStreaming(MemoryBuffers& m, reference::ThreadPool& pool);

}  // namespace satdof::bench
