// qa/tools.h — the QA tools: each drives the app's pipelines from outside (app.h's
// public interface) and returns the process's exit code.
//   quality       every DoF implementation against a scattering ground truth (PSNR)
//   precision     each float SAT format's DoF image against the exact one
//   soak          frames switching every registry entry at random; memory and fresh renders
//   resize-storm  random window sizes, then a frame equal to a fresh start's
//   race          every SAT algorithm x scan variant x format and convolution, timed, checked
#pragma once

namespace satdof {

class App;

int runQuality(App& app);       // quality.cpp
int runPrecision(App& app);     // precision_tool.cpp
int runSoak(App& app);          // soak.cpp
// Before the GL context exists: a soak on Mesa's llvmpipe rasterizes on the calling thread
// (LP_NUM_THREADS=0) unless the user set LP_NUM_THREADS, so that its memory readings show
// the app's and not the rasterizer threads' binning pool (docs/PERFORMANCE.md); the soak
// says so when it runs there.
void prepareSoakEnvironment();
int runResizeStorm(App& app);   // resize_storm.cpp
int runRace(App& app);          // race.cpp: every SAT and convolution of the backend, timed and checked

}  // namespace satdof
