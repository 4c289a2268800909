// qa/panel_race.h — the race of the kernels as the window runs it (the panel's button, a
// script's `race`): started on the frame just shown, a few timed runs a frame so that no
// frame is held much past its budget, the table on stdout when it ends, and a row adopted
// as the frame's configuration.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>

#include "engine/renderer/renderer.h"
#include "qa/race_runner.h"

namespace satdof {

class PanelRace {
 public:
  explicit PanelRace(Renderer& renderer) : renderer_(renderer) {}
  void request() { requested_ = true; }  // started with the next frame's step
  bool running() const { return requested_ || (race_ && !race_->done()); }
  // A frame's step; `start` (the panel's button) or a request starts one.
  void step(bool start, std::optional<std::size_t> adopt);
  // The finished race's row (0-based) as the frame's configuration, said in one line.
  std::optional<std::string> adopt(std::size_t row);
  // A race the window closed on gives the user's choices back.
  void stop();
  const Race* race() const { return race_.get(); }

 private:
  Renderer& renderer_;
  bool requested_ = false;
  std::unique_ptr<Race> race_;  // while and after it runs
};

}  // namespace satdof
