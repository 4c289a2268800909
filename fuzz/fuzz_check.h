// fuzz/fuzz_check.h — FUZZ_CHECK(cond): a property the fuzzers assert about a parser's
// result; a failure prints the condition and aborts, which libFuzzer reports as a crash
// (and saves the input under the artifact prefix).
#pragma once

#include <cstdio>
#include <cstdlib>

#define FUZZ_CHECK(cond)                                                               \
  do {                                                                                 \
    if (!(cond)) {                                                                     \
      std::fprintf(stderr, "%s:%d: FUZZ_CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
      std::abort();                                                                    \
    }                                                                                  \
  } while (0)
