// bench/cpu_ceilings.cpp — see cpu_ceilings.h.
#include "cpu_ceilings.h"

#include <cmath>
#include <cstring>
#include <fstream>
#include <set>
#include <utility>
#include <vector>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace satdof::bench {

namespace ref = satdof::reference;

namespace {

constexpr std::size_t kComputeTasks = 64;
// Chunks of the memory buffers: many per thread, like the cases' row bands.
constexpr std::size_t kMemoryChunk = std::size_t(1) << 20;

std::string readFirstLine(const std::string& path) {
  std::ifstream f(path);
  std::string line;
  std::getline(f, line);
  return line;
}

// body(begin, end) over byte ranges of the buffers, in kMemoryChunk pieces.
template <class Body>
void overChunks(ref::ThreadPool& pool, Body&& body) {
  const std::size_t chunks = MemoryBuffers::kMemoryBytes / kMemoryChunk;
  pool.run(chunks, [&](std::size_t k) { body(k * kMemoryChunk, (k + 1) * kMemoryChunk); });
}

}  // namespace

Topology hostTopology() {
  Topology t;
  t.logical = ref::defaultThreadCount();
  std::set<std::pair<std::string, std::string>> cores;  // (package, core id)
  for (unsigned cpu = 0; cpu < 4096; ++cpu) {
    const std::string dir = "/sys/devices/system/cpu/cpu" + std::to_string(cpu) + "/topology/";
    const std::string core = readFirstLine(dir + "core_id");
    if (core.empty()) {
      if (cpu >= t.logical) break;  // offline or absent past the last one we can use
      continue;
    }
    cores.insert({readFirstLine(dir + "physical_package_id"), core});
  }
  t.physicalCores = unsigned(cores.size());
  std::ifstream info("/proc/cpuinfo");
  for (std::string line; std::getline(info, line);)
    if (line.rfind("model name", 0) == 0) {
      t.model = line.substr(line.find(':') + 2);
      break;
    }
  return t;
}

std::uint32_t fmaLatency(ref::ThreadPool& pool) {
  constexpr std::size_t kSteps = 2'000'000;
  std::vector<float> result(kComputeTasks);
  pool.run(kComputeTasks, [&](std::size_t k) {
    float a = float(k);
    for (std::size_t i = 0; i < kSteps; ++i) a = std::fma(a, 0.9999999f, 1.0f);
    result[k] = a;
  });
  std::uint32_t sum = 0;
  for (float r : result) sum += std::uint32_t(r);
  return sum;
}

std::uint32_t mulAddThroughput(ref::ThreadPool& pool) {
  constexpr std::size_t kSteps = 400'000, kLanes = 32;
  std::vector<float> result(kComputeTasks);
  pool.run(kComputeTasks, [&](std::size_t k) {
    float lane[kLanes];
    for (std::size_t j = 0; j < kLanes; ++j) lane[j] = float(k + j);
    for (std::size_t i = 0; i < kSteps; ++i)
      for (std::size_t j = 0; j < kLanes; ++j) lane[j] = lane[j] * 0.9999999f + 1.0f;
    float sum = 0;
    for (float v : lane) sum += v;
    result[k] = sum;
  });
  std::uint32_t sum = 0;
  for (float r : result) sum += std::uint32_t(r);
  return sum;
}

MemoryBuffers::MemoryBuffers(ref::ThreadPool& pool)
    : a(new std::uint8_t[kMemoryBytes]), b(new std::uint8_t[kMemoryBytes]) {
  overChunks(pool, [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) a[i] = std::uint8_t(i * 7);
    std::memset(b.get() + begin, 0, end - begin);
  });
}

std::uint32_t memoryRead(MemoryBuffers& m, ref::ThreadPool& pool) {
  std::vector<std::uint64_t> sums(MemoryBuffers::kMemoryBytes / kMemoryChunk);
  overChunks(pool, [&](std::size_t begin, std::size_t end) {
    std::uint64_t s[4] = {0, 0, 0, 0};  // four independent sums of 8-byte words
    for (std::size_t i = begin; i < end; i += 32) {
      std::uint64_t w[4];
      std::memcpy(w, m.a.get() + i, 32);
      for (int j = 0; j < 4; ++j) s[j] += w[j];
    }
    sums[begin / kMemoryChunk] = s[0] + s[1] + s[2] + s[3];
  });
  std::uint64_t total = 0;
  for (std::uint64_t s : sums) total += s;
  return std::uint32_t(total);
}

void memoryCopy(MemoryBuffers& m, ref::ThreadPool& pool) {
  overChunks(pool, [&](std::size_t begin, std::size_t end) { std::memcpy(m.b.get() + begin, m.a.get() + begin, end - begin); });
}

void memoryCopyStreaming(MemoryBuffers& m, ref::ThreadPool& pool) {
  overChunks(pool, [&](std::size_t begin, std::size_t end) {
#if defined(__SSE2__)
    for (std::size_t i = begin; i < end; i += 16)  // new[] of bytes: 16-byte aligned here
      _mm_stream_si128(reinterpret_cast<__m128i*>(m.b.get() + i),
                       _mm_load_si128(reinterpret_cast<const __m128i*>(m.a.get() + i)));
    _mm_sfence();
#else
    std::memcpy(m.b.get() + begin, m.a.get() + begin, end - begin);
#endif
  });
}

void memoryWriteStreaming(MemoryBuffers& m, ref::ThreadPool& pool) {
  overChunks(pool, [&](std::size_t begin, std::size_t end) {
#if defined(__SSE2__)
    const __m128i value = _mm_set1_epi32(int(begin));
    for (std::size_t i = begin; i < end; i += 16) _mm_stream_si128(reinterpret_cast<__m128i*>(m.b.get() + i), value);
    _mm_sfence();
#else
    std::memset(m.b.get() + begin, int(begin & 0xff), end - begin);
#endif
  });
}

}  // namespace satdof::bench
