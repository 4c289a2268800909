// lesson/scan_trace.h — a block scan followed step by step, from the index arithmetic its
// CUDA kernel runs (satdof/scan_tree.h): after each step the array, the threads that
// worked, every shared-memory access with its bank, the step's bank-conflict degree, and
// the running count of additions against the chapter's formulas. The variants that scan in
// registers (warp-shuffle, blelloch-8-per-thread) show their registers and shared words as
// rows beside the elements, and the shuffles between lanes. A row longer than one block
// goes through the multi-block hierarchy as the kernels do (GPU Gems 3, 39.2.4): every
// block scans its tile, the block sums are scanned, and a uniform add follows; or, for
// blelloch-8-per-thread, reduce-then-scan: every block reduces its tile, the sums are
// scanned, and every block scans its tile seeded with its sum.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace satdof::lesson {

// One thread's access to one shared-memory word (a slot: padding included).
struct SharedAccess {
  int thread = 0;
  int slot = 0;
};

// One warp-wide shared-memory instruction of a step ("read the left child"), as each
// warp issues it: its accesses, and its conflict degree (the most distinct words any one
// bank must serve; 1 is conflict-free, a word read by several threads is one broadcast).
struct SharedInstruction {
  std::string what;
  std::vector<SharedAccess> accesses;
};

// A row of values beside the elements: a register of every thread, or the words of a
// shared-memory array; value i of a block is drawn under the block's thread i.
struct ValueRow {
  std::string label;                  // "lane sums (registers)", "warp totals (shared memory)"
  int perBlock = 0;                   // values a block
  std::vector<std::uint32_t> values;  // perBlock a block, block after block; empty: not written yet
  std::vector<int> slots;             // value i's shared-memory slot (empty: registers)
  std::vector<int> written;           // values of a block written in this step
};

// Value `from` of row `fromRow` read into value `to` of row `toRow`, in every block: a
// shuffle between lanes, a tree step, a register stored to or loaded from shared memory.
struct RowArrow {
  int fromRow = 0, from = 0, toRow = 0, to = 0;
};

struct TraceStep {
  std::string phase;  // "load", "up-sweep", "clear root", "down-sweep", "step", "store",
                      // "block sums", "scan of the block sums", "uniform add"; the register
                      // variants' "reduce", "warp scan", "warp totals", ... (see their traces)
  std::string what;   // one line: what the active threads do
  int block = -1;     // the block shown (-1: every block, the same step in each)
  std::vector<std::uint32_t> values;   // the blocks' tiles after the step, element order
                                       // (past n: the identity a partial tile is padded with)
  std::vector<std::uint32_t> blockSums;  // the block sums row, once written (empty: not yet)
  std::vector<int> slotOfElement;      // where element i lives in shared memory (-1: global only)
  std::vector<int> written;            // elements this step wrote
  std::vector<int> activeThreads;      // threads of block `block` (or 0) that did work
  std::vector<SharedInstruction> instructions;  // shared-memory instructions of block 0
  int additions = 0;         // additions this step, all blocks
  int conflictDegree = 1;    // the worst instruction's degree (1: none; 0: no shared access)
  long long extraWavefronts = 0;  // sum over instructions and warps of degree - 1, all blocks
  // Two instructions of this step touch, in each thread, two neighbouring words (an even
  // one and the next): a compiler may fuse them into one 64-bit access, which a warp can
  // serve without the conflicts counted here for two 32-bit ones.
  bool adjacentPairs = false;
  bool treeStep = false;               // one of the block scan's counted steps (ScanTrace::treeSteps)
  std::vector<ValueRow> rows;          // registers and shared words beside the elements (the register variants)
  std::vector<RowArrow> arrows;        // between those rows' values
};

// Whose block a trace follows: the CUDA kernel's (the default) or the gl-compute backend's
// GLSL block scan (shaders/compute/block_scan_<name>.glsl: 512 uvec4 elements a work group
// of 256 invocations, two each, one from each half of the tile for the tree and
// hillis-steele), and the GL's subgroup width, which `subgroup` (GLSL only) scans with.
struct ScanTarget {
  bool glsl = false;
  int subgroupSize = 32;  // a power of two, 1..128 (NVIDIA 32; llvmpipe its vector width)
};

struct ScanTrace {
  std::string variant;
  ScanTarget target;
  int n = 0;           // elements
  int tileItems = 0;   // elements per block
  int threads = 0;     // threads per block
  int itemsPerThread = 0;
  int warpLanes = 0;   // lanes of the warps the steps show (0: the variant's steps are not by warp)
  std::string warpWord = "warp";  // what the picture calls them ("subgroup" in GLSL)
  bool elementsInRegisters = false;  // the elements never go to shared memory (the register variants)
  bool reduceThenScan = false;       // blocks reduce first; their scans are seeded with the scanned sums
  int blocks = 0;
  std::vector<std::uint32_t> input;
  std::vector<std::uint32_t> result;  // the exclusive scan the steps end with
  std::vector<TraceStep> steps;
  long long additions = 0;        // all steps, all blocks
  int treeSteps = 0;              // the block scan's counted steps (one block): the trees' levels,
                                  // the warp scans' shuffles
  std::string stepsName = "tree steps";
  long long extraWavefronts = 0;  // all steps: what Nsight Compute counts as bank conflicts,
                                  // for the source's 32-bit accesses (see adjacentPairs)
  bool adjacentPairs = false;     // any step's
  // The chapter's counts for one block of tileItems elements (a power of two), and the
  // formula they come from.
  long long formulaAdditions = 0;
  int formulaSteps = 0;
  std::string formula;
  std::string shape;  // the block's shape against the kernel's, where the lesson draws it smaller
};

// The variants a trace follows: their names in the CUDA scan registry, then `subgroup`, the
// gl-compute backend's (engine/backends/gl_scan_sat.h), which is GLSL only.
std::vector<std::string> tracedScanVariants();
// Those of them with a CUDA kernel (every one but `subgroup`).
std::vector<std::string> tracedCudaScanVariants();
// Why `variant` has no trace (empty: it has one).
std::string whyNoTrace(std::string_view variant);

// A block of `tileItems` elements as `variant`'s trace runs it: threads, elements a thread,
// lanes a warp (0 where it does not go by warps). At the kernel's own tile it is the
// kernel's block (kernelTile); smaller tiles keep the elements a thread and narrow the
// warps, so that a lesson-sized block still has two warps (warp-shuffle), or halve the
// elements a thread where fewer than two threads would be left.
struct BlockShape {
  int threads = 0, itemsPerThread = 0, warpLanes = 0;
};
BlockShape blockShape(std::string_view variant, int tileItems, const ScanTarget& target = {});
// The elements of one block of the variant's CUDA kernel (cuda/scan/variants.h): 512 for
// hillis-steele and blelloch-8-per-thread, 1024 for the Blelloch trees, 2048 for warp-shuffle;
// of its GLSL block scan (target.glsl, and always for subgroup): 512.
int kernelTile(std::string_view variant, const ScanTarget& target = {});

// The exclusive scan of `input` by `variant` with blocks of `tileItems` elements (a power
// of two, 2..2048, at most 1024 threads a block), as `target` runs it (subgroup: always the
// GLSL one). Throws std::invalid_argument for a variant without a trace, a bad tile or a bad
// subgroup width.
ScanTrace traceScan(std::string_view variant, std::span<const std::uint32_t> input, int tileItems,
                    const ScanTarget& target = {});

// The conflict degree of one warp's accesses: the most distinct slots one bank serves.
int conflictDegree(std::span<const SharedAccess> warpAccesses);

}  // namespace satdof::lesson
