// app/dof/cuda_dof.cpp — the `cuda` DoF entry: the library's kernel (satdof/dof.h) on the
// cuda backend's interop session and stream (interop/stage_host.h). Per frame it maps
// {depth, sat, dof output} in one call, reads the depth and writes the output through
// surfaces, and unmaps; the same bytes as the GLSL passes.
#include "backends/compute_backend.h"
#include "dof/dof_implementation.h"
#include "interop/stage_host.h"
#include "satdof/dof.h"

namespace satdof {
namespace {

using interop::Target;

class CudaDof final : public DofImplementation {
 public:
  explicit CudaDof(interop::StageHost& host) : host_(host) {}

  void attach(const Targets&) override {}  // the session registers every target
  void reloadShaders(const std::filesystem::path&) override {}

  void run(const DofSettings& s, Profiler& profiler) override {
    const interop::Session& session = host_.session();
    const Targets& t = session.targets();
    const cudaStream_t stream = host_.stream();
    auto mapSection = profiler.section(host_.clock(), "dof map");
    auto mapped = session.map({Target::Depth, Target::Sat, Target::DofOutput}, stream);
    mapSection.end();
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
    {
      auto timed = profiler.section(host_.clock(), "dof", "cuda");
      SATDOF_CUDA_CHECK(launchDepthOfField(args, stream));
    }
    auto unmapSection = profiler.section(host_.clock(), "dof unmap");
    mapped.unmap();
  }

 private:
  interop::StageHost& host_;
};

}  // namespace

std::optional<std::string> cudaDofWhyNot(const ComputeBackend& backend) {
  if (dynamic_cast<const interop::StageHost*>(&backend)) return std::nullopt;
  return "needs the cuda compute backend (CUDA-GL interop); this one is " + std::string(backend.name());
}

std::unique_ptr<DofImplementation> createCudaDof(const std::filesystem::path&, ComputeBackend& backend) {
  auto* host = dynamic_cast<interop::StageHost*>(&backend);
  if (!host) throw std::runtime_error(*cudaDofWhyNot(backend));
  return std::make_unique<CudaDof>(*host);
}

}  // namespace satdof
