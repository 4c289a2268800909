# fuzz/project_include.cmake — how the `fuzz` preset adds fuzz/ to the build without a
# line in the top-level CMakeLists.txt: the preset names this file as
# CMAKE_PROJECT_INCLUDE, which CMake reads at the end of project(). Nothing happens
# unless SATDOF_FUZZ is ON.
if(SATDOF_FUZZ)
  add_subdirectory(${CMAKE_CURRENT_LIST_DIR} ${CMAKE_BINARY_DIR}/fuzz)
endif()
