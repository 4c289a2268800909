# Scan variants: one .cu per variant, the shared building blocks are in ../detail/.
# Paths are relative to cuda/ (included from cuda/CMakeLists.txt).
list(APPEND SATDOF_CUDA_SOURCES
  scan/registry.cpp
  scan/hillis_steele.cu
  scan/blelloch.cu
  scan/blelloch_conflict_free.cu
  scan/blelloch_8_per_thread.cu
  scan/warp_shuffle.cu
)
