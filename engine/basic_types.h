// engine/basic_types.h — the plain value types every layer of the app hands around: an image
// size and a pixel position. No GL, no window: the parsers, the scene, the passes and the
// window all include this rather than each other.
#pragma once

namespace satdof {

// A size in pixels (of an image, a framebuffer or a window); 0 x 0 while minimised.
struct Extent {
  int width = 0;
  int height = 0;
  bool empty() const { return width <= 0 || height <= 0; }
  bool operator==(const Extent&) const = default;
};

// A pixel of the rendered image, origin top-left (as the mouse and the script see it).
struct Pixel {
  int x = 0, y = 0;
  bool operator==(const Pixel&) const = default;
};

}  // namespace satdof
