// engine/content/content.h — what the frame shows, from one of three sources:
//   built-in   a scene of the registry (engine/scene/scenes.h: teapots, sharp-front, blurred-front)
//   glTF       a .gltf / .glb file (gltf_scene.h): meshes drawn by the scene pass
//   photo      an RGB-D photo (photo.h): its colour and depth written into the same targets
// Each gives the scene colour and linear depth the frame consumes, so the SAT, DoF, bokeh,
// views, comparisons and race run on it unchanged. Loaded before any window (--scene,
// --photo/--depth; a bad file is one line and exit 2), or from files dropped on the
// window (dropRequest: the same loaders, the same lines, shown in the panel).
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "engine/content/depth_span.h"
#include "engine/content/photo.h"
#include "engine/content/stage.h"
#include "engine/scene/scene.h"

namespace satdof::content {

enum class ContentKind { BuiltIn, Gltf, Photo };

// What to load, as the command line (or a drop) names it.
struct ContentRequest {
  std::string scene = "teapots";      // a built-in scene's name, or a .gltf / .glb file
  std::filesystem::path photo, depth;  // both, or neither
  DepthMapping depthMapping;
  // A glTF model's stage (stage.h). Off here: the file as it is; the app passes --stage
  // (its default, auto, declared with the option in settings/live_options.cpp).
  StageMode stage = StageMode::Off;
};

struct Content {
  ContentKind kind = ContentKind::BuiltIn;
  std::string name;                   // the scene's name, or the file's name
  std::optional<scene::Scene> scene;  // built-in and glTF
  std::optional<Photo> photo;
  // Where the focus starts, chosen from the content's own depth (focusOnOpen below):
  //   glTF      the view depth of the surface under the image's centre (engine/scene/raycast.h;
  //             the bounds' centre where no surface is there), range the bounds' diagonal
  //   photo     its median distance, range the larger of the distances from the median to
  //             its nearest and its farthest pixel
  //   built-in  the scene's suggestion (its second-nearest teapot), the default range
  // The command line's --focal and --focal-range win over these for the content it names;
  // content dropped on the window always opens at its own. The focus is found before a stage
// is added: on the model, never on the ground.
  float focalDistance = 1;
  float focalRange = 6;               // the linear camera's distance to full blur
  // The distances it holds, in its units (depth_span.h): a photo's nearest and farthest
  // depth read, in metres, and its holes; a glTF's bounds' nearest and farthest view depth
  // from its camera (its near plane where the camera is inside them), in its own units;
  // a built-in scene's: not known (the panel's declared ranges), in metres.
  DepthSpan depthSpan;
  std::vector<std::string> summary;   // the panel's lines: file, triangles, bounds, size, depth
  std::vector<std::string> warnings;  // what the file holds that is not drawn, one line each
                                      // naming the file (gltf_scene.h); printed once, shown
  // A glTF's stage (stage.h), made whether or not it is shown, so that it can be switched
  // on and off live; whether `scene` holds it now; the line that says so and why (built-in
  // scenes and photos: none, their own surroundings), without "stage: ".
  std::optional<Stage> stage;
  bool stageShown = false;
  std::string stageNote;
};

// True for a --scene value that names a file rather than a built-in scene (.gltf, .glb).
bool isSceneFile(const std::string& scene);

// Throws ContentError (content_error.h) for a bad file; a built-in name must exist (the
// command line checks it).
Content loadContent(const ContentRequest& request);

// Files dropped on the window: one .gltf / .glb; or a colour image, with its depth map
// beside it (NAME_depth.png, NAME.depth.png, or .exr; a depth map dropped alone finds its
// photo the same way: NAME.png, .jpg, .jpeg); or a photo and its depth map together.
// `mapping` is the run's --depth-encoding and --depth-range. Throws ContentError.
ContentRequest dropRequest(const std::vector<std::filesystem::path>& files, const DepthMapping& mapping);

}  // namespace satdof::content
