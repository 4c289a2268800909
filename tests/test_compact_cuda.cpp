// tests/test_compact_cuda.cpp — every registered compaction variant against the CPU
// reference (satdof/reference/compact.h).
//
// Cases per variant: sizes 0, 1, 31, a tile of the single pass (4096) and its
// neighbours, two tiles + 3, an odd 1000003 and a large 2^24 + 3; predicates selecting
// none, all, ~1 %, ~50 % and ~90 % (by threshold) and one by bit mask; outputs values and
// indices, values only, indices only (and neither: the count alone). `scan-scatter` runs
// once more with every registered scan variant. Outputs and the count are poisoned
// first; beyond the count nothing may be written, and nothing past the scratch.
// SATDOF_TEST_MAX_N caps n for slow runs (compute-sanitizer); without a device every
// test skips visibly.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "compact_sort_support.h"
#include "cuda_test_support.h"
#include "satdof/compact.h"
#include "satdof/reference/compact.h"
#include "satdof/scan.h"

namespace {

using satdof::CompactArgs;
using satdof::CompactVariant;
using satdof::DeviceBuffer;
using satdof::Predicate;
using satdof::PredicateKind;
using namespace satdof::test;

enum class Outputs { Both, Values, Indices, CountOnly };

struct CompactCase {
  std::size_t variant = 0;
  int scan = -1;  // index into scanVariants(), -1: the default
  std::string label;
  std::size_t n = 0;
  Predicate predicate;
  Outputs outputs = Outputs::Both;
};

void PrintTo(const CompactCase& c, std::ostream* os) { *os << c.label; }

// Thresholds for a uniform uint32 input: value > t selects about `fraction` of it.
Predicate selecting(double fraction) {
  return {PredicateKind::Greater, static_cast<std::uint32_t>((1.0 - fraction) * 4294967295.0)};
}

std::vector<CompactCase> allCases() {
  std::vector<CompactCase> cases;
  const auto variants = satdof::compactVariants();
  const std::size_t tile = 4096;
  const std::vector<std::size_t> sizes{0,        1,        31,       tile - 1, tile,
                                       tile + 1, 2 * tile + 3, 1000003, (std::size_t{1} << 24) + 3};
  const std::pair<const char*, Predicate> predicates[] = {
      {"none", {PredicateKind::Greater, 0xFFFFFFFFu}},
      {"all", {PredicateKind::GreaterEqual, 0u}},
      {"pct1", selecting(0.01)},
      {"pct50", selecting(0.5)},
      {"pct90", selecting(0.9)},
      {"oddbit", {PredicateKind::AnyBitSet, 1u}},
  };
  for (std::size_t vi = 0; vi < variants.size(); ++vi) {
    const std::string v(variants[vi].name);
    for (std::size_t n : sizes)
      for (const auto& [pname, pred] : predicates)
        cases.push_back({vi, -1, v + "_n" + std::to_string(n) + "_" + pname, n, pred});
    for (std::size_t n : {tile + 1, std::size_t{1000003}}) {
      const std::string at = v + "_n" + std::to_string(n);
      cases.push_back({vi, -1, at + "_values_only", n, selecting(0.5), Outputs::Values});
      cases.push_back({vi, -1, at + "_indices_only", n, selecting(0.5), Outputs::Indices});
      cases.push_back({vi, -1, at + "_count_only", n, selecting(0.5), Outputs::CountOnly});
      cases.push_back({vi, -1, at + "_less", n, {PredicateKind::Less, 1u << 30}});
      cases.push_back({vi, -1, at + "_nobit", n, {PredicateKind::NoBitSet, 3u}});
    }
    if (variants[vi].usesScan) {
      const auto scans = satdof::scanVariants();
      for (std::size_t si = 0; si < scans.size(); ++si)
        for (std::size_t n : {std::size_t{1025}, std::size_t{300007}})
          cases.push_back({vi, static_cast<int>(si),
                           v + "_scan_" + std::string(scans[si].name) + "_n" + std::to_string(n),
                           n, selecting(0.5)});
    }
  }
  return cases;
}

std::string caseName(const ::testing::TestParamInfo<CompactCase>& info) {
  return testName(info.param.label);
}

class CompactVariantTest : public ::testing::TestWithParam<CompactCase> {
 protected:
  void SetUp() override { SATDOF_SKIP_WITHOUT_DEVICE(); }
};

TEST_P(CompactVariantTest, MatchesReference) {
  const CompactCase& c = GetParam();
  const CompactVariant& variant = satdof::compactVariants()[c.variant];
  if (const std::size_t cap = maxElements(); cap > 0 && c.n > cap)
    GTEST_SKIP() << c.n << " elements exceed SATDOF_TEST_MAX_N=" << cap;

  std::mt19937 rng = freshRng();
  std::vector<std::uint32_t> in(c.n);
  for (auto& v : in) v = static_cast<std::uint32_t>(rng());
  std::vector<std::uint32_t> wantValues, wantIndices;
  const std::size_t want = satdof::reference::compact(in, c.predicate, &wantValues, &wantIndices);

  DeviceBuffer<std::uint32_t> dIn = toDevice(in);
  DeviceBuffer<std::uint32_t> dOut = poisoned(c.n), dIndices = poisoned(c.n), dCount = poisoned(1);
  CompactArgs args;
  args.in = c.n ? dIn.data() : nullptr;
  args.out = c.outputs == Outputs::Both || c.outputs == Outputs::Values ? dOut.data() : nullptr;
  args.indices =
      c.outputs == Outputs::Both || c.outputs == Outputs::Indices ? dIndices.data() : nullptr;
  args.count = dCount.data();
  args.n = c.n;
  args.predicate = c.predicate;
  if (c.scan >= 0) args.scan = &satdof::scanVariants()[static_cast<std::size_t>(c.scan)];

  GuardedScratch scratch(variant.scratchBytes(args));
  ASSERT_CUDA_OK(variant.launch(args, scratch.data(), scratch.bytes(), nullptr));
  ASSERT_CUDA_OK(cudaDeviceSynchronize());
  ASSERT_CUDA_OK(cudaGetLastError());
  EXPECT_TRUE(scratch.guardIntact()) << "wrote past the " << scratch.bytes() << " scratch bytes";

  ASSERT_EQ(toHost(dCount.data(), 1)[0], want) << "count";
  const auto check = [&](const DeviceBuffer<std::uint32_t>& buf, bool written,
                         const std::vector<std::uint32_t>& expected, const char* what) {
    const std::vector<std::uint32_t> got = toHost(buf.data(), c.n);
    if (!written) {
      EXPECT_TRUE(std::all_of(got.begin(), got.end(), [](auto v) { return v == kPoisonWord; }))
          << what << " were written though not asked for";
      return;
    }
    const std::vector<std::uint32_t> head(got.begin(), got.begin() + static_cast<long>(want));
    const long long bad = firstMismatch(expected, head);
    EXPECT_EQ(bad, -1) << what << " differ at " << bad << ": expected " << expected[bad]
                       << ", got " << head[bad];
    EXPECT_TRUE(std::all_of(got.begin() + static_cast<long>(want), got.end(),
                            [](auto v) { return v == kPoisonWord; }))
        << what << " written beyond the count";
  };
  check(dOut, args.out != nullptr, wantValues, "values");
  check(dIndices, args.indices != nullptr, wantIndices, "indices");
}

INSTANTIATE_TEST_SUITE_P(Compact, CompactVariantTest, ::testing::ValuesIn(allCases()), caseName);

// ---------------------------------------------------------------------------------------
// Contract checks, once per variant
// ---------------------------------------------------------------------------------------
class CompactContractTest : public ::testing::TestWithParam<std::size_t> {
 protected:
  void SetUp() override { SATDOF_SKIP_WITHOUT_DEVICE(); }
  const CompactVariant& variant() const { return satdof::compactVariants()[GetParam()]; }
};

TEST_P(CompactContractTest, EmptyWritesZeroCount) {
  DeviceBuffer<std::uint32_t> count = poisoned(1);
  CompactArgs args;
  args.count = count.data();
  EXPECT_EQ(variant().scratchBytes(args), 0u);
  ASSERT_CUDA_OK(variant().launch(args, nullptr, 0, nullptr));
  ASSERT_CUDA_OK(cudaDeviceSynchronize());
  EXPECT_EQ(toHost(count.data(), 1)[0], 0u);
}

TEST_P(CompactContractTest, RejectsBadArguments) {
  DeviceBuffer<std::uint32_t> buf(1 << 16);
  CompactArgs args;
  args.in = buf.data();
  args.out = buf.data() + 1;
  args.n = 100;
  EXPECT_EQ(variant().launch(args, nullptr, 0, nullptr), cudaErrorInvalidValue) << "no count";
  args.count = buf.data();
  args.in = nullptr;
  EXPECT_EQ(variant().launch(args, nullptr, 0, nullptr), cudaErrorInvalidValue) << "no input";
  args.in = buf.data();
  args.predicate.kind = static_cast<PredicateKind>(99);
  EXPECT_EQ(variant().launch(args, nullptr, 0, nullptr), cudaErrorInvalidValue) << "predicate";
  args.predicate = {};
  expectRejectsShortScratch(variant(), args);
}

INSTANTIATE_TEST_SUITE_P(Compact, CompactContractTest,
                         ::testing::ValuesIn(indicesOf(satdof::compactVariants())),
                         [](const ::testing::TestParamInfo<std::size_t>& info) {
                           return testName(satdof::compactVariants()[info.param].name);
                         });

TEST(CompactRegistry, NamesAreUniqueAndFindable) {
  expectWellFormedRegistry(satdof::compactVariants(), satdof::findCompactVariant,
                           satdof::defaultCompactVariant());
}

}  // namespace
