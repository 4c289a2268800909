// fuzz/fuzz_script_resize.cpp — a script's `resize W H` line (settings/script.h) with arbitrary
// bytes after "resize " on its one line. A success is one Resize command whose sides are
// in [1, kMaxScriptWindowSide] and read back from their decimal text; a failure names the
// line and the command in one line.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_check.h"
#include "settings/script.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view tail(reinterpret_cast<const char*>(data), size);
  tail = tail.substr(0, tail.find('\n'));
  const std::string line = "resize " + std::string(tail);
  std::string error;
  const auto commands = satdof::parseScript(line, error);
  if (!commands) {
    FUZZ_CHECK(error.starts_with("line 1: resize: ") || error.starts_with("line 1: expected 'resize W H', got "));
    FUZZ_CHECK(error.find('\n') == std::string::npos);
    return 0;
  }
  FUZZ_CHECK(commands->size() == 1);
  const satdof::ScriptCommand& c = commands->front();
  FUZZ_CHECK(c.kind == satdof::ScriptCommand::Kind::Resize && c.line == 1);
  FUZZ_CHECK(c.x >= 1 && c.x <= satdof::kMaxScriptWindowSide && c.y >= 1 && c.y <= satdof::kMaxScriptWindowSide);
  const auto again = satdof::parseScript("resize " + std::to_string(c.x) + " " + std::to_string(c.y), error);
  FUZZ_CHECK(again && again->size() == 1 && again->front().x == c.x && again->front().y == c.y);
  return 0;
}
