// engine/content/content_error.h — what goes wrong reading the user's files, as one line that
// names the file and the problem ("'photo.png': not an image ..."). The command line
// prints it and exits 2 before any window opens; a file dropped on the window shows it in
// the panel and keeps what was shown.
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>

#include "engine/text/parse.h"

namespace satdof::content {

// The problem is made one line (a loader's multi-line message too).
struct ContentError : std::runtime_error {
  ContentError(const std::filesystem::path& file, const std::string& problem);
};

using ::satdof::quotedPath;  // parse.h: a path in quotes, in full, control bytes escaped

}  // namespace satdof::content
