// tests/compact_sort_support.h — shared by the compaction and sort GPU tests: host <->
// device copies of uint32 vectors, poisoned buffers, and the CUDA assertion.
#pragma once

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cctype>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "satdof/device_buffer.h"

#define ASSERT_CUDA_OK(expr)                                                             \
  do {                                                                                   \
    const cudaError_t testErr_ = (expr);                                                 \
    ASSERT_EQ(testErr_, cudaSuccess) << #expr << ": " << cudaGetErrorString(testErr_);   \
  } while (0)

namespace satdof::test {

inline constexpr std::uint32_t kPoisonWord = 0xABABABABu;  // memset(0xAB) of a word

// A device copy of `host` (at least one element, so the pointer is never null).
inline DeviceBuffer<std::uint32_t> toDevice(const std::vector<std::uint32_t>& host) {
  DeviceBuffer<std::uint32_t> d(host.empty() ? 1 : host.size());
  if (!host.empty())
    SATDOF_CUDA_CHECK(cudaMemcpy(d.data(), host.data(), host.size() * sizeof(std::uint32_t),
                                 cudaMemcpyHostToDevice));
  return d;
}

// `count` words (at least one) filled with kPoisonWord.
inline DeviceBuffer<std::uint32_t> poisoned(std::size_t count) {
  DeviceBuffer<std::uint32_t> d(count ? count : 1);
  SATDOF_CUDA_CHECK(cudaMemset(d.data(), 0xAB, d.bytes()));
  return d;
}

inline std::vector<std::uint32_t> toHost(const std::uint32_t* device, std::size_t count) {
  std::vector<std::uint32_t> host(count);
  if (count)
    SATDOF_CUDA_CHECK(cudaMemcpy(host.data(), device, count * sizeof(std::uint32_t),
                                 cudaMemcpyDeviceToHost));
  return host;
}

// Scratch of `bytes` plus a guard zone that must come back untouched.
class GuardedScratch {
 public:
  static constexpr std::size_t kGuardBytes = 256;
  explicit GuardedScratch(std::size_t bytes) : bytes_(bytes), buf_(bytes + kGuardBytes) {
    SATDOF_CUDA_CHECK(cudaMemset(buf_.data() + bytes, 0xCD, kGuardBytes));
  }
  void* data() { return bytes_ ? buf_.data() : nullptr; }
  std::size_t bytes() const { return bytes_; }
  bool guardIntact() const {
    std::vector<unsigned char> g(kGuardBytes);
    SATDOF_CUDA_CHECK(cudaMemcpy(g.data(), buf_.data() + bytes_, kGuardBytes,
                                 cudaMemcpyDeviceToHost));
    for (unsigned char b : g)
      if (b != 0xCD) return false;
    return true;
  }

 private:
  std::size_t bytes_;
  DeviceBuffer<unsigned char> buf_;
};

// Index of the first difference, or -1.
inline long long firstMismatch(const std::vector<std::uint32_t>& want,
                               const std::vector<std::uint32_t>& got) {
  if (want.size() != got.size()) return 0;
  for (std::size_t i = 0; i < want.size(); ++i)
    if (want[i] != got[i]) return static_cast<long long>(i);
  return -1;
}

// One byte less scratch than asked for is refused, not launched; then no error pending.
template <class Variant, class Args>
void expectRejectsShortScratch(const Variant& variant, const Args& args) {
  if (const std::size_t need = variant.scratchBytes(args); need > 0) {
    DeviceBuffer<unsigned char> scratch(need);
    EXPECT_EQ(variant.launch(args, scratch.data(), need - 1, nullptr), cudaErrorInvalidValue)
        << "scratch one byte short of " << need;
  }
  ASSERT_CUDA_OK(cudaDeviceSynchronize());
  ASSERT_CUDA_OK(cudaGetLastError());
}

// A gtest-safe name: every character that is not a letter or a digit becomes '_'.
inline std::string testName(std::string_view s) {
  std::string name(s);
  for (char& ch : name)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return name;
}

// 0 .. size - 1: one contract test per registry entry.
template <class Variant>
std::vector<std::size_t> indicesOf(std::span<const Variant> registry) {
  std::vector<std::size_t> v(registry.size());
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = i;
  return v;
}

// The registry itself: names findable and unique, descriptions given, the default
// registered, an unknown name not found.
template <class Variant, class Find>
void expectWellFormedRegistry(std::span<const Variant> registry, Find find,
                              const Variant& byDefault) {
  ASSERT_FALSE(registry.empty());
  for (const Variant& v : registry) {
    EXPECT_EQ(find(v.name), &v) << v.name;
    EXPECT_FALSE(v.description.empty()) << v.name;
  }
  EXPECT_EQ(find("no-such-variant"), nullptr);
  EXPECT_EQ(find(byDefault.name), &byDefault);
}

}  // namespace satdof::test
