// app/script_runner.cpp — see script_runner.h.
#include "app/script_runner.h"

#include "settings/cli_checks.h"

#include <fstream>
#include <sstream>

#include "settings/live_options.h"
#include "engine/scene/presets.h"

namespace satdof {
namespace {

std::string where(const std::string& file, int line) { return file + ":" + std::to_string(line) + ": "; }

// `select KEY NAME` takes registry keys only; `view NAME` is `set view NAME`.
std::optional<std::string> checkSelectKey(const std::string& key) {
  if (key == "dof" || key == "conv" || key == "compare") return std::nullopt;
  for (const ComputeBackendInfo& b : computeBackends())
    for (const BackendOption& o : b.options())
      if (o.key == key) return std::nullopt;
  return "select: no registry '" + key + "'; valid: dof, conv, compare and the backends' keys (scan, sat, ...)";
}

}  // namespace

std::vector<ScriptCommand> loadScript(const std::string& file, const Options& options) {
  std::string text;
  if (auto why = checkScriptFile(file, text)) throw UsageError(*why);
  std::string error;
  auto commands = parseScript(text, error);
  if (!commands) throw UsageError(file + ":" + error.substr(5));  // "line N: ..." -> "FILE:N: ..."
  Options scratch = options;
  bool raced = false;
  for (const ScriptCommand& c : *commands) {
    std::optional<std::string> why;
    switch (c.kind) {
      case ScriptCommand::Kind::Race: raced = true; break;
      case ScriptCommand::Kind::Adopt:
        if (!raced) why = "adopt: no race before it in the script";
        break;
      case ScriptCommand::Kind::Select:
        why = checkSelectKey(c.name);
        if (!why) why = setLiveOption(scratch, c.name, c.value);
        // A backend option, with a backend named on the command line: that backend's own.
        if (const ComputeBackendInfo* b = findComputeBackend(options.backend);
            !why && b && isBackendOptionKey(c.name) && !b->options().empty()) {
          bool offered = false;
          for (const BackendOption& o : b->options()) offered = offered || (o.key == c.name && o.has(c.value));
          if (!offered) why = "the " + options.backend + " backend has no " + c.name + " '" + c.value + "'";
        } else if (!why && b && isBackendOptionKey(c.name) && !b->filterImplementations().empty() &&
                   b->options().empty()) {
          why = "the " + options.backend + " backend has no " + c.name + " to select";
        }
        break;
      case ScriptCommand::Kind::Set:
        why = setLiveOption(scratch, c.name, c.value);
        if (!why)  // e.g. a blur the SAT format set before cannot sum: said as the running app says it
          if (auto runnable = whyNotRunnable(scratch)) why = c.name + ": " + *runnable;
        break;
      case ScriptCommand::Kind::View: why = setLiveOption(scratch, "view", c.name); break;
      case ScriptCommand::Kind::Preset:
        if (!scene::findPreset(c.name)) why = "no preset '" + c.name + "'; valid: portrait, landscape, macro";
        break;
      case ScriptCommand::Kind::Key:
        if (!keyAction(c.name)) why = "no key '" + c.name + "'; valid: F1, F5, F12, Esc, R, H, P, D, V, C, L, Left, Right, Space, 1-9";
        break;
      default: break;
    }
    if (why) throw UsageError(where(file, c.line) + *why);
  }
  return *commands;
}

void ScriptRunner::step(ScriptHost& host) {
  if (waiting_ > 0) {
    --waiting_;
    return;
  }
  if (racing_) {
    if (host.raceRunning()) return;
    racing_ = false;
  }
  if (timing_) {
    if (host.scanTimesRunning()) return;
    timing_ = false;
  }
  while (next_ < commands_.size()) {
    const ScriptCommand& c = commands_[next_++];
    std::optional<std::string> why;
    switch (c.kind) {
      case ScriptCommand::Kind::Set:
      case ScriptCommand::Kind::Select: why = host.setOption(c.name, c.value); break;
      case ScriptCommand::Kind::View: why = host.setOption("view", c.name); break;
      case ScriptCommand::Kind::Focus: host.focusAt(Pixel{c.x, c.y}); break;
      case ScriptCommand::Kind::Resize: host.resizeWindow(c.x, c.y); break;
      case ScriptCommand::Kind::Preset: why = host.applyPreset(c.name); break;
      case ScriptCommand::Kind::Key: host.pressKey(*keyAction(c.name)); break;
      case ScriptCommand::Kind::Screenshot:  // of this frame: what follows waits for the next
        host.screenshot(c.name);
        return;
      case ScriptCommand::Kind::Race:
        host.startRace();
        racing_ = true;
        return;
      case ScriptCommand::Kind::Adopt: why = host.adoptRaceRow(std::size_t(c.x - 1)); break;
      case ScriptCommand::Kind::Drop: host.dropFiles({c.name}); break;
      case ScriptCommand::Kind::TimeScans:
        host.startScanTimes();
        timing_ = true;
        return;
      case ScriptCommand::Kind::Sections: host.openSections(c.name == "open"); break;
      case ScriptCommand::Kind::Quit: host.quit(); return;
      case ScriptCommand::Kind::Wait:
        waiting_ = c.x - 1;  // this frame is the first of the N
        return;
    }
    if (why) throw UsageError(where(file_, c.line) + *why);
  }
}

}  // namespace satdof
