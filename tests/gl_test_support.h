// tests/gl_test_support.h — a fixture for tests that need a GL context: one headless EGL
// context per suite (Mesa's llvmpipe in CI), each test skipped visibly where there is none
// (a failure under SATDOF_REQUIRE_GL=1: skip_support.h).
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "engine/context/context.h"
#include "skip_support.h"

namespace satdof::test {

class GlTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    try {
      context_ = satdof::createHeadlessContext();
    } catch (const std::exception& e) {
      reason_ = e.what();
    }
  }
  static void TearDownTestSuite() { context_.reset(); }
  void SetUp() override {
    if (!context_) SATDOF_SKIP_WITHOUT_GL("no headless GL context: " + reason_);
  }
  static inline std::unique_ptr<satdof::Context> context_;
  static inline std::string reason_;

 public:
  static const satdof::Context* context() { return context_.get(); }
};

}  // namespace satdof::test
