// tests/reach_test_support.h — a random input of the layered DoF's reach passes, shared by
// the GL and the CUDA tests: sparse random near radii and random tile bounds (0, within
// one tile, several tiles, up to the 256 px limit; at least the tile's own radii, as the
// split's dilated maximum holds), and the reference's result after each pass.
#pragma once

#include <algorithm>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include "satdof/reference/layered_dof.h"

namespace satdof::test {

// Edge sizes, and sizes one off the 16 px tile.
inline constexpr std::pair<int, int> kReachSizes[] = {{1, 1},   {2, 2},   {31, 33}, {32, 32},  {33, 31}, {16, 17},
                                                      {17, 16}, {1, 200}, {200, 1}, {150, 83}, {300, 47}};
inline constexpr int kReachMaxBounds[] = {0, 5, 8, 12, 16, 40, 256};

struct ReachCase {
  reference::LayerSplit split;            // tilesX, tilesY, nearTileRadius
  std::vector<std::int32_t> radius;       // each pixel's near radius
  std::vector<std::int32_t> rows, reach;  // the reference after the rows' pass, after both
};

inline ReachCase randomReachCase(int w, int h, int maxBound, std::mt19937& rng) {
  namespace ref = satdof::reference;
  ReachCase c;
  ref::LayerSplit& split = c.split;
  split.tilesX = (w + ref::kLayerTile - 1) / ref::kLayerTile;
  split.tilesY = (h + ref::kLayerTile - 1) / ref::kLayerTile;
  std::uniform_int_distribution<int> boundOf(0, maxBound);
  for (int i = 0; i < split.tilesX * split.tilesY; ++i) split.nearTileRadius.push_back(boundOf(rng));
  c.radius.assign(std::size_t(w) * h, 0);
  std::uniform_int_distribution<int> radiusOf(1, std::max(1, maxBound));
  std::bernoulli_distribution blurred(0.1);
  for (std::int32_t& r : c.radius) r = blurred(rng) ? radiusOf(rng) : 0;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      std::int32_t& bound = split.nearTileRadius[std::size_t(y / ref::kLayerTile) * split.tilesX + x / ref::kLayerTile];
      bound = std::max(bound, c.radius[std::size_t(y) * w + x]);
    }
  c.rows = ref::reachPass(c.radius, w, h, split, true);
  c.reach = ref::reachPass(c.rows, w, h, split, false);
  return c;
}

}  // namespace satdof::test
