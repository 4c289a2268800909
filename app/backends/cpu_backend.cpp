// app/backends/cpu_backend.cpp — the cpu compute backend, the fallback that runs
// everywhere: read the scene colour back, filter it and build its SAT with the reference
// library, upload the results. Synchronous by nature, so its profiler sections are wall
// times on the host clock, and the read-back and the uploads are sections of their own.
// Bokeh highlights: the reference's list of the image the SAT read (backends/host_bokeh.h).
#include "backends/compute_backend.h"
#include "backends/host_bokeh.h"
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
    sat_ = {};  // a table sized for the old extent would keep its capacity
  }
  void detach() override { targets_ = {}; }

  void compute(const ComputeRequest& r) override {
    filterAndSat(r);
    if (r.bokeh) buildBokehOnHost(targets_, r.filter ? filtered_ : scene_, *r.bokeh, r.profiler);
  }
  std::string_view bokehMethod() const override { return kHostBokehMethod; }

  void filterAndSat(const ComputeRequest& r) {
    {
      auto read = r.profiler.section(clock_, "read back");
      glGetTextureImage(targets_.sceneColour, 0, GL_RGBA, GL_UNSIGNED_BYTE, GLsizei(scene_.pixels.size()),
                        scene_.pixels.data());
    }
    const reference::ImageRgba8* satInput = &scene_;
    if (r.filter) {
      filtered_ = convolve(r, find(r.settings.implementation), "filter A");
      upload(r, targets_.filtered, filtered_, "upload A");
      satInput = &filtered_;
      if (r.settings.compare) upload(r, targets_.compare, convolve(r, find(r.settings.compareImplementation), "filter B"),
                                       "upload B");
    }
    if (targets_.satFormat == SatFormat::Uint32) {
      {
        auto section = r.profiler.section(clock_, "sat", kSatAlgorithm);
        reference::computeSat(*satInput, sat_);  // into last frame's table: no allocation
      }
      auto section = r.profiler.section(clock_, "upload sat");
      glNamedBufferSubData(targets_.sat, 0, GLsizeiptr(sat_.values.size() * sizeof(std::uint32_t)), sat_.values.data());
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
    glNamedBufferSubData(targets_.sat, 0, GLsizeiptr(table.size()), table.data());
  }

  std::vector<FilterImplementation> filterImplementations() const override { return cpuFilterImplementations(); }
  std::vector<BackendOption> options() const override { return cpuBackendOptions(); }
  std::string selected(const std::string& key) const override { return key == "sat" ? kSatAlgorithm : ""; }
  std::optional<std::string> select(const std::string& key, const std::string& name) override {
    if (key == "sat" && name == kSatAlgorithm) return std::nullopt;
    return "no " + key + " '" + name + "' in the cpu backend";
  }

 private:
  reference::ImageRgba8 convolve(const ComputeRequest& r, const CpuImplementation& impl, const char* section) {
    auto timed = r.profiler.section(clock_, section, impl.name);
    return reference::convolve(scene_, *r.filter, r.settings.border, impl.math);
  }
  void upload(const ComputeRequest& r, GLuint texture, const reference::ImageRgba8& image, const char* section) {
    auto timed = r.profiler.section(clock_, section);
    glTextureSubImage2D(texture, 0, 0, 0, image.width, image.height, GL_RGBA, GL_UNSIGNED_BYTE, image.pixels.data());
  }

  Targets targets_;
  reference::ImageRgba8 scene_;
  reference::ImageRgba8 filtered_;  // filter A's output, kept for the bokeh highlights
  reference::Sat sat_;  // reused frame to frame (a fresh 4K table costs ~75 ms of page faults)
  HostClock clock_;
};

}  // namespace

std::vector<BackendOption> cpuBackendOptions() {
  return {{"sat", "SAT algorithm", {{kSatAlgorithm, "row running sums plus the row above, on the CPU"}}, kSatAlgorithm}};
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
