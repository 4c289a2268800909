// tests/skip_support.h — a test that cannot run here: skipped visibly with its reason, or
// failed where the run requires what it needs, so that a green run cannot be one where
// most tests skipped:
//   SATDOF_REQUIRE_GPU=1 (scripts/gpu-check): the CUDA tests' "no device" skips fail;
//   SATDOF_REQUIRE_GL=1 (.ci/run): the GL tests' "no GL context" and the window tests'
//   "no xvfb-run" skips fail.
// Each kind of skip has this one place; the tests call the macros below.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <string_view>

namespace satdof::test {

inline bool required(const char* variable) {
  const char* v = std::getenv(variable);
  return v && std::string_view(v) == "1";
}

}  // namespace satdof::test

// In a test body or SetUp(): returns from it, skipped or failed.
#define SATDOF_CANNOT_RUN_(variable, why)                                                      \
  do {                                                                                         \
    const std::string satdof_why_ = (why);                                                     \
    if (::satdof::test::required(variable)) FAIL() << satdof_why_ << " (" variable "=1 requires it)"; \
    GTEST_SKIP() << satdof_why_;                                                               \
  } while (0)
#define SATDOF_SKIP_WITHOUT_GPU(why) SATDOF_CANNOT_RUN_("SATDOF_REQUIRE_GPU", why)
#define SATDOF_SKIP_WITHOUT_GL(why) SATDOF_CANNOT_RUN_("SATDOF_REQUIRE_GL", why)
