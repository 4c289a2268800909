// engine/text/parse.cpp — see parse.h. Hand-written scanners rather than std::regex: linear time,
// no recursion (libstdc++'s regex recurses per character), nothing that throws.
#include "engine/text/parse.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <system_error>

namespace satdof {
namespace {

constexpr bool isDigit(char c) { return c >= '0' && c <= '9'; }
constexpr bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

std::string_view trimSpaces(std::string_view s) {
  while (!s.empty() && isSpace(s.front())) s.remove_prefix(1);
  while (!s.empty() && isSpace(s.back())) s.remove_suffix(1);
  return s;
}

// 1 to 9 decimal digits, nothing else (so no sign, no overflow of an int).
std::optional<int> smallDecimal(std::string_view digits) {
  if (digits.empty() || digits.size() > 9) return std::nullopt;
  int value = 0;
  for (char c : digits) {
    if (!isDigit(c)) return std::nullopt;
    value = value * 10 + (c - '0');
  }
  return value;
}

}  // namespace

std::string lowerCase(std::string_view text) {
  std::string out(text);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = char(c - 'A' + 'a');
  return out;
}

std::string quoteForMessage(std::string_view text) {
  constexpr std::size_t kMaxShown = 40;
  std::string out;
  for (std::size_t i = 0; i < text.size() && i < kMaxShown; ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c < 0x7f) {
      out += char(c);
    } else {
      char hex[5];
      std::snprintf(hex, sizeof hex, "\\x%02X", c);
      out += hex;
    }
  }
  if (text.size() > kMaxShown) out += "...";
  return "'" + out + "'";
}

std::optional<Extent> parseExtent(std::string_view text, std::string& error) {
  const std::size_t x = text.find_first_of("xX");
  const auto w = x == std::string_view::npos ? std::nullopt : smallDecimal(text.substr(0, x));
  const auto h = x == std::string_view::npos ? std::nullopt : smallDecimal(text.substr(x + 1));
  if (!w || !h) {
    error = "expected WxH (e.g. 1920x1080), got " + quoteForMessage(text);
    return std::nullopt;
  }
  if (*w < 1 || *h < 1 || *w > kMaxExtent || *h > kMaxExtent) {
    error = "width and height must be between 1 and " + std::to_string(kMaxExtent) + ", got " +
            quoteForMessage(text);
    return std::nullopt;
  }
  return Extent{*w, *h};
}

std::optional<float> parseNumber(std::string_view text, std::string& error) {
  std::string_view s = trimSpaces(text);
  // from_chars takes no '+' and would read "inf", "nan" and a lone "1e" (as 1): check
  // the shape first, so that only [sign] (digits [. digits] | . digits) [e [sign] digits]
  // reaches it, and it must then consume everything.
  const bool plus = !s.empty() && s.front() == '+';
  if (plus) s.remove_prefix(1);
  const std::string_view body = !plus && !s.empty() && s.front() == '-' ? s.substr(1) : s;
  const bool startsRight = !body.empty() && (isDigit(body.front()) || body.front() == '.');
  float value = 0.0f;
  const auto [end, ec] =
      startsRight ? std::from_chars(s.data(), s.data() + s.size(), value, std::chars_format::general)
                  : std::from_chars_result{s.data(), std::errc::invalid_argument};
  if (ec == std::errc::result_out_of_range && end == s.data() + s.size()) {
    error = "out of range: " + quoteForMessage(text);
    return std::nullopt;
  }
  if (ec != std::errc() || end != s.data() + s.size() || !std::isfinite(value)) {
    error = "not a number: " + quoteForMessage(text);
    return std::nullopt;
  }
  return value;
}

std::optional<int> parseInteger(std::string_view text, std::string& error) {
  std::string_view s = trimSpaces(text);
  bool negative = false;
  if (!s.empty() && (s.front() == '+' || s.front() == '-')) {
    negative = s.front() == '-';
    s.remove_prefix(1);
  }
  bool digits = !s.empty();
  for (char c : s) digits = digits && isDigit(c);
  if (!digits) {
    error = "not a whole number: " + quoteForMessage(text);
    return std::nullopt;
  }
  while (s.size() > 1 && s.front() == '0') s.remove_prefix(1);
  if (s.size() > 9) {
    error = "out of range: " + quoteForMessage(text);
    return std::nullopt;
  }
  int value = 0;
  for (char c : s) value = value * 10 + (c - '0');
  return negative ? -value : value;
}

std::optional<std::vector<float>> parseWeights(std::string_view list, std::string& error) {
  std::vector<float> values;
  std::size_t item = 1;
  for (std::size_t begin = 0;; ++item) {
    const std::size_t comma = list.find(',', begin);
    const std::string_view text =
        list.substr(begin, comma == std::string_view::npos ? std::string_view::npos : comma - begin);
    const auto value = parseNumber(text, error);
    if (!value) {
      error += " (item " + std::to_string(item) + ")";
      return std::nullopt;
    }
    values.push_back(*value);
    if (comma == std::string_view::npos) break;
    begin = comma + 1;
  }
  return values;
}

std::string quotedPath(const std::filesystem::path& p) {
  std::string s;
  for (std::size_t i = 0; i < p.native().size(); i += 40) {
    const std::string q = quoteForMessage(p.native().substr(i, 40));  // '...' around 40 or fewer
    s += q.substr(1, q.size() - 2);
  }
  return "'" + s + "'";
}

}  // namespace satdof
