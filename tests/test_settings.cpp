// tests/test_settings.cpp — the live options (settings/live_options.h) and the settings file
// (settings/settings_store.h): each option's value reads back as it was written, messages say
// what is wrong in words, the declarations (one per option: defaults, ranges, where each
// applies), the file's format and its errors, the command line winning over the file, a
// refused or misfitting value dropped alone, backend options kept per backend.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <future>
#include <map>
#include <optional>
#include <sstream>
#include <vector>

#include "engine/backends/compute_backend.h"
#include "engine/pipeline/pipeline_config.h"  // CompareFields, read by compare-b
#include "settings/live_options.h"
#include "settings/renderer_options.h"
#include "settings/script.h"
#include "settings/settings_store.h"

namespace fs = std::filesystem;
using satdof::Options;

namespace {
// The focal distance the options hold; nullopt for --focal scene.
std::optional<float> focusOf(const Options& o) {
  return o.focusFromScene ? std::nullopt : std::optional<float>(o.dof.params.focalDistance);
}
}  // namespace

TEST(LiveOptions, EveryValueReadsBackAsWritten) {
  Options o;
  ASSERT_FALSE(satdof::setLiveOption(o, "focal", "14.5"));
  ASSERT_FALSE(satdof::setLiveOption(o, "view", "depth"));
  ASSERT_FALSE(satdof::setLiveOption(o, "diff-gain", "auto"));
  ASSERT_FALSE(satdof::setLiveOption(o, "camera", "thin-lens"));
  ASSERT_FALSE(satdof::setLiveOption(o, "msaa", "8"));
  ASSERT_FALSE(satdof::setLiveOption(o, "panel", "hidden"));
  for (const std::string& name : satdof::liveOptionNames()) {
    SCOPED_TRACE(name);
    const auto value = satdof::liveOptionValue(o, name);
    if (!value || value->empty() || *value == "scene") continue;  // unset: nothing to read back
    Options copy = o;
    EXPECT_FALSE(satdof::setLiveOption(copy, name, *value));
    EXPECT_EQ(satdof::liveOptionValue(copy, name), value);
  }
  EXPECT_EQ(*focusOf(o), 14.5f);
  EXPECT_EQ(o.msaa, 8);
  EXPECT_FALSE(o.panel);
}

TEST(LiveOptions, SayWhatIsWrongInWords) {
  Options o;
  EXPECT_EQ(satdof::setLiveOption(o, "max-blur", "banana"), "'banana' is not a number");
  EXPECT_EQ(satdof::setLiveOption(o, "radius", "2.5"), "'2.5' is not a whole number");
  EXPECT_EQ(satdof::setLiveOption(o, "divider", "2"), "'2' is out of range: must be between 0 and 1");
  EXPECT_EQ(satdof::setLiveOption(o, "autofocus", "left"),
            "no autofocus mode 'left'; valid: off, centre, point");
  EXPECT_EQ(satdof::setLiveOption(o, "msaa", "3"), "'3' is not a power of two (1, 2, 4, 8 or 16)");
  const auto unknown = satdof::setLiveOption(o, "colour", "red");
  ASSERT_TRUE(unknown);
  EXPECT_EQ(unknown->rfind("no option 'colour'; valid: ", 0), 0u) << *unknown;
}

// One declaration (bokeh-blades) reaches the command line's flag and its checks, the
// settings file (written under its name; an older file's bokeh-shape still read, and the
// command line winning over either name), a script's `set` and the command line that
// renders the same frame afresh (the soak's), which carries every option that applies.
TEST(LiveOptions, BokehBladesReachEveryPlaceFromOneDeclaration) {
  Options o;
  EXPECT_EQ(o.bokeh.blades, 0) << "round by default";
  ASSERT_FALSE(satdof::setLiveOption(o, "bokeh-blades", "5"));
  EXPECT_EQ(o.bokeh.blades, 5);
  EXPECT_EQ(satdof::liveOptionValue(o, "bokeh-blades"), "5");
  EXPECT_EQ(satdof::setLiveOption(o, "bokeh-blades", "2"), "2 blades make no aperture: 0 (round) or 3 to 12");
  EXPECT_EQ(satdof::setLiveOption(o, "bokeh-blades", "13"), "'13' is out of range: must be between 0 and 12");
  EXPECT_EQ(satdof::setLiveOption(o, "bokeh-blades", "4.5"), "'4.5' is not a whole number");
  EXPECT_EQ(o.bokeh.blades, 5) << "a refused value changes nothing";
  ASSERT_FALSE(satdof::setLiveOption(o, "bokeh-shape", "hexagon"));
  EXPECT_EQ(o.bokeh.blades, 6);
  ASSERT_FALSE(satdof::setLiveOption(o, "bokeh-shape", "disc"));
  EXPECT_EQ(o.bokeh.blades, 0);

  // The settings file: written as bokeh-blades alone.
  ASSERT_FALSE(satdof::setLiveOption(o, "bokeh-blades", "7"));
  const satdof::SettingsEntries saved = satdof::settingsOf(o, {});
  int blades = 0, shapes = 0;
  for (const auto& [key, value] : saved) {
    if (key == "bokeh-blades") blades += value == "7";
    shapes += key == "bokeh-shape";
  }
  EXPECT_EQ(blades, 1);
  EXPECT_EQ(shapes, 0);
  const fs::path dir = fs::temp_directory_path() / ("satdof_settings_blades_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path file = dir / "settings.ini";
  std::ofstream(file) << "bokeh-shape=hexagon\n";  // a file from before bokeh-blades
  Options older;
  satdof::loadSettings(file, older);
  EXPECT_EQ(older.bokeh.blades, 6);
  Options given;  // --bokeh-blades 5 on the command line: the file's older name does not undo it
  given.given.insert("bokeh-blades");
  given.bokeh.blades = 5;
  satdof::loadSettings(file, given);
  EXPECT_EQ(given.bokeh.blades, 5);
  std::ofstream(file) << "bokeh-blades=8\n";
  Options givenOlder;  // --bokeh-shape disc: the file's bokeh-blades does not undo it
  givenOlder.given.insert("bokeh-shape");
  satdof::loadSettings(file, givenOlder);
  EXPECT_EQ(givenOlder.bokeh.blades, 0);
  Options fromFile;
  satdof::loadSettings(file, fromFile);
  EXPECT_EQ(fromFile.bokeh.blades, 8);
  fs::remove_all(dir);

  // A script's line.
  std::string error;
  const auto script = satdof::parseScript("set bokeh-blades 9\n", error);
  ASSERT_TRUE(script) << error;
  ASSERT_EQ(script->size(), 1u);
  Options scripted;
  EXPECT_FALSE(satdof::setLiveOption(scripted, (*script)[0].name, (*script)[0].value));
  EXPECT_EQ(scripted.bokeh.blades, 9);

  // The command line of the same frame: every option that applies, by its current name.
  Options thinLens;
  thinLens.backend = "cpu";
  ASSERT_FALSE(satdof::setLiveOption(thinLens, "camera", "thin-lens"));
  ASSERT_FALSE(satdof::setLiveOption(thinLens, "f-number", "2.8"));
  ASSERT_FALSE(satdof::setLiveOption(thinLens, "bokeh-blades", "5"));
  ASSERT_FALSE(satdof::setLiveOption(thinLens, "weights", "0,1,0, 1,-4,1"));
  const std::string line = satdof::commandLineOf(thinLens);
  for (const char* part : {" --backend cpu", " --camera thin-lens", " --f-number 2.8", " --focal-length 85",
                           " --sensor-width ", " --bokeh-blades 5", " --bokeh on", " --max-blur 12"})
    EXPECT_NE(line.find(part), std::string::npos) << part << " in" << line;
  for (const char* part : {"--bokeh-shape", "--focal-range", "--render-scale", "--panel", "--weights"})
    EXPECT_EQ(line.find(part), std::string::npos) << part << " in" << line;
  Options custom = thinLens;  // the filter's own options once there is one
  ASSERT_FALSE(satdof::setLiveOption(custom, "filter", "custom"));
  EXPECT_NE(satdof::commandLineOf(custom).find(" --filter custom --radius 2 --weights 0,1,0,1,-4,1"), std::string::npos)
      << satdof::commandLineOf(custom);
}

TEST(SettingsFile, ParsesKeyValueLines) {
  const auto p = satdof::parseSettings("# comment\n\n focal = 14 \nview=depth\r\nui.panel-width=300\n");
  EXPECT_TRUE(p.problems.empty());
  ASSERT_EQ(p.entries.size(), 3u);
  EXPECT_EQ(p.entries[0].line, 3);
  EXPECT_EQ(p.entries[0].key, "focal");
  EXPECT_EQ(p.entries[0].value, "14");
  EXPECT_EQ(p.entries[1].key, "view");
  EXPECT_EQ(p.entries[1].value, "depth");
  // What is written reads back.
  satdof::SettingsEntries entries;
  for (const auto& e : p.entries) entries.emplace_back(e.key, e.value);
  const auto again = satdof::parseSettings(satdof::formatSettings(entries));
  ASSERT_EQ(again.entries.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) EXPECT_EQ(again.entries[i].value, p.entries[i].value);
}

// Each line that cannot be read is said by its number and costs itself alone.
TEST(SettingsFile, ErrorsNameTheLine) {
  const auto p = satdof::parseSettings("focal=1\nnonsense\n=5\nview=\x01\nfocal=2\nmsaa=4\n");
  std::vector<std::pair<int, std::string>> problems;
  for (const auto& q : p.problems) problems.emplace_back(q.line, q.what);
  EXPECT_EQ(problems, (std::vector<std::pair<int, std::string>>{
                          {2, "expected key=value, got 'nonsense'; ignored"},
                          {3, "a value without a key: '=5'; ignored"},
                          {4, "a control character in 'view=\\x01'; ignored"},
                          {5, "'focal' is given twice (first on line 1); the last one is used"}}));
  ASSERT_EQ(p.entries.size(), 2u);
  EXPECT_EQ(p.entries[0].key, "focal");
  EXPECT_EQ(p.entries[0].value, "2");
  EXPECT_EQ(p.entries[0].line, 5);
  EXPECT_EQ(p.entries[1].key, "msaa");
}

// A save changes the lines of changed values in place, adds new keys at the end, and
// leaves every other byte (the mark, comments, line ends, a last line without '\n').
TEST(SettingsFile, UpdateWritesChangedValuesInPlace) {
  EXPECT_EQ(satdof::updateSettings("\xEF\xBB\xBF# mine\r\nfocal = 3 # not a comment\r\nx=1\r\nfocal =  4\r\nnonsense",
                                   {{"focal", "9"}, {"x", "1"}, {"msaa", "8"}}),
            "\xEF\xBB\xBF# mine\r\nfocal = 3 # not a comment\r\nx=1\r\nfocal =  9\r\nnonsense\r\nmsaa=8\r\n");
  EXPECT_EQ(satdof::updateSettings("a=\n", {{"a", "1"}}), "a=1\n");
  EXPECT_EQ(satdof::updateSettings("", {{"a", "1"}}), satdof::formatSettings({{"a", "1"}}));
}

TEST(SettingsFile, CommandLineWinsAndARefusedValueIsDroppedAlone) {
  const fs::path dir = fs::temp_directory_path() / ("satdof_settings_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path file = dir / "settings.ini";
  std::ofstream(file) << "focal=14\nmax-blur=20\nui.panel-width=280\n";
  Options o;
  o.given.insert("max-blur");
  o.dof.params.maxRadius = 5;
  const auto ui = satdof::loadSettings(file, o);
  EXPECT_EQ(*focusOf(o), 14.0f);
  EXPECT_EQ(o.dof.params.maxRadius, 5.0f);  // given on the command line
  EXPECT_EQ(ui.at("panel-width"), "280");

  std::ofstream(file) << "focal=14\nview=sideways\nmax-blur=20\n";
  Options defaults;
  testing::internal::CaptureStderr();
  satdof::loadSettings(file, defaults);
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(*focusOf(defaults), 14.0f) << "the other entries stay";
  EXPECT_EQ(defaults.dof.params.maxRadius, 20.0f);
  EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
  EXPECT_NE(err.find("line 2: view=sideways: no view 'sideways'"), std::string::npos) << err;
  EXPECT_NE(err.find("; ignored"), std::string::npos) << err;
  fs::remove_all(dir);
}

// What a run on one backend saves cannot lock another out: a backend's options are kept
// under its name (and an older file's bare ones for whichever backend has them), and a
// value that makes no camera with the rest is dropped with one line.
TEST(SettingsFile, BackendOptionsArePerBackendAndMisfitsAreDropped) {
  const fs::path dir = fs::temp_directory_path() / ("satdof_settings_b_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path file = dir / "settings.ini";
  std::ofstream(file) << "cpu.sat=reference\nsat=reference\ncamera=thin-lens\nfocal=0.05\nmax-blur=14\n";
  Options o;
  testing::internal::CaptureStderr();
  satdof::loadSettings(file, o);
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_TRUE(o.selections.empty()) << "no backend option reaches the backend chooser";
  EXPECT_EQ(o.savedSelections.at("cpu").at("sat"), "reference");
  EXPECT_EQ(o.savedSelections.at("").at("sat"), "reference");
  EXPECT_EQ(o.dof.params.model, satdof::reference::CocModel::ThinLens);
  EXPECT_FALSE(focusOf(o)) << "0.05 m is closer than the 85 mm lens can focus";
  EXPECT_NE(err.find("focal=0.05: camera: the focus distance must be beyond the focal length"), std::string::npos)
      << err;
  EXPECT_EQ(o.dof.params.maxRadius, 14.0f);
  // Written back per backend, the running backend's under its name.
  o.savedSelections.erase("");
  const auto entries = satdof::settingsOf(o, {});
  EXPECT_NE(std::find(entries.begin(), entries.end(), std::pair<std::string, std::string>{"cpu.sat", "reference"}),
            entries.end());
  for (const auto& [key, value] : entries) EXPECT_NE(key, "sat") << "no bare backend key is written";
  fs::remove_all(dir);
}

// Configuration B (compare_config.h): compare-b merges key=name fields, `key=` gives a
// field back to A, compare NAME is its conv; it reads back as written; bad fields are
// said in words with the valid names.
TEST(CompareOption, FieldsMergeReadBackAndRefuseInWords) {
  Options o;
  ASSERT_FALSE(satdof::setLiveOption(o, "compare-b", "dof=layered,sat-format=float32"));
  ASSERT_FALSE(satdof::setLiveOption(o, "compare-b", "backend=cpu"));
  EXPECT_EQ(satdof::liveOptionValue(o, "compare-b"), "backend=cpu,dof=layered,sat-format=float32");
  ASSERT_FALSE(satdof::setLiveOption(o, "compare-b", "dof=,backend="));
  EXPECT_EQ(satdof::liveOptionValue(o, "compare-b"), "sat-format=float32");
  ASSERT_FALSE(satdof::setLiveOption(o, "compare", "cpu-direct"));
  EXPECT_EQ(o.compareB.at("conv"), "cpu-direct");
  const std::pair<const char*, const char*> bad[] = {
      {"dof", "'dof' is not key=name"}, {"colour=red", "no field 'colour' of a configuration; valid: backend, "},
      {"dof=nosuch", "dof: no depth-of-field implementation 'nosuch'; valid: fragment"},
      {"backend=auto", "backend: no backend 'auto'; valid: "}, {"sat-format=half", "sat-format: no SAT format 'half'"},
      {"dof=layered,dof=fragment", "'dof' is given twice in 'dof=layered,dof=fragment'"}};
  for (const auto& [value, message] : bad) {
    SCOPED_TRACE(value);
    Options before = o;
    const auto why = satdof::setLiveOption(o, "compare-b", value);
    ASSERT_TRUE(why);
    EXPECT_EQ(why->rfind(message, 0), 0u) << *why;
    EXPECT_EQ(o.compareB, before.compareB) << "a refused value changes nothing";
  }
}

// Each option is declared once: a fresh Options holds every declared default, --help's
// line carries the range and the default, and each option says where it applies.
TEST(LiveOptions, DeclarationsGiveDefaultsRangesAndWhereTheyApply) {
  const Options fresh;
  for (const satdof::LiveOption* option : satdof::liveOptions()) {
    SCOPED_TRACE(std::string(option->name));
    if (!option->defaultValue.empty()) {
      EXPECT_EQ(option->get(fresh), option->defaultValue) << "the declared default is the fresh value";
      EXPECT_NE(satdof::describe(*option).find("[" + std::string(option->defaultValue) + "]"), std::string::npos)
          << satdof::describe(*option);
    }
    if (option->lo != option->hi) {
      auto text = [](float v) {
        char t[32];
        std::snprintf(t, sizeof t, "%g", double(v));
        return std::string(t);
      };
      Options o;
      EXPECT_FALSE(option->set(*option, o, text(option->hi)));
      const auto why = option->set(*option, o, text(option->hi + 1.0f));
      ASSERT_TRUE(why) << "above the declared range";
      EXPECT_NE(why->find("out of range"), std::string::npos) << *why;
    }
  }
  Options linear;
  EXPECT_TRUE(satdof::whyNotApplies(satdof::opt::fNumber, linear));
  EXPECT_FALSE(satdof::whyNotApplies(satdof::opt::focalRange, linear));
  linear.dof.params.model = satdof::reference::CocModel::ThinLens;
  EXPECT_FALSE(satdof::whyNotApplies(satdof::opt::fNumber, linear));
  EXPECT_EQ(*satdof::whyNotApplies(satdof::opt::focalRange, linear), "applies only to --camera linear");
}

// The DoF's aperture, one declaration for the command line, the script's `set`, the
// settings file and the panel: box (the default) or disc, read into the DoF parameters;
// anything else refused in one line (square: the lens truth's word, pointed there).
TEST(LiveOptions, ApertureIsBoxOrDiscEverywhere) {
  Options o;
  EXPECT_EQ(o.dof.params.aperture, satdof::reference::Aperture::Box);
  EXPECT_EQ(satdof::dofParamsOf(o, 8.0f).aperture, satdof::reference::Aperture::Box);
  ASSERT_FALSE(satdof::setLiveOption(o, "aperture", "disc"));
  EXPECT_EQ(satdof::dofParamsOf(o, 8.0f).aperture, satdof::reference::Aperture::Disc);
  EXPECT_EQ(satdof::liveOptionValue(o, "aperture"), "disc");
  EXPECT_EQ(satdof::setLiveOption(o, "aperture", "round"), "no aperture 'round'; valid: box, disc");
  EXPECT_EQ(satdof::setLiveOption(o, "aperture", "square"),
            "no aperture 'square'; valid: box, disc (quality's lens truth: --lens-aperture square)");
  EXPECT_EQ(o.dof.params.aperture, satdof::reference::Aperture::Disc) << "a refused value changes nothing";

  const fs::path dir = fs::temp_directory_path() / ("satdof_settings_aperture_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path file = dir / "settings.ini";
  std::ofstream(file) << "aperture=disc\n";
  Options fromFile;
  satdof::loadSettings(file, fromFile);
  EXPECT_EQ(fromFile.dof.params.aperture, satdof::reference::Aperture::Disc);
  EXPECT_TRUE(fromFile.fromSettings.count("aperture"));
  std::ofstream(file) << "aperture=round\nfocal=9\n";
  Options dropped;
  testing::internal::CaptureStderr();
  satdof::loadSettings(file, dropped);
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(dropped.dof.params.aperture, satdof::reference::Aperture::Box);
  EXPECT_EQ(*focusOf(dropped), 9.0f) << "the other entries stay";
  EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
  EXPECT_NE(err.find("aperture=round: no aperture 'round'"), std::string::npos) << err;
  // What is saved reads back.
  const auto saved = satdof::liveOptionValue(fromFile, "aperture");
  ASSERT_TRUE(saved);
  Options again;
  ASSERT_FALSE(satdof::setLiveOption(again, "aperture", *saved));
  EXPECT_EQ(again.dof.params.aperture, satdof::reference::Aperture::Disc);
  fs::remove_all(dir);
}

// ---------------------------------------------------------------------------------------
// The settings file as the user keeps it: nothing in it is lost to one bad line, and a save
// writes back every line it does not change as it was.

namespace {

// A folder of the test's own, removed after.
struct TempDir {
  fs::path path;
  explicit TempDir(const std::string& name)
      : path(fs::temp_directory_path() / ("satdof_" + name + "_" + std::to_string(::getpid()))) {
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

std::string readAll(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void writeAll(const fs::path& p, const std::string& text) { std::ofstream(p, std::ios::binary) << text; }

long lineCount(const std::string& s) { return std::count(s.begin(), s.end(), '\n'); }

// loadSettings(file, o); what it said on stderr.
std::string loadSaying(const fs::path& file, Options& o, std::map<std::string, std::string>* ui = nullptr) {
  testing::internal::CaptureStderr();
  auto loaded = satdof::loadSettings(file, o);
  if (ui) *ui = std::move(loaded);
  return testing::internal::GetCapturedStderr();
}

// Runs `f` on a thread; false when it did not return within `seconds` (then `unblock` is
// called until it does, so that a test of code that blocks fails instead of hanging).
bool returnsWithin(double seconds, const std::function<void()>& f, const std::function<void()>& unblock) {
  auto done = std::async(std::launch::async, f);
  if (done.wait_for(std::chrono::duration<double>(seconds)) == std::future_status::ready) return true;
  while (done.wait_for(std::chrono::milliseconds(50)) != std::future_status::ready) unblock();
  return false;
}

}  // namespace

TEST(SettingsFile, ABadLineIsIgnoredAloneAndNamedByItsNumber) {
  TempDir dir("settings_bad_line");
  const fs::path file = dir.path / "settings.ini";
  writeAll(file, "focal=14\nnonsense\nmax-blur=\x01\n=5\nmsaa=8\n");
  Options o;
  const std::string err = loadSaying(file, o);
  EXPECT_EQ(focusOf(o).value_or(0), 14.0f) << "the lines before the bad ones stay";
  EXPECT_EQ(o.msaa, 8) << "and the lines after them";
  EXPECT_EQ(o.dof.params.maxRadius, Options{}.dof.params.maxRadius);
  EXPECT_EQ(lineCount(err), 3) << err;
  const std::string at = "satdof: settings file '" + file.string() + "' line ";
  EXPECT_NE(err.find(at + "2: expected key=value, got 'nonsense'; ignored\n"), std::string::npos) << err;
  EXPECT_NE(err.find(at + "3: a control character in 'max-blur=\\x01'; ignored\n"), std::string::npos) << err;
  EXPECT_NE(err.find(at + "4: a value without a key: '=5'; ignored\n"), std::string::npos) << err;
}

TEST(SettingsFile, AKeyGivenAgainTakesTheLastValueSaidOnce) {
  TempDir dir("settings_twice");
  const fs::path file = dir.path / "settings.ini";
  writeAll(file, "focal=3\nmax-blur=20\nfocal=9\nfocal=14\n");
  Options o;
  const std::string err = loadSaying(file, o);
  EXPECT_EQ(focusOf(o).value_or(0), 14.0f);
  EXPECT_EQ(o.dof.params.maxRadius, 20.0f);
  EXPECT_EQ(lineCount(err), 1) << err;
  EXPECT_NE(err.find("line 4: 'focal' is given 3 times (first on line 1); the last one is used"), std::string::npos)
      << err;
}

TEST(SettingsFile, AByteOrderMarkIsSkipped) {
  TempDir dir("settings_bom");
  const fs::path file = dir.path / "settings.ini";
  writeAll(file, "\xEF\xBB\xBF" "focal=14\nmax-blur=20\n");
  Options o;
  EXPECT_EQ(loadSaying(file, o), "");
  ASSERT_TRUE(focusOf(o));
  EXPECT_EQ(*focusOf(o), 14.0f) << "the first line is read";
  o.dof.params.maxRadius = 9;
  ASSERT_FALSE(satdof::writeSettings(file, satdof::settingsOf(o, {})));
  const std::string saved = readAll(file);
  EXPECT_EQ(saved.rfind("\xEF\xBB\xBF" "focal=14\nmax-blur=9\n", 0), 0u) << saved;
}

// What the app does not understand (comments, unknown keys, lines it cannot read, values
// it refused) is written back as it was; a changed value replaces its own line's value.
TEST(SettingsFile, ASaveKeepsEveryLineItDoesNotChangeByteForByte) {
  TempDir dir("settings_round_trip");
  const fs::path file = dir.path / "settings.ini";
  const std::string original =
      "# my own notes\ncolour=red\n   # an indented comment\n\nnonsense\nfocal = 14\nview=sideways\n"
      "future.option=1\nmax-blur=20";  // no newline at the end
  writeAll(file, original);
  Options o;
  loadSaying(file, o);
  ASSERT_FALSE(satdof::writeSettings(file, satdof::settingsOf(o, {{"panel-width", "300"}})));
  const std::string saved = readAll(file);
  ASSERT_EQ(saved.substr(0, original.size() + 1), original + "\n") << saved;
  const std::string added = "\n" + saved.substr(original.size() + 1);  // the lines added
  EXPECT_EQ(added.find("\nfocal="), std::string::npos) << "unchanged, not written again: " << added;
  EXPECT_EQ(added.find("\nview="), std::string::npos) << "the refused value stays, the option unchanged: " << added;
  EXPECT_EQ(added.find("\nmax-blur="), std::string::npos) << added;
  EXPECT_NE(added.find("ui.panel-width=300\n"), std::string::npos) << added;

  // A changed value in its own line, in place; the rest as it was. Twice: the same bytes.
  Options again;
  loadSaying(file, again);
  again.dof.params.maxRadius = 7;
  again.dof.params.focalDistance = 20.0f;
  again.focusFromScene = false;
  for (int i = 0; i < 2; ++i) {
    ASSERT_FALSE(satdof::writeSettings(file, satdof::settingsOf(again, {{"panel-width", "300"}})));
    std::string expected = saved;
    expected.replace(expected.find("focal = 14"), 10, "focal = 20");
    expected.replace(expected.find("max-blur=20"), 11, "max-blur=7");
    EXPECT_EQ(readAll(file), expected);
  }
}

TEST(SettingsFile, ManyKeysAreReadInLinearTime) {
  TempDir dir("settings_many");
  const fs::path file = dir.path / "settings.ini";
  std::string text;
  const char* digits = "0123456789abcdefghijklmnopqrstuvwxyz";
  for (int i = 0; i < 100000; ++i) {  // ui.<i in base 36>=1: a key the store takes in silence
    std::string key;
    for (int n = i; key.empty() || n > 0; n /= 36) key.insert(key.begin(), digits[n % 36]);
    text += "ui." + key + "=1\n";
  }
  writeAll(file, text);
  ASSERT_LT(text.size(), std::size_t(1) << 20);
  Options o;
  std::map<std::string, std::string> ui;
  const auto start = std::chrono::steady_clock::now();
  const std::string err = loadSaying(file, o, &ui);
  const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
  EXPECT_EQ(err, "");
  EXPECT_EQ(ui.size(), 100000u);
  EXPECT_LT(took.count(), 2.0) << "100,000 keys";
  // The parser alone, each key given twice: every second line said once.
  const auto parseStart = std::chrono::steady_clock::now();
  const auto parsed = satdof::parseSettings(text + text);
  const std::chrono::duration<double> parseTook = std::chrono::steady_clock::now() - parseStart;
  EXPECT_EQ(parsed.entries.size(), 100000u);
  EXPECT_EQ(parsed.problems.size(), 100000u);
  EXPECT_LT(parseTook.count(), 2.0) << "200,000 lines";
}

// A FIFO, a folder or a file too large where the settings file should be: one line at the
// start, at once (a FIFO is never waited on), and the thing is left as it is at the end.
TEST(SettingsFile, WhatIsNoRegularFileIsRefusedAtOnceAndLeftAsItIs) {
  TempDir dir("settings_fifo");
  const fs::path file = dir.path / "settings.ini";
  ASSERT_EQ(::mkfifo(file.c_str(), 0600), 0);
  std::signal(SIGPIPE, SIG_IGN);  // a save that opens the FIFO fails the test, not the process
  Options o;
  std::string err;
  auto openOther = [&](int flags) {  // gives a blocked open of the FIFO its other end
    const int fd = ::open(file.c_str(), flags | O_NONBLOCK);
    if (fd >= 0) ::close(fd);
  };
  EXPECT_TRUE(returnsWithin(2.0, [&] { err = loadSaying(file, o); }, [&] { openOther(O_WRONLY); }))
      << "the start waited on the FIFO";
  EXPECT_EQ(lineCount(err), 1) << err;
  EXPECT_NE(err.find("satdof: settings file '" + file.string() + "' is not a regular file"), std::string::npos) << err;
  std::optional<std::string> why;
  EXPECT_TRUE(returnsWithin(2.0, [&] { why = satdof::writeSettings(file, satdof::settingsOf(o, {})); },
                            [&] { openOther(O_RDONLY); }))
      << "the save waited on the FIFO";
  EXPECT_TRUE(fs::is_fifo(file)) << "replaced";

  // More than a settings file may hold (1 MiB): the same.
  fs::remove(file);
  const std::string large = "# " + std::string(2 << 20, 'x') + "\nfocal=14\n";
  writeAll(file, large);
  Options big;
  err = loadSaying(file, big);
  EXPECT_EQ(lineCount(err), 1) << err;
  EXPECT_NE(err.find("larger than"), std::string::npos) << err;
  EXPECT_FALSE(focusOf(big));
  EXPECT_FALSE(satdof::writeSettings(file, satdof::settingsOf(big, {})));
  EXPECT_TRUE(readAll(file) == large) << "overwritten";
}

// The file is replaced whole (a new file renamed over it), no temporary file stays, and a
// settings file that is a link to another file stays a link: its target is written.
TEST(SettingsFile, ASaveReplacesTheFileWhole) {
  TempDir dir("settings_atomic");
  const fs::path file = dir.path / "settings.ini";
  writeAll(file, "focal=14\n");
  fs::create_hard_link(file, dir.path / "before.ini");
  Options o;
  loadSaying(file, o);
  o.dof.params.maxRadius = 9;
  ASSERT_FALSE(satdof::writeSettings(file, satdof::settingsOf(o, {})));
  EXPECT_EQ(readAll(dir.path / "before.ini"), "focal=14\n") << "written in place, not replaced";
  EXPECT_NE(readAll(file).find("max-blur=9\n"), std::string::npos);
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir.path)) names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"before.ini", "settings.ini"})) << "a temporary file stayed";

  const fs::path link = dir.path / "link.ini";
  fs::create_symlink(file, link);
  o.dof.params.maxRadius = 11;
  ASSERT_FALSE(satdof::writeSettings(link, satdof::settingsOf(o, {})));
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_NE(readAll(file).find("max-blur=11\n"), std::string::npos);
}
