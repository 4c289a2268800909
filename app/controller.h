// app/controller.h — what the keys, the panel and the script ask of the frame: the live
// options by name (settings/live_options.h) read from the renderer and applied to it, the
// focus (a click, autofocus, the pull, the depth under the cursor), presets, the next DoF,
// reset (R), dropped files, reloaded shaders, verify (V) and the float formats' precision
// monitor. The window (app.h) turns keys, the panel and the script into these calls.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/focus/focus_controller.h"
#include "engine/renderer/renderer.h"
#include "qa/precision_monitor.h"
#include "qa/verify_renderer.h"
#include "settings/cli.h"

namespace satdof {

class Ui;
struct LiveOption;  // settings/live_options.h

// Whether the command line or the settings file set the option (else the app may choose).
bool chosenByUser(const Options& options, const LiveOption& option);

class Controller {
 public:
  // `options`: the run's, which the live options write back into (the app's own copy).
  // `reach`: the depths the focus may reach in the content shown.
  Controller(Options& options, Renderer& renderer, const content::DepthSpan& reach);
  void setUi(Ui* ui) { ui_ = ui; }
  void keepStart() { startOptions_ = currentOptions(); }  // what R goes back to

  // ---- The live options.
  Options currentOptions() const;  // as they are now (the settings file's, a screenshot's)
  // Makes the live parts of `o` the state; the reason when something is refused.
  std::optional<std::string> applyOptions(const Options& o);
  std::optional<std::string> setOption(const std::string& name, const std::string& value);
  // The frame's settings of `o` with `camera` (checked, its focus resolved), B's fields,
  // focus and scene: taken as they are (a focus moved by hand stops a focus pull).
  void applyFrame(const Options& o, const reference::DofParams& camera);
  void applyFocusAndScene(Autofocus autofocus, bool animate, int msaa);
  void setStage(content::StageMode mode);
  void setSatFormat(const std::string& name);

  // ---- Actions.
  std::optional<std::string> applyPreset(const std::string& name);
  void nextPreset();  // P
  void nextDof();     // D: the registry's next DoF that runs on A's backend, said in one line
  void reset();       // R: the camera and the settings as the run started
  void reloadShaders();  // F5 or the panel's button; keeps the old programs on failure
  // Files dropped on the window (or a script's `drop`): loaded and shown, or the one-line
  // problem in the panel and on stdout, the current content kept.
  void dropFiles(const std::vector<std::string>& files);
  std::string& contentProblem() { return contentProblem_; }  // the last drop's or preset's

  // ---- The focus.
  FocusController& focus() { return focus_; }
  void setHover(std::optional<Pixel> pixel);
  std::optional<float> hoverDepth() const { return hoverDepth_; }
  std::vector<Pixel> probes() const;  // the pixels whose depth the next frame reads back
  void updateFocus(float seconds);    // the depths read back, the pull a step on

  // ---- Checks of the frame.
  // V or the panel's button: this frame's outputs against the CPU reference (verify.h),
  // after the frame is rendered; the verdict goes to the panel and stdout.
  void requestVerify() { verifyRequested_ = true; }
  // After each frame: a requested verify, and the last verdict follows the frame, or goes
  // stale for `why` (a reset, reloaded shaders); said on stdout.
  void afterFrame();
  const VerifyVerdict& verdict() const { return verify_; }
  PrecisionMonitor& precision() { return precision_; }

 private:
  void setContent(content::Content content);  // a drop's: the focus and R's start follow it
  void verify();
  VerifySubject verifySubject() const;
  void followVerify(const std::optional<std::string>& why = std::nullopt);

  Options& options_;
  Options startOptions_;  // for reset
  Renderer& renderer_;
  Ui* ui_ = nullptr;  // the panel (window mode): whether it is shown
  FocusController focus_;
  std::optional<Pixel> hover_;
  std::optional<float> hoverDepth_;
  std::string contentProblem_;  // why the last drop (or preset) was refused; empty: none
  bool verifyRequested_ = false;
  VerifyVerdict verify_;  // the last verify's lines, stale once they no longer describe the frame
  PrecisionMonitor precision_;  // a float SAT format's error, measured while it is in use
};

}  // namespace satdof
