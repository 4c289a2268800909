// tests/test_scan_cuda.cpp — every registered scan variant against the CPU reference.
//
// One parameterised suite over (variant, case): the cases are edge sizes (0, 1, 2, a warp
// and its neighbours, 1024 and its neighbours, the variant's tile and its neighbours), large
// sizes (2^20+7, 2^24+3, and tile^2+1, which needs three hierarchy levels: the tile sums
// and the sums of those are both scanned again), and batches (padded pitches, misaligned
// rows, rows of length 1/2/33 in counts beyond gridDim.y's 65535, a 1080p SAT row pass).
// Each case runs uint32 (exact, full-range random values so sums wrap) and float (inputs
// in [0,1), compared with a float64 reference within a tolerance that grows with the row
// length and the magnitude of the prefix), inclusive and exclusive, in place and out of
// place. Outputs are poisoned with 0xAB bytes first; pitch padding and the bytes after
// the variant's scratch must come back untouched.
//
// Without a CUDA device every test skips visibly. SATDOF_TEST_MAX_N caps the cases for
// slow runs such as compute-sanitizer (e.g. 70000): it counts elements including pitch
// padding and ragged tiles padded to whole tiles (a batch of 1-element rows costs a
// whole tile per row).
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <span>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "cuda_test_support.h"
#include "satdof/device_buffer.h"
#include "satdof/reference/scan.h"
#include "satdof/scan.h"

namespace {

using satdof::DeviceBuffer;
using satdof::ScanArgs;
using satdof::ScanOp;
using satdof::ScanType;
using satdof::ScanVariant;

#define EXPECT_CUDA_OK(expr)                                                           \
  do {                                                                                 \
    const cudaError_t scanTestErr_ = (expr);                                           \
    ASSERT_EQ(scanTestErr_, cudaSuccess) << #expr << ": " << cudaGetErrorString(scanTestErr_); \
  } while (0)

constexpr unsigned char kPoison = 0xAB;       // output bytes before the scan
constexpr unsigned char kGuard = 0xCD;        // bytes just past the variant's scratch
constexpr std::size_t kGuardBytes = 256;
// Large cases run fewer of the 8 type/op/placement combinations to keep the suite short.
constexpr std::size_t kAllCombosLimit = std::size_t{1} << 21;   // above: 4 combinations
constexpr std::size_t kFourCombosLimit = std::size_t{1} << 24;  // above: 2 (uint32 only)

// ---------------------------------------------------------------------------------------
// Cases
// ---------------------------------------------------------------------------------------
struct ScanCase {
  std::size_t variant = 0;  // index into scanVariants()
  std::string label;        // part of the test name
  std::size_t length = 0;
  std::size_t rows = 1;
  std::size_t pitch = 0;    // 0: tightly packed

  std::size_t rowPitch() const { return pitch ? pitch : length; }
  std::size_t footprint() const { return rows * rowPitch(); }
  // Elements the kernels walk over, ragged tiles padded to whole tiles: what a slow run
  // (compute-sanitizer) pays for. Rows of length 1 cost a whole tile each.
  std::size_t work(std::size_t tile) const {
    const std::size_t padded = tile > 0 ? (length + tile - 1) / tile * tile : length;
    return rows * std::max(rowPitch(), padded);
  }
};

void PrintTo(const ScanCase& c, std::ostream* os) {
  *os << satdof::scanVariants()[c.variant].name << " length=" << c.length << " rows=" << c.rows
      << " pitch=" << c.rowPitch();
}

std::size_t tileOf(const ScanVariant& v) {
  return std::size_t(std::max(v.tuning.threadsPerBlock, 0)) *
         std::size_t(std::max(v.tuning.itemsPerThread, 0));
}

std::vector<ScanCase> allCases() {
  std::vector<ScanCase> cases;
  const auto variants = satdof::scanVariants();
  for (std::size_t vi = 0; vi < variants.size(); ++vi) {
    const std::size_t tile = tileOf(variants[vi]);
    std::vector<std::size_t> sizes{1, 2, 31, 32, 33, 1023, 1024, 1025};
    if (tile > 0) {
      for (std::size_t n : {tile - 1, tile, tile + 1, 2 * tile + 3}) sizes.push_back(n);
      // Tiles of the data: tile + 1 > one tile of sums, so the sums' sums are a third level.
      if (tile * tile + 1 <= (std::size_t{1} << 25)) sizes.push_back(tile * tile + 1);
    }
    sizes.push_back((std::size_t{1} << 20) + 7);
    sizes.push_back((std::size_t{1} << 24) + 3);
    std::sort(sizes.begin(), sizes.end());
    sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
    for (std::size_t n : sizes) {
      std::string label = "n";
      label += std::to_string(n);
      cases.push_back({vi, label, n, 1, 0});
    }

    // Batches. A multi-tile row length (for the library baseline, a length of our own).
    const std::size_t longRow = tile > 0 ? 2 * tile + 3 : 10003;
    const std::size_t alignedPitch = (longRow + 3) / 4 * 4 + 4;  // rows stay 16-byte aligned
    const ScanCase batches[] = {
        {vi, "rows5_len1000_pitch1003", 1000, 5, 1003},
        {vi, "rows7_longrows_packed", longRow, 7, 0},
        {vi, "rows7_longrows_alignedpitch", longRow, 7, alignedPitch},
        {vi, "rows3_longrows_oddpitch", longRow, 3, longRow + 1},
        {vi, "rows65539_len1", 1, 65539, 0},
        {vi, "rows65539_len2_pitch3", 2, 65539, 3},
        {vi, "rows5000_len33", 33, 5000, 0},
        {vi, "sat1080p_rowpass", 1920, 4 * 1080, 0},
    };
    cases.insert(cases.end(), std::begin(batches), std::end(batches));
  }
  return cases;
}

std::string caseName(const ::testing::TestParamInfo<ScanCase>& info) {
  std::string name = std::string(satdof::scanVariants()[info.param.variant].name) + "_" +
                     info.param.label;
  for (char& ch : name)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return name;
}

// ---------------------------------------------------------------------------------------
// One run: random input, scan on the device, compare with the reference
// ---------------------------------------------------------------------------------------
struct Combo {
  ScanType type;
  ScanOp op;
  bool inPlace;
};

std::string describe(const Combo& c) {
  std::ostringstream s;
  s << satdof::toString(c.type) << " " << satdof::toString(c.op) << " "
    << (c.inPlace ? "in place" : "out of place");
  return s.str();
}

template <class T>
std::vector<T> randomInput(std::size_t count, std::mt19937& rng) {
  std::vector<T> v(count);
  if constexpr (std::is_same_v<T, float>) {
    std::uniform_real_distribution<float> dist(0.0f, 1.0f);
    for (auto& x : v) x = dist(rng);
  } else {
    std::uniform_int_distribution<std::uint32_t> dist;  // full range: sums wrap
    for (auto& x : v) x = dist(rng);
  }
  return v;
}

// Compares row r of `got` with the reference scan of `in`; reports the first few mismatches.
template <class T>
void checkRow(const std::vector<T>& in, const std::vector<T>& got, std::size_t offset,
              std::size_t length, bool exclusive, std::size_t row) {
  constexpr std::size_t kReported = 5;
  std::size_t mismatches = 0;
  const auto report = [&](std::size_t i, double want, double have, double tol) {
    if (++mismatches > kReported) return;
    ADD_FAILURE() << "row " << row << " index " << i << ": expected " << want << ", got " << have
                  << (tol > 0 ? " (tolerance " + std::to_string(tol) + ")" : std::string());
  };
  if constexpr (std::is_same_v<T, float>) {
    std::vector<double> want(length);
    std::span<const float> src(in.data() + offset, length);
    std::vector<double> src64(src.begin(), src.end());
    if (exclusive)
      satdof::reference::exclusiveScan<double>(src64, want);
    else
      satdof::reference::inclusiveScan<double>(src64, want);
    // Float error grows with the chain of roundings behind each output (per-thread runs,
    // tree levels, the look-back's chain of tile prefixes) and with the prefix's size.
    const double growth = 8.0 + 2.0 * std::sqrt(double(length));
    double absPrefix = 0.0;
    for (std::size_t i = 0; i < length; ++i) {
      absPrefix += std::fabs(src64[i]);
      const double tol = std::ldexp(1.0, -23) * (absPrefix + 1.0) * growth;
      const double have = got[offset + i];
      if (!(std::fabs(have - want[i]) <= tol)) report(i, want[i], have, tol);
    }
  } else {
    std::vector<std::uint32_t> want(length);
    std::span<const std::uint32_t> src(in.data() + offset, length);
    if (exclusive)
      satdof::reference::exclusiveScan<std::uint32_t>(src, want);
    else
      satdof::reference::inclusiveScan<std::uint32_t>(src, want);
    for (std::size_t i = 0; i < length; ++i)
      if (got[offset + i] != want[i]) report(i, want[i], got[offset + i], 0);
  }
  if (mismatches > kReported)
    ADD_FAILURE() << "row " << row << ": " << mismatches << " mismatches in all";
}

template <class T>
void runCombo(const ScanVariant& variant, const ScanCase& sc, const Combo& combo,
              std::mt19937& rng, cudaStream_t stream) {
  SCOPED_TRACE(describe(combo));
  const std::size_t pitch = sc.rowPitch();
  const std::size_t count = sc.footprint();
  const std::vector<T> in = randomInput<T>(count, rng);  // padding gets random values too

  DeviceBuffer<T> dIn(count);
  DeviceBuffer<T> dOut(combo.inPlace ? 0 : count);
  EXPECT_CUDA_OK(cudaMemcpy(dIn.data(), in.data(), dIn.bytes(), cudaMemcpyHostToDevice));
  if (!combo.inPlace) EXPECT_CUDA_OK(cudaMemset(dOut.data(), kPoison, dOut.bytes()));

  ScanArgs args;
  args.in = dIn.data();
  args.out = combo.inPlace ? dIn.data() : dOut.data();
  args.length = sc.length;
  args.rows = sc.rows;
  args.pitch = sc.pitch;
  args.type = std::is_same_v<T, float> ? ScanType::F32 : ScanType::U32;
  args.op = combo.op;

  const std::size_t scratchBytes = variant.scratchBytes(args);
  DeviceBuffer<unsigned char> scratch(scratchBytes + kGuardBytes);
  EXPECT_CUDA_OK(cudaMemset(scratch.data() + scratchBytes, kGuard, kGuardBytes));
  EXPECT_CUDA_OK(cudaDeviceSynchronize());

  EXPECT_CUDA_OK(variant.launch(args, scratchBytes ? scratch.data() : nullptr, scratchBytes, stream));
  EXPECT_CUDA_OK(cudaStreamSynchronize(stream));
  EXPECT_CUDA_OK(cudaGetLastError());

  std::vector<T> got(count);
  EXPECT_CUDA_OK(cudaMemcpy(got.data(), args.out, count * sizeof(T), cudaMemcpyDeviceToHost));
  std::vector<unsigned char> guard(kGuardBytes);
  EXPECT_CUDA_OK(cudaMemcpy(guard.data(), scratch.data() + scratchBytes, kGuardBytes,
                            cudaMemcpyDeviceToHost));
  EXPECT_TRUE(std::all_of(guard.begin(), guard.end(), [](unsigned char b) { return b == kGuard; }))
      << "the variant wrote past the " << scratchBytes << " scratch bytes it asked for";

  const bool exclusive = combo.op == ScanOp::Exclusive;
  for (std::size_t r = 0; r < sc.rows; ++r) {
    checkRow(in, got, r * pitch, sc.length, exclusive, r);
    if (::testing::Test::HasFailure()) return;  // one bad row says enough
    // Padding between rows: untouched (still the input in place, still poison otherwise).
    for (std::size_t i = sc.length; i < pitch; ++i) {
      const std::size_t at = r * pitch + i;
      unsigned char bytes[sizeof(T)];
      std::memcpy(bytes, &got[at], sizeof(T));
      const bool untouched =
          combo.inPlace ? std::memcmp(&got[at], &in[at], sizeof(T)) == 0
                        : std::all_of(std::begin(bytes), std::end(bytes),
                                      [](unsigned char b) { return b == kPoison; });
      ASSERT_TRUE(untouched) << "row " << r << " padding element " << i << " was written";
    }
  }
}

// ---------------------------------------------------------------------------------------
// Fixture
// ---------------------------------------------------------------------------------------
class ScanVariantTest : public ::testing::TestWithParam<ScanCase> {
 protected:
  void SetUp() override {
    SATDOF_SKIP_WITHOUT_DEVICE();
    EXPECT_CUDA_OK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
  }
  void TearDown() override {
    if (stream_) {
      EXPECT_EQ(cudaStreamDestroy(stream_), cudaSuccess);
    }
  }
  const ScanVariant& variant() const { return satdof::scanVariants()[GetParam().variant]; }

  cudaStream_t stream_ = nullptr;
};

TEST_P(ScanVariantTest, MatchesReference) {
  const ScanCase& sc = GetParam();
  const std::size_t cap = satdof::test::maxElements();
  if (const std::size_t work = sc.work(tileOf(variant())); cap > 0 && work > cap)
    GTEST_SKIP() << work << " elements (ragged tiles padded to whole tiles) exceed "
                 << "SATDOF_TEST_MAX_N=" << cap
                 << " (a size cap for slow runs such as compute-sanitizer)";

  const unsigned seed = satdof::test::freshSeed();
  SCOPED_TRACE("seed " + std::to_string(seed) + " (SATDOF_SEED replays it)");
  std::mt19937 rng(seed);

  std::vector<Combo> combos;
  for (ScanType type : {ScanType::U32, ScanType::F32})
    for (ScanOp op : {ScanOp::Inclusive, ScanOp::Exclusive})
      for (bool inPlace : {false, true}) combos.push_back({type, op, inPlace});
  if (sc.footprint() > kFourCombosLimit) {
    // Huge cases: exact arithmetic, both ops, both placements.
    combos = {{ScanType::U32, ScanOp::Inclusive, false}, {ScanType::U32, ScanOp::Exclusive, true}};
  } else if (sc.footprint() > kAllCombosLimit) {
    // Large cases: every type, every op, and both placements, in four runs.
    combos = {{ScanType::U32, ScanOp::Inclusive, false},
              {ScanType::U32, ScanOp::Exclusive, true},
              {ScanType::F32, ScanOp::Inclusive, true},
              {ScanType::F32, ScanOp::Exclusive, false}};
  }
  for (const Combo& combo : combos) {
    if (combo.type == ScanType::U32)
      runCombo<std::uint32_t>(variant(), sc, combo, rng, stream_);
    else
      runCombo<float>(variant(), sc, combo, rng, stream_);
    if (HasFailure()) return;
  }
}

INSTANTIATE_TEST_SUITE_P(Scan, ScanVariantTest, ::testing::ValuesIn(allCases()), caseName);

// ---------------------------------------------------------------------------------------
// Contract checks that do not depend on sizes, once per variant
// ---------------------------------------------------------------------------------------
class ScanContractTest : public ::testing::TestWithParam<std::size_t> {
 protected:
  void SetUp() override { SATDOF_SKIP_WITHOUT_DEVICE(); }
  const ScanVariant& variant() const { return satdof::scanVariants()[GetParam()]; }
};

// length 0 or rows 0: success, no scratch needed, output untouched.
TEST_P(ScanContractTest, EmptyIsNoOp) {
  DeviceBuffer<std::uint32_t> in(64), out(64);
  EXPECT_CUDA_OK(cudaMemset(in.data(), 1, in.bytes()));
  EXPECT_CUDA_OK(cudaMemset(out.data(), kPoison, out.bytes()));
  for (const auto& [length, rows] : {std::pair<std::size_t, std::size_t>{0, 1}, {0, 7}, {5, 0}}) {
    for (ScanOp op : {ScanOp::Inclusive, ScanOp::Exclusive}) {
      ScanArgs args;
      args.in = in.data();
      args.out = out.data();
      args.length = length;
      args.rows = rows;
      args.op = op;
      EXPECT_EQ(variant().scratchBytes(args), 0u) << "length " << length << " rows " << rows;
      EXPECT_CUDA_OK(variant().launch(args, nullptr, 0, nullptr));
    }
  }
  EXPECT_CUDA_OK(cudaDeviceSynchronize());
  std::vector<std::uint32_t> got(out.size());
  EXPECT_CUDA_OK(cudaMemcpy(got.data(), out.data(), out.bytes(), cudaMemcpyDeviceToHost));
  for (std::uint32_t v : got) ASSERT_EQ(v, 0xABABABABu) << "an empty scan wrote its output";
}

// Bad arguments are reported, not launched.
TEST_P(ScanContractTest, RejectsBadArguments) {
  DeviceBuffer<std::uint32_t> buf(1 << 16);
  ScanArgs args;
  args.in = buf.data();
  args.out = buf.data();
  args.length = 100;
  args.rows = 2;
  args.pitch = 99;  // shorter than a row
  EXPECT_EQ(variant().launch(args, nullptr, 0, nullptr), cudaErrorInvalidValue);
  args.pitch = 0;
  args.in = nullptr;
  EXPECT_EQ(variant().launch(args, nullptr, 0, nullptr), cudaErrorInvalidValue);
  args.in = buf.data();
  args.length = buf.size();
  args.rows = 1;
  if (const std::size_t need = variant().scratchBytes(args); need > 0) {
    DeviceBuffer<unsigned char> scratch(need);
    EXPECT_EQ(variant().launch(args, scratch.data(), need - 1, nullptr), cudaErrorInvalidValue)
        << "scratch one byte short of " << need;
  }
  EXPECT_CUDA_OK(cudaDeviceSynchronize());
  EXPECT_CUDA_OK(cudaGetLastError());
}

std::vector<std::size_t> variantIndices() {
  std::vector<std::size_t> v(satdof::scanVariants().size());
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = i;
  return v;
}

INSTANTIATE_TEST_SUITE_P(Scan, ScanContractTest, ::testing::ValuesIn(variantIndices()),
                         [](const ::testing::TestParamInfo<std::size_t>& info) {
                           std::string name(satdof::scanVariants()[info.param].name);
                           for (char& ch : name)
                             if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           return name;
                         });

// The registry itself: unique names, lookup, a default that is registered.
TEST(ScanRegistry, NamesAreUniqueAndFindable) {
  const auto variants = satdof::scanVariants();
  ASSERT_FALSE(variants.empty());
  for (const ScanVariant& v : variants) {
    EXPECT_EQ(satdof::findScanVariant(v.name), &v) << v.name;
    EXPECT_FALSE(v.description.empty()) << v.name;
    EXPECT_NE(v.scratchBytes, nullptr) << v.name;
    EXPECT_NE(v.launch, nullptr) << v.name;
  }
  EXPECT_EQ(satdof::findScanVariant("no-such-scan"), nullptr);
  const ScanVariant& def = satdof::defaultScanVariant();
  EXPECT_EQ(satdof::findScanVariant(def.name), &def);
}

}  // namespace
