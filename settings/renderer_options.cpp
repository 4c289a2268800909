// settings/renderer_options.cpp — see renderer_options.h.
#include "settings/renderer_options.h"

#include "settings/live_options.h"

namespace satdof {
namespace {

// `text` as one word of a POSIX shell's command line: as it is where that is safe, else quoted.
std::string shellWord(const std::string& text) {
  const bool plain = !text.empty() && text.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                                             "0123456789._,=:/+-") == std::string::npos;
  if (plain) return text;
  std::string quoted = "'";
  for (const char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

}  // namespace

Options optionsOf(const Renderer& renderer, Options o) {
  const Pipeline& pipeline = renderer.pipeline();
  static_cast<FrameSettings&>(o) = renderer.settings();
  o.focusFromScene = false;
  o.compareB = renderer.comparison().fields;
  o.dofName = std::string(pipeline.dofEntry().name);
  o.satFormat = std::string(satFormatInfo(pipeline.targets().satFormat).name);
  o.backend = std::string(pipeline.backend().name());
  BackendSelections& saved = o.savedSelections[o.backend];
  for (const BackendOption& b : pipeline.backendOptions())
    saved[b.key] = o.selections[b.key] = pipeline.backend().selected(b.key);
  o.savedSelections.erase("");  // a file's entries from before they were kept per backend
  return o;
}

std::string commandLineOf(const Options& o) {
  std::string line = " --backend " + shellWord(o.backend);
  for (const auto& [key, name] : o.selections) line += " --" + key + " " + shellWord(name);
  for (const LiveOption* option : liveOptions()) {
    if (!option->sameAs.empty() || option->appliesTo == AppliesTo::Window || whyNotApplies(*option, o)) continue;
    if (option->name == "compare") continue;  // B's convolution: --compare-b carries all of B
    const std::string value = option->get(o);
    if (!value.empty()) line += " --" + std::string(option->name) + " " + shellWord(value);
  }
  return line;
}

}  // namespace satdof
