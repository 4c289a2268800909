// fuzz/fuzz_shader_include.cpp — expandIncludes over an in-memory set of files built
// from the input: the bytes are cut at each '\0' into files named "0", "1", "2", ...,
// the expansion starts at "0", and the alias "fmt" means file "2" (as
// "sat_format.glsl" means the chosen format's file in the app). Include cycles, deep
// nesting, missing files and exponential fan-out must all end in a ShaderSourceError,
// never in a crash, a hang or exhausted memory.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "fuzz_check.h"
#include "engine/gl/shader_source.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  std::map<std::string, std::string> files;
  for (std::size_t begin = 0, k = 0; begin <= input.size(); ++k) {
    const std::size_t end = std::min(input.find('\0', begin), input.size());
    files[std::to_string(k)] = std::string(input.substr(begin, end - begin));
    begin = end + 1;
  }
  const std::map<std::string, std::string> aliases = {{"fmt", "2"}};
  std::size_t reads = 0;
  const satdof::gl::ReadShaderFile read = [&](const std::string& name) -> std::optional<std::string> {
    ++reads;
    const auto it = files.find(name);
    if (it == files.end()) return std::nullopt;
    return it->second;
  };
  try {
    const auto out = satdof::gl::expandIncludes("0", read, aliases);
    FUZZ_CHECK(!out.files.empty() && out.files.front() == "0");
    FUZZ_CHECK(out.files.size() == reads);
    FUZZ_CHECK(out.text.size() <= satdof::gl::kMaxExpandedBytes);
    for (const std::string& f : out.files) FUZZ_CHECK(files.count(f) == 1);
  } catch (const satdof::gl::ShaderSourceError& e) {
    FUZZ_CHECK(std::string_view(e.what()).size() > 0);
  }
  return 0;
}
