// qa/fresh_render.h — the check the soak and the resize storm end with: the same settings
// rendered by a fresh satdof process (headless, two frames), compared byte for byte with
// a PNG this process wrote.
#pragma once

#include <filesystem>
#include <string>

#include "engine/basic_types.h"

namespace satdof {

struct FreshRender {
  bool same = false;
  std::string command;  // what ran, for the message when it differs
};

// Runs this executable with `flags` (the settings; size and output are added) into
// `dir`, and compares its last frame with `png`.
FreshRender renderFreshAndCompare(const std::string& flags, Extent size, const std::filesystem::path& dir,
                                  const std::filesystem::path& png);

}  // namespace satdof
