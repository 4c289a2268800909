// tests/test_parse.cpp — the pure text parsers: render sizes, numbers and weight lists
// (engine/text/parse.h) with their exact messages, --script files (settings/script.h), and the shader #include expansion
// (engine/gl/shader_source.h) over an in-memory set of files: aliases, #line markers,
// cycles, depth and size limits. Inputs that broke the code, found by the fuzzers in
// fuzz/ or while writing them, are kept as regressions (section "regressions").
#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/gl/shader_source.h"
#include "engine/text/parse.h"
#include "engine/pipeline/compare_fields.h"
#include "settings/script.h"

using satdof::Extent;
namespace gl = satdof::gl;

// =====================================================================================
// parseExtent
// =====================================================================================

TEST(ParseExtent, AcceptsWxH) {
  std::string error;
  EXPECT_EQ(satdof::parseExtent("1920x1080", error), (Extent{1920, 1080}));
  EXPECT_EQ(satdof::parseExtent("1X1", error), (Extent{1, 1}));
  EXPECT_EQ(satdof::parseExtent("16384x00007", error), (Extent{16384, 7}));
  EXPECT_TRUE(error.empty());
}

TEST(ParseExtent, RejectsOtherShapes) {
  for (const char* bad : {"", "x", "1920", "1920x", "x1080", "1920x1080x2", "-1x5", "+1x5",
                          "1920 x1080", " 1920x1080", "1920x1080 ", "1234567890x1", "1e3x1", "1x1x"}) {
    std::string error;
    EXPECT_FALSE(satdof::parseExtent(bad, error)) << bad;
    EXPECT_EQ(error, "expected WxH (e.g. 1920x1080), got '" + std::string(bad) + "'") << bad;
  }
}

TEST(ParseExtent, RejectsOutOfRange) {
  // Any number of pixels a user may type, 100000x100000 too, is told the range.
  for (const char* bad : {"0x10", "10x0", "16385x1", "1x99999", "100000x100000", "123456x1"}) {
    std::string error;
    EXPECT_FALSE(satdof::parseExtent(bad, error)) << bad;
    EXPECT_EQ(error, "width and height must be between 1 and 16384, got '" + std::string(bad) + "'");
  }
}

// =====================================================================================
// parseNumber, parseWeights
// =====================================================================================

TEST(ParseNumber, AcceptsDecimalFloats) {
  std::string error;
  const std::pair<const char*, float> good[] = {{"1", 1.0f},     {"-0.25", -0.25f}, {"+3e-2", 3e-2f},
                                                {".5", 0.5f},    {" 7 ", 7.0f},     {"1.", 1.0f},
                                                {"-1E+2", -100.0f}, {"3.4028235e38", 3.4028235e38f}};
  for (const auto& [text, value] : good) {
    const auto got = satdof::parseNumber(text, error);
    ASSERT_TRUE(got) << text << ": " << error;
    EXPECT_EQ(*got, value) << text;
  }
}

TEST(ParseNumber, TellsNotANumberFromOutOfRange) {
  for (const char* bad : {"", " ", "x", "1x", "1e", "nan", "inf", "-inf", "0x1p3", "+-1", "--1",
                          "1,5", ".", "-", "e5", "1 2"}) {
    std::string error;
    EXPECT_FALSE(satdof::parseNumber(bad, error)) << bad;
    EXPECT_EQ(error, "not a number: '" + std::string(bad) + "'");
  }
  for (const char* big : {"1e39", "-3.5e38", "1e-50", "1e99999999999999999999"}) {
    std::string error;
    EXPECT_FALSE(satdof::parseNumber(big, error)) << big;
    EXPECT_EQ(error, "out of range: '" + std::string(big) + "'");
  }
}

TEST(ParseWeights, ReadsCommaSeparatedLists) {
  std::string error;
  const auto w = satdof::parseWeights("0,1,0, 1,-4,1, 0,1,0", error);
  ASSERT_TRUE(w) << error;
  EXPECT_EQ(*w, (std::vector<float>{0, 1, 0, 1, -4, 1, 0, 1, 0}));
  EXPECT_EQ(satdof::parseWeights("2.5", error), (std::vector<float>{2.5f}));
}

TEST(ParseWeights, NamesTheBadItem) {
  std::string error;
  EXPECT_FALSE(satdof::parseWeights("1,2,x,4", error));
  EXPECT_EQ(error, "not a number: 'x' (item 3)");
  EXPECT_FALSE(satdof::parseWeights("1,,3", error));
  EXPECT_EQ(error, "not a number: '' (item 2)");
  EXPECT_FALSE(satdof::parseWeights("1,2,", error));
  EXPECT_EQ(error, "not a number: '' (item 3)");
  EXPECT_FALSE(satdof::parseWeights("", error));
  EXPECT_EQ(error, "not a number: '' (item 1)");
  EXPECT_FALSE(satdof::parseWeights("1,1e40", error));
  EXPECT_EQ(error, "out of range: '1e40' (item 2)");
}

TEST(ParseMessages, QuoteLongAndBinaryText) {
  EXPECT_EQ(satdof::quoteForMessage("a\nb\x01\xff"), "'a\\x0Ab\\x01\\xFF'");
  EXPECT_EQ(satdof::quoteForMessage(std::string(50, 'z')), "'" + std::string(40, 'z') + "...'");
}

// =====================================================================================
// expandIncludes
// =====================================================================================

namespace {

using Files = std::map<std::string, std::string>;

gl::ExpandedSource expand(const Files& files, const std::string& top,
                          const std::map<std::string, std::string>& aliases = {},
                          const gl::ShaderDefines& defines = {}) {
  return gl::expandIncludes(
      top,
      [&](const std::string& name) -> std::optional<std::string> {
        const auto it = files.find(name);
        if (it == files.end()) return std::nullopt;
        return it->second;
      },
      aliases, defines);
}

// "f<k>", and `#include "f<k>"` with a newline. (Built by appending: GCC 12 warns,
// wrongly, of overlapping copies in "literal" + std::to_string(k).)
std::string fileName(int k) {
  std::string name = "f";
  return name.append(std::to_string(k));
}
std::string includeLine(int k) {
  std::string line = "#include \"";
  return line.append(fileName(k)).append("\"\n");
}

std::string errorOf(const Files& files, const std::string& top) {
  try {
    expand(files, top);
  } catch (const gl::ShaderSourceError& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST(ShaderSource, ExpandsIncludesWithLineMarkers) {
  const Files files = {{"a.frag", "#version 450\n  #include  \"b.glsl\" \nmain\n"},
                       {"b.glsl", "b1\n#include \"c.glsl\"\nb3"},
                       {"c.glsl", "c1\n"}};
  const auto out = expand(files, "a.frag");
  EXPECT_EQ(out.text,
            "#version 450\n#line 2 0\n"
            "b1\nc1\n#line 3 1\nb3\n#line 3 0\n"
            "main\n");
  EXPECT_EQ(out.files, (std::vector<std::string>{"a.frag", "b.glsl", "c.glsl"}));
}

TEST(ShaderSource, AliasesAndRepeatedIncludes) {
  const Files files = {{"a", "#include \"fmt\"\n#include \"fmt\"\n"}, {"real", "r\n"}};
  const auto out = expand(files, "a", {{"fmt", "real"}});
  EXPECT_EQ(out.text, "r\n#line 2 0\nr\n#line 3 0\n");
  EXPECT_EQ(out.files, (std::vector<std::string>{"a", "real", "real"}));
}

TEST(ShaderSource, DefinesFollowTheTopFilesVersion) {
  const Files files = {{"a.comp", "#version 450 core\n#include \"b.glsl\"\nmain\n"},
                       {"b.glsl", "#version 450 core\nb\n"}};
  const auto out = expand(files, "a.comp", {}, {{"LINEAR", 1}, {"SEE_THROUGH", 0}});
  EXPECT_EQ(out.text,
            "#version 450 core\n#define LINEAR 1\n#define SEE_THROUGH 0\n#line 2 0\n"
            "#version 450 core\n#line 2 1\nb\n#line 3 0\nmain\n");
  // Without a #version in the top file there is nowhere for them to go.
  try {
    expand({{"x", "main\n"}}, "x", {}, {{"A", 1}});
    ADD_FAILURE() << "no error";
  } catch (const gl::ShaderSourceError& e) {
    EXPECT_EQ(std::string(e.what()), "defines need a #version line in x, to follow it");
  }
}

TEST(ShaderSource, LeavesNearMissesAlone) {
  const std::string text = "#include\"x\"\n#include \"\"\n#include \"x\" y\n#include <x>\n// #include \"x\"\n";
  EXPECT_EQ(expand({{"a", text}}, "a").text, text);
}

TEST(ShaderSource, ClearErrors) {
  EXPECT_EQ(errorOf({}, "a"), "cannot open shader file a");
  EXPECT_EQ(errorOf({{"a", "x\n#include \"b\"\n"}}, "a"), "cannot open shader file b (at a:2)");
  EXPECT_EQ(errorOf({{"a", "#include \"a\"\n"}}, "a"), "include cycle: a -> a (at a:1)");
  EXPECT_EQ(errorOf({{"a", "#include \"b\"\n"}, {"b", "\n\n#include \"c\""}, {"c", "#include \"b\""}},
                    "a"),
            "include cycle: b -> c -> b (at c:1)");
}

TEST(ShaderSource, DepthLimit) {
  Files files;  // f0 -> f1 -> ... -> f40, no cycle, just too deep
  for (int k = 0; k < 40; ++k) files[fileName(k)] = includeLine(k + 1);
  files["f40"] = "end\n";
  EXPECT_EQ(errorOf(files, "f0"), "includes nested deeper than 32 levels (at f31:1)");
  files["f20"] = "end\n";  // 21 levels: fine
  EXPECT_NO_THROW(expand(files, "f0"));
}

TEST(ShaderSource, SizeLimitStopsExponentialIncludes) {
  // Each level includes the next twice: 2^30 copies of the last file if nothing stops it.
  Files files;
  for (int k = 0; k < 30; ++k) files[fileName(k)] = includeLine(k + 1) + includeLine(k + 1);
  files["f30"] = std::string(100, 'x') + "\n";
  const std::string error = errorOf(files, "f0");
  EXPECT_EQ(error.rfind("expanded shader source is larger than 8 MiB (at ", 0), 0u) << error;
}

// =====================================================================================
// regressions
// =====================================================================================

TEST(ShaderSourceRegression, LongLinesDoNotRecurse) {
  // The resolver in program.cpp matched lines with std::regex, which recurses once per
  // character: a 1 MB line of spaces (with or without "#include") overflowed the stack
  // (checked: SIGSEGV on the old code). Found while writing the fuzz target, whose
  // inputs are too short to reach it.
  const std::string line = "#include" + std::string(1 << 20, ' ') + "\"b\"";
  EXPECT_EQ(expand({{"a", line}, {"b", "b\n"}}, "a").text, "b\n#line 2 0\n");
  const std::string noise(1 << 20, ' ');
  EXPECT_EQ(expand({{"a", noise}}, "a").text, noise + "\n");
}

// =====================================================================================
// parseInteger
// =====================================================================================

TEST(ParseInteger, AcceptsWholeNumbers) {
  std::string error;
  EXPECT_EQ(satdof::parseInteger("30", error), 30);
  EXPECT_EQ(satdof::parseInteger(" -3 ", error), -3);
  EXPECT_EQ(satdof::parseInteger("+7", error), 7);
  EXPECT_EQ(satdof::parseInteger("000000000000012", error), 12);
  EXPECT_EQ(satdof::parseInteger("999999999", error), 999999999);
  EXPECT_TRUE(error.empty());
}

TEST(ParseInteger, SaysNotAWholeNumberOrOutOfRange) {
  for (const char* bad : {"", "1.5", "1e3", "0x10", "banana", "-", "+", "1 2", "--1"}) {
    std::string error;
    EXPECT_FALSE(satdof::parseInteger(bad, error)) << bad;
    EXPECT_EQ(error, "not a whole number: '" + std::string(bad) + "'") << bad;
  }
  std::string error;
  EXPECT_FALSE(satdof::parseInteger("1234567890", error));
  EXPECT_EQ(error, "out of range: '1234567890'");
}

// =====================================================================================
// parseScript
// =====================================================================================

TEST(ParseScript, ReadsEveryCommandWithItsLine) {
  std::string error;
  const auto c = satdof::parseScript(
      "# a comment\n\nset weights 0,1,0, 1,-4,1\nselect scan cub\nfocus 10 20\nview depth\n"
      "preset macro\nscreenshot out/a b.png\nwait 3  # trailing comment\r\nquit\nresize 640 400\nrace\nadopt 7\n",
      error);
  ASSERT_TRUE(c) << error;
  ASSERT_EQ(c->size(), 11u);
  using K = satdof::ScriptCommand::Kind;
  EXPECT_EQ((*c)[0].kind, K::Set);
  EXPECT_EQ((*c)[0].name, "weights");
  EXPECT_EQ((*c)[0].value, "0,1,0, 1,-4,1");  // the rest of the line, spaces kept single
  EXPECT_EQ((*c)[0].line, 3);
  EXPECT_EQ((*c)[1].kind, K::Select);
  EXPECT_EQ((*c)[1].value, "cub");
  EXPECT_EQ((*c)[2].kind, K::Focus);
  EXPECT_EQ((*c)[2].x, 10);
  EXPECT_EQ((*c)[2].y, 20);
  EXPECT_EQ((*c)[3].name, "depth");
  EXPECT_EQ((*c)[4].kind, K::Preset);
  EXPECT_EQ((*c)[5].name, "out/a b.png");
  EXPECT_EQ((*c)[6].kind, K::Wait);
  EXPECT_EQ((*c)[6].x, 3);
  EXPECT_EQ((*c)[7].kind, K::Quit);
  EXPECT_EQ((*c)[7].line, 10);
  EXPECT_EQ((*c)[8].kind, K::Resize);
  EXPECT_EQ((*c)[8].x, 640);
  EXPECT_EQ((*c)[8].y, 400);
  EXPECT_EQ((*c)[9].kind, K::Race);
  EXPECT_EQ((*c)[10].kind, K::Adopt);
  EXPECT_EQ((*c)[10].x, 7);
}

TEST(ParseScript, ErrorsNameTheLine) {
  const std::pair<const char*, const char*> cases[] = {
      {"quit\nfly away\n", "line 2: no command 'fly'; valid: set, select, focus, view, preset, key, screenshot, wait, resize, "
                             "race, adopt, drop, quit"},
      {"race 3\n", "line 1: expected 'race', got 'race 3'"},
      {"race\nadopt 0\n", "line 2: adopt: '0' is out of range: must be between 1 and 100000"},
      {"adopt\n", "line 1: expected 'adopt N', got 'adopt'"},
      {"resize 0 300\n", "line 1: resize: '0' is out of range: must be between 1 and 16384"},
      {"resize 640\n", "line 1: expected 'resize W H', got 'resize 640'"},
      {"set focal\n", "line 1: expected 'set OPTION VALUE', got 'set focal'"},
      {"focus 1 2 3\n", "line 1: expected 'focus X Y', got 'focus 1 2 3'"},
      {"focus -1 2\n", "line 1: focus: '-1' is out of range: must be between 0 and 65535"},
      {"focus x 2\n", "line 1: focus: not a whole number: 'x'"},
      {"\n\nwait 0\n", "line 3: wait: '0' is out of range: must be between 1 and 100000"},
      {"quit now\n", "line 1: expected 'quit', got 'quit now'"},
  };
  for (const auto& [text, expected] : cases) {
    std::string error;
    EXPECT_FALSE(satdof::parseScript(text, error)) << text;
    EXPECT_EQ(error, expected) << text;
  }
}

// --compare-b's key=name list: its items in order, a name may hold '=', an empty one gives
// the field back; formatCompareFields reads back; errors in one line.
TEST(SplitCompareFields, ItemsInOrderAndErrorsInOneLine) {
  std::string error;
  const auto items = satdof::splitCompareFields("dof=layered,sat-format=,x=a=b", "dof", error);
  ASSERT_TRUE(items) << error;
  const std::vector<std::pair<std::string, std::string>> expected{{"dof", "layered"}, {"sat-format", ""}, {"x", "a=b"}};
  EXPECT_EQ(*items, expected);
  const satdof::CompareFields fields{{"dof", "layered"}, {"x", "a=b"}};
  const auto again = satdof::splitCompareFields(satdof::formatCompareFields(fields), "", error);
  ASSERT_TRUE(again) << error;
  EXPECT_EQ(satdof::CompareFields(again->begin(), again->end()), fields);
  const std::pair<const char*, const char*> bad[] = {
      {"dof", "'dof' is not key=name (e.g. dof=layered,sat-format=float32); keys: backend, dof"},
      {"dof=a,", "'' is not key=name (e.g. dof=layered,sat-format=float32); keys: backend, dof"},
      {"dof=a,dof=b", "'dof' is given twice in 'dof=a,dof=b'"}};
  for (const auto& [text, message] : bad) {
    EXPECT_FALSE(satdof::splitCompareFields(text, "backend, dof", error)) << text;
    EXPECT_EQ(error, message);
  }
}
