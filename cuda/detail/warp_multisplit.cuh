// detail/warp_multisplit.cuh — a warp splits its 32 keys by digit in one step (the
// multi-split of onesweep's tile ranking): the lanes holding the same digit find
// each other, and each lane learns its rank among the warp's keys with that digit.
//
//   matchDigitBallots<Bits>(d)  the lanes whose digit equals this lane's, as a mask: one
//                               ballot per digit bit (the form CUB's onesweep ranks with;
//                               __match_any_sync gives the same mask in one instruction)
//   rankAmongPeers(peers, c)    called by every lane of the warp, each with its own
//                               peers mask and its digit's counter c in shared memory:
//                               returns *c before this round + the peers on lower lanes;
//                               the lowest peer advances *c by the number of peers. Rounds
//                               in order give a stable rank (round, then lane)
#pragma once

#include <cstdint>

#include "detail/warp_scan.cuh"

namespace satdof::detail {

template <int Bits>
__device__ __forceinline__ unsigned matchDigitBallots(std::uint32_t d) {
  unsigned peers = kFullMask;
#pragma unroll
  for (int k = 0; k < Bits; ++k) {
    const bool set = (d >> k) & 1u;
    const unsigned votes = __ballot_sync(kFullMask, set);
    peers &= set ? votes : ~votes;
  }
  return peers;
}

__device__ __forceinline__ std::uint32_t rankAmongPeers(unsigned peers, std::uint32_t* counter) {
  const int lane = static_cast<int>(threadIdx.x) & (kWarpSize - 1);
  const int leader = __ffs(peers) - 1;
  std::uint32_t base = 0;
  if (lane == leader) {
    base = *counter;
    *counter = base + static_cast<std::uint32_t>(__popc(peers));
  }
  const unsigned lanesBelow = (1u << lane) - 1u;
  const std::uint32_t rank =
      __shfl_sync(kFullMask, base, leader) + static_cast<std::uint32_t>(__popc(peers & lanesBelow));
  __syncwarp();  // the counter is read by another leader next round
  return rank;
}

}  // namespace satdof::detail
