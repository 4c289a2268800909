// app/passes/compute_cuda_backend.cpp — filter + SAT through CUDA-GL interop.
//
// Per frame, on one stream, everything between one map and one unmap:
//   [e0] map scene colour, filtered, compare (textures) and the SAT buffer [e1]
//   filtering on:  scene array -> linear input; [e2] conv A -> linear A [e3]
//                  A -> filtered texture; with comparison [e4] conv B -> linear B [e5]
//                  B -> compare texture; [e6] SAT of linear A [e7]
//   filtering off: [e6] SAT straight from the scene texture's surface [e7]
//   unmap [e8]
// Events are read back a few frames later (a ring), so timing never stalls the GPU.
// Registration happens in attach() (after every resize), release in detach(), before
// the compute pass deletes the GL objects. Scratch is sized on attach or on a change of
// implementation, never per frame.
#include <array>

#include "gl/handles.h"
#include "interop/cuda_gl.h"
#include "passes/compute_backend.h"
#include "profiling/stage_times.h"
#include "satdof/conv2d.h"
#include "satdof/sat.h"
#include "satdof/scan.h"

namespace satdof {
namespace {

class CudaComputeBackend final : public ComputeBackend {
 public:
  explicit CudaComputeBackend(const ScanVariant& scan) : scan_(&scan), stream_(interop::createStream()) {
    for (auto& f : frames_)
      for (auto& e : f.events) e = interop::createEvent();
  }
  ~CudaComputeBackend() override { detach(); }

  std::string_view name() const override { return "cuda"; }

  void attach(const ComputeTargets& t) override {
    detach();
    extent_ = t.extent;
    constexpr unsigned kSurface = cudaGraphicsRegisterFlagsSurfaceLoadStore;
    scene_ = interop::registerImage(t.sceneColour, kSurface);
    filtered_ = interop::registerImage(t.filtered, kSurface);
    compare_ = interop::registerImage(t.compare, kSurface);
    sat_ = interop::registerBuffer(t.sat, cudaGraphicsRegisterFlagsWriteDiscard);
    const std::size_t pixels = std::size_t(extent_.width) * extent_.height;
    input_.resize(pixels);
    outA_.resize(pixels);
    outB_.resize(pixels);
    satScratch_.resize(defaultSatAlgorithm().scratchBytes(satArgs()));
  }

  void detach() override {
    if (stream_) cudaStreamSynchronize(stream_.get());
    scene_.reset();
    filtered_.reset();
    compare_.reset();
    sat_.reset();
  }

  void compute(const FilterSettings& settings, const Filter* filter) override {
    FrameEvents& f = frames_[current_];
    if (f.pending) collect(f, true);  // its slot is being reused
    const cudaStream_t s = stream_.get();
    const ConvVariant* a = filter ? convVariant(settings.implementation) : nullptr;
    const ConvVariant* b = a && settings.compare ? convVariant(settings.compareImplementation) : nullptr;
    auto mark = [&](int i) { SATDOF_CUDA_CHECK(cudaEventRecord(f.events[i].get(), s)); };

    mark(0);
    {
      interop::MapScope mapped({scene_.get(), filtered_.get(), compare_.get(), sat_.get()}, s);
      mark(1);
      SatArgs satIn = satArgs();
      const std::size_t rowBytes = std::size_t(extent_.width) * sizeof(uchar4);
      std::size_t satBytes = 0;
      auto* sat = static_cast<uint4*>(mapped.pointer(3, &satBytes));
      satIn.table = sat;
      if (satBytes < satTableBytes(satIn.format, satIn.width, satIn.height))
        throw std::runtime_error("SAT buffer smaller than the image");
      if (a) {
        SATDOF_CUDA_CHECK(cudaMemcpy2DFromArrayAsync(input_.data(), rowBytes, mapped.array(0), 0, 0,
                                                     rowBytes, extent_.height, cudaMemcpyDeviceToDevice, s));
        mark(2);
        convolve(*a, *filter, settings.border, outA_, convScratchA_, s);
        mark(3);
        SATDOF_CUDA_CHECK(cudaMemcpy2DToArrayAsync(mapped.array(1), 0, 0, outA_.data(), rowBytes, rowBytes,
                                                   extent_.height, cudaMemcpyDeviceToDevice, s));
        mark(4);
        if (b) convolve(*b, *filter, settings.border, outB_, convScratchB_, s);
        mark(5);
        if (b)
          SATDOF_CUDA_CHECK(cudaMemcpy2DToArrayAsync(mapped.array(2), 0, 0, outB_.data(), rowBytes,
                                                     rowBytes, extent_.height, cudaMemcpyDeviceToDevice, s));
        mark(6);
        satIn.source = SatSource::linear(outA_.data(), rowBytes);
        SATDOF_CUDA_CHECK(defaultSatAlgorithm().launch(satIn, satScratch_.data(), satScratch_.size(), s));
      } else {
        for (int i = 2; i <= 6; ++i) mark(i);
        const interop::SurfaceObject surface = interop::createSurface(mapped.array(0));
        satIn.source = SatSource::fromSurface(surface.get());
        SATDOF_CUDA_CHECK(defaultSatAlgorithm().launch(satIn, satScratch_.data(), satScratch_.size(), s));
      }
      mark(7);
      mapped.unmap();
    }
    mark(8);
    f.pending = true;
    f.scan = scan_->name;
    f.filterA = a ? a->name : std::string_view();
    f.filterB = b ? b->name : std::string_view();
    current_ = (current_ + 1) % kRing;
  }

  void collectTimes(StageHistory& history, bool wait) override {
    for (int k = 0; k < kRing; ++k) collect(frames_[(current_ + k) % kRing], wait);
    for (const Finished& t : finished_) {
      history.add(Stage::MapUnmap, t.mapMs);
      history.addVariantTime(Stage::Sat, std::string(t.scan), t.satMs);
      if (!t.filterA.empty()) history.addVariantTime(Stage::Filter, std::string(t.filterA), t.filterAMs);
      if (!t.filterB.empty())
        history.addVariantTime(Stage::Filter, std::string(t.filterB), t.filterBMs, false);
    }
    finished_.clear();
  }

  std::vector<FilterImplementation> filterImplementations() const override {
    std::vector<FilterImplementation> list;
    for (const ConvVariant& v : convVariants())
      list.push_back({std::string(v.name), std::string(v.description), v.supports});
    return list;
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
    satScratch_.resize(defaultSatAlgorithm().scratchBytes(satArgs()));
    return true;
  }

 private:
  static constexpr int kRing = 3;
  struct FrameEvents {
    std::array<interop::Event, 9> events;  // see the file header for e0..e8
    bool pending = false;
    std::string_view scan, filterA, filterB;  // what ran in this frame (registry names)
  };
  struct Finished {
    float mapMs, satMs, filterAMs, filterBMs;
    std::string_view scan, filterA, filterB;
  };

  SatArgs satArgs() const {
    SatArgs args;
    args.width = extent_.width;
    args.height = extent_.height;
    args.scan = scan_;
    return args;
  }

  static const ConvVariant* convVariant(const std::string& name) {
    if (name.empty()) return &defaultConvVariant();
    if (const ConvVariant* v = findConvVariant(name)) return v;
    throw std::runtime_error("unknown convolution implementation '" + name + "'");
  }

  // Scratch grows to the largest need seen (sized here, outside the timed region, only
  // when a newly chosen implementation needs more).
  void convolve(const ConvVariant& v, const Filter& filter, Border border, DeviceBuffer<uchar4>& out,
                DeviceBuffer<unsigned char>& scratch, cudaStream_t s) {
    const std::size_t need = v.scratchBytes(extent_.width, extent_.height);
    if (scratch.size() < need) {
      SATDOF_CUDA_CHECK(cudaStreamSynchronize(s));
      scratch.resize(need);
    }
    ConvArgs args;
    args.in = input_.data();
    args.inPitchBytes = std::size_t(extent_.width) * sizeof(uchar4);
    args.out = out.data();
    args.outPitchBytes = args.inPitchBytes;
    args.width = extent_.width;
    args.height = extent_.height;
    args.filter = &filter;
    args.border = border;
    SATDOF_CUDA_CHECK(v.launch(args, scratch.data(), scratch.size(), s));
  }

  float elapsed(const FrameEvents& f, int from, int to) {
    float ms = 0;
    SATDOF_CUDA_CHECK(cudaEventElapsedTime(&ms, f.events[from].get(), f.events[to].get()));
    return ms;
  }

  // Reads a frame's events if they have completed (or waits, if asked) into finished_.
  void collect(FrameEvents& f, bool wait) {
    if (!f.pending) return;
    if (wait) {
      SATDOF_CUDA_CHECK(cudaEventSynchronize(f.events[8].get()));
    } else {
      const cudaError_t q = cudaEventQuery(f.events[8].get());
      if (q == cudaErrorNotReady) return;
      SATDOF_CUDA_CHECK(q);
    }
    finished_.push_back({elapsed(f, 0, 1) + elapsed(f, 7, 8), elapsed(f, 6, 7), elapsed(f, 2, 3),
                         elapsed(f, 4, 5), f.scan, f.filterA, f.filterB});
    f.pending = false;
  }

  const ScanVariant* scan_;
  interop::Stream stream_;
  std::array<FrameEvents, kRing> frames_;
  int current_ = 0;
  std::vector<Finished> finished_;  // read back, not yet handed to a StageHistory
  Extent extent_;
  interop::GraphicsResource scene_, filtered_, compare_, sat_;
  DeviceBuffer<uchar4> input_, outA_, outB_;  // linear images for the convolutions
  DeviceBuffer<unsigned char> satScratch_, convScratchA_, convScratchB_;
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
  interop::GraphicsResource r =
      interop::registerImage(probe.get(), cudaGraphicsRegisterFlagsSurfaceLoadStore);
  interop::MapScope(std::initializer_list<cudaGraphicsResource_t>{r.get()}, nullptr).unmap();
  return true;
}

}  // namespace

std::unique_ptr<ComputeBackend> createCudaComputeBackend(const std::string& scanVariant,
                                                         std::string& whyNot) {
  try {
    const ScanVariant* scan = scanVariant.empty() ? &defaultScanVariant() : findScanVariant(scanVariant);
    if (!scan) {
      whyNot = "unknown scan variant '" + scanVariant + "'";
      return nullptr;
    }
    if (!probeInterop(whyNot)) return nullptr;
    return std::make_unique<CudaComputeBackend>(*scan);
  } catch (const std::exception& e) {
    whyNot = std::string("CUDA-GL interop failed: ") + e.what();
    cudaGetLastError();
    return nullptr;
  }
}

}  // namespace satdof
