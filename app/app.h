// app/app.h — the window shell around the renderer (engine/renderer/renderer.h, which
// owns the content, the passes and configurations A and B): the GL context, the window's
// loop, the panel, the input, the script and the focus. Headless it writes the frames as
// PNGs.
//
// app.cpp: set-up and the loop; app_window.cpp: the window side (the image beside the
// docked panel, input, presenting); app_actions.cpp: what the keys, the panel and the
// script ask for (options set by name, screenshots, reset, presets, verify).
// The tools (qa/tools.h) drive the renderer from outside.
#pragma once

#include <chrono>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "settings/cli.h"
#include "engine/content/content.h"
#include "engine/context/context.h"
#include "app/controller.h"
#include "app/image_text.h"
#include "app/input.h"
#include "engine/renderer/renderer.h"
#include "qa/race_runner.h"
#include "qa/tools.h"
#include "app/scan_keys.h"
#include "app/script_runner.h"

namespace satdof {

class Ui;
struct LiveOption;  // settings/live_options.h

class App final : private ScriptHost, public WindowedFrames {
 public:
  // Throws std::runtime_error (one-line reason), UsageError or BackendUnavailable.
  // `uiSettings`: the settings file's ui.* entries. `content`: what the frame shows
  // (engine/content/content.h, read before any window); none: the built-in scene --scene names.
  App(const Options& options, const std::map<std::string, std::string>& uiSettings = {},
      std::optional<content::Content> content = std::nullopt);
  ~App() override;
  int run();
  // The live options as they are now (for the settings file).
  Options currentOptions() const { return controller_->currentOptions(); }
  std::map<std::string, std::string> uiSettings() const;

  // ---- What the tools drive (qa/tools.h): the frame, and the window around it.
  const Options& options() const { return options_; }
  Renderer& renderer() override { return *renderer_; }
  // The window's framebuffer less the docked panel: where the frame is shown.
  Extent imageArea(Extent framebuffer) const;
  // What the frame is rendered at: the image area times --render-scale.
  Extent imageExtent(Extent framebuffer) const override;
  void presentWindow() override;

 private:
  // A window on a software GL: MSAA 1 and a smaller render scale, where neither the
  // command line nor the settings file chose them; said in one line.
  void adaptToSoftwareGl();
  void saveHeadlessFrame(int index);
  // The split and difference views' labels drawn into a headless frame (image_text.h).
  void labelComparison(reference::ImageRgba8& image);
  void handleInput();
  // What the keys and the mouse (or the script's `key`) asked for.
  void applyInput(const InputActions& actions);
  void runRaceSteps(bool start, std::optional<std::size_t> adopt);
  void renderFrame();  // the renderer's, with the depths the focus and the hover read asked for
  BackendChoice chooseBackend();
  void dropFiles(const std::vector<std::string>& files) override { controller_->dropFiles(files); }
  void writeScreenshot(const std::string& path);  // the window as PNG + settings beside it

  // ScriptHost: what --script (and the keys, the panel) ask for.
  std::optional<std::string> setOption(const std::string& name, const std::string& value) override {
    return controller_->setOption(name, value);
  }
  void focusAt(Pixel pixel) override { controller_->focus().focusAt(pixel); }
  std::optional<std::string> applyPreset(const std::string& name) override { return controller_->applyPreset(name); }
  void screenshot(const std::string& path) override { pendingScreenshots_.push_back(path); }
  void quit() override { quit_ = true; }
  void resizeWindow(int width, int height) override;  // app_window.cpp
  void pressKey(const InputActions& actions) override { applyInput(actions); }
  void startRace() override { raceRequested_ = true; }  // app_window.cpp runs it, as the panel's
  bool raceRunning() const override;
  std::optional<std::string> adoptRaceRow(std::size_t row) override;
  void startScanTimes() override { scanKeys_.requestTimes(); }  // started with the next frame's panel
  bool scanTimesRunning() const override { return scanKeys_.timing(); }
  void openSections(bool open) override;  // app_window.cpp

  Options options_;
  std::unique_ptr<Context> context_;  // first: destroyed last, after every GL object
  std::unique_ptr<Renderer> renderer_;  // the frame: content, passes, A and B
  std::unique_ptr<Controller> controller_;  // the live options and the actions on them
  std::unique_ptr<Ui> ui_;
  InputController input_;
  std::optional<ScriptRunner> script_;
  std::vector<std::string> pendingScreenshots_;
  bool quit_ = false;
  int layoutCutSaid_ = 0;  // the panel's cut controls last said (app/ui/widgets.h)
  ScanKeys scanKeys_;  // keys 1-9 and the panel's "time each variant"
  std::string renderScaleNote_;  // the panel's word on a render scale the app chose
  bool raceRequested_ = false;   // a script's `race`, started with the next frame's panel
  std::unique_ptr<ImageText> imageText_;  // the headless frames' label font, made when first needed
  std::unique_ptr<Race> race_;  // the panel's race of the kernels, while and after it runs
};

}  // namespace satdof
