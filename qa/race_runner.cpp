// qa/race_runner.cpp — see race_runner.h. Index: the plan — one step (set-up, a
// timed run, the median) — restore, stop and adopt. The checks against the reference are in
// race_checks.cpp.
#include "qa/race_runner.h"

#include <glad/gl.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>

#include "engine/renderer/renderer.h"
#include "engine/gl/program.h"
#include "satdof/sat_format.h"

namespace satdof {
namespace {

constexpr const char* kNone = "-";
constexpr std::size_t kCopyBytesPerPixel = 16;  // the widest table's entry: the largest copy

std::optional<float> median(std::vector<float> v) {
  if (v.empty()) return std::nullopt;
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : 0.5f * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

RaceEntry planned(std::string stage, std::string algorithm, std::string variant, std::string format,
                  double bytesPerPixel) {
  RaceEntry e;
  e.stage = std::move(stage);
  e.algorithm = std::move(algorithm);
  e.variant = std::move(variant);
  e.format = std::move(format);
  e.bytesPerPixel = bytesPerPixel;
  return e;
}

const BackendOption* findOption(const Pipeline& p, const std::string& key) {
  for (const BackendOption& o : p.backendOptions())
    if (o.key == key) return &o;
  return nullptr;
}

}  // namespace

double RaceEntry::gbps(int width, int height) const {
  if (!ms || *ms <= 0) return 0;
  return double(width) * height * bytesPerPixel / (double(*ms) * 1e6);
}

std::string RaceEntry::label() const {
  std::string s = algorithm;
  if (variant != kNone) s += " / " + variant;
  return stage == "sat" ? s + ", " + format : s;
}

// The copy that gives the ceiling: a compute-shader copy on the GL timeline (shaders/
// compute/copy.comp: DRAM speed, where a GL buffer copy is not on every driver), or memcpy
// on the host for the cpu backend, of the widest table's size.
struct Race::Copy {
  bool host = false;
  std::size_t bytes = 0;
  gl::Buffer from, to;
  gl::Program program;
  std::size_t rangeBytes = 0;  // the largest range a storage block may bind, in whole words
  std::vector<std::uint8_t> hostFrom, hostTo;

  void run(Profiler& profiler) {
    if (host) {
      auto section = profiler.section(profiler.host(), "copy");
      std::memcpy(hostTo.data(), hostFrom.data(), bytes);
      return;
    }
    auto section = profiler.section(profiler.gl(), "copy");
    glUseProgram(program.get());
    for (std::size_t at = 0; at < bytes; at += rangeBytes) {
      const std::size_t n = std::min(rangeBytes, bytes - at);
      glBindBufferRange(GL_SHADER_STORAGE_BUFFER, 0, from.get(), GLintptr(at), GLsizeiptr(n));
      glBindBufferRange(GL_SHADER_STORAGE_BUFFER, 1, to.get(), GLintptr(at), GLsizeiptr(n));
      glUniform1ui(0, GLuint(n / 16));
      glDispatchCompute(GLuint(std::min<std::size_t>((n / 16 + 255) / 256, 65535)), 1, 1);
    }
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, 0);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, 0);
  }
};

Race::Race(Renderer& renderer, RaceSettings settings) : renderer_(renderer), settings_(settings), profiler_(std::make_unique<Profiler>()) {
  Pipeline& p = renderer_.pipeline();
  width_ = renderer_.extent().width;
  height_ = renderer_.extent().height;
  backendName_ = std::string(p.backend().name());
  format0_ = std::string(satFormatInfo(p.targets().satFormat).name);
  sat0_ = p.backend().selected("sat");
  scan0_ = p.backend().selected("scan");
  if (const BackendOption* sat = findOption(p, "sat")) satDefault_ = sat->defaultChoice;
  for (const BackendOption& o : p.backendOptions()) selections0_[o.key] = p.backend().selected(o.key);
  maxBlur0_ = renderer_.settings().dof.params.maxRadius;
  if (p.sourceImage() != p.targets().sceneColour) satFilter_ = renderer_.settings().filter.build();

  copy_ = std::make_unique<Copy>();
  copy_->host = backendName_ == "cpu";
  copy_->bytes = std::size_t(width_) * std::size_t(height_) * kCopyBytesPerPixel;
  if (copy_->host) {
    copy_->hostFrom.assign(copy_->bytes, 1);
    copy_->hostTo.assign(copy_->bytes, 0);
  } else {
    copy_->from = gl::createBuffer(GLsizeiptr(copy_->bytes), nullptr, 0);
    copy_->to = gl::createBuffer(GLsizeiptr(copy_->bytes), nullptr, 0);
    copy_->program = gl::loadProgram(gl::findShaderDir(), {{GL_COMPUTE_SHADER, "compute/copy.comp"}});
    GLint64 maxBlock = 0;
    glGetInteger64v(GL_MAX_SHADER_STORAGE_BLOCK_SIZE, &maxBlock);
    GLint alignment = 16;
    glGetIntegerv(GL_SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT, &alignment);
    const std::size_t unit = std::max<std::size_t>(16, std::size_t(alignment));
    copy_->rangeBytes = std::max(unit, std::size_t(maxBlock) / unit * unit);
  }
  plan_.push_back(planned("copy", "copy", kNone, kNone, 2.0 * kCopyBytesPerPixel));
  planSat();
  planConvolutions();
}

Race::~Race() = default;

// =====================================================================================
// the plan
// =====================================================================================

void Race::planSat() {
  const Pipeline& p = renderer_.pipeline();
  const BackendOption* sat = findOption(p, "sat");
  const BackendOption* scan = findOption(p, "scan");
  std::vector<std::string> algorithms, variants;
  if (sat)
    for (const Choice& c : sat->choices) algorithms.push_back(c.name);
  else
    algorithms.push_back(kNone);
  if (scan)
    for (const Choice& c : scan->choices) variants.push_back(c.name);
  else
    variants.push_back(kNone);
  for (const SatFormatInfo& f : satFormats())
    for (const std::string& a : algorithms)
      for (const std::string& v : variants)
        plan_.push_back(planned("sat", a, v, std::string(f.name), 4.0 + double(f.bytesPerPixel)));
}

void Race::planConvolutions() {
  filter_ = renderer_.settings().filter;
  if (filter_.enabled) {
    filterNote_ = "the frame's filter, " + std::string(toString(filter_.kind)) + " of radius " +
                  std::to_string(filter_.radius);
  } else {  // a filter every implementation runs (the box sum needs a box)
    filter_ = FilterSettings{};
    filter_.enabled = true;
    filter_.kind = FilterKind::Box;
    filter_.radius = 3;
    filterNote_ = "a box filter of radius 3 (the frame has none)";
  }
  filter_.compare = false;
  try {
    convFilter_ = filter_.build();
  } catch (const std::exception& e) {
    filterNote_ += std::string(": ") + e.what();
    return;
  }
  for (const FilterImplementation& impl : renderer_.pipeline().filterImplementations())
    plan_.push_back(planned("conv", impl.name, kNone, "rgba8", 8.0));
}

float Race::progress() const {
  if (plan_.empty()) return 1.0f;
  if (next_ >= plan_.size())  // timed: the second half checks the rows
    return std::min(1.0f, 0.5f + 0.5f * float(checked_) / float(std::max<std::size_t>(1, results_.size())));
  const float inJob = phase_ == Phase::Runs ? float(runs_) / float(settings_.warmup + settings_.repeats) : 0.0f;
  return std::min(0.5f, 0.5f * (float(next_) + inJob) / float(plan_.size()));
}

std::string Race::status() const {
  if (stopped_) return "stopped: " + std::to_string(results_.size()) + " of " + std::to_string(plan_.size()) + " rows";
  if (next_ >= plan_.size()) {
    if (checked_ >= results_.size()) return "done";
    const RaceEntry& e = results_[checked_];
    return "checking " + std::to_string(checked_ + 1) + " of " + std::to_string(results_.size()) + ": " +
           e.stage + " " + e.label();
  }
  const RaceEntry& e = plan_[next_];
  return e.stage + " " + std::to_string(next_ + 1) + " of " + std::to_string(plan_.size()) + ": " + e.label();
}

double Race::copyGbps() const {
  return copyMs_ && *copyMs_ > 0 ? 2.0 * double(copy_->bytes) / (double(*copyMs_) * 1e6) : 0.0;
}

std::string Race::copyMethod() const {
  return copy_->host ? "memcpy on the host" : "a compute-shader copy (16 B words), GL timestamps";
}

std::optional<double> Race::percentOfCopy(const RaceEntry& e) const {
  const double copy = copyGbps();
  if (!e.ms || copy <= 0) return std::nullopt;
  return 100.0 * e.gbps(width_, height_) / copy;
}

std::optional<double> Race::timesCub(const RaceEntry& e) const {
  if (e.stage != "sat" || !e.ms) return std::nullopt;
  std::optional<float> cub;
  for (const RaceEntry& r : results_)
    if (r.stage == "sat" && r.variant == "cub" && r.format == e.format && r.ms) {
      if (r.algorithm == e.algorithm) return double(*r.ms) / double(*e.ms);
      if (e.variant == kNone && (!cub || *r.ms < *cub)) cub = r.ms;
    }
  if (!cub) return std::nullopt;
  return double(*cub) / double(*e.ms);
}

int Race::differing() const {
  int n = 0;
  for (const RaceEntry& e : results_) n += e.skipped.empty() && !e.sameBytes;
  return n;
}

// =====================================================================================
// one step
// =====================================================================================

bool Race::step(double budgetMs) {
  if (stopRequested_) stop();
  const auto start = std::chrono::steady_clock::now();
  while (!done()) {
    if (next_ >= plan_.size()) {
      if (checked_ < results_.size()) {
        check(results_[checked_++]);
      } else {
        restore();
        break;
      }
      const std::chrono::duration<double, std::milli> spent = std::chrono::steady_clock::now() - start;
      if (budgetMs > 0 && spent.count() >= budgetMs) break;
      continue;
    }
    RaceEntry& e = plan_[next_];
    if (phase_ == Phase::Setup) {
      if (setUp(e)) {
        phase_ = Phase::Runs;
        runs_ = 0;
      } else {
        results_.push_back(e);
        ++next_;
      }
    } else if (phase_ == Phase::Runs) {
      runOnce(e);
      if (++runs_ >= settings_.warmup + settings_.repeats) phase_ = Phase::Check;
    } else {
      finish(e);
      ++next_;
      phase_ = Phase::Setup;
    }
    const std::chrono::duration<double, std::milli> spent = std::chrono::steady_clock::now() - start;
    if (budgetMs > 0 && spent.count() >= budgetMs) break;
  }
  return done();
}

// The rest of the plan for the same SAT algorithm and format (or format alone) goes: one
// row says why.
void Race::dropRest(const RaceEntry& e, bool wholeFormat) {
  plan_.erase(std::remove_if(plan_.begin() + std::ptrdiff_t(next_) + 1, plan_.end(),
                             [&](const RaceEntry& r) {
                               return r.stage == "sat" && r.format == e.format &&
                                      (wholeFormat || r.algorithm == e.algorithm);
                             }),
              plan_.end());
}

bool Race::useFormat(const std::string& format) {
  Pipeline& p = renderer_.pipeline();
  if (satFormatInfo(p.targets().satFormat).name == format) return true;
  if (!satDefault_.empty()) (void)p.backend().select("sat", satDefault_);  // it builds every format
  renderer_.setSatFormat(format);
  if (satFormatInfo(renderer_.pipeline().targets().satFormat).name != format) return false;
  renderer_.renderFrame();  // new targets: the frame's scene (and filter) drawn into them again
  renderer_.endFrame();
  return true;
}

bool Race::setUp(RaceEntry& e) {
  Pipeline& p = renderer_.pipeline();
  if (e.stage == "conv") {
    for (const FilterImplementation& impl : p.filterImplementations())
      if (impl.name == e.algorithm)
        if (auto why = impl.whyNot(*convFilter_)) e.skipped = *why;
    return e.skipped.empty();
  }
  if (e.stage != "sat") return true;
  if (!useFormat(e.format)) {
    e.skipped = "the " + backendName_ + " backend refused the format here (see stderr)";
    e.algorithm = e.variant = "*";
    dropRest(e, true);
    return false;
  }
  if (e.algorithm != kNone)
    if (auto why = renderer_.pipeline().backend().select("sat", e.algorithm)) {
      e.skipped = *why;
      e.variant = "*";
      dropRest(e, false);
      return false;
    }
  if (e.variant != kNone)
    if (auto why = renderer_.pipeline().backend().select("scan", e.variant)) {
      e.skipped = *why;
      return false;
    }
  return true;
}

void Race::runOnce(const RaceEntry& e) {
  // Each timed run alone on the GPU: a GL timestamp is written when the command stream
  // reaches it, so a run queued behind the previous one would start its clock while that
  // one still runs.
  glFinish();
  if (e.stage == "copy") {
    copy_->run(*profiler_);
  } else {
    const bool conv = e.stage == "conv";
    FilterSettings settings = conv ? filter_ : renderer_.settings().filter;
    if (conv) settings.implementation = e.algorithm;
    const Filter* filter = conv ? &*convFilter_ : satFilter_ ? &*satFilter_ : nullptr;
    renderer_.pipeline().backend().compute(ComputeRequest{settings, filter, *profiler_, nullptr});
  }
  profiler_->endFrame(history_);
}

void Race::check(RaceEntry& e) {
  e.checked = true;
  if (!e.skipped.empty() || e.stage == "copy") return;
  if (e.stage == "conv") {
    e.sameBytes = checkConvolution(e);
    return;
  }
  // As setUp chose it when the entry was timed (the same choices succeed again).
  if (!useFormat(e.format)) return;
  ComputeBackend& backend = renderer_.pipeline().backend();
  if ((e.algorithm != kNone && backend.select("sat", e.algorithm)) ||
      (e.variant != kNone && backend.select("scan", e.variant)))
    return;
  e.sameBytes = checkSat(e);
}

void Race::finish(RaceEntry& e) {
  profiler_->drain(history_);
  const std::string section = e.stage == "copy" ? "copy" : e.stage == "sat" ? "sat" : "filter A";
  e.ms = median(history_.recent(section, std::size_t(settings_.repeats)));
  if (e.stage == "copy") {
    copyMs_ = e.ms;
    history_ = {};
    return;
  }
  if (e.stage == "sat" && e.variant != kNone) {  // an algorithm that scans nothing: one row
    const auto& tags = history_.tagTimes("sat");
    if (!tags.empty() && tags.begin()->first.find(" / ") == std::string::npos) {
      dropRest(e, false);
      e.variant = kNone;
    }
  }
  history_ = {};
  e.current = e.stage == "sat" ? e.format == format0_ && (e.algorithm == sat0_ || e.algorithm == kNone) &&
                                     (e.variant == scan0_ || e.variant == kNone)
                               : e.algorithm == renderer_.pipeline().config(renderer_.settings().filter.implementation).conv;
  results_.push_back(e);
}

// =====================================================================================
// restore and adopt
// =====================================================================================

void Race::selectSat(const std::string& format, const std::string& algorithm, const std::string& variant) {
  if (!satDefault_.empty()) (void)renderer_.pipeline().backend().select("sat", satDefault_);
  renderer_.setSatFormat(format);
  BackendSelections selections;
  if (!algorithm.empty() && algorithm != kNone) selections["sat"] = algorithm;
  if (!variant.empty() && variant != kNone) selections["scan"] = variant;
  renderer_.applyChoices(std::string(renderer_.pipeline().dofEntry().name), selections);
}

// Every backend option as it was (sat before scan: BackendSelections is ordered by key),
// on the format it was.
void Race::restore() {
  if (!satDefault_.empty()) (void)renderer_.pipeline().backend().select("sat", satDefault_);  // builds every format
  renderer_.setSatFormat(format0_);
  renderer_.applyChoices(std::string(renderer_.pipeline().dofEntry().name), selections0_);
  renderer_.settings().dof.params.maxRadius = maxBlur0_;
  restored_ = true;
}

void Race::stop() {
  stopRequested_ = false;
  if (restored_) return;
  glFinish();  // the timed run in flight ends before its targets change
  for (RaceEntry& e : results_)
    if (!e.checked && e.skipped.empty()) {
      e.checked = true;
      e.skipped = "timed, but the race was stopped before it was checked";
    }
  stopped_ = true;
  restore();
  std::string back = "sat-format " + format0_;
  for (const auto& [key, name] : selections0_) back += ", " + key + " " + name;
  std::printf("satdof: race stopped after %zu of %zu rows; back to %s\n", results_.size(), plan_.size(), back.c_str());
}

std::optional<std::string> Race::adopt(std::size_t index) {
  if (!done()) return std::string("the race has not finished");
  if (index >= results_.size())
    return "no row " + std::to_string(index + 1) + "; the race has " + std::to_string(results_.size());
  if (!results_[index].skipped.empty()) return "row " + std::to_string(index + 1) + " was skipped: " + results_[index].skipped;
  const RaceEntry& e = results_[index];
  if (e.stage == "sat") {
    selectSat(e.format, e.algorithm, e.variant);
  } else {
    FilterSettings& f = renderer_.settings().filter;
    const FilterSettings compare = f;
    f = filter_;
    f.implementation = e.algorithm;
    f.compare = compare.compare;
    f.compareImplementation = compare.compareImplementation;
  }
  for (RaceEntry& r : results_)
    if (r.stage == e.stage) r.current = &r == &e;
  return std::nullopt;
}

}  // namespace satdof
