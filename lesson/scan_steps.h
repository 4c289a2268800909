// lesson/scan_steps.h — private to lesson/: how scan_trace.cpp runs a variant's block scan
// step by step (the shared-memory trees there, the register variants in
// register_scans.cpp), and the Blelloch tree's steps, which blelloch, blelloch-conflict-free
// and blelloch-8-per-thread (over its thread totals) all take from satdof/scan_tree.h.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "lesson/scan_trace.h"
#include "satdof/scan_tree.h"

namespace satdof::lesson::steps {

int log2Exact(int n);
// "lane 3", "lanes 0..7" (what = "lane"); threadsText: "thread 3", "threads 0..7"
std::string rangeText(const std::string& what, int first, int last);
inline std::string threadsText(int first, int last) { return rangeText("thread", first, last); }

// One block's shared memory, its tile's elements and how the steps touch them.
struct Block {
  int tileItems = 0;
  int count = 0;  // real elements (the rest is the identity)
  std::vector<std::uint32_t> shared;
  std::vector<std::uint32_t> out;  // the tile's elements: the input until the store, then its scan
  std::uint32_t total = 0;
  std::uint32_t seed = 0;  // reduce-then-scan: the scanned sum of the blocks before (0 in one block)
  std::vector<std::vector<std::uint32_t>> registers;  // the register variants' rows, one value a thread
};

// A step as every block runs it: the same indices, each block its own values. `rows` gives
// the rows' labels, slots and written values; their values come from BlockScan::rowValues.
struct BlockStep {
  BlockStep(std::string phase_ = {}, std::string what_ = {}, std::vector<int> active_ = {},
            std::vector<SharedInstruction> instructions_ = {}, std::vector<int> written_ = {}, int additions = 0,
            bool tree = false)
      : phase(std::move(phase_)), what(std::move(what_)), active(std::move(active_)),
        instructions(std::move(instructions_)), written(std::move(written_)), additionsPerBlock(additions),
        treeStep(tree) {}
  std::string phase, what;
  std::vector<int> active;
  std::vector<SharedInstruction> instructions;
  std::vector<int> written;  // elements of the tile
  int additionsPerBlock = 0;
  bool treeStep = false;
  std::vector<ValueRow> rows;
  std::vector<RowArrow> arrows;
};

// The steps of one variant's block scan: apply(block) runs the step on a block's shared
// memory; view(block) gives the tile's elements as they stand (element order) and
// slotOf(i) where element i lives.
class BlockScan {
 public:
  virtual ~BlockScan() = default;
  virtual BlockShape shape(int tileItems) const = 0;
  virtual int slots(int tileItems) const = 0;
  // The step count; step k's description, and its effect on one block.
  virtual std::vector<BlockStep> steps(int tileItems) const = 0;
  virtual void apply(int step, Block& b) const = 0;
  virtual std::vector<std::uint32_t> view(int step, const Block& b) const = 0;
  virtual int slotOf(int step, int element, int tileItems) const = 0;
  // The values of step `step`'s rows in block b (as many as BlockStep::rows; empty: not written).
  virtual std::vector<std::vector<std::uint32_t>> rowValues(int /*step*/, const Block& /*b*/) const { return {}; }
  virtual long long formulaAdditions(int n) const = 0;
  virtual int formulaSteps(int n) const = 0;
  virtual std::string formula() const = 0;
  virtual std::string stepsName() const { return "tree steps"; }
  // The block's shape in words against the kernel's, where the lesson draws it smaller.
  virtual std::string shapeText(int /*tileItems*/) const { return {}; }
  // Reduce-then-scan (blelloch-8-per-thread): the first pass's step, and the total it
  // leaves in a block; every block's scan is then seeded with Block::seed.
  virtual bool reduceThenScan() const { return false; }
  virtual BlockStep reduceStep(int /*tileItems*/) const { return {}; }
  virtual std::uint32_t reduce(const Block& /*b*/) const { return 0; }
};

// ---- The Blelloch tree over n words at Pad::index(i) -------------------------------------
// Its 2 log2 n + 1 steps (the up-sweep's levels, clearing the root, the down-sweep's), each
// with its threads, accesses and the words it writes. `row` >= 0: the words are that row's
// values (blelloch-8-per-thread's thread totals), and the steps carry arrows and row writes.
template <class Pad>
std::vector<BlockStep> treeSteps(int n, int row = -1) {
  std::vector<BlockStep> s;
  auto touch = [&](BlockStep& st, int from, int to) {
    st.written.push_back(to);
    if (row >= 0 && from != to) st.arrows.push_back({row, from, row, to});
  };
  int offset = 1;
  for (int d = n >> 1; d > 0; d >>= 1) {
    BlockStep st{"up-sweep", "", {}, {}, {}, d, true};
    st.what = threadsText(0, d - 1) + " add node offset(2t+1)-1 into node offset(2t+2)-1, offset " + std::to_string(offset);
    SharedInstruction left{"read left child", {}}, right{"read right child", {}}, write{"write right child", {}};
    for (int t = 0; t < d; ++t) {
      const int a = scan_tree::blellochLeft(offset, t), b = scan_tree::blellochRight(offset, t);
      left.accesses.push_back({t, Pad::index(a)});
      right.accesses.push_back({t, Pad::index(b)});
      write.accesses.push_back({t, Pad::index(b)});
      st.active.push_back(t);
      touch(st, a, b);
    }
    st.instructions = {left, right, write};
    s.push_back(st);
    offset <<= 1;
  }
  BlockStep clear{"clear root", "thread 0 keeps the root (the block's total) and sets it to 0", {0}, {}, {n - 1}, 0, false};
  clear.instructions = {{"read root", {{0, Pad::index(n - 1)}}}, {"write root", {{0, Pad::index(n - 1)}}}};
  s.push_back(clear);
  for (int d = 1; d < n; d <<= 1) {
    offset >>= 1;
    BlockStep st{"down-sweep", "", {}, {}, {}, d, true};
    st.what = threadsText(0, d - 1) + " hand node offset(2t+2)-1's prefix to its left child and prefix + left to itself, offset " +
              std::to_string(offset);
    SharedInstruction left{"read left child", {}}, right{"read right child", {}}, wl{"write left child", {}},
        wr{"write right child", {}};
    for (int t = 0; t < d; ++t) {
      const int a = scan_tree::blellochLeft(offset, t), b = scan_tree::blellochRight(offset, t);
      left.accesses.push_back({t, Pad::index(a)}), right.accesses.push_back({t, Pad::index(b)});
      wl.accesses.push_back({t, Pad::index(a)}), wr.accesses.push_back({t, Pad::index(b)});
      st.active.push_back(t);
      touch(st, b, a);
      touch(st, a, b);
    }
    st.instructions = {left, right, wl, wr};
    s.push_back(st);
  }
  return s;
}

// Runs tree step `step` (0-based, as treeSteps numbers them) on the n words at(i); clearing
// the root leaves the total in `total`.
template <class At>
void applyTreeStep(int step, int n, At&& at, std::uint32_t& total) {
  const int levels = log2Exact(n);
  if (step < levels) {
    const int offset = 1 << step, d = n >> (step + 1);
    for (int t = 0; t < d; ++t) at(scan_tree::blellochRight(offset, t)) += at(scan_tree::blellochLeft(offset, t));
  } else if (step == levels) {
    total = at(n - 1);
    at(n - 1) = 0;
  } else {
    const int level = step - levels - 1;  // 0 for the first down-sweep step
    const int d = 1 << level, offset = n >> (level + 1);
    for (int t = 0; t < d; ++t) {
      const std::uint32_t left = at(scan_tree::blellochLeft(offset, t));
      at(scan_tree::blellochLeft(offset, t)) = at(scan_tree::blellochRight(offset, t));
      at(scan_tree::blellochRight(offset, t)) += left;
    }
  }
}

// The register variants' block scans (register_scans.cpp).
const BlockScan& warpShuffleScan();
const BlockScan& blelloch8PerThreadScan();
// The GLSL subgroup scan (shaders/compute/block_scan_subgroup.glsl) with subgroups of `width`
// invocations (a power of two, 1..128).
const BlockScan& subgroupScan(int width);

}  // namespace satdof::lesson::steps
