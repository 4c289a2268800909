# Stream-compaction variants: one .cu per variant. Paths relative to cuda/.
list(APPEND SATDOF_CUDA_SOURCES
  compact/registry.cpp
  compact/scan_scatter.cu
  compact/single_pass.cu
  compact/cub_select.cu
)
# CUB's own kernels may spill; this file holds no kernels of ours (see scan/sources.cmake).
set_source_files_properties(${CMAKE_CURRENT_LIST_DIR}/cub_select.cu PROPERTIES COMPILE_OPTIONS "-Xptxas=-w")
