// tests/add_one_more/test_add_one_more.cpp — one more DoF implementation and one more live
// option, each added by a file of this folder alone (dof_test_rows.cpp,
// option_test_focal_cm.cpp: a static initialiser calls the registry's register function),
// linked into satdof-add-one-more (app/main.cpp and these files) and into this test. Each
// is found where a user meets it: the lists the panel draws (dofImplementations(),
// liveOptions()), the command line and --help, a script's `set`, and a verify run.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "app_run_support.h"
#include "engine/dof/dof_implementation.h"
#include "settings/live_options.h"

namespace {

// --help's line for `flag`: from "  --flag" to the next option's line.
std::string helpOf(const std::string& help, const std::string& flag) {
  const std::size_t at = help.find("  --" + flag + " ");
  if (at == std::string::npos) return {};
  const std::size_t next = help.find("\n  -", at + 1);
  return help.substr(at, next == std::string::npos ? std::string::npos : next - at);
}

TEST(AddOneMore, TheDofAndTheOptionAreInThePanelsLists) {
  const auto dofs = satdof::dofImplementations();  // the DoF panel's combo (app/ui/dof_panel.cpp)
  EXPECT_TRUE(std::any_of(dofs.begin(), dofs.end(), [](const satdof::DofEntry& e) { return e.name == "test-rows"; }));
  EXPECT_EQ(satdof::findDofImplementation("test-rows"), &dofs.back()) << "appended after the listed ones";
  const satdof::LiveOption* o = satdof::findLiveOption("test-focal-cm");
  ASSERT_NE(o, nullptr);
  EXPECT_EQ(satdof::liveOptions().back(), o) << "after the table's, in --help's order";
  // A script's `set` and the settings file's reader go through setLiveOption.
  satdof::Options options;
  EXPECT_EQ(satdof::setLiveOption(options, "test-focal-cm", "300"), std::nullopt);
  ASSERT_FALSE(options.focusFromScene);
  EXPECT_FLOAT_EQ(options.dof.params.focalDistance, 3.0f);
  EXPECT_EQ(satdof::setLiveOption(options, "dof", "test-rows"), std::nullopt);
  EXPECT_NE(satdof::setLiveOption(options, "test-focal-cm", "0"), std::nullopt) << "below its range";
  EXPECT_THROW(satdof::registerLiveOption(*o), std::invalid_argument) << "a name already declared";
}

TEST(AddOneMore, TheCommandLineKnowsThem) {
  const RunResult help = run("--help");
  ASSERT_EQ(help.exitCode, 0) << help.err;
  EXPECT_NE(helpOf(help.out, "dof").find("test-rows: the textbook DoF in rows of 64"), std::string::npos) << help.out;
  EXPECT_NE(helpOf(help.out, "test-focal-cm").find("hundredths of the scene's unit"), std::string::npos) << help.out;
  const RunResult low = run("--headless --test-focal-cm 0.5");
  EXPECT_EQ(low.exitCode, 2) << low.err;
  EXPECT_NE(low.err.find("--test-focal-cm"), std::string::npos) << low.err;
  const RunResult unknown = run("--headless --dof test-columns");
  EXPECT_EQ(unknown.exitCode, 2);
  EXPECT_NE(unknown.err.find("test-rows"), std::string::npos) << "the valid names, the new one among them: " << unknown.err;
}

// A verify run (--verify: the last frame against the CPU reference) with the new DoF on the
// cpu and gl-compute backends, and the option's frame the same bytes as --focal's.
TEST(AddOneMore, AVerifyRunFindsTheNewDofIdenticalToTheReference) {
  for (const char* backend : {"cpu", "gl-compute"}) {
    SCOPED_TRACE(backend);
    const RunResult r = run(std::string("--headless --frames 2 --save none --size 333x187 --verify --backend ") +
                            backend + " --dof test-rows --max-blur 9 --bokeh off");
    if (r.exitCode == 3) SATDOF_SKIP_WITHOUT_GL("no GL here: " + r.err);
    ASSERT_EQ(r.exitCode, 0) << r.err << r.out;
    EXPECT_NE(r.out.find("verify: DoF (test-rows): identical to the reference"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("verify: SAT (uint32): identical"), std::string::npos) << r.out;
  }
  const fs::path cm = freshDir("add_one_more_cm"), focal = freshDir("add_one_more_focal"),
                 near = freshDir("add_one_more_near");
  const std::string common = " --headless --frames 1 --size 240x135 --backend cpu --dof test-rows --bokeh off --out ";
  ASSERT_EQ(run("--test-focal-cm 250 --verify" + common + cm.string()).exitCode, 0);
  ASSERT_EQ(run("--focal 2.5" + common + focal.string()).exitCode, 0);
  ASSERT_EQ(run("--focal 6" + common + near.string()).exitCode, 0);
  const Png a = loadPng(cm / "frame_0000.png"), b = loadPng(focal / "frame_0000.png"), c = loadPng(near / "frame_0000.png");
  expectNotBlank(a);
  EXPECT_TRUE(a.rgba == b.rgba) << "--test-focal-cm 250 is --focal 2.5";
  EXPECT_FALSE(a.rgba == c.rgba) << "and the focal distance changes the frame";
}

// --verify itself: a frame one grey level off the reference in one byte fails the run (exit
// 1, the line that differs on stderr). The new DoF's own switch for it: its shader adds 1 to
// pixel (0, 0)'s red where SATDOF_TEST_ROWS_OFF_BY_ONE=1.
TEST(AddOneMore, VerifyFailsTheRunOnAOneByteDifference) {
  const RunResult r = run("--headless --frames 1 --save none --size 96x64 --backend cpu --dof test-rows --bokeh off --verify",
                          "SATDOF_TEST_ROWS_OFF_BY_ONE=1 ");
  if (r.exitCode == 3) SATDOF_SKIP_WITHOUT_GL("no GL here: " + r.err);
  EXPECT_EQ(r.exitCode, 1) << r.err << r.out;
  EXPECT_NE(r.err.find("satdof: verify: the frame differs from the CPU reference (DoF (test-rows): 1 of 24576 bytes "
                       "differ from the reference, by up to 1 grey levels)"),
            std::string::npos)
      << r.err;
}

}  // namespace
