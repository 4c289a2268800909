// tests/app_run_support.h — running the satdof executable from a test and reading what it
// wrote: the binary and output folders (compile-time paths, overridable through
// SATDOF_BINARY and SATDOF_TEST_OUT), run() with stdout and stderr captured, PNG loading
// and a not-blank check, and the window tests' skip where xvfb-run is missing (a failure
// under SATDOF_REQUIRE_GL=1). Shared by test_app.cpp, test_app_window.cpp and
// test_app_input.cpp (each includes it once, so the helpers sit in an anonymous namespace).
#pragma once

#include <gtest/gtest.h>

#include <stb/stb_image.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

#include "skip_support.h"

namespace fs = std::filesystem;

namespace {


// Where the binary and the outputs are: compile-time paths, overridable through the
// environment (SATDOF_BINARY, SATDOF_TEST_OUT) when the build folder was moved.
inline std::string envOr(const char* name, const char* fallback) {
  const char* v = std::getenv(name);
  return v && *v ? v : fallback;
}
// (A test of another executable names its own variable: SATDOF_BINARY_VARIABLE.)
#ifndef SATDOF_BINARY_VARIABLE
#define SATDOF_BINARY_VARIABLE "SATDOF_BINARY"
#endif
const std::string kBinary = envOr(SATDOF_BINARY_VARIABLE, SATDOF_BINARY);
const std::string kTestOut = envOr("SATDOF_TEST_OUT", SATDOF_TEST_OUT);

inline bool haveXvfb() { return std::system("command -v xvfb-run >/dev/null 2>&1") == 0; }

struct RunResult {
  int exitCode = -1;
  std::string out, err;
};

inline std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline RunResult run(const std::string& args, const std::string& prefix = "") {
  const fs::path dir = fs::temp_directory_path() / ("satdof_test_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  // Mesa makes only the last folder of $XDG_CACHE_HOME/mesa_shader_cache and says so on
  // stderr when the cache folder is missing (a fresh build folder): make it first.
  if (const char* cache = std::getenv("XDG_CACHE_HOME"); cache && *cache) {
    std::error_code made;
    fs::create_directories(cache, made);
  }
  // A settings folder of the run's own (a prefix may name another, which then wins): a
  // window run never reads or writes the user's settings. Removed with the output after.
  const std::string cmd = "XDG_CONFIG_HOME=" + (dir / "config").string() + " " + prefix + kBinary + " " + args +
                          " >" + (dir / "out").string() + " 2>" + (dir / "err").string();
  const int status = std::system(cmd.c_str());
  RunResult r;
  r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = slurp(dir / "out");
  r.err = slurp(dir / "err");
  std::error_code ec;
  fs::remove_all(dir, ec);
  return r;
}

// xvfb-run may exit with a status of its own (5, "problem while cleaning up temporary
// directory") after the command has exited: the prefix that runs a command under it with
// a shell writing the command's own status to `status`, and that status read back (-1:
// none written).
inline std::string xvfbKeepingStatus(const fs::path& status, const std::string& screen = "1024x768x24") {
  return "xvfb-run -a -s '-screen 0 " + screen + "' sh -c '\"$0\" \"$@\"; echo $? >" + status.string() + "' ";
}
inline int statusWritten(const fs::path& status) {
  const std::string code = slurp(status);
  return code.empty() ? -1 : std::stoi(code);
}

// run() under xvfb-run, with satdof's own exit status (-1 where satdof never ran: then
// xvfb-run's own status cannot pass for satdof's). `env`: variables set before it
// ("NAME=value ", each with its space), e.g. a settings folder of the test's own.
inline RunResult runUnderXvfb(const std::string& args, const std::string& screen = "1024x768x24",
                              const std::string& env = "") {
  const fs::path status = fs::temp_directory_path() / ("satdof_test_status_" + std::to_string(::getpid()));
  std::error_code ec;
  fs::remove(status, ec);
  RunResult r = run(args, env + xvfbKeepingStatus(status, screen));
  const int code = statusWritten(status);
  if (code < 0) r.err += "(xvfb-run exited " + std::to_string(r.exitCode) + " without satdof's status)\n";
  r.exitCode = code;
  fs::remove(status, ec);
  return r;
}

struct Png {
  int width = 0, height = 0;
  std::vector<unsigned char> rgba;
};

inline Png loadPng(const fs::path& p) {
  Png png;
  int channels = 0;
  unsigned char* data = stbi_load(p.c_str(), &png.width, &png.height, &channels, 4);
  if (!data) return png;
  png.rgba.assign(data, data + std::size_t(png.width) * png.height * 4);
  stbi_image_free(data);
  return png;
}

// Not blank: the luminance varies (several distinct values, a real spread).
inline void expectNotBlank(const Png& png) {
  ASSERT_GT(png.width, 0);
  double sum = 0, sum2 = 0;
  const std::size_t n = png.rgba.size() / 4;
  for (std::size_t i = 0; i < n; ++i) {
    const double y = 0.3 * png.rgba[i * 4] + 0.59 * png.rgba[i * 4 + 1] + 0.11 * png.rgba[i * 4 + 2];
    sum += y;
    sum2 += y * y;
  }
  const double mean = sum / double(n);
  EXPECT_GT(std::sqrt(sum2 / double(n) - mean * mean), 10.0) << "image looks blank";
}

inline fs::path freshDir(const std::string& name) {
  const fs::path d = fs::path(kTestOut) / name;
  fs::remove_all(d);
  return d;
}

}  // namespace

// The window tests run under xvfb-run: without it they skip (or fail, SATDOF_REQUIRE_GL=1).
#define SATDOF_SKIP_WITHOUT_XVFB() \
  do {                             \
    if (!haveXvfb()) SATDOF_SKIP_WITHOUT_GL("xvfb-run not installed (scripts/deps --test installs it)"); \
  } while (0)
