// Reference bokeh highlights (see satdof/reference/bokeh.h).
#include "satdof/reference/bokeh.h"

#include <algorithm>
#include <cstring>
#include <numeric>

namespace satdof::reference {

BokehList bokehHighlights(const ImageRgba8& colour, const ImageR32F& depth, const CocRamp& ramp,
                          const BokehSettings& settings) {
  BokehList list;
  std::vector<std::uint32_t> selected;
  const auto linearLuminance = [&](int x, int y) {
    const std::uint8_t* c = colour.at(x, y);
    return bokehLinearLuminance(c[0], c[1], c[2]);
  };
  for (int y = 0; y < colour.height; ++y)
    for (int x = 0; x < colour.width; ++x) {
      const std::uint8_t* c = colour.at(x, y);
      if (bokehLuminance(c[0], c[1], c[2]) <= settings.threshold) continue;
      if (cocRadius(depth.at(x, y), ramp) < settings.minRadius) continue;
      if (!bokehOutshines(x, y, colour.width, colour.height, settings.contrast, linearLuminance)) continue;
      selected.push_back(std::uint32_t(y) * std::uint32_t(colour.width) + std::uint32_t(x));
    }
  list.found = std::uint32_t(selected.size());
  selected.resize(std::min<std::size_t>(selected.size(), settings.maxSprites));
  const auto key = [&](std::uint32_t i) {
    std::uint32_t bits;
    std::memcpy(&bits, &depth.pixels[i], sizeof bits);
    return bokehDepthKey(bits);
  };
  std::stable_sort(selected.begin(), selected.end(), [&](std::uint32_t a, std::uint32_t b) { return key(a) < key(b); });
  for (const std::uint32_t i : selected) {
    const int x = int(i % std::uint32_t(colour.width)), y = int(i / std::uint32_t(colour.width));
    const std::uint8_t* c = colour.at(x, y);
    BokehSprite s{};
    s.x = float(x) + 0.5f;
    s.y = float(y) + 0.5f;
    s.depth = depth.at(x, y);
    s.radius = float(cocRadius(s.depth, ramp));
    s.rgba = std::uint32_t(c[0]) | std::uint32_t(c[1]) << 8 | std::uint32_t(c[2]) << 16 | 255u << 24;
    list.sprites.push_back(s);
  }
  return list;
}

}  // namespace satdof::reference
