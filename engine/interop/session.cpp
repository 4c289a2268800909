// engine/interop/session.cpp — see session.h.
#include "engine/interop/session.h"

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
  for (const TargetSpec& spec : kFrameTargets) {
    const GLuint handle = t.*spec.handle;
    if (!handle) continue;  // not allocated (the fields without layers)
    GraphicsResource& r = resources_[std::size_t(spec.id)];
    switch (spec.cuda) {
      case CudaAccess::Surface: r = registerImage(handle, cudaGraphicsRegisterFlagsSurfaceLoadStore); break;
      case CudaAccess::WriteDiscard: r = registerBuffer(handle, cudaGraphicsRegisterFlagsWriteDiscard); break;
      case CudaAccess::ReadWrite: r = registerBuffer(handle, cudaGraphicsRegisterFlagsNone); break;
    }
  }
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
