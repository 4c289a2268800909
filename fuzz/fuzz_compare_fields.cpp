// fuzz/fuzz_compare_fields.cpp — splitCompareFields (engine/pipeline/compare_fields.h: the
// key=name list of --compare-b, `set compare-b` and the settings file) on arbitrary
// bytes. A success has one item per comma-separated part, each key once and without '=';
// the fields it sets (an empty name gives the field back to A) read back from
// formatCompareFields as the same fields; a failure is one line.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_check.h"
#include "engine/pipeline/compare_fields.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::string error;
  const auto items = satdof::splitCompareFields(text, "backend, dof", error);
  if (!items) {
    FUZZ_CHECK(!error.empty() && error.find('\n') == std::string::npos);
    FUZZ_CHECK(error.ends_with("; keys: backend, dof") || error.find(" is given twice in ") != std::string::npos);
    return 0;
  }
  FUZZ_CHECK(items->size() == std::size_t(std::count(text.begin(), text.end(), ',')) + 1);
  satdof::CompareFields fields;
  for (const auto& [key, name] : *items) {
    FUZZ_CHECK(key.find('=') == std::string::npos && key.find(',') == std::string::npos);
    FUZZ_CHECK(name.find(',') == std::string::npos);
    FUZZ_CHECK(!fields.count(key));
    fields[key] = name;
  }
  std::erase_if(fields, [](const auto& f) { return f.second.empty(); });
  if (fields.empty()) return 0;  // "" is not key=name: nothing to read back
  const auto again = satdof::splitCompareFields(satdof::formatCompareFields(fields), "", error);
  FUZZ_CHECK(again && satdof::CompareFields(again->begin(), again->end()) == fields);
  return 0;
}
