// tests/make_content.cpp — satdof-make-content FOLDER [TRIANGLES] [WxH]: writes the
// content the GPU measurement renders (scripts/content-perf), made as the tests make theirs
// (content_files.h):
//   FOLDER/terrain.glb                 a wavy height field of about TRIANGLES triangles
//                                      (default 1000000) with a file camera
//   FOLDER/photo.png, photo_depth.png  the procedural RGB-D photo at WxH (default 6000x4000,
//                                      24 megapixels), depth 16-bit inverse over 2..12 m
//   FOLDER/figure.glb                  a lone figure, as the stage's tests write it (USING.md's
//                                      picture of a stage: satdof --scene FOLDER/figure.glb)
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "content_files.h"

int main(int argc, char** argv) {
  if (argc < 2 || argc > 4) {
    std::fprintf(stderr, "usage: satdof-make-content FOLDER [TRIANGLES] [WxH]\n");
    return 2;
  }
  const std::filesystem::path dir = argv[1];
  const long triangles = argc > 2 ? std::atol(argv[2]) : 1000000;
  int w = 6000, h = 4000;
  if (argc > 3 && std::sscanf(argv[3], "%dx%d", &w, &h) != 2) {
    std::fprintf(stderr, "satdof-make-content: expected WxH, got '%s'\n", argv[3]);
    return 2;
  }
  if (triangles < 2 || w < 1 || h < 1 || w > 16384 || h > 16384) {
    std::fprintf(stderr, "satdof-make-content: TRIANGLES >= 2, sides 1..16384\n");
    return 2;
  }
  try {
    std::filesystem::create_directories(dir);
    content_files::writeLargeGltf(dir / "terrain.glb", std::size_t(triangles));
    content_files::writeFigureGlb(dir / "figure.glb");
    const content_files::Photo p = content_files::makePhoto(w, h);
    content_files::writePng8(dir / "photo.png", w, h, 3, p.rgb);
    content_files::writePng16(dir / "photo_depth.png", w, h, content_files::inverseDepth16(p));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "satdof-make-content: %s\n", e.what());
    return 1;
  }
  std::printf("satdof-make-content: wrote %s/terrain.glb, figure.glb, photo.png, photo_depth.png (%dx%d)\n", dir.c_str(), w, h);
  return 0;
}
