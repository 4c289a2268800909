// satdof-disc-shapes: how close the disc aperture of satdof/reference/aperture.h comes to
// the disc for 1, 3, 5 and 7 boxes (0..3 pairs of slabs), against today's box. For every
// radius the target is the pixel disc, the pixels with x^2 + y^2 <= r^2 (about pi r^2 of
// them); printed per shape: the SAT reads a pixel costs, the symmetric difference to the
// pixel disc over its pixel count (mean over r = 1..60 and 1..256, worst over 4..60), and
// the worst |area / (pi r^2) - 1| over r = 4..60 (below 4 the pixel disc itself is that far
// off: 5 pixels at r = 1); and what the shape costs the CPU reference, one thread: the
// nanoseconds a pixel of a 1280x720 image takes at radius 8 and 32 (satApertureMean over
// a uint32 SAT of random colours). With a file name, also a PNG of the shapes at a few
// radii: grey where shape and disc agree, red where the shape adds pixels, blue where it
// misses.
#include <stb/stb_image_write.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "satdof/reference/aperture.h"
#include "satdof/reference/dof.h"

namespace {

namespace ref = satdof::reference;

struct Shape {
  const char* name;
  ref::Aperture aperture;
  int pairs;
};

// The shape's pixels in a (2r+1)^2 square (row-major), from the same boxes the DoF reads.
std::vector<int> cover(const Shape& s, int r) {
  const int side = 2 * r + 1;
  std::vector<int> c(std::size_t(side) * side, 0);
  for (int i = 0; i < 2 * s.pairs + 1; ++i) {
    ref::ApertureBox b;
    if (!ref::apertureBox(s.aperture, r, r, r, i, side, side, b, s.pairs)) continue;
    for (int y = b.y0; y <= b.y1; ++y)
      for (int x = b.x0; x <= b.x1; ++x) ++c[std::size_t(y) * side + x];
  }
  return c;
}

bool inDisc(int x, int y, int r) { return (x - r) * (x - r) + (y - r) * (y - r) <= r * r; }

// Symmetric difference to the pixel disc over the disc's pixel count; the shape's area.
void compare(const Shape& s, int r, double& difference, double& area) {
  const std::vector<int> c = cover(s, r);
  const int side = 2 * r + 1;
  int missing = 0, extra = 0, disc = 0, inside = 0;
  for (int y = 0; y < side; ++y)
    for (int x = 0; x < side; ++x) {
      const bool d = inDisc(x, y, r), in = c[std::size_t(y) * side + x] > 0;
      disc += d;
      inside += in;
      missing += d && !in;
      extra += in && !d;
    }
  difference = double(missing + extra) / double(disc);
  area = double(inside);
}

// Nanoseconds a pixel, the best of three passes over the image at radius r.
double nanosecondsPerPixel(const Shape& s, const ref::Sat& sat, int r) {
  const ref::SatView view = ref::satView(sat);
  double best = 1e30;
  unsigned sink = 0;
  for (int pass = 0; pass < 3; ++pass) {
    const auto start = std::chrono::steady_clock::now();
    for (int y = 0; y < sat.height; ++y)
      for (int x = 0; x < sat.width; ++x)
        sink += ref::satApertureMean(view, s.aperture, x, y, r, sat.width, sat.height, s.pairs).g;
    const std::chrono::duration<double, std::nano> took = std::chrono::steady_clock::now() - start;
    best = std::min(best, took.count() / (double(sat.width) * sat.height));
  }
  if (sink == 1) std::printf(" ");  // keeps the sums from being optimised away
  return best;
}

void writeFigure(const char* path, const Shape* shapes, int count) {
  const int radii[] = {3, 6, 12, 30};
  const int panel = 124, gap = 6;
  const int w = count * panel + (count + 1) * gap, h = 4 * panel + 5 * gap;
  std::vector<unsigned char> px(std::size_t(w) * h * 3, 255);
  for (int row = 0; row < 4; ++row)
    for (int col = 0; col < count; ++col) {
      const int r = radii[row], side = 2 * r + 1, scale = panel / side;
      const std::vector<int> c = cover(shapes[col], r);
      const int ox = gap + col * (panel + gap) + (panel - side * scale) / 2;
      const int oy = gap + row * (panel + gap) + (panel - side * scale) / 2;
      for (int y = 0; y < side * scale; ++y)
        for (int x = 0; x < side * scale; ++x) {
          const int sx = x / scale, sy = y / scale;
          const bool d = inDisc(sx, sy, r), in = c[std::size_t(sy) * side + sx] > 0;
          unsigned char rgb[3] = {236, 236, 236};
          if (in && d) rgb[0] = rgb[1] = rgb[2] = 110;
          if (in && !d) rgb[0] = 220, rgb[1] = 60, rgb[2] = 50;
          if (!in && d) rgb[0] = 60, rgb[1] = 110, rgb[2] = 220;
          if (scale >= 4 && (x % scale == 0 || y % scale == 0))  // pixel grid
            for (unsigned char& v : rgb) v = (unsigned char)(v * 0.85);
          std::copy(rgb, rgb + 3, &px[(std::size_t(oy + y) * w + ox + x) * 3]);
        }
    }
  if (!stbi_write_png(path, w, h, 3, px.data(), w * 3)) std::fprintf(stderr, "cannot write %s\n", path);
}

}  // namespace

int main(int argc, char** argv) {
  const Shape shapes[] = {{"box (today)", ref::Aperture::Box, 0},
                          {"disc, 1 box", ref::Aperture::Disc, 0},
                          {"disc, 3 boxes", ref::Aperture::Disc, 1},
                          {"disc, 5 boxes", ref::Aperture::Disc, 2},
                          {"disc, 7 boxes", ref::Aperture::Disc, 3}};
  ref::ImageRgba8 image(1280, 720);
  std::mt19937 rng(1);
  for (std::uint8_t& v : image.pixels) v = std::uint8_t(rng() & 255);
  const ref::Sat sat = ref::computeSat(image);
  std::printf("%-14s %6s %16s %16s %16s %18s %12s %12s\n", "shape", "reads", "diff r=1..60", "diff r=1..256",
              "worst diff 4..60", "worst area 4..60", "ns/px r=8", "ns/px r=32");
  for (const Shape& s : shapes) {
    double mean60 = 0, mean256 = 0, worst = 0, worstArea = 0;
    for (int r = 1; r <= 256; ++r) {
      double difference = 0, area = 0;
      compare(s, r, difference, area);
      mean256 += difference / 256;
      if (r <= 60) mean60 += difference / 60;
      if (r >= 4 && r <= 60) {
        worst = std::max(worst, difference);
        worstArea = std::max(worstArea, std::abs(area / (M_PI * r * r) - 1));
      }
    }
    std::printf("%-14s %6d %15.1f%% %15.1f%% %15.1f%% %17.1f%% %12.1f %12.1f\n", s.name,
                s.aperture == ref::Aperture::Box ? 4 : 4 * (2 * s.pairs + 1), 100 * mean60, 100 * mean256, 100 * worst,
                100 * worstArea, nanosecondsPerPixel(s, sat, 8), nanosecondsPerPixel(s, sat, 32));
  }
  std::printf("(the DoF's disc: %d boxes)\n", ref::kApertureBoxes);
  if (argc > 1) {
    writeFigure(argv[1], shapes, 5);
    std::printf("wrote %s: rows r = 3, 6, 12, 30; columns as above\n", argv[1]);
  }
  return 0;
}
