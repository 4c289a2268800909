// qa/process_memory.h — the process's resident memory, for the soak and the resize storm.
#pragma once

namespace satdof {

// Resident set size in KiB, after handing freed heap pages back to the system (glibc
// keeps them otherwise, which would read as growth).
long residentKiB();

// Under AddressSanitizer freed memory sits in quarantine: resident size says nothing of
// leaks there, and the checks that use it say so instead.
#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kResidentMemoryMeaningful = false;
#else
inline constexpr bool kResidentMemoryMeaningful = true;
#endif

}  // namespace satdof
