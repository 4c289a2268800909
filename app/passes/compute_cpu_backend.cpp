// app/passes/compute_cpu_backend.cpp — the CPU fallback: read the scene colour back,
// filter it and build its SAT with the reference library, upload the results.
// Synchronous by nature; its stages are timed on the host.
#include <chrono>

#include "passes/compute_backend.h"
#include "profiling/stage_times.h"
#include "satdof/reference/sat.h"

namespace satdof {
namespace {

using Clock = std::chrono::steady_clock;

float msSince(Clock::time_point t0) {
  return std::chrono::duration<float, std::milli>(Clock::now() - t0).count();
}

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
    {"cpu-direct", "reference: (2r+1)^2 taps per pixel, float FMA, row-major order", ConvMath::Direct,
     nullptr},
    {"cpu-separable", "reference: a row pass then a column pass, float intermediate",
     ConvMath::Separable, separableOnly},
    {"cpu-box-sum", "reference: exact integer box mean", ConvMath::BoxSum, boxOnly},
};

const CpuImplementation& find(const std::string& name) {
  for (const auto& i : kImplementations)
    if (name == i.name) return i;
  return kImplementations[0];
}

class CpuComputeBackend final : public ComputeBackend {
 public:
  std::string_view name() const override { return "cpu"; }

  void attach(const ComputeTargets& targets) override {
    targets_ = targets;
    scene_ = reference::ImageRgba8(targets.extent.width, targets.extent.height);
  }
  void detach() override { targets_ = {}; }

  void compute(const FilterSettings& settings, const Filter* filter) override {
    auto t0 = Clock::now();
    glGetTextureImage(targets_.sceneColour, 0, GL_RGBA, GL_UNSIGNED_BYTE,
                      GLsizei(scene_.pixels.size()), scene_.pixels.data());
    const reference::ImageRgba8* satInput = &scene_;
    reference::ImageRgba8 filtered;
    if (filter) {
      const CpuImplementation& a = find(settings.implementation);
      filtered = reference::convolve(scene_, *filter, settings.border, a.math);
      upload(targets_.filtered, filtered);
      times_.push_back({Stage::Filter, a.name, msSince(t0)});
      satInput = &filtered;
      if (settings.compare) {
        const CpuImplementation& b = find(settings.compareImplementation);
        const auto t1 = Clock::now();
        upload(targets_.compare, reference::convolve(scene_, *filter, settings.border, b.math));
        times_.push_back({Stage::Filter, b.name, msSince(t1), false});
      }
      t0 = Clock::now();
    }
    const reference::Sat sat = reference::computeSat(*satInput);
    glNamedBufferSubData(targets_.sat, 0, GLsizeiptr(sat.values.size() * sizeof(std::uint32_t)),
                         sat.values.data());
    times_.push_back({Stage::Sat, "cpu", msSince(t0)});
  }

  void collectTimes(StageHistory& history, bool) override {
    for (const Timed& t : times_) history.addVariantTime(t.stage, t.variant, t.ms, t.countsForStage);
    times_.clear();
  }

  std::vector<FilterImplementation> filterImplementations() const override {
    std::vector<FilterImplementation> list;
    for (const auto& i : kImplementations) list.push_back({i.name, i.description, i.supports});
    return list;
  }

 private:
  struct Timed {
    Stage stage;
    std::string variant;
    float ms;
    bool countsForStage = true;  // false for the comparison filter B
  };

  void upload(GLuint texture, const reference::ImageRgba8& image) {
    glTextureSubImage2D(texture, 0, 0, 0, image.width, image.height, GL_RGBA, GL_UNSIGNED_BYTE,
                        image.pixels.data());
  }

  ComputeTargets targets_;
  reference::ImageRgba8 scene_;
  std::vector<Timed> times_;
};

}  // namespace

std::unique_ptr<ComputeBackend> createCpuComputeBackend() {
  return std::make_unique<CpuComputeBackend>();
}

}  // namespace satdof
