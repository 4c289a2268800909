// engine/backends/cuda_backend.cpp — the cuda compute backend: filter and SAT on the GPU
// through the interop session (engine/interop/session.h), on one stream of the device's greatest
// priority that every CUDA stage of the frame shares (the layered DoFs' split, reach and field
// SATs too): with a second stream in the frame, the pipelined frame waited 3.2-4.1 ms at every
// size for GL's next commands, though the isolated stages were faster side by side
// (docs/PERFORMANCE.md, "Every DoF on both GPU backends").
//
// Per frame, between one map and one unmap of what the frame uses ({scene colour, sat},
// filtered and compare when filtering, {depth, bokeh sprites, bokeh commands} with bokeh
// highlights, and what a later CUDA stage shares: the CUDA DoF takes the mapping over and
// unmaps it, so the frame has one GL-CUDA hand-over):
//   filtering on:  scene surface -> linear input (a kernel, satdof/surface_copy.h); conv A -> linear A -> filtered texture;
//                  with a comparison conv B -> linear B -> compare texture;
//                  the SAT of linear A
//   filtering off: the SAT straight from the scene texture's surface
//   bokeh:         satdof/bokeh.h on the image the SAT read: compaction, cap, radix sort,
//                  the sprites and the draw command straight into the GL buffers
// Each step is a named profiler section on the stream's CUDA events ("map", "copy scene", "filter A",
// "filter B", "sat", "bokeh select+sort", "unmap"), tagged with the implementation that
// ran. Scratch is sized
// on attach, on a change of SAT algorithm or scan variant, or when a newly chosen
// convolution needs more, never per frame.
#include <algorithm>
#include <array>
#include <span>

#include "engine/backends/compute_backend.h"
#include "engine/gl/handles.h"
#include "engine/interop/cuda_timestamps.h"
#include "engine/interop/session.h"
#include "engine/interop/stage_host.h"
#include "engine/parts/cuda_part.h"
#include "satdof/bokeh.h"
#include "satdof/compact.h"
#include "satdof/conv2d.h"
#include "satdof/cuda_diagnosis.h"
#include "satdof/device_buffer.h"
#include "satdof/sat.h"
#include "satdof/scan.h"
#include "satdof/sort.h"
#include "satdof/surface_copy.h"

namespace satdof {
namespace {

using interop::Target;

// Functions of the backend's registry entry (below, cuda_part::registerBackend), which its
// options() and filterImplementations() return too.
std::vector<BackendOption> cudaBackendOptions();
std::vector<FilterImplementation> cudaFilterImplementations();

template <class Registry>
std::vector<Choice> choicesOf(const Registry& entries) {
  std::vector<Choice> list;
  for (const auto& e : entries) list.push_back({std::string(e.name), std::string(e.description)});
  return list;
}

// The scan variants, each saying how it passes sums between blocks: reduce-then-scan's
// tiles do the same (satdof/sat.h).
std::vector<Choice> scanChoices() {
  std::vector<Choice> list;
  for (const ScanVariant& v : scanVariants())
    list.push_back({std::string(v.name), std::string(v.description) + "; between blocks and "
                                             "reduce-then-scan's tiles: " + std::string(v.acrossBlocks)});
  return list;
}

class CudaBackend final : public ComputeBackend, public interop::StageHost {
 public:
  CudaBackend(const SatAlgorithm& sat, const ScanVariant& scan)
      : sat_(&sat), scan_(&scan), stream_(interop::createStream(true)), clock_(stream_.get()),
        // What satdof/bokeh.h runs by default (its null variants).
        bokehTag_(std::string(defaultCompactVariant().name) + " / " + std::string(defaultSortVariant().name)),
        bokehMethod_("CUDA in the frame's one mapping: stream compaction (" +
                     std::string(defaultCompactVariant().name) + ") and radix sort (" +
                     std::string(defaultSortVariant().name) + "), no host round trip") {}
  ~CudaBackend() override { detach(); }

  std::string_view name() const override { return "cuda"; }
  std::string_view bokehMethod() const override { return bokehMethod_; }

  // interop::StageHost: later CUDA stages (the CUDA DoF) share the session and the stream.
  const interop::Session& session() const override { return session_; }
  cudaStream_t stream() const override { return stream_.get(); }
  TimestampSource& clock() override { return clock_; }
  void shareFrameMapping(std::vector<Target> targets) override { shared_ = std::move(targets); }
  std::unique_ptr<interop::Session::Mapped> takeFrameMapping() override { return std::move(frameMapping_); }
  void onFrameMapped(MappedWork work) override { onFrameMapped_ = std::move(work); }

  void attach(const Targets& t) override {
    detach();
    session_.attach(t);
    const std::size_t pixels = std::size_t(t.extent.width) * t.extent.height;
    input_.resize(pixels);
    outA_.resize(pixels);
    outB_.resize(pixels);
    resizeSatScratch();
  }

  void detach() override {
    frameMapping_.reset();
    if (stream_) cudaStreamSynchronize(stream_.get());
    bokehSurfaces_.clear();  // their arrays go with the registrations
    session_.detach();
  }

  void compute(const ComputeRequest& r) override {
    const Targets& t = session_.targets();
    const cudaStream_t s = stream_.get();
    const ConvVariant* a = r.filter ? convVariant(r.settings.implementation) : nullptr;
    const ConvVariant* b = a && r.settings.compare ? convVariant(r.settings.compareImplementation) : nullptr;
    const std::size_t rowBytes = std::size_t(t.extent.width) * sizeof(uchar4);

    // Only what this frame uses, plus what a later CUDA stage asked to share.
    // (A fixed list: no allocation per frame.)
    std::array<Target, std::size_t(Target::Count)> targets{Target::SceneColour, Target::Sat};
    std::size_t count = 2;
    auto add = [&](Target t) {
      if (std::find(targets.begin(), targets.begin() + count, t) == targets.begin() + count) targets[count++] = t;
    };
    if (a) add(Target::Filtered);
    if (b) add(Target::Compare);
    if (r.bokeh)
      for (Target t : {Target::Depth, Target::BokehSprites, Target::BokehCommands}) add(t);
    for (Target t : shared_) add(t);
    frameMapping_.reset();  // a mapping left open and never taken (the stage went away)
    auto mapSection = r.profiler.section(clock_, "map");
    auto mappedOwner =
        std::make_unique<interop::Session::Mapped>(session_, std::span<const Target>(targets.data(), count), s);
    mapSection.end();
    interop::Session::Mapped& mapped = *mappedOwner;
    if (!shared_.empty() && onFrameMapped_) onFrameMapped_(mapped, r.profiler);

    SatArgs sat = satArgs();
    std::size_t satBytes = 0;
    sat.table = mapped.pointer(Target::Sat, &satBytes);
    if (satBytes < satTableBytes(sat.format, sat.width, sat.height))
      throw std::runtime_error("SAT buffer smaller than the table");
    interop::SurfaceObject scene = interop::createSurface(mapped.array(Target::SceneColour));
    if (a) {
      {
        auto section = r.profiler.section(clock_, "copy scene");
        SATDOF_CUDA_CHECK(launchSurfaceToLinear(scene.get(), input_.data(), rowBytes, t.extent.width,
                                                t.extent.height, s));
      }
      convolve(r, *a, "filter A", outA_, convScratchA_);
      toTexture(mapped.array(Target::Filtered), outA_);
      if (b) {
        convolve(r, *b, "filter B", outB_, convScratchB_);
        toTexture(mapped.array(Target::Compare), outB_);
      }
      sat.source = SatSource::linear(outA_.data(), rowBytes);
    } else {
      sat.source = SatSource::fromSurface(scene.get());
    }
    {
      auto section = r.profiler.section(clock_, "sat", satTag());
      SATDOF_CUDA_CHECK(sat_->launch(sat, satScratch_.data(), satScratch_.size(), s));
    }
    scene.reset();
    if (r.bokeh) bokeh(mapped, a ? Target::Filtered : Target::SceneColour, *r.bokeh, r.profiler);
    if (!shared_.empty()) {  // the later stage unmaps
      frameMapping_ = std::move(mappedOwner);
      return;
    }
    auto unmapSection = r.profiler.section(clock_, "unmap");
    mapped.unmap();
  }

  // The layered DoF's field SATs: the fields and their tables in one map, the selected
  // SAT algorithm straight from each field's surface.
  void buildFieldSats(const Targets& t, Profiler& profiler) override {
    auto mapSection = profiler.section(clock_, "fields map");
    std::array<Target, 2 * FieldTables::kMax> targets;
    std::size_t count = 0;
    const FieldTables fields = fieldTables(t);
    for (const FieldTable& f : fields) targets[count++] = f.field, targets[count++] = f.table;
    interop::Session::Mapped mapped(session_, std::span<const Target>(targets.data(), count), stream_.get());
    mapSection.end();
    buildFieldSats(mapped, profiler, fields);
    auto unmapSection = profiler.section(clock_, "fields unmap");
    mapped.unmap();
  }

  // The tables one after the other on the frame's stream, sharing one scratch. Built side
  // by side on streams of their own they took 0.017-0.035 ms less alone, and cost the
  // pipelined frame 3.2-4.1 ms (stage_host.h).
  void buildFieldSats(const interop::Session::Mapped& mapped, Profiler& profiler, const FieldTables& fields) override {
    const cudaStream_t s = stream_.get();
    SatArgs args = satArgs();
    std::size_t need = 0;
    for (const FieldTable& f : fields) {
      args.format = f.format;
      if (auto why = sat_->whyNot(args.format)) throw std::runtime_error(std::string(sat_->name) + ": " + *why);
      need = std::max(need, sat_->scratchBytes(args));
    }
    if (fieldScratch_.size() < need) {
      SATDOF_CUDA_CHECK(cudaStreamSynchronize(s));  // last frame's tables may still use it
      fieldScratch_.resize(need);
    }
    fieldSurfaces_.clear();  // last frame's: its work finished before this frame's map
    // Every surface made before the section: a host call between the launches would leave
    // the stream idle within the timed span.
    std::array<std::pair<cudaSurfaceObject_t, void*>, FieldTables::kMax> sats;
    std::size_t count = 0;
    for (const FieldTable& f : fields)
      sats[count++] = {fieldSurfaces_.emplace_back(interop::createSurface(mapped.array(f.field))).get(),
                       mapped.pointer(f.table)};
    auto section = profiler.section(clock_, "field sats", satTag());
    for (std::size_t i = 0; i < count; ++i) {
      args.format = fields.begin()[i].format;
      args.source = SatSource::fromSurface(sats[i].first);
      args.table = sats[i].second;
      SATDOF_CUDA_CHECK(sat_->launch(args, fieldScratch_.data(), fieldScratch_.size(), s));
    }
  }

  // The bokeh highlights of `colour` and the depth, in this frame's mapping: no second
  // hand-over for them.
  void bokeh(const interop::Session::Mapped& mapped, Target colour, const BokehRequest& r, Profiler& profiler) {
    const Targets& t = session_.targets();
    const cudaStream_t s = stream_.get();
    bokehSurfaces_.clear();  // last frame's: its work finished before this frame's map
    BokehArgs a;
    a.colour = bokehSurfaces_.emplace_back(interop::createSurface(mapped.array(colour))).get();
    a.depth = bokehSurfaces_.emplace_back(interop::createSurface(mapped.array(Target::Depth))).get();
    a.width = t.extent.width;
    a.height = t.extent.height;
    a.ramp = r.ramp;
    a.settings = r.select;
    a.sprites = static_cast<reference::BokehSprite*>(mapped.pointer(Target::BokehSprites));
    a.command = reinterpret_cast<BokehCommand*>(static_cast<unsigned char*>(mapped.pointer(Target::BokehCommands)) +
                                                std::size_t(r.slot) * kBokehCommandBytes);
    if (const std::size_t need = bokehScratchBytes(a); bokehScratch_.size() < need) {
      SATDOF_CUDA_CHECK(cudaStreamSynchronize(s));
      bokehScratch_.resize(need);
    }
    auto timed = profiler.section(clock_, "bokeh select+sort", bokehTag_);
    SATDOF_CUDA_CHECK(launchBokehHighlights(a, bokehScratch_.data(), bokehScratch_.size(), s));
  }

  std::vector<FilterImplementation> filterImplementations() const override {
    return cudaFilterImplementations();
  }
  std::vector<BackendOption> options() const override { return cudaBackendOptions(); }

  std::string selected(const std::string& key) const override {
    if (key == "sat") return std::string(sat_->name);
    if (key == "scan") return std::string(scan_->name);
    return {};
  }

  std::optional<std::string> select(const std::string& key, const std::string& name) override {
    const SatAlgorithm* sat = key == "sat" ? findSatAlgorithm(name) : sat_;
    const ScanVariant* scan = key == "scan" ? findScanVariant(name) : scan_;
    if (!sat || !scan) return "no " + key + " '" + name + "' in the cuda backend";
    if (auto why = sat->whyNot(session_.targets().satFormat)) return std::string(sat->name) + ": " + *why;
    if (auto why = whyNotWithScan(*sat, *scan)) return why;
    if (sat == sat_ && scan == scan_) return std::nullopt;
    SATDOF_CUDA_CHECK(cudaStreamSynchronize(stream_.get()));  // scratch may be in use
    sat_ = sat;
    scan_ = scan;
    resizeSatScratch();
    return std::nullopt;
  }

 private:
  SatArgs satArgs() const {
    const Targets& t = session_.targets();
    SatArgs args;
    args.width = t.extent.width;
    args.height = t.extent.height;
    args.format = t.satFormat;
    args.scan = scan_;
    return args;
  }
  // What ran, for the per-implementation times: the scan only where the algorithm uses one.
  std::string satTag() const {
    return satSectionTag(sat_->name, sat_->usesScan ? scan_->name : std::string_view{});
  }
  void resizeSatScratch() {
    if (auto why = sat_->whyNot(session_.targets().satFormat))
      throw std::runtime_error(std::string(sat_->name) + ": " + *why);
    satScratch_.resize(sat_->scratchBytes(satArgs()));
  }

  static const ConvVariant* convVariant(const std::string& name) {
    if (name.empty()) return &defaultConvVariant();
    if (const ConvVariant* v = findConvVariant(name)) return v;
    throw std::runtime_error("unknown convolution implementation '" + name + "'");
  }

  // Scratch grows to the largest need seen (sized here, outside the timed section, only
  // when a newly chosen implementation needs more).
  void convolve(const ComputeRequest& r, const ConvVariant& v, std::string_view section,
                DeviceBuffer<uchar4>& out, DeviceBuffer<unsigned char>& scratch) {
    const Extent e = session_.targets().extent;
    const std::size_t need = v.scratchBytes(e.width, e.height);
    if (scratch.size() < need) {
      SATDOF_CUDA_CHECK(cudaStreamSynchronize(stream_.get()));
      scratch.resize(need);
    }
    ConvArgs args;
    args.in = input_.data();
    args.inPitchBytes = std::size_t(e.width) * sizeof(uchar4);
    args.out = out.data();
    args.outPitchBytes = args.inPitchBytes;
    args.width = e.width;
    args.height = e.height;
    args.filter = r.filter;
    args.border = r.settings.border;
    auto timed = r.profiler.section(clock_, section, v.name);
    SATDOF_CUDA_CHECK(v.launch(args, scratch.data(), scratch.size(), stream_.get()));
  }

  void toTexture(cudaArray_t texture, const DeviceBuffer<uchar4>& image) {
    const Extent e = session_.targets().extent;
    const std::size_t rowBytes = std::size_t(e.width) * sizeof(uchar4);
    SATDOF_CUDA_CHECK(cudaMemcpy2DToArrayAsync(texture, 0, 0, image.data(), rowBytes, rowBytes, e.height,
                                               cudaMemcpyDeviceToDevice, stream_.get()));
  }

  const SatAlgorithm* sat_;
  const ScanVariant* scan_;
  interop::Stream stream_;
  interop::CudaTimestamps clock_;
  interop::Session session_;
  std::string bokehTag_, bokehMethod_;
  DeviceBuffer<uchar4> input_, outA_, outB_;  // linear images for the convolutions
  DeviceBuffer<unsigned char> satScratch_, convScratchA_, convScratchB_, bokehScratch_;
  DeviceBuffer<unsigned char> fieldScratch_;  // the field SATs', one after another
  std::vector<Target> shared_;                            // shareFrameMapping
  MappedWork onFrameMapped_;                              // a later stage's, on each map of shared_
  std::vector<interop::SurfaceObject> fieldSurfaces_;     // kept until the next frame
  std::vector<interop::SurfaceObject> bokehSurfaces_;     // kept until the next frame
  std::unique_ptr<interop::Session::Mapped> frameMapping_;  // left open for a later stage
};

// Interop needs the GL context on a CUDA device; ask CUDA which devices back it, then
// prove it with a tiny register / map / unmap round trip. Why not, in one short line
// (satdof/cuda_diagnosis.h: the GPU tests skip with the same words).
bool probeInterop(std::string& whyNot) {
  if (whyNot = cudaUnavailableReason(); !whyNot.empty()) return false;
  unsigned int glDevices = 0;
  int list[8] = {};
  const cudaError_t e = cudaGLGetDevices(&glDevices, list, 8, cudaGLDeviceListAll);
  if (e != cudaSuccess || glDevices == 0) {
    const char* renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
    whyNot = glNotOnCudaGpuReason(renderer ? renderer : "");
    cudaGetLastError();
    return false;
  }
  SATDOF_CUDA_CHECK(cudaSetDevice(list[0]));
  const gl::Texture probe = gl::createTexture2D(GL_RGBA8, 16, 16);
  interop::GraphicsResource r = interop::registerImage(probe.get(), cudaGraphicsRegisterFlagsSurfaceLoadStore);
  interop::MapScope({r.get()}, nullptr).unmap();
  return true;
}

// The selection for `key`, or the option's default.
template <class Entry>
const Entry* chosen(const BackendSelections& selections, const char* key, const Entry* (*find)(std::string_view),
                    const Entry& fallback) {
  const auto it = selections.find(key);
  return it == selections.end() ? &fallback : find(it->second);
}

std::vector<BackendOption> cudaBackendOptions() {
  return {{"sat", "SAT algorithm", choicesOf(satAlgorithms()), std::string(defaultSatAlgorithm().name)},
          {"scan", "scan variant", scanChoices(),
           std::string(defaultSatScanVariant().name), true}};
}

std::vector<FilterImplementation> cudaFilterImplementations() {
  std::vector<FilterImplementation> list;
  for (const ConvVariant& v : convVariants())
    list.push_back({std::string(v.name), std::string(v.description), v.supports});
  return list;
}

std::string cudaWhyNotOnThisMachine() { return cudaUnavailableReason(); }

std::unique_ptr<ComputeBackend> createCudaBackend(const Context& context, const BackendSelections& selections,
                                                  std::string& reason) {
  const SatAlgorithm* sat = chosen(selections, "sat", findSatAlgorithm, defaultSatAlgorithm());
  const ScanVariant* scan = chosen(selections, "scan", findScanVariant, defaultSatScanVariant());
  if (!sat || !scan) {
    reason = "unknown SAT algorithm or scan variant";  // the command line checks names first
    return nullptr;
  }
  // The selections, not this machine: a usage error wherever it runs.
  if (auto why = whyNotWithScan(*sat, *scan)) throw std::invalid_argument("--scan " + std::string(scan->name) + ": " + *why);
  try {
    if (!probeInterop(reason)) return nullptr;
    reason = "GL (" + context.renderer + ") and CUDA share the GPU";
    return std::make_unique<CudaBackend>(*sat, *scan);
  } catch (const std::exception& e) {
    reason = std::string("CUDA-GL interop failed: ") + e.what();
    cudaGetLastError();
    return nullptr;
  }
}

}  // namespace

void cuda_part::registerBackend() {
  registerComputeBackend({.name = "cuda",
                          .options = cudaBackendOptions,
                          .filterImplementations = cudaFilterImplementations,
                          .create = createCudaBackend,
                          .whyNotOnThisMachine = cudaWhyNotOnThisMachine});
}

}  // namespace satdof
