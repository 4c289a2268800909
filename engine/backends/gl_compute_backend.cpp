// engine/backends/gl_compute_backend.cpp — the gl-compute backend: filter and SAT in GLSL
// compute shaders (shaders/compute/), for any GL 4.3+ GPU, no CUDA and no host round trip.
//
// Per frame, all on the GL timeline (profiler sections on GL timestamps):
//   filtering on:  "filter A": scene colour -> the chosen convolution -> filtered texture;
//                  "filter B": the same input -> compare texture (comparisons);
//   "sat":         the SAT of the filtered (or scene) texture, read directly, into the
//                  frame's SAT buffer in its format (engine/backends/gl_scan_sat.h): by the
//                  chosen SAT algorithm (--sat: reduce-then-scan, rows-columns) with the
//                  chosen block scan (--scan: hillis-steele ... subgroup,
//                  decoupled-lookback), tagged "<algorithm> / <scan>".
//   bokeh:         with a bokeh request, the sprite list of the same image by compute
//                  shaders: a compaction and a rank sort (engine/backends/gl_bokeh.h).
// Every output is bit for bit the reference's (tests/test_gl_compute.cpp, test_gl_scan.cpp).
//
// Index: implementations and options — the backend (programs, SAT passes, convolutions)
// — capability checks and create().
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <span>
#include <stdexcept>

#include "engine/backends/compute_backend.h"
#include "engine/backends/gl_bokeh.h"
#include "engine/backends/gl_scan_sat.h"
#include "engine/frame/frame_targets.h"
#include "engine/gl/program.h"

namespace satdof {

// Declared here rather than in compute_backend.h (registry.cpp declares them too).
std::vector<BackendOption> glComputeBackendOptions();
std::vector<FilterImplementation> glComputeFilterImplementations();
std::unique_ptr<ComputeBackend> createGlComputeBackend(const Context&, const BackendSelections&, std::string&);

namespace {

// =====================================================================================
// implementations and options
// =====================================================================================

struct GlslConvolution {
  const char* name;
  const char* description;
  const char* shader;  // under shaders/
  // The cpu implementation of the same maths (satdof/reference/conv.h): the same bytes,
  // and the same filters accepted (its `supports` is used).
  const char* sameMathsAs;
};

constexpr GlslConvolution kConvolutions[] = {
    {"glsl-tiled-halo", "GLSL: 16x16 tile plus halo in shared memory, direct float FMA",
     "compute/conv_tiled_halo.comp", "cpu-direct"},
    {"glsl-basic", "GLSL: one invocation per pixel, filter and image from memory, direct float FMA",
     "compute/conv_basic.comp", "cpu-direct"},
    {"glsl-separable", "GLSL: row pass into shared memory, then the column pass, one dispatch",
     "compute/conv_separable.comp", "cpu-separable"},
    {"glsl-sat-box", "GLSL: exact integer box mean from a uint32 SAT of the input, four reads per rectangle",
     "compute/conv_sat_box.comp", "cpu-box-sum"},
};
constexpr std::size_t kSatBox = 3;

// The scan variant without --scan: the fastest on the H200 (docs/PERFORMANCE.md, "The
// gl-compute SAT"); where the GL lacks subgroup arithmetic, the fastest of the others.
constexpr std::string_view kDefaultScan = "subgroup";
constexpr std::string_view kPortableScan = "blelloch-8-per-thread";

constexpr int kConvTile = 16;   // conv_common.glsl's work group edge
constexpr int kMostInvocations = 256;  // the largest work group of the SAT shaders

int ceilDiv(int a, int b) { return (a + b - 1) / b; }

// =====================================================================================
// the backend
// =====================================================================================

class GlComputeBackend final : public ComputeBackend {
 public:
  // `fused`: this GL's fma() rounds once (fmaIsFused); `sat`, `scan`: indices in
  // glSatAlgorithms(), glScanVariants() (the scan prepared); `scanNote`: why `scan` is not
  // the one asked for (choiceNote), empty when it is.
  GlComputeBackend(const std::filesystem::path& shaderDir, GlSat sat, int satAlgorithm, int scan, bool fused,
                   std::string scanNote)
      : sat_(std::move(sat)), satAlgorithm_(satAlgorithm), scan_(scan), scanNote_(std::move(scanNote)),
        bokeh_(shaderDir) {
    const gl::IncludeAliases fma{{"compute/fma.glsl", fused ? "compute/fma_native.glsl" : "compute/fma_exact.glsl"}};
    for (std::size_t i = 0; i < std::size(kConvolutions); ++i)
      conv_[i] = gl::loadProgram(shaderDir, {{GL_COMPUTE_SHADER, kConvolutions[i].shader}}, fma);
    weights_ = gl::createBuffer(GLsizeiptr((kMaxFilterTaps + 2 * (2 * kMaxFilterRadius + 1)) * sizeof(float)),
                                nullptr, GL_DYNAMIC_STORAGE_BIT);
  }

  std::string_view name() const override { return "gl-compute"; }
  std::string_view bokehMethod() const override { return GlBokeh::kMethod; }

  void attach(const Targets& t) override {
    detach();
    sat_.attach(t.extent, t.satFormat);
    targets_ = t;
    bokeh_.attach(t);
  }

  void detach() override {
    targets_ = {};
    bokeh_.detach();
    sat_.detach();
    inputSat_.reset();
  }

  void compute(const ComputeRequest& r) override {
    GLuint source = targets_.sceneColour;
    if (r.filter) {
      uploadWeights(*r.filter);
      convolve(r, convolution(r.settings.implementation), "filter A", targets_.filtered);
      if (r.settings.compare)
        convolve(r, convolution(r.settings.compareImplementation), "filter B", targets_.compare);
      source = targets_.filtered;
    }
    {
      auto section = r.profiler.section(r.profiler.gl(), "sat", satTag());
      sat_.build(source, targets_.extent, targets_.satFormat, targets_.sat, satAlgorithm_, scan_);
    }
    // The DoF, the views and the read-back use what was written through images and buffers.
    glMemoryBarrier(GL_ALL_BARRIER_BITS);
    unbind();
    if (r.bokeh) {
      bokeh_.run(source, *r.bokeh, r.profiler);
    }
  }

  // The layered DoF's field SATs (each in its format), by the same passes as the frame's,
  // all tables at once (GlSat::buildAll).
  void buildFieldSats(const Targets& t, Profiler& profiler) override {
    {
      auto section = profiler.section(profiler.gl(), "field sats", satTag());
      std::array<GlSat::Job, FieldTables::kMax> jobs{};
      std::size_t n = 0;
      for (const FieldTable& f : fieldTables(t)) jobs[n++] = {f.fieldImage, f.tableBuffer, f.format};
      sat_.buildAll(std::span(jobs).first(n), t.extent, satAlgorithm_, scan_);
    }
    glMemoryBarrier(GL_ALL_BARRIER_BITS);
    unbind();
  }

  std::vector<FilterImplementation> filterImplementations() const override { return glComputeFilterImplementations(); }
  std::vector<BackendOption> options() const override { return glComputeBackendOptions(); }
  std::string selected(const std::string& key) const override {
    if (key == "sat") return std::string(glSatAlgorithms()[std::size_t(satAlgorithm_)].name);
    if (key == "scan") return std::string(glScanVariants()[std::size_t(scan_)].name);
    return "";
  }
  std::optional<std::string> select(const std::string& key, const std::string& name) override {
    const int index = key == "sat" ? glSatAlgorithmIndex(name) : key == "scan" ? glScanVariantIndex(name) : -1;
    if (index < 0) return "no " + key + " '" + name + "' in the gl-compute backend";
    if (key == "sat") {
      satAlgorithm_ = index;
      return std::nullopt;
    }
    if (auto why = sat_.prepare(index)) return why;
    if (index != scan_) scanNote_.clear();  // a choice of the user's now
    scan_ = index;
    return std::nullopt;
  }
  std::optional<std::string> whyNotHere(const std::string& key, const std::string& name) const override {
    const int index = key == "scan" ? glScanVariantIndex(name) : -1;
    return index < 0 ? std::nullopt : sat_.whyNotHere(index);
  }
  std::string choiceNote(const std::string& key) const override { return key == "scan" ? scanNote_ : std::string(); }

 private:
  // ---- SAT -----------------------------------------------------------------------------
  // "reduce-then-scan / subgroup": what the profiler's per-implementation times show.
  std::string satTag() const { return satSectionTag(selected("sat"), selected("scan")); }

  // The SAT of `texture` (of extent e) into `table`, by the chosen algorithm and scan.
  void buildSat(GLuint texture, Extent e, GLuint table) {
    sat_.build(texture, e, SatFormat::Uint32, table, satAlgorithm_, scan_);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
  }

  // ---- convolutions --------------------------------------------------------------------
  static std::size_t convolution(const std::string& name) {
    if (name.empty()) return 0;  // the default runs every filter
    for (std::size_t i = 0; i < std::size(kConvolutions); ++i)
      if (name == kConvolutions[i].name) return i;
    throw std::runtime_error("unknown convolution implementation '" + name + "'");
  }

  // Weights, row factors, column factors (conv_common.glsl's FilterWeights).
  void uploadWeights(const Filter& f) {
    std::vector<float> w = f.weights;
    if (f.separable) {
      w.insert(w.end(), f.rowWeights.begin(), f.rowWeights.end());
      w.insert(w.end(), f.colWeights.begin(), f.colWeights.end());
    }
    glNamedBufferSubData(weights_.get(), 0, GLsizeiptr(w.size() * sizeof(float)), w.data());
  }

  void convolve(const ComputeRequest& r, std::size_t index, const char* section, GLuint output) {
    const Extent e = targets_.extent;
    auto timed = r.profiler.section(r.profiler.gl(), section, kConvolutions[index].name);
    if (index == kSatBox) {  // the box sums come from a SAT of the input
      if (!inputSat_) inputSat_ = gl::createBuffer(GLsizeiptr(std::size_t(e.width) * e.height * 16), nullptr, 0);
      buildSat(targets_.sceneColour, e, inputSat_.get());
      glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, inputSat_.get());
    }
    const GLuint program = conv_[index].get();
    gl::uniform1i(program, "uRadius", r.filter->radius);
    gl::uniform1i(program, "uBorder", r.settings.border == Border::Clamp ? 1 : 0);
    glUseProgram(program);
    glBindTextureUnit(0, targets_.sceneColour);
    glBindImageTexture(0, output, 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_RGBA8);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 2, weights_.get());
    glDispatchCompute(GLuint(ceilDiv(e.width, kConvTile)), GLuint(ceilDiv(e.height, kConvTile)), 1);
    // The SAT reads the filtered texture next.
    glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT | GL_SHADER_IMAGE_ACCESS_BARRIER_BIT);
  }

  void unbind() {
    glUseProgram(0);
    glBindTextureUnit(0, 0);
    glBindImageTexture(0, 0, 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_RGBA8);
    for (GLuint b = 0; b <= 5; ++b) glBindBufferBase(GL_SHADER_STORAGE_BUFFER, b, 0);  // gl_scan_sat's, the convolutions'
  }

  GlSat sat_;  // the SAT passes, their programs and scratch
  int satAlgorithm_, scan_;
  std::string scanNote_;  // why scan_ is not the one asked for, until the user picks one
  gl::Program conv_[std::size(kConvolutions)];
  gl::Buffer weights_;
  gl::Buffer inputSat_;  // glsl-sat-box's SAT of the input, made on first use
  GlBokeh bokeh_;        // the bokeh sprite list
  Targets targets_;
};

// =====================================================================================
// capability checks and create()
// =====================================================================================

// GL 4.3 compute shaders with the work group and shared memory the shaders use.
std::optional<std::string> whyNoCompute(const Context& context) {
  GLint major = 0, minor = 0, invocations = 0, shared = 0;
  glGetIntegerv(GL_MAJOR_VERSION, &major);
  glGetIntegerv(GL_MINOR_VERSION, &minor);
  if (major * 10 + minor < 43)
    return "GL " + context.version + " has no compute shaders (GL 4.3 needed); update the graphics driver";
  glGetIntegerv(GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS, &invocations);
  glGetIntegerv(GL_MAX_COMPUTE_SHARED_MEMORY_SIZE, &shared);
  if (invocations < kMostInvocations || shared < 16 * 1024)
    return "GL compute work groups too small here (" + std::to_string(invocations) + " invocations, " +
           std::to_string(shared) + " bytes of shared memory)";
  return std::nullopt;
}

// Whether this GL's fma() rounds once, as the reference's std::fma does (fma_probe.comp).
bool fmaIsFused(const std::filesystem::path& shaderDir) {
  const gl::Program probe = gl::loadProgram(shaderDir, {{GL_COMPUTE_SHADER, "compute/fma_probe.comp"}});
  const float a = 1.0f + std::ldexp(1.0f, -12);
  const float values[4] = {a, a, -(1.0f + std::ldexp(1.0f, -11)), -1.0f};
  const gl::Buffer buffer = gl::createBuffer(sizeof values, values, 0);
  glUseProgram(probe.get());
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, buffer.get());
  glDispatchCompute(1, 1, 1);
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  float result[4] = {};
  glGetNamedBufferSubData(buffer.get(), 0, sizeof result, result);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, 0);
  glUseProgram(0);
  return result[3] == std::ldexp(1.0f, -24);
}

// An NVIDIA GPU's kernel driver is loaded although GL runs elsewhere (a hybrid laptop).
bool nvidiaGpuPresent() {
  std::error_code ec;
  return std::filesystem::exists("/dev/nvidia0", ec) || std::filesystem::exists("/proc/driver/nvidia/gpus", ec);
}

}  // namespace

std::vector<BackendOption> glComputeBackendOptions() {
  std::vector<Choice> sats, scans;
  for (const GlSatAlgorithm& a : glSatAlgorithms()) sats.push_back({std::string(a.name), std::string(a.description)});
  for (const GlScanVariant& v : glScanVariants()) scans.push_back({std::string(v.name), std::string(v.description)});
  // The defaults run on every GL 4.3 (no subgroups needed).
  return {{"sat", "SAT algorithm", sats, std::string(glSatAlgorithms().front().name)},
          {"scan", "scan variant", scans, std::string(kDefaultScan), true}};
}

std::vector<FilterImplementation> glComputeFilterImplementations() {
  const std::vector<FilterImplementation> cpu = cpuFilterImplementations();
  std::vector<FilterImplementation> list;
  for (const auto& c : kConvolutions) {
    list.push_back({c.name, c.description, nullptr});
    for (const FilterImplementation& same : cpu)
      if (same.name == c.sameMathsAs) list.back().supports = same.supports;
  }
  return list;
}

std::unique_ptr<ComputeBackend> createGlComputeBackend(const Context& context, const BackendSelections& selections,
                                                       std::string& reason) {
  if (auto why = whyNoCompute(context)) {
    reason = *why;
    return nullptr;
  }
  // A name of another backend's list (a settings file's, or --backend auto's) means this
  // backend's default; the command line checks names of a named backend. The SAT
  // algorithm's substitution is said in the reason; the scan variant's in the one line
  // that names the variant in use (choiceNote), so that no two lines name different ones.
  std::string note, scanNote;
  bool requested = true;  // a scan variant named for this backend: refused, not replaced
  const auto chosen = [&](const char* key, const char* label, int (*find)(std::string_view),
                          std::string_view fallback, std::string& said) {
    const auto it = selections.find(key);
    if (it != selections.end()) {
      if (const int index = find(it->second); index >= 0) return index;
      said += std::string(said.empty() ? "" : "; ") + label + " '" + it->second + "' is not the gl-compute backend's";
    }
    requested = false;
    return find(fallback);
  };
  std::string satNote;
  const int sat = chosen("sat", "SAT algorithm", glSatAlgorithmIndex, glSatAlgorithms().front().name, satNote);
  if (!satNote.empty()) note += "; " + satNote + ": " + std::string(glSatAlgorithms().front().name);
  requested = true;
  int scan = chosen("scan", "scan variant", glScanVariantIndex, kDefaultScan, scanNote);
  try {
    const std::filesystem::path shaderDir = gl::findShaderDir();
    GlSat passes(shaderDir, whyNoSubgroups(context));
    auto why = passes.prepare(scan);
    if (why && !requested) {  // the default needs subgroups: the best of the others
      scanNote += std::string(scanNote.empty() ? "" : "; ") +
                  "the default needs GL_KHR_shader_subgroup arithmetic, which this GL lacks";
      scan = glScanVariantIndex(kPortableScan);
      why = passes.prepare(scan);
    }
    if (why) {
      reason = *why;
      return nullptr;
    }
    const bool fused = fmaIsFused(shaderDir);
    auto backend = std::make_unique<GlComputeBackend>(shaderDir, std::move(passes), sat, scan, fused, scanNote);
    reason = "GL compute shaders on " + context.renderer + note;
    if (!fused) reason += " (its fma() rounds twice: the convolutions emulate a fused one in doubles, slower)";
    const bool onNvidia = context.vendor.find("NVIDIA") != std::string::npos;
    if (!onNvidia && nvidiaGpuPresent())
      reason += " while an NVIDIA GPU is present: run with __NV_PRIME_RENDER_OFFLOAD=1 "
                "__GLX_VENDOR_LIBRARY_NAME=nvidia to render (and compute) on it";
    return backend;
  } catch (const std::exception& e) {
    std::string what = e.what();
    for (char& c : what)
      if (c == '\n') c = ' ';  // one line
    while (!what.empty() && what.back() == ' ') what.pop_back();
    reason = "the GL compute shaders did not build here: " + what;
    return nullptr;
  }
}

}  // namespace satdof
