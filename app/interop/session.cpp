// app/interop/session.cpp — see session.h.
#include "interop/session.h"

#include <stdexcept>
#include <vector>

namespace satdof::interop {
namespace {

std::vector<cudaGraphicsResource_t> handles(const std::array<GraphicsResource, std::size_t(Target::Count)>& r,
                                            std::span<const Target> targets) {
  std::vector<cudaGraphicsResource_t> list;
  for (Target t : targets) list.push_back(r[std::size_t(t)].get());
  return list;
}

}  // namespace

void Session::attach(const Targets& t) {
  detach();
  constexpr unsigned kSurface = cudaGraphicsRegisterFlagsSurfaceLoadStore;
  auto at = [&](Target target) -> GraphicsResource& { return resources_[std::size_t(target)]; };
  at(Target::SceneColour) = registerImage(t.sceneColour, kSurface);
  at(Target::Depth) = registerImage(t.depth, kSurface);
  at(Target::Filtered) = registerImage(t.filtered, kSurface);
  at(Target::Compare) = registerImage(t.compare, kSurface);
  at(Target::Sat) = registerBuffer(t.sat, cudaGraphicsRegisterFlagsWriteDiscard);
  at(Target::DofOutput) = registerImage(t.dofOutput, kSurface);
  if (t.nearField) {
    at(Target::NearField) = registerImage(t.nearField, kSurface);
    at(Target::FarField) = registerImage(t.farField, kSurface);
    at(Target::NearSat) = registerBuffer(t.nearSat, cudaGraphicsRegisterFlagsWriteDiscard);
    at(Target::FarSat) = registerBuffer(t.farSat, cudaGraphicsRegisterFlagsWriteDiscard);
    at(Target::NearTileRadius) = registerImage(t.nearTileRadius, kSurface);
  }
  at(Target::BokehSprites) = registerBuffer(t.bokehSprites, cudaGraphicsRegisterFlagsWriteDiscard);
  at(Target::BokehCommands) = registerBuffer(t.bokehCommands, cudaGraphicsRegisterFlagsNone);
  targets_ = t;
  attached_ = true;
}

void Session::detach() {
  for (GraphicsResource& r : resources_) r.reset();
  attached_ = false;
}

Session::Mapped::Mapped(const Session& session, std::span<const Target> targets, cudaStream_t stream)
    : scope_(handles(session.resources_, targets), stream) {
  if (!session.attached_) throw std::logic_error("interop session mapped before attach()");
  slot_.fill(-1);
  int i = 0;
  for (Target t : targets) slot_[std::size_t(t)] = i++;
}

std::size_t Session::Mapped::index(Target t) const {
  const int i = slot_[std::size_t(t)];
  if (i < 0) throw std::logic_error("interop target used but not mapped in this scope");
  return std::size_t(i);
}

cudaArray_t Session::Mapped::array(Target t) const { return scope_.array(index(t)); }

void* Session::Mapped::pointer(Target t, std::size_t* bytes) const { return scope_.pointer(index(t), bytes); }

}  // namespace satdof::interop
