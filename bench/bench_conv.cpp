// bench/bench_conv.cpp — `satdof bench conv`: every registered convolution variant, timed.
//
// Cases (RGBA8, clamp border, tightly packed rows):
//   gaussian  1080p and 4K, r = 1, 2, 4, 7, 15, through every variant that supports it;
//   box       1080p and 4K, same radii: direct (basic, tiled) vs separable vs sat-box as
//             the radius grows.
// --quick keeps 1080p and r = 1, 2, 7. For each case and variant: the output is checked
// once against the CPU reference on five windows (four corners and the centre, each
// computed from a crop wide enough to be exact, so a 4K r = 15 check stays cheap; a
// mismatch is reported and makes the exit code 1), then timed (median of --repeats after
// --warmup, inputs rotated over enough copies to stream from DRAM). Reported: ms, GB/s of
// 8 bytes per pixel (one RGBA8 read and one written: the floor any variant moves), % of
// the device-to-device copy bandwidth measured in the same run, and the speed relative to
// `basic` (basic ms / variant ms). A closing block compares the results with the design
// targets (5x5 best, tiled near the floor, 15x15 separable, 31x31 box through the SAT).
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "bench.h"
#include "bench_common.h"
#include "satdof/conv2d.h"
#include "satdof/cuda_check.h"
#include "satdof/device_buffer.h"
#include "satdof/reference/conv.h"

namespace satdof::bench {
namespace {

constexpr std::string_view kFamily = "conv";
constexpr std::string_view kBaseline = "basic";
constexpr Border kBorder = Border::Clamp;
constexpr double kBytesPerPixel = 8.0;

struct Resolution {
  const char* label;
  int width, height;
};

struct BenchCase {
  std::string name;
  Resolution res;
  Filter filter;
};

std::vector<BenchCase> benchCases(bool quick) {
  std::vector<Resolution> resolutions{{"1080p", 1920, 1080}};
  if (!quick) resolutions.push_back({"4K", 3840, 2160});
  const std::vector<int> radii =
      quick ? std::vector<int>{1, 2, 7} : std::vector<int>{1, 2, 4, 7, 15};
  std::vector<BenchCase> cases;
  for (const char* kind : {"gaussian", "box"})
    for (const Resolution& res : resolutions)
      for (int r : radii) {
        Filter f = std::string_view(kind) == "box" ? box(r) : gaussian(r, defaultGaussianSigma(r));
        const int n = 2 * r + 1;
        cases.push_back({std::string(kind) + " " + res.label + " " + std::to_string(n) + "x" +
                             std::to_string(n),
                         res, std::move(f)});
      }
  return cases;
}

// Deterministic pseudo-random bytes (xorshift64*); the values do not affect timing.
reference::ImageRgba8 makeInput(int w, int h) {
  reference::ImageRgba8 img(w, h);
  std::uint64_t x = 0x9E3779B97F4A7C15ull;
  for (auto& p : img.pixels) {
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    p = std::uint8_t((x * 0x2545F4914F6CDD1Dull) >> 56);
  }
  return img;
}

// ---------------------------------------------------------------------------------------
// Windowed check against the CPU reference
// ---------------------------------------------------------------------------------------
struct Window {
  int x0, y0, x1, y1;  // output pixels checked, half-open
};

std::vector<Window> checkWindows(int w, int h) {
  const int s = std::min({80, w, h});
  return {{0, 0, s, s},
          {w - s, 0, w, s},
          {0, h - s, s, h},
          {w - s, h - s, w, h},
          {(w - s) / 2, (h - s) / 2, (w - s) / 2 + s, (h - s) / 2 + s}};
}

// The reference output for the window: computed on the input cropped to the window plus
// r on every side (clipped to the image). Where the crop stops inside the image no
// window pixel's taps reach past it; where it stops at the image edge, the border rule
// applies exactly as on the full image.
reference::ImageRgba8 referenceWindow(const reference::ImageRgba8& img, const Filter& f,
                                      ConvMath math, const Window& win) {
  const int r = f.radius;
  const int cx0 = std::max(win.x0 - r, 0), cy0 = std::max(win.y0 - r, 0);
  const int cx1 = std::min(win.x1 + r, img.width), cy1 = std::min(win.y1 + r, img.height);
  reference::ImageRgba8 crop(cx1 - cx0, cy1 - cy0);
  for (int y = cy0; y < cy1; ++y)
    std::copy_n(img.at(cx0, y), std::size_t(cx1 - cx0) * 4, crop.at(0, y - cy0));
  const reference::ImageRgba8 full = reference::convolve(crop, f, kBorder, math);
  reference::ImageRgba8 out(win.x1 - win.x0, win.y1 - win.y0);
  for (int y = win.y0; y < win.y1; ++y)
    std::copy_n(full.at(win.x0 - cx0, y - cy0), std::size_t(out.width) * 4, out.at(0, y - win.y0));
  return out;
}

// Everything one case needs on the device: `sets` input/output copies for rotation.
struct CaseBuffers {
  std::size_t stride = 0;  // bytes between sets (256-byte aligned)
  std::size_t sets = 1;
  DeviceBuffer<std::uint8_t> in, out;
};

ConvArgs argsFor(const BenchCase& c, CaseBuffers& buf, std::size_t set) {
  ConvArgs a;
  a.in = reinterpret_cast<const uchar4*>(buf.in.data() + set * buf.stride);
  a.inPitchBytes = std::size_t(c.res.width) * 4;
  a.out = reinterpret_cast<uchar4*>(buf.out.data() + set * buf.stride);
  a.outPitchBytes = a.inPitchBytes;
  a.width = c.res.width;
  a.height = c.res.height;
  a.filter = &c.filter;
  a.border = kBorder;
  return a;
}

// The reference windows of one case under one maths, computed once per case.
std::vector<reference::ImageRgba8> expectedWindows(const reference::ImageRgba8& input,
                                                   const BenchCase& c, ConvMath math) {
  std::vector<reference::ImageRgba8> out;
  for (const Window& win : checkWindows(c.res.width, c.res.height))
    out.push_back(referenceWindow(input, c.filter, math, win));
  return out;
}

// Runs the variant once on set 0 and compares the check windows with the reference.
bool verify(const ConvVariant& v, const BenchCase& c, CaseBuffers& buf,
            const std::vector<reference::ImageRgba8>& expected, void* scratch,
            std::size_t scratchBytes, cudaStream_t stream) {
  const std::size_t bytes = std::size_t(c.res.width) * c.res.height * 4;
  SATDOF_CUDA_CHECK(cudaMemsetAsync(buf.out.data(), 0xCD, bytes, stream));
  SATDOF_CUDA_CHECK(v.launch(argsFor(c, buf, 0), scratch, scratchBytes, stream));
  SATDOF_CUDA_CHECK(cudaStreamSynchronize(stream));
  std::vector<std::uint8_t> got(bytes);
  SATDOF_CUDA_CHECK(cudaMemcpy(got.data(), buf.out.data(), bytes, cudaMemcpyDeviceToHost));
  const std::vector<Window> windows = checkWindows(c.res.width, c.res.height);
  for (std::size_t k = 0; k < windows.size(); ++k) {
    const Window& win = windows[k];
    for (int y = win.y0; y < win.y1; ++y)
      for (int x = win.x0; x < win.x1; ++x)
        for (int ch = 0; ch < 4; ++ch) {
          const std::uint8_t g = got[(std::size_t(y) * c.res.width + x) * 4 + ch];
          const std::uint8_t e = expected[k].at(x - win.x0, y - win.y0)[ch];
          if (g != e) {
            std::fprintf(stderr, "\nsatdof bench conv: %.*s, %s: WRONG RESULT at x=%d y=%d "
                                 "channel %d: expected %d, got %d\n",
                         int(v.name.size()), v.name.data(), c.name.c_str(), x, y, ch, e, g);
            return false;
          }
        }
  }
  return true;
}

// ---------------------------------------------------------------------------------------
// Design targets, read back from the table
// ---------------------------------------------------------------------------------------
double msOf(const ResultTable& t, std::string_view variant, const std::string& caseName) {
  for (const ResultRow& r : t.rows())
    if (r.variant == variant && r.caseName == caseName) return r.ms;
  return std::numeric_limits<double>::quiet_NaN();
}

double bestMs(const ResultTable& t, const std::string& caseName) {
  double best = std::numeric_limits<double>::quiet_NaN();
  for (const ResultRow& r : t.rows())
    if (r.caseName == caseName && !(r.ms >= best)) best = r.ms;
  return best;
}

void printTarget(const char* what, double value, double limit, const char* unit) {
  if (std::isnan(value) || std::isnan(limit)) {
    std::printf("  %-58s not measured\n", what);
    return;
  }
  std::printf("  %-58s %8.4f %s (target <= %.4f): %s\n", what, value, unit, limit,
              value <= limit ? "met" : "MISSED");
}

void printTargets(const ResultTable& t, double copyGBps) {
  const double floorMs = 3840.0 * 2160.0 * kBytesPerPixel / (copyGBps * 1e6);
  std::printf("\ndesign targets (4K, clamp border):\n");
  std::printf("  8-byte-per-pixel floor at copy bandwidth: %.4f ms\n", floorMs);
  printTarget("best 5x5 (gaussian, any variant)", bestMs(t, "gaussian 4K 5x5"), 0.06, "ms");
  for (const char* v : {"tiled-halo", "tiled-cached-halo"})
    for (const char* size : {"3x3", "5x5"}) {
      const std::string what = std::string(v) + ", gaussian " + size + ", time / floor";
      printTarget(what.c_str(), msOf(t, v, std::string("gaussian 4K ") + size) / floorMs, 1.5,
                  "x");
    }
  printTarget("separable, gaussian 15x15", msOf(t, "separable", "gaussian 4K 15x15"), 0.06, "ms");
  printTarget("sat-box 31x31 / sat-box 3x3",
              msOf(t, "sat-box", "box 4K 31x31") / msOf(t, "sat-box", "box 4K 3x3"), 1.2, "x");
  printTarget("sat-box 31x31 / best 3x3 box",
              msOf(t, "sat-box", "box 4K 31x31") / bestMs(t, "box 4K 3x3"), 1.2, "x");
}

int run(const BenchOptions& options) {
  // ---- which variants -------------------------------------------------------------------
  const auto selected = selectVariants<ConvVariant>(options, convVariants(), kFamily);
  if (!selected) return 1;
  const std::vector<const ConvVariant*>& variants = *selected;

  // ---- device and yardstick -------------------------------------------------------------
  const DeviceInfo device = queryDevice();
  Stream stream;
  const double copyGBps = printHeader(
      options, device, stream.get(),
      "conv: RGBA8, " + std::string(toString(kBorder)) + " border; GB/s counts 8 bytes per pixel");

  // ---- cases ----------------------------------------------------------------------------
  const std::vector<BenchCase> cases = benchCases(options.quick);
  ResultTable table;
  Progress progress(cases.size() * variants.size());
  bool allCorrect = true;
  const Resolution* loaded = nullptr;
  CaseBuffers buf;
  reference::ImageRgba8 input;
  for (const BenchCase& c : cases) {
    if (loaded == nullptr || loaded->width != c.res.width || loaded->height != c.res.height) {
      // New resolution: fresh buffers, set 0 holds the checked input.
      const std::size_t bytes = std::size_t(c.res.width) * c.res.height * 4;
      buf = CaseBuffers{};
      buf.stride = alignUp(bytes);
      buf.sets = rotationSets(2 * buf.stride, device);
      buf.in.resize(buf.sets * buf.stride);
      buf.out.resize(buf.sets * buf.stride);
      input = makeInput(c.res.width, c.res.height);
      SATDOF_CUDA_CHECK(cudaMemsetAsync(buf.in.data(), 0, buf.in.bytes(), stream.get()));
      SATDOF_CUDA_CHECK(cudaMemcpyAsync(buf.in.data(), input.pixels.data(), bytes,
                                        cudaMemcpyHostToDevice, stream.get()));
      SATDOF_CUDA_CHECK(cudaStreamSynchronize(stream.get()));
      loaded = &c.res;
    }
    std::vector<ResultRow> caseRows;
    std::map<ConvMath, std::vector<reference::ImageRgba8>> expected;  // per maths
    for (const ConvVariant* v : variants) {
      progress.step(c.name + "  " + std::string(v->name));
      if (v->supports(c.filter)) continue;  // e.g. sat-box for a gaussian
      auto it = expected.find(v->math);
      if (it == expected.end())
        it = expected.emplace(v->math, expectedWindows(input, c, v->math)).first;
      const std::size_t scratchBytes = v->scratchBytes(c.res.width, c.res.height);
      DeviceBuffer<std::uint8_t> scratch(scratchBytes);  // one scratch serves every set
      if (!verify(*v, c, buf, it->second, scratch.data(), scratchBytes, stream.get())) {
        allCorrect = false;
        continue;
      }
      const double ms = timeMedianMs(options, buf.sets, stream.get(), [&](std::size_t set) {
        return v->launch(argsFor(c, buf, set), scratch.data(), scratchBytes, stream.get());
      });
      const double pixels = double(c.res.width) * c.res.height;
      const double gbps = gigabytesPerSecond(kBytesPerPixel * pixels, ms);
      caseRows.push_back(makeRow(kFamily, v->name, c.name, ms, gbps, copyGBps));
    }
    table.addCase(std::move(caseRows), kBaseline);
  }
  progress.finish();

  // ---- output ---------------------------------------------------------------------------
  table.print(stdout, kBaseline);
  if (!options.quick) printTargets(table, copyGBps);
  return writeFilesAndVerdict(table, options, device, copyGBps, kFamily, allCorrect);
}

}  // namespace

int runConvBench(const BenchOptions& options) { return runGuarded(kFamily, options, run); }

}  // namespace satdof::bench
