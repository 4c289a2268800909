// qa/tools.h — the QA tools: each drives frames from outside, through the renderer
// (engine/renderer/renderer.h), and returns the process's exit code.
//   quality       every DoF implementation against a scattering ground truth (PSNR)
//   precision     each float SAT format's DoF image against the exact one
//   soak          frames switching every registry entry at random; memory and fresh renders
//   resize-storm  random window sizes, then a frame equal to a fresh start's
//   race          every SAT algorithm x scan variant x format and convolution, timed, checked
#pragma once

#include "engine/renderer/renderer.h"
#include "settings/cli.h"

namespace satdof {

int runQuality(Renderer& renderer, const Options& options);    // quality.cpp
int runPrecision(Renderer& renderer, const Options& options);  // precision_tool.cpp
int runSoak(Renderer& renderer, const Options& options);       // soak.cpp
// Before the GL context exists: a soak on Mesa's llvmpipe rasterizes on the calling thread
// (LP_NUM_THREADS=0) unless the user set LP_NUM_THREADS, so that its memory readings show
// the app's and not the rasterizer threads' binning pool (docs/PERFORMANCE.md); the soak
// says so when it runs there.
void prepareSoakEnvironment();
// What the resize storm needs of the window around the renderer (app/renderer.h is one).
class WindowedFrames {
 public:
  virtual ~WindowedFrames() = default;
  virtual Renderer& renderer() = 0;
  // The window's framebuffer less the docked panel, times --render-scale.
  virtual Extent imageExtent(Extent framebuffer) const = 0;
  virtual void presentWindow() = 0;  // the frame and the panel, before the swap
};
int runResizeStorm(WindowedFrames& window, const Options& options);  // resize_storm.cpp
int runRace(Renderer& renderer, const Options& options);  // race.cpp: every SAT and convolution, timed and checked

}  // namespace satdof
