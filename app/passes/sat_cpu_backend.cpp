// app/passes/sat_cpu_backend.cpp — the CPU fallback: read the colour texture back, build
// the SAT with the reference library, upload it. Synchronous by nature; its time is
// measured on the host and reported as the SAT stage.
#include <chrono>

#include "passes/sat_backend.h"
#include "profiling/stage_times.h"
#include "satdof/reference/sat.h"

namespace satdof {
namespace {

class CpuSatBackend final : public SatBackend {
 public:
  std::string_view name() const override { return "cpu"; }

  void attach(GLuint colourTexture, GLuint satBuffer, Extent extent) override {
    colour_ = colourTexture;
    buffer_ = satBuffer;
    image_ = reference::ImageRgba8(extent.width, extent.height);
  }
  void detach() override { colour_ = buffer_ = 0; }

  void compute() override {
    const auto t0 = std::chrono::steady_clock::now();
    glGetTextureImage(colour_, 0, GL_RGBA, GL_UNSIGNED_BYTE, GLsizei(image_.pixels.size()),
                      image_.pixels.data());
    const reference::Sat sat = reference::computeSat(image_);
    glNamedBufferSubData(buffer_, 0, GLsizeiptr(sat.values.size() * sizeof(std::uint32_t)),
                         sat.values.data());
    const auto t1 = std::chrono::steady_clock::now();
    pendingMs_ = std::chrono::duration<float, std::milli>(t1 - t0).count();
  }

  void collectTimes(StageHistory& history, bool) override {
    if (pendingMs_ >= 0) history.add(Stage::Sat, pendingMs_);
    pendingMs_ = -1;
  }

 private:
  GLuint colour_ = 0, buffer_ = 0;
  reference::ImageRgba8 image_;
  float pendingMs_ = -1;
};

}  // namespace

std::unique_ptr<SatBackend> createCpuSatBackend() { return std::make_unique<CpuSatBackend>(); }

}  // namespace satdof
