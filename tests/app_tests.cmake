# The satdof executable end to end (label gl: needs EGL, or Xvfb for the window test).
satdof_test(test_app gl test_app.cpp)
find_library(STB_TEST_LIBRARY NAMES libstb.a stb REQUIRED)
# satdof_app: the registries (every entry selected in turn) and the scene (where the
# teapots land on screen), the same code the binary runs.
target_link_libraries(test_app PRIVATE ${STB_TEST_LIBRARY} satdof_app)
target_compile_definitions(test_app PRIVATE SATDOF_BINARY="$<TARGET_FILE:satdof>"
                                            SATDOF_TEST_OUT="${CMAKE_BINARY_DIR}/test-output")
add_dependencies(test_app satdof satdof_shaders)
