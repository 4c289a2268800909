// shaders/aperture.glsl — the shape a pixel of blur radius r is averaged over, as boxes of
// the SAT: the (2r+1)^2 box, or the disc of radius r as a central slab and kDiscPairs pairs
// of slabs above and below it. Mirrors satdof/reference/aperture.h line for line (all in
// integers: the same boxes everywhere); the tests hold them together byte for byte.
// Include after coc.glsl (uSize) and the format's reader (sat_format.glsl: SatSums).

// 0: box, 1: disc (reference::Aperture): fixed when the program is built where it defines
// APERTURE (the layered composite: one program for each), else a uniform.
#ifdef APERTURE
const int uAperture = APERTURE;
#else
layout(location = 7) uniform int uAperture;
#endif

const int kDiscPairs = 2;  // reference::kDiscPairs
const int kApertureBoxes = 2 * kDiscPairs + 1;
// How many boxes the chosen aperture reads: the loops over boxes stop there, so that the
// box aperture runs one iteration, not five that find nothing.
int apertureBoxes() { return uAperture == 0 ? 1 : kApertureBoxes; }  // reference::apertureBoxCount
// reference::discEdgeThousandths(kDiscPairs, j): slab j's outer edge, thousandths of r.
int discEdgeThousandths(int j) { return j == 0 ? 500 : j == 1 ? 750 : 925; }

// floor(sqrt(n)), exactly: a rounded square root corrected in integers; 0 for n <= 0.
int isqrtExact(int n) {
  if (n <= 0) return 0;
  int s = int(sqrt(float(n)));
  while (s > 0 && s * s > n) --s;
  while ((s + 1) * (s + 1) <= n) ++s;
  return s;
}

int discEdge(int r, int j) {
  int e = (discEdgeThousandths(j) * r + 500) / 1000;
  if (e > r - (kDiscPairs - j)) e = r - (kDiscPairs - j);
  return e > 0 ? e : 0;
}

// Slab j: rows |dy| in [x, y] (empty where y < x) and half-width z.
ivec3 discSlab(int r, int j) {
  int y0 = j == 0 ? 0 : discEdge(r, j - 1) + 1;
  int y1 = discEdge(r, j);
  int middle = (y0 + y1 + 1) / 2;
  return ivec3(y0, y1, isqrtExact(r * r - middle * middle));
}

// Box i of the aperture of radius r around p, clipped to the image; false where none.
bool apertureBox(ivec2 p, int r, int i, out ivec2 lo, out ivec2 hi) {
  int halfWidth = r, top = -r, bottom = r;
  lo = ivec2(0);
  hi = ivec2(-1);
  if (uAperture == 0) {
    if (i != 0) return false;
  } else {
    int j = (i + 1) / 2;
    if (j > kDiscPairs) return false;
    ivec3 s = discSlab(r, j);
    if (s.y < s.x) return false;
    halfWidth = s.z;
    top = i == 0 ? -s.y : i % 2 == 1 ? -s.y : s.x;
    bottom = i == 0 ? s.y : i % 2 == 1 ? -s.x : s.y;
  }
  lo = max(p + ivec2(-halfWidth, top), ivec2(0));
  hi = min(p + ivec2(halfWidth, bottom), uSize - 1);
  return lo.y <= hi.y && lo.x <= hi.x;
}

// The rounded RGB mean over the aperture of radius r around p (reference::satApertureMean):
// the boxes' sums in the format's arithmetic, in box order, over their pixel count.
uvec3 satApertureMean(ivec2 p, int r) {
  SatSums sums = satSumsZero();
  uint area = 0u;
  for (int i = 0; i < apertureBoxes(); ++i) {
    ivec2 lo, hi;
    if (!apertureBox(p, r, i, lo, hi)) continue;
    sums = satAddBox(sums, lo, hi, uSize.x);
    area += uint((hi.x - lo.x + 1) * (hi.y - lo.y + 1));
  }
  return satSumsMean(sums, area);
}
