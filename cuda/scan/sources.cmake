# Scan variants: one .cu per variant, the shared building blocks are in ../detail/.
# Paths are relative to cuda/ (included from cuda/CMakeLists.txt).
list(APPEND SATDOF_CUDA_SOURCES
  scan/registry.cpp
  scan/hillis_steele.cu
  scan/blelloch.cu
  scan/blelloch_conflict_free.cu
  scan/blelloch_8_per_thread.cu
  scan/warp_shuffle.cu
  scan/decoupled_lookback.cu
  scan/cub_scan.cu
)
# CUB's own Hopper scan kernel for 4-byte integers spills 4 bytes, which the library-wide
# -Xptxas=-warn-spills reports; this file holds no kernels of ours, so ptxas warnings are
# silenced for it alone.
set_source_files_properties(${CMAKE_CURRENT_LIST_DIR}/cub_scan.cu PROPERTIES COMPILE_OPTIONS "-Xptxas=-w")
