# Convolution variants: one .cu per variant, shared device helpers in conv_device.cuh.
# Paths are relative to cuda/ (included from cuda/CMakeLists.txt).
list(APPEND SATDOF_CUDA_SOURCES
  conv/registry.cpp
  conv/basic.cu
  conv/constant_memory.cu
  conv/tiled_halo.cu
  conv/tiled_cached_halo.cu
  conv/separable.cu
  conv/sat_box.cu
)
