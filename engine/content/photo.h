// engine/content/photo.h — an RGB-D photo: its colour and the linear view distance of every
// pixel in metres, the same depth the scene pass writes and the circle of confusion reads
// (satdof/reference/coc.h), so that the SAT, DoF and bokeh stages take it unchanged.
//
// How a depth map's values become distances (--depth-encoding, --depth-range NEAR,FAR,
// --depth-scale UNITS_PER_METRE):
//   scale     the value / UNITS_PER_METRE is the distance in metres (a sensor's 16-bit PNG:
//             5000 for TUM-style maps, 1000 for millimetres); a metric map, no range
//   metric    a float (EXR) map holds metres; an integer PNG's 0..max maps linearly onto
//             NEAR..FAR (black near, white far)
//   inverse   the value is proportional to 1 / distance (disparity: white near): an integer
//             PNG's 0..max, or a float map's 0..its largest value, maps linearly onto
//             1/FAR..1/NEAR
// Holes, pixels with no reading (--depth-invalid VALUE, or none):
//   integer PNG  the value VALUE; by default 0 in a map in units per metre (a sensor writes 0
//                where it has no reading) and none in a normalised one (there every value is
//                a distance: black is NEAR, or FAR in an inverse map)
//   float map    NaN, infinite, and values no distance has (metric: zero or negative;
//                inverse: negative), and VALUE where one is given
// A hole takes the depth of the surfaces around it (depth_holes.h); a map that is nothing
// but holes is refused.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "satdof/reference/image.h"

namespace satdof::content {

enum class DepthEncoding { Metric, Inverse };

struct DepthMapping {
  DepthEncoding encoding = DepthEncoding::Metric;
  float nearMetres = 1.0f, farMetres = 10.0f;
  bool rangeGiven = false;  // --depth-range named: refused for a map that holds metres
  float unitsPerMetre = 0;  // --depth-scale: value / this = metres; 0: none (see above)
  // --depth-invalid: the value that marks a hole (nullopt: the default above); noHoleValue:
  // `none`, no value does (a float map's NaN and non-distances are holes still).
  std::optional<float> holeValue = std::nullopt;
  bool noHoleValue = false;
};
inline constexpr const char* kDefaultDepthEncoding = "metric";
inline constexpr const char* kDefaultDepthRange = "1,10";

struct Photo {
  // Both bottom-up (row 0 the photo's bottom row), as GL stores textures.
  reference::ImageRgba8 colour;  // sRGB bytes, as the scene pass writes them; alpha 255
  reference::ImageR32F depth;    // metres, > 0 and finite; holes filled from around them
  std::vector<std::uint8_t> holes;  // 1 where the map had no reading (rows as `depth`)
  std::size_t holeCount = 0;
  // "16-bit PNG, inverse, 1..10 m", "16-bit PNG, 5000 units/m, 17.2 % holes filled"
  std::string depthDescription;
  float nearest = 0, farthest = 0, median = 0;  // of the depths read (not the filled), metres
  // The share of its pixels that were holes, 0..1.
  float holeShare() const { return holes.empty() ? 0.0f : float(double(holeCount) / double(holes.size())); }
};

// Throws ContentError naming the file and the problem.
Photo loadPhoto(const std::filesystem::path& colour, const std::filesystem::path& depth, const DepthMapping& mapping);

}  // namespace satdof::content
