// scan/blelloch_8_per_thread.cu — `blelloch-8-per-thread`: more work per thread, GPU Gems 3
// 39.2.5.
//
// Each of 64 threads owns 8 consecutive elements of a 512-element tile and loads them
// as two 16-byte vectors (uint4 / float4). It reduces them in registers, the padded
// Blelloch tree then scans only the 64 per-thread totals (1/8 of the shared-memory
// traffic and barriers of the two-per-thread tree), and every thread rescans its 8
// registers seeded with its exclusive prefix. By Brent's theorem the sequential part
// costs O(n / p) while the tree stays O(log p) deep.
//
// Rows longer than a tile go through reduce-then-scan (detail/hierarchy.cuh): a first
// pass only reduces each tile, the tile sums are scanned, and the second pass rescans
// each tile seeded with its sum, so the uniform add happens in registers and the data
// moves 3n words instead of the chapter's 4n.
//
// Vector loads need a 16-byte aligned, complete run. A tile qualifies when it is full
// and its row start is aligned (pitch a multiple of 4 and a 16-byte aligned base); the
// ragged last tile and rows shifted by an odd pitch take the scalar path.
#include "scan/blelloch_8_per_thread.cuh"
#include "scan/variants.h"

namespace satdof::detail {
namespace {

template <class T>
using Blelloch8Tile = Blelloch8TileOf<T, kBlelloch8Tuning.threadsPerBlock>;
static_assert(Blelloch8Tile<float>::kItems == kBlelloch8Tuning.itemsPerThread);

}  // namespace

std::size_t blelloch8ScratchBytes(const ScanArgs& args) {
  return hierarchyVariantScratchBytes<Blelloch8Tile<float>::kTileItems>(args);
}

cudaError_t blelloch8Launch(const ScanArgs& args, void* scratch, std::size_t scratchBytes,
                            cudaStream_t stream) {
  return launchHierarchy<Blelloch8Tile, HierarchyOrder::ReduceThenScan>(args, scratch,
                                                                        scratchBytes, stream);
}

}  // namespace satdof::detail
