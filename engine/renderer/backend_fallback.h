// engine/renderer/backend_fallback.h — a compute backend that cannot run the frame, at the
// start or mid-run (a size or format it refuses, CUDA refusing to register the new targets
// after a resize, a mapping that fails), replaced by the next backend in `auto`'s order:
// one line says what failed, what runs now and what the user can do; the frames go on.
#pragma once

#include <string>

#include "engine/context/context.h"
#include "engine/pipeline/pipeline.h"

namespace satdof {

class BackendFallback {
 public:
  // `selections`: the user's backend options, which the next backend takes where it can.
  // SATDOF_INJECT_ATTACH_FAILURE=BACKEND:N makes that backend's N-th attach throw, as a
  // refused registration would: how the fallback is tested without a broken driver.
  BackendFallback(const Context& context, BackendSelections selections);
  // The backend's attach; on a failure the next backend, until one attaches (or throws).
  void attach(Pipeline& pipeline, const Targets& targets);
  // Replaces `pipeline`'s backend by the next one that starts here; false when none is
  // left. The caller re-attaches.
  bool switchToNext(Pipeline& pipeline, const std::string& failure);
  int switches() const { return switches_; }  // how many times a failed backend was replaced

 private:
  const Context& context_;
  BackendSelections selections_;
  int switches_ = 0;
  std::string faultBackend_;
  int faultAt_ = 0, faultSeen_ = 0;
};

}  // namespace satdof
