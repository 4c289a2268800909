# The satdof executable end to end (label gl: needs EGL, or Xvfb for the window tests).
find_library(STB_TEST_LIBRARY NAMES libstb.a stb REQUIRED)
function(satdof_app_test name)
  satdof_test(${name} gl ${ARGN})
  target_link_libraries(${name} PRIVATE ${STB_TEST_LIBRARY})
  target_compile_definitions(${name} PRIVATE SATDOF_BINARY="$<TARGET_FILE:satdof>"
                                             SATDOF_TEST_OUT="${CMAKE_BINARY_DIR}/test-output")
  add_dependencies(${name} satdof satdof_shaders)
endfunction()

satdof_app_test(test_app test_app.cpp)
target_link_libraries(test_app PRIVATE satdof_scene)  # where the lamps land on screen
# The window a user drives. satdof_app: the registries (every entry selected in turn) and
# the scene (where the teapots land on screen), the same code the binary runs.
satdof_app_test(test_app_window test_app_window.cpp)
target_link_libraries(test_app_window PRIVATE satdof_app)
satdof_app_test(test_race test_race.cpp)
target_link_libraries(test_race PRIVATE satdof_app)  # an in-process race, stopped and ended
satdof_app_test(test_float_format_frames test_float_format_frames.cpp)  # float formats: every backend's frame
target_link_libraries(test_float_format_frames PRIVATE satdof_app)
# The window's input at a slow frame rate (xdotool's synthetic events under Xvfb).
satdof_app_test(test_app_input test_app_input.cpp)
target_link_libraries(test_app_input PRIVATE satdof_app)
# The user's content (glTF scenes, RGB-D photos), files made by the test (content_files.h).
satdof_app_test(test_app_content test_app_content.cpp)
target_link_libraries(test_app_content PRIVATE satdof_content_files)
# The scene's own units, repeatable headless runs, a sensor's depth map in units per metre.
satdof_app_test(test_app_units test_app_units.cpp)
target_link_libraries(test_app_units PRIVATE satdof_content_files)
# Hostile and careless files of every class, through the real binary.
satdof_app_test(test_hostile_inputs test_hostile_inputs.cpp)
target_link_libraries(test_hostile_inputs PRIVATE satdof_content_files)
# The stage under a lone glTF model: the binary's runs, and an app in process for the frame's
# bokeh selection (satdof_app).
satdof_app_test(test_app_stage test_app_stage.cpp)
target_link_libraries(test_app_stage PRIVATE satdof_app satdof_content_files)
# The holes view: an RGB-D photo with holes at known pixels (content_files.h), the binary's
# --view holes on the cpu and gl-compute backends.
satdof_app_test(test_app_holes test_app_holes.cpp)
target_link_libraries(test_app_holes PRIVATE satdof_content_files)
# `satdof lesson scan`: pictures, counts, refusals (no GL needed, labelled with the app's).
satdof_app_test(test_app_lesson test_app_lesson.cpp)
add_subdirectory(add_one_more)  # one more of each kind, from that folder alone
