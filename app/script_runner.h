// app/script_runner.h — runs a --script FILE (script.h) in the window, a few commands per
// frame: everything up to the next `wait N`, then N frames of nothing.
//
// loadScript reads and parses the file and checks every value against the registries (a
// scratch copy of the options takes each `set`), so that a typo stops the run before any
// window opens: "FILE:LINE: ..." and exit code 2.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "settings/cli.h"
#include "engine/focus/focus_controller.h"
#include "app/input.h"
#include "settings/script.h"

namespace satdof {

// Throws UsageError("FILE:LINE: ...") (or "FILE: cannot read it").
std::vector<ScriptCommand> loadScript(const std::string& file, const Options& options);

// What a script can ask of the app.
class ScriptHost {
 public:
  virtual ~ScriptHost() = default;
  // A live option (live_options.h) or a registry entry; the reason when refused.
  virtual std::optional<std::string> setOption(const std::string& name, const std::string& value) = 0;
  virtual void focusAt(Pixel pixel) = 0;
  virtual std::optional<std::string> applyPreset(const std::string& name) = 0;
  virtual void pressKey(const InputActions& actions) = 0;  // as if from the window
  virtual void screenshot(const std::string& path) = 0;  // after this frame is shown
  virtual void resizeWindow(int width, int height) = 0;  // takes effect by the next frame
  virtual void startRace() = 0;  // the panel's race, run over the frames that follow
  virtual bool raceRunning() const = 0;
  // The finished race's row (0-based, its table's order) adopted; the reason when not.
  virtual std::optional<std::string> adoptRaceRow(std::size_t row) = 0;
  // The panel's "time each variant" (app_window.cpp), run over the frames that follow.
  virtual void startScanTimes() = 0;
  virtual bool scanTimesRunning() const = 0;
  virtual void openSections(bool open) = 0;  // every section of the panel, from the next frame
  // Files dropped on the window: shown, or the problem said in the panel (never an error).
  virtual void dropFiles(const std::vector<std::string>& files) = 0;
  virtual void quit() = 0;
};

class ScriptRunner {
 public:
  ScriptRunner(std::string file, std::vector<ScriptCommand> commands)
      : file_(std::move(file)), commands_(std::move(commands)) {}
  // Once per frame, before it renders. Throws UsageError("FILE:LINE: ...") when the app
  // refuses a command.
  void step(ScriptHost& host);
  bool finished() const { return next_ >= commands_.size() && waiting_ == 0 && !racing_ && !timing_; }

 private:
  std::string file_;
  std::vector<ScriptCommand> commands_;
  std::size_t next_ = 0;
  int waiting_ = 0;
  bool racing_ = false;  // after `race`, until the race has finished
  bool timing_ = false;  // after `time-scans`, until every variant was timed
};

}  // namespace satdof
