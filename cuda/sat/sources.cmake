# SAT algorithms: one .cu per algorithm, listed by registry.cpp; sat_source.cuh is where
# their kernels read the image from. Paths are relative to cuda/.
list(APPEND SATDOF_CUDA_SOURCES
  sat/registry.cpp
  sat/rows_transpose_rows.cu
  sat/rows_columns.cu
  sat/single_pass.cu
  sat/reduce_then_scan.cu
)
