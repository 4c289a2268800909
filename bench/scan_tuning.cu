// bench/scan_tuning.cu — satdof-scan-tuning: the sweep behind the launch shapes of
// `decoupled-lookback` and `blelloch-8-per-thread` (cuda/scan/variants.h).
//
// The registered variants are compiled for one shape each; this program instantiates the
// same kernel templates (scan/decoupled_lookback.cuh, scan/blelloch_8_per_thread.cuh) for
// several shapes and look-back delays and times them all in one run, side by side with
// the device-to-device copy and cub::DeviceScan, on one uint32 inclusive scan of 2^28
// elements (1 GiB in, 1 GiB out: far beyond L2). Every configuration's output is checked
// against a CPU scan before it is timed. CUDA events (bench_common's timeMedianMs), 3
// warm-up runs, median of 15.
//
//   satdof-scan-tuning [log2 n]      (default 28)
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "bench_common.h"
#include "satdof/device_buffer.h"
#include "scan/blelloch_8_per_thread.cuh"
#include "scan/decoupled_lookback.cuh"

namespace {

using satdof::DeviceBuffer;
using satdof::ScanArgs;
namespace d = satdof::detail;

using Launch = std::function<cudaError_t(const ScanArgs&, void*, std::size_t, cudaStream_t)>;

struct Config {
  std::string name;
  std::size_t scratch;
  Launch launch;
};

template <int Threads, int Items>
Config lookback(const ScanArgs& args, unsigned firstPollNs, unsigned pollNs) {
  const d::LookbackDelays delays{firstPollNs, pollNs};
  return {"decoupled-lookback " + std::to_string(Threads) + "x" + std::to_string(Items) +
              " wait " + std::to_string(firstPollNs) + "/" + std::to_string(pollNs) + " ns",
          d::makeLookbackPlan(args, Threads * Items).scratch,
          [delays](const ScanArgs& a, void* s, std::size_t b, cudaStream_t st) {
            const auto fixed = [delays](std::size_t) { return delays; };
            return d::launchDecoupledLookback<Threads, Items>(a, s, b, fixed, st);
          }};
}

template <int Threads>
struct B8 {
  template <class T>
  using Tile = d::Blelloch8TileOf<T, Threads>;
};

template <int Threads, d::HierarchyOrder Order>
Config blelloch8(const ScanArgs& args) {
  const char* order = Order == d::HierarchyOrder::ReduceThenScan ? "reduce-then-scan"
                                                                  : "scan-then-add";
  return {"blelloch-8-per-thread " + std::to_string(Threads) + "x8 " + order,
          d::hierarchyVariantScratchBytes<Threads * 8>(args),
          [](const ScanArgs& a, void* s, std::size_t b, cudaStream_t st) {
            return d::launchHierarchy<B8<Threads>::template Tile, Order>(a, s, b, st);
          }};
}

// The registry's own entry (cub::DeviceScan), as the bench runs it.
Config registered(std::string_view name, const ScanArgs& args) {
  const satdof::ScanVariant& v = *satdof::findScanVariant(name);
  return {std::string(v.name), v.scratchBytes(args), v.launch};
}

}  // namespace

int main(int argc, char** argv) {
  const int log2n = argc > 1 ? std::atoi(argv[1]) : 28;
  if (log2n < 10 || log2n > 30) {
    std::fprintf(stderr, "satdof-scan-tuning: log2 n must be in 10..30, got '%s'\n", argv[1]);
    return 2;
  }
  const std::size_t n = std::size_t{1} << log2n;
  const double gb = 2.0 * n * sizeof(std::uint32_t) / 1e9;  // read + written

  std::vector<std::uint32_t> host(n), expected(n), got(n);
  std::mt19937 rng(std::random_device{}());
  for (auto& v : host) v = rng();
  std::uint32_t sum = 0;
  for (std::size_t i = 0; i < n; ++i) expected[i] = sum += host[i];

  DeviceBuffer<std::uint32_t> in(n), out(n);
  SATDOF_CUDA_CHECK(cudaMemcpy(in.data(), host.data(), n * 4, cudaMemcpyHostToDevice));
  ScanArgs args;
  args.in = in.data();
  args.out = out.data();
  args.length = n;

  // Tile shapes (no wait), then the registered shape's waits, then the 8-per-thread block
  // sizes and hierarchy orders.
  std::vector<Config> configs;
  configs.push_back(registered("cub", args));
  configs.push_back(lookback<256, 16>(args, 0, 128));
  configs.push_back(lookback<128, 16>(args, 0, 128));
  configs.push_back(lookback<128, 24>(args, 0, 128));
  configs.push_back(lookback<64, 32>(args, 0, 128));
  configs.push_back(lookback<128, 32>(args, 0, 128));
  configs.push_back(lookback<256, 32>(args, 0, 128));
  configs.push_back(lookback<128, 64>(args, 0, 128));
  for (unsigned first : {1000u, 2000u, 3000u, 4000u, 6000u})
    configs.push_back(lookback<128, 32>(args, first, 128));
  configs.push_back(lookback<128, 32>(args, 3000, 0));
  configs.push_back(lookback<128, 32>(args, 3000, 600));
  configs.push_back(lookback<256, 16>(args, 3000, 128));
  configs.push_back(lookback<256, 32>(args, 3000, 128));
  configs.push_back(blelloch8<256, d::HierarchyOrder::ScanThenAdd>(args));
  configs.push_back(blelloch8<64, d::HierarchyOrder::ScanThenAdd>(args));
  configs.push_back(blelloch8<32, d::HierarchyOrder::ReduceThenScan>(args));
  configs.push_back(blelloch8<64, d::HierarchyOrder::ReduceThenScan>(args));
  configs.push_back(blelloch8<128, d::HierarchyOrder::ReduceThenScan>(args));
  configs.push_back(blelloch8<256, d::HierarchyOrder::ReduceThenScan>(args));

  satdof::bench::BenchOptions timing;
  timing.warmup = 3;
  timing.repeats = 15;
  satdof::bench::Stream stream;
  const double copyMs = satdof::bench::timeMedianMs(timing, 1, stream.get(), [&](std::size_t) {
    return cudaMemcpyAsync(out.data(), in.data(), n * 4, cudaMemcpyDeviceToDevice, stream.get());
  });
  const double copyGBps = gb / (copyMs * 1e-3);
  std::printf("%s, uint32 inclusive scan of 2^%d; copy %.4f ms = %.0f GB/s\n",
              satdof::bench::queryDevice().name.c_str(), log2n, copyMs, copyGBps);

  double cubMs = 0;
  int failures = 0;
  for (const Config& c : configs) {
    DeviceBuffer<std::byte> scratch(std::max<std::size_t>(c.scratch, 1));
    SATDOF_CUDA_CHECK(cudaMemsetAsync(out.data(), 0xAB, n * 4, stream.get()));  // poison
    SATDOF_CUDA_CHECK(c.launch(args, scratch.data(), c.scratch, stream.get()));
    SATDOF_CUDA_CHECK(cudaMemcpyAsync(got.data(), out.data(), n * 4, cudaMemcpyDeviceToHost,
                                      stream.get()));
    SATDOF_CUDA_CHECK(cudaStreamSynchronize(stream.get()));
    const bool ok = got == expected;
    failures += !ok;
    const double ms = satdof::bench::timeMedianMs(timing, 1, stream.get(), [&](std::size_t) {
      return c.launch(args, scratch.data(), c.scratch, stream.get());
    });
    if (cubMs == 0) cubMs = ms;
    std::printf("  %-58s %8.4f ms %6.0f GB/s %5.1f %% of copy %5.2fx cub %s\n", c.name.c_str(),
                ms, gb / (ms * 1e-3), 100.0 * copyMs / ms, cubMs / ms, ok ? "" : "WRONG");
    std::fflush(stdout);
  }
  return failures == 0 ? 0 : 1;
}
