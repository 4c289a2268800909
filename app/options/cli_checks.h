// app/cli_checks.h — the checks that look at several flags together, or at the file
// system, once every value has parsed (cli.cpp calls them before any window or GL work):
// what needs what (--compare-b needs --view split or diff), what does not apply to the chosen mode
// (--screenshot headless, --conv without --filter), and whether the files the run will
// write can be written (--out, --screenshot). Each returns one line, "--flag: why", or
// nullopt.
#pragma once

#include <optional>
#include <string>

#include "options/cli.h"

namespace satdof {

// True when the run will be headless: asked for, or no display to open a window on.
bool runsHeadless(const Options& o);

std::optional<std::string> checkCombination(const Options& o);
// Whether the options make a camera and a blur the SAT format sums exactly, whoever set
// them (the settings file's values are checked with it, one by one): the reason, or nullopt.
std::optional<std::string> whyNotRunnable(const Options& o);
// Creates --out when headless frames will be written; checks --screenshot's folder.
std::optional<std::string> checkOutputs(const Options& o);

}  // namespace satdof
