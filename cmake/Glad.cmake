# Generate the GL 4.5 core + EGL 1.5 loader at build time with Debian's python3-glad.
# --reproducible uses the specifications bundled with the package (no network).
# All extensions are kept: the EGL device extensions are needed for headless rendering.
find_program(GLAD_EXECUTABLE glad REQUIRED)
set(GLAD_OUT ${CMAKE_BINARY_DIR}/glad)
set(GLAD_SOURCES ${GLAD_OUT}/src/gl.c ${GLAD_OUT}/src/egl.c)
add_custom_command(
  OUTPUT ${GLAD_SOURCES} ${GLAD_OUT}/include/glad/gl.h ${GLAD_OUT}/include/glad/egl.h
  COMMAND ${GLAD_EXECUTABLE} --quiet --reproducible --api gl:core=4.5,egl=1.5
          --out-path ${GLAD_OUT} c --loader
  COMMENT "Generating the GL/EGL loader with glad"
  VERBATIM)
add_library(glad STATIC ${GLAD_SOURCES})
target_include_directories(glad SYSTEM PUBLIC ${GLAD_OUT}/include)
target_link_libraries(glad PUBLIC ${CMAKE_DL_LIBS})
set_target_properties(glad PROPERTIES POSITION_INDEPENDENT_CODE ON)
