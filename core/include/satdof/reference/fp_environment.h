// satdof/reference/fp_environment.h — the reference's float arithmetic in IEEE's default
// rounding (to nearest, ties to even), whatever state the calling thread is in.
//
// The GPUs round every float operation and conversion of the frame to nearest by
// construction (CUDA's _rn intrinsics, GLSL's operations), while a host thread's rounding
// mode is state (MXCSR on x86-64) that any library loaded into the process may change and
// leave changed. A reference computed in another mode would disagree with the GPUs on
// every entry or product that rounds: float SAT entries above 2^24, box sums, the ramp.
#pragma once

#include <cfenv>

#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#endif

namespace satdof::reference {

// Whether this thread's float operations and conversions round to nearest: on x86-64
// MXCSR's rounding control (glibc's fegetround() reads only the x87 control word), else
// fegetround().
inline bool roundsToNearest() {
#if defined(__x86_64__) || defined(__i386__)
  return (_mm_getcsr() & 0x6000u) == 0;
#else
  return std::fegetround() == FE_TONEAREST;
#endif
}

// For its lifetime this thread rounds to nearest; the mode it had comes back after.
class RoundToNearest {
 public:
  RoundToNearest() : changed_(!roundsToNearest()) {
    if (!changed_) return;
#if defined(__x86_64__) || defined(__i386__)
    saved_ = _mm_getcsr();
    _mm_setcsr(saved_ & ~0x6000u);
#else
    saved_ = unsigned(std::fegetround());
    std::fesetround(FE_TONEAREST);
#endif
  }
  ~RoundToNearest() {
    if (!changed_) return;
#if defined(__x86_64__) || defined(__i386__)
    _mm_setcsr(saved_);
#else
    std::fesetround(int(saved_));
#endif
  }
  RoundToNearest(const RoundToNearest&) = delete;
  RoundToNearest& operator=(const RoundToNearest&) = delete;

 private:
  bool changed_;
  unsigned saved_ = 0;  // MXCSR, or fegetround()'s mode
};

}  // namespace satdof::reference
