# Radix-sort variants: one .cu per variant. Paths relative to cuda/.
list(APPEND SATDOF_CUDA_SOURCES
  sort/registry.cpp
  sort/split_scan.cu
  sort/radix4.cu
  sort/onesweep.cu
  sort/cub_sort.cu
)
# CUB's own kernels may spill; this file holds no kernels of ours (see scan/sources.cmake).
set_source_files_properties(${CMAKE_CURRENT_LIST_DIR}/cub_sort.cu PROPERTIES COMPILE_OPTIONS "-Xptxas=-w")
