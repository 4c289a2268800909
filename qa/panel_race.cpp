// qa/panel_race.cpp — see panel_race.h.
#include "qa/panel_race.h"

#include <cstdio>
#include <utility>
#include <vector>

namespace satdof {

void PanelRace::step(bool start, std::optional<std::size_t> adopt) {
  constexpr double kRaceBudgetMs = 30;
  start = std::exchange(requested_, false) || start;
  if (start && (!race_ || race_->done())) {
    race_ = std::make_unique<Race>(renderer_);
    std::printf("satdof: race of the %s backend's kernels started\n",
                std::string(renderer_.pipeline().backend().name()).c_str());
  }
  if (!race_) return;
  if (adopt)
    if (auto why = race_->adopt(*adopt)) std::printf("satdof: race: %s\n", why->c_str());
  if (!race_->done() && race_->step(kRaceBudgetMs)) printRace(*race_);
}

std::optional<std::string> PanelRace::adopt(std::size_t row) {
  if (!race_) return std::string("adopt: no finished race");
  if (auto why = race_->adopt(row)) return "adopt: " + *why;
  const std::vector<RaceEntry>& rows = race_->entries();
  std::printf("satdof: adopted the race's row %zu: %s %s\n", row + 1, rows[row].stage.c_str(), rows[row].label().c_str());
  return std::nullopt;
}

void PanelRace::stop() {
  if (race_ && !race_->done()) race_->stop();
}

}  // namespace satdof
