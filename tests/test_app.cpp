// tests/test_app.cpp — the satdof executable end to end:
//   * headless with the CPU backend writes non-blank PNGs;
//   * bad flags give one line on stderr and exit code 2;
//   * the CUDA backend gives the same image as the CPU backend (skips where CUDA-GL
//     interop is impossible, with satdof's own reason); so does the gl-compute backend,
//     filtering or not; with many bokeh highlights drawn, every backend's frame is the
//     same too;
//   * the window app under Xvfb renders N frames, exits 0 and saves a screenshot
//     (kept as an artefact in the build folder: artifacts/window.png);
//   * files the run cannot write fail it in one line naming the path, never "wrote" (a
//     full file system, a screenshot path refused before any window), a refused run makes
//     no folder, and SIGINT or SIGTERM stop it between frames with every PNG whole.
// The window a user drives (scripts, focus, panel, settings): test_app_window.cpp.
#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <spawn.h>
#include <sys/mount.h>
#include <thread>
#include <string>
#include <tuple>
#include <vector>

#include "app_run_support.h"
#include "window_test_support.h"

namespace {

TEST(App, HeadlessCpuWritesNonBlankPngs) {
  const fs::path out = freshDir("headless_cpu");
  const RunResult r = run("--headless --frames 3 --backend cpu --size 320x180 --out " + out.string());
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("CPU backend"), std::string::npos) << r.out;
  for (int i = 0; i < 3; ++i) {
    const fs::path p = out / ("frame_000" + std::to_string(i) + ".png");
    ASSERT_TRUE(fs::exists(p)) << p;
    const Png png = loadPng(p);
    EXPECT_EQ(png.width, 320);
    EXPECT_EQ(png.height, 180);
    expectNotBlank(png);
  }
}

TEST(App, BadFlagsGiveOneLineAndExitCode2) {
  for (const char* args : {"--size 0x5", "--size wide", "--size 99999x2", "--frames 0", "--frames -3",
                           "--backend gpu", "--focal -1", "--max-blur nope", "--no-such-flag",
                           "bench", "bench nosuch", "--filter blur", "--filter box --radius 16",
                           "--filter custom --weights 1,2", "--filter box --conv no-such-kernel",
                           "--weights 1 --filter box",
                           "--filter sharpen --conv cpu-separable --backend cpu",
                           "--camera thin-lens --f-number 0", "--camera thin-lens --focal 0.05",
                           "--camera fisheye", "--dof nosuch", "--scene nosuch", "--sat-format nosuch",
                           "--view split --compare-b dof=nosuch", "--view split --compare-b dof",
                           "--view diff --compare-b nosuch=1", "--view split --compare-b backend=auto",
                           "--view split --compare-b sat-format=float16", "--view split --compare-b scan=nosuch",
                           "--view split --compare-b backend=cpu,scan=blelloch", "--compare-b dof=layered",
                           "--view split --compare cpu-direct", "--view split --ui-scale 9",
                           "--view split --compare-b conv=cpu-direct", "--sat-memory host"}) {
    SCOPED_TRACE(args);
    const RunResult r = run(args);
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_EQ(r.err.rfind("satdof: ", 0), 0u) << r.err;
  }
}

// A custom filter's weights of the wrong count are --weights' error, with the count the
// chosen radius needs; the right count runs.
TEST(App, CustomWeightsOfTheWrongCountNameWeights) {
  const std::pair<const char*, const char*> cases[] = {
      {"--filter custom --weights 1,2",
       "satdof: --weights: 2 values; --filter custom with --radius 2 needs 25 (5x5, row-major) (see --help)\n"},
      {"--filter custom --radius 1 --weights 1", "satdof: --weights: 1 value; --filter custom with --radius 1 "
                                                 "needs 9 (3x3, row-major) (see --help)\n"},
      {"--filter custom --radius 3 --weights 0,0,0,0,1,0,0,0,0",
       "satdof: --weights: 9 values; --filter custom with --radius 3 needs 49 (7x7, row-major) (see --help)\n"}};
  for (const auto& [args, message] : cases) {
    const RunResult r = run(std::string(args) + " --headless --frames 1 --backend cpu --save none");
    EXPECT_EQ(r.exitCode, 2) << args;
    EXPECT_EQ(r.err, message);
  }
  const RunResult ok = run("--filter custom --radius 1 --weights 0,0,0,0,1,0,0,0,0 --headless --frames 1 "
                           "--backend cpu --size 64x36 --save none");
  EXPECT_EQ(ok.exitCode, 0) << ok.err;
}

// An unknown flag is named, with the nearest real one where a slip explains it.
TEST(App, UnknownFlagSuggestsTheNearestOne) {
  const std::pair<const char*, const char*> cases[] = {
      {"--dfo cuda", "satdof: unknown flag --dfo; did you mean --dof? (see --help)\n"},
      {"--max-blru=3", "satdof: unknown flag --max-blru; did you mean --max-blur? (see --help)\n"},
      {"--zzzzzz", "satdof: unknown flag --zzzzzz (see --help)\n"}};
  for (const auto& [args, message] : cases) {
    const RunResult r = run(args);
    EXPECT_EQ(r.exitCode, 2) << args;
    EXPECT_EQ(r.err, message);
  }
}

// Failures that used to surface after GL started (or with exit 0) are refused by the
// command line: one line, exit 2, and the --out folder is not created.
TEST(App, FailuresAreCaughtBeforeAnyGlWork) {
  const fs::path out = freshDir("before_gl");
  for (const std::string args : {"--dof cuda --backend cpu", "--dof cuda --backend gl-compute",
                                 "resize-storm --frames 2"}) {
    SCOPED_TRACE(args);
    const RunResult r = run(args + " --headless --out " + (out / "x").string());
    EXPECT_EQ(r.exitCode, 2) << r.out << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_FALSE(fs::exists(out / "x")) << "nothing created";
  }
}

// `--dof cuda` with `--backend auto` on a machine where CUDA cannot run (no GPU, or a build
// without CUDA) is refused the same way, before GL, naming why; where the cuda backend runs
// (the GPU machine) it renders.
TEST(App, CudaDofWithAutoIsRefusedBeforeGlWhereCudaCannotRun) {
  const fs::path out = freshDir("cuda_dof_auto");
  const RunResult cuda = run("--backend cuda --headless --frames 1 --size 64x36 --save none");
  const RunResult r = run("--dof cuda --backend auto --headless --frames 1 --size 64x36 --out " + (out / "x").string());
  if (cuda.exitCode == 0) {
    EXPECT_EQ(r.exitCode, 0) << r.out << r.err;
    return;
  }
  EXPECT_EQ(r.exitCode, 2) << r.out << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_EQ(r.err.rfind("satdof: --dof cuda: runs on the cuda backend only, which cannot run here: ", 0), 0u) << r.err;
  EXPECT_EQ(r.out.find("GL"), std::string::npos) << "refused before GL started: " << r.out;
  EXPECT_FALSE(fs::exists(out / "x")) << "nothing created";
}

// uint21x3's box sums are exact up to radius 44 (satdof/sat_format.h): a larger max blur
// is refused in one line, as a script's or the settings file's would be; 44.4 rounds to 44
// and runs, and gives the uint32 format's image.
TEST(App, MaxBlurBeyondTheUint21x3BoundIsRefused) {
  for (const char* args : {"--sat-format uint21x3 --max-blur 45", "--sat-format uint21x3 --max-blur 44.5",
                           "--max-blur 200 --sat-format uint21x3"}) {
    SCOPED_TRACE(args);
    const RunResult r = run(std::string(args) + " --headless --frames 1 --backend cpu --save none");
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_EQ(r.err.rfind("satdof: --max-blur: ", 0), 0u) << r.err;
    EXPECT_NE(r.err.find("uint21x3"), std::string::npos) << r.err;
  }
  Png images[2];
  for (int k = 0; k < 2; ++k) {
    const fs::path out = freshDir(k ? "maxblur_uint21x3" : "maxblur_uint32");
    const RunResult r = run(std::string("--sat-format ") + (k ? "uint21x3" : "uint32") +
                            " --max-blur 44.4 --headless --frames 1 --backend cpu --size 320x180 --out " +
                            out.string());
    ASSERT_EQ(r.exitCode, 0) << r.err;
    images[k] = loadPng(out / "frame_0000.png");
  }
  expectNotBlank(images[0]);
  EXPECT_TRUE(images[0].rgba == images[1].rgba) << "uint21x3 at radius 44 differs from uint32";
}

// A frame whose SAT exceeds the GL's largest shader storage block is refused up front, as
// a bad command line (exit 2).
TEST(App, OversizedFrameFailsWithOneLine) {
  const RunResult r = run("--headless --frames 1 --backend cpu --size 16384x16384 --out " +
                          freshDir("oversized").string() + " --save none");
  if (r.exitCode == 0) GTEST_SKIP() << "this GL accepts a 4 GiB shader storage block";
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find("shader storage block"), std::string::npos) << r.err;
}

TEST(App, HelpExitsZero) {
  const RunResult r = run("--help");
  EXPECT_EQ(r.exitCode, 0);
  for (const char* flag : {"--headless", "--frames", "--size", "--out", "--backend", "--focal"})
    EXPECT_NE(r.out.find(flag), std::string::npos) << flag;
}

TEST(App, CudaBackendGivesTheCpuImage) {
  const fs::path cpu = freshDir("same_cpu"), cuda = freshDir("same_cuda");
  const RunResult rc = run("--headless --frames 2 --backend cuda --size 640x360 --out " + cuda.string());
  if (rc.exitCode == 3) SATDOF_SKIP_WITHOUT_GPU("CUDA backend unavailable: " + rc.err);
  ASSERT_EQ(rc.exitCode, 0) << rc.err;
  const RunResult rp = run("--headless --frames 2 --backend cpu --size 640x360 --out " + cpu.string());
  ASSERT_EQ(rp.exitCode, 0) << rp.err;
  const Png a = loadPng(cpu / "frame_0001.png"), b = loadPng(cuda / "frame_0001.png");
  expectNotBlank(a);
  ASSERT_EQ(a.rgba.size(), b.rgba.size());
  EXPECT_TRUE(a.rgba == b.rgba) << "the CUDA and CPU backends must give the same image";
}

// A filtered frame: the CUDA kernel and the CPU reference of the same arithmetic
// (tiled-halo and cpu-direct are both the direct float sum) give the same image.
TEST(App, CudaFilterGivesTheCpuReferenceImage) {
  const fs::path cpu = freshDir("filter_cpu"), cuda = freshDir("filter_cuda");
  const std::string common = " --headless --frames 2 --size 480x270 --filter gaussian --radius 3 --view filtered";
  const RunResult rc = run("--backend cuda --conv tiled-halo --out " + cuda.string() + common);
  if (rc.exitCode == 3) SATDOF_SKIP_WITHOUT_GPU("CUDA backend unavailable: " + rc.err);
  ASSERT_EQ(rc.exitCode, 0) << rc.err;
  const RunResult rp = run("--backend cpu --conv cpu-direct --out " + cpu.string() + common);
  ASSERT_EQ(rp.exitCode, 0) << rp.err;
  const Png a = loadPng(cpu / "frame_0001.png"), b = loadPng(cuda / "frame_0001.png");
  expectNotBlank(a);
  EXPECT_TRUE(a.rgba == b.rgba) << "filtered images differ between CUDA and the CPU reference";
}

// Every DoF implementation the CUDA backend can run, in every SAT format, with the thin
// lens and with each aperture (box, disc), gives the CPU backend's image byte for byte:
// fragment, compute and cuda the CPU backend's fragment pass; layered (CUDA split and SATs
// there) the CPU backend's layered; see-through (the scene's second layer, the far side's
// SAT on CUDA) and see-through-linear (a fourth field SAT) the CPU backend's own.
TEST(App, EveryDofImplementationAndFormatGivesTheCpuImage) {
  for (const char* aperture : {"box", "disc"}) {
    const std::string common = " --headless --frames 2 --size 400x224 --camera thin-lens --focal-length 135"
        " --aperture " + std::string(aperture);
    std::map<std::string, Png> uint32Images;  // uint21x3 must give these bytes (radius 12 here)
    for (const char* format : {"uint32", "float32", "float32-offset", "uint21x3"}) {
      std::map<std::string, Png> cpuImages;
      for (const char* dof : {"fragment", "layered", "see-through", "see-through-linear"}) {
        const fs::path cpu = freshDir(std::string("dof_cpu_") + dof + "_" + format + "_" + aperture);
        const RunResult rp = run("--backend cpu --dof " + std::string(dof) + " --sat-format " + std::string(format) +
                                 " --out " + cpu.string() + common);
        ASSERT_EQ(rp.exitCode, 0) << rp.err;
        cpuImages[dof] = loadPng(cpu / "frame_0001.png");
        expectNotBlank(cpuImages[dof]);
        if (std::string(format) == "uint32") uint32Images[dof] = cpuImages[dof];
        if (std::string(format) == "uint21x3") {
          EXPECT_TRUE(cpuImages[dof].rgba == uint32Images[dof].rgba) << dof << ": uint21x3 differs from uint32";
        }
      }
      EXPECT_FALSE(cpuImages["see-through"].rgba == cpuImages["layered"].rgba) << "see-through shows what is behind";
      EXPECT_FALSE(cpuImages["see-through-linear"].rgba == cpuImages["see-through"].rgba) << "linear light differs";
      for (const char* dof : {"fragment", "compute", "cuda", "layered", "see-through", "see-through-linear"}) {
        const std::string name = dof;
        const Png& expected = cpuImages[cpuImages.contains(name) ? name : "fragment"];
        SCOPED_TRACE(std::string(dof) + " / " + format + " / " + aperture);
        const fs::path out = freshDir(std::string("dof_") + dof + "_" + format + "_" + aperture);
        const RunResult rc = run("--backend cuda --dof " + std::string(dof) + " --sat-format " + format +
                                 " --out " + out.string() + common);
        if (rc.exitCode == 3) SATDOF_SKIP_WITHOUT_GPU("CUDA backend unavailable: " + rc.err);
        ASSERT_EQ(rc.exitCode, 0) << rc.err;
        EXPECT_TRUE(loadPng(out / "frame_0001.png").rgba == expected.rgba) << "differs from the CPU backend's image";
      }
    }
  }
}

// See-through on the cuda backend keeps the frame's one GL-CUDA hand-over: without a
// filter its GL split reads only the scene, so it runs before the backend, whose mapping
// then holds the fields and their tables (no "fields map" stage); with a filter the split
// reads the filtered image, so the fields are mapped a second time after the backend's
// mapping is closed. Either way the image is the CPU backend's (the filter: tiled-halo and
// cpu-direct share their arithmetic).
TEST(App, SeeThroughOnCudaJoinsTheBackendsMappingWithoutAFilter) {
  const std::string common = " --headless --frames 3 --size 400x224 --camera thin-lens --focal-length 135";
  for (const char* dof : {"see-through", "see-through-linear"})
    for (const bool filtered : {false, true}) {
      SCOPED_TRACE(std::string(dof) + (filtered ? ", filtered" : ""));
      const std::string filter = filtered ? " --filter gaussian --radius 3" : "";
      const std::string name = std::string(dof) + (filtered ? "_filtered" : "");
      const fs::path cuda = freshDir("handover_cuda_" + name), cpu = freshDir("handover_cpu_" + name);
      const RunResult rc = run("--backend cuda --dof " + std::string(dof) + filter +
                               (filtered ? " --conv tiled-halo" : "") + " --out " + cuda.string() + common);
      if (rc.exitCode == 3) SATDOF_SKIP_WITHOUT_GPU("CUDA backend unavailable: " + rc.err);
      ASSERT_EQ(rc.exitCode, 0) << rc.err;
      EXPECT_NE(rc.out.find("  map "), std::string::npos) << rc.out;
      EXPECT_NE(rc.out.find("  field sats "), std::string::npos) << rc.out;
      EXPECT_EQ(rc.out.find("  fields map ") != std::string::npos, filtered) << rc.out;
      // Without a filter the reach is queued on the backend's map, so its section opens
      // before the frame's SAT's (the summary lists sections as they first open).
      if (!filtered) {
        EXPECT_LT(rc.out.find("  dof reach "), rc.out.find("  sat ")) << rc.out;
      }
      const RunResult rp = run("--backend cpu --dof " + std::string(dof) + filter +
                               (filtered ? " --conv cpu-direct" : "") + " --out " + cpu.string() + common);
      ASSERT_EQ(rp.exitCode, 0) << rp.err;
      const Png expected = loadPng(cpu / "frame_0002.png");
      expectNotBlank(expected);
      EXPECT_TRUE(loadPng(cuda / "frame_0002.png").rgba == expected.rgba) << "differs from the CPU backend's image";
      fs::remove_all(cuda);
      fs::remove_all(cpu);
    }
}

// The SAT tables in CUDA memory that GL imports (--sat-memory cuda, the default where CUDA
// and GL share the GPU) give the frames GL's own buffers give, on every backend (the CPU
// backend uploads into them, gl-compute's shaders write them, CUDA's kernels write them
// through the interop registration); where that memory cannot be had, asking for it is
// refused in one line with the reason, before GL where CUDA cannot run at all.
TEST(App, SatTablesInCudaMemoryGiveTheFramesOfGlBuffers) {
  const bool cudaRuns = run("--backend cuda --headless --frames 1 --size 16x16 --save none --no-settings").exitCode == 0;
  const std::string common = " --headless --frames 3 --size 400x224 --dof see-through-linear --camera thin-lens "
                             "--focal-length 135 --no-settings";
  const fs::path gl = freshDir("tables_gl");
  const RunResult rg = run("--backend cpu --sat-memory gl --out " + gl.string() + common);
  ASSERT_EQ(rg.exitCode, 0) << rg.err;
  EXPECT_NE(rg.out.find("satdof: SAT tables in GL memory (--sat-memory gl)"), std::string::npos) << rg.out;
  const Png expected = loadPng(gl / "frame_0002.png");
  expectNotBlank(expected);
  fs::remove_all(gl);
  for (const char* backend : {"gl-compute", "cpu", "cuda"}) {
    SCOPED_TRACE(backend);
    const fs::path out = freshDir(std::string("tables_cuda_") + backend);
    const RunResult r = run("--backend " + std::string(backend) + " --sat-memory cuda --out " + out.string() + common);
    if (r.exitCode == 2 && r.err.rfind("satdof: --sat-memory cuda: ", 0) == 0) {
      EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
      EXPECT_FALSE(fs::exists(out / "frame_0000.png")) << "refused before a frame";
      if (!cudaRuns) {
        EXPECT_EQ(r.out.find("GL"), std::string::npos) << "refused before GL started: " << r.out;
      }
      fs::remove_all(out);
      SATDOF_SKIP_WITHOUT_GPU("no CUDA memory for GL here: " + r.err);
    }
    if (r.exitCode == 3) SATDOF_SKIP_WITHOUT_GPU("CUDA backend unavailable: " + r.err);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("satdof: SAT tables in CUDA memory imported by GL"), std::string::npos) << r.out;
    EXPECT_TRUE(loadPng(out / "frame_0002.png").rgba == expected.rgba) << "differs from GL's buffers' frame";
    fs::remove_all(out);
  }
}

// satdof quality renders every scene, prints a PSNR per implementation and aperture (box
// and disc) against the lens and the scattering truth of the same shape, and beside the
// textbook pass the pixels each changes and the ceiling those leave it. On the two
// artifact scenes the layered DoF is closer to the lens than the textbook fragment pass
// (box aperture), over the image and within the silhouette band (and on sharp-front at
// least 3 dB closer to the scattering truth), and on blurred-front the see-through DoF
// more than 1 dB closer to the lens than layered (box and disc); every implementation
// leaves every sharp pixel no nearer blur reaches as drawn, with either aperture. --csv
// writes one row per implementation, aperture and truth (and the scattering truths
// against the lens). Few
// renders per lens truth here (--lens-renders 8): the lens truth's own accuracy is
// test_lens_truth_gl's.
TEST(App, QualityToolShowsTheLayeredDofBeatingTheTextbook) {
  const fs::path out = freshDir("quality");
  const fs::path csv = out / "quality.csv";
  const RunResult r = run("quality --backend cpu --size 320x180 --lens-renders 8 --out " + out.string() + " --csv " +
                          csv.string());
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("lens truth: disc aperture"), std::string::npos) << r.out;
  std::istringstream lines(r.out);
  int artifactRows = 0, rows = 0, discRows = 0;
  std::map<std::string, std::string> fragmentRow;
  std::map<std::string, double> fragmentScatter, fragmentLens, fragmentLensBand, layeredLens, layeredLensBand;
  int seeThroughRows = 0;
  for (std::string line; std::getline(lines, line);) {
    std::istringstream row(line);
    std::string scene, focus, dof, aperture, lens, lensBand, lensEncoded, scatter, scatterBand, inFocus;
    if (!(row >> scene >> focus >> dof >> aperture >> lens >> lensBand >> lensEncoded >> scatter >> scatterBand >>
          inFocus))
      continue;
    if (scene == "scene" || inFocus.back() != '%') continue;  // the header
    ++rows;
    // Beside the textbook pass: the share of pixels changed, and the ceiling (the lens PSNR
    // were the implementation exact in those), which no implementation passes.
    std::string changed, ceiling;
    ASSERT_TRUE(row >> changed >> ceiling) << line;
    if (dof == "scatter") {
      EXPECT_EQ(changed + ceiling, "--") << line;
    } else if (dof == "fragment" || dof == "compute") {
      EXPECT_EQ(changed, "0.00%") << line;
      EXPECT_EQ(ceiling, lens) << line;
    } else {
      EXPECT_NE(changed, "0.00%") << line;
      EXPECT_GE(std::stod(ceiling), std::stod(lens)) << line;
    }
    EXPECT_TRUE(aperture == "box" || aperture == "disc") << line;
    discRows += aperture == "disc";
    const std::string scores = lens + lensBand + lensEncoded + scatter + scatterBand + inFocus;
    const std::string key = scene + focus + aperture;
    EXPECT_EQ(inFocus, "100.00%") << line;
    if (dof == "fragment") {
      fragmentRow[key] = scores;
      fragmentScatter[key] = std::stod(scatter);
      fragmentLens[key] = std::stod(lens);
      fragmentLensBand[key] = std::stod(lensBand);
    }
    if (dof == "compute") {
      EXPECT_EQ(scores, fragmentRow[key]) << "the fragment and compute passes give the same image";
    }
    if (dof == "compute" && aperture == "disc") {
      EXPECT_NE(scores, fragmentRow[scene + focus + "box"]) << "the disc is not the box: " << line;
    }
    if (dof == "layered") {
      layeredLens[key] = std::stod(lens);
      layeredLensBand[key] = std::stod(lensBand);
    }
    // See-through on blurred-front (the near teapot over the sharp wall it hides in part):
    // closer to the lens than layered, over the image and in the silhouette band.
    if (dof == "see-through" && scene == "blurred-front") {
      ++seeThroughRows;
      ASSERT_TRUE(layeredLens.count(key)) << r.out;
      EXPECT_GT(std::stod(lens), layeredLens[key] + 1.0) << line;
      EXPECT_GT(std::stod(lensBand), layeredLensBand[key] + 1.0) << line;
    }
    if (dof != "layered" || aperture != "box" || (scene != "sharp-front" && scene != "blurred-front")) continue;
    ++artifactRows;
    ASSERT_TRUE(fragmentScatter.count(key)) << r.out;
    EXPECT_GT(std::stod(lens), fragmentLens[key]) << line;
    EXPECT_GT(std::stod(lensBand), fragmentLensBand[key]) << line;
    if (scene == "sharp-front") {
      EXPECT_GE(std::stod(scatter), fragmentScatter[key] + 3.0) << line;
    }
  }
  EXPECT_EQ(artifactRows, 2) << r.out;
  EXPECT_EQ(seeThroughRows, 2) << r.out;  // box and disc
  // Five cases: the scattering truth and the five implementations the CPU backend runs
  // (all but cuda) each, with each aperture.
  EXPECT_EQ(rows, 5 * 6 * 2) << r.out;
  EXPECT_EQ(discRows, 5 * 6) << r.out;
  for (const char* image :
       {"_scatter", "_scatter_disc", "_lens", "_compute", "_compute_disc", "_layered_disc", "_see-through",
        "_see-through-linear"})
    EXPECT_TRUE(fs::exists(out / ("sharp-front_focus3.0" + std::string(image) + ".png"))) << image;
  std::ifstream file(csv);
  std::string header;
  ASSERT_TRUE(std::getline(file, header)) << "no " << csv;
  EXPECT_EQ(header, "scene,focus,implementation,psnr_db,psnr_band_db,infocus_identical_pct,truth,aperture,lens_aperture");
  int csvRows = 0;
  for (std::string line; std::getline(file, line); ++csvRows) {
    ASSERT_EQ(std::count(line.begin(), line.end(), ','), 8) << line;
    std::vector<std::string> cells;
    std::istringstream cellsOf(line);
    for (std::string cell; std::getline(cellsOf, cell, ',');) cells.push_back(cell);
    ASSERT_EQ(cells.size(), 9u) << line;
    EXPECT_TRUE(cells[6] == "lens" || cells[6] == "scatter") << line;
    EXPECT_TRUE(cells[7] == "box" || cells[7] == "disc") << line;
    EXPECT_EQ(cells[8], "disc") << line;
  }
  // Per case and aperture: scatter against the lens, five implementations against both.
  EXPECT_EQ(csvRows, 5 * 11 * 2);
  fs::remove_all(out);
}

// --aperture scores that shape alone, against a lens truth of the same shape unless
// --lens-aperture names one: the box alone against a square lens, the disc against a
// square lens when asked.
TEST(App, QualityScoresTheApertureGivenAgainstTheMatchingLens) {
  const fs::path out = freshDir("quality_aperture");
  const std::string common = "quality --backend cpu --scene sharp-front --size 64x36 --lens-renders 2 --out " +
                             out.string() + " --csv " + (out / "q.csv").string();
  for (const auto& [flags, aperture, lens] :
       {std::tuple{"--aperture box", "box", "square"}, std::tuple{"--aperture disc", "disc", "disc"},
        std::tuple{"--aperture disc --lens-aperture square", "disc", "square"}}) {
    SCOPED_TRACE(flags);
    const RunResult r = run(common + " " + flags);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("lens truth: " + std::string(lens) + " aperture"), std::string::npos) << r.out;
    std::ifstream file(out / "q.csv");
    std::string line;
    ASSERT_TRUE(std::getline(file, line));
    std::string columns = ",";  // the last two: the DoF's aperture, the lens truth's
    columns.append(aperture).append(",").append(lens);
    int rows = 0;
    for (; std::getline(file, line); ++rows) EXPECT_TRUE(line.ends_with(columns)) << line;
    EXPECT_EQ(rows, 11) << "scatter against the lens, five implementations against both truths";
  }
  fs::remove_all(out);
}

// A --csv that cannot be written: one line, exit 2, before any rendering.
TEST(App, QualityRefusesACsvItCannotWrite) {
  const RunResult r = run("quality --backend cpu --size 64x36 --out " + freshDir("quality_csv").string() +
                          " --csv /proc/nonexistent-folder/q.csv");
  EXPECT_EQ(r.exitCode, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("quality --csv '/proc/nonexistent-folder/q.csv': cannot write into '/proc'"),
            std::string::npos)
      << r.err;
  EXPECT_FALSE(fs::exists(freshDir("quality_csv"))) << "a refused run makes no --out folder";
  EXPECT_EQ(r.out.find("lens truth:"), std::string::npos) << r.out;
  fs::remove_all(freshDir("quality_csv"));
}

// The gl-compute backend renders the CPU backend's frame: unfiltered (in a float SAT
// format too, and with the layered DoF, whose field SATs it builds), and filtered by a
// GLSL convolution against the cpu implementation of the same maths (the direct sum; the
// exact box mean, whose SAT-based GLSL version reads the SAT of the scene).
// A backend whose registration fails (injected: the N-th attach throws, as a driver that
// refuses to register the targets would) hands the frame to the next backend in `auto`'s
// order, says so in one line, and the frames go on, equal to that backend's own.
void expectFallbackFrom(const std::string& failing, const std::string& next, const std::string& nextLabel) {
  const fs::path fell = freshDir("fallback_" + failing), plain = freshDir("fallback_plain_" + next);
  const std::string common = "--headless --frames 2 --size 320x180 ";
  const RunResult rf = run(common + "--backend " + failing + " --out " + fell.string(),
                           "SATDOF_INJECT_ATTACH_FAILURE=" + failing + ":1 ");
  if (rf.exitCode == 3) SATDOF_SKIP_WITHOUT_GL(failing + " backend unavailable: " + rf.err);
  ASSERT_EQ(rf.exitCode, 0) << rf.err;
  const std::string line = "the " + failing + " backend cannot run this frame";
  ASSERT_NE(rf.err.find(line), std::string::npos) << rf.err;
  EXPECT_NE(rf.err.find("now " + nextLabel + " backend"), std::string::npos) << rf.err;
  EXPECT_NE(rf.out.find("backend " + next), std::string::npos) << rf.out;  // the summary's backend
  const RunResult rp = run(common + "--backend " + next + " --out " + plain.string());
  ASSERT_EQ(rp.exitCode, 0) << rp.err;
  const Png a = loadPng(fell / "frame_0001.png"), b = loadPng(plain / "frame_0001.png");
  expectNotBlank(a);
  EXPECT_TRUE(a.rgba == b.rgba) << "after the fallback the frame must be " << next << "'s own";
}

TEST(App, GlComputeBackendThatFailsToAttachHandsOverToTheCpuBackend) {
  expectFallbackFrom("gl-compute", "cpu", "CPU");
}

TEST(App, CudaBackendThatFailsToAttachHandsOverToGlCompute) {
  const RunResult probe = run("--headless --frames 1 --size 16x16 --backend cuda --save none --out " +
                              freshDir("fallback_probe").string());
  if (probe.exitCode == 3) SATDOF_SKIP_WITHOUT_GPU("CUDA backend unavailable: " + probe.err);
  expectFallbackFrom("cuda", "gl-compute", "GL-compute");
}

TEST(App, GlComputeBackendGivesTheCpuImage) {
  struct Case {
    const char *glCompute, *cpu;
  };
  for (const Case c : {Case{"", ""}, Case{"--sat-format float32-offset", "--sat-format float32-offset"},
                       Case{"--sat-format uint21x3 --dof layered --max-blur 44", "--max-blur 44 --dof layered"},
                       Case{"--dof layered", "--dof layered"},
                       Case{"--filter gaussian --radius 3 --conv glsl-tiled-halo --view split --compare glsl-basic "
                            "--no-labels",  // the labels name each backend's convolutions
                            "--filter gaussian --radius 3 --conv cpu-direct --view split --compare cpu-direct "
                            "--no-labels"},
                       Case{"--filter gaussian --radius 3 --conv glsl-tiled-halo",
                            "--filter gaussian --radius 3 --conv cpu-direct"},
                       Case{"--filter box --radius 5 --border zero --conv glsl-sat-box",
                            "--filter box --radius 5 --border zero --conv cpu-box-sum"}}) {
    SCOPED_TRACE(c.glCompute);
    const fs::path gpu = freshDir("glc_gl"), cpu = freshDir("glc_cpu");
    const std::string common = "--headless --frames 2 --size 480x270 ";
    const RunResult rg = run(common + "--backend gl-compute --out " + gpu.string() + " " + c.glCompute);
    if (rg.exitCode == 3) SATDOF_SKIP_WITHOUT_GL("gl-compute backend unavailable: " + rg.err);
    ASSERT_EQ(rg.exitCode, 0) << rg.err;
    EXPECT_NE(rg.out.find("GL-compute backend"), std::string::npos) << rg.out;
    const RunResult rp = run(common + "--backend cpu --out " + cpu.string() + " " + c.cpu);
    ASSERT_EQ(rp.exitCode, 0) << rp.err;
    const Png a = loadPng(cpu / "frame_0001.png"), b = loadPng(gpu / "frame_0001.png");
    expectNotBlank(a);
    EXPECT_TRUE(a.rgba == b.rgba) << "the gl-compute and cpu backends must give the same image";
  }
}

// Bokeh highlights (on by default) with a threshold that makes thousands of them, capped:
// the gl-compute backend's compute shaders and the cuda backend's kernels (where it can
// run) draw the frame of the cpu backend's reference list, byte for byte, and say the
// same counts; the sprites are really drawn (the frame differs from --bokeh off).
TEST(App, BokehFramesAreTheSameOnEveryBackend) {
  const std::string common = "--headless --frames 5 --size 480x270 --max-blur 16 --bokeh-threshold 150 --bokeh-contrast 1 --bokeh-max 3000 ";
  auto counts = [](const std::string& out) {
    const std::size_t at = out.find("bokeh highlights:");
    return at == std::string::npos ? std::string() : out.substr(at, out.find(';', at) - at);
  };
  const fs::path cpu = freshDir("bokeh_cpu"), off = freshDir("bokeh_off");
  const RunResult rp = run(common + "--backend cpu --out " + cpu.string());
  ASSERT_EQ(rp.exitCode, 0) << rp.err;
  EXPECT_NE(counts(rp.out).find("3000 sprites drawn (cap 3000), capped"), std::string::npos) << rp.out;
  const RunResult ro = run("--headless --frames 5 --size 480x270 --max-blur 16 --backend cpu --bokeh off --out " +
                           off.string());
  ASSERT_EQ(ro.exitCode, 0) << ro.err;
  const Png expected = loadPng(cpu / "frame_0004.png");
  expectNotBlank(expected);
  EXPECT_FALSE(expected.rgba == loadPng(off / "frame_0004.png").rgba) << "no sprite was drawn";
  for (const char* backend : {"gl-compute", "cuda"}) {
    SCOPED_TRACE(backend);
    const fs::path out = freshDir(std::string("bokeh_") + backend);
    const RunResult r = run(common + "--backend " + backend + " --out " + out.string());
    if (r.exitCode == 3) {
      std::printf("the %s backend's part not run here: %s", backend, r.err.c_str());
      continue;
    }
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(counts(r.out), counts(rp.out));
    EXPECT_TRUE(loadPng(out / "frame_0004.png").rgba == expected.rgba) << "differs from the cpu backend's frame";
  }
}

// Every lamp of the default scene that is out of focus and bright gets its sprite, seen on
// the image: at a blur radius of 30 a sprite adds well under a grey level a pixel, so the
// sprites must add up before they meet the 8-bit image (bokeh_pass.h). Lamp by lamp, the
// frame with bokeh is brighter than the one without around the lamp (where the scene's own
// projection puts it), by a few grey levels over most of its hexagon.
TEST(App, EveryOutOfFocusLampGetsAVisibleBokehSprite) {
  const std::string common =
      "--headless --frames 1 --backend cpu --size 1280x720 --max-blur 30 --focal 30 --out ";
  const fs::path on = freshDir("lamps_bokeh_on"), off = freshDir("lamps_bokeh_off");
  const RunResult ron = run(common + on.string() + " --bokeh-shape hexagon");
  ASSERT_EQ(ron.exitCode, 0) << ron.err;
  ASSERT_EQ(run(common + off.string() + " --bokeh off").exitCode, 0);
  const Png a = loadPng(on / "frame_0000.png"), b = loadPng(off / "frame_0000.png");
  ASSERT_EQ(a.width, 1280);
  ASSERT_EQ(a.rgba.size(), b.rgba.size());
  int lamps = 0;
  for (const auto& [cx, cy] : lampCentres(a.width, a.height)) {
    ++lamps;
    SCOPED_TRACE("lamp " + std::to_string(lamps) + " at (" + std::to_string(cx) + ", " + std::to_string(cy) + ")");
    // Within the hexagon's inscribed circle (30 cos 30deg = 26 px, less a margin).
    constexpr int kR = 22;
    int brighter = 0, inside = 0;
    for (int y = std::max(cy - kR, 0); y <= std::min(cy + kR, a.height - 1); ++y)
      for (int x = std::max(cx - kR, 0); x <= std::min(cx + kR, a.width - 1); ++x) {
        if ((x - cx) * (x - cx) + (y - cy) * (y - cy) > kR * kR) continue;
        ++inside;
        const std::size_t k = (std::size_t(y) * a.width + x) * 4;
        int more = 255;
        for (int c = 0; c < 3; ++c) more = std::min(more, int(a.rgba[k + c]) - int(b.rgba[k + c]));
        brighter += more >= 3;
      }
    EXPECT_GT(brighter, inside * 3 / 4) << brighter << " of " << inside << " pixels 3 grey levels brighter";
  }
  EXPECT_EQ(lamps, 5);
}

// --bokeh-blades shapes the sprites: four blades make a square inscribed in the circle of
// confusion (its corners on the circle, its edges 0.71 r from the centre), round (0) the
// circle itself. Lamp by lamp, with r how far right of the lamp the round sprite reaches:
// a point on an axis 0.88 r out is lit by the round sprite and not by the square, a point
// on a diagonal 0.8 r out by both.
TEST(App, BokehBladesShapeTheSprites) {
  const std::string common = "--headless --frames 1 --backend cpu --size 1280x720 --max-blur 30 --focal 30 --out ";
  const fs::path off = freshDir("blades_off"), round = freshDir("blades_0"), square = freshDir("blades_4");
  ASSERT_EQ(run(common + off.string() + " --bokeh off").exitCode, 0);
  const RunResult r0 = run(common + round.string() + " --bokeh-blades 0");
  ASSERT_EQ(r0.exitCode, 0) << r0.err;
  const RunResult r4 = run(common + square.string() + " --bokeh-blades 4");
  ASSERT_EQ(r4.exitCode, 0) << r4.err;
  const Png none = loadPng(off / "frame_0000.png"), disc = loadPng(round / "frame_0000.png"),
            box = loadPng(square / "frame_0000.png");
  ASSERT_EQ(none.rgba.size(), disc.rgba.size());
  ASSERT_EQ(none.rgba.size(), box.rgba.size());
  // Lit: every channel of the 3x3 pixels about (x, y) brighter than without bokeh.
  auto lit = [&](const Png& png, int x, int y) {
    int least = 255;
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        const std::size_t k = (std::size_t(y + dy) * png.width + (x + dx)) * 4;
        for (int c = 0; c < 3; ++c) least = std::min(least, int(png.rgba[k + c]) - int(none.rgba[k + c]));
      }
    return least >= 2;
  };
  int lamps = 0;
  for (const auto& [cx, cy] : lampCentres(disc.width, disc.height)) {
    ++lamps;
    SCOPED_TRACE("lamp " + std::to_string(lamps) + " at (" + std::to_string(cx) + ", " + std::to_string(cy) + ")");
    ASSERT_TRUE(cx > 40 && cx < disc.width - 40 && cy > 40 && cy < disc.height - 40);
    int r = 0;  // the lamp's own blur (the lamps nearest the focus have less than 30 px)
    while (r < 40 && lit(disc, cx + r + 1, cy)) ++r;
    ASSERT_GE(r, 16);
    const int kAxis = int(std::lround(0.88 * r)), kDiagonal = int(std::lround(0.8 * r / std::sqrt(2.0)));
    for (const auto& [dx, dy] : {std::pair{kAxis, 0}, {-kAxis, 0}, {0, kAxis}, {0, -kAxis}}) {
      EXPECT_TRUE(lit(disc, cx + dx, cy + dy)) << "round, at (" << dx << ", " << dy << ")";
      EXPECT_FALSE(lit(box, cx + dx, cy + dy)) << "four blades, at (" << dx << ", " << dy << ")";
    }
    for (const int dx : {-kDiagonal, kDiagonal})
      for (const int dy : {-kDiagonal, kDiagonal}) {
        EXPECT_TRUE(lit(disc, cx + dx, cy + dy)) << "round, at (" << dx << ", " << dy << ")";
        EXPECT_TRUE(lit(box, cx + dx, cy + dy)) << "four blades, at (" << dx << ", " << dy << ")";
      }
  }
  EXPECT_EQ(lamps, 5);
}

// satdof soak switches every registry entry at random; each check renders the same
// settings in a fresh process and compares the bytes.
TEST(App, SoakSwitchingEveryEntryMatchesFreshRenders) {
  const fs::path out = freshDir("soak");
  const RunResult r = run("soak --backend cpu --frames 90 --check-every 30 --size 160x90 --seed 3 --out " +
                          out.string());
  ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
  // Three checks match fresh renders; too few to judge memory by (the long soaks do:
  // docs/PERFORMANCE.md), and the run says so rather than guess from two points.
  EXPECT_NE(r.out.find("0 mismatches, memory not judged (3 checks"), std::string::npos) << r.out;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n') >= 3, true);
  // On Mesa's llvmpipe the soak rasterizes on its own thread unless told otherwise, so
  // that the rasterizer threads' binning pool does not swing its memory readings.
  if (r.out.find("llvmpipe") != std::string::npos && !std::getenv("LP_NUM_THREADS")) {
    EXPECT_NE(r.out.find("the software GL rasterizes with LP_NUM_THREADS=0 (on this thread"), std::string::npos)
        << r.out;
  }
}

// The largest difference the summary reports ("satdof: max difference A: ... vs B: ...: N
// grey levels"), or -1 when it reports none.
int maxDifferenceIn(const std::string& out) {
  const std::size_t at = out.find("satdof: max difference ");
  if (at == std::string::npos) return -1;
  const std::size_t end = out.find(" grey levels", at);
  const std::size_t colon = out.rfind(": ", end);
  return end == std::string::npos || colon == std::string::npos ? -1 : std::atoi(out.c_str() + colon + 2);
}

bool blackImage(const Png& png) {
  for (std::size_t i = 0; i < png.rgba.size(); i += 4)
    if (png.rgba[i] + png.rgba[i + 1] + png.rgba[i + 2] != 0) return false;
  return png.width > 0;
}

// Identical configurations give a black difference with maximum 0: B = A, the same
// convolution named for both, and the same pipeline on two backends at once (the CPU
// beside GL compute shaders or CUDA, two CUDA backends with other scan variants: every
// backend and variant writes the same bytes). A backend not available here is said and
// passed over.
TEST(AppCompare, IdenticalConfigurationsGiveAZeroDifference) {
  std::vector<std::string> cases = {
      "--backend cpu --compare-b dof=", "--backend cpu --filter box --radius 2 --conv cpu-direct --compare cpu-direct",
      "--backend cpu --dof layered --compare-b dof=layered,sat-format=uint32",
      "--backend cpu --compare-b backend=gl-compute", "--backend gl-compute --sat-format float32 --compare-b backend=cpu"};
  // The CUDA backend's options (scan, sat) are flags only in a build with CUDA.
  const RunResult cuda = run("--headless --frames 1 --size 16x16 --backend cuda --save none");
  if (cuda.exitCode == 0)
    cases.insert(cases.end(), {"--backend cuda --compare-b backend=cpu", "--backend cpu --compare-b backend=cuda",
                               "--backend cuda --compare-b scan=blelloch,sat=rows-columns"});
  else
    std::printf("skipped the CUDA cases: %s", cuda.err.c_str());
  for (const std::string& args : cases) {
    SCOPED_TRACE(args);
    const fs::path out = freshDir("compare_same");
    const RunResult r =
        run("--headless --frames 2 --size 160x90 --view diff --no-labels --out " + out.string() + " " + args);
    // Only CUDA may be missing: gl-compute runs on any GL 4.3 (its default scan variant
    // is the GL's to choose, for B as for A).
    if (r.exitCode == 3 && args.find("cuda") != std::string::npos) {
      std::printf("skipped (a backend is unavailable here): %s", r.err.c_str());
      continue;
    }
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(maxDifferenceIn(r.out), 0) << r.out;
    EXPECT_NE(r.out.find("satdof: comparing A: "), std::string::npos) << r.out;
    EXPECT_TRUE(blackImage(loadPng(out / "frame_0001.png")));
  }
}

// A comparison opened without a B (none on the command line, no settings file) compares A
// with the other depth-of-field family, says so on stdout once, and differs visibly in the
// default scene; an explicit --compare-b wins, `--compare-b dof=` (B = A) too.
TEST(AppCompare, WithoutABTheOtherDofFamilyIsComparedAndSaid) {
  struct Case {
    std::string args, b;  // B's DoF by default ("": none chosen, --compare-b given)
  };
  for (const Case& c : {Case{"", "layered"}, Case{"--dof layered", "compute"}, Case{"--dof see-through", "compute"},
                        Case{"--compare-b aperture=disc", ""}, Case{"--compare-b dof=", ""}}) {
    SCOPED_TRACE(c.args);
    const RunResult r = run("--headless --backend cpu --frames 2 --size 320x180 --view diff --save none " + c.args);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const std::string said = "satdof: compare: no B was set: B = A with dof=";
    const std::size_t at = r.out.find(said);
    if (c.b.empty()) {
      EXPECT_EQ(at, std::string::npos) << "an explicit --compare-b is kept: " << r.out;
      continue;
    }
    ASSERT_NE(at, std::string::npos) << r.out;
    EXPECT_EQ(r.out.find(said, at + 1), std::string::npos) << "said once: " << r.out;
    EXPECT_EQ(r.out.compare(at + said.size(), c.b.size() + 1, c.b + " "), 0) << r.out;
    EXPECT_NE(r.out.find("with B: " + c.b), std::string::npos) << r.out;
    EXPECT_GE(maxDifferenceIn(r.out), 16) << "not a difference worth seeing: " << r.out;
  }
}

// A 320-wide split frame `s`: A's pixels left of the divider at x = 160, B's right of it
// (the divider covers the columns whose centres lie within a pixel of it).
void expectSplitOf(const Png& s, const Png& a, const Png& b) {
  ASSERT_EQ(s.width, a.width);
  ASSERT_EQ(s.height, a.height);
  std::size_t wrongLeft = 0, wrongRight = 0;
  for (int y = 0; y < s.height; ++y)
    for (int x = 0; x < s.width; ++x) {
      if (x == 159 || x == 160) continue;
      const std::size_t i = (std::size_t(y) * s.width + x) * 4;
      const Png& expected = x < 159 ? a : b;
      if (!std::equal(&s.rgba[i], &s.rgba[i] + 4, &expected.rgba[i])) ++(x < 159 ? wrongLeft : wrongRight);
    }
  EXPECT_EQ(wrongLeft, 0u) << "pixels of the left half that are not A's";
  EXPECT_EQ(wrongRight, 0u) << "pixels of the right half that are not B's";
}

// Two configurations known to differ (the textbook DoF on an exact table against the
// layered one on a float table, at a large blur): the split view's left half is A's plain
// render, its right half B's, but for the two columns of the divider; the difference view
// reports a non-zero maximum. B on the CPU backend, and on gl-compute beside A's CPU.
TEST(AppCompare, SplitShowsConfigurationAOnTheLeftAndBOnTheRight) {
  const std::string common = "--headless --frames 2 --size 320x180 --msaa 1 --max-blur 24 --backend cpu ";
  const fs::path plainA = freshDir("compare_plain_a"), plainB = freshDir("compare_plain_b");
  ASSERT_EQ(run(common + "--dof compute --sat-format uint32 --out " + plainA.string()).exitCode, 0);
  ASSERT_EQ(run(common + "--dof layered --sat-format float32 --out " + plainB.string()).exitCode, 0);
  const Png a = loadPng(plainA / "frame_0001.png"), b = loadPng(plainB / "frame_0001.png");
  ASSERT_EQ(a.width, 320);
  ASSERT_FALSE(a.rgba == b.rgba) << "the two configurations should differ";
  for (const char* backendB : {"cpu", "gl-compute"}) {
    SCOPED_TRACE(backendB);
    const std::string fields = std::string("dof=layered,sat-format=float32,backend=") + backendB;
    const fs::path split = freshDir("compare_split"), diff = freshDir("compare_diff");
    const RunResult rs =
        run(common + "--dof compute --view split --no-labels --compare-b " + fields + " --out " + split.string());
    if (rs.exitCode == 3) {
      std::printf("skipped: %s", rs.err.c_str());
      continue;
    }
    ASSERT_EQ(rs.exitCode, 0) << rs.err;
    EXPECT_NE(rs.out.find("comparing A: compute \u00b7 uint32"), std::string::npos) << rs.out;
    expectSplitOf(loadPng(split / "frame_0001.png"), a, b);
    const RunResult rd = run(common + "--dof compute --view diff --compare-b " + fields + " --out " + diff.string());
    ASSERT_EQ(rd.exitCode, 0) << rd.err;
    EXPECT_GT(maxDifferenceIn(rd.out), 0) << rd.out;
    EXPECT_NE(rd.out.find("B ms"), std::string::npos) << "A's and B's stage times side by side: " << rd.out;
  }
}

// B's aperture is its own field: A's box beside B's disc, each the frame of a run with that
// aperture alone, labelled with it; a shape that does not exist is refused in one line.
TEST(AppCompare, BoxBesideDiscAperture) {
  const std::string common = "--headless --frames 2 --size 320x180 --msaa 1 --max-blur 24 --backend cpu ";
  const fs::path box = freshDir("aperture_box"), disc = freshDir("aperture_disc"), split = freshDir("aperture_split");
  ASSERT_EQ(run(common + "--out " + box.string()).exitCode, 0);
  ASSERT_EQ(run(common + "--aperture disc --out " + disc.string()).exitCode, 0);
  const Png a = loadPng(box / "frame_0001.png"), b = loadPng(disc / "frame_0001.png");
  ASSERT_FALSE(a.rgba == b.rgba) << "box and disc should differ";
  const RunResult r =
      run(common + "--view split --no-labels --compare-b aperture=disc --out " + split.string());
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("\u00b7 box with B: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\u00b7 disc\n"), std::string::npos) << r.out;
  expectSplitOf(loadPng(split / "frame_0001.png"), a, b);
  const RunResult bad = run(common + "--compare-b aperture=round --save none");
  EXPECT_EQ(bad.exitCode, 2) << bad.err;
  EXPECT_EQ(std::count(bad.err.begin(), bad.err.end(), '\n'), 1) << bad.err;
  EXPECT_NE(bad.err.find("aperture"), std::string::npos) << bad.err;
}

// The layered DoF beside the see-through one, and beside see-through-linear: B's half is
// B's own frame (its second layer drawn once, from A's scene; the linear one's fourth
// field in B's targets), A's the layered frame; on the blurred-front scene, where they
// differ.
TEST(AppCompare, LayeredBesideSeeThrough) {
  const std::string common =
      "--headless --frames 2 --size 320x180 --msaa 1 --max-blur 24 --backend cpu --scene blurred-front ";
  const fs::path layered = freshDir("st_layered");
  ASSERT_EQ(run(common + "--dof layered --out " + layered.string()).exitCode, 0);
  const Png a = loadPng(layered / "frame_0001.png");
  for (const std::string dof : {"see-through", "see-through-linear"}) {
    SCOPED_TRACE(dof);
    const fs::path see = freshDir("st_see_" + dof), split = freshDir("st_split_" + dof);
    const RunResult alone = run(common + "--dof " + dof + " --out " + see.string());
    ASSERT_EQ(alone.exitCode, 0) << alone.err;
    EXPECT_NE(alone.out.find("scene layer 2"), std::string::npos) << "its own section: " << alone.out;
    const Png b = loadPng(see / "frame_0001.png");
    ASSERT_FALSE(a.rgba == b.rgba) << "layered and " << dof << " should differ here";
    const RunResult r =
        run(common + "--dof layered --view split --no-labels --compare-b dof=" + dof + " --out " + split.string());
    ASSERT_EQ(r.exitCode, 0) << r.err;
    expectSplitOf(loadPng(split / "frame_0001.png"), a, b);
  }
}

// Where a headless split or difference frame differs from the same frame written with
// --no-labels: the box around the labels drawn into it (none: {}).
struct LabelBox {
  int x0 = 0, y0 = 0, x1 = -1, y1 = -1;  // inclusive; rows from the top
  bool empty() const { return x1 < x0; }
};
LabelBox labelBox(const std::string& args, const std::string& name, std::string* out = nullptr) {
  Png frames[2];
  for (int k = 0; k < 2; ++k) {
    const fs::path dir = freshDir(name + (k ? "_plain" : "_labelled"));
    const RunResult r = run("--headless --frames 2 --save last --size 320x180 --msaa 1 --backend cpu --out " +
                            dir.string() + " " + args + (k ? " --no-labels" : ""));
    EXPECT_EQ(r.exitCode, 0) << r.err;
    if (out && k == 0) *out = r.out;
    frames[k] = loadPng(dir / "frame_0001.png");
  }
  LabelBox box{frames[0].width, frames[0].height, -1, -1};
  EXPECT_EQ(frames[0].rgba.size(), frames[1].rgba.size());
  if (frames[0].rgba.size() != frames[1].rgba.size()) return {};
  for (int y = 0; y < frames[0].height; ++y)
    for (int x = 0; x < frames[0].width; ++x) {
      const std::size_t i = (std::size_t(y) * frames[0].width + x) * 4;
      if (std::equal(&frames[0].rgba[i], &frames[0].rgba[i] + 4, &frames[1].rgba[i])) continue;
      box = {std::min(box.x0, x), std::min(box.y0, y), std::max(box.x1, x), std::max(box.y1, y)};
    }
  return box;
}

// Headless split and difference PNGs carry the window's labels: A's left of the divider,
// B's right of it, near the top and nowhere else; a B that cannot run the filter says so
// on the image, in a line under them.
TEST(AppCompare, HeadlessSplitAndDiffCarryTheLabels) {
  const LabelBox split = labelBox("--view split --compare-b dof=layered", "labels_split");
  ASSERT_FALSE(split.empty()) << "no label drawn";
  EXPECT_LT(split.x0, 150) << "A's label, left of the divider at 160";
  EXPECT_GT(split.x1, 170) << "B's label, right of it";
  EXPECT_GE(split.y0, 5);
  EXPECT_LT(split.y1, 70) << "only the labels' rows at the top";
  std::string out;
  const LabelBox note = labelBox("--view split --filter sharpen --conv cpu-direct --compare cpu-separable",
                                 "labels_note", &out);
  EXPECT_NE(out.find("B: filter not applied: cpu-separable: "), std::string::npos) << out;
  const LabelBox filtering = labelBox("--view split --filter sharpen --conv cpu-direct --compare cpu-direct",
                                      "labels_filtering");
  ASSERT_FALSE(note.empty() || filtering.empty());
  EXPECT_GT(note.y1, filtering.y1 + 20) << "B's 'not filtering' line under the labels";
  EXPECT_LE(note.y0, filtering.y0);
  const LabelBox diff = labelBox("--view diff --compare-b dof=layered", "labels_diff");
  ASSERT_FALSE(diff.empty()) << "no label drawn";
  EXPECT_LT(diff.y1, 90) << "only the labels' rows at the top";
}

// B on a backend that cannot run here is refused like A's: one line, exit code 3.
TEST(AppCompare, UnavailableBackendForBExits3WithOneLine) {
  const RunResult r = run("--headless --frames 1 --size 160x90 --backend cpu --view split --compare-b backend=cuda "
                          "--save none");
  if (r.exitCode == 0) GTEST_SKIP() << "the cuda backend runs here";
  EXPECT_EQ(r.exitCode, 3) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_EQ(r.err.rfind("satdof: --compare-b: ", 0), 0u) << r.err;
}

// Random window sizes (1x1, very wide, very tall, minimised) and back: the last frame's
// DoF image equals a fresh start's, memory flat; at the software GL's own render scale
// (0.5, the default a user gets there) and at 1.
TEST(App, ResizeStormUnderXvfbEndsLikeAFreshStart) {
  SATDOF_SKIP_WITHOUT_XVFB();
  for (const std::string scale : {"", " --render-scale 1"}) {
    const fs::path out = freshDir("resize_storm");
    const RunResult r = runUnderXvfb(
        "resize-storm --backend cpu --frames 50 --max-side 400 --size 240x136 --seed 5 --out " + out.string() + scale);
    ASSERT_EQ(r.exitCode, 0) << scale << "\n" << r.out << r.err;
    EXPECT_NE(r.out.find("equal to a fresh start's; resident memory flat"), std::string::npos) << r.out;
  }
}

TEST(App, WindowUnderXvfbRendersAndExits) {
  SATDOF_SKIP_WITHOUT_XVFB();
  const fs::path shot = fs::path(kTestOut) / "artifacts" / "window.png";
  fs::remove(shot);
  const RunResult r = runUnderXvfb("--frames 5 --size 800x450 --backend cpu --screenshot " + shot.string());
  ASSERT_EQ(r.exitCode, 0) << r.err << r.out;
  const Png png = loadPng(shot);
  EXPECT_EQ(png.width, 800);
  EXPECT_EQ(png.height, 450);
  expectNotBlank(png);
}

// `satdof bench` where no CUDA device answers (this machine, CI): one plain line, no build
// path, and the exit code of a backend that is not there (3). Where a device runs it, the
// bench's own tests are scripts/gpu-check's.
TEST(App, BenchWithoutACudaDeviceIsOneLineAndExit3) {
  const RunResult r = run("bench scan --quick --repeats 1 --warmup 0");
  if (r.exitCode == 0) GTEST_SKIP() << "a CUDA device runs the bench here";
  EXPECT_EQ(r.exitCode, 3) << r.out << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_EQ(r.err.rfind("satdof: bench needs ", 0), 0u) << r.err;
  EXPECT_EQ(r.err.find(".cpp"), std::string::npos) << r.err;
}

// A flag with no effect in a headless run says so; a window-only one is refused there.
TEST(App, NoSettingsInAHeadlessRunSaysItHasNoEffect) {
  const RunResult r = run("--headless --backend cpu --frames 1 --size 32x18 --save none --no-settings");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("--no-settings has no effect here: a headless run never reads or writes the settings file"),
            std::string::npos)
      << r.out;
}

// ---- Files the run cannot write, and runs stopped by a signal.

// A tmpfs of `bytes` mounted at `at` for a test's life (mounting needs root: CI runs as
// root; elsewhere the test skips, saying so).
class SmallFileSystem {
 public:
  SmallFileSystem(const fs::path& at, std::size_t bytes) : at_(at) {
    fs::create_directories(at);
    const std::string size = "size=" + std::to_string(bytes);
    if (::mount("tmpfs", at.c_str(), "tmpfs", 0, size.c_str()) != 0) why_ = std::strerror(errno);
  }
  ~SmallFileSystem() {
    if (why_.empty()) ::umount2(at_.c_str(), MNT_DETACH);
    std::error_code ec;
    fs::remove_all(at_, ec);
  }
  // Why it could not be mounted (empty: mounted).
  const std::string& why() const { return why_; }

 private:
  fs::path at_;
  std::string why_;
};

// Every name under `dir` that starts with a dot: a temporary file left behind.
std::vector<std::string> hiddenFilesIn(const fs::path& dir) {
  std::vector<std::string> hidden;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.path().filename().string().starts_with(".")) hidden.push_back(e.path().string());
  return hidden;
}

// Every PNG under `dir` decodes whole at w x h; how many there are.
int expectWholePngs(const fs::path& dir, int w, int h) {
  int n = 0;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().extension() != ".png") continue;
    ++n;
    const Png png = loadPng(e.path());
    EXPECT_EQ(png.width, w) << e.path() << " does not decode whole";
    EXPECT_EQ(png.height, h) << e.path();
  }
  return n;
}

// satdof started in the background (stdout, stderr to files in `dir`), for a test that
// acts on it while it runs: sends it a signal, waits for it.
class Background {
 public:
  Background(const std::string& command, const fs::path& dir) : out_(dir / "out"), err_(dir / "err") {
    const std::string line = "exec " + command + " >" + out_.string() + " 2>" + err_.string();
    const char* argv[] = {"/bin/sh", "-c", line.c_str(), nullptr};
    if (::posix_spawn(&pid_, "/bin/sh", nullptr, nullptr, const_cast<char**>(argv), environ) != 0) pid_ = -1;
  }
  ~Background() {
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
  }
  bool started() const { return pid_ > 0; }
  // Waits (at most `seconds`) until `ready` holds; false if it never did or satdof ended.
  template <typename Ready>
  bool waitFor(Ready ready, int seconds = 120) {
    for (int i = 0; i < seconds * 20; ++i) {
      if (ready()) return true;
      if (::waitpid(pid_, &status_, WNOHANG) == pid_) {
        pid_ = -1;
        return false;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return false;
  }
  void signal(int s) { ::kill(pid_, s); }
  // The wait status once it has ended.
  int wait() {
    if (pid_ > 0) ::waitpid(pid_, &status_, 0);
    pid_ = -1;
    return status_;
  }
  std::string out() const { return slurp(out_); }
  std::string err() const { return slurp(err_); }

 private:
  pid_t pid_ = -1;
  int status_ = 0;
  fs::path out_, err_;
};

// A full file system used to leave 0-byte PNGs and say "wrote", exit 0: now the frame
// that does not fit ends the run, one line naming it, exit 1; the frames before it are
// whole and no temporary file is left.
TEST(AppFiles, HeadlessFramesOnAFullFileSystemFailNamingTheFile) {
  const fs::path dir = freshDir("full_fs");
  SmallFileSystem small(dir, 64 << 10);
  if (!small.why().empty()) GTEST_SKIP() << "cannot mount a tmpfs (needs root): " << small.why();
  const RunResult r = run("--headless --frames 20 --size 160x90 --backend cpu --out " + (dir / "frames").string());
  EXPECT_EQ(r.exitCode, 1) << r.out << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  const std::size_t at = r.err.find("cannot write '" + (dir / "frames" / "frame_00").string());
  ASSERT_NE(at, std::string::npos) << r.err;
  EXPECT_NE(r.err.find(".png': No space left on device", at), std::string::npos) << r.err;
  const std::string failed = r.err.substr(at + 14, r.err.find('\'', at + 14) - at - 14);
  EXPECT_EQ(r.out.find("wrote " + failed), std::string::npos) << "never 'wrote' what was not:\n" << r.out;
  EXPECT_FALSE(fs::exists(failed)) << "no partial file under the final name";
  const int whole = expectWholePngs(dir / "frames", 160, 90);
  EXPECT_GT(whole, 0);
  EXPECT_LT(whole, 20);
  EXPECT_TRUE(hiddenFilesIn(dir).empty()) << hiddenFilesIn(dir).front();
}

// SIGTERM and SIGINT stop a headless run between frames: exit 128 + the signal, the line
// saying so, every PNG whole, no temporary file. (Without handlers the signal killed the
// process wherever it was, possibly mid-PNG.)
TEST(AppFiles, SignalsStopBetweenFramesWithEveryPngWhole) {
  for (const int sig : {SIGTERM, SIGINT}) {
    SCOPED_TRACE(sig == SIGTERM ? "SIGTERM" : "SIGINT");
    const fs::path dir = freshDir("signal_" + std::to_string(sig));
    const fs::path frames = dir / "frames";
    fs::create_directories(dir);
    Background satdof(kBinary + " --headless --frames 100000 --size 64x64 --backend cpu --save all --out " +
                          frames.string(),
                      dir);
    ASSERT_TRUE(satdof.started());
    // Frames are being written (the handlers are in place before the first frame).
    ASSERT_TRUE(satdof.waitFor([&] { return fs::exists(frames / "frame_0003.png"); })) << satdof.err();
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    satdof.signal(sig);
    const int status = satdof.wait();
    ASSERT_TRUE(WIFEXITED(status)) << "killed by the signal, not stopped: " << satdof.err();
    EXPECT_EQ(WEXITSTATUS(status), 128 + sig) << satdof.err();
    EXPECT_NE(satdof.err().find(std::string("satdof: stopped by ") + (sig == SIGTERM ? "SIGTERM" : "SIGINT")),
              std::string::npos)
        << satdof.err();
    EXPECT_GE(expectWholePngs(frames, 64, 64), 4);
    EXPECT_TRUE(hiddenFilesIn(frames).empty()) << hiddenFilesIn(frames).front();
    fs::remove_all(dir);
  }
}

// A screenshot path that cannot be written is refused before any window or GL, one line
// naming it, exit 2 (it used to run and exit 0 without the file): a name longer than the
// file system takes, a folder in the way, a file where its folder should be, a folder that
// takes no file, a path whose settings file beside it would be itself; a script's
// `screenshot PATH` is checked when the script is loaded. The checks need a display
// variable only: nothing opens one.
TEST(AppFiles, ScreenshotPathsThatCannotBeWrittenAreRefusedBeforeTheWindow) {
  const fs::path dir = freshDir("screenshot_refused");
  fs::create_directories(dir / "folder");
  std::ofstream(dir / "file") << "x";
  std::ofstream(dir / "script.txt") << "wait 2\nscreenshot " << (dir / "file" / "x.png").string() << "\nquit\n";
  const std::string longName = (dir / (std::string(256, 'n') + ".png")).string();
  const std::pair<std::string, std::string> cases[] = {
      {"--screenshot " + longName, "its name is longer than 247 bytes"},
      {"--screenshot " + (dir / "folder").string(), "is a folder"},
      {"--screenshot " + (dir / "file" / "x.png").string(),
       "'" + (dir / "file").string() + "' is a file, not a folder"},
      {"--screenshot /proc/satdof.png", "cannot write into '/proc'"},
      {"--screenshot " + (dir / "shot.txt").string(), "its settings go beside it"},
      {"--script " + (dir / "script.txt").string(),
       "script.txt:2: screenshot '" + (dir / "file" / "x.png").string() + "': '" + (dir / "file").string() +
           "' is a file, not a folder"},
  };
  for (const auto& [args, message] : cases) {
    SCOPED_TRACE(args);
    const RunResult r = run("--frames 2 --backend cpu --no-settings " + args, "DISPLAY=:satdof-none ");
    EXPECT_EQ(r.exitCode, 2) << r.out << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
    EXPECT_EQ(r.out.find("GL "), std::string::npos) << "no GL started: " << r.out;
  }
  fs::remove_all(dir);
}

// A refused run leaves no empty folder behind: --out is made with its first frame.
TEST(AppFiles, ARefusedRunMakesNoOutputFolder) {
  const fs::path out = freshDir("refused_out");
  for (const std::string args : {"--frames 0", "--no-such-flag", "--scene /nonexistent/scene.gltf",
                                 "--screenshot x.png", "--size 99999x2"}) {
    SCOPED_TRACE(args);
    const RunResult r = run("--headless --backend cpu --out " + (out / "new").string() + " " + args);
    EXPECT_EQ(r.exitCode, 2) << r.out << r.err;
    EXPECT_FALSE(fs::exists(out)) << "nothing created";
  }
  // The race writes no frames: no --out folder either.
  const RunResult race = run("race --backend cpu --size 32x18 --repeats 1 --out " + (out / "new").string());
  EXPECT_EQ(race.exitCode, 0) << race.err;
  EXPECT_FALSE(fs::exists(out));
}

// The window's screenshot and the settings file beside it: one that cannot be written when
// the frame comes fails the run, one line naming it, never "wrote". A full file system for
// the PNG; a folder put in the settings file's way after the run started for the sidecar.
TEST(AppFiles, AScreenshotThatCannotBeWrittenFailsTheRun) {
  SATDOF_SKIP_WITHOUT_XVFB();
  const fs::path dir = freshDir("screenshot_full");
  SmallFileSystem small(dir / "small", 16 << 10);
  if (!small.why().empty()) GTEST_SKIP() << "cannot mount a tmpfs (needs root): " << small.why();
  const RunResult r = runUnderXvfb("--frames 2 --size 320x180 --backend cpu --no-settings --screenshot " +
                                   (dir / "small" / "shot.png").string());
  EXPECT_EQ(r.exitCode, 1) << r.out << r.err;
  EXPECT_NE(r.err.find("cannot write '" + (dir / "small" / "shot.png").string() + "': No space left on device"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.out.find("wrote"), std::string::npos) << r.out;
  EXPECT_TRUE(fs::is_empty(dir / "small")) << "no partial file, no temporary file";

  const fs::path shot = dir / "sidecar" / "shot.png", sidecar = dir / "sidecar" / "shot.txt";
  fs::create_directories(shot.parent_path());
  // The folder appears once the window runs, the sidecar is written after the last frame:
  // enough frames (1-2 s of them at 200 on llvmpipe, which a loaded machine nearly met)
  // that the folder is in place first.
  const fs::path status = dir / "status";
  Background satdof(xvfbKeepingStatus(status) + "env XDG_CONFIG_HOME=" + (dir / "config").string() + " " + kBinary +
                        " --frames 1000 --size 320x180 --backend cpu --no-settings --screenshot " + shot.string(),
                    dir);
  ASSERT_TRUE(satdof.started());
  ASSERT_TRUE(satdof.waitFor([&] { return satdof.out().find("satdof: GL ") != std::string::npos; })) << satdof.err();
  fs::create_directories(sidecar / "in the way");
  satdof.wait();
  EXPECT_EQ(statusWritten(status), 1) << satdof.out() << satdof.err();
  EXPECT_NE(satdof.err().find("cannot write '" + sidecar.string() + "': a folder of that name is in the way"),
            std::string::npos)
      << satdof.err();
  EXPECT_EQ(satdof.out().find("wrote"), std::string::npos) << satdof.out();
  EXPECT_TRUE(hiddenFilesIn(shot.parent_path()).empty());
}

// In a window, --screenshot is the last frame shown, also where the window closes before
// --frames ends it (it used to be left unwritten, exit 0): SIGTERM closes the window (glfw's
// waits return), the screenshot is written whole, and the exit code is 143.
TEST(AppFiles, ASignalClosesTheWindowAfterItsScreenshot) {
  SATDOF_SKIP_WITHOUT_XVFB();
  const fs::path dir = freshDir("window_signal");
  fs::create_directories(dir);
  const fs::path shot = dir / "shots" / "last.png", pidFile = dir / "pid";
  // satdof's own process id (xvfb-run's would not pass the signal on).
  Background xvfb("xvfb-run -a -s '-screen 0 1024x768x24' sh -c 'echo $$ >" + pidFile.string() +
                      "; exec env XDG_CONFIG_HOME=" + (dir / "config").string() + " " + kBinary +
                      " --size 320x180 --backend cpu --no-settings --screenshot " + shot.string() + "'",
                  dir);
  ASSERT_TRUE(xvfb.started());
  ASSERT_TRUE(xvfb.waitFor([&] { return xvfb.out().find("satdof: CPU backend") != std::string::npos; })) << xvfb.err();
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));  // some frames shown
  const pid_t pid = pid_t(std::atoi(slurp(pidFile).c_str()));
  ASSERT_GT(pid, 0);
  ::kill(pid, SIGTERM);
  const int status = xvfb.wait();
  ASSERT_TRUE(WIFEXITED(status)) << xvfb.err();
  EXPECT_EQ(WEXITSTATUS(status), 143) << xvfb.out() << xvfb.err();
  EXPECT_NE(xvfb.out().find("satdof: wrote " + shot.string()), std::string::npos) << xvfb.out();
  EXPECT_GT(loadPng(shot).width, 0) << "the screenshot decodes whole";
  EXPECT_TRUE(fs::exists(dir / "shots" / "last.txt"));
  EXPECT_TRUE(hiddenFilesIn(shot.parent_path()).empty());
  fs::remove_all(dir);
}

}  // namespace
