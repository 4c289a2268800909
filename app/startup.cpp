// app/startup.cpp — see startup.h.
#include "app/startup.h"

#include <cstdio>

#include "app/controller.h"
#include "app/script_runner.h"
#include "engine/content/content_error.h"
#include "satdof/sat_format.h"
#include "settings/cli_checks.h"
#include "settings/live_options.h"

namespace satdof {

// The backend --backend names (or `auto`'s first that runs), with the settings file's choices
// for it where the command line made none; its choices said in one line each.
BackendChoice chooseBackendFor(const Options& options, const Context& context) {
  BackendChoice choice = chooseComputeBackend(options.backend, context, options.selections);
  std::printf("satdof: %s\n", choice.reason.c_str());
  ComputeBackend& backend = *choice.backend;
  // The settings file's choices for this backend, where the command line made none; one
  // it does not have is dropped with one line (a run elsewhere saved it, or it is gone).
  const std::string backendName(backend.name());
  for (const std::string& from : {std::string(), backendName})
    if (auto saved = options.savedSelections.find(from); saved != options.savedSelections.end())
      for (const auto& [key, name] : saved->second) {
        if (options.given.count(key) || backend.selected(key) == name) continue;
        if (auto why = backend.select(key, name))
          std::fprintf(stderr, "satdof: the settings file's %s.%s=%s: %s; dropped\n", backendName.c_str(), key.c_str(),
                      name.c_str(), why->c_str());
      }
  for (const BackendOption& o : backend.options()) {
    if (o.numberKeys || options.verbose) {  // the scan variant is the lesson: always said, once
      const std::string note = backend.choiceNote(o.key);
      std::printf("satdof: %s %s%s\n", o.label.c_str(), backend.selected(o.key).c_str(),
                  note.empty() ? "" : (" (" + note + ")").c_str());
    }
  }
  for (const auto& [key, name] : options.selections) {
    bool offered = false;
    for (const BackendOption& o : backend.options()) offered = offered || o.key == key;
    if (!offered)
      std::printf("satdof: %s%s does not apply to the %s backend: ignored\n",
                  options.given.count(key) ? "--" : "the settings file's ", key.c_str(),
                  std::string(backend.name()).c_str());
  }
  return choice;
}

std::string adaptToSoftwareGl(Options& options, const Context& context) {
  // Measured at 1280x720 with the cpu backend on 2 cores (docs/PERFORMANCE.md): the scene
  // pass with 4x MSAA is most of a 0.5-0.8 s frame.
  constexpr float kSoftwareRenderScale = 0.5f;
  std::string what;
  if (!chosenByUser(options, opt::msaa) && options.msaa != 1) {
    options.msaa = 1;
    what = "MSAA 1";
  }
  if (!chosenByUser(options, opt::renderScale) && options.renderScale > kSoftwareRenderScale) {
    options.renderScale = kSoftwareRenderScale;
    char scale[48];
    std::snprintf(scale, sizeof scale, "render scale %.2g", double(kSoftwareRenderScale));
    what += (what.empty() ? "" : " and ") + std::string(scale);
  }
  if (what.empty()) return {};
  std::printf("satdof: GL runs in software (%s): %s for speed (--msaa, --render-scale or the panel change it)\n",
              context.renderer.c_str(), what.c_str());
  return "chosen for software GL";
}

std::vector<ScriptCommand> loadCheckedScript(const Options& options) {
  std::vector<ScriptCommand> commands = loadScript(options.script, options);
  // Where its screenshots go, checked as --screenshot's: before any window opens.
  for (const ScriptCommand& c : commands)
    if (c.kind == ScriptCommand::Kind::Screenshot)
      if (auto why = whyNoScreenshot(c.name))
        throw UsageError(options.script + ":" + std::to_string(c.line) + ": screenshot " + content::quotedPath(c.name) +
                         ": " + *why);
  return commands;
}

FrameSettings startSettings(const Options& options, const content::Content& content) {
  FrameSettings settings = options;
  reference::DofParams& params = settings.dof.params;
  // A file's content opens at its own focus (content.h); only the command line overrides it.
  // A built-in scene keeps the settings file's choices too.
  const bool ownFocus = content.kind != content::ContentKind::BuiltIn;
  const auto given = [&](const LiveOption& o) {
    return ownFocus ? options.given.count(std::string(o.name)) > 0 : chosenByUser(options, o);
  };
  params = dofParamsOf(options, content.focalDistance);
  if (!given(opt::focal)) params.focalDistance = content.focalDistance;
  if (!given(opt::focalRange)) params.focalRange = content.focalRange;
  if (const char* why = reference::whyNotACamera(params)) throw UsageError(std::string("camera: ") + why);
  return settings;
}

RendererSetup rendererSetup(Options& options, const ComputeBackend& backend) {
  const DofEntry* dof = options.dofName.empty() ? &defaultDofImplementation() : findDofImplementation(options.dofName);
  if (!dof) throw UsageError("no depth-of-field implementation '" + options.dofName + "'");
  if (auto why = dof->whyNot(backend)) {
    if (options.given.count("dof")) throw UsageError("--dof " + options.dofName + ": " + *why);
    // The settings file's (saved by a run on another backend): dropped, said in one line.
    std::fprintf(stderr, "satdof: the settings file's dof=%s: %s; dropped\n", options.dofName.c_str(), why->c_str());
    dof = &defaultDofImplementation();
    options.dofName.clear();
  }
  RendererSetup setup;
  setup.dof = dof;
  setup.format = options.satFormat.empty() ? defaultSatFormat().id : findSatFormat(options.satFormat)->id;
  setup.selections = options.selections;
  setup.msaa = options.msaa;
  setup.isolateStages = options.isolateStages;
  setup.blurScale = options.headless ? 1.0f : options.renderScale;
  setup.stage = options.stage;
  setup.compareChosen = options.given.count("compare-b") || options.given.count("compare");
  return setup;
}

}  // namespace satdof
