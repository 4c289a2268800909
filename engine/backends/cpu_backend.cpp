// engine/backends/cpu_backend.cpp — the cpu compute backend, the fallback that runs
// everywhere: read the scene colour back, filter it and build its SAT with the reference
// library on every core, upload the results. Synchronous by nature, so its profiler
// sections are wall times on the host clock: "wait for GL" (the GL work queued before,
// the scene above all: on a GPU its time is the scene's, not a transfer's), "read back"
// (the transfer alone), the filters, "sat", and each upload.
//
// Per frame it allocates nothing and starts no thread: the pool is started with the
// backend, the filtered images are kept from frame to frame, and the uint32 table is
// built by every thread straight into a GL buffer mapped once per size (persistent,
// coherent; on a discrete GPU pinned host memory), which the GPU copies into the frame's
// SAT buffer ("upload sat": the call, host wall time; "copy sat": the copy on GL
// timestamps, which is where a GPU's DMA shows). That skips
// the driver's own copy of the table, one thread through 16 bytes a pixel, which
// glNamedBufferSubData makes. The next frame's "wait for GL" waits for that copy too
// before the table is written again.
// Bokeh highlights: the reference's list of the image the SAT read (engine/backends/host_bokeh.h).
#include <string>

#include "engine/backends/compute_backend.h"
#include "engine/backends/host_bokeh.h"
#include "engine/gl/handles.h"
#include "satdof/reference/parallel.h"
#include "satdof/reference/sat.h"

namespace satdof {
namespace {

// The three reference algorithms, which round differently (see satdof/reference/conv.h).
struct CpuImplementation {
  const char* name;
  const char* description;
  ConvMath math;
  std::optional<std::string> (*supports)(const Filter&);
};

std::optional<std::string> separableOnly(const Filter& f) {
  if (f.separable) return std::nullopt;
  return std::string(toString(f.kind)) + " is not separable (not a rank-one kernel)";
}
std::optional<std::string> boxOnly(const Filter& f) {
  if (f.kind == FilterKind::Box) return std::nullopt;
  return std::string("box filters only (a box sum from the SAT)");
}

constexpr CpuImplementation kImplementations[] = {
    {"cpu-direct", "reference: (2r+1)^2 taps per pixel, float FMA, row-major order", ConvMath::Direct, nullptr},
    {"cpu-separable", "reference: a row pass then a column pass, float intermediate", ConvMath::Separable,
     separableOnly},
    {"cpu-box-sum", "reference: exact integer box mean", ConvMath::BoxSum, boxOnly},
};

const CpuImplementation& find(const std::string& name) {
  for (const auto& i : kImplementations)
    if (name == i.name) return i;
  return kImplementations[0];
}

constexpr const char* kSatAlgorithm = "reference";

class CpuBackend final : public ComputeBackend {
 public:
  std::string_view name() const override { return "cpu"; }

  void attach(const Targets& targets) override {
    targets_ = targets;
    scene_ = reference::ImageRgba8(targets.extent.width, targets.extent.height);
    // Sized for this extent (images of the old one would keep their capacity); the
    // table is not initialised here: the SAT's threads touch its pages first.
    filtered_ = compared_ = {};
    unmapTable();
    if (scene_.pixels.empty() || targets.satFormat != SatFormat::Uint32) return;  // (a new format re-attaches)
    tableWords_ = scene_.pixels.size();
    const GLbitfield flags = GL_MAP_WRITE_BIT | GL_MAP_PERSISTENT_BIT | GL_MAP_COHERENT_BIT;
    const auto bytes = GLsizeiptr(tableWords_ * sizeof(std::uint32_t));
    staging_ = gl::createBuffer(bytes, nullptr, flags);
    table_ = static_cast<std::uint32_t*>(glMapNamedBufferRange(staging_.get(), 0, bytes, flags));
    if (!table_) throw std::runtime_error("the cpu backend could not map its " + std::to_string(bytes) + "-byte SAT staging buffer");
  }
  void detach() override {
    unmapTable();
    targets_ = {};
  }

  void compute(const ComputeRequest& r) override {
    filterAndSat(r);
    if (r.bokeh) buildBokehOnHost(targets_, r.filter ? filtered_ : scene_, bokehDepth_, *r.bokeh, r.profiler);
  }
  std::string_view bokehMethod() const override { return kHostBokehMethod; }

  void filterAndSat(const ComputeRequest& r) {
    readBack(r);
    const reference::ImageRgba8* satInput = &scene_;
    if (r.filter) {
      convolve(r, find(r.settings.implementation), filtered_, "filter A");
      upload(r, targets_.filtered, filtered_, "upload A");
      satInput = &filtered_;
      if (r.settings.compare) {
        convolve(r, find(r.settings.compareImplementation), compared_, "filter B");
        upload(r, targets_.compare, compared_, "upload B");
      }
    }
    if (targets_.satFormat == SatFormat::Uint32) {
      if (!table_) return;  // an empty frame
      {
        auto section = r.profiler.section(clock_, "sat", kSatAlgorithm);
        reference::computeSat(*satInput, table_, pool_);
      }
      // Two clocks, because drivers differ in who pays: a GPU copies by DMA after the call
      // returns ("copy sat", GL timestamps), a software GL copies inside the call
      // ("upload sat", host wall time).
      auto section = r.profiler.section(clock_, "upload sat");
      auto copy = r.profiler.section(r.profiler.gl(), "copy sat");
      glCopyNamedBufferSubData(staging_.get(), targets_.sat, 0, 0, GLsizeiptr(tableWords_ * sizeof(std::uint32_t)));
      return;
    }
    // Another format (float, uint21x3): its bits as the reference defines them, entries then
    // trailer.
    std::vector<std::uint8_t> table;
    {
      auto section = r.profiler.section(clock_, "sat", kSatAlgorithm);
      table = reference::satTableBytesOf(reference::computeSat(*satInput, targets_.satFormat));
    }
    auto section = r.profiler.section(clock_, "upload sat");
    hostUploads_.upload(targets_.sat, table.data(), GLsizeiptr(table.size()));
  }

  std::vector<FilterImplementation> filterImplementations() const override { return cpuFilterImplementations(); }
  std::vector<BackendOption> options() const override { return cpuBackendOptions(); }
  std::string selected(const std::string& key) const override { return key == "sat" ? kSatAlgorithm : ""; }
  std::optional<std::string> select(const std::string& key, const std::string& name) override {
    if (key == "sat" && name == kSatAlgorithm) return std::nullopt;
    return "no " + key + " '" + name + "' in the cpu backend";
  }

 private:
  void unmapTable() {
    if (table_) glUnmapNamedBuffer(staging_.get());
    table_ = nullptr;
    staging_ = {};
    tableWords_ = 0;
  }
  // The scene colour into scene_: first the wait for the GL work queued before it (a
  // fence, so that the wait is not counted as transfer), then the transfer.
  void readBack(const ComputeRequest& r) {
    {
      auto wait = r.profiler.section(clock_, "wait for GL");
      const GLsync fence = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
      if (!fence) throw std::runtime_error("glFenceSync failed before the cpu backend's read back");
      GLenum status = GL_TIMEOUT_EXPIRED;
      for (GLbitfield flags = GL_SYNC_FLUSH_COMMANDS_BIT; status == GL_TIMEOUT_EXPIRED; flags = 0)
        status = glClientWaitSync(fence, flags, GLuint64(1'000'000'000));
      glDeleteSync(fence);
      if (status == GL_WAIT_FAILED) throw std::runtime_error("glClientWaitSync failed before the cpu backend's read back");
    }
    auto read = r.profiler.section(clock_, "read back");
    glGetTextureImage(targets_.sceneColour, 0, GL_RGBA, GL_UNSIGNED_BYTE, GLsizei(scene_.pixels.size()),
                      scene_.pixels.data());
  }
  void convolve(const ComputeRequest& r, const CpuImplementation& impl, reference::ImageRgba8& out,
                const char* section) {
    auto timed = r.profiler.section(clock_, section, impl.name);
    reference::convolve(scene_, *r.filter, r.settings.border, impl.math, out, pool_);
  }
  void upload(const ComputeRequest& r, GLuint texture, const reference::ImageRgba8& image, const char* section) {
    auto timed = r.profiler.section(clock_, section);
    glTextureSubImage2D(texture, 0, 0, 0, image.width, image.height, GL_RGBA, GL_UNSIGNED_BYTE, image.pixels.data());
  }

  Targets targets_;
  reference::ThreadPool pool_;  // every hardware thread, started once
  reference::ImageRgba8 scene_, filtered_, compared_;  // filtered_: filter A's, also the bokeh's input
  reference::ImageR32F bokehDepth_;                      // the bokeh's depth read-back
  gl::Buffer staging_;               // the uint32 table's staging buffer, mapped
  std::uint32_t* table_ = nullptr;  // its mapping, tableWords_ words
  std::size_t tableWords_ = 0;
  HostClock clock_;
};

}  // namespace

std::vector<BackendOption> cpuBackendOptions() {
  return {{"sat", "SAT algorithm", {{kSatAlgorithm, "the reference library's row sums plus the row above, on every core"}}, kSatAlgorithm}};
}

std::vector<FilterImplementation> cpuFilterImplementations() {
  std::vector<FilterImplementation> list;
  for (const auto& i : kImplementations) list.push_back({i.name, i.description, i.supports});
  return list;
}

std::unique_ptr<ComputeBackend> createCpuBackend(const Context&, const BackendSelections&, std::string&) {
  return std::make_unique<CpuBackend>();
}

}  // namespace satdof
