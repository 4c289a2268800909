// bench/bench_compact.cpp — `satdof bench compact`: every registered compaction variant,
// timed.
//
// Cases: n = 2^20, 2^22, 2^24, 2^26, 2^28 uniform uint32 (2^26 and 2^28 left out by
// --quick), each at 1 %, 10 %, 50 % and 90 % selected by `value > threshold`, values
// out; and, as the depth-of-field pass uses it, values and indices out at 50 %. For each
// case and variant the output (count, values, indices) is checked once against the CPU
// reference (a mismatch is reported and makes the exit code 1), then timed (median of
// --repeats after --warmup, buffers rotated to stream from DRAM). GB/s counts the minimum
// any compaction moves: 4 bytes read per element plus 4 bytes written per selected value
// (and per index); % of the device-to-device copy measured in the same run; x cub =
// cub ms / variant ms.
#include <cuda_runtime_api.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "bench.h"
#include "bench_common.h"
#include "bench_random.h"
#include "satdof/compact.h"
#include "satdof/cuda_check.h"
#include "satdof/device_buffer.h"
#include "satdof/reference/compact.h"

namespace satdof::bench {
namespace {

constexpr std::string_view kFamily = "compact";
constexpr std::string_view kBaseline = "cub";

struct BenchCase {
  std::string name;
  double fraction;
  bool indices;
};

Predicate selecting(double fraction) {
  return {PredicateKind::Greater, static_cast<std::uint32_t>((1.0 - fraction) * 4294967295.0)};
}

// The data of one size: `sets` copies of input and outputs for rotation; set 0 checked.
struct SizeBuffers {
  std::size_t n = 0;
  std::size_t stride = 0;  // elements between sets (256-byte aligned)
  std::size_t sets = 1;
  std::vector<std::uint32_t> input;  // set 0's content
  DeviceBuffer<std::uint32_t> in, out, indices, count;
};

CompactArgs argsFor(SizeBuffers& buf, const BenchCase& c, std::size_t set) {
  CompactArgs args;
  args.in = buf.in.data() + set * buf.stride;
  args.out = buf.out.data() + set * buf.stride;
  args.indices = c.indices ? buf.indices.data() + set * buf.stride : nullptr;
  args.count = buf.count.data() + set * 64;
  args.n = buf.n;
  args.predicate = selecting(c.fraction);
  return args;
}

bool verify(const CompactVariant& v, const BenchCase& c, SizeBuffers& buf,
            const std::vector<std::uint32_t>& wantValues,
            const std::vector<std::uint32_t>& wantIndices, cudaStream_t stream) {
  CompactArgs args = argsFor(buf, c, 0);
  SATDOF_CUDA_CHECK(cudaMemsetAsync(args.out, 0xAB, buf.n * sizeof(std::uint32_t), stream));
  SATDOF_CUDA_CHECK(cudaMemsetAsync(args.count, 0xAB, sizeof(std::uint32_t), stream));
  const std::size_t scratchBytes = v.scratchBytes(args);
  DeviceBuffer<unsigned char> scratch(scratchBytes);
  SATDOF_CUDA_CHECK(v.launch(args, scratch.data(), scratchBytes, stream));
  SATDOF_CUDA_CHECK(cudaStreamSynchronize(stream));
  std::uint32_t count = 0;
  SATDOF_CUDA_CHECK(cudaMemcpy(&count, args.count, sizeof count, cudaMemcpyDeviceToHost));
  const auto fail = [&](const char* what, std::size_t at, std::uint32_t want, std::uint32_t got) {
    std::fprintf(stderr, "\nsatdof bench compact: %.*s, %s: WRONG %s at %zu: expected %u, got %u\n",
                 int(v.name.size()), v.name.data(), c.name.c_str(), what, at, want, got);
    return false;
  };
  if (count != wantValues.size()) return fail("count", 0, std::uint32_t(wantValues.size()), count);
  const auto compare = [&](const std::uint32_t* device, const std::vector<std::uint32_t>& want,
                           const char* what) {
    std::vector<std::uint32_t> got(want.size());
    SATDOF_CUDA_CHECK(cudaMemcpy(got.data(), device, got.size() * sizeof(std::uint32_t),
                                 cudaMemcpyDeviceToHost));
    for (std::size_t i = 0; i < want.size(); ++i)
      if (got[i] != want[i]) return fail(what, i, want[i], got[i]);
    return true;
  };
  if (!compare(args.out, wantValues, "value")) return false;
  return !c.indices || compare(args.indices, wantIndices, "index");
}

double timeVariant(const BenchOptions& options, const CompactVariant& v, const BenchCase& c,
                   SizeBuffers& buf, cudaStream_t stream) {
  const std::size_t scratchBytes = v.scratchBytes(argsFor(buf, c, 0));
  DeviceBuffer<unsigned char> scratch(scratchBytes);  // one scratch serves every set
  return timeMedianMs(options, buf.sets, stream, [&](std::size_t set) {
    return v.launch(argsFor(buf, c, set), scratch.data(), scratchBytes, stream);
  });
}

int run(const BenchOptions& options) {
  const auto selected = selectVariants<CompactVariant>(options, compactVariants(), kFamily);
  if (!selected) return 1;
  const DeviceInfo device = queryDevice();
  Stream stream;
  const double copyGBps = printHeader(
      options, device, stream.get(),
      "compact: uint32, value > threshold; GB/s counts 4 bytes read per element + 4 written "
      "per selected value (and index)");

  std::vector<int> logSizes{20, 22, 24};
  if (!options.quick) logSizes.insert(logSizes.end(), {26, 28});
  std::vector<BenchCase> perSize;
  for (int pct : {1, 10, 50, 90})
    perSize.push_back({std::to_string(pct) + "%", pct / 100.0, false});
  perSize.push_back({"50%+idx", 0.5, true});

  ResultTable table;
  Progress progress(logSizes.size() * perSize.size() * selected->size());
  bool allCorrect = true;
  for (int log2n : logSizes) {
    SizeBuffers buf;
    buf.n = std::size_t{1} << log2n;
    buf.stride = alignUp(buf.n * sizeof(std::uint32_t)) / sizeof(std::uint32_t);
    buf.sets = rotationSets(3 * buf.stride * sizeof(std::uint32_t), device);
    buf.in.resize(buf.sets * buf.stride);
    buf.out.resize(buf.sets * buf.stride);
    buf.indices.resize(buf.sets * buf.stride);
    buf.count.resize(buf.sets * 64);
    buf.input = uniformWords(buf.n, 0x5EED0000u + log2n);
    for (std::size_t s = 0; s < buf.sets; ++s)  // every set holds the same data
      SATDOF_CUDA_CHECK(cudaMemcpy(buf.in.data() + s * buf.stride, buf.input.data(),
                                   buf.n * sizeof(std::uint32_t), cudaMemcpyHostToDevice));

    for (const BenchCase& pc : perSize) {
      BenchCase c = pc;
      c.name = "n=2^" + std::to_string(log2n) + " " + pc.name;
      std::vector<std::uint32_t> wantValues, wantIndices;
      reference::compact(buf.input, selecting(c.fraction), &wantValues,
                         c.indices ? &wantIndices : nullptr);
      const double bytes =
          4.0 * double(buf.n) + 4.0 * double(wantValues.size()) * (c.indices ? 2.0 : 1.0);
      std::vector<ResultRow> rows;
      for (const CompactVariant* v : *selected) {
        progress.step(c.name + "  " + std::string(v->name));
        if (!verify(*v, c, buf, wantValues, wantIndices, stream.get())) {
          allCorrect = false;
          continue;
        }
        const double ms = timeVariant(options, *v, c, buf, stream.get());
        rows.push_back(makeRow(kFamily, v->name, c.name, ms, gigabytesPerSecond(bytes, ms), copyGBps));
      }
      table.addCase(std::move(rows), kBaseline);
    }
  }
  progress.finish();
  table.print(stdout, kBaseline);
  return writeFilesAndVerdict(table, options, device, copyGBps, kFamily, allCorrect);
}

}  // namespace

int runCompactBench(const BenchOptions& options) { return runGuarded(kFamily, options, run); }

}  // namespace satdof::bench
