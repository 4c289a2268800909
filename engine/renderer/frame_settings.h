// engine/renderer/frame_settings.h — what a renderer reads every frame, and what it starts
// with.
#pragma once

#include "engine/backends/compute_backend.h"
#include "engine/content/stage.h"
#include "engine/dof/dof_implementation.h"
#include "engine/frame/filter_settings.h"
#include "engine/passes/bokeh_pass.h"
#include "engine/passes/view_pass.h"

namespace satdof {

// The settings every frame reads, as the user (command line, settings file, script, keys,
// panel) left them. The live options (settings/live_options.h) read and write these.
struct FrameSettings {
  DofSettings dof;
  FilterSettings filter;
  ViewSettings view;
  BokehSettings bokeh;
};

// What a renderer starts with, besides the GL context, the backend chosen and the content.
struct RendererSetup {
  const DofEntry* dof = nullptr;  // must run on the backend
  SatFormat format{};
  BackendSelections selections;   // the user's choices of backend options: a fallback keeps them
  int msaa = 4;
  bool isolateStages = false;     // --isolate-stages: every stage finished before the next
  float blurScale = 1.0f;         // --render-scale in a window (blur sizes are the window's pixels)
  content::StageMode stage{};     // --stage
  bool compareChosen = false;     // the user named B (else the first comparing frame picks one)
};

}  // namespace satdof
