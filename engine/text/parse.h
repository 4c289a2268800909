// engine/text/parse.h — the text parsers behind satdof's flags, as pure functions (no CLI11, no
// GL), so that tests/test_parse.cpp can pin their messages and fuzz/ can throw bytes at
// them. Each returns the value, or nullopt with a one-line reason in `error` that quotes
// the offending text (cut to 40 characters, control bytes escaped).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/basic_types.h"

namespace satdof {

// Largest width or height accepted for a render size.
inline constexpr int kMaxExtent = 16384;

// "WxH" (or "WXH"), each side 1 to 9 decimal digits with a value in [1, kMaxExtent];
// nothing else, not even spaces. Errors:
//   "expected WxH (e.g. 1920x1080), got '...'"
//   "width and height must be between 1 and 16384, got '...'"
std::optional<Extent> parseExtent(std::string_view text, std::string& error);

// One float written in full: optional spaces around it, an optional sign, decimal digits
// with an optional fraction and exponent ("1", "-0.25", "+3e-2", ".5"). Errors:
//   "not a number: '...'"     anything else, including "nan", "inf", "1x", "" and "0x1"
//   "out of range: '...'"     a number whose magnitude does not fit a float, too large
//                             (1e39) or too small to be told from zero (1e-50)
std::optional<float> parseNumber(std::string_view text, std::string& error);

// A whole number written in full: optional spaces around it, an optional sign, 1 to 9
// decimal digits ("30", "-3", "+7"). Errors:
//   "not a whole number: '...'"   anything else, including "1.5", "1e3", "" and "0x10"
//   "out of range: '...'"         more than 9 digits
std::optional<int> parseInteger(std::string_view text, std::string& error);

// A comma-separated list of numbers (parseNumber each), e.g. the --weights of a custom
// filter: "0,1,0, 1,-4,1, 0,1,0". At least one item; an empty item is an error. An
// item's error names its position: "not a number: 'x' (item 3)". How many values a
// filter needs is the filter builder's business, not this function's.
std::optional<std::vector<float>> parseWeights(std::string_view list, std::string& error);

// `text` as quoted in the messages above: at most 40 characters (then "..."), bytes
// outside printable ASCII written as \xHH.
std::string quoteForMessage(std::string_view text);

// A path in quotes, in full (no cut), control bytes and bytes outside printable ASCII
// escaped as in quoteForMessage: the one-line messages about the user's files.
std::string quotedPath(const std::filesystem::path& path);

// ASCII letters in lower case, other bytes as they are (file extensions, names).
std::string lowerCase(std::string_view text);

}  // namespace satdof
