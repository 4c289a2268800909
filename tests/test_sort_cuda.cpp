// tests/test_sort_cuda.cpp — every registered radix-sort variant against the CPU
// reference (satdof/reference/sort.h).
//
// Values are the input positions, so comparing values with the reference's (a stable
// sort) checks stability too. Key sets: full-range random (half have the top bit set),
// few distinct keys with high and low bits set (long runs of duplicates: stability),
// all keys equal, descending. Sizes 1, 2, 31, a radix-4 tile (3072) and its neighbours,
// two tiles + 1, a onesweep tile (4608) and its neighbours, two tiles + 1, an odd 1000003
// and a large 2^24 + 3. Bit ranges other than [0, 32),
// including empty and one-bit ranges and odd pass counts, in place and out of place;
// keys alone; the `usesScan` variants once with every registered scan variant. Outputs
// are poisoned first; nothing may be written past the scratch. SATDOF_TEST_MAX_N caps n
// (compute-sanitizer); without a device every test skips visibly.
#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "compact_sort_support.h"
#include "cuda_test_support.h"
#include "satdof/reference/sort.h"
#include "satdof/scan.h"
#include "satdof/sort.h"

namespace {

using satdof::DeviceBuffer;
using satdof::SortArgs;
using satdof::SortVariant;
using namespace satdof::test;

enum class Keys { Random, FewDistinct, AllEqual, Descending };

struct SortCase {
  std::size_t variant = 0;
  int scan = -1;  // index into scanVariants(), -1: the default
  std::string label;
  std::size_t n = 0;
  Keys keys = Keys::Random;
  int beginBit = 0;
  int endBit = 32;
  bool inPlace = false;
  bool keysOnly = false;
};

void PrintTo(const SortCase& c, std::ostream* os) { *os << c.label; }

std::vector<SortCase> allCases() {
  std::vector<SortCase> cases;
  const auto variants = satdof::sortVariants();
  for (std::size_t vi = 0; vi < variants.size(); ++vi) {
    const std::string v(variants[vi].name);
    // One case: n keys of a kind over bits [begin, end), in place or not, keys alone or not.
    const auto add = [&](const std::string& label, std::size_t n, Keys keys, int begin = 0,
                         int end = 32, bool inPlace = false, bool keysOnly = false) {
      SortCase c;
      c.variant = vi;
      c.label = v;
      c.label += '_';
      c.label += label;
      c.n = n;
      c.keys = keys;
      c.beginBit = begin;
      c.endBit = end;
      c.inPlace = inPlace;
      c.keysOnly = keysOnly;
      cases.push_back(c);
      return cases.size() - 1;
    };
    for (std::size_t n : {1u, 2u, 31u, 3071u, 3072u, 3073u, 6145u, 4607u, 4608u, 4609u, 9217u,
                          1000003u, (1u << 24) + 3u}) {
      const std::string at = std::string("n").append(std::to_string(n));
      add(at + "_random", n, Keys::Random);
      add(at + "_fewdistinct_inplace", n, Keys::FewDistinct, 0, 32, true);
      if (n <= 1000003) {
        add(at + "_equal_keysonly", n, Keys::AllEqual, 0, 32, false, true);
        add(at + "_descending", n, Keys::Descending);
      }
    }
    const std::pair<int, int> ranges[] = {{0, 12}, {5, 6}, {10, 10}, {4, 31}, {28, 32}, {0, 3}};
    for (const auto& [b, e] : ranges) {
      const std::string bits = "bits" + std::to_string(b) + "to" + std::to_string(e);
      add(bits, 100003, Keys::FewDistinct, b, e);
      add(bits + "_inplace", 100003, Keys::Random, b, e, true);
      add(bits + "_keysonly_inplace", 4097, Keys::FewDistinct, b, e, true, true);
    }
    if (variants[vi].usesScan) {
      const auto scans = satdof::scanVariants();
      for (std::size_t si = 0; si < scans.size(); ++si) {
        const std::size_t at = add("scan_" + std::string(scans[si].name), 300007, Keys::FewDistinct);
        cases[at].scan = static_cast<int>(si);
      }
    }
  }
  return cases;
}

std::string caseName(const ::testing::TestParamInfo<SortCase>& info) {
  return testName(info.param.label);
}

std::vector<std::uint32_t> makeKeys(Keys kind, std::size_t n, std::mt19937& rng) {
  std::vector<std::uint32_t> keys(n);
  for (std::size_t i = 0; i < n; ++i) {
    switch (kind) {
      case Keys::Random:
        keys[i] = static_cast<std::uint32_t>(rng());
        break;
      case Keys::FewDistinct:  // 8 keys, each with bits in every digit, top bit in half
        keys[i] = static_cast<std::uint32_t>(rng() % 8) * 0x24924925u;
        break;
      case Keys::AllEqual:
        keys[i] = 0x80000001u;
        break;
      case Keys::Descending:
        keys[i] = static_cast<std::uint32_t>(n - i) * 2654435761u;  // not sorted, some top bits
        if (i % 2 == 0) keys[i] = static_cast<std::uint32_t>(n - i);
        break;
    }
  }
  return keys;
}

class SortVariantTest : public ::testing::TestWithParam<SortCase> {
 protected:
  void SetUp() override { SATDOF_SKIP_WITHOUT_DEVICE(); }
};

TEST_P(SortVariantTest, MatchesReference) {
  const SortCase& c = GetParam();
  const SortVariant& variant = satdof::sortVariants()[c.variant];
  if (const std::size_t cap = maxElements(); cap > 0 && c.n > cap)
    GTEST_SKIP() << c.n << " elements exceed SATDOF_TEST_MAX_N=" << cap;

  std::mt19937 rng = freshRng();
  const std::vector<std::uint32_t> keys = makeKeys(c.keys, c.n, rng);
  std::vector<std::uint32_t> values(c.n);
  std::iota(values.begin(), values.end(), 0u);
  std::vector<std::uint32_t> wantKeys = keys, wantValues = values;
  satdof::reference::sortPairs(wantKeys, wantValues, c.beginBit, c.endBit);

  DeviceBuffer<std::uint32_t> keysIn = toDevice(keys), valuesIn = toDevice(values);
  DeviceBuffer<std::uint32_t> keysOut = poisoned(c.inPlace ? 0 : c.n);
  DeviceBuffer<std::uint32_t> valuesOut = poisoned(c.inPlace ? 0 : c.n);
  SortArgs args;
  args.keysIn = keysIn.data();
  args.keysOut = c.inPlace ? keysIn.data() : keysOut.data();
  if (!c.keysOnly) {
    args.valuesIn = valuesIn.data();
    args.valuesOut = c.inPlace ? valuesIn.data() : valuesOut.data();
  }
  args.n = c.n;
  args.beginBit = c.beginBit;
  args.endBit = c.endBit;
  if (c.scan >= 0) args.scan = &satdof::scanVariants()[static_cast<std::size_t>(c.scan)];

  GuardedScratch scratch(variant.scratchBytes(args));
  ASSERT_CUDA_OK(variant.launch(args, scratch.data(), scratch.bytes(), nullptr));
  ASSERT_CUDA_OK(cudaDeviceSynchronize());
  ASSERT_CUDA_OK(cudaGetLastError());
  EXPECT_TRUE(scratch.guardIntact()) << "wrote past the " << scratch.bytes() << " scratch bytes";

  const std::vector<std::uint32_t> gotKeys = toHost(args.keysOut, c.n);
  const long long badKey = firstMismatch(wantKeys, gotKeys);
  ASSERT_EQ(badKey, -1) << "keys differ at " << badKey << ": expected " << wantKeys[badKey]
                        << ", got " << gotKeys[badKey];
  if (!c.keysOnly) {
    const std::vector<std::uint32_t> gotValues = toHost(args.valuesOut, c.n);
    const long long bad = firstMismatch(wantValues, gotValues);
    ASSERT_EQ(bad, -1) << "values differ at " << bad << " (stability?): expected "
                       << wantValues[bad] << ", got " << gotValues[bad];
  }
  if (!c.inPlace) {
    EXPECT_EQ(firstMismatch(keys, toHost(keysIn.data(), c.n)), -1) << "keysIn was written";
    if (!c.keysOnly) {
      EXPECT_EQ(firstMismatch(values, toHost(valuesIn.data(), c.n)), -1) << "valuesIn written";
    } else {
      const std::vector<std::uint32_t> untouched = toHost(valuesOut.data(), c.n);
      for (std::uint32_t v : untouched) ASSERT_EQ(v, kPoisonWord) << "values written, keys only";
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Sort, SortVariantTest, ::testing::ValuesIn(allCases()), caseName);

// ---------------------------------------------------------------------------------------
// Contract checks, once per variant
// ---------------------------------------------------------------------------------------
class SortContractTest : public ::testing::TestWithParam<std::size_t> {
 protected:
  void SetUp() override { SATDOF_SKIP_WITHOUT_DEVICE(); }
  const SortVariant& variant() const { return satdof::sortVariants()[GetParam()]; }
};

TEST_P(SortContractTest, EmptyIsNoOp) {
  SortArgs args;
  EXPECT_EQ(variant().scratchBytes(args), 0u);
  ASSERT_CUDA_OK(variant().launch(args, nullptr, 0, nullptr));
  ASSERT_CUDA_OK(cudaDeviceSynchronize());
}

TEST_P(SortContractTest, RejectsBadArguments) {
  DeviceBuffer<std::uint32_t> buf(1 << 16);
  SortArgs args;
  args.keysIn = buf.data();
  args.keysOut = buf.data() + 1000;
  args.n = 100;
  args.beginBit = 8;
  args.endBit = 4;
  EXPECT_EQ(variant().launch(args, nullptr, 0, nullptr), cudaErrorInvalidValue) << "bit range";
  args.beginBit = 0;
  args.endBit = 33;
  EXPECT_EQ(variant().launch(args, nullptr, 0, nullptr), cudaErrorInvalidValue) << "endBit 33";
  args.endBit = 32;
  args.valuesIn = buf.data() + 2000;  // values in without values out
  EXPECT_EQ(variant().launch(args, nullptr, 0, nullptr), cudaErrorInvalidValue) << "values";
  args.valuesOut = buf.data() + 3000;
  args.keysIn = nullptr;
  EXPECT_EQ(variant().launch(args, nullptr, 0, nullptr), cudaErrorInvalidValue) << "no keys";
  args.keysIn = buf.data();
  expectRejectsShortScratch(variant(), args);
}

INSTANTIATE_TEST_SUITE_P(Sort, SortContractTest,
                         ::testing::ValuesIn(indicesOf(satdof::sortVariants())),
                         [](const ::testing::TestParamInfo<std::size_t>& info) {
                           return testName(satdof::sortVariants()[info.param].name);
                         });

TEST(SortRegistry, NamesAreUniqueAndFindable) {
  expectWellFormedRegistry(satdof::sortVariants(), satdof::findSortVariant,
                           satdof::defaultSortVariant());
}

}  // namespace
