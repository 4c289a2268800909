// tests/test_settings.cpp — the live options (app/options/live_options.h) and the settings file
// (app/settings_store.h): each option's value reads back as it was written, messages say
// what is wrong in words, the declarations (one per option: defaults, ranges, where each
// applies), the file's format and its errors, the command line winning over the file, a
// refused or misfitting value dropped alone, backend options kept per backend.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "backends/compute_backend.h"
#include "pipeline/pipeline_config.h"  // CompareFields, read by compare-b
#include "options/live_options.h"
#include "options/settings_store.h"

namespace fs = std::filesystem;
using satdof::Options;

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
  EXPECT_EQ(*o.focalDistance, 14.5f);
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

TEST(SettingsFile, ParsesKeyValueLines) {
  std::string error;
  const auto e = satdof::parseSettings("# comment\n\n focal = 14 \nview=depth\r\nui.panel-width=300\n", error);
  ASSERT_TRUE(e) << error;
  ASSERT_EQ(e->size(), 3u);
  EXPECT_EQ((*e)[0], (std::pair<std::string, std::string>{"focal", "14"}));
  EXPECT_EQ((*e)[1], (std::pair<std::string, std::string>{"view", "depth"}));
  // What is written reads back.
  const auto again = satdof::parseSettings(satdof::formatSettings(*e), error);
  ASSERT_TRUE(again) << error;
  EXPECT_EQ(*again, *e);
}

TEST(SettingsFile, ErrorsNameTheLine) {
  const std::pair<const char*, const char*> cases[] = {
      {"focal=1\nnonsense\n", "line 2: expected key=value, got 'nonsense'"},
      {"=5\n", "line 1: a value without a key: '=5'"},
      {"focal=1\nfocal=2\n", "line 2: 'focal' is given twice"},
      {"focal=\x01\n", "line 1: a control character in 'focal=\\x01'"},
  };
  for (const auto& [text, expected] : cases) {
    std::string error;
    EXPECT_FALSE(satdof::parseSettings(text, error)) << text;
    EXPECT_EQ(error, expected);
  }
}

TEST(SettingsFile, CommandLineWinsAndARefusedValueIsDroppedAlone) {
  const fs::path dir = fs::temp_directory_path() / ("satdof_settings_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path file = dir / "settings.ini";
  std::ofstream(file) << "focal=14\nmax-blur=20\nui.panel-width=280\n";
  Options o;
  o.given.insert("max-blur");
  o.maxBlur = 5;
  const auto ui = satdof::loadSettings(file, o);
  EXPECT_EQ(*o.focalDistance, 14.0f);
  EXPECT_EQ(o.maxBlur, 5.0f);  // given on the command line
  EXPECT_EQ(ui.at("panel-width"), "280");

  std::ofstream(file) << "focal=14\nview=sideways\nmax-blur=20\n";
  Options defaults;
  testing::internal::CaptureStderr();
  satdof::loadSettings(file, defaults);
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(*defaults.focalDistance, 14.0f) << "the other entries stay";
  EXPECT_EQ(defaults.maxBlur, 20.0f);
  EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
  EXPECT_NE(err.find("view=sideways: no view 'sideways'"), std::string::npos) << err;
  EXPECT_NE(err.find("dropped"), std::string::npos) << err;

  // A file that does not parse: one line, every default.
  std::ofstream(file) << "focal=14\nnonsense\n";
  Options fresh;
  testing::internal::CaptureStderr();
  EXPECT_TRUE(satdof::loadSettings(file, fresh).empty());
  EXPECT_NE(testing::internal::GetCapturedStderr().find("line 2"), std::string::npos);
  EXPECT_FALSE(fresh.focalDistance);
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
  EXPECT_EQ(o.camera, "thin-lens");
  EXPECT_FALSE(o.focalDistance) << "0.05 m is closer than the 85 mm lens can focus";
  EXPECT_NE(err.find("focal=0.05: camera: the focus distance must be beyond the focal length"), std::string::npos)
      << err;
  EXPECT_EQ(o.maxBlur, 14.0f);
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
  linear.camera = "thin-lens";
  EXPECT_FALSE(satdof::whyNotApplies(satdof::opt::fNumber, linear));
  EXPECT_EQ(*satdof::whyNotApplies(satdof::opt::focalRange, linear), "applies only to --camera linear");
}

// The DoF's aperture, one declaration for the command line, the script's `set`, the
// settings file and the panel: box (the default) or disc, read into the DoF parameters;
// anything else refused in one line (square: the lens truth's word, pointed there).
TEST(LiveOptions, ApertureIsBoxOrDiscEverywhere) {
  Options o;
  EXPECT_EQ(o.aperture, satdof::reference::Aperture::Box);
  EXPECT_EQ(satdof::dofParamsOf(o, 8.0f).aperture, satdof::reference::Aperture::Box);
  ASSERT_FALSE(satdof::setLiveOption(o, "aperture", "disc"));
  EXPECT_EQ(satdof::dofParamsOf(o, 8.0f).aperture, satdof::reference::Aperture::Disc);
  EXPECT_EQ(satdof::liveOptionValue(o, "aperture"), "disc");
  EXPECT_EQ(satdof::setLiveOption(o, "aperture", "round"), "no aperture 'round'; valid: box, disc");
  EXPECT_EQ(satdof::setLiveOption(o, "aperture", "square"),
            "no aperture 'square'; valid: box, disc (quality's lens truth: --lens-aperture square)");
  EXPECT_EQ(o.aperture, satdof::reference::Aperture::Disc) << "a refused value changes nothing";

  const fs::path dir = fs::temp_directory_path() / ("satdof_settings_aperture_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path file = dir / "settings.ini";
  std::ofstream(file) << "aperture=disc\n";
  Options fromFile;
  satdof::loadSettings(file, fromFile);
  EXPECT_EQ(fromFile.aperture, satdof::reference::Aperture::Disc);
  EXPECT_TRUE(fromFile.fromSettings.count("aperture"));
  std::ofstream(file) << "aperture=round\nfocal=9\n";
  Options dropped;
  testing::internal::CaptureStderr();
  satdof::loadSettings(file, dropped);
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(dropped.aperture, satdof::reference::Aperture::Box);
  EXPECT_EQ(*dropped.focalDistance, 9.0f) << "the other entries stay";
  EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
  EXPECT_NE(err.find("aperture=round: no aperture 'round'"), std::string::npos) << err;
  // What is saved reads back.
  const auto saved = satdof::liveOptionValue(fromFile, "aperture");
  ASSERT_TRUE(saved);
  Options again;
  ASSERT_FALSE(satdof::setLiveOption(again, "aperture", *saved));
  EXPECT_EQ(again.aperture, satdof::reference::Aperture::Disc);
  fs::remove_all(dir);
}
