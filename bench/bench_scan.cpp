// bench/bench_scan.cpp — `satdof bench scan`: every registered scan variant, timed.
//
// Cases: single arrays of 2^10 .. 2^28 uint32 (2^28 left out by --quick) and the row
// batches the SAT runs for a 1080p and a 4K RGBA frame (4 channel planes: 4*H rows of W
// for the row pass, 4*W rows of H after the transpose). All uint32, inclusive, packed.
// For each case and variant: the output is checked once against the CPU reference (a
// mismatch is reported and makes the exit code 1), then timed (median of --repeats after
// --warmup, inputs rotated over enough copies to stream from DRAM). Reported: ms, GB/s
// of 2 x 4 bytes per element (each element read once and written once: the minimum any
// scan moves), % of the device-to-device copy bandwidth measured in the same run, and the
// speed relative to `cub` (cub ms / variant ms). For the row batches `cub` runs one
// scan-by-key over the whole batch (see cuda/scan/cub_scan.cu), the library's own way
// to scan many independent rows in one call.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include "bench.h"
#include "bench_common.h"
#include "satdof/cuda_check.h"
#include "satdof/device_buffer.h"
#include "satdof/reference/scan.h"
#include "satdof/scan.h"

namespace satdof::bench {
namespace {

constexpr std::string_view kFamily = "scan";
constexpr std::string_view kBaseline = "cub";

struct BenchCase {
  std::string name;
  std::size_t rows;
  std::size_t length;
};

std::vector<BenchCase> benchCases(bool quick) {
  std::vector<BenchCase> cases;
  for (int log2n : {10, 16, 20, 24, 28}) {
    if (quick && log2n == 28) continue;
    cases.push_back({"n=2^" + std::to_string(log2n), 1, std::size_t{1} << log2n});
  }
  // The SAT's two scan passes over four channel planes.
  const auto frame = [&](const char* label, std::size_t w, std::size_t h) {
    const auto batch = [&](const char* pass, std::size_t rows, std::size_t length) {
      cases.push_back({std::string(label) + " " + pass + " " + std::to_string(rows) + "x" +
                           std::to_string(length),
                       rows, length});
    };
    batch("rows", 4 * h, w);
    batch("cols", 4 * w, h);
  };
  frame("1080p", 1920, 1080);
  frame("4K", 3840, 2160);
  return cases;
}

// Fast deterministic fill (xorshift64*): the content does not affect integer timing, and
// the wrap-around of full-range values is exercised by the check.
void fillRandom(std::vector<std::uint32_t>& v) {
  std::uint64_t x = 0x9E3779B97F4A7C15ull;
  for (auto& e : v) {
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    e = static_cast<std::uint32_t>((x * 0x2545F4914F6CDD1Dull) >> 32);
  }
}

// Everything one case needs on the device: `sets` input/output copies for rotation.
struct CaseBuffers {
  std::size_t stride = 0;  // elements between sets (256-byte aligned)
  std::size_t sets = 1;
  DeviceBuffer<std::uint32_t> in, out;
};

// Runs the variant once on set 0 and compares with `expected`; prints the first mismatch.
bool verify(const ScanVariant& v, const BenchCase& c, CaseBuffers& buf,
            const std::vector<std::uint32_t>& expected, cudaStream_t stream) {
  const std::size_t count = c.rows * c.length;
  SATDOF_CUDA_CHECK(cudaMemsetAsync(buf.out.data(), 0xAB, count * sizeof(std::uint32_t), stream));
  ScanArgs args{buf.in.data(), buf.out.data(), c.length, c.rows, 0, ScanType::U32,
                ScanOp::Inclusive};
  const std::size_t scratchBytes = v.scratchBytes(args);
  DeviceBuffer<unsigned char> scratch(scratchBytes);
  SATDOF_CUDA_CHECK(v.launch(args, scratch.data(), scratchBytes, stream));
  SATDOF_CUDA_CHECK(cudaStreamSynchronize(stream));
  std::vector<std::uint32_t> got(count);
  SATDOF_CUDA_CHECK(cudaMemcpy(got.data(), buf.out.data(), count * sizeof(std::uint32_t),
                               cudaMemcpyDeviceToHost));
  for (std::size_t i = 0; i < count; ++i) {
    if (got[i] != expected[i]) {
      std::fprintf(stderr, "\nsatdof bench scan: %.*s, %s: WRONG RESULT at row %zu, index %zu: "
                           "expected %u, got %u\n",
                   int(v.name.size()), v.name.data(), c.name.c_str(), i / c.length,
                   i % c.length, expected[i], got[i]);
      return false;
    }
  }
  return true;
}

double timeVariant(const BenchOptions& options, const ScanVariant& v, const BenchCase& c,
                   CaseBuffers& buf, cudaStream_t stream) {
  ScanArgs args{buf.in.data(), buf.out.data(), c.length, c.rows, 0, ScanType::U32,
                ScanOp::Inclusive};
  const std::size_t scratchBytes = v.scratchBytes(args);
  DeviceBuffer<unsigned char> scratch(scratchBytes);  // one scratch serves every set
  return timeMedianMs(options, buf.sets, stream, [&](std::size_t set) {
    ScanArgs a = args;
    a.in = buf.in.data() + set * buf.stride;
    a.out = buf.out.data() + set * buf.stride;
    return v.launch(a, scratch.data(), scratchBytes, stream);
  });
}

int run(const BenchOptions& options) {
  // ---- which variants -------------------------------------------------------------------
  const auto selected = selectVariants<ScanVariant>(options, scanVariants(), kFamily);
  if (!selected) return 1;
  const std::vector<const ScanVariant*>& variants = *selected;

  // ---- device and yardstick -------------------------------------------------------------
  const DeviceInfo device = queryDevice();
  Stream stream;
  const double copyGBps =
      printHeader(options, device, stream.get(),
                  "scan: uint32 inclusive; GB/s counts 2 x 4 bytes per element");

  // ---- cases ----------------------------------------------------------------------------
  const std::vector<BenchCase> cases = benchCases(options.quick);
  ResultTable table;
  Progress progress(cases.size() * variants.size());
  bool allCorrect = true;
  for (const BenchCase& c : cases) {
    const std::size_t count = c.rows * c.length;
    CaseBuffers buf;
    buf.stride = alignUp(count * sizeof(std::uint32_t)) / sizeof(std::uint32_t);
    buf.sets = rotationSets(2 * buf.stride * sizeof(std::uint32_t), device);
    buf.in.resize(buf.sets * buf.stride);
    buf.out.resize(buf.sets * buf.stride);

    // Set 0 holds checked data; the other sets only need to exist (timing does not
    // depend on the values).
    std::vector<std::uint32_t> input(count), expected(count);
    fillRandom(input);
    for (std::size_t r = 0; r < c.rows; ++r)
      reference::inclusiveScan<std::uint32_t>(
          std::span<const std::uint32_t>(input.data() + r * c.length, c.length),
          std::span<std::uint32_t>(expected.data() + r * c.length, c.length));
    SATDOF_CUDA_CHECK(cudaMemsetAsync(buf.in.data(), 0, buf.in.bytes(), stream.get()));
    SATDOF_CUDA_CHECK(cudaMemcpyAsync(buf.in.data(), input.data(), count * sizeof(std::uint32_t),
                                      cudaMemcpyHostToDevice, stream.get()));
    SATDOF_CUDA_CHECK(cudaStreamSynchronize(stream.get()));

    std::vector<ResultRow> caseRows;
    for (const ScanVariant* v : variants) {
      progress.step(c.name + "  " + std::string(v->name));
      if (!verify(*v, c, buf, expected, stream.get())) {
        allCorrect = false;
        continue;
      }
      const double ms = timeVariant(options, *v, c, buf, stream.get());
      const double gbps = gigabytesPerSecond(2.0 * double(count) * sizeof(std::uint32_t), ms);
      caseRows.push_back(makeRow(kFamily, v->name, c.name, ms, gbps, copyGBps));
    }
    table.addCase(std::move(caseRows), kBaseline);
  }
  progress.finish();

  // ---- output ---------------------------------------------------------------------------
  table.print(stdout, kBaseline);
  return writeFilesAndVerdict(table, options, device, copyGBps, kFamily, allCorrect);
}

}  // namespace

int runScanBench(const BenchOptions& options) { return runGuarded(kFamily, options, run); }

}  // namespace satdof::bench
