// engine/content/depth_holes.h — a depth map's holes (pixels with no reading: a sensor's 0, a
// float map's NaN) filled with the depth of the surfaces around them, so that the DoF sees
// a hole as part of its surroundings: never a patch at the nearest distance, a blurred
// blotch or a bokeh sprite.
//
// The fill grows inwards from each hole's border, one ring of pixels a round: a hole pixel
// takes the mean depth of its known 8-neighbours (read or already filled), each weighted
// by how alike its colour in the photo is to the hole pixel's (a Gaussian of their sRGB
// distance). A pixel whose known neighbours are all of another colour (across an object's
// edge) waits for a neighbour of its own colour to be filled first; only when no pixel
// can take a depth from its own colour does the most alike neighbour's side win. Each
// pixel is looked at most once per neighbour that is filled, so the work is a small
// constant per pixel, and the rounds make the result independent of any visiting order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace satdof::content {

// Colours further apart than this (the Euclidean distance of their sRGB bytes) are taken
// for different surfaces: a hole pixel waits for a nearer colour while one may come.
inline constexpr float kHoleSameSurfaceDistance = 24.0f;

// `rgba`: width x height RGBA8 pixels (alpha ignored); `depth`: width x height distances,
// those where `holes` is non-zero replaced; `holes`: one byte a pixel. Rows in any order,
// the same for all three. Needs at least one pixel that is no hole (unless none is).
void fillDepthHoles(int width, int height, std::span<const std::uint8_t> rgba, std::span<float> depth,
                    std::span<const std::uint8_t> holes);

}  // namespace satdof::content
