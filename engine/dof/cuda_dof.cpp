// engine/dof/cuda_dof.cpp — the `cuda` DoF entry: the library's kernel (satdof/dof.h) on the
// cuda backend's interop session and stream (engine/interop/stage_host.h). Per frame it maps
// {depth, sat, dof output} in one call, reads the depth and writes the output through
// surfaces, and unmaps; the same bytes as the GLSL passes. It maps nothing itself: the
// backend maps {depth, dof output} with its own targets and leaves that mapping open for
// it (engine/interop/stage_host.h), so the frame pays for one GL-CUDA hand-over, not two.
#include "engine/backends/compute_backend.h"
#include "engine/dof/dof_implementation.h"
#include "engine/interop/stage_host.h"
#include "engine/parts/cuda_part.h"
#include "satdof/dof.h"

namespace satdof {
namespace {

using interop::Target;

class CudaDof final : public DofImplementation {
 public:
  explicit CudaDof(interop::StageHost& host) : host_(host) {
    host_.shareFrameMapping({Target::Depth, Target::Sat, Target::DofOutput});
  }
  ~CudaDof() override { host_.shareFrameMapping({}); }

  void attach(const Targets&) override {}  // the session registers every target
  void reloadShaders(const std::filesystem::path&) override {}

  void run(const DofSettings& s, const DofInputs&, Profiler& profiler) override {
    const interop::Session& session = host_.session();
    const Targets& t = session.targets();
    const cudaStream_t stream = host_.stream();
    std::unique_ptr<interop::Session::Mapped> owner = host_.takeFrameMapping();
    if (!owner) {  // the backend did not run this frame (nothing to blur yet)
      auto mapSection = profiler.section(host_.clock(), "dof map");
      owner = std::make_unique<interop::Session::Mapped>(
          session, std::initializer_list<Target>{Target::Depth, Target::Sat, Target::DofOutput}, stream);
    }
    interop::Session::Mapped& mapped = *owner;
    const interop::SurfaceObject depth = interop::createSurface(mapped.array(Target::Depth));
    const interop::SurfaceObject output = interop::createSurface(mapped.array(Target::DofOutput));
    DofKernelArgs args;
    args.depth = depth.get();
    args.output = output.get();
    args.table = mapped.pointer(Target::Sat);
    args.format = t.satFormat;
    args.width = t.extent.width;
    args.height = t.extent.height;
    args.ramp = reference::cocRamp(s.params, t.extent.width);
    args.showCoc = s.showCoc;
    args.aperture = s.params.aperture;
    {
      auto timed = profiler.section(host_.clock(), "dof", "cuda");
      SATDOF_CUDA_CHECK(launchDepthOfField(args, stream));
    }
    auto unmapSection = profiler.section(host_.clock(), "unmap");
    mapped.unmap();
  }

 private:
  interop::StageHost& host_;
};

std::optional<std::string> cudaDofWhyNot(const ComputeBackend& backend) {
  if (dynamic_cast<const interop::StageHost*>(&backend)) return std::nullopt;
  return "needs the cuda compute backend (CUDA-GL interop); this one is " + std::string(backend.name());
}

std::unique_ptr<DofImplementation> createCudaDof(const std::filesystem::path&, ComputeBackend& backend) {
  auto* host = dynamic_cast<interop::StageHost*>(&backend);
  if (!host) throw std::runtime_error(*cudaDofWhyNot(backend));
  return std::make_unique<CudaDof>(*host);
}

}  // namespace

void cuda_part::registerDof() {
  registerDofImplementation({.name = "cuda",
                             .fields = DofFields::None,
                             .whyNot = cudaDofWhyNot,
                             .create = createCudaDof,
                             .onlyBackend = "cuda"});
}

}  // namespace satdof
