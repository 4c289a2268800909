# Image plumbing around the mapped GL textures (satdof/surface_copy.h). Paths are relative to cuda/.
list(APPEND SATDOF_CUDA_SOURCES image/surface_copy.cu)
