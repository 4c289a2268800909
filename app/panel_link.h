// app/panel_link.h — the docked panel's view of the app each frame (ui/ui.h's UiState):
// filled from the renderer, the controller and the window's notes, drawn, and what the user
// changed in it applied back (the settings through the controller, from the next frame).
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "app/controller.h"
#include "engine/context/context.h"
#include "engine/renderer/renderer.h"
#include "settings/cli.h"

namespace satdof {

class Race;
class Ui;

class PanelLink {
 public:
  PanelLink(Ui& ui, Renderer& renderer, Controller& controller, Options& options, const Context& context);
  // What the panel asked of the window's own parts: the race and the scan timing.
  struct Asked {
    bool raceStart = false;
    std::optional<std::size_t> raceAdopt;
    bool timeScans = false;
  };
  // Draws the panel over the window (the image is already there) and applies its changes.
  Asked drawAndApply(const std::string& scanNote, const std::string& scanTimesStatus, const Race* race);

  std::string renderScaleNote;  // the panel's word on a render scale the app chose

 private:
  Ui& ui_;
  Renderer& renderer_;
  Controller& controller_;
  Options& options_;
  const Context& context_;
  int layoutCutSaid_ = 0;  // the panel's cut controls last said (app/ui/widgets.h)
};

}  // namespace satdof
