// shaders/compute/scan_index.glsl — the index arithmetic of the block scans, written once for
// both sides: the GLSL block scans (block_scan_<name>.glsl, blelloch_tree.glsl) include it as
// "compute/scan_index.glsl", and core/include/satdof/scan_tree.h includes it by its relative
// path ("../../../shaders/compute/scan_index.glsl") inside namespace satdof::scan_tree, for
// the CUDA kernels and the lesson's traces. It lives with the shaders because the shader
// loader resolves includes in the shaders folder only (and satdof_shaders copies that folder
// next to the binary); the C++ side can reach any path.
//
// It is written in the common subset of C++ and GLSL: no includes, no namespaces, no default
// arguments, no structs; functions of the index type SATDOF_SCAN_INDEX under the qualifiers
// SATDOF_SCAN_FN. scan_tree.h defines them before including this file (`int` and
// `SATDOF_HOST_DEVICE constexpr`: the kernels' signed arithmetic, token for token what they
// compiled before); in GLSL they default to `uint` and nothing. Literals are plain: GLSL
// 4.50 converts an int literal to uint where the other operand is a uint.
//
// GLSL has no constant-expression function calls: a shared array's size stays written out in
// the shader, next to the function it must agree with (bankPaddedSize).
#ifndef SATDOF_SCAN_INDEX_GLSL
#define SATDOF_SCAN_INDEX_GLSL

#ifndef SATDOF_SCAN_FN
#define SATDOF_SCAN_FN
#define SATDOF_SCAN_INDEX uint
#define SATDOF_SCAN_CONST const
#endif

// ---- Shared-memory banks and the chapter's padding (GPU Gems 3, 39.2.3) -----------------
// 32 banks of 4 bytes: word w is in bank w % 32. One pad word after every 32 words shifts
// index n to n + (n >> 5) (bankPaddedSlot); n padded words need bankPaddedSize(n) slots.
SATDOF_SCAN_CONST SATDOF_SCAN_INDEX kLogNumBanks = 5;
SATDOF_SCAN_CONST SATDOF_SCAN_INDEX kNumBanks = 1 << kLogNumBanks;

SATDOF_SCAN_FN SATDOF_SCAN_INDEX conflictFreeOffset(SATDOF_SCAN_INDEX n) { return n >> kLogNumBanks; }
SATDOF_SCAN_FN SATDOF_SCAN_INDEX bankOf(SATDOF_SCAN_INDEX word) { return word & (kNumBanks - 1); }
SATDOF_SCAN_FN SATDOF_SCAN_INDEX bankPaddedSlot(SATDOF_SCAN_INDEX i) { return i + conflictFreeOffset(i); }
SATDOF_SCAN_FN SATDOF_SCAN_INDEX bankPaddedSize(SATDOF_SCAN_INDEX n) { return n + conflictFreeOffset(n - 1) + 1; }

// ---- Hillis-Steele (39.2.1): step `offset` (1, 2, 4, ...) -------------------------------
// Thread t adds the element `offset` places to its left when t >= offset; two buffers of n
// swap roles every step (buffer b at b * n). The buffer that holds the result after the
// last step of n:
SATDOF_SCAN_FN SATDOF_SCAN_INDEX hillisSteeleResultBuffer(SATDOF_SCAN_INDEX n) {
  SATDOF_SCAN_INDEX which = 0;  // (`buffer` is a GLSL keyword)
  for (SATDOF_SCAN_INDEX offset = 1; offset < n; offset <<= 1) which = 1 - which;
  return which;
}
SATDOF_SCAN_FN bool hillisSteeleAdds(SATDOF_SCAN_INDEX thread, SATDOF_SCAN_INDEX offset) { return thread >= offset; }
SATDOF_SCAN_FN SATDOF_SCAN_INDEX hillisSteeleSource(SATDOF_SCAN_INDEX thread, SATDOF_SCAN_INDEX offset) {
  return thread - offset;
}
// The buffer a step writes when it reads the one at word `fromBase` (0 or n): the other of
// the two buffers of n words, as a word offset.
SATDOF_SCAN_FN SATDOF_SCAN_INDEX hillisSteeleOtherBuffer(SATDOF_SCAN_INDEX fromBase, SATDOF_SCAN_INDEX n) {
  return n - fromBase;
}

// ---- Blelloch (39.2.2): the tree's nodes --------------------------------------------------
// At the level where nodes are `offset` apart, thread t < d (d = n / 2 / offset) joins the
// left child offset(2t+1)-1 to the right one offset(2t+2)-1: the up-sweep adds left into
// right; the down-sweep hands the right's prefix to the left and prefix + left to the right.
SATDOF_SCAN_FN SATDOF_SCAN_INDEX blellochLeft(SATDOF_SCAN_INDEX offset, SATDOF_SCAN_INDEX thread) {
  return offset * (2 * thread + 1) - 1;
}
SATDOF_SCAN_FN SATDOF_SCAN_INDEX blellochRight(SATDOF_SCAN_INDEX offset, SATDOF_SCAN_INDEX thread) {
  return offset * (2 * thread + 2) - 1;
}

// ---- Which elements a thread holds --------------------------------------------------------
// Its k-th (k = 0, 1) of two: adjacent pairs (2t, 2t+1), as the chapter first writes it, or
// one from each half of an n-element tile (t, t + n/2), so that a warp's shared stores are
// unit-stride.
SATDOF_SCAN_FN SATDOF_SCAN_INDEX adjacentPairsElement(SATDOF_SCAN_INDEX thread, SATDOF_SCAN_INDEX k) {
  return 2 * thread + k;
}
SATDOF_SCAN_FN SATDOF_SCAN_INDEX tileHalvesElement(SATDOF_SCAN_INDEX thread, SATDOF_SCAN_INDEX k, SATDOF_SCAN_INDEX tileItems) {
  return thread + k * (tileItems / 2);
}
// More work per thread (39.2.5), a blocked arrangement: thread t holds `items` consecutive
// elements, blockedFirst(t, items) + 0 .. items - 1.
SATDOF_SCAN_FN SATDOF_SCAN_INDEX blockedFirst(SATDOF_SCAN_INDEX thread, SATDOF_SCAN_INDEX items) { return thread * items; }

// ---- Warps (CUDA) and subgroups (GLSL) ----------------------------------------------------
// Thread t is lane t % lanes of warp t / lanes; threadOf is the inverse (GLSL numbers an
// invocation by its subgroup and its invocation within it).
SATDOF_SCAN_FN SATDOF_SCAN_INDEX laneOf(SATDOF_SCAN_INDEX thread, SATDOF_SCAN_INDEX lanes) { return thread % lanes; }
SATDOF_SCAN_FN SATDOF_SCAN_INDEX warpOf(SATDOF_SCAN_INDEX thread, SATDOF_SCAN_INDEX lanes) { return thread / lanes; }
SATDOF_SCAN_FN SATDOF_SCAN_INDEX threadOf(SATDOF_SCAN_INDEX warp, SATDOF_SCAN_INDEX lane, SATDOF_SCAN_INDEX lanes) {
  return warp * lanes + lane;
}

// The warp (subgroup) totals in shared memory: the last lane of warp w, holding the warp's
// inclusive total, writes it to slot w; lane l of the first warp reads slot l to scan them.
// CUDA's warp-shuffle writes the scanned totals back inclusive and a warp w > 0 reads slot
// w - 1; GLSL's subgroup scan writes them back exclusive and subgroup s reads slot s.
SATDOF_SCAN_FN bool writesWarpTotal(SATDOF_SCAN_INDEX lane, SATDOF_SCAN_INDEX lanes) { return lane == lanes - 1; }
SATDOF_SCAN_FN SATDOF_SCAN_INDEX warpTotalSlot(SATDOF_SCAN_INDEX warp) { return warp; }
SATDOF_SCAN_FN SATDOF_SCAN_INDEX warpsBeforeSlot(SATDOF_SCAN_INDEX warp) { return warp - 1; }

#endif  // SATDOF_SCAN_INDEX_GLSL
