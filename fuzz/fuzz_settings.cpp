// fuzz/fuzz_settings.cpp — parseSettings (app/options/settings_text.h: the settings file's
// key=value lines) on arbitrary bytes. A success has non-empty keys, each once, trimmed,
// none a comment, and reads back from formatSettings as the same entries; a failure names
// the line ("line N: ...") in one line.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_check.h"
#include "options/settings_text.h"

namespace {

bool blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

bool trimmed(const std::string& s) { return s.empty() || (!blank(s.front()) && !blank(s.back())); }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::string error;
  const auto entries = satdof::parseSettings(text, error);
  if (!entries) {
    FUZZ_CHECK(error.starts_with("line ") && error.find(": ") != std::string::npos);
    FUZZ_CHECK(error.find('\n') == std::string::npos);
    return 0;
  }
  for (std::size_t i = 0; i < entries->size(); ++i) {
    const auto& [key, value] = (*entries)[i];
    FUZZ_CHECK(!key.empty() && key.front() != '#' && key.find('=') == std::string::npos);
    FUZZ_CHECK(trimmed(key) && trimmed(value));
    FUZZ_CHECK(key.find('\n') == std::string::npos && value.find('\n') == std::string::npos);
    for (std::size_t j = 0; j < i; ++j) FUZZ_CHECK((*entries)[j].first != key);
  }
  // What the app writes reads back as what it wrote.
  const auto again = satdof::parseSettings(satdof::formatSettings(*entries), error);
  FUZZ_CHECK(again && *again == *entries);
  return 0;
}
