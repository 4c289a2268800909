// app/backends/gl_compute_backend.cpp — the gl-compute backend: filter and SAT in GLSL
// compute shaders (shaders/compute/), for any GL 4.3+ GPU, no CUDA and no host round trip.
//
// Per frame, all on the GL timeline (profiler sections on GL timestamps):
//   filtering on:  "filter A": scene colour -> the chosen convolution -> filtered texture;
//                  "filter B": the same input -> compare texture (comparisons);
//   "sat":         the SAT of the filtered (or scene) texture, read directly, into the
//                  frame's SAT buffer: a multi-block scan of the rows (sat_scan.comp
//                  from the texture, block sums, sat_add.comp), then of the columns in
//                  place, in uint32; the float formats are rounded from those sums
//                  (sat_format.comp). The block scan is the chosen SAT algorithm:
//                  blelloch (shared-memory tree) or subgroup (KHR_shader_subgroup).
//   bokeh:         with a bokeh request, the sprite list of the same image by compute
//                  shaders on the same scan (backends/gl_bokeh.h).
// Every output is bit for bit the reference's (tests/test_gl_compute.cpp).
//
// Index: implementations and options — the backend (programs, SAT passes, convolutions)
// — capability checks and create().
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <stdexcept>

#include "backends/compute_backend.h"
#include "backends/gl_bokeh.h"
#include "frame/frame_targets.h"
#include "gl/program.h"

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

struct SatAlgorithmEntry {
  const char* name;
  const char* description;
  const char* blockScan;  // what "compute/block_scan.glsl" stands for
};

constexpr SatAlgorithmEntry kSatAlgorithms[] = {
    {"blelloch", "rows then columns, multi-block; work-efficient up/down-sweep in shared memory, conflict-free padding",
     "compute/block_scan_blelloch.glsl"},
    {"subgroup", "rows then columns, multi-block; KHR_shader_subgroup inclusive adds (needs that GL extension)",
     "compute/block_scan_subgroup.glsl"},
};
constexpr std::size_t kSubgroup = 1;

int satAlgorithmIndex(std::string_view name) {
  for (std::size_t i = 0; i < std::size(kSatAlgorithms); ++i)
    if (name == kSatAlgorithms[i].name) return int(i);
  return -1;
}

// sat_scan.comp's block (block_scan_*.glsl: kScanElements) and work group.
constexpr int kScanElements = 512;
constexpr int kScanThreads = 256;
constexpr int kConvTile = 16;  // conv_common.glsl's work group edge

int ceilDiv(int a, int b) { return (a + b - 1) / b; }

// =====================================================================================
// the backend
// =====================================================================================

class GlComputeBackend final : public ComputeBackend {
 public:
  // `fused`: this GL's fma() rounds once (fmaIsFused).
  GlComputeBackend(const std::filesystem::path& shaderDir, int satAlgorithm, std::optional<std::string> noSubgroup,
                   bool fused)
      : noSubgroup_(std::move(noSubgroup)), satAlgorithm_(satAlgorithm), bokeh_(shaderDir) {
    for (std::size_t i = 0; i < std::size(kSatAlgorithms); ++i)
      if (i != kSubgroup || !noSubgroup_)
        satScan_[i] = gl::loadProgram(shaderDir, {{GL_COMPUTE_SHADER, "compute/sat_scan.comp"}},
                                      {{"compute/block_scan.glsl", kSatAlgorithms[i].blockScan}});
    satAdd_ = gl::loadProgram(shaderDir, {{GL_COMPUTE_SHADER, "compute/sat_add.comp"}});
    satFormat_ = gl::loadProgram(shaderDir, {{GL_COMPUTE_SHADER, "compute/sat_format.comp"}});
    satPack_ = gl::loadProgram(shaderDir, {{GL_COMPUTE_SHADER, "compute/sat_pack.comp"}});
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
    // The float formats are rounded from the uint32 sums (sat_format.comp), exact while the
    // image's total fits an int32.
    constexpr std::int64_t kFloatFormatPixels = ((std::int64_t(1) << 31) - 1) / 255;
    if (!satFormatInfo(t.satFormat).exact && std::int64_t(t.extent.width) * t.extent.height > kFloatFormatPixels)
      throw std::runtime_error("the gl-compute backend builds the " + std::string(satFormatInfo(t.satFormat).name) +
                               " SAT format up to " + std::to_string(kFloatFormatPixels) +
                               " pixels (the sums must fit an int32), not " +
                               std::to_string(t.extent.width) + "x" + std::to_string(t.extent.height) +
                               ": use --sat-format uint32, or --backend cuda or cpu");
    if (t.satFormat == SatFormat::Uint21x3) {
      try {
        FrameTargets::checkExtent(t.extent, SatFormat::Uint32);  // exactSat_ below
      } catch (const std::runtime_error& error) {
        throw std::runtime_error(std::string("the gl-compute backend packs uint21x3 from a uint32 table: ") +
                                 error.what());
      }
    }
    const Extent e = t.extent;
    GLint maxGroups = 0;
    glGetIntegeri_v(GL_MAX_COMPUTE_WORK_GROUP_COUNT, 1, &maxGroups);
    if (ceilDiv(e.width, kScanElements) > kScanElements || ceilDiv(e.height, kScanElements) > kScanElements ||
        std::max(e.width, e.height) > maxGroups)
      throw std::runtime_error("the gl-compute SAT handles up to " +
                               std::to_string(std::min(kScanElements * kScanElements, maxGroups)) +
                               " pixels on a side, not " + std::to_string(e.width) + "x" + std::to_string(e.height));
    targets_ = t;
    // The block sums of the largest of the SATs built: the frame's, the bokeh passes'.
    std::size_t blocks = 0;
    for (const Extent x : {e, GlBokeh::flagExtent(e), GlBokeh::sortExtent()})
      blocks = std::max({blocks, std::size_t(x.height) * ceilDiv(x.width, kScanElements),
                         std::size_t(x.width) * ceilDiv(x.height, kScanElements)});
    blockSums_ = gl::createBuffer(GLsizeiptr(blocks * 16), nullptr, 0);
    bokeh_.attach(t);
    // uint21x3 is packed from the uint32 table, built here first (16 B/pixel).
    if (t.satFormat == SatFormat::Uint21x3)
      exactSat_ = gl::createBuffer(GLsizeiptr(satTableBytes(SatFormat::Uint32, e.width, e.height)), nullptr, 0);
  }

  void detach() override {
    targets_ = {};
    bokeh_.detach();
    blockSums_.reset();
    exactSat_.reset();
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
      auto section = r.profiler.section(r.profiler.gl(), "sat", kSatAlgorithms[satAlgorithm_].name);
      if (targets_.satFormat == SatFormat::Uint21x3) {
        buildSat(source, targets_.extent, exactSat_.get(), satScan_[satAlgorithm_].get());
        packUint21x3();
      } else {
        buildSat(source, targets_.extent, targets_.sat, satScan_[satAlgorithm_].get());
        if (targets_.satFormat != SatFormat::Uint32) toFloatFormat();
      }
    }
    // The DoF, the views and the read-back use what was written through images and buffers.
    glMemoryBarrier(GL_ALL_BARRIER_BITS);
    unbind();
    if (r.bokeh) {
      const GLuint scan = satScan_[satAlgorithm_].get();
      bokeh_.run(source, *r.bokeh, [&](GLuint texture, Extent e, GLuint table) { buildSat(texture, e, table, scan); },
                 r.profiler);
    }
  }

  // The layered DoF's two field SATs (uint32), by the same passes as the frame's.
  void buildFieldSats(const Targets& t, Profiler& profiler) override {
    {
      auto section = profiler.section(profiler.gl(), "field sats", kSatAlgorithms[satAlgorithm_].name);
      buildSat(t.nearField, t.extent, t.nearSat, satScan_[satAlgorithm_].get());
      buildSat(t.farField, t.extent, t.farSat, satScan_[satAlgorithm_].get());
    }
    glMemoryBarrier(GL_ALL_BARRIER_BITS);
    unbind();
  }

  std::vector<FilterImplementation> filterImplementations() const override { return glComputeFilterImplementations(); }
  std::vector<BackendOption> options() const override { return glComputeBackendOptions(); }
  std::string selected(const std::string& key) const override {
    return key == "sat" ? kSatAlgorithms[satAlgorithm_].name : "";
  }
  std::optional<std::string> select(const std::string& key, const std::string& name) override {
    const int index = key == "sat" ? satAlgorithmIndex(name) : -1;
    if (index < 0) return "no " + key + " '" + name + "' in the gl-compute backend";
    if (index == int(kSubgroup) && noSubgroup_) return "subgroup: " + *noSubgroup_;
    satAlgorithm_ = index;
    return std::nullopt;
  }

 private:
  // ---- SAT -----------------------------------------------------------------------------
  // The uint32 SAT of `texture` (of extent e) into `table`: the rows, then the columns in place.
  void buildSat(GLuint texture, Extent e, GLuint table, GLuint scan) {
    glBindTextureUnit(0, texture);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, table);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, blockSums_.get());
    scanLines(scan, 0, e.height, e.width, e.width, 1);
    scanLines(scan, 1, e.width, e.height, 1, e.width);
  }

  // One multi-block scan of `lines` lines of `length` elements (sat_scan.comp's modes).
  void scanLines(GLuint scan, int mode, int lines, int length, int lineStride, int elementStride) {
    const int blocks = ceilDiv(length, kScanElements);
    for (GLuint p : {scan, satAdd_.get()}) {
      gl::uniform1i(p, "uLength", length);
      gl::uniform1i(p, "uLineStride", lineStride);
      gl::uniform1i(p, "uElementStride", elementStride);
      gl::uniform1i(p, "uBlocks", blocks);
    }
    gl::uniform1i(scan, "uMode", mode);
    glUseProgram(scan);
    glDispatchCompute(GLuint(blocks), GLuint(lines), 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    if (blocks == 1) return;
    // The blocks' totals of every line, scanned (exclusive), then added to the blocks.
    gl::uniform1i(scan, "uMode", 2);
    gl::uniform1i(scan, "uLength", blocks);
    glDispatchCompute(1, GLuint(lines), 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    glUseProgram(satAdd_.get());
    glDispatchCompute(GLuint(ceilDiv(length - kScanElements, kScanThreads)), GLuint(lines), 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
  }

  // The float formats from the uint32 table, in place (sat_format.comp's modes).
  void toFloatFormat() {
    const Extent e = targets_.extent;
    const int pixels = e.width * e.height;
    const GLuint p = satFormat_.get();
    gl::uniform1i(p, "uWidth", e.width);
    gl::uniform1i(p, "uPixels", pixels);
    glUseProgram(p);
    const bool offset = targets_.satFormat == SatFormat::Float32Offset;
    if (offset) {
      gl::uniform1i(p, "uMode", 0);
      glDispatchCompute(1, 1, 1);
      glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    }
    gl::uniform1i(p, "uMode", offset ? 2 : 1);
    glDispatchCompute(GLuint(ceilDiv(pixels, kScanThreads)), 1, 1);
  }

  // uint21x3 from the uint32 table in exactSat_ (sat_pack.comp).
  void packUint21x3() {
    const Extent e = targets_.extent;
    const int pixels = e.width * e.height;
    const GLuint p = satPack_.get();
    gl::uniform1i(p, "uPixels", pixels);
    glUseProgram(p);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, exactSat_.get());
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, targets_.sat);
    glDispatchCompute(GLuint(ceilDiv(pixels, kScanThreads)), 1, 1);
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
      buildSat(targets_.sceneColour, e, inputSat_.get(), satScan_[satAlgorithm_].get());
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
    for (GLuint b : {0u, 1u, 2u}) glBindBufferBase(GL_SHADER_STORAGE_BUFFER, b, 0);
  }

  std::optional<std::string> noSubgroup_;  // why the subgroup SAT cannot run here
  int satAlgorithm_;
  gl::Program satScan_[std::size(kSatAlgorithms)], satAdd_, satFormat_, satPack_, conv_[std::size(kConvolutions)];
  gl::Buffer weights_, blockSums_;
  gl::Buffer exactSat_;  // uint21x3: the uint32 table it is packed from
  gl::Buffer inputSat_;  // glsl-sat-box's SAT of the input, made on first use
  GlBokeh bokeh_;        // the bokeh sprite list, on the same scan
  Targets targets_;
};

// =====================================================================================
// capability checks and create()
// =====================================================================================

bool hasExtension(std::string_view name) {
  GLint count = 0;
  glGetIntegerv(GL_NUM_EXTENSIONS, &count);
  for (GLint i = 0; i < count; ++i)
    if (const auto* e = reinterpret_cast<const char*>(glGetStringi(GL_EXTENSIONS, GLuint(i))); e && name == e)
      return true;
  return false;
}

// Why subgroup arithmetic cannot run in compute shaders here, or nullopt.
std::optional<std::string> whyNoSubgroups(const Context& context) {
  if (!hasExtension("GL_KHR_shader_subgroup"))
    return "this GL (" + context.renderer + ") lacks GL_KHR_shader_subgroup; use --sat blelloch";
  GLint stages = 0, features = 0;
  glGetIntegerv(GL_SUBGROUP_SUPPORTED_STAGES_KHR, &stages);
  glGetIntegerv(GL_SUBGROUP_SUPPORTED_FEATURES_KHR, &features);
  if (!(stages & GL_COMPUTE_SHADER_BIT) || !(features & GL_SUBGROUP_FEATURE_ARITHMETIC_BIT_KHR))
    return "this GL (" + context.renderer + ") has no subgroup arithmetic in compute shaders; use --sat blelloch";
  return std::nullopt;
}

// GL 4.3 compute shaders with the work group and shared memory the shaders use.
std::optional<std::string> whyNoCompute(const Context& context) {
  GLint major = 0, minor = 0, invocations = 0, shared = 0;
  glGetIntegerv(GL_MAJOR_VERSION, &major);
  glGetIntegerv(GL_MINOR_VERSION, &minor);
  if (major * 10 + minor < 43)
    return "GL " + context.version + " has no compute shaders (GL 4.3 needed); update the graphics driver";
  glGetIntegerv(GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS, &invocations);
  glGetIntegerv(GL_MAX_COMPUTE_SHARED_MEMORY_SIZE, &shared);
  if (invocations < kScanThreads || shared < 16 * 1024)
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
  std::vector<Choice> choices;
  for (const auto& a : kSatAlgorithms) choices.push_back({a.name, a.description});
  return {{"sat", "SAT algorithm", choices, kSatAlgorithms[0].name}};
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
  const auto it = selections.find("sat");
  const int sat = it == selections.end() ? 0 : satAlgorithmIndex(it->second);
  if (sat < 0) {
    reason = "no SAT algorithm '" + it->second + "' in the gl-compute backend";
    return nullptr;
  }
  auto noSubgroup = whyNoSubgroups(context);
  if (sat == int(kSubgroup) && noSubgroup) {
    reason = "subgroup: " + *noSubgroup;
    return nullptr;
  }
  try {
    const std::filesystem::path shaderDir = gl::findShaderDir();
    const bool fused = fmaIsFused(shaderDir);
    auto backend = std::make_unique<GlComputeBackend>(shaderDir, sat, std::move(noSubgroup), fused);
    reason = "GL compute shaders on " + context.renderer;
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
