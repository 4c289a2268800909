// settings/cli_checks.h — the checks that look at several flags together, or at the file
// system, once every value has parsed (cli.cpp calls them before any window or GL work):
// what needs what (--compare-b needs --view split or diff), what does not apply to the chosen mode
// (--screenshot headless, --conv without --filter), and whether the files the run will
// write can be written (--out, --screenshot). Each returns one line, "--flag: why", or
// nullopt.
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>

#include "settings/cli.h"

namespace satdof {

// True when the run will be headless: asked for, or no display to open a window on.
bool runsHeadless(const Options& o);

std::optional<std::string> checkCombination(const Options& o);
// What the content flags (--scene FILE, --photo, --depth, --depth-encoding, --depth-range)
// need and where they apply; the files themselves are read before any window
// (engine/content/content.h), each problem one line naming the file.
std::optional<std::string> checkContent(const Options& o);
// Whether the options make a camera and a blur the SAT format sums exactly, whoever set
// them (the settings file's values are checked with it, one by one): the reason, or nullopt.
std::optional<std::string> whyNotRunnable(const Options& o);
// The largest --script file read (a script is a few hundred lines).
inline constexpr std::size_t kMaxScriptBytes = 1 << 20;
// Reads a --script file into `text`: a regular file of at most kMaxScriptBytes (not a
// folder, not a device such as /dev/zero); the one-line reason otherwise.
std::optional<std::string> checkScriptFile(const std::string& file, std::string& text);

// Whether the files the run will write can be written, before anything renders: --out
// (where frames or a tool's images go), --screenshot and the settings file beside it, the
// tools' --csv, the benchmarks' --json and --csv (into a folder that exists: the benchmarks
// make none). Creates nothing: the folders are made with the first file written into them
// (engine/files/safe_write.h).
std::optional<std::string> checkOutputs(const Options& o);

// A screenshot's settings file: beside it, .txt for its extension.
std::filesystem::path screenshotSidecar(const std::filesystem::path& screenshot);
// Why a screenshot (with its settings file) cannot be written to `path`, or nullopt: for
// --screenshot and a script's `screenshot PATH`, asked before anything renders.
std::optional<std::string> whyNoScreenshot(const std::filesystem::path& path);

}  // namespace satdof
