// bench/bench_sort.cpp — `satdof bench sort`: every registered radix-sort variant, timed.
//
// Cases: n = 2^20, 2^22, 2^24, 2^26, 2^28 pairs of uniform 32-bit keys (top bit set in
// half of them) and 32-bit values (2^26 and 2^28 left out by --quick), all 32 key bits,
// out of place. For each case and variant the output is checked once against the CPU
// reference (keys and values: values are the input positions, so stability is checked
// too; a mismatch is reported and makes the exit code 1), then timed (median of
// --repeats after --warmup, buffers rotated to stream from DRAM). GB/s counts the minimum
// any sort moves, 2 x 8 bytes per pair (each pair read once and written once), so % of
// copy reads as "the sort costs 100 / % copy copies of the data"; x cub = cub ms /
// variant ms.
#include <cuda_runtime_api.h>

#include <cstdint>
#include <cstdio>
#include <numeric>
#include <tuple>
#include <string>
#include <vector>

#include "bench.h"
#include "bench_common.h"
#include "bench_random.h"
#include "satdof/cuda_check.h"
#include "satdof/device_buffer.h"
#include "satdof/reference/sort.h"
#include "satdof/sort.h"

namespace satdof::bench {
namespace {

constexpr std::string_view kFamily = "sort";
constexpr std::string_view kBaseline = "cub";

struct SizeBuffers {
  std::size_t n = 0;
  std::size_t stride = 0;
  std::size_t sets = 1;
  DeviceBuffer<std::uint32_t> keysIn, valuesIn, keysOut, valuesOut;
};

SortArgs argsFor(SizeBuffers& buf, std::size_t set) {
  SortArgs args;
  const std::size_t at = set * buf.stride;
  args.keysIn = buf.keysIn.data() + at;
  args.valuesIn = buf.valuesIn.data() + at;
  args.keysOut = buf.keysOut.data() + at;
  args.valuesOut = buf.valuesOut.data() + at;
  args.n = buf.n;
  return args;
}

bool verify(const SortVariant& v, const std::string& caseName, SizeBuffers& buf,
            const std::vector<std::uint32_t>& wantKeys,
            const std::vector<std::uint32_t>& wantValues, cudaStream_t stream) {
  const SortArgs args = argsFor(buf, 0);
  const std::size_t bytes = buf.n * sizeof(std::uint32_t);
  SATDOF_CUDA_CHECK(cudaMemsetAsync(args.keysOut, 0xAB, bytes, stream));
  SATDOF_CUDA_CHECK(cudaMemsetAsync(args.valuesOut, 0xAB, bytes, stream));
  const std::size_t scratchBytes = v.scratchBytes(args);
  DeviceBuffer<unsigned char> scratch(scratchBytes);
  SATDOF_CUDA_CHECK(v.launch(args, scratch.data(), scratchBytes, stream));
  SATDOF_CUDA_CHECK(cudaStreamSynchronize(stream));
  std::vector<std::uint32_t> got(buf.n);
  for (const auto& [device, want, what] :
       {std::tuple{args.keysOut, &wantKeys, "key"}, std::tuple{args.valuesOut, &wantValues, "value"}}) {
    SATDOF_CUDA_CHECK(cudaMemcpy(got.data(), device, bytes, cudaMemcpyDeviceToHost));
    for (std::size_t i = 0; i < buf.n; ++i) {
      if (got[i] != (*want)[i]) {
        std::fprintf(stderr, "\nsatdof bench sort: %.*s, %s: WRONG %s at %zu: expected %u, got %u\n",
                     int(v.name.size()), v.name.data(), caseName.c_str(), what, i, (*want)[i],
                     got[i]);
        return false;
      }
    }
  }
  return true;
}

int run(const BenchOptions& options) {
  const auto selected = selectVariants<SortVariant>(options, sortVariants(), kFamily);
  if (!selected) return 1;
  const DeviceInfo device = queryDevice();
  Stream stream;
  const double copyGBps = printHeader(
      options, device, stream.get(),
      "sort: uint32 keys (all 32 bits) with uint32 values, out of place; GB/s counts 2 x 8 "
      "bytes per pair");

  std::vector<int> logSizes{20, 22, 24};
  if (!options.quick) logSizes.insert(logSizes.end(), {26, 28});

  ResultTable table;
  Progress progress(logSizes.size() * selected->size());
  bool allCorrect = true;
  for (int log2n : logSizes) {
    const std::string caseName = "n=2^" + std::to_string(log2n);
    SizeBuffers buf;
    buf.n = std::size_t{1} << log2n;
    buf.stride = alignUp(buf.n * sizeof(std::uint32_t)) / sizeof(std::uint32_t);
    buf.sets = rotationSets(4 * buf.stride * sizeof(std::uint32_t), device);
    for (auto* b : {&buf.keysIn, &buf.valuesIn, &buf.keysOut, &buf.valuesOut})
      b->resize(buf.sets * buf.stride);
    const std::vector<std::uint32_t> keys = uniformWords(buf.n, 0x50A7000u + log2n);
    std::vector<std::uint32_t> values(buf.n);
    std::iota(values.begin(), values.end(), 0u);
    for (std::size_t s = 0; s < buf.sets; ++s) {
      const std::size_t at = s * buf.stride;
      SATDOF_CUDA_CHECK(cudaMemcpy(buf.keysIn.data() + at, keys.data(),
                                   buf.n * sizeof(std::uint32_t), cudaMemcpyHostToDevice));
      SATDOF_CUDA_CHECK(cudaMemcpy(buf.valuesIn.data() + at, values.data(),
                                   buf.n * sizeof(std::uint32_t), cudaMemcpyHostToDevice));
    }
    std::vector<std::uint32_t> wantKeys = keys, wantValues = values;
    reference::sortPairs(wantKeys, wantValues);

    std::vector<ResultRow> rows;
    for (const SortVariant* v : *selected) {
      progress.step(caseName + "  " + std::string(v->name));
      if (!verify(*v, caseName, buf, wantKeys, wantValues, stream.get())) {
        allCorrect = false;
        continue;
      }
      const std::size_t scratchBytes = v->scratchBytes(argsFor(buf, 0));
      DeviceBuffer<unsigned char> scratch(scratchBytes);
      const double ms = timeMedianMs(options, buf.sets, stream.get(), [&](std::size_t set) {
        return v->launch(argsFor(buf, set), scratch.data(), scratchBytes, stream.get());
      });
      rows.push_back(makeRow(kFamily, v->name, caseName, ms,
                             gigabytesPerSecond(16.0 * double(buf.n), ms), copyGBps));
    }
    table.addCase(std::move(rows), kBaseline);
  }
  progress.finish();
  table.print(stdout, kBaseline);
  return writeFilesAndVerdict(table, options, device, copyGBps, kFamily, allCorrect);
}

}  // namespace

int runSortBench(const BenchOptions& options) { return runGuarded(kFamily, options, run); }

}  // namespace satdof::bench
