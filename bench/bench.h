// bench/bench.h — entry points of `satdof bench <family>`.
//
// Each family iterates the same registry the UI and the tests use, times every variant
// with CUDA events (warm-up, then the median of many runs), and reports ms, GB/s, % of
// the device-to-device copy bandwidth and the ratio to the library baseline, all
// measured in the same run. Progress goes to stderr, the table to stdout.
#pragma once

#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace satdof::bench {

struct BenchOptions {
  std::string jsonPath;               // --json FILE (empty: none)
  std::string csvPath;                // --csv FILE (empty: none)
  std::vector<std::string> variants;  // --variant NAME (repeatable; empty: all)
  int warmup = 5;                     // --warmup N
  int repeats = 30;                   // --repeats N (median of these)
  bool quick = false;                 // --quick: small sizes only (smoke runs)
};

// Each returns the process exit code (0 on success; 1 if a result was wrong or CUDA failed).
int runScanBench(const BenchOptions& options);
int runConvBench(const BenchOptions& options);
int runSatBench(const BenchOptions& options);
int runCompactBench(const BenchOptions& options);
int runSortBench(const BenchOptions& options);

// Why no benchmark can run here (no CUDA device, a driver too old, ...), one plain line;
// nullopt when a device answers.
std::optional<std::string> whyNoBenchDevice();

// The exit code of a bench that found no device: the same as a backend that is not there.
inline constexpr int kExitNoDevice = 3;

// The dispatch of `satdof bench <family>` (1 for an unknown family or variant, said with
// the known ones before any device is needed; kExitNoDevice without a device, one line).
inline int runBenchFamily(std::string_view family, const BenchOptions& options) {
  if (family == "scan") return runScanBench(options);
  if (family == "conv") return runConvBench(options);
  if (family == "sat") return runSatBench(options);
  if (family == "compact") return runCompactBench(options);
  if (family == "sort") return runSortBench(options);
  return 1;
}

}  // namespace satdof::bench
