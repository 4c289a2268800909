# The depth-of-field kernel (satdof/dof.h). Paths are relative to cuda/.
list(APPEND SATDOF_CUDA_SOURCES dof/dof.cu dof/layers.cu dof/reach.cu)
