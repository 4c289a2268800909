// lesson/register_scans.cpp — the block scans that keep their elements in registers, run
// thread by thread and lane by lane with the index functions of satdof/scan_tree.h that
// their kernels call: `warp-shuffle` (cuda/scan/warp_shuffle.cu, the block scan in
// cuda/detail/block_scan.cuh) and `blelloch-8-per-thread` (cuda/scan/blelloch_8_per_thread.cuh).
// Their registers and shared words are rows beside the elements (scan_trace.h's ValueRow).
// And the gl-compute backend's `subgroup` (shaders/compute/block_scan_subgroup.glsl), whose
// subgroupInclusiveAdd is the GL's own operation: the trace adds in order where it runs it.
#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "lesson/scan_steps.h"
#include "satdof/scan_tree.h"

namespace satdof::lesson::steps {
namespace {

// Row `row` of a block's `rows` register rows, sized to `size` values.
std::vector<std::uint32_t>& registerRow(Block& b, int rows, int row, int size) {
  if (b.registers.size() < static_cast<std::size_t>(rows)) b.registers.resize(static_cast<std::size_t>(rows));
  std::vector<std::uint32_t>& values = b.registers[static_cast<std::size_t>(row)];
  values.resize(static_cast<std::size_t>(size));
  return values;
}

using scan_tree::BankPadding;
using scan_tree::blockedFirst;
using scan_tree::laneOf;
using scan_tree::warpOf;

std::vector<int> upTo(int n) {
  std::vector<int> v(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = i;
  return v;
}

// Thread t's registers: elements blockedFirst(t, k) .. + k - 1 of the tile.
std::uint32_t threadSum(const Block& b, int thread, int items) {
  std::uint32_t sum = 0;
  for (int i = 0; i < items; ++i) sum += b.out[static_cast<std::size_t>(blockedFirst(thread, items) + i)];
  return sum;
}

// Replaces thread t's registers by their exclusive scan from `prefix` (threadScanSeeded).
void rescan(Block& b, int thread, int items, std::uint32_t prefix) {
  std::uint32_t running = prefix;
  for (int i = 0; i < items; ++i) {
    std::uint32_t& item = b.out[static_cast<std::size_t>(blockedFirst(thread, items) + i)];
    const std::uint32_t next = running + item;
    item = running;
    running = next;
  }
}

// One shuffle-scan step (warp_scan.cuh's warpInclusiveScan) over `values`, warps of `lanes`:
// every lane reads lane - offset (__shfl_up_sync) and adds it where hillisSteeleAdds says.
void shuffleUpStep(std::vector<std::uint32_t>& values, int lanes, int offset) {
  const std::vector<std::uint32_t> before = values;
  for (int t = 0; t < static_cast<int>(values.size()); ++t) {
    const int lane = laneOf(t, lanes), base = t - lane;
    if (scan_tree::hillisSteeleAdds(lane, offset))
      values[static_cast<std::size_t>(t)] += before[static_cast<std::size_t>(base + scan_tree::shuffleUpSource(lane, offset))];
  }
}

// The steps of a shuffle scan over `threads` values (warps of `lanes`) held in row `row`:
// one step an offset, lanes >= offset adding lane - offset's value.
std::vector<BlockStep> shuffleSteps(int threads, int lanes, int row, const std::string& phase, const std::string& who) {
  std::vector<BlockStep> s;
  for (int offset = 1; offset < lanes; offset <<= 1) {
    BlockStep st{phase, "", {}, {}, {}, 0, true};
    st.what = rangeText("lane", offset, lanes - 1) + " of " + who + (offset == lanes - 1 ? " adds" : " add") +
              " the value of lane - " + std::to_string(offset) +
              ", read from its register by __shfl_up_sync(offset " + std::to_string(offset) + "); " +
              rangeText("lane", 0, offset - 1) + (offset == 1 ? " keeps its own" : " keep theirs");
    for (int t = 0; t < threads; ++t) {
      const int lane = laneOf(t, lanes);
      if (!scan_tree::hillisSteeleAdds(lane, offset)) continue;
      st.active.push_back(t);
      st.arrows.push_back({row, t - lane + scan_tree::shuffleUpSource(lane, offset), row, t});
      ++st.additionsPerBlock;
    }
    s.push_back(st);
  }
  return s;
}

// "elements 4t..4t+3", "element t"
std::string runText(int items) {
  return items == 1 ? "element t"
                    : "elements " + std::to_string(items) + "t.." + std::to_string(items) + "t+" + std::to_string(items - 1);
}

// "its register", "its 4 registers"
std::string registersText(int items) { return items == 1 ? "its register" : "its " + std::to_string(items) + " registers"; }

// How thread t's run moves between global memory and its registers.
std::string vectorsText(int items) {
  if (items % 4 != 0) return std::to_string(items) + (items == 1 ? " scalar access" : " scalar accesses") +
                             ", where the kernel's runs of 4 or 8 take 16-byte vectors";
  const int vectors = items / 4;
  return (vectors == 1 ? std::string("one 16-byte vector") : vectors == 2 ? "two 16-byte vectors" : "16-byte vectors") +
         ", so a warp covers " + std::to_string(32 * items * 4) + " contiguous bytes";
}

// "k = 4 elements a thread, p = 16 threads<warps>; the kernel's block: 512 threads of 4".
std::string blockText(const BlockShape& s, const char* variant, const std::string& warps) {
  const BlockShape kernel = blockShape(variant, kernelTile(variant));
  return "k = " + std::to_string(s.itemsPerThread) + " elements a thread, p = " + std::to_string(s.threads) + " threads" +
         warps + "; the kernel's block: " + std::to_string(kernel.threads) + " threads of " +
         std::to_string(kernel.itemsPerThread);
}

// ---- warp-shuffle -------------------------------------------------------------------------
// Rows: 0 the lane sums (each thread's total, then its inclusive sum within the warp), 1 the
// thread prefixes, 2 the warp totals in shared memory, 3 warp 0's registers as it scans them.
class WarpShuffle final : public BlockScan {
 public:
  BlockShape shape(int n) const override {
    const int items = std::clamp(n / 4, 1, 4);  // the kernel's 4; fewer in tiles under 16
    const int threads = n / items;
    return {threads, items, std::min(threads, std::clamp(threads / 2, 2, scan_tree::kWarpLanes))};
  }
  int slots(int n) const override { return warps(shape(n)); }
  std::string stepsName() const override { return "shuffle steps"; }
  long long formulaAdditions(int n) const override {
    const BlockShape s = shape(n);
    const long long p = s.threads, k = s.itemsPerThread, w = s.warpLanes, warpCount = warps(s);
    const long long warpScan = w * log2Exact(s.warpLanes) - (w - 1);
    return p * (k - 1) + (warpCount + 1) * warpScan + (warpCount - 1) * w + p * k;
  }
  int formulaSteps(int n) const override { return 2 * log2Exact(shape(n).warpLanes); }
  std::string formula() const override {
    return "p(k - 1) + (W + 1)(w log2 w - (w - 1)) + (W - 1)w + pk additions (registers, W + 1 warp scans of w "
           "lanes, the warps before, the rescan), 2 log2 w shuffle steps";
  }
  std::string shapeText(int n) const override {
    const BlockShape s = shape(n);
    return blockText(s, "warp-shuffle", " in W = " + std::to_string(warps(s)) + (warps(s) == 1 ? " warp" : " warps") +
                                            " of w = " + std::to_string(s.warpLanes) + " lanes" +
                                            (s.warpLanes != scan_tree::kWarpLanes
                                                 ? " (narrowed to show two warps: a GPU's has 32 lanes, offsets 1..16)"
                                                 : ""));
  }

  std::vector<BlockStep> steps(int n) const override {
    const BlockShape sh = shape(n);
    const int p = sh.threads, k = sh.itemsPerThread, w = sh.warpLanes, nw = warps(sh);
    std::vector<BlockStep> s;
    BlockStep load{"load", "thread t loads " + runText(k) + " into registers: " + vectorsText(k) + "; no shared memory",
                   upTo(p), {}, upTo(n), 0, false};
    load.rows = rows(n, {}, {});
    s.push_back(load);
    s.push_back({"reduce", "every thread adds up " + registersText(k) + ": its total, the value the warps scan",
                 upTo(p), {}, {}, p * (k - 1), false});
    s.back().rows = rows(n, {0}, upTo(p));
    for (BlockStep& st : shuffleSteps(p, w, 0, "warp scan", "every warp")) {
      std::vector<int> lanes;
      for (const RowArrow& a : st.arrows) lanes.push_back(a.to);
      st.rows = rows(n, {0}, lanes);
      s.push_back(std::move(st));
    }
    BlockStep totals{"warp totals", "lane " + std::to_string(w - 1) + " of every warp holds its warp's total and writes it "
                     "to shared slot warp; a barrier", {}, {}, {}, 0, false};
    SharedInstruction write{"write warp total", {}};
    for (int t = 0; t < p; ++t)
      if (scan_tree::writesWarpTotal(laneOf(t, w), w)) {
        const int slot = scan_tree::warpTotalSlot(warpOf(t, w));
        totals.active.push_back(t), write.accesses.push_back({t, slot});
        totals.arrows.push_back({0, t, 2, slot});
      }
    totals.instructions = {write};
    totals.rows = rows(n, {2}, upTo(nw));
    s.push_back(totals);
    BlockStep read{"read totals", rangeText("lane", 0, nw - 1) + " of warp 0" + (nw == 1 ? " reads the " : " read the ") +
                   std::to_string(nw) + (nw == 1 ? " warp total (lane l: slot l)" : " warp totals (lane l: slot l)") + (nw < w ? "; " + rangeText("lane", nw, w - 1) + (nw == w - 1 ? " takes 0" : " take 0") : std::string()),
                   upTo(nw), {}, {}, 0, false};
    SharedInstruction readTotals{"read warp total", {}};
    for (int lane = 0; lane < nw; ++lane) {
      readTotals.accesses.push_back({lane, scan_tree::warpTotalSlot(lane)});
      read.arrows.push_back({2, scan_tree::warpTotalSlot(lane), 3, lane});
    }
    read.instructions = {readTotals};
    read.rows = rows(n, {3}, upTo(w));
    s.push_back(read);
    for (BlockStep& st : shuffleSteps(w, w, 3, "scan of the totals", "warp 0")) {
      std::vector<int> lanes;
      for (const RowArrow& a : st.arrows) lanes.push_back(a.to);
      st.rows = rows(n, {3}, lanes);
      s.push_back(std::move(st));
    }
    BlockStep back{"totals back", rangeText("lane", 0, nw - 1) + " of warp 0" + (nw == 1 ? " writes" : " write") +
                   " the scanned totals back: slot w holds warps 0..w's sum; a barrier", upTo(nw), {}, {}, 0, false};
    SharedInstruction writeBack{"write scanned total", {}};
    for (int lane = 0; lane < nw; ++lane) {
      writeBack.accesses.push_back({lane, scan_tree::warpTotalSlot(lane)});
      back.arrows.push_back({3, lane, 2, scan_tree::warpTotalSlot(lane)});
    }
    back.instructions = {writeBack};
    back.rows = rows(n, {2}, upTo(nw));
    s.push_back(back);
    BlockStep prefix{"thread prefix", "every thread takes lane - 1's sum (__shfl_up_sync(offset 1); lane 0 takes 0)" +
                     (nw > 1 ? " and, in " + rangeText("warp", 1, nw - 1) + ", adds slot warp - 1 (the warps before it; one "
                               "word, broadcast to the warp)" : std::string()) +
                     ": its exclusive prefix; every thread reads slot " + std::to_string(nw - 1) + ", the block's total",
                     upTo(p), {}, {}, (nw - 1) * w, false};
    SharedInstruction blockTotal{"read block total", {}}, before{"read warps before", {}};
    for (int t = 0; t < p; ++t) {
      const int lane = laneOf(t, w), warp = warpOf(t, w);
      blockTotal.accesses.push_back({t, scan_tree::warpTotalSlot(nw - 1)});
      if (lane > 0) prefix.arrows.push_back({0, t - lane + scan_tree::shuffleUpSource(lane, 1), 1, t});
      if (warp > 0) before.accesses.push_back({t, scan_tree::warpsBeforeSlot(warp)});
      if (warp > 0 && lane == 0) prefix.arrows.push_back({2, scan_tree::warpsBeforeSlot(warp), 1, t});  // one for the warp
    }
    prefix.instructions = {blockTotal, before};
    prefix.rows = rows(n, {1}, upTo(p));
    s.push_back(prefix);
    s.push_back({"rescan and store", "every thread rescans " + registersText(k) + " from its prefix and stores them (" +
                 vectorsText(k) + "): the exclusive scan", upTo(p), {}, upTo(n), p * k, false});
    s.back().rows = rows(n, {}, {});
    return s;
  }

  void apply(int step, Block& b) const override {
    const BlockShape sh = shape(b.tileItems);
    const int p = sh.threads, k = sh.itemsPerThread, w = sh.warpLanes, nw = warps(sh), levels = log2Exact(w);
    std::vector<std::uint32_t>& lanes = registers(b, kLaneSums, p);
    std::vector<std::uint32_t>& prefixes = registers(b, kPrefixes, p);
    std::vector<std::uint32_t>& warp0 = registers(b, kWarp0, w);
    if (step == 0) return;
    if (step == 1) {
      for (int t = 0; t < p; ++t) lanes[t] = threadSum(b, t, k);
    } else if (step < 2 + levels) {
      shuffleUpStep(lanes, w, 1 << (step - 2));
    } else if (step == 2 + levels) {
      for (int t = 0; t < p; ++t)
        if (scan_tree::writesWarpTotal(laneOf(t, w), w)) b.shared[scan_tree::warpTotalSlot(warpOf(t, w))] = lanes[t];
    } else if (step == 3 + levels) {
      for (int lane = 0; lane < w; ++lane) warp0[lane] = lane < nw ? b.shared[scan_tree::warpTotalSlot(lane)] : 0u;
    } else if (step < 4 + 2 * levels) {
      shuffleUpStep(warp0, w, 1 << (step - 4 - levels));
    } else if (step == 4 + 2 * levels) {
      for (int lane = 0; lane < nw; ++lane) b.shared[scan_tree::warpTotalSlot(lane)] = warp0[lane];
    } else if (step == 5 + 2 * levels) {
      b.total = b.shared[scan_tree::warpTotalSlot(nw - 1)];
      for (int t = 0; t < p; ++t) {
        const int lane = laneOf(t, w), warp = warpOf(t, w);
        const std::uint32_t laneExclusive = lane == 0 ? 0u : lanes[t - lane + scan_tree::shuffleUpSource(lane, 1)];
        prefixes[t] = warp == 0 ? laneExclusive : b.shared[scan_tree::warpsBeforeSlot(warp)] + laneExclusive;
      }
    } else {
      for (int t = 0; t < p; ++t) rescan(b, t, k, prefixes[t]);
    }
  }

  std::vector<std::uint32_t> view(int, const Block& b) const override { return b.out; }
  int slotOf(int, int, int) const override { return -1; }

  std::vector<std::vector<std::uint32_t>> rowValues(int step, const Block& b) const override {
    const int levels = log2Exact(shape(b.tileItems).warpLanes);
    std::vector<std::vector<std::uint32_t>> v(4);
    if (step >= 1) v[0] = b.registers[kLaneSums];
    if (step >= 5 + 2 * levels) v[1] = b.registers[kPrefixes];
    if (step >= 2 + levels) v[2] = b.shared;
    if (step >= 3 + levels) v[3] = b.registers[kWarp0];
    return v;
  }

 private:
  enum Register { kLaneSums, kPrefixes, kWarp0 };
  static int warps(const BlockShape& s) { return s.threads / s.warpLanes; }
  static std::vector<std::uint32_t>& registers(Block& b, Register r, int size) {
    return registerRow(b, kWarp0 + 1, r, size);
  }
  // The four rows, `written` marking the values written in row `target` (none: no row written).
  std::vector<ValueRow> rows(int n, std::vector<int> target, const std::vector<int>& written) const {
    const BlockShape s = shape(n);
    std::vector<ValueRow> r{{"lane sums (registers): each thread's total, then its sum within the warp", s.threads, {}, {}, {}},
                            {"thread prefixes (registers): the sum of everything before the thread", s.threads, {}, {}, {}},
                            {"warp totals (shared memory, slot = warp)", warps(s), {}, {}, {}},
                            {"warp 0's registers: lane l scans warp l's total", s.warpLanes, {}, {}, {}}};
    for (int i = 0; i < warps(s); ++i) r[2].slots.push_back(scan_tree::warpTotalSlot(i));
    for (int row : target) r[static_cast<std::size_t>(row)].written = written;
    return r;
  }
};

// ---- blelloch-8-per-thread ----------------------------------------------------------------
// One row: the thread totals in shared memory (padded), which the tree scans.
class Blelloch8PerThread final : public BlockScan {
 public:
  using Pad = BankPadding;

  BlockShape shape(int n) const override {
    const int items = std::clamp(n / 2, 1, 8);  // the kernel's 8; fewer where under two threads would be left
    const int threads = n / items;
    return {threads, items, std::min(threads, scan_tree::kWarpLanes)};
  }
  int slots(int n) const override { return Pad::size(shape(n).threads); }
  long long formulaAdditions(int n) const override { return 2LL * n + 2LL * (shape(n).threads - 1); }
  int formulaSteps(int n) const override { return 2 * log2Exact(shape(n).threads); }
  std::string formula() const override {
    return "2n + 2(p - 1) additions (n - p in registers, 2(p - 1) in the tree of the p thread totals, p seeds, n "
           "rescanning), 2 log2 p tree steps";
  }
  std::string shapeText(int n) const override { return blockText(shape(n), "blelloch-8-per-thread", ""); }
  bool reduceThenScan() const override { return true; }

  std::vector<BlockStep> steps(int n) const override {
    const BlockShape sh = shape(n);
    const int p = sh.threads, k = sh.itemsPerThread;
    std::vector<BlockStep> s;
    BlockStep load{"load", "thread t loads " + runText(k) + " from global memory straight into registers: " +
                   vectorsText(k) + "; no shared memory, so no banks. " + stagedText(n), upTo(p), {}, upTo(n), 0, false};
    load.rows = rows(p, {});
    s.push_back(load);
    BlockStep reduce{"reduce", "every thread adds up " + registersText(k) + " and stores the total at shared slot "
                     "t + t/32 (padded) for the tree", upTo(p), {}, {}, p * (k - 1), false};
    SharedInstruction store{"store thread total", {}};
    for (int t = 0; t < p; ++t) store.accesses.push_back({t, Pad::index(t)});
    reduce.instructions = {store};
    reduce.rows = rows(p, upTo(p));
    s.push_back(reduce);
    for (BlockStep& st : treeSteps<Pad>(p, 0)) {
      st.what = "the tree of the " + std::to_string(p) + " thread totals: " + st.what;
      st.rows = rows(p, st.written);
      st.written.clear();
      s.push_back(std::move(st));
    }
    BlockStep out{"rescan and store", "every thread reads its prefix at slot t + t/32, adds the block's seed (the scanned "
                  "sum of the blocks before; 0 in one block) and rescans " + registersText(k) + " from it; stores them (" +
                  vectorsText(k) + "): the exclusive scan", upTo(p), {}, upTo(n), p + p * k, false};
    SharedInstruction read{"read prefix", {}};
    for (int t = 0; t < p; ++t) read.accesses.push_back({t, Pad::index(t)});
    out.instructions = {read};
    out.rows = rows(p, {});
    s.push_back(out);
    return s;
  }

  void apply(int step, Block& b) const override {
    const BlockShape sh = shape(b.tileItems);
    const int p = sh.threads, k = sh.itemsPerThread, levels = log2Exact(p);
    auto at = [&](int i) -> std::uint32_t& { return b.shared[static_cast<std::size_t>(Pad::index(i))]; };
    if (step == 0) {
      std::fill(b.shared.begin(), b.shared.end(), 0u);
    } else if (step == 1) {
      for (int t = 0; t < p; ++t) at(t) = threadSum(b, t, k);
    } else if (step <= 2 * levels + 2) {
      applyTreeStep(step - 2, p, at, b.total);
    } else {
      for (int t = 0; t < p; ++t) rescan(b, t, k, b.seed + at(t));
    }
  }

  std::vector<std::uint32_t> view(int, const Block& b) const override { return b.out; }
  int slotOf(int, int, int) const override { return -1; }

  std::vector<std::vector<std::uint32_t>> rowValues(int step, const Block& b) const override {
    const int p = shape(b.tileItems).threads;
    std::vector<std::uint32_t> totals;
    if (step >= 1)
      for (int t = 0; t < p; ++t) totals.push_back(b.shared[static_cast<std::size_t>(Pad::index(t))]);
    return {totals};
  }

  // Reduce-then-scan's first pass (reduceTile): registers, a butterfly in every warp, lane 0
  // of each warp to slot warp, thread 0 adding the warp totals.
  BlockStep reduceStep(int n) const override {
    const BlockShape sh = shape(n);
    const int p = sh.threads, k = sh.itemsPerThread, w = sh.warpLanes, nw = p / w, levels = log2Exact(w);
    BlockStep r{"reduce the tiles", "reduce-then-scan, pass 1: every block only adds up its tile: each thread " +
                registersText(k) + ", each warp its lanes' totals by " + std::to_string(levels) +
                " butterfly shuffles (__shfl_xor_sync), lane 0 of each warp writes its total to slot warp, thread 0 " +
                (nw == 1 ? std::string("reads it back") : "adds the " + std::to_string(nw) + " warp totals") + ": the block sums",
                upTo(p), {}, {}, p * (k - 1) + nw * w * levels + (nw - 1), false};
    SharedInstruction write{"write warp total", {}}, first{"read warp total 0", {}};
    for (int t = 0; t < p; ++t) {
      if (laneOf(t, w) == 0) write.accesses.push_back({t, scan_tree::warpTotalSlot(warpOf(t, w))});
      first.accesses.push_back({t, scan_tree::warpTotalSlot(0)});  // every thread reads it; thread 0 adds on
    }
    r.instructions = {write, first};
    for (int warp = 1; warp < nw; ++warp)
      r.instructions.push_back({"read warp total " + std::to_string(warp), {{0, scan_tree::warpTotalSlot(warp)}}});
    return r;
  }

  std::uint32_t reduce(const Block& b) const override {
    const BlockShape sh = shape(b.tileItems);
    const int p = sh.threads, w = sh.warpLanes;
    std::vector<std::uint32_t> lanes(static_cast<std::size_t>(p)), warpTotals(static_cast<std::size_t>(p / w));
    for (int t = 0; t < p; ++t) lanes[t] = threadSum(b, t, sh.itemsPerThread);
    for (int mask = w / 2; mask > 0; mask >>= 1) {
      const std::vector<std::uint32_t> before = lanes;
      for (int t = 0; t < p; ++t) lanes[t] += before[t - laneOf(t, w) + scan_tree::shuffleXorSource(laneOf(t, w), mask)];
    }
    for (int t = 0; t < p; ++t)
      if (laneOf(t, w) == 0) warpTotals[scan_tree::warpTotalSlot(warpOf(t, w))] = lanes[t];
    std::uint32_t total = warpTotals[scan_tree::warpTotalSlot(0)];
    for (int warp = 1; warp < p / w; ++warp) total += warpTotals[scan_tree::warpTotalSlot(warp)];
    return total;
  }

 private:
  std::vector<ValueRow> rows(int p, const std::vector<int>& written) const {
    ValueRow totals{"thread totals (shared memory, slot t + t/32): the tree scans them", p, {}, {}, written};
    for (int t = 0; t < p; ++t) totals.slots.push_back(Pad::index(t));
    return {totals};
  }
  // What staging a thread's run through shared memory would cost: thread t's i-th read at
  // word kt + i, a warp's reads of one i at once.
  std::string stagedText(int n) const {
    auto degree = [this](int tile) {
      const BlockShape s = shape(tile);
      std::vector<SharedAccess> warp;
      for (int t = 0; t < std::min(s.threads, scan_tree::kWarpLanes); ++t) warp.push_back({t, blockedFirst(t, s.itemsPerThread)});
      return conflictDegree(warp);
    };
    const int k = shape(n).itemsPerThread, here = degree(n), kernel = degree(kernelTile("blelloch-8-per-thread"));
    return "(Staged through shared memory, thread t's i-th read would be word " + std::to_string(k) + "t + i: " +
           std::to_string(kernel) + "-way bank conflicts in the kernel's warps of 32, " + std::to_string(here) +
           "-way among these threads.)";
  }
};

// ---- subgroup (GLSL) ----------------------------------------------------------------------
// shaders/compute/block_scan_subgroup.glsl: invocation t = s * w + i (subgroup s, invocation i
// of w) holds elements 2t and 2t+1; it adds them, subgroupInclusiveAdd scans the pair sums
// within the subgroup, the last invocation of each writes the subgroup's total to shared slot
// s, the first subgroup scans those S totals with one more subgroupInclusiveAdd (or, where
// they outnumber its lanes, its invocation 0 adds them up in order) and writes each back
// exclusive, and every invocation adds its subgroup's offset. Rows: 0 the pair sums (then
// their sums within the subgroup), 1 the subgroup totals in shared memory, 2 the first
// subgroup's registers as it scans them, 3 the offsets (everything before the pair).
class Subgroup final : public BlockScan {
 public:
  explicit Subgroup(int width) : width_(width) {}

  BlockShape shape(int n) const override {
    const int threads = std::max(1, n / 2);
    // The GL's width at the GLSL tile (512: 256 invocations); narrower in a lesson-sized
    // block, so that it still has two subgroups.
    return {threads, std::min(2, n), std::min(width_, std::max(threads / 2, std::min(threads, 2)))};
  }
  int slots(int n) const override { return subgroups(shape(n)); }
  std::string stepsName() const override { return "subgroup scans"; }
  long long formulaAdditions(int n) const override {
    const BlockShape s = shape(n);
    const long long p = s.threads, w = s.warpLanes, count = subgroups(s);
    return p + count * (w - 1) + (fits(s) ? (w - 1) + count : count) + 2 * p + p * s.itemsPerThread;
  }
  int formulaSteps(int n) const override { return fits(shape(n)) ? 2 : 1; }
  std::string formula() const override {
    return "p + S(w - 1) + (w - 1) + S + 2p + 2p additions (the pair sums, S subgroup scans of w counted at w - 1 each, "
           "the totals' scan and its S subtractions, the offsets, the pairs' sums; where the S totals outnumber w, one "
           "invocation adds them in order: S instead of (w - 1) + S), 2 subgroup scans (1 then)";
  }
  std::string shapeText(int n) const override {
    const BlockShape s = shape(n);
    const int count = subgroups(s);
    std::string text = "k = " + std::to_string(s.itemsPerThread) + " elements an invocation, p = " + std::to_string(s.threads) +
                       " invocations in S = " + std::to_string(count) + (count == 1 ? " subgroup" : " subgroups") +
                       " of w = " + std::to_string(s.warpLanes);
    if (s.warpLanes != width_)
      text += " (narrowed to show two subgroups: this GL's subgroups are " + std::to_string(width_) + " wide)";
    else
      text += " (this GL's subgroup width)";
    return text + "; the GLSL work group: 256 invocations of 2, a tile of 512 uvec4, scanned inclusive (the row shows "
                  "the exclusive scan); subgroupInclusiveAdd is the GL's own operation: no shared memory, no banks";
  }

  std::vector<BlockStep> steps(int n) const override {
    const BlockShape sh = shape(n);
    const int p = sh.threads, w = sh.warpLanes, count = subgroups(sh);
    std::vector<BlockStep> s;
    BlockStep load{"load", "invocation t = sw + i (subgroup s, invocation i) holds elements 2t "
                   "and 2t+1 in registers (the SAT loads them from its image; no shared memory)",
                   upTo(p), {}, upTo(n), 0, false};
    load.rows = rows(n, {}, {});
    s.push_back(load);
    s.push_back({"pair sums", "every invocation adds its two elements: the pair sum, the value the subgroups scan",
                 upTo(p), {}, {}, p, false});
    s.back().rows = rows(n, {kPairs}, upTo(p));
    BlockStep scan{"subgroup scan", "every subgroup: subgroupInclusiveAdd over its " + std::to_string(w) +
                   " pair sums; invocation i gets the sum of invocations 0..i (one operation of the GL's: no shared "
                   "memory, no banks; counted as w - 1 additions)", upTo(p), {}, {}, count * (w - 1), true};
    scan.rows = rows(n, {kPairs}, upTo(p));
    s.push_back(scan);
    BlockStep totals{"subgroup totals", "invocation " + std::to_string(w - 1) + " of every subgroup holds its subgroup's "
                     "total and writes it to shared slot s; a barrier", {}, {}, {}, 0, false};
    SharedInstruction write{"write subgroup total", {}};
    for (int t = 0; t < p; ++t)
      if (scan_tree::writesWarpTotal(laneOf(t, w), w)) {
        const int slot = scan_tree::warpTotalSlot(warpOf(t, w));
        totals.active.push_back(t), write.accesses.push_back({t, slot});
        totals.arrows.push_back({kPairs, t, kTotals, slot});
      }
    totals.instructions = {write};
    totals.rows = rows(n, {kTotals}, upTo(count));
    s.push_back(totals);
    if (fits(sh)) {
      BlockStep read{"read totals", rangeText("invocation", 0, count - 1) + " of subgroup 0" +
                     (count == 1 ? " reads the " : " read the ") + std::to_string(count) +
                     (count == 1 ? " subgroup total (invocation s: slot s)" : " subgroup totals (invocation s: slot s)") +
                     (count < w ? "; " + rangeText("invocation", count, w - 1) + (count == w - 1 ? " takes 0" : " take 0")
                                : std::string()),
                     upTo(count), {}, {}, 0, false};
      SharedInstruction readTotals{"read subgroup total", {}};
      for (int lane = 0; lane < count; ++lane) {
        readTotals.accesses.push_back({lane, scan_tree::warpTotalSlot(lane)});
        read.arrows.push_back({kTotals, scan_tree::warpTotalSlot(lane), kFirst, lane});
      }
      read.instructions = {readTotals};
      read.rows = rows(n, {kFirst}, upTo(w));
      s.push_back(read);
      BlockStep scanTotals{"scan of the totals", "subgroup 0: subgroupInclusiveAdd over the totals; invocation s gets the "
                           "sum of subgroups 0..s (counted as w - 1 additions)", upTo(w), {}, {}, w - 1, true};
      scanTotals.rows = rows(n, {kFirst}, upTo(w));
      s.push_back(scanTotals);
      BlockStep back{"totals back", rangeText("invocation", 0, count - 1) + " of subgroup 0" + (count == 1 ? " writes" : " write") +
                     " the sum up to it less its own total back: slot s holds the sum of the subgroups before s (exclusive); "
                     "invocation " + std::to_string(w - 1) + " keeps the block's total; a barrier",
                     upTo(count), {}, {}, count, false};
      SharedInstruction writeBack{"write subgroups before", {}};
      for (int lane = 0; lane < count; ++lane) {
        writeBack.accesses.push_back({lane, scan_tree::warpTotalSlot(lane)});
        back.arrows.push_back({kFirst, lane, kTotals, scan_tree::warpTotalSlot(lane)});
      }
      back.instructions = {writeBack};
      back.rows = rows(n, {kTotals}, upTo(count));
      s.push_back(back);
    } else {
      BlockStep serial{"totals in order", "the " + std::to_string(count) + " subgroup totals outnumber the " + std::to_string(w) +
                       " invocations of a subgroup: invocation 0 of subgroup 0 walks them in order, writing each slot the "
                       "sum of the subgroups before it (exclusive), the block's total last; a barrier",
                       {0}, {}, {}, count, false};
      for (int slot = 0; slot < count; ++slot) {
        serial.instructions.push_back({"read subgroup total " + std::to_string(slot), {{0, scan_tree::warpTotalSlot(slot)}}});
        serial.instructions.push_back({"write subgroups before " + std::to_string(slot), {{0, scan_tree::warpTotalSlot(slot)}}});
      }
      serial.rows = rows(n, {kTotals}, upTo(count));
      s.push_back(serial);
    }
    BlockStep offsets{"offsets", "every invocation reads slot s, the subgroups before its own (one word, broadcast to the "
                      "subgroup), and adds its inclusive sum less its pair sum: the sum of everything before its pair",
                      upTo(p), {}, {}, 2 * p, false};
    SharedInstruction before{"read subgroups before", {}};
    for (int t = 0; t < p; ++t) {
      const int lane = laneOf(t, w), sub = warpOf(t, w);
      before.accesses.push_back({t, scan_tree::warpTotalSlot(sub)});
      if (lane == 0) offsets.arrows.push_back({kTotals, scan_tree::warpTotalSlot(sub), kOffsets, t});  // one for the subgroup
    }
    offsets.instructions = {before};
    offsets.rows = rows(n, {kOffsets}, upTo(p));
    s.push_back(offsets);
    s.push_back({"add the offsets", "every invocation: element 2t's exclusive sum is its offset; v[0] += offset makes "
                 "element 2t's inclusive sum, element 2t+1's exclusive one; v[1] += v[0] element 2t+1's inclusive sum (the "
                 "SAT stores the inclusive sums; the row shows the exclusive scan)", upTo(p), {}, upTo(n),
                 p * sh.itemsPerThread, false});
    s.back().rows = rows(n, {}, {});
    return s;
  }

  void apply(int step, Block& b) const override {
    const BlockShape sh = shape(b.tileItems);
    const int p = sh.threads, k = sh.itemsPerThread, w = sh.warpLanes, count = subgroups(sh);
    std::vector<std::uint32_t>& pairs = registers(b, kPairs, p);
    std::vector<std::uint32_t>& pair = registers(b, kPair, p);
    std::vector<std::uint32_t>& first = registers(b, kFirst, w);
    std::vector<std::uint32_t>& offsets = registers(b, kOffsets, p);
    const std::string phase = steps(b.tileItems)[static_cast<std::size_t>(step)].phase;
    auto element = [&](int t, int e) -> std::uint32_t& {
      return b.out[static_cast<std::size_t>(k == 1 ? t : scan_tree::adjacentPairsElement(t, e))];
    };
    if (phase == "pair sums") {
      for (int t = 0; t < p; ++t) pair[t] = pairs[t] = k == 1 ? element(t, 0) : element(t, 0) + element(t, 1);
    } else if (phase == "subgroup scan") {
      for (int t = 0; t < p; ++t)
        if (laneOf(t, w) > 0) pairs[t] += pairs[t - 1];  // in order: the inclusive sum within the subgroup
    } else if (phase == "subgroup totals") {
      for (int t = 0; t < p; ++t)
        if (scan_tree::writesWarpTotal(laneOf(t, w), w)) b.shared[scan_tree::warpTotalSlot(warpOf(t, w))] = pairs[t];
    } else if (phase == "read totals") {
      for (int lane = 0; lane < w; ++lane) first[lane] = lane < count ? b.shared[scan_tree::warpTotalSlot(lane)] : 0u;
    } else if (phase == "scan of the totals") {
      for (int lane = 1; lane < w; ++lane) first[lane] += first[lane - 1];
    } else if (phase == "totals back") {
      for (int lane = 0; lane < count; ++lane)
        b.shared[scan_tree::warpTotalSlot(lane)] = first[lane] - b.shared[scan_tree::warpTotalSlot(lane)];
      b.total = first[w - 1];
    } else if (phase == "totals in order") {
      std::uint32_t run = 0;
      for (int slot = 0; slot < count; ++slot) {
        const std::uint32_t next = run + b.shared[scan_tree::warpTotalSlot(slot)];
        b.shared[scan_tree::warpTotalSlot(slot)] = run;
        run = next;
      }
      b.total = run;
    } else if (phase == "offsets") {
      for (int t = 0; t < p; ++t) offsets[t] = b.shared[scan_tree::warpTotalSlot(warpOf(t, w))] + pairs[t] - pair[t];
    } else if (phase == "add the offsets") {
      for (int t = 0; t < p; ++t) {
        if (k == 1) {
          element(t, 0) = offsets[t];
          continue;
        }
        const std::uint32_t second = element(t, 0) + offsets[t];  // v[0] += offset: element 2t+1's exclusive sum
        element(t, 0) = offsets[t];
        element(t, 1) = second;
      }
    }
  }

  std::vector<std::uint32_t> view(int, const Block& b) const override { return b.out; }
  int slotOf(int, int, int) const override { return -1; }

  std::vector<std::vector<std::uint32_t>> rowValues(int step, const Block& b) const override {
    const std::vector<BlockStep> all = steps(b.tileItems);
    auto reached = [&](const char* phase) {
      for (int k = 0; k <= step; ++k)
        if (all[static_cast<std::size_t>(k)].phase == phase) return true;
      return false;
    };
    std::vector<std::vector<std::uint32_t>> v(4);
    if (reached("pair sums")) v[kPairs] = b.registers[kPairs];
    if (reached("subgroup totals")) v[kTotals] = b.shared;
    if (reached("read totals")) v[kFirst] = b.registers[kFirst];
    if (reached("offsets")) v[kOffsets] = b.registers[kOffsets];
    return v;
  }

 private:
  // Rows (and b.registers) 0..3; kPair: each invocation's pair sum, kept for the offsets.
  enum Register { kPairs, kTotals, kFirst, kOffsets, kPair };
  static int subgroups(const BlockShape& s) { return s.threads / s.warpLanes; }
  static bool fits(const BlockShape& s) { return subgroups(s) <= s.warpLanes; }
  static std::vector<std::uint32_t>& registers(Block& b, Register r, int size) {
    return registerRow(b, kPair + 1, r, size);
  }
  std::vector<ValueRow> rows(int n, std::vector<int> target, const std::vector<int>& written) const {
    const BlockShape s = shape(n);
    std::vector<ValueRow> r{{"pair sums (registers): each invocation's two elements, then their sum within the subgroup",
                             s.threads, {}, {}, {}},
                            {"subgroup totals (shared memory, slot = subgroup)", subgroups(s), {}, {}, {}},
                            {"subgroup 0's registers: invocation s scans subgroup s's total", fits(s) ? s.warpLanes : 0, {}, {}, {}},
                            {"offsets (registers): the sum of everything before the invocation's pair", s.threads, {}, {}, {}}};
    for (int i = 0; i < subgroups(s); ++i) r[kTotals].slots.push_back(scan_tree::warpTotalSlot(i));
    for (int row : target) r[static_cast<std::size_t>(row)].written = written;
    return r;
  }
  int width_;
};

}  // namespace

const BlockScan& subgroupScan(int width) {
  static std::mutex mutex;
  static std::map<int, std::unique_ptr<Subgroup>> scans;
  const std::lock_guard<std::mutex> lock(mutex);
  std::unique_ptr<Subgroup>& scan = scans[width];
  if (!scan) scan = std::make_unique<Subgroup>(width);
  return *scan;
}

const BlockScan& warpShuffleScan() {
  static const WarpShuffle scan;
  return scan;
}

const BlockScan& blelloch8PerThreadScan() {
  static const Blelloch8PerThread scan;
  return scan;
}

}  // namespace satdof::lesson::steps
