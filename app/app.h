// app/app.h — the window shell around the renderer (engine/renderer/renderer.h): the GL
// context, the loop, the panel (panel_link.h), the input, the script, the live options and
// actions (controller.h); headless, the frames written as PNGs (frame_files.h). app.cpp:
// set-up and the loop; app_window.cpp: the image beside the docked panel, input, screenshots.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/controller.h"
#include "app/frame_files.h"
#include "app/input.h"
#include "app/panel_link.h"
#include "app/scan_keys.h"
#include "app/script_runner.h"
#include "engine/content/content.h"
#include "engine/context/context.h"
#include "engine/renderer/renderer.h"
#include "qa/panel_race.h"
#include "qa/tools.h"
#include "settings/cli.h"

namespace satdof {

class Ui;

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
  void handleInput();
  // What the keys and the mouse (or the script's `key`) asked for.
  void applyInput(const InputActions& actions);
  void renderFrame();  // the renderer's, with the depths the focus and the hover read asked for
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
  void startRace() override { race_->request(); }  // run with the frames, as the panel's
  bool raceRunning() const override { return race_->running(); }
  std::optional<std::string> adoptRaceRow(std::size_t row) override { return race_->adopt(row); }
  void startScanTimes() override { scanKeys_.requestTimes(); }  // started with the next frame's panel
  bool scanTimesRunning() const override { return scanKeys_.timing(); }
  void openSections(bool open) override;  // app_window.cpp

  Options options_;
  std::unique_ptr<Context> context_;  // first: destroyed last, after every GL object
  std::unique_ptr<Renderer> renderer_;  // the frame: content, passes, A and B
  std::unique_ptr<Controller> controller_;  // the live options and the actions on them
  std::unique_ptr<Ui> ui_;
  std::unique_ptr<PanelLink> panel_;  // the panel's view of the app (window mode)
  InputController input_;
  std::optional<ScriptRunner> script_;
  std::vector<std::string> pendingScreenshots_;
  bool quit_ = false;
  ScanKeys scanKeys_;  // keys 1-9 and the panel's "time each variant"
  FrameFiles frameFiles_;  // headless PNGs
  std::unique_ptr<PanelRace> race_;  // the panel's race of the kernels
};

}  // namespace satdof
