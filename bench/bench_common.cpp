// bench/bench_common.cpp — timing, copy bandwidth, rotation and result output shared by
// the benches (see bench_common.h for the conventions).
//
// Sections: device queries | event timing | copy bandwidth | table | JSON | CSV | progress
#include "bench_common.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "engine/files/safe_write.h"
#include "satdof/device_buffer.h"

namespace satdof::bench {

// ---------------------------------------------------------------------------------------
// Device queries
// ---------------------------------------------------------------------------------------
std::optional<std::string> whyNoBenchDevice() {
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess) {
    cudaGetLastError();  // clear it
    return std::string(cudaGetErrorString(e));
  }
  if (count == 0) return "no CUDA device found";
  return std::nullopt;
}

namespace {
struct NoDevice : std::runtime_error {
  using std::runtime_error::runtime_error;
};
}  // namespace

DeviceInfo queryDevice() {
  if (const auto why = whyNoBenchDevice()) throw NoDevice(*why);
  DeviceInfo info;
  SATDOF_CUDA_CHECK(cudaGetDevice(&info.ordinal));
  cudaDeviceProp prop{};
  SATDOF_CUDA_CHECK(cudaGetDeviceProperties(&prop, info.ordinal));
  info.name = prop.name;
  info.computeMajor = prop.major;
  info.computeMinor = prop.minor;
  info.smCount = prop.multiProcessorCount;
  info.l2Bytes = static_cast<std::size_t>(std::max(prop.l2CacheSize, 0));
  info.globalMemBytes = prop.totalGlobalMem;
  return info;
}

std::size_t rotationSets(std::size_t workingSetBytes, const DeviceInfo& device) {
  if (workingSetBytes == 0) return 1;
  const std::size_t target = 4 * device.l2Bytes;
  return std::max<std::size_t>(1, (target + workingSetBytes - 1) / workingSetBytes);
}

bool isSelected(const BenchOptions& options, std::string_view name) {
  return options.variants.empty() ||
         std::find(options.variants.begin(), options.variants.end(), name) !=
             options.variants.end();
}

double gigabytesPerSecond(double bytes, double ms) { return ms > 0 ? bytes / (ms * 1e6) : 0.0; }

// ---------------------------------------------------------------------------------------
// Event timing: one pair of events per timed run, read after a single synchronisation
// ---------------------------------------------------------------------------------------
namespace {

// Owns the events of one measurement.
class EventPairs {
 public:
  explicit EventPairs(std::size_t count) : start_(count, nullptr), stop_(count, nullptr) {
    for (std::size_t i = 0; i < count; ++i) {
      SATDOF_CUDA_CHECK(cudaEventCreate(&start_[i]));
      SATDOF_CUDA_CHECK(cudaEventCreate(&stop_[i]));
    }
  }
  ~EventPairs() {
    for (cudaEvent_t e : start_)
      if (e) cudaEventDestroy(e);
    for (cudaEvent_t e : stop_)
      if (e) cudaEventDestroy(e);
  }
  EventPairs(const EventPairs&) = delete;
  EventPairs& operator=(const EventPairs&) = delete;

  cudaEvent_t start(std::size_t i) const { return start_[i]; }
  cudaEvent_t stop(std::size_t i) const { return stop_[i]; }

 private:
  std::vector<cudaEvent_t> start_;
  std::vector<cudaEvent_t> stop_;
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

}  // namespace

double timeMedianMs(const BenchOptions& options, std::size_t sets, cudaStream_t stream,
                    const std::function<cudaError_t(std::size_t set)>& run) {
  sets = std::max<std::size_t>(sets, 1);
  std::size_t set = 0;
  const auto next = [&] {
    const std::size_t s = set;
    set = (set + 1) % sets;
    return s;
  };
  for (int i = 0; i < options.warmup; ++i) SATDOF_CUDA_CHECK(run(next()));

  const std::size_t repeats = static_cast<std::size_t>(std::max(options.repeats, 1));
  EventPairs events(repeats);
  for (std::size_t i = 0; i < repeats; ++i) {
    SATDOF_CUDA_CHECK(cudaEventRecord(events.start(i), stream));
    SATDOF_CUDA_CHECK(run(next()));
    SATDOF_CUDA_CHECK(cudaEventRecord(events.stop(i), stream));
  }
  SATDOF_CUDA_CHECK(cudaStreamSynchronize(stream));
  std::vector<double> ms(repeats);
  for (std::size_t i = 0; i < repeats; ++i) {
    float elapsed = 0.0f;
    SATDOF_CUDA_CHECK(cudaEventElapsedTime(&elapsed, events.start(i), events.stop(i)));
    ms[i] = elapsed;
  }
  return median(std::move(ms));
}

// ---------------------------------------------------------------------------------------
// Copy bandwidth: the practical ceiling for a kernel that reads and writes each byte once
// ---------------------------------------------------------------------------------------
double measureCopyBandwidthGBps(const BenchOptions& options, const DeviceInfo& device,
                                cudaStream_t stream) {
  const std::size_t bytes = std::max<std::size_t>(std::size_t{256} << 20, 4 * device.l2Bytes);
  DeviceBuffer<unsigned char> src(bytes), dst(bytes);
  SATDOF_CUDA_CHECK(cudaMemsetAsync(src.data(), 1, bytes, stream));
  const double ms = timeMedianMs(options, 1, stream, [&](std::size_t) {
    return cudaMemcpyAsync(dst.data(), src.data(), bytes, cudaMemcpyDeviceToDevice, stream);
  });
  return gigabytesPerSecond(2.0 * static_cast<double>(bytes), ms);
}

// ---------------------------------------------------------------------------------------
// Table
// ---------------------------------------------------------------------------------------
namespace {

std::string fixed(double v, int digits) {
  if (!std::isfinite(v)) return "-";
  std::ostringstream s;
  s.setf(std::ios::fixed);
  s.precision(digits);
  s << v;
  return s.str();
}

}  // namespace

void ResultTable::print(std::FILE* out, std::string_view baselineName) const {
  const std::string ratioHeader = "x " + std::string(baselineName);
  std::vector<std::vector<std::string>> cells;
  cells.push_back({"case", "variant", "ms", "GB/s", "% copy", ratioHeader});
  for (const ResultRow& r : rows_)
    cells.push_back({r.caseName, r.variant, fixed(r.ms, 4), fixed(r.gbps, 1), fixed(r.pctCopy, 1),
                     fixed(r.ratioToBaseline, 2)});
  std::vector<std::size_t> width(cells.front().size(), 0);
  for (const auto& line : cells)
    for (std::size_t c = 0; c < line.size(); ++c) width[c] = std::max(width[c], line[c].size());

  std::string previousCase;
  for (std::size_t i = 0; i < cells.size(); ++i) {
    const auto& line = cells[i];
    if (i > 1 && line[0] != previousCase) std::fputc('\n', out);  // a blank line per case
    previousCase = line[0];
    for (std::size_t c = 0; c < line.size(); ++c) {
      // Text columns left-aligned, numbers right-aligned.
      const int w = static_cast<int>(width[c]);
      const char* gap = c + 1 < line.size() ? "  " : "";
      if (c < 2)
        std::fprintf(out, "%-*s%s", w, line[c].c_str(), gap);
      else
        std::fprintf(out, "%*s%s", w, line[c].c_str(), gap);
    }
    std::fputc('\n', out);
    if (i == 0) {
      std::size_t total = 0;
      for (std::size_t w : width) total += w + 2;
      std::fprintf(out, "%s\n", std::string(total - 2, '-').c_str());
    }
  }
  std::fflush(out);
}

// ---------------------------------------------------------------------------------------
// JSON and CSV
// ---------------------------------------------------------------------------------------
namespace {

std::string jsonString(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

// JSON has no NaN: a missing ratio is null.
std::string jsonNumber(double v) {
  if (!std::isfinite(v)) return "null";
  std::ostringstream s;
  s.precision(9);
  s << v;
  return s.str();
}

std::string csvField(std::string_view s) {
  if (s.find_first_of(",\"\n") == std::string_view::npos) return std::string(s);
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

}  // namespace

void ResultTable::writeJson(const std::string& path, const DeviceInfo& device,
                            double copyGBps) const {
  std::ostringstream f;
  f << "{\n  \"device\": {\"name\": " << jsonString(device.name) << ", \"computeCapability\": \""
    << device.computeMajor << "." << device.computeMinor << "\", \"smCount\": " << device.smCount
    << ", \"l2Bytes\": " << device.l2Bytes << "},\n";
  f << "  \"copyGBps\": " << jsonNumber(copyGBps) << ",\n  \"results\": [";
  for (std::size_t i = 0; i < rows_.size(); ++i) {
    const ResultRow& r = rows_[i];
    f << (i ? ",\n    " : "\n    ") << "{\"family\": " << jsonString(r.family)
      << ", \"variant\": " << jsonString(r.variant) << ", \"case\": " << jsonString(r.caseName)
      << ", \"ms\": " << jsonNumber(r.ms) << ", \"GBps\": " << jsonNumber(r.gbps)
      << ", \"pctCopy\": " << jsonNumber(r.pctCopy)
      << ", \"ratioToBaseline\": " << jsonNumber(r.ratioToBaseline) << "}";
  }
  f << "\n  ]\n}\n";
  files::writeFileAtomically(path, f.str());  // throws files::WriteError, one line
}

void ResultTable::writeCsv(const std::string& path) const {
  std::ostringstream f;
  f << "family,variant,case,ms,GBps,pctCopy,ratioToBaseline\n";
  for (const ResultRow& r : rows_) {
    f << csvField(r.family) << ',' << csvField(r.variant) << ',' << csvField(r.caseName) << ','
      << jsonNumber(r.ms) << ',' << jsonNumber(r.gbps) << ',' << jsonNumber(r.pctCopy) << ','
      << (std::isfinite(r.ratioToBaseline) ? jsonNumber(r.ratioToBaseline) : std::string())
      << '\n';
  }
  files::writeFileAtomically(path, f.str());
}

// ---------------------------------------------------------------------------------------
// Progress
// ---------------------------------------------------------------------------------------
void Progress::step(const std::string& what) {
  ++done_;
  std::fprintf(stderr, "\r[%zu/%zu] %s\033[K", done_, total_, what.c_str());
  std::fflush(stderr);
  open_ = true;
}

void Progress::finish() {
  if (!open_) return;
  std::fputc('\n', stderr);
  std::fflush(stderr);
  open_ = false;
}

ResultRow makeRow(std::string_view family, std::string_view variant, const std::string& caseName,
                  double ms, double gbps, double copyGBps) {
  return {std::string(family), std::string(variant), caseName, ms, gbps,
          copyGBps > 0 ? 100.0 * gbps / copyGBps : 0.0, std::numeric_limits<double>::quiet_NaN()};
}

void ResultTable::addCase(std::vector<ResultRow> caseRows, std::string_view baseline) {
  double baselineMs = std::numeric_limits<double>::quiet_NaN();
  for (const ResultRow& row : caseRows)
    if (row.variant == baseline) baselineMs = row.ms;
  for (ResultRow& row : caseRows) {
    row.ratioToBaseline = baselineMs / row.ms;
    rows_.push_back(std::move(row));
  }
}

double printHeader(const BenchOptions& options, const DeviceInfo& device, cudaStream_t stream,
                   const std::string& what) {
  const double copyGBps = measureCopyBandwidthGBps(options, device, stream);
  std::printf("device: %s (sm_%d%d, %d SMs, L2 %.1f MiB)\n", device.name.c_str(),
              device.computeMajor, device.computeMinor, device.smCount,
              double(device.l2Bytes) / (1 << 20));
  std::printf("device-to-device copy: %.1f GB/s (read + written)\n", copyGBps);
  std::printf("%s; median of %d runs after %d warm-up\n\n", what.c_str(),
              std::max(options.repeats, 1), options.warmup);
  std::fflush(stdout);
  return copyGBps;
}

Stream::Stream() {
  SATDOF_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
}

// ---------------------------------------------------------------------------------------
// The end of every family's run
// ---------------------------------------------------------------------------------------
int writeFilesAndVerdict(const ResultTable& table, const BenchOptions& options,
                         const DeviceInfo& device, double copyGBps, std::string_view family,
                         bool allCorrect) {
  if (!options.jsonPath.empty()) table.writeJson(options.jsonPath, device, copyGBps);
  if (!options.csvPath.empty()) table.writeCsv(options.csvPath);
  if (!allCorrect) {
    std::fprintf(stderr, "satdof bench %.*s: some variants produced wrong results (see above)\n",
                 int(family.size()), family.data());
    return 1;
  }
  return 0;
}

int runGuarded(std::string_view family, const BenchOptions& options,
               int (*run)(const BenchOptions&)) {
  try {
    return run(options);
  } catch (const NoDevice& e) {
    std::fprintf(stderr, "satdof: bench needs a CUDA device: %s\n", e.what());
    return kExitNoDevice;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "\nsatdof bench %.*s: %s\n", int(family.size()), family.data(),
                 e.what());
    return 1;
  }
}

}  // namespace satdof::bench
