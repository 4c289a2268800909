// tests/test_compact_sort_reference.cpp — the CPU references of stream compaction and
// radix sort against brute force: every predicate kind, stable order and indices; the
// LSD sort against std::stable_sort on the sorted bits, for duplicate keys, top-bit keys
// and partial bit ranges.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

#include "satdof/reference/compact.h"
#include "satdof/reference/sort.h"
#include "test_support.h"

namespace ref = satdof::reference;
using satdof::Predicate;
using satdof::PredicateKind;

TEST(PredicateTest, EveryKind) {
  EXPECT_TRUE((Predicate{PredicateKind::Greater, 5}(6)));
  EXPECT_FALSE((Predicate{PredicateKind::Greater, 5}(5)));
  EXPECT_TRUE((Predicate{PredicateKind::GreaterEqual, 5}(5)));
  EXPECT_TRUE((Predicate{PredicateKind::Less, 5}(4)));
  EXPECT_FALSE((Predicate{PredicateKind::Less, 5}(5)));
  EXPECT_TRUE((Predicate{PredicateKind::LessEqual, 5}(5)));
  EXPECT_TRUE((Predicate{PredicateKind::Equal, 5}(5)));
  EXPECT_TRUE((Predicate{PredicateKind::NotEqual, 5}(4)));
  EXPECT_TRUE((Predicate{PredicateKind::AnyBitSet, 6}(2)));
  EXPECT_FALSE((Predicate{PredicateKind::AnyBitSet, 6}(1)));
  EXPECT_TRUE((Predicate{PredicateKind::NoBitSet, 6}(1)));
  EXPECT_TRUE((Predicate{PredicateKind::Greater, 0x7FFFFFFFu}(0x80000000u))) << "unsigned";
  EXPECT_FALSE(satdof::isValid(static_cast<PredicateKind>(99)));
}

TEST(ReferenceCompact, StableWithIndices) {
  auto rng = satdof::test::freshRng();
  for (std::size_t n : {0u, 1u, 7u, 1000u}) {
    std::vector<std::uint32_t> in(n);
    for (auto& v : in) v = rng() % 100;
    std::vector<std::uint32_t> out, idx;
    const std::size_t count = ref::compact(in, {PredicateKind::Less, 30}, &out, &idx);
    ASSERT_EQ(count, out.size());
    ASSERT_EQ(count, idx.size());
    std::size_t expected = 0;
    for (std::size_t i = 0; i < n; ++i) expected += in[i] < 30;
    EXPECT_EQ(count, expected);
    for (std::size_t k = 0; k < count; ++k) {
      EXPECT_EQ(out[k], in[idx[k]]);
      EXPECT_LT(out[k], 30u);
      if (k > 0) {
        EXPECT_LT(idx[k - 1], idx[k]) << "order kept";
      }
    }
    EXPECT_EQ(ref::compact(in, {PredicateKind::Less, 30}, nullptr, nullptr), count);
  }
}

TEST(ReferenceSort, MatchesStableSortOnTheSortedBits) {
  auto rng = satdof::test::freshRng();
  const std::pair<int, int> ranges[] = {{0, 32}, {0, 12}, {5, 6}, {10, 10}, {4, 31}, {28, 32}};
  for (std::size_t n : {0u, 1u, 2u, 1000u, 5003u}) {
    for (const auto& [begin, end] : ranges) {
      std::vector<std::uint32_t> keys(n), values(n);
      for (auto& k : keys) k = (rng() % 2 ? rng() : static_cast<std::uint32_t>(rng() % 8) << 29);
      std::iota(values.begin(), values.end(), 0u);
      std::vector<std::uint32_t> order(n);
      std::iota(order.begin(), order.end(), 0u);
      const std::uint32_t mask =
          end - begin == 32 ? 0xFFFFFFFFu : ((1u << (end - begin)) - 1u) << begin;
      std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
        return (keys[a] & mask) < (keys[b] & mask);
      });
      std::vector<std::uint32_t> k = keys, v = values;
      ref::sortPairs(k, v, begin, end);
      for (std::size_t i = 0; i < n; ++i) {
        ASSERT_EQ(v[i], order[i]) << "n=" << n << " bits [" << begin << "," << end << ") i=" << i;
        ASSERT_EQ(k[i], keys[order[i]]);
      }
      std::vector<std::uint32_t> keysOnly = keys;
      ref::sortPairs(keysOnly, {}, begin, end);
      EXPECT_EQ(keysOnly, k);
    }
  }
}
