// bench/bench_common.h — what every `satdof bench <family>` shares: timing, the copy
// bandwidth yardstick, buffer rotation, and the result table with its JSON / CSV forms.
//
//   DeviceInfo / queryDevice()   name, SM count, L2 size of the current device
//   rotationSets()               how many copies of a working set defeat the L2
//   timeMedianMs()               warm-up, then the median of per-run CUDA event times
//   measureCopyBandwidthGBps()   device-to-device cudaMemcpy, read + written bytes
//   ResultTable                  rows of {family, variant, case, ms, GB/s, % of copy,
//                                ratio to the family's baseline}; printed as a table,
//                                written as JSON and CSV
//   Progress                     one self-overwriting status line on stderr
//
// Conventions: GB/s counts bytes read plus bytes written, with GB = 1e9 bytes, for the
// kernels and for the copy alike, so "% of copy" compares like with like. The ratio to
// the baseline is baseline time / variant time: above 1 means faster than the baseline.
// CUDA failures throw satdof::CudaError (from SATDOF_CUDA_CHECK).
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdio>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bench.h"

namespace satdof::bench {

// ---------------------------------------------------------------------------------------
// Device and working sets
// ---------------------------------------------------------------------------------------
struct DeviceInfo {
  int ordinal = 0;
  std::string name;
  int computeMajor = 0;
  int computeMinor = 0;
  int smCount = 0;
  std::size_t l2Bytes = 0;
  std::size_t globalMemBytes = 0;
};

DeviceInfo queryDevice();

// A working set smaller than ~4x the L2 would be served from the L2 on repeated runs;
// the benches keep `sets` copies and rotate through them so every run streams from DRAM.
// Returns ceil(4 * L2 / workingSetBytes), at least 1.
std::size_t rotationSets(std::size_t workingSetBytes, const DeviceInfo& device);

// True when `name` passes the --variant filter (an empty filter passes everything).
bool isSelected(const BenchOptions& options, std::string_view name);

// The registry entries --variant selects, in registry order. An unknown name prints
// "satdof bench <family>: unknown variant 'x'; known: ..." and yields nothing
// (std::nullopt): the caller exits with code 1.
template <class Variant, class Registry>
std::optional<std::vector<const Variant*>> selectVariants(const BenchOptions& options,
                                                          const Registry& registry,
                                                          std::string_view family) {
  for (const std::string& name : options.variants) {
    bool known = false;
    for (const Variant& v : registry) known = known || v.name == name;
    if (!known) {
      std::fprintf(stderr, "satdof bench %.*s: unknown variant '%s'; known:", int(family.size()),
                   family.data(), name.c_str());
      for (const Variant& v : registry)
        std::fprintf(stderr, " %.*s", int(v.name.size()), v.name.data());
      std::fprintf(stderr, "\n");
      return std::nullopt;
    }
  }
  std::vector<const Variant*> selected;
  for (const Variant& v : registry)
    if (isSelected(options, v.name)) selected.push_back(&v);
  return selected;
}

// Owns a non-blocking stream (the benches' own, apart from the legacy default stream).
class Stream {
 public:
  Stream();
  ~Stream() { cudaStreamDestroy(stream_); }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  cudaStream_t get() const { return stream_; }

 private:
  cudaStream_t stream_ = nullptr;
};

// ---------------------------------------------------------------------------------------
// Timing
// ---------------------------------------------------------------------------------------
// Enqueues `run(set)` on `stream` options.warmup times untimed, then options.repeats times
// (at least 1), each between two CUDA events; `set` cycles through [0, sets). Returns the
// median elapsed time in milliseconds. `run` returns the cudaError_t of its launches; a
// failure throws CudaError.
double timeMedianMs(const BenchOptions& options, std::size_t sets, cudaStream_t stream,
                    const std::function<cudaError_t(std::size_t set)>& run);

// Device-to-device cudaMemcpyAsync over buffers of max(256 MiB, 4 x L2): GB/s of bytes
// read + written (2 x the copy size per copy), median of options.repeats copies.
double measureCopyBandwidthGBps(const BenchOptions& options, const DeviceInfo& device,
                                cudaStream_t stream);

// Measures the copy bandwidth and prints the report's head: the device, the copy, and
// `what` (the family's units and method). Returns the copy bandwidth in GB/s.
double printHeader(const BenchOptions& options, const DeviceInfo& device, cudaStream_t stream,
                   const std::string& what);

// GB/s (1e9 bytes per second) of `bytes` moved in `ms` milliseconds.
double gigabytesPerSecond(double bytes, double ms);

// ---------------------------------------------------------------------------------------
// Results
// ---------------------------------------------------------------------------------------
struct ResultRow {
  std::string family;           // "scan", "conv", ...
  std::string variant;          // registry name
  std::string caseName;         // "n=2^24", "4K rows (8640 x 3840)", ...
  double ms = 0.0;              // median time per run
  double gbps = 0.0;            // (bytes read + written) / time
  double pctCopy = 0.0;         // gbps / copy bandwidth * 100
  double ratioToBaseline = 0.0; // baseline ms / ms; NaN where the baseline did not run
};

// A row of one case; addCase() fills in its ratio to the baseline.
ResultRow makeRow(std::string_view family, std::string_view variant, const std::string& caseName,
                  double ms, double gbps, double copyGBps);

class ResultTable {
 public:
  void add(ResultRow row) { rows_.push_back(std::move(row)); }
  // Adds the rows of one case, each with ratioToBaseline = baseline ms / ms (NaN, printed
  // "-", when `baseline` is not among them).
  void addCase(std::vector<ResultRow> caseRows, std::string_view baseline);
  const std::vector<ResultRow>& rows() const { return rows_; }

  // Aligned text table; `baselineName` labels the ratio column ("x cub").
  void print(std::FILE* out, std::string_view baselineName) const;
  // {"device": {...}, "copyGBps": x, "results": [ {...}, ... ]}. Throws std::runtime_error
  // when the file cannot be written.
  void writeJson(const std::string& path, const DeviceInfo& device, double copyGBps) const;
  // Header line, then one line per row.
  void writeCsv(const std::string& path) const;

 private:
  std::vector<ResultRow> rows_;
};

// ---------------------------------------------------------------------------------------
// The end of every family's run
// ---------------------------------------------------------------------------------------
// Writes --json / --csv, then the verdict: 0, or 1 with a one-line message on stderr when
// some variant's output was wrong.
int writeFilesAndVerdict(const ResultTable& table, const BenchOptions& options,
                         const DeviceInfo& device, double copyGBps, std::string_view family,
                         bool allCorrect);

// Runs a family's bench; an exception (CUDA failure, unwritable file) becomes a one-line
// "satdof bench <family>: ..." on stderr and exit code 1.
int runGuarded(std::string_view family, const BenchOptions& options,
               int (*run)(const BenchOptions&));

// ---------------------------------------------------------------------------------------
// Progress on stderr: one line rewritten in place ("\r" + clear to end of line).
// ---------------------------------------------------------------------------------------
class Progress {
 public:
  explicit Progress(std::size_t total) : total_(total) {}
  ~Progress() { finish(); }
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  void step(const std::string& what);  // "[k/total] what"
  void finish();                       // ends the line (idempotent)

 private:
  std::size_t total_;
  std::size_t done_ = 0;
  bool open_ = false;
};

}  // namespace satdof::bench
