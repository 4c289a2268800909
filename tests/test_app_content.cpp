// tests/test_app_content.cpp — the satdof executable on the user's content, made by the
// test (content_files.h) in a folder it removes:
//   * an RGB-D photo renders at its own size, the same bytes on every backend; where the
//     blur radius is 0 the refocused image is the photo itself, elsewhere it is blurred,
//     and moving the focus changes the image (16-bit inverse PNG and float EXR depth);
//   * a glTF scene renders the same bytes on every backend, its triangle count said, and
//     moving the focus changes the image;
//   * every bad file (missing, a folder, not an image, no mesh, a depth map of another
//     size, 30000 x 30000) and content flag combination is one
//     line and exit code 2 before any GL work; a photo whose SAT the GL cannot bind is
//     refused with the reason;
//   * files dropped on the window (a script's drop): a bad one is said and the content
//     kept, a photo is found with its depth map beside it and shown.
// The cuda backend is run where it starts (skipped here visibly otherwise).
#include <algorithm>
#include <cmath>
#include <string>

#include "app_run_support.h"
#include "content_files.h"

namespace {

class AppContent : public ::testing::Test {
 protected:
  content_files::TempFolder folder{"satdof_test_app_content"};
  const fs::path& dir = folder.path;
};

// A photo at w x h with its depth as a 16-bit inverse PNG and a float EXR, beside it.
content_files::Photo writePhoto(const fs::path& dir, int w, int h) {
  const content_files::Photo p = content_files::makePhoto(w, h);
  content_files::writePng8(dir / "photo.png", w, h, 3, p.rgb);
  content_files::writePng16(dir / "photo_depth.png", w, h, content_files::inverseDepth16(p));
  content_files::writeExr(dir / "photo_depth.exr", w, h, p.depth);
  return p;
}

// The backends to compare with cpu: gl-compute, and cuda where it starts here.
std::vector<std::string> otherBackends() {
  std::vector<std::string> b{"gl-compute"};
  if (run("--backend cuda --headless --frames 1 --size 16x16 --save none").exitCode == 0) b.push_back("cuda");
  else if (satdof::test::required("SATDOF_REQUIRE_GPU"))
    ADD_FAILURE() << "the cuda backend does not start here (SATDOF_REQUIRE_GPU=1 requires it)";
  else std::printf("[ note ] the cuda backend cannot run here: compared on gl-compute only\n");
  return b;
}

TEST_F(AppContent, PhotoRefocusesTheSameOnEveryBackend) {
  const int w = 160, h = 100;
  const content_files::Photo photo = writePhoto(dir, w, h);
  constexpr float kMaxBlur = 8, kRange = 2;
  // The distances the app reads back from the 16-bit map (photo.h's inverse mapping).
  const std::vector<std::uint16_t> q = content_files::inverseDepth16(photo);
  std::vector<float> readDepth(q.size());
  for (std::size_t i = 0; i < q.size(); ++i)
    readDepth[i] = 1.0f / (1.0f / 12.0f + float(q[i]) / 65535.0f * (1.0f / 2.0f - 1.0f / 12.0f));
  for (const char* depth : {"photo_depth.png", "photo_depth.exr"}) {
    const bool exr = std::string(depth).ends_with(".exr");
    const std::vector<float>& d = exr ? photo.depth : readDepth;
    Png near;
    for (const float focus : {3.0f, 9.0f}) {
      SCOPED_TRACE(std::string(depth) + " focus " + std::to_string(focus));
      const std::string args = "--headless --frames 2 --save last --bokeh off --photo " + (dir / "photo.png").string() +
                               " --depth " + (dir / depth).string() +
                               (exr ? "" : " --depth-encoding inverse --depth-range 2,12") + " --focal " +
                               std::to_string(focus) + " --max-blur 8 --focal-range 2";
      const fs::path cpuOut = freshDir("photo_cpu");
      const RunResult r = run(args + " --backend cpu --out " + cpuOut.string());
      ASSERT_EQ(r.exitCode, 0) << r.err;
      EXPECT_NE(r.out.find("showing photo photo.png, 160x100"), std::string::npos) << r.out;
      const Png cpu = loadPng(cpuOut / "frame_0001.png");
      ASSERT_EQ(cpu.width, w);  // the photo's size: no --size
      ASSERT_EQ(cpu.height, h);
      // Radius 0 (well inside): the photo's own pixel; radius 3 or more: blurred somewhere.
      std::size_t sharp = 0, blurredDiffer = 0, blurred = 0;
      for (std::size_t i = 0; i < d.size(); ++i) {
        const float r = kMaxBlur * std::abs(d[i] - focus) / kRange;
        const bool same = std::equal(&cpu.rgba[i * 4], &cpu.rgba[i * 4 + 3], &photo.rgb[i * 3]);
        if (r < 0.4f) {
          ++sharp;
          ASSERT_TRUE(same) << "a pixel in focus differs from the photo at " << i % w << "," << i / w;
        } else if (r >= 3.0f) {
          ++blurred;
          blurredDiffer += same ? 0 : 1;
        }
      }
      EXPECT_GT(sharp, 40u);
      EXPECT_GT(blurredDiffer, blurred / 4) << "out of focus, the photo should be blurred";
      for (const std::string& backend : otherBackends()) {
        const fs::path out = freshDir("photo_" + backend);
        const RunResult g = run(args + " --backend " + backend + " --out " + out.string());
        ASSERT_EQ(g.exitCode, 0) << g.err;
        EXPECT_TRUE(loadPng(out / "frame_0001.png").rgba == cpu.rgba) << backend << " differs from cpu";
      }
      if (focus == 3.0f) near = cpu;
      else EXPECT_FALSE(near.rgba == cpu.rgba) << "moving the focus must change the image";
    }
  }
}

// see-through-linear on cuda keeps its linear image's table in uint21x3 while every box the
// composite reads of it is exact there (max blur <= 44: 89 x 89 white pixels sum to under
// 2^21) and in uint32 beyond. A white photo wholly in front of the focus is one blurred near
// field, each pixel its own box of the linear table: white at 44 px and at 60 px, whose
// boxes (121 x 121 white pixels) pass 2^21, as on the CPU backend.
TEST_F(AppContent, SeeThroughLinearOnCudaPacksItsLinearTableOnlyWhereExact) {
  const int w = 200, h = 150;
  content_files::writePng8(dir / "white.png", w, h, 3, std::vector<std::uint8_t>(std::size_t(w) * h * 3, 255));
  content_files::writePng16(dir / "white_depth.png", w, h, std::vector<std::uint16_t>(std::size_t(w) * h, 0));  // 1 m
  for (const char* blur : {"44", "60"}) {
    SCOPED_TRACE(std::string("--max-blur ") + blur);
    const std::string args = "--headless --frames 2 --save last --bokeh off --dof see-through-linear --photo " +
                             (dir / "white.png").string() + " --depth " + (dir / "white_depth.png").string() +
                             " --focal 8 --max-blur " + blur;
    const fs::path cpuOut = dir / ("cpu_" + std::string(blur)), cudaOut = dir / ("cuda_" + std::string(blur));
    const RunResult r = run(args + " --backend cpu --out " + cpuOut.string());
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const Png cpu = loadPng(cpuOut / "frame_0001.png");
    EXPECT_TRUE(std::all_of(cpu.rgba.begin(), cpu.rgba.end(), [](std::uint8_t v) { return v == 255; }))
        << "white blurred stays white";
    const RunResult c = run(args + " --backend cuda --out " + cudaOut.string());
    if (c.exitCode == 3) SATDOF_SKIP_WITHOUT_GPU("CUDA backend unavailable: " + c.err);
    ASSERT_EQ(c.exitCode, 0) << c.err;
    EXPECT_TRUE(loadPng(cudaOut / "frame_0001.png").rgba == cpu.rgba) << "cuda differs from cpu";
  }
}

// A photo is one layer: nothing is drawn behind it, so the see-through DoF runs as the
// layered one (the same bytes) and says so in one line, on every backend.
TEST_F(AppContent, SeeThroughOnAPhotoRunsAsLayeredAndSaysSo) {
  writePhoto(dir, 96, 64);
  const std::string args = "--headless --frames 2 --save last --bokeh off --photo " + (dir / "photo.png").string() +
                           " --depth " + (dir / "photo_depth.exr").string() + " --focal 3 --max-blur 8 --focal-range 2";
  std::vector<std::string> backends{"cpu"};
  for (const std::string& b : otherBackends()) backends.push_back(b);
  for (const std::string& backend : backends) {
    SCOPED_TRACE(backend);
    const fs::path layeredOut = freshDir("photo_layered_" + backend), seeThroughOut = freshDir("photo_see_" + backend);
    const RunResult layered = run(args + " --dof layered --backend " + backend + " --out " + layeredOut.string());
    ASSERT_EQ(layered.exitCode, 0) << layered.err;
    EXPECT_EQ(layered.out.find("see-through:"), std::string::npos) << layered.out;
    const RunResult seeThrough = run(args + " --dof see-through --backend " + backend + " --out " + seeThroughOut.string());
    ASSERT_EQ(seeThrough.exitCode, 0) << seeThrough.err;
    EXPECT_NE(seeThrough.out.find("see-through: a photo is one layer, nothing is drawn behind it: it runs as the layered DoF"),
              std::string::npos)
        << seeThrough.out;
    EXPECT_TRUE(loadPng(seeThroughOut / "frame_0001.png").rgba == loadPng(layeredOut / "frame_0001.png").rgba);
  }
}

TEST_F(AppContent, GltfSceneRendersTheSameOnEveryBackendAndFocusMovesTheBlur) {
  content_files::writeTestGltf(dir / "boxes.gltf", true);
  Png images[2];
  for (int k = 0; k < 2; ++k) {
    const std::string args = "--headless --frames 2 --save last --size 320x180 --scene " + (dir / "boxes.gltf").string() +
                             " --focal " + (k ? "12" : "3");
    const fs::path cpuOut = freshDir("gltf_cpu");
    const RunResult r = run(args + " --backend cpu --out " + cpuOut.string());
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("showing glTF boxes.gltf; 48 triangles, 4 instances of 4 meshes; bounds (-6, -0.6, -18) .. "
                         "(6, 2, 2); camera: the file's camera"),
              std::string::npos)
        << r.out;
    images[k] = loadPng(cpuOut / "frame_0001.png");
    expectNotBlank(images[k]);
    for (const std::string& backend : otherBackends()) {
      const fs::path out = freshDir("gltf_" + backend);
      const RunResult g = run(args + " --backend " + backend + " --out " + out.string());
      ASSERT_EQ(g.exitCode, 0) << g.err;
      EXPECT_TRUE(loadPng(out / "frame_0001.png").rgba == images[k].rgba) << backend << " differs from cpu";
    }
  }
  EXPECT_FALSE(images[0].rgba == images[1].rgba) << "moving the focus must change the image";
  // The red box at view depth 3 fills the lower left, its right edge near x = 122: a
  // steeper edge (the largest step between neighbours) focused at 3 than at 12.
  auto steepest = [](const Png& p) {
    int most = 0;
    for (int y = 140; y < 178; ++y)  // below the slab's far edge, which is sharp at 12
      for (int x = 105; x < 140; ++x) {
        const std::size_t i = std::size_t(y * p.width + x) * 4;
        most = std::max(most, std::abs(int(p.rgba[i + 1]) - int(p.rgba[i + 5])));
      }
    return most;
  };
  EXPECT_GT(steepest(images[0]), 4 * steepest(images[1]));  // 70 and 5 grey levels, seen
}

// Content opens in focus on what the camera looks at: the 9x9 pixels at the image's centre
// are the same as in the frame rendered without blur (--max-blur 0), and the run says the
// focus it used. Before, the focus sat at the bounds' centre (depth 8 here, a blurred
// stretch of ground under the centre).
TEST_F(AppContent, AGltfOpensInFocusOnTheSurfaceUnderTheImageCentre) {
  content_files::writeTestGltf(dir / "boxes.gltf", true);
  Png frames[2];
  for (int k = 0; k < 2; ++k) {
    const fs::path out = freshDir(k ? "focus_open_sharp" : "focus_open");
    const RunResult r = run("--headless --backend cpu --frames 1 --size 320x180 --scene " + (dir / "boxes.gltf").string() +
                            (k ? " --max-blur 0" : "") + " --out " + out.string());
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("satdof: focus at 11, focal range 23.4"), std::string::npos) << r.out;
    frames[k] = loadPng(out / "frame_0000.png");
  }
  int worst = 0;
  for (int y = 86; y <= 94; ++y)
    for (int x = 156; x <= 164; ++x)
      for (int c = 0; c < 3; ++c) {
        const std::size_t i = std::size_t(y * 320 + x) * 4 + std::size_t(c);
        worst = std::max(worst, std::abs(int(frames[0].rgba[i]) - int(frames[1].rgba[i])));
      }
  EXPECT_LE(worst, 1) << "the centre is blurred on open";
}

TEST_F(AppContent, BadFilesAndFlagsAreOneLineAndExit2BeforeAnyGlWork) {
  writePhoto(dir, 16, 8);
  content_files::writePng8(dir / "small.png", 8, 8, 1, std::vector<std::uint8_t>(64, 100));
  content_files::writeBytes(dir / "text.png", "not a picture at all\n");
  content_files::writePngHeaderOnly(dir / "huge.png", 30000, 30000);
  content_files::writeBytes(dir / "nomesh.gltf", R"({"asset":{"version":"2.0"},"scenes":[{"nodes":[0]}],"nodes":[{}]})");
  const std::string photo = (dir / "photo.png").string(), depth = (dir / "photo_depth.png").string();
  auto file = [&](const char* name) { return (dir / name).string(); };
  struct Case {
    std::string args, words;
  };
  const Case cases[] = {
      {"--photo " + file("missing.png") + " --depth " + depth, "missing.png': no such file"},
      {"--photo " + dir.string() + " --depth " + depth, "': is a folder, not a file"},
      {"--photo " + file("text.png") + " --depth " + depth, "text.png': is not an image"},
      {"--photo " + photo + " --depth " + file("text.png"), "text.png': is not a depth image"},
      {"--photo " + file("huge.png") + " --depth " + depth, "huge.png': is 30000x30000: larger than 16384 pixels a side"},
      {"--photo " + photo + " --depth " + file("huge.png"), "huge.png': is 30000x30000"},
      {"--photo " + photo + " --depth " + file("small.png"), "small.png': is 8x8, the photo 'photo.png' 16x8"},
      {"--photo " + photo + " --depth " + file("photo_depth.exr") + " --depth-range 1,5", "--depth-range applies to a normalised map"},
      {"--scene " + file("nomesh.gltf"), "nomesh.gltf': has no mesh"},
      {"--scene " + file("missing.glb"), "missing.glb': no such file"},
      {"--scene " + file("text.png"), "--scene: no scene"},
      {"--photo " + photo, "--photo: needs --depth"},
      {"--depth " + depth, "--depth: needs --photo"},
      {"--photo " + photo + " --depth " + depth + " --scene sharp-front", "--scene: not with --photo"},
      {"--photo " + photo + " --depth " + depth + " --depth-range 5,1", "--depth-range: NEAR must be less than FAR"},
      {"--photo " + photo + " --depth " + depth + " --depth-range 5", "--depth-range: expected NEAR,FAR"},
      {"--photo " + photo + " --depth " + depth + " --depth-encoding log", "--depth-encoding: no encoding 'log'"},
      {"--depth-encoding inverse", "--depth-encoding: applies only to a --photo"},
      {"--photo " + photo + " --depth " + depth + " --animate on", "--animate: turns the built-in scenes' teapots"},
      {"--photo " + photo + " --depth " + depth + " --msaa 2", "--msaa: a photo is not drawn"},
      {"quality --photo " + photo + " --depth " + depth, "quality: renders its own scenes"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.args);
    const RunResult r = run(c.args + " --headless --frames 1 --backend cpu --save none");
    EXPECT_EQ(r.exitCode, 2) << r.out << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_EQ(r.err.rfind("satdof: ", 0), 0u) << r.err;
    EXPECT_NE(r.err.find(c.words), std::string::npos) << r.err;
    EXPECT_EQ(r.out.find("GL "), std::string::npos) << "refused before GL started: " << r.out;
  }
}

// The SAT of a photo at its own size must fit the GL's largest shader storage block (128
// MiB on llvmpipe: 8.4 megapixels of uint32 entries): larger is refused, saying why and
// what renders it; --size renders it fitted in.
TEST_F(AppContent, PhotoWhoseTableTheGlCannotBindIsRefusedWithTheReason) {
  const int w = 4096, h = 2304;  // 9.4 megapixels: 151 MiB of uint32 SAT
  content_files::writePng8(dir / "big.png", w, h, 1, std::vector<std::uint8_t>(std::size_t(w) * h, 120));
  content_files::writePng8(dir / "big_depth.png", w, h, 1, std::vector<std::uint8_t>(std::size_t(w) * h, 40));
  const std::string args = "--photo " + (dir / "big.png").string() + " --depth " + (dir / "big_depth.png").string() +
                           " --headless --frames 1 --backend cpu --save none";
  const RunResult r = run(args);
  if (r.exitCode == 0) GTEST_SKIP() << "this GL binds a " << w << "x" << h << " table";
  EXPECT_EQ(r.exitCode, 2) << r.out << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find("the photo at its size: 4096x2304 needs a"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("shader storage block"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--size WxH renders it smaller"), std::string::npos) << r.err;
  const RunResult fitted = run(args + " --size 1024x576");
  EXPECT_EQ(fitted.exitCode, 0) << fitted.err;
}

// A script's drop is a file dropped on the window: a bad one is said (the panel shows the
// same line) and the content stays; a photo is found with its depth map beside it.
TEST_F(AppContent, DroppedFilesAreShownOrTheirProblemSaid) {
  SATDOF_SKIP_WITHOUT_XVFB();
  writePhoto(dir, 192, 108);
  fs::remove(dir / "photo_depth.exr");
  content_files::writeBytes(dir / "notes.txt", "hello");
  const fs::path shot = dir / "dropped.png";
  content_files::writeBytes(dir / "drop.script", "drop " + (dir / "notes.txt").string() + "\nwait 2\ndrop " +
                                                     (dir / "photo.png").string() + "\nwait 3\nscreenshot " +
                                                     shot.string() + "\nwait 1\nquit\n");
  const RunResult r = runUnderXvfb("--size 640x360 --backend cpu --depth-encoding inverse --depth-range 2,12 "
                                   "--script " + (dir / "drop.script").string());
  ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("notes.txt': is neither a glTF scene (.gltf, .glb) nor an image (PNG, JPEG, EXR); still "
                       "showing built-in scene teapots"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("satdof: showing photo photo.png, 192x108; depth photo_depth.png (16-bit PNG, inverse, 2..12 m)"),
            std::string::npos)
      << r.out;
  const Png png = loadPng(shot);
  EXPECT_EQ(png.width, 640);
  expectNotBlank(png);
}

// A photo dropped after a glTF opens at its own focus and range (its depths span 2..12 m),
// not the glTF's range (23.5): before, the range stayed and the photo was blurred all over.
TEST_F(AppContent, DroppedContentOpensAtItsOwnFocusAndRange) {
  SATDOF_SKIP_WITHOUT_XVFB();
  writePhoto(dir, 192, 108);
  content_files::writeTestGltf(dir / "boxes.gltf", true);
  content_files::writeBytes(dir / "drop.script", "wait 1\ndrop " + (dir / "photo.png").string() + "\nwait 2\nquit\n");
  const RunResult r = runUnderXvfb("--size 640x360 --backend cpu --no-settings --depth-encoding inverse "
                                   "--depth-range 2,12 --scene " + (dir / "boxes.gltf").string() + " --script " +
                                   (dir / "drop.script").string());
  ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
  const std::size_t first = r.out.find("satdof: focus at 11, focal range 23.4");
  ASSERT_NE(first, std::string::npos) << r.out;
  const std::size_t shown = r.out.find("satdof: showing photo photo.png", first);
  ASSERT_NE(shown, std::string::npos) << r.out;
  const std::size_t second = r.out.find("satdof: focus at ", shown);
  ASSERT_NE(second, std::string::npos) << r.out;
  float focus = 0, range = 0;
  ASSERT_EQ(std::sscanf(r.out.c_str() + second, "satdof: focus at %f, focal range %f", &focus, &range), 2) << r.out;
  EXPECT_GE(focus, 2.0f);
  EXPECT_LE(focus, 12.0f);
  EXPECT_GT(range, 0.0f);
  EXPECT_LE(range, 10.0f) << "the photo kept the glTF's focal range";
}

}  // namespace
