// fuzz/fuzz_script.cpp — parseScript (settings/script.h) on arbitrary bytes. A success has one
// command per non-blank, non-comment line, each with its 1-based line number, in order,
// and numbers in range; a failure names the line ("line N: ...").
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_check.h"
#include "settings/script.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::string error;
  const auto commands = satdof::parseScript(text, error);
  if (!commands) {
    FUZZ_CHECK(error.starts_with("line "));
    FUZZ_CHECK(error.find(": ") != std::string::npos);
    return 0;
  }
  int lines = 1;
  for (char c : text) lines += c == '\n';
  int last = 0;
  for (const satdof::ScriptCommand& c : *commands) {
    FUZZ_CHECK(c.line > last && c.line <= lines);
    last = c.line;
    switch (c.kind) {
      case satdof::ScriptCommand::Kind::Wait: FUZZ_CHECK(c.x >= 1 && c.x <= satdof::kMaxScriptWait); break;
      case satdof::ScriptCommand::Kind::Focus: FUZZ_CHECK(c.x >= 0 && c.y >= 0); break;
      case satdof::ScriptCommand::Kind::Resize:
        FUZZ_CHECK(c.x >= 1 && c.x <= satdof::kMaxScriptWindowSide && c.y >= 1 &&
                   c.y <= satdof::kMaxScriptWindowSide);
        break;
      case satdof::ScriptCommand::Kind::Set:
      case satdof::ScriptCommand::Kind::Select: FUZZ_CHECK(!c.name.empty() && !c.value.empty()); break;
      case satdof::ScriptCommand::Kind::View:
      case satdof::ScriptCommand::Kind::Preset:
      case satdof::ScriptCommand::Kind::Key:
      case satdof::ScriptCommand::Kind::Screenshot: FUZZ_CHECK(!c.name.empty()); break;
      case satdof::ScriptCommand::Kind::Sections: FUZZ_CHECK(c.name == "open" || c.name == "fold"); break;
      case satdof::ScriptCommand::Kind::Adopt: FUZZ_CHECK(c.x >= 1 && c.x <= satdof::kMaxScriptRaceRow); break;
      case satdof::ScriptCommand::Kind::Race:
      case satdof::ScriptCommand::Kind::TimeScans:
      case satdof::ScriptCommand::Kind::Quit: break;
    }
  }
  return 0;
}
