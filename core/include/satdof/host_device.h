// satdof/host_device.h — SATDOF_HOST_DEVICE: __host__ __device__ under nvcc, nothing in plain
// C++, for the functions that the CPU reference, the CUDA kernels and the lesson's traces
// share (predicate.h, scan_tree.h, reference/coc.h and the headers that use its SATDOF_HD).
#pragma once

#if defined(__CUDACC__)
#define SATDOF_HOST_DEVICE __host__ __device__
#else
#define SATDOF_HOST_DEVICE
#endif
