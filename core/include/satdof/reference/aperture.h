// satdof/reference/aperture.h — the shape a pixel of blur radius r is averaged over, read
// from the SAT as a few boxes (four reads each). One definition for the CPU reference, the
// CUDA DoF kernel (this header compiles as device code) and, line for line, the GLSL
// include shaders/aperture.glsl.
//
//   box   the (2r+1)^2 square: one box
//   disc  the pixels within r of the centre (x^2 + y^2 <= r^2, about pi r^2 of them)
//         approximated by kApertureBoxes = 2 * kDiscPairs + 1 non-overlapping boxes: a
//         stack of horizontal slabs symmetric about the centre row, a central slab
//         |dy| <= e0 and pairs e(j-1) < |dy| <= e(j) above and below it. The edges are
//         fixed fractions of r, rounded (discEdgeThousandths), each at most r - (pairs - j) so that
//         a small disc keeps one row a slab (exact for r <= kDiscPairs); a slab's half-width
//         is the disc's at its middle row, isqrt(r^2 - y^2), the half-width that minimises
//         the slab's difference to the disc. Slabs that a small r leaves empty are skipped;
//         r = 0 is the pixel alone.
// The mean is the boxes' sums added in the format's arithmetic (box_mean.h, SatSums), in
// the order of their index, divided by the union's exact pixel count (each box clipped to
// the image): all integer geometry, so the CPU, GLSL and CUDA read the same pixels and
// give the same bytes. docs/measurements/llvmpipe-disc-aperture.txt: the difference to
// the disc for 1, 3, 5 and 7 boxes, and what each scores against a lens.
#pragma once

#include <cstdint>

#include "satdof/reference/box_mean.h"
#include "satdof/reference/coc.h"

namespace satdof::reference {

inline constexpr int kDiscPairs = 2;                      // slabs above (and below) the central one
inline constexpr int kApertureBoxes = 2 * kDiscPairs + 1;  // the most boxes an aperture reads

// The slab edges as thousandths of r for 0..kMaxDiscPairs pairs (1, 3, 5, 7 boxes),
// outermost last: each set the one of least mean difference to the disc over r = 1..60
// found on a grid of 0.025 (bench/disc_shapes.cpp measures them). A table written as a
// switch, so that device code keeps it in registers (an array would live in local memory).
inline constexpr int kMaxDiscPairs = 3;
SATDOF_HD inline int discEdgeThousandths(int pairs, int j) {
  switch (pairs) {
    case 0: return 850;
    case 1: return j == 0 ? 625 : 925;
    case 2: return j == 0 ? 500 : j == 1 ? 750 : 925;
    default: return j == 0 ? 425 : j == 1 ? 675 : j == 2 ? 850 : 950;
  }
}

// floor(sqrt(n)) for n >= 0, exactly (a rounded square root, corrected in integers);
// 0 for n <= 0 (an empty slab's middle row can lie past r).
SATDOF_HD inline int isqrtExact(int n) {
  if (n <= 0) return 0;
  int s = int(sqrtf(float(n)));
  while (s > 0 && s * s > n) --s;
  while ((s + 1) * (s + 1) <= n) ++s;
  return s;
}

// Slab j's outer edge: |dy| <= discEdge(r, j); nondecreasing in j, discEdge(r, pairs) = r.
SATDOF_HD inline int discEdge(int r, int j, int pairs) {
  int e = (discEdgeThousandths(pairs, j) * r + 500) / 1000;
  if (e > r - (pairs - j)) e = r - (pairs - j);
  return e > 0 ? e : 0;
}

// Rows |dy| in [y0, y1] (the central slab: -y1..y1; y1 < y0: empty) and half-width.
struct DiscSlab {
  int y0 = 0, y1 = -1, halfWidth = 0;
};

SATDOF_HD inline DiscSlab discSlab(int r, int j, int pairs = kDiscPairs) {
  DiscSlab s;
  s.y0 = j == 0 ? 0 : discEdge(r, j - 1, pairs) + 1;
  s.y1 = discEdge(r, j, pairs);
  const int middle = (s.y0 + s.y1 + 1) / 2;
  s.halfWidth = isqrtExact(r * r - middle * middle);
  return s;
}

// An inclusive pixel rectangle, relative to the centre or in the image.
struct ApertureBox {
  int x0 = 0, y0 = 0, x1 = -1, y1 = -1;
};

// Box i (0 .. kApertureBoxes - 1) of the aperture of radius r around (x, y), clipped to
// the image w x h; false where there is none (box: i > 0; disc: a slab a small r leaves
// empty, or one wholly outside the image). Disc order: the central slab, then each pair
// from the centre out, the slab above before the one below.
SATDOF_HD inline bool apertureBox(Aperture aperture, int x, int y, int r, int i, int w, int h, ApertureBox& b,
                                  int pairs = kDiscPairs) {
  int halfWidth = r, top = -r, bottom = r;
  if (aperture == Aperture::Box) {
    if (i != 0) return false;
  } else {
    const int j = (i + 1) / 2;
    if (j > pairs) return false;
    const DiscSlab s = discSlab(r, j, pairs);
    if (s.y1 < s.y0) return false;
    halfWidth = s.halfWidth;
    top = i == 0 ? -s.y1 : i % 2 == 1 ? -s.y1 : s.y0;
    bottom = i == 0 ? s.y1 : i % 2 == 1 ? -s.y0 : s.y1;
  }
  b.x0 = x - halfWidth < 0 ? 0 : x - halfWidth;
  b.x1 = x + halfWidth > w - 1 ? w - 1 : x + halfWidth;
  b.y0 = y + top < 0 ? 0 : y + top;
  b.y1 = y + bottom > h - 1 ? h - 1 : y + bottom;
  return b.y0 <= b.y1 && b.x0 <= b.x1;
}

// How many boxes the aperture reads (the loops over boxes stop there: the box is one).
SATDOF_HD inline int apertureBoxCount(Aperture aperture, int pairs = kDiscPairs) {
  return aperture == Aperture::Box ? 1 : 2 * pairs + 1;
}

SATDOF_HD inline std::uint32_t boxArea(const ApertureBox& b) {
  return std::uint32_t(b.x1 - b.x0 + 1) * std::uint32_t(b.y1 - b.y0 + 1);
}

// The aperture's pixel count where the image clips none of it.
SATDOF_HD inline std::uint32_t apertureArea(Aperture aperture, int r, int pairs = kDiscPairs) {
  std::uint32_t area = 0;
  for (int i = 0; i < apertureBoxCount(aperture, pairs); ++i) {
    ApertureBox b;
    if (apertureBox(aperture, r, r, r, i, 2 * r + 1, 2 * r + 1, b, pairs)) area += boxArea(b);
  }
  return area;
}

// The rounded RGB mean over the aperture of radius r around (x, y) in an image w x h:
// box: satBoxMean's bytes; disc: the slabs' sums over their clipped pixel count (`pairs`
// other than kDiscPairs: the other counts, for measuring them; the DoF uses the default).
SATDOF_HD inline Rgb8 satApertureMean(const SatView& t, Aperture aperture, int x, int y, int r, int w, int h,
                                      int pairs = kDiscPairs) {
  SatSums sums;
  std::uint32_t area = 0;
  for (int i = 0; i < apertureBoxCount(aperture, pairs); ++i) {
    ApertureBox b;
    if (!apertureBox(aperture, x, y, r, i, w, h, b, pairs)) continue;
    addBoxSums(t, b.x0, b.y0, b.x1, b.y1, sums);
    area += boxArea(b);
  }
  return satSumsMean(t, sums, area);
}

}  // namespace satdof::reference
