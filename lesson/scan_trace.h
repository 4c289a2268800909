// lesson/scan_trace.h — a block scan followed step by step, from the index arithmetic its
// CUDA kernel runs (satdof/scan_tree.h): after each step the array, the threads that
// worked, every shared-memory access with its bank, the step's bank-conflict degree, and
// the running count of additions against the chapter's formulas. A row longer than one
// block goes through the multi-block hierarchy as the kernels do (GPU Gems 3, 39.2.4):
// every block scans its tile, the block sums are scanned, and a uniform add follows.
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

struct TraceStep {
  std::string phase;  // "load", "up-sweep", "clear root", "down-sweep", "step", "store",
                      // "block sums", "scan of the block sums", "uniform add"
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
};

struct ScanTrace {
  std::string variant;
  int n = 0;           // elements
  int tileItems = 0;   // elements per block
  int threads = 0;     // threads per block
  int blocks = 0;
  std::vector<std::uint32_t> input;
  std::vector<std::uint32_t> result;  // the exclusive scan the steps end with
  std::vector<TraceStep> steps;
  long long additions = 0;        // all steps, all blocks
  int treeSteps = 0;              // the block scan's synchronised steps (one block)
  long long extraWavefronts = 0;  // all steps: what Nsight Compute counts as bank conflicts,
                                  // for the source's 32-bit accesses (see adjacentPairs)
  bool adjacentPairs = false;     // any step's
  // The chapter's counts for one block of tileItems elements (a power of two), and the
  // formula they come from.
  long long formulaAdditions = 0;
  int formulaSteps = 0;
  std::string formula;
};

// The variants a trace follows (their names in the CUDA scan registry).
std::vector<std::string> tracedScanVariants();
// Why `variant` has no trace (empty: it has one).
std::string whyNoTrace(std::string_view variant);

// The exclusive scan of `input` by `variant` with blocks of `tileItems` elements (a power
// of two, 2..1024; the kernels' own tile is 512 for hillis-steele, 1024 for the Blelloch
// trees). Throws std::invalid_argument for a variant without a trace or a bad tile.
ScanTrace traceScan(std::string_view variant, std::span<const std::uint32_t> input, int tileItems);

// The conflict degree of one warp's accesses: the most distinct slots one bank serves.
int conflictDegree(std::span<const SharedAccess> warpAccesses);

}  // namespace satdof::lesson
