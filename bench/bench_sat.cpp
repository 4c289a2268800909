// bench/bench_sat.cpp — `satdof bench sat`: every SAT algorithm x scan variant x format,
// timed.
//
// Cases: RGBA8 images of 1280x720, 1920x1080, 3840x2160 and 7680x4320 (--quick: the first
// two), random content. Variants: every registered algorithm, built from every registered
// scan variant, in every format it builds, named "algorithm/scan". --variant NAME
// (repeatable) keeps the algorithms named, the scan variants named, or exact
// "algorithm/scan" pairs: `--variant reduce-then-scan --variant hillis-steele` is one
// pair, `--variant reduce-then-scan` all seven of its. Each is checked once against the CPU reference (byte for
// byte, satdof/reference/sat.h; a mismatch makes the exit code 1), then timed: median of
// --repeats after --warmup, CUDA events, images and tables rotated over enough copies to
// stream from DRAM.
//
// The yardstick is the floor: a SAT must read the image (4 B/pixel) and write the table
// (the format's entry: 16 B/pixel, uint21x3 8), 20 or 12 B/pixel, so GB/s counts the
// format's floor bytes per pixel whatever an algorithm really moves, and "% copy" is the
// share of the copy-bound floor time (floor ms / ms, the floor at the device-to-device
// copy bandwidth measured in the same run). The library baseline is NPP's
// nppiIntegral_8u32s_C1R (bench/npp_baseline.h), called once per channel on 4 pre-split
// 8-bit planes, 20 B/pixel (it writes uint32 sums) in every format's case; where NPP is
// absent a line says so and the ratio column shows "-".
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "bench.h"
#include "bench_common.h"
#include "npp_baseline.h"
#include "satdof/cuda_check.h"
#include "satdof/device_buffer.h"
#include "satdof/reference/sat.h"
#include "satdof/sat.h"
#include "satdof/sat_format.h"
#include "satdof/scan.h"

namespace satdof::bench {
namespace {

constexpr std::string_view kFamily = "sat";
constexpr std::string_view kBaseline = "npp";
constexpr double kImageBytesPerPixel = 4.0;
constexpr double kNppBytesPerPixel = 20.0;  // the image in, uint32 sums out

// What a SAT in `format` must move: the image read once, the table written once.
double floorBytesPerPixel(const SatFormatInfo& format) {
  return kImageBytesPerPixel + double(format.bytesPerPixel);
}

struct Size {
  int width, height;
};

// One timed configuration: an algorithm, a format, and the scan variant it is built from.
struct Config {
  const SatAlgorithm* algorithm;
  const SatFormatInfo* format;
  const ScanVariant* scan;
  std::string name() const { return std::string(algorithm->name) + "/" + std::string(scan->name); }
};

// --variant: algorithm names, scan-variant names and "algorithm/scan" pairs. A config is
// kept when its pair is named, or when it passes both the algorithm and the scan filter
// (an empty filter passes everything) and at least one of them was given.
struct Selection {
  std::vector<std::string> algorithms, scans, pairs;
  bool keeps(const Config& c) const {
    const auto named = [](const std::vector<std::string>& v, std::string_view n) {
      return std::find(v.begin(), v.end(), n) != v.end();
    };
    if (algorithms.empty() && scans.empty() && pairs.empty()) return true;
    if (named(pairs, c.name())) return true;
    if (algorithms.empty() && scans.empty()) return false;
    return (algorithms.empty() || named(algorithms, c.algorithm->name)) &&
           (scans.empty() || named(scans, c.scan->name));
  }
};

std::optional<Selection> selection(const BenchOptions& options) {
  Selection sel;
  for (const std::string& name : options.variants) {
    const auto slash = name.find('/');
    if (findSatAlgorithm(name)) sel.algorithms.push_back(name);
    else if (findScanVariant(name)) sel.scans.push_back(name);
    else if (slash != std::string::npos && findSatAlgorithm(name.substr(0, slash)) &&
             findScanVariant(name.substr(slash + 1)))
      sel.pairs.push_back(name);
    else {
      std::fprintf(stderr, "satdof bench %.*s: unknown variant '%s'; give a SAT algorithm, a "
                   "scan variant or algorithm/scan; known:", int(kFamily.size()), kFamily.data(),
                   name.c_str());
      for (const SatAlgorithm& a : satAlgorithms()) std::fprintf(stderr, " %.*s", int(a.name.size()), a.name.data());
      for (const ScanVariant& v : scanVariants()) std::fprintf(stderr, " %.*s", int(v.name.size()), v.name.data());
      std::fprintf(stderr, "\n");
      return std::nullopt;
    }
  }
  return sel;
}

std::vector<Config> configs(const Selection& sel) {
  std::vector<Config> out;
  for (const SatFormatInfo& f : satFormats())
    for (const SatAlgorithm& a : satAlgorithms()) {
      if (a.whyNot(f.id)) continue;
      for (const ScanVariant& v : scanVariants())
        if (const Config c{&a, &f, &v}; sel.keeps(c) && !whyNotWithScan(a, v)) out.push_back(c);
    }
  return out;
}

void fillRandom(std::vector<std::uint8_t>& v) {
  std::uint64_t x = 0x9E3779B97F4A7C15ull;
  for (std::size_t i = 0; i < v.size(); i += 4) {
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    const std::uint32_t r = static_cast<std::uint32_t>((x * 0x2545F4914F6CDD1Dull) >> 32);
    std::memcpy(&v[i], &r, 4);
  }
}

// Images and tables, `sets` copies of each for rotation.
struct Buffers {
  std::size_t sets = 1, imageStride = 0, tableStride = 0;
  DeviceBuffer<unsigned char> images, tables;
};

SatArgs argsFor(const Config& c, Size s, Buffers& buf, std::size_t set) {
  SatArgs a;
  a.source = SatSource::linear(buf.images.data() + set * buf.imageStride, std::size_t(s.width) * 4);
  a.width = s.width;
  a.height = s.height;
  a.format = c.format->id;
  a.table = buf.tables.data() + set * buf.tableStride;
  a.scan = c.scan;
  return a;
}

bool verify(const Config& c, Size s, Buffers& buf, const std::vector<std::uint8_t>& expected,
            DeviceBuffer<unsigned char>& scratch, cudaStream_t stream) {
  SatArgs a = argsFor(c, s, buf, 0);
  SATDOF_CUDA_CHECK(cudaMemsetAsync(a.table, 0xAB, expected.size(), stream));
  SATDOF_CUDA_CHECK(c.algorithm->launch(a, scratch.data(), scratch.size(), stream));
  SATDOF_CUDA_CHECK(cudaStreamSynchronize(stream));
  std::vector<std::uint8_t> got(expected.size());
  SATDOF_CUDA_CHECK(cudaMemcpy(got.data(), a.table, got.size(), cudaMemcpyDeviceToHost));
  if (std::memcmp(got.data(), expected.data(), got.size()) == 0) return true;
  std::size_t i = 0;
  while (got[i] == expected[i]) ++i;
  const std::size_t pixel = i / c.format->bytesPerPixel;
  std::fprintf(stderr, "\nsatdof bench sat: %s %s, %dx%d: WRONG RESULT at x=%zu y=%zu\n",
               c.name().c_str(), std::string(c.format->name).c_str(), s.width, s.height,
               pixel % s.width, pixel / s.width);
  return false;
}

int run(const BenchOptions& options) {
  // ---- which algorithms -----------------------------------------------------------------
  const auto selected = selection(options);
  if (!selected) return 1;
  const std::vector<Config> cfgs = configs(*selected);

  // ---- device and yardsticks ------------------------------------------------------------
  const DeviceInfo device = queryDevice();
  Stream stream;
  const double copyGBps = printHeader(
      options, device, stream.get(),
      "sat: RGBA8 in; GB/s counts the format's floor per pixel (read 4, write the entry: 20 B, "
      "uint21x3 12 B; npp 20 B); "
      "% copy = floor time at the copy bandwidth / time");
  NppBaseline npp;
  if (!npp.available()) std::printf("npp: skipped (%s)\n", npp.whyNot().c_str());

  std::vector<Size> sizes = {{1280, 720}, {1920, 1080}, {3840, 2160}, {7680, 4320}};
  if (options.quick) sizes.resize(2);

  ResultTable table;
  Progress progress(sizes.size() * (cfgs.size() + (npp.available() ? 1 : 0)));
  bool allCorrect = true;
  for (const Size s : sizes) {
    const std::size_t pixels = std::size_t(s.width) * s.height;
    const std::string size = std::to_string(s.width) + "x" + std::to_string(s.height);
    Buffers buf;
    buf.imageStride = alignUp(pixels * 4);
    buf.tableStride = alignUp(pixels * 16 + 256);
    buf.sets = rotationSets(buf.imageStride + buf.tableStride, device);
    buf.images.resize(buf.sets * buf.imageStride);
    buf.tables.resize(buf.sets * buf.tableStride);
    reference::ImageRgba8 image(s.width, s.height);
    fillRandom(image.pixels);
    for (std::size_t set = 0; set < buf.sets; ++set)
      SATDOF_CUDA_CHECK(cudaMemcpy(buf.images.data() + set * buf.imageStride, image.pixels.data(),
                                   pixels * 4, cudaMemcpyHostToDevice));

    // One case per format: its rows, and the NPP baseline in each (it is one program).
    double nppMs = std::nan("");
    if (npp.available()) {
      progress.step(size + "  npp");
      const reference::Sat ref32 = reference::computeSat(image);
      const auto r = npp.run(options, image, ref32, stream.get());
      if (!r.correct) std::printf("npp: %s: output differs from the reference (not used)\n", size.c_str());
      else nppMs = r.ms;
    }
    for (const SatFormatInfo& f : satFormats()) {
      const std::string caseName = size + " " + std::string(f.name);
      const std::vector<std::uint8_t> expected =
          reference::satTableBytesOf(reference::computeSat(image, f.id));
      std::vector<ResultRow> rows;
      if (!std::isnan(nppMs))
        rows.push_back(makeRow(kFamily, kBaseline, caseName, nppMs,
                               gigabytesPerSecond(kNppBytesPerPixel * pixels, nppMs), copyGBps));
      for (const Config& c : cfgs) {
        if (c.format->id != f.id) continue;
        progress.step(caseName + "  " + c.name());
        DeviceBuffer<unsigned char> scratch(c.algorithm->scratchBytes(argsFor(c, s, buf, 0)));
        if (!verify(c, s, buf, expected, scratch, stream.get())) {
          allCorrect = false;
          continue;
        }
        const double ms = timeMedianMs(options, buf.sets, stream.get(), [&](std::size_t set) {
          return c.algorithm->launch(argsFor(c, s, buf, set), scratch.data(), scratch.size(),
                                     stream.get());
        });
        rows.push_back(makeRow(kFamily, c.name(), caseName, ms,
                               gigabytesPerSecond(floorBytesPerPixel(f) * pixels, ms), copyGBps));
      }
      table.addCase(std::move(rows), kBaseline);
    }
  }
  progress.finish();

  // ---- output ---------------------------------------------------------------------------
  table.print(stdout, kBaseline);
  std::vector<double> floors;  // each format's, once
  for (const SatFormatInfo& f : satFormats())
    if (std::find(floors.begin(), floors.end(), floorBytesPerPixel(f)) == floors.end())
      floors.push_back(floorBytesPerPixel(f));
  for (const double floorBytes : floors) {
    std::printf("floor at the copy bandwidth (%.0f GB/s), %.0f B/pixel:", copyGBps, floorBytes);
    for (const Size s : sizes)
      std::printf("  %dx%d %.4f ms", s.width, s.height, floorBytes * s.width * s.height / copyGBps * 1e-6);
    std::printf("\n");
  }
  return writeFilesAndVerdict(table, options, device, copyGBps, kFamily, allCorrect);
}

}  // namespace

int runSatBench(const BenchOptions& options) { return runGuarded(kFamily, options, run); }

}  // namespace satdof::bench
