// app/passes/sat_cuda_backend.cpp — SAT through CUDA-GL interop (no host round trip).
//
// Per frame, on one stream:  [event] map colour texture + SAT buffer (one call) [event]
//   computeSatRgba8 (surface in, uint4 out; the chosen scan variant) [event] unmap [event]
// The events of a frame are read back a few frames later (a small ring), so timing does
// not stall the GPU. Registration happens in attach() (after every resize) and is
// released in detach(), before the SAT pass deletes the GL objects.
#include <array>
#include <chrono>

#include "interop/cuda_gl.h"
#include "passes/sat_backend.h"
#include "profiling/stage_times.h"
#include "satdof/sat.h"
#include "satdof/scan.h"

namespace satdof {
namespace {

class CudaSatBackend final : public SatBackend {
 public:
  explicit CudaSatBackend(const ScanVariant& scan) : scan_(&scan), stream_(interop::createStream()) {
    for (auto& f : frames_)
      for (auto& e : f.events) e = interop::createEvent();
  }
  ~CudaSatBackend() override { detach(); }

  std::string_view name() const override { return "cuda"; }

  void attach(GLuint colourTexture, GLuint satBuffer, Extent extent) override {
    detach();
    extent_ = extent;
    colour_ = interop::registerImage(colourTexture, cudaGraphicsRegisterFlagsSurfaceLoadStore);
    sat_ = interop::registerBuffer(satBuffer, cudaGraphicsRegisterFlagsWriteDiscard);
    resizeScratch();
  }

  void detach() override {
    if (stream_) cudaStreamSynchronize(stream_.get());
    colour_.reset();
    sat_.reset();
    for (auto& f : frames_) f.pending = false;
  }

  void compute() override {
    FrameEvents& f = frames_[current_];
    if (f.pending) collect(f, nullptr, true);  // its slot is being reused
    const cudaStream_t s = stream_.get();
    SATDOF_CUDA_CHECK(cudaEventRecord(f.events[0].get(), s));
    {
      interop::MapScope mapped({colour_.get(), sat_.get()}, s);
      SATDOF_CUDA_CHECK(cudaEventRecord(f.events[1].get(), s));
      const interop::SurfaceObject surface = interop::createSurface(mapped.array(0));
      std::size_t bytes = 0;
      auto* out = static_cast<uint4*>(mapped.pointer(1, &bytes));
      const SatShape shape{extent_.width, extent_.height};
      if (bytes < std::size_t(shape.width) * shape.height * sizeof(uint4))
        throw std::runtime_error("SAT buffer smaller than the image");
      SATDOF_CUDA_CHECK(computeSatRgba8(surface.get(), shape, out, *scan_, scratch_.data(),
                                        scratch_.size(), s));
      SATDOF_CUDA_CHECK(cudaEventRecord(f.events[2].get(), s));
      mapped.unmap();
    }
    SATDOF_CUDA_CHECK(cudaEventRecord(f.events[3].get(), s));
    f.pending = true;
    f.variant = scan_->name;
    current_ = (current_ + 1) % kRing;
  }

  void collectTimes(StageHistory& history, bool wait) override {
    for (int k = 0; k < kRing; ++k) collect(frames_[(current_ + k) % kRing], &history, wait);
  }

  std::vector<std::string> scanVariants() const override {
    std::vector<std::string> names;
    for (const ScanVariant& v : satdof::scanVariants()) names.emplace_back(v.name);
    return names;
  }
  std::string scanVariant() const override { return std::string(scan_->name); }
  bool setScanVariant(const std::string& name) override {
    const ScanVariant* v = findScanVariant(name);
    if (!v) return false;
    SATDOF_CUDA_CHECK(cudaStreamSynchronize(stream_.get()));  // scratch may be in use
    scan_ = v;
    resizeScratch();
    return true;
  }

 private:
  static constexpr int kRing = 3;
  struct FrameEvents {
    std::array<interop::Event, 4> events;  // before map, mapped, SAT done, unmapped
    bool pending = false;
    std::string_view variant;  // the scan variant this frame used
  };

  void resizeScratch() {
    scratch_.resize(satScratchBytes({extent_.width, extent_.height}, *scan_));
  }

  // Reads a frame's events if they have completed (or waits, if asked).
  void collect(FrameEvents& f, StageHistory* history, bool wait) {
    if (!f.pending) return;
    if (wait) {
      SATDOF_CUDA_CHECK(cudaEventSynchronize(f.events[3].get()));
    } else {
      const cudaError_t q = cudaEventQuery(f.events[3].get());
      if (q == cudaErrorNotReady) return;
      SATDOF_CUDA_CHECK(q);
    }
    float map = 0, sat = 0, unmap = 0;
    SATDOF_CUDA_CHECK(cudaEventElapsedTime(&map, f.events[0].get(), f.events[1].get()));
    SATDOF_CUDA_CHECK(cudaEventElapsedTime(&sat, f.events[1].get(), f.events[2].get()));
    SATDOF_CUDA_CHECK(cudaEventElapsedTime(&unmap, f.events[2].get(), f.events[3].get()));
    if (history) {
      history->add(Stage::MapUnmap, map + unmap);
      history->add(Stage::Sat, sat);
      history->addVariantSat(std::string(f.variant), sat);
    }
    f.pending = false;
  }

  const ScanVariant* scan_;
  interop::Stream stream_;
  std::array<FrameEvents, kRing> frames_;
  int current_ = 0;
  Extent extent_;
  interop::GraphicsResource colour_, sat_;
  DeviceBuffer<unsigned char> scratch_;
};

// Interop needs the GL context on a CUDA device; ask CUDA which devices back it, then
// prove it with a tiny register / map / unmap round trip.
bool probeInterop(std::string& whyNot) {
  int devices = 0;
  if (const cudaError_t e = cudaGetDeviceCount(&devices); e != cudaSuccess || devices == 0) {
    whyNot = std::string("no CUDA device (") +
             (e != cudaSuccess ? cudaGetErrorString(e) : "none found") + ")";
    cudaGetLastError();
    return false;
  }
  unsigned int glDevices = 0;
  int list[8] = {};
  const cudaError_t e = cudaGLGetDevices(&glDevices, list, 8, cudaGLDeviceListAll);
  if (e != cudaSuccess || glDevices == 0) {
    const char* renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
    whyNot = std::string("the GL context (") + (renderer ? renderer : "?") +
             ") is not on a CUDA device, so CUDA-GL interop is impossible";
    cudaGetLastError();
    return false;
  }
  SATDOF_CUDA_CHECK(cudaSetDevice(list[0]));
  const gl::Texture probe = gl::createTexture2D(GL_RGBA8, 16, 16);
  interop::GraphicsResource r = interop::registerImage(
      probe.get(), cudaGraphicsRegisterFlagsSurfaceLoadStore);
  interop::MapScope(std::initializer_list<cudaGraphicsResource_t>{r.get()}, nullptr).unmap();
  return true;
}

}  // namespace

std::unique_ptr<SatBackend> createCudaSatBackend(const std::string& scanVariant, std::string& whyNot) {
  try {
    const ScanVariant* scan = scanVariant.empty() ? &defaultScanVariant() : findScanVariant(scanVariant);
    if (!scan) {
      whyNot = "unknown scan variant '" + scanVariant + "'";
      return nullptr;
    }
    if (!probeInterop(whyNot)) return nullptr;
    return std::make_unique<CudaSatBackend>(*scan);
  } catch (const std::exception& e) {
    whyNot = std::string("CUDA-GL interop failed: ") + e.what();
    cudaGetLastError();
    return nullptr;
  }
}

}  // namespace satdof
