// engine/gl/shader_source.cpp — see shader_source.h. The include line is matched by hand
// (std::regex recursed once per character and could overflow the stack on a long line);
// the expansion recurses once per include level, which kMaxIncludeDepth bounds.
#include "engine/gl/shader_source.h"

#include <algorithm>
#include <string_view>

namespace satdof::gl {
namespace {

// Whitespace as the regex \s had it in the classic locale.
constexpr bool isSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

// The name in `#include "name"` when the whole line is such an include.
std::optional<std::string_view> includedName(std::string_view line) {
  std::size_t i = 0;
  auto skipSpaces = [&] {
    const std::size_t start = i;
    while (i < line.size() && isSpace(line[i])) ++i;
    return i > start;
  };
  skipSpaces();
  constexpr std::string_view kDirective = "#include";
  if (line.substr(i, kDirective.size()) != kDirective) return std::nullopt;
  i += kDirective.size();
  if (!skipSpaces() || i >= line.size() || line[i] != '"') return std::nullopt;
  const std::size_t close = line.find('"', i + 1);
  if (close == std::string_view::npos || close == i + 1) return std::nullopt;
  const std::string_view name = line.substr(i + 1, close - i - 1);
  i = close + 1;
  skipSpaces();
  if (i != line.size()) return std::nullopt;
  return name;
}

class Expander {
 public:
  Expander(const ReadShaderFile& read, const std::map<std::string, std::string>& aliases,
           const ShaderDefines& defines)
      : read_(read), aliases_(aliases), defines_(defines) {}

  ExpandedSource run(const std::string& file) {
    expand(file, "");
    if (!defines_.empty() && !definesWritten_)
      throw ShaderSourceError("defines need a #version line in " + file + ", to follow it");
    return std::move(result_);
  }

 private:
  // `from`: "file:line" of the include that led here ("" for the top file).
  void expand(const std::string& file, const std::string& from) {
    const std::string at = from.empty() ? "" : " (at " + from + ")";
    if (const auto open = std::find(stack_.begin(), stack_.end(), file); open != stack_.end()) {
      std::string chain;
      for (auto it = open; it != stack_.end(); ++it) chain += *it + " -> ";
      throw ShaderSourceError("include cycle: " + chain + file + at);
    }
    if (int(stack_.size()) >= kMaxIncludeDepth)
      throw ShaderSourceError("includes nested deeper than " + std::to_string(kMaxIncludeDepth) +
                              " levels" + at);
    const std::optional<std::string> text = read_(file);
    if (!text) throw ShaderSourceError("cannot open shader file " + file + at);

    const std::string index = std::to_string(result_.files.size());
    result_.files.push_back(file);
    stack_.push_back(file);
    std::string& out = result_.text;
    const std::string_view all = *text;
    bool sawVersion = false;
    int lineNo = 0;
    // Lines as std::getline splits them: a final '\n' does not start an empty line.
    for (std::size_t begin = 0; begin < all.size();) {
      const std::size_t newline = std::min(all.find('\n', begin), all.size());
      const std::string_view line = all.substr(begin, newline - begin);
      begin = newline + 1;
      ++lineNo;
      if (const auto name = includedName(line)) {
        const auto alias = aliases_.find(std::string(*name));
        expand(alias == aliases_.end() ? std::string(*name) : alias->second,
               file + ":" + std::to_string(lineNo));
        out += "#line " + std::to_string(lineNo + 1) + " " + index + "\n";
      } else {
        out.append(line).append("\n");
        if (!sawVersion && line.starts_with("#version")) {
          sawVersion = true;
          if (stack_.size() == 1) {  // the top file: the program's defines
            for (const auto& [name, value] : defines_) out += "#define " + name + " " + std::to_string(value) + "\n";
            definesWritten_ = true;
          }
          out += "#line " + std::to_string(lineNo + 1) + " " + index + "\n";
        }
      }
      if (out.size() > kMaxExpandedBytes)
        throw ShaderSourceError("expanded shader source is larger than " +
                                std::to_string(kMaxExpandedBytes >> 20) + " MiB (at " + file +
                                ":" + std::to_string(lineNo) + ")");
    }
    stack_.pop_back();
  }

  const ReadShaderFile& read_;
  const std::map<std::string, std::string>& aliases_;
  const ShaderDefines& defines_;
  bool definesWritten_ = false;
  std::vector<std::string> stack_;  // the files being expanded, outermost first
  ExpandedSource result_;
};

}  // namespace

ExpandedSource expandIncludes(const std::string& file, const ReadShaderFile& read,
                              const std::map<std::string, std::string>& aliases, const ShaderDefines& defines) {
  return Expander(read, aliases, defines).run(file);
}

}  // namespace satdof::gl
