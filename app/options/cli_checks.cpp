// app/cli_checks.cpp — see cli_checks.h.
#include "options/cli_checks.h"

#include <unistd.h>

#include <filesystem>
#include <system_error>

#include "options/live_options.h"
#include "parse.h"
#include "satdof/sat_format.h"

namespace satdof {
namespace {

// Paths in full (a cut path does not say where), control bytes escaped.
std::string quoted(const std::filesystem::path& p) {
  std::string s;
  for (std::size_t i = 0; i < p.native().size(); i += 40) {
    const std::string q = quoteForMessage(p.native().substr(i, 40));  // '...' around 40 or fewer
    s += q.substr(1, q.size() - 2);
  }
  return "'" + s + "'";
}

bool given(const Options& o, const char* name) { return o.given.count(name) > 0; }

std::optional<std::string> writableFolder(const std::string& flag, const std::filesystem::path& folder) {
  if (::access(folder.c_str(), W_OK) != 0)
    return flag + ": cannot write into " + quoted(folder) + ": " +
           std::generic_category().message(errno);
  return std::nullopt;
}

}  // namespace

bool runsHeadless(const Options& o) { return o.headless || !displayAvailable(); }

std::optional<std::string> checkCombination(const Options& o) {
  const bool headless = runsHeadless(o);
  const std::string why = o.headless ? "with --headless" : "in this headless run (no display: DISPLAY unset)";
  if (headless) {
    for (const char* flag : {"screenshot", "script", "no-vsync", "panel", "ui-scale"})
      if (given(o, flag))
        return "--" + std::string(flag) + ": applies to the window only, not " + why +
               (std::string(flag) == "screenshot" ? "; frames go to --out" : "");
  } else if (!o.resizeStorm) {  // resize-storm writes its images to --out from a window
    for (const char* flag : {"out", "save"})
      if (given(o, flag))
        return "--" + std::string(flag) + ": applies to --headless only (in a window: --screenshot FILE or F12)";
  }
  // Where each live option has an effect, from its declaration (live_options.h).
  for (const LiveOption* option : liveOptions())
    if (given(o, std::string(option->name).c_str()))
      if (auto why = whyNotApplies(*option, o)) return "--" + std::string(option->name) + ": " + *why;
  if (!o.filter.enabled && given(o, "compare-b") && o.compareB.count("conv"))
    return "--compare-b conv=" + o.compareB.at("conv") + ": applies only with --filter (no convolution runs without one)";
  if (const SatFormatInfo* f = o.satFormat.empty() ? &defaultSatFormat() : findSatFormat(o.satFormat))
    if (auto why = whyNotMaxBlur(*f, o.maxBlur)) return "--" + std::string(opt::maxBlur.name) + ": " + *why;
  if (o.view.mode == ViewMode::Filtered && !o.filter.enabled) return "--view: the filtered view needs a --filter";
  if (given(o, "compare") && o.view.mode != ViewMode::Split && o.view.mode != ViewMode::Difference)
    return "--compare: applies only to --view split or diff (configuration B is not run otherwise)";
  return std::nullopt;
}

std::optional<std::string> whyNotRunnable(const Options& o) {
  // Without a focal distance the scene suggests one later; any positive one will do here.
  if (const char* why = reference::whyNotACamera(dofParamsOf(o, o.focalDistance.value_or(1000.0f))))
    return std::string("camera: ") + why;
  if (const SatFormatInfo* f = o.satFormat.empty() ? &defaultSatFormat() : findSatFormat(o.satFormat))
    if (auto why = whyNotMaxBlur(*f, o.maxBlur)) return *why;
  return std::nullopt;
}

std::optional<std::string> checkOutputs(const Options& o) {
  if (runsHeadless(o) && o.save != Options::Save::None && o.benchFamily.empty()) {
    std::error_code ec;
    const std::filesystem::path out = o.outDir.empty() ? "." : o.outDir;
    std::filesystem::create_directories(out, ec);
    if (ec) return "--out: cannot create the folder " + quoted(out) + ": " + ec.message();
    if (!std::filesystem::is_directory(out, ec)) return "--out: " + quoted(out) + " is not a folder";
    if (auto e = writableFolder("--out", out)) return e;
  }
  if (!o.screenshot.empty()) {
    std::filesystem::path folder = std::filesystem::path(o.screenshot).parent_path();
    if (folder.empty()) folder = ".";
    std::error_code ec;
    std::filesystem::create_directories(folder, ec);
    if (ec) return "--screenshot: cannot create the folder " + quoted(folder) + ": " + ec.message();
    if (auto e = writableFolder("--screenshot", folder)) return e;
  }
  return std::nullopt;
}

}  // namespace satdof
