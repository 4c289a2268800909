// qa/fresh_render.cpp — see fresh_render.h.
#include "qa/fresh_render.h"

#include <cstdlib>
#include <sstream>

#include "engine/image/image_io.h"

namespace satdof {
namespace {
std::string quoted(const std::string& s) { return "'" + s + "'"; }
}  // namespace

FreshRender renderFreshAndCompare(const std::string& flags, Extent size, const std::filesystem::path& dir,
                                  const std::filesystem::path& png) {
  std::ostringstream cmd;
  // As rendered: the split and diff views without the labels a headless run draws on them.
  cmd << quoted(std::filesystem::read_symlink("/proc/self/exe").string()) << " --headless --frames 2 --save last --no-labels"
      << " --size " << size.width << "x" << size.height << " --out " << quoted(dir.string()) << " " << flags
      << " > " << quoted((dir.parent_path() / (dir.filename().string() + ".log")).string()) << " 2>&1";
  FreshRender r;
  r.command = cmd.str();
  r.same = std::system(r.command.c_str()) == 0 && readFileBytes(png) == readFileBytes(dir / "frame_0001.png");
  return r;
}

}  // namespace satdof
