// engine/pipeline/compare_fields.cpp — see compare_fields.h.
#include "engine/pipeline/compare_fields.h"

#include <algorithm>

#include "engine/text/parse.h"

namespace satdof {

std::optional<std::vector<std::pair<std::string, std::string>>> splitCompareFields(std::string_view text,
                                                                                   std::string_view keys,
                                                                                   std::string& error) {
  std::vector<std::pair<std::string, std::string>> items;
  for (std::size_t begin = 0; begin <= text.size();) {
    const std::size_t end = std::min(text.find(',', begin), text.size());
    const std::string_view item = text.substr(begin, end - begin);
    begin = end + 1;
    const std::size_t eq = item.find('=');
    if (eq == std::string_view::npos) {
      error = quoteForMessage(item) + " is not key=name (e.g. dof=layered,sat-format=float32); keys: " +
              std::string(keys);
      return std::nullopt;
    }
    const std::string_view key = item.substr(0, eq);
    if (std::any_of(items.begin(), items.end(), [&](const auto& i) { return i.first == key; })) {
      error = quoteForMessage(key) + " is given twice in " + quoteForMessage(text);
      return std::nullopt;
    }
    items.emplace_back(key, item.substr(eq + 1));
  }
  return items;
}

std::string formatCompareFields(const CompareFields& fields) {
  std::string text;
  for (const auto& [key, name] : fields) text += (text.empty() ? "" : ",") + key + "=" + name;
  return text;
}

}  // namespace satdof
