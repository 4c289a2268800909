# Scan variants: one .cu per variant, the shared building blocks are in ../detail/.
# Paths are relative to cuda/ (included from cuda/CMakeLists.txt).
list(APPEND SATDOF_CUDA_SOURCES
  scan/registry.cpp
  scan/blelloch.cu
)
