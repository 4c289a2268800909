# SAT algorithms: one .cu per algorithm, listed by registry.cpp; sat_source.cuh is where
# their kernels read the image from. reduce-then-scan and single-pass are templates on a
# scan policy, instantiated once per scan variant in by_scan/ (one file each).
# Paths are relative to cuda/.
list(APPEND SATDOF_CUDA_SOURCES
  sat/registry.cpp
  sat/rows_transpose_rows.cu
  sat/rows_columns.cu
  sat/single_pass.cu
  sat/reduce_then_scan.cu
  sat/by_scan/kernels_of.cpp
  sat/by_scan/hillis_steele.cu
  sat/by_scan/blelloch.cu
  sat/by_scan/blelloch_conflict_free.cu
  sat/by_scan/blelloch_8_per_thread.cu
  sat/by_scan/warp_shuffle.cu
  sat/by_scan/decoupled_lookback.cu
  sat/by_scan/cub.cu
)
