// bench/cpu_bench.cpp — satdof-cpu-bench: the CPU reference (the CPU backend's work) on
// one thread against all threads: reference::computeSat and reference::convolve with a
// gaussian r=2 and a box r=7 through every ConvMath that takes them, at 1920x1080 and
// 3840x2160. Prints the median of --repeats runs per cell (fewer for a slow case: the
// direct box r=7, 225 taps a pixel, takes seconds), the speedup and the target (cores x
// 0.7), and checks that both gave the same bytes. Needs no CUDA.
//
//   satdof-cpu-bench [--repeats N] [--threads T] [--quick] [--out FILE] [--only TEXT]
//
// Sections: options | timing | the cases | main.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <random>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "satdof/reference/conv.h"
#include "satdof/reference/parallel.h"
#include "satdof/reference/sat.h"

namespace ref = satdof::reference;

namespace {

// =====================================================================================
// options
// =====================================================================================

struct Options {
  int repeats = 5;
  unsigned threads = 0;  // 0: every hardware thread
  bool quick = false;    // 1920x1080 only
  std::string out;       // also write the table here
  std::string only;      // only the cases whose name contains this
};

[[noreturn]] void usage(const char* why) {
  std::fprintf(stderr,
               "satdof-cpu-bench: %s\n"
               "usage: satdof-cpu-bench [--repeats N] [--threads T] [--quick] [--out FILE] "
               "[--only TEXT]\n",
               why);
  std::exit(2);
}

Options parseOptions(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    auto value = [&]() -> long {
      if (i + 1 >= argc) usage("missing value");
      char* end = nullptr;
      const long v = std::strtol(argv[++i], &end, 10);
      if (*end != '\0' || v < 0 || v > 100000) usage("bad number");
      return v;
    };
    if (a == "--repeats") o.repeats = int(std::max(1l, value()));
    else if (a == "--threads") o.threads = unsigned(value());
    else if (a == "--quick") o.quick = true;
    else if (a == "--out" && i + 1 < argc) o.out = argv[++i];
    else if (a == "--only" && i + 1 < argc) o.only = argv[++i];
    else usage(("unknown argument '" + std::string(a) + "'").c_str());
  }
  return o;
}

// =====================================================================================
// timing
// =====================================================================================

// What a case leaves behind; a run writes one of the two.
struct Output {
  ref::Sat sat;
  ref::ImageRgba8 image;
  bool operator==(const Output& o) const {
    return sat.values == o.sat.values && image.pixels == o.image.pixels;
  }
};

struct Case {
  std::string name;
  std::function<void(const ref::ImageRgba8&, unsigned, Output&)> run;
  bool reusesOutput = false;  // true: the run writes into the previous run's Output
  bool perSize = true;        // false: once, not per image size (the machine's ceiling)
};

struct Timing {
  double ms1 = 0, msN = 0;  // medians
  double speedup = 0;       // median over the pairs of (1-thread ms / N-thread ms)
  int runs = 0;             // pairs of runs behind them
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Runs the case on 1 and on `threads` threads alternately, `repeats` pairs, fewer when
// it is so slow that the pairs would pass kBudgetMs (but at least one). Alternating keeps
// both runs of a pair under the same background load, which on a shared machine drifts,
// and the speedup is the median of the pairs' ratios (not the ratio of the medians,
// which pairs a quiet moment with a busy one). Only the call is timed: the previous
// result is freed before the clock starts.
Timing timePairs(const Case& c, const ref::ImageRgba8& img, int repeats, unsigned threads,
                 Output& one, Output& many) {
  constexpr double kBudgetMs = 30000;
  auto timed = [&](unsigned t, Output& out) {
    if (!c.reusesOutput) out = {};
    const auto t0 = std::chrono::steady_clock::now();
    c.run(img, t, out);
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  };
  std::vector<double> ms1, msN, ratio;
  double spent = 0;
  for (int k = 0; k < repeats && (k == 0 || spent < kBudgetMs); ++k) {
    ms1.push_back(timed(1, one));
    msN.push_back(timed(threads, many));
    ratio.push_back(ms1.back() / msN.back());
    spent += ms1.back() + msN.back();
  }
  return {median(ms1), median(msN), median(ratio), int(ms1.size())};
}

// =====================================================================================
// the cases
// =====================================================================================

// The machine's own ceiling: 64 independent chains of dependent fma, no memory traffic,
// split over the threads like the reference splits rows. On a shared or virtual machine
// this is what "2 cores" is really worth at the moment; the cases cannot beat it.
void calibration(const ref::ImageRgba8&, unsigned threads, Output& out) {
  constexpr std::size_t kChains = 64, kSteps = 2'000'000;
  std::vector<float> result(kChains);
  ref::parallelFor(
      kChains,
      [&](std::size_t b, std::size_t e) {
        for (std::size_t k = b; k < e; ++k) {
          float a = float(k);
          for (std::size_t i = 0; i < kSteps; ++i) a = std::fma(a, 0.9999999f, 1.0f);
          result[k] = a;
        }
      },
      threads);
  out.sat.values.assign(result.size(), 0);
  for (std::size_t k = 0; k < kChains; ++k) out.sat.values[k] = std::uint32_t(result[k]);
}

std::vector<Case> cases() {
  std::vector<Case> list;
  list.push_back({"machine ceiling (fma)", calibration, false, false});
  list.push_back({"sat uint32, new table",
                  [](const ref::ImageRgba8& img, unsigned t, Output& out) {
                    out.sat = ref::computeSat(img, t);
                  }});
  list.push_back({"sat uint32, reused",
                  [](const ref::ImageRgba8& img, unsigned t, Output& out) {
                    ref::computeSat(img, out.sat, t);
                  },
                  true});
  const satdof::Filter gauss = satdof::gaussian(2, satdof::defaultGaussianSigma(2));
  const satdof::Filter box = satdof::box(7);
  for (const auto& [filter, label] : {std::pair{gauss, "gaussian r2"}, {box, "box r7"}}) {
    for (satdof::ConvMath m :
         {satdof::ConvMath::Direct, satdof::ConvMath::Separable, satdof::ConvMath::BoxSum}) {
      if (m == satdof::ConvMath::BoxSum && filter.kind != satdof::FilterKind::Box) continue;
      list.push_back({std::string(label) + " " + std::string(satdof::toString(m)),
                      [f = filter, m](const ref::ImageRgba8& img, unsigned t, Output& out) {
                        out.image = ref::convolve(img, f, satdof::Border::Clamp, m, t);
                      }});
    }
  }
  return list;
}

// The 1-minute load average (Linux), or "?": a busy machine shrinks the speedups.
std::string loadAverage() {
  std::ifstream f("/proc/loadavg");
  std::string first;
  return f >> first ? first : std::string("?");
}

}  // namespace

// =====================================================================================
// main
// =====================================================================================

int main(int argc, char** argv) {
  const Options o = parseOptions(argc, argv);
  const unsigned cores = o.threads ? o.threads : ref::defaultThreadCount();
  const double target = std::max(1.0, 0.7 * cores);
  std::ostringstream table;
  char line[256];
  std::snprintf(line, sizeof line,
                "satdof-cpu-bench: %u threads (hardware: %u), median of up to %d runs (1 and N "
                "threads alternating; fewer past 30 s; speedup: median of the pairs' ratios), target "
                "speedup %.2f (threads x 0.7)\n",
                cores, ref::defaultThreadCount(), o.repeats, target);
  table << line;
  table << "load average (1 min) at the start: " << loadAverage() << "\n";
  std::snprintf(line, sizeof line, "%-22s %-10s %10s %10s %8s %7s %5s  %s\n", "case", "size",
                "1 thr ms", "N thr ms", "speedup", "target", "runs", "bytes");
  table << line;
  std::fputs(table.str().c_str(), stdout);

  bool allMet = true, allSame = true;
  std::mt19937 rng(12345);
  std::uniform_int_distribution<int> byte(0, 255);
  std::vector<std::pair<int, int>> sizes{{1920, 1080}};
  if (!o.quick) sizes.push_back({3840, 2160});
  for (const auto& [w, h] : sizes) {
    ref::ImageRgba8 img(w, h);
    for (auto& p : img.pixels) p = std::uint8_t(byte(rng));
    for (const Case& c : cases()) {
      if (!c.perSize && w != sizes.front().first) continue;
      if (c.name.find(o.only) == std::string::npos) continue;
      Output one, many;
      const Timing t = timePairs(c, img, o.repeats, cores, one, many);
      const double speedup = t.speedup;
      const bool same = one == many;
      allSame &= same;
      allMet &= speedup >= target;
      const std::string size = c.perSize ? std::to_string(w) + "x" + std::to_string(h) : "-";
      std::snprintf(line, sizeof line, "%-22s %-10s %10.2f %10.2f %7.2fx %6.2f%s %4d  %s\n",
                    c.name.c_str(), size.c_str(), t.ms1, t.msN, speedup, target,
                    speedup >= target ? " " : "!", t.runs, same ? "same" : "DIFFERENT");
      std::fputs(line, stdout);
      std::fflush(stdout);
      table << line;
    }
  }
  std::snprintf(line, sizeof line, "%s; %s\n",
                allMet ? "every case meets the target" : "'!': below the target",
                allSame ? "1 and N threads gave identical bytes everywhere"
                        : "1 and N threads DIFFER");
  std::fputs(line, stdout);
  table << line << "load average (1 min) at the end: " << loadAverage() << "\n";
  if (!o.out.empty()) {
    std::ofstream f(o.out);
    f << table.str();
    if (!f) {
      std::fprintf(stderr, "satdof-cpu-bench: cannot write %s\n", o.out.c_str());
      return 1;
    }
  }
  return allSame ? 0 : 1;
}
