// app/content/photo.h — an RGB-D photo: its colour and the linear view distance of every
// pixel in metres, the same depth the scene pass writes and the circle of confusion reads
// (satdof/reference/coc.h), so that the SAT, DoF and bokeh stages take it unchanged.
//
// How a depth map's values become distances (--depth-encoding, --depth-range NEAR,FAR):
//   metric    a float (EXR) map holds metres; an integer PNG's 0..max maps linearly onto
//             NEAR..FAR (black near, white far)
//   inverse   the value is proportional to 1 / distance (disparity: white near): an integer
//             PNG's 0..max, or a float map's 0..its largest value, maps linearly onto
//             1/FAR..1/NEAR
// A float map's values must be finite; metric ones positive, inverse ones not negative.
#pragma once

#include <filesystem>
#include <string>

#include "satdof/reference/image.h"

namespace satdof::content {

enum class DepthEncoding { Metric, Inverse };

struct DepthMapping {
  DepthEncoding encoding = DepthEncoding::Metric;
  float nearMetres = 1.0f, farMetres = 10.0f;
  bool rangeGiven = false;  // --depth-range named: refused for a map that holds metres
};
inline constexpr const char* kDefaultDepthEncoding = "metric";
inline constexpr const char* kDefaultDepthRange = "1,10";

struct Photo {
  // Both bottom-up (row 0 the photo's bottom row), as GL stores textures.
  reference::ImageRgba8 colour;  // sRGB bytes, as the scene pass writes them; alpha 255
  reference::ImageR32F depth;    // metres, > 0 and finite
  std::string depthDescription;  // "16-bit PNG, inverse, 1..10 m"
  float nearest = 0, farthest = 0, median = 0;  // of the depth, metres
};

// Throws ContentError naming the file and the problem.
Photo loadPhoto(const std::filesystem::path& colour, const std::filesystem::path& depth, const DepthMapping& mapping);

}  // namespace satdof::content
