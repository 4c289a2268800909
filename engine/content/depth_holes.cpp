// engine/content/depth_holes.cpp — see depth_holes.h.
#include "engine/content/depth_holes.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace satdof::content {
namespace {

constexpr double kColourSigma = kHoleSameSurfaceDistance / 3.0;  // a neighbour 3 sigma away: another surface
// The least weight a neighbour has (an unlike colour's Gaussian underflows): where every
// neighbour is unlike, their depths still average rather than divide by zero.
constexpr double kWeightFloor = 1e-6;
constexpr double kDiagonal = 0.70710678;  // a diagonal neighbour is sqrt(2) away

}  // namespace

void fillDepthHoles(int width, int height, std::span<const std::uint8_t> rgba, std::span<float> depth,
                    std::span<const std::uint8_t> holes) {
  const std::size_t w = std::size_t(width), h = std::size_t(height), n = w * h;
  std::vector<std::uint8_t> known(n);
  for (std::size_t i = 0; i < n; ++i) known[i] = holes[i] == 0;
  // The round in which a pixel was last queued (0: never), so each is queued once a round.
  std::vector<std::uint32_t> queued(n, 0);
  std::uint32_t round = 1;

  auto forNeighbours = [&](std::size_t i, auto&& f) {
    const std::size_t x = i % w, y = i / w;
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        if ((dx == 0 && dy == 0) || (dx < 0 && x == 0) || (dy < 0 && y == 0) || (dx > 0 && x + 1 == w) ||
            (dy > 0 && y + 1 == h))
          continue;
        const std::size_t j = std::size_t(std::ptrdiff_t(i) + std::ptrdiff_t(dy) * std::ptrdiff_t(w) + dx);
        f(j, dx != 0 && dy != 0);
      }
  };

  // The first ring: every hole pixel beside a reading, in index order.
  std::vector<std::size_t> candidates, deferred;
  for (std::size_t i = 0; i < n; ++i) {
    if (known[i]) continue;
    bool touches = false;
    forNeighbours(i, [&](std::size_t j, bool) { touches = touches || known[j]; });
    if (touches) {
      candidates.push_back(i);
      queued[i] = round;
    }
  }

  struct Fill {
    std::size_t pixel;
    float depth;
  };
  std::vector<Fill> filled;
  bool relaxed = false;  // a stalled round: the best neighbours win whatever their colour
  while (!candidates.empty()) {
    filled.clear();
    for (const std::size_t i : candidates) {
      if (known[i]) continue;
      const std::uint8_t* c = &rgba[i * 4];
      double sum = 0, weights = 0, best = 0;
      forNeighbours(i, [&](std::size_t j, bool diagonal) {
        if (!known[j]) return;
        const std::uint8_t* d = &rgba[j * 4];
        double distance2 = 0;
        for (int k = 0; k < 3; ++k) distance2 += double((int(c[k]) - int(d[k])) * (int(c[k]) - int(d[k])));
        const double alike = std::exp(-distance2 / (2.0 * kColourSigma * kColourSigma));
        best = std::max(best, alike);
        const double weight = (alike + kWeightFloor) * (diagonal ? kDiagonal : 1.0);
        sum += weight * double(depth[j]);
        weights += weight;
      });
      constexpr double kSameSurface = 0.011108996538242306;  // exp(-4.5): 3 sigma, kHoleSameSurfaceDistance
      if (weights > 0 && (relaxed || best >= kSameSurface))
        filled.push_back({i, float(sum / weights)});
      else
        deferred.push_back(i);
    }
    // The round's depths become known together: what a pixel takes never depends on
    // which of its neighbours was visited first.
    for (const Fill& f : filled) {
      depth[f.pixel] = f.depth;
      known[f.pixel] = 1;
    }
    ++round;
    candidates.clear();
    for (const Fill& f : filled)
      forNeighbours(f.pixel, [&](std::size_t j, bool) {
        if (!known[j] && queued[j] != round) {
          queued[j] = round;
          candidates.push_back(j);
        }
      });
    relaxed = false;
    if (candidates.empty()) {  // stalled: the waiting pixels take what lies around them
      for (const std::size_t i : deferred)
        if (!known[i] && queued[i] != round) {
          queued[i] = round;
          candidates.push_back(i);
        }
      deferred.clear();
      relaxed = true;
    }
  }
}

}  // namespace satdof::content
