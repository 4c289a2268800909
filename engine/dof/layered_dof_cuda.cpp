// engine/dof/layered_dof_cuda.cpp — the layered DoF's path on the cuda backend
// (layered_cuda_path.h; what runs where: layered_dof.cpp), part of the CUDA part: the split
// and the reach as the library's kernels (satdof/dof.h) and the field SATs by the backend,
// inside the backend's mapping of the frame, on its one stream (engine/interop/stage_host.h).
#include <utility>
#include <vector>

#include "engine/backends/compute_backend.h"
#include "engine/dof/layered_cuda_path.h"
#include "engine/interop/stage_host.h"
#include "engine/parts/cuda_part.h"
#include "satdof/device_buffer.h"
#include "satdof/dof.h"

namespace satdof {
namespace {

using interop::Target;

class LayeredOnStageHost final : public LayeredCudaPath {
 public:
  // Layered splits in CUDA inside the backend's mapping; see-through splits on GL before the
  // backend runs (beforeBackend), the fields then mapped as they are.
  LayeredOnStageHost(interop::StageHost& host, const LayeredDofView& dof) : host_(host), dof_(dof) {
    std::vector<Target> shared{Target::Depth,   Target::SceneColour, Target::Filtered,       Target::NearField,
                               Target::FarField, Target::NearSat,    Target::FarSat,         Target::NearTileRadius,
                               Target::NearRadius, Target::NearReach};
    if (dof_.seeThrough) shared.insert(shared.end(), {Target::FarSide, Target::FarSideSat});
    if (dof_.linear) shared.insert(shared.end(), {Target::LinearColour, Target::LinearColourSat});
    host_.shareFrameMapping(std::move(shared));
    // See-through's split runs before the backend, so its reach can start as soon as
    // the backend maps the frame: beside the frame's SAT and then the field SATs.
    if (dof_.seeThrough)
      host_.onFrameMapped([this](const interop::Session::Mapped& mapped, Profiler& profiler) {
        if (!dof_.splitAhead) return;
        surfaces_.clear();  // last frame's: its work finished before this frame's map
        reach(mapped, profiler);
      });
  }
  ~LayeredOnStageHost() override {
    host_.onFrameMapped({});
    host_.shareFrameMapping({});
  }

  bool takeFrameMapping() override {
    frameMapping_ = host_.takeFrameMapping();
    const bool reachStarted = frameMapping_ && dof_.splitAhead;
    if (!reachStarted) surfaces_.clear();  // last frame's: its work finished before this frame's map
    return reachStarted;
  }

  bool split(bool filteredSource, const reference::CocRamp& ramp, Profiler& profiler) override {
    if (!frameMapping_) return false;  // the backend did not run this frame
    const interop::Session::Mapped* mapped = frameMapping_.get();
    const Targets& t = dof_.targets;
    const cudaStream_t stream = host_.stream();
    {
      // The surfaces made and the scratch grown before the section: host calls inside it
      // would leave the stream idle within the timed span.
      auto surface = [&](Target target) {
        return surfaces_.emplace_back(interop::createSurface(mapped->array(target))).get();
      };
      LayerSplitArgs a;
      a.depth = surface(Target::Depth);
      a.colour = surface(filteredSource ? Target::Filtered : Target::SceneColour);
      a.nearField = surface(Target::NearField);
      a.farField = surface(Target::FarField);
      a.tileRadius = surface(Target::NearTileRadius);
      a.nearRadius = surface(Target::NearRadius);
      a.width = t.extent.width;
      a.height = t.extent.height;
      a.ramp = ramp;
      if (const std::size_t need = layerSplitScratchBytes(a.width, a.height); tileScratch_.size() < need)
        tileScratch_.resize(need);
      auto timed = profiler.section(host_.clock(), "dof split", "layered (CUDA)");
      SATDOF_CUDA_CHECK(launchLayerSplit(a, tileScratch_.data(), tileScratch_.size(), stream));
    }
    return true;
  }

  void closeFrameMapping(Profiler& profiler) override {
    if (!frameMapping_) return;
    auto unmapSection = profiler.section(host_.clock(), "unmap");
    frameMapping_->unmap();
    frameMapping_.reset();
  }

  bool buildFieldSatsAndReach(const Targets& fields, bool reachStarted, Profiler& profiler) override {
    if (!frameMapping_) return false;
    if (!reachStarted) reach(*frameMapping_, profiler);
    host_.buildFieldSats(*frameMapping_, profiler, fieldTables(fields));
    closeFrameMapping(profiler);
    return true;
  }

 private:
  // The reach passes as a CUDA kernel on the host's stream, after the split: the field SATs
  // follow it there, or (see-through, whose split ran before the backend) the frame's SAT
  // and then the field SATs do.
  void reach(const interop::Session::Mapped& mapped, Profiler& profiler) {
    LayerReachArgs a;
    a.nearRadius = surfaces_.emplace_back(interop::createSurface(mapped.array(Target::NearRadius))).get();
    a.tileRadius = surfaces_.emplace_back(interop::createSurface(mapped.array(Target::NearTileRadius))).get();
    a.reach = surfaces_.emplace_back(interop::createSurface(mapped.array(Target::NearReach))).get();
    a.width = dof_.targets.extent.width;
    a.height = dof_.targets.extent.height;
    if (const std::size_t need = layerReachScratchBytes(a.width, a.height); reachScratch_.size() < need) {
      SATDOF_CUDA_CHECK(cudaStreamSynchronize(host_.stream()));  // last frame's reach may still use it
      reachScratch_.resize(need);
    }
    auto timed = profiler.section(host_.clock(), "dof reach", "layered (CUDA)");
    SATDOF_CUDA_CHECK(launchLayerReach(a, reachScratch_.data(), reachScratch_.size(), host_.stream()));
  }

  interop::StageHost& host_;
  LayeredDofView dof_;
  std::unique_ptr<interop::Session::Mapped> frameMapping_;  // within the DoF's run() only
  std::vector<interop::SurfaceObject> surfaces_;  // this frame's, kept until the next
  DeviceBuffer<unsigned char> tileScratch_, reachScratch_;  // the split's tile maxima, the reach's rows
};

std::unique_ptr<LayeredCudaPath> createOnStageHost(ComputeBackend& backend, const LayeredDofView& dof) {
  auto* host = dynamic_cast<interop::StageHost*>(&backend);
  if (!host) return nullptr;
  return std::make_unique<LayeredOnStageHost>(*host, dof);
}

}  // namespace

void cuda_part::registerLayeredPath() { registerLayeredCudaPath(createOnStageHost); }

}  // namespace satdof
