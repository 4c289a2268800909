# cmake/Npp.cmake — NPP's headers for the optional library baseline of `satdof bench sat`
# (bench/npp_baseline.cpp). Only the headers are needed at build time: the library is
# opened with dlopen at run time, so NPP is never required, to build or to run.
# Looked for in the CUDA toolkit, then in SATDOF_NPP_ROOT (e.g. the nvidia/cu13 folder of
# an unpacked `pip download nvidia-npp` wheel).
set(SATDOF_NPP_ROOT "" CACHE PATH "Folder holding include/npp.h (optional)")
find_path(SATDOF_NPP_INCLUDE_DIR nppi_statistics_functions.h
  HINTS ${CUDAToolkit_INCLUDE_DIRS} ${SATDOF_NPP_ROOT}/include)
if(SATDOF_NPP_INCLUDE_DIR)
  message(STATUS "NPP headers: ${SATDOF_NPP_INCLUDE_DIR} (bench sat baseline, dlopen at run time)")
else()
  message(STATUS "NPP headers not found: bench sat runs without the NPP baseline")
endif()
