// bench/cpu_bench.cpp — satdof-cpu-bench: the CPU reference (the CPU backend's work) on
// one thread against all threads: reference::computeSat and reference::convolve with a
// gaussian r=2 and a box r=7 through every ConvMath that takes them, at 1920x1080 and
// 3840x2160, each on a ThreadPool of 1 and of N threads started before the clock (as
// the CPU backend keeps one). Prints the median of --repeats runs per cell (fewer for a
// slow case: the direct box r=7, 225 taps a pixel, takes seconds), the speedup and the
// target (cores x 0.7), and checks that both gave the same bytes. Needs no CUDA.
//
// The ceilings come first, measured the same way: the processor topology (logical
// threads, physical cores), a latency-bound fma chain (one dependent chain a thread:
// SMT siblings do not compete for it) and a throughput-bound multiply-add (32
// independent lanes: SMT siblings share one core's units), and the host's memory
// bandwidth: a read, a memcpy and a copy with streaming stores over 2 x 512 MiB. Each
// image case states the bytes a pixel it must move at least; its GB/s on 1 thread
// against the best copy's GB/s on N threads is its bandwidth ceiling ("bw ceil"): a
// memory-bound case cannot beat it, whatever the cores. A write with streaming stores
// alone is measured too: the SAT's table is written so.
//
// --profile then runs each case --repeats more times on the N-thread pool alone with a
// PoolProfile attached and splits its speedup S = T1 / W (W: the call's wall time) as
//   S = N x U x E,   U = B / (N x W) (how busy the threads were: imbalance, hand-out,
//   serial parts),   E = T1 / B (the work a thread does, against one thread alone:
//   turbo, shared caches and memory, recomputed halos),
// where B is the time all threads spent inside tasks; also the busiest thread against
// the mean, the call's time outside jobs (serial set-up), and how long a worker took to
// start a job (publish to its first task).
//
//   satdof-cpu-bench [--repeats N] [--threads T] [--quick] [--out FILE] [--only TEXT]
//                    [--profile]
//
// Sections: options | timing | the cases | profile | main.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "cpu_ceilings.h"
#include "engine/files/safe_write.h"
#include "satdof/reference/conv.h"
#include "satdof/reference/parallel.h"
#include "satdof/reference/sat.h"

namespace ref = satdof::reference;
namespace bench = satdof::bench;

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
  bool profile = false;  // split each speedup (see the top of this file)
};

[[noreturn]] void usage(const char* why) {
  std::fprintf(stderr,
               "satdof-cpu-bench: %s\n"
               "usage: satdof-cpu-bench [--repeats N] [--threads T] [--quick] [--out FILE] "
               "[--only TEXT] [--profile]\n",
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
    else if (a == "--profile") o.profile = true;
    else if (a == "--help") {
      std::printf("usage: satdof-cpu-bench [--repeats N] [--threads T] [--quick] [--out FILE] [--only TEXT] "
                  "[--profile]\n");
      std::exit(0);
    }
    else if (a == "--out" && i + 1 < argc) o.out = argv[++i];
    else if (a == "--only" && i + 1 < argc) o.only = argv[++i];
    else usage(("unknown argument '" + std::string(a) + "'").c_str());
  }
  return o;
}

// =====================================================================================
// timing
// =====================================================================================

// What a case leaves behind; a run writes one of them.
struct Output {
  ref::Sat sat;
  ref::ImageRgba8 image;
  std::unique_ptr<std::uint32_t[]> table;  // a table in memory the run allocated
  std::size_t tableWords = 0;
  std::uint32_t checksum = 0;
  bool operator==(const Output& o) const {
    return sat.values == o.sat.values && image.pixels == o.image.pixels && checksum == o.checksum &&
           tableWords == o.tableWords && std::equal(table.get(), table.get() + tableWords, o.table.get());
  }
};

struct Case {
  std::string name;
  std::function<void(const ref::ImageRgba8&, ref::ThreadPool&, Output&)> run;
  bool reusesOutput = false;  // true: the run writes into the previous run's Output
  bool perSize = true;        // false: once, not per image size (the machine's ceilings)
  double bytesPerPixel = 0;   // the least a run must move per pixel (0: not counted)
  double bytesPerRun = 0;     // or per run, for the memory ceilings
  double writtenPerPixel = 0;  // of bytesPerPixel, the bytes written
};

struct Timing {
  double ms1 = 0, msN = 0;  // medians
  double speedup = 0;       // median over the pairs of (1-thread ms / N-thread ms)
  int runs = 0;             // pairs of runs behind them
  double leastRatio = 0, mostRatio = 0;  // the spread of the pairs' ratios
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Runs the case on the 1-thread and the N-thread pool alternately, `repeats` pairs, fewer
// when it is so slow that the pairs would pass kBudgetMs (but at least one). Alternating
// keeps both runs of a pair under the same background load, which on a shared machine
// drifts, and the speedup is the median of the pairs' ratios (not the ratio of the
// medians, which pairs a quiet moment with a busy one). Only the call is timed: the
// previous result is freed before the clock starts.
Timing timePairs(const Case& c, const ref::ImageRgba8& img, int repeats, ref::ThreadPool& single,
                 ref::ThreadPool& all, Output& one, Output& many) {
  constexpr double kBudgetMs = 30000;
  auto timed = [&](ref::ThreadPool& pool, Output& out) {
    if (!c.reusesOutput) out = {};
    const auto t0 = std::chrono::steady_clock::now();
    c.run(img, pool, out);
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  };
  std::vector<double> ms1, msN, ratio;
  double spent = 0;
  for (int k = 0; k < repeats && (k == 0 || spent < kBudgetMs); ++k) {
    ms1.push_back(timed(single, one));
    msN.push_back(timed(all, many));
    ratio.push_back(ms1.back() / msN.back());
    spent += ms1.back() + msN.back();
  }
  return {median(ms1), median(msN), median(ratio), int(ms1.size()), *std::min_element(ratio.begin(), ratio.end()),
          *std::max_element(ratio.begin(), ratio.end())};
}

// =====================================================================================
// the cases
// =====================================================================================

std::vector<Case> ceilings(const std::shared_ptr<bench::MemoryBuffers>& memory) {
  const double bytes = double(bench::MemoryBuffers::kMemoryBytes);
  auto mem = [memory](auto f) {
    return [memory, f](const ref::ImageRgba8&, ref::ThreadPool& pool, Output& out) { f(*memory, pool, out); };
  };
  return {
      {"ceiling: fma latency",
       [](const ref::ImageRgba8&, ref::ThreadPool& p, Output& out) { out.checksum = bench::fmaLatency(p); }, false,
       false},
      {"ceiling: mul-add thruput",
       [](const ref::ImageRgba8&, ref::ThreadPool& p, Output& out) { out.checksum = bench::mulAddThroughput(p); },
       false, false},
      {"memory read", mem([](auto& m, auto& p, Output& out) { out.checksum = bench::memoryRead(m, p); }), false,
       false, 0, bytes},
      {"memory copy (memcpy)", mem([](auto& m, auto& p, Output&) { bench::memoryCopy(m, p); }), false, false, 0,
       2 * bytes},
      {"memory copy (stream)", mem([](auto& m, auto& p, Output&) { bench::memoryCopyStreaming(m, p); }), false,
       false, 0, 2 * bytes},
      {"memory write (stream)", mem([](auto& m, auto& p, Output&) { bench::memoryWriteStreaming(m, p); }), false,
       false, 0, bytes},
  };
}

// Bytes a pixel each must move at least: the SAT reads 4 and writes 16 (the N-thread
// run reads the image twice: 24; the 16 written are its writtenPerPixel, for the write
// ceiling); a convolution reads 4 and writes 4 (its taps, the separable one's float
// rows and the box sum's row sums stay in the cache).
std::vector<Case> imageCases() {
  std::vector<Case> list;
  list.push_back({"sat uint32, new table",
                  [](const ref::ImageRgba8& img, ref::ThreadPool& p, Output& out) {
                    out.tableWords = img.pixels.size();
                    out.table.reset(new std::uint32_t[out.tableWords]);  // not initialised
                    ref::computeSat(img, out.table.get(), p);
                  },
                  false, true, 20, 0, 16});
  list.push_back({"sat uint32, reused",
                  [](const ref::ImageRgba8& img, ref::ThreadPool& p, Output& out) { ref::computeSat(img, out.sat, p); },
                  true, true, 20, 0, 16});
  const satdof::Filter gauss = satdof::gaussian(2, satdof::defaultGaussianSigma(2));
  const satdof::Filter box = satdof::box(7);
  for (const auto& [filter, label] : {std::pair{gauss, "gaussian r2"}, {box, "box r7"}}) {
    for (satdof::ConvMath m :
         {satdof::ConvMath::Direct, satdof::ConvMath::Separable, satdof::ConvMath::BoxSum}) {
      if (m == satdof::ConvMath::BoxSum && filter.kind != satdof::FilterKind::Box) continue;
      list.push_back({std::string(label) + " " + std::string(satdof::toString(m)),
                      [f = filter, m](const ref::ImageRgba8& img, ref::ThreadPool& p, Output& out) {
                        ref::convolve(img, f, satdof::Border::Clamp, m, out.image, p);
                      },
                      true, true, 8});
    }
  }
  return list;
}

// =====================================================================================
// profile
// =====================================================================================

// The N-thread pool's figures over `repeats` more calls of a case (the top of this file):
// one line of the profile table. writeGBs: the streaming write's GB/s on N threads (0:
// not measured), for the write ceiling of a case that writes writtenPerPixel bytes.
std::string profileLine(const Case& c, const std::string& size, double pixels, const ref::ImageRgba8& img,
                        int repeats, ref::ThreadPool& all, Output& many, const Timing& t, double writeGBs) {
  ref::PoolProfile p;
  all.attach(&p);
  double wall = 0;
  for (int k = 0; k < repeats; ++k) {
    if (!c.reusesOutput) many = {};
    const auto t0 = std::chrono::steady_clock::now();
    c.run(img, all, many);
    wall += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  all.attach(nullptr);
  const double calls = repeats, n = all.size();
  double busy = 0, busiest = 0, wake = 0, wakeMost = 0;
  std::size_t joins = 0;
  for (std::size_t k = 0; k < p.busySeconds.size(); ++k) {
    busy += p.busySeconds[k];
    busiest = std::max(busiest, p.busySeconds[k]);
    if (k == 0) continue;
    wake += p.wakeSeconds[k];
    wakeMost = std::max(wakeMost, p.wakeMostSeconds[k]);
    joins += p.joins[k];
  }
  const double w = wall / calls, b = busy / calls, t1 = t.ms1 / 1e3;
  const double u = b / (n * w), e = b > 0 ? t1 / b : 0;
  const double wroteMs = writeGBs > 0 && c.writtenPerPixel > 0 ? c.writtenPerPixel * pixels / (writeGBs * 1e6) : 0;
  char line[320], ceil[16] = "-";
  if (wroteMs > 0) std::snprintf(ceil, sizeof ceil, "%.1fx", t.ms1 / wroteMs);
  std::snprintf(line, sizeof line,
                "%-25s %-10s %9.3f %5.1f %9.3f %5.1f%% %6.3f %7.2fx %6.2f %9.1f %6.1f/%-7.1f %6.1f %5.2f-%-6.2f %7s\n",
                c.name.c_str(), size.c_str(), w * 1e3, double(p.jobs) / calls, b * 1e3, 100 * u, e, n * u * e,
                busy > 0 ? busiest / (busy / n) : 0, (w - p.jobSeconds / calls) * 1e6,
                joins ? wake / double(joins) * 1e6 : 0, wakeMost * 1e6, p.jobs ? double(joins) / double(p.jobs) : 0,
                t.leastRatio, t.mostRatio, ceil);
  return line;
}

const char* kProfileHeader =
    "profile: N-thread pool, --repeats more calls each; speedup = N x util x eff (util: busy / (N x wall); eff: "
    "1-thread ms / busy)\n"
    "case                      size        wall ms  jobs   busy ms   util    eff  N*U*E busiest outside us "
    "wake us mean/most joined ratios     wr ceil\n";

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
  const bench::Topology topo = bench::hostTopology();
  std::ostringstream table;
  char line[320];
  std::snprintf(line, sizeof line,
                "satdof-cpu-bench: %u threads (hardware: %u logical, %u physical cores; %s), median of up to %d "
                "runs (1 and N threads alternating, on pools started before the clock; fewer past 30 s; speedup: "
                "median of the pairs' ratios), target speedup %.2f (threads x 0.7)\n",
                cores, topo.logical, topo.physicalCores, topo.model.empty() ? "?" : topo.model.c_str(), o.repeats,
                target);
  table << line;
  table << "load average (1 min) at the start: " << loadAverage() << "\n";
  std::snprintf(line, sizeof line, "%-25s %-10s %9s %9s %8s %6s %4s %5s %8s %8s %8s  %s\n", "case", "size",
                "1 thr ms", "N thr ms", "speedup", "target", "runs", "B/px", "1 GB/s", "N GB/s", "bw ceil",
                "bytes");
  table << line;
  std::fputs(table.str().c_str(), stdout);

  ref::ThreadPool single(1), all(cores);
  bool allMet = true, allSame = true;
  double bandwidthN = 0;  // the best copy's GB/s on N threads, read + written
  double writeN = 0;      // the streaming write's GB/s on N threads
  std::vector<std::string> profile;
  std::mt19937 rng(12345);
  std::uniform_int_distribution<int> byte(0, 255);
  std::vector<std::pair<int, int>> sizes{{1920, 1080}};
  if (!o.quick) sizes.push_back({3840, 2160});
  std::vector<Case> list = ceilings(std::make_shared<bench::MemoryBuffers>(all));
  for (Case& c : imageCases()) list.push_back(std::move(c));
  for (const auto& [w, h] : sizes) {
    ref::ImageRgba8 img(w, h);
    for (auto& p : img.pixels) p = std::uint8_t(byte(rng));
    for (const Case& c : list) {
      if (!c.perSize && w != sizes.front().first) continue;
      if (c.name.find(o.only) == std::string::npos) continue;
      Output one, many;
      const Timing t = timePairs(c, img, o.repeats, single, all, one, many);
      const bool same = one == many, isCase = c.perSize;
      allSame &= same;
      if (isCase) allMet &= t.speedup >= target;
      const double bytes = c.bytesPerRun + c.bytesPerPixel * double(w) * double(h);
      const double gb1 = bytes / (t.ms1 * 1e6), gbN = bytes / (t.msN * 1e6);
      if (c.name.starts_with("memory copy")) bandwidthN = std::max(bandwidthN, gbN);
      if (c.name.starts_with("memory write")) writeN = gbN;
      const std::string size = isCase ? std::to_string(w) + "x" + std::to_string(h) : "-";
      auto number = [](double v, const char* format) {
        char b[32];
        std::snprintf(b, sizeof b, format, v);
        return std::string(b);
      };
      const std::string bpp = c.bytesPerPixel > 0 ? number(c.bytesPerPixel, "%.0f") : "-";
      const std::string g1 = bytes > 0 ? number(gb1, "%.1f") : "-", gN = bytes > 0 ? number(gbN, "%.1f") : "-";
      const std::string ceil = isCase && bytes > 0 && bandwidthN > 0 ? number(bandwidthN / gb1, "%.1fx") : "-";
      std::snprintf(line, sizeof line, "%-25s %-10s %9.2f %9.2f %7.2fx %6s %4d %5s %8s %8s %8s  %s\n",
                    c.name.c_str(), size.c_str(), t.ms1, t.msN, t.speedup,
                    isCase ? number(target, t.speedup >= target ? "%.2f " : "%.2f!").c_str() : "-", t.runs,
                    bpp.c_str(), g1.c_str(), gN.c_str(), ceil.c_str(), same ? "same" : "DIFFERENT");
      std::fputs(line, stdout);
      std::fflush(stdout);
      table << line;
      if (o.profile) profile.push_back(profileLine(c, size, double(w) * h, img, o.repeats, all, many, t, writeN));
    }
  }
  std::snprintf(line, sizeof line, "%s; %s\n",
                allMet ? "every case meets the target" : "'!': below the target",
                allSame ? "1 and N threads gave identical bytes everywhere"
                        : "1 and N threads DIFFER");
  std::fputs(line, stdout);
  table << line << "bw ceil: the best copy's GB/s on N threads / the case's GB/s on 1 thread (the most a "
                   "memory-bound case can speed up)\n";
  if (o.profile) {
    std::string text = kProfileHeader;
    for (const std::string& l : profile) text += l;
    text += "busiest: the busiest thread's task time / the mean; outside: the call's time outside pool jobs; wake: "
            "a job's publication to a worker's first task; joined: workers that took part in a job (of N - 1); "
            "ratios: the least and most of the timed pairs; wr ceil: 1-thread ms / (bytes written at the streaming "
            "write's N-thread GB/s)\n";
    std::fputs(text.c_str(), stdout);
    table << text;
  }
  table
        << "load average (1 min) at the end: " << loadAverage() << "\n";
  if (!o.out.empty()) {
    try {
      satdof::files::writeFileAtomically(o.out, table.str());
    } catch (const satdof::files::WriteError& e) {
      std::fprintf(stderr, "satdof-cpu-bench: %s\n", e.what());
      return 1;
    }
  }
  return allSame ? 0 : 1;
}
