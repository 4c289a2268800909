// tests/test_hostile_inputs.cpp — the satdof executable against files made to hurt it, one
// generated case of each class a hostile or careless file falls in (glTF structure, URIs
// and graphs, image formats, output paths, the settings file). Each case gets a folder of
// its own, `case/`, beside a folder `outside/` holding a secret (bytes no output may
// contain); the run is asserted to:
//   * end by itself (no signal) in under 5 s;
//   * refuse with exit code 2 and exactly one line on stderr, where it refuses;
//   * leave no output folder behind when refused;
//   * never show a byte of the secret in its output (stdout, stderr, files it wrote);
//   * keep every settings line (a window run under Xvfb);
//   * not claim a file as written ("wrote PATH") that is missing or empty.
// Each class's detail (the messages, the limits) is tested where it is implemented
// (test_gltf_safety, test_image_safety, test_safe_write, test_settings).
#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <sys/stat.h>
#include <vector>

#include "app_run_support.h"
#include "content_files.h"

namespace {

const std::string kSecret = "SECRET-7f3a9c-outside-the-case-folder-SECRET";

struct Case {
  std::string name;
  // Writes the case's files under `dir` (dir/case and dir/outside exist); returns the
  // arguments. `refused`: exit 2 expected; else exit 0.
  std::function<std::string(const fs::path& dir)> make;
  bool refused = true;
};

std::string secretBuffer() {  // a buffer's worth of secret, 36 floats' worth of bytes at least
  std::string s;
  while (s.size() < 4096) s += kSecret;
  return s;
}

// A glTF around one accessor and buffer view whose fields the case sets; `buffer` the
// buffer object's JSON ("{...}"), `extra` more top-level members.
std::string gltf(const std::string& accessor, const std::string& view, const std::string& buffer,
                 const std::string& extra = "", const std::string& nodes = "[{\"mesh\":0}]",
                 const std::string& sceneNodes = "[0]") {
  return "{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":" + sceneNodes + "}],\"nodes\":" + nodes +
         ",\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0}}]}],\"accessors\":[" + accessor +
         "],\"bufferViews\":[" + view + "],\"buffers\":[" + buffer + "]" + extra + "}";
}

// One triangle's positions as a base64 data: buffer.
std::string triangleBuffer() {
  const float p[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
  return "{\"byteLength\":36,\"uri\":\"data:application/octet-stream;base64," +
         content_files::base64(std::string(reinterpret_cast<const char*>(p), sizeof p)) + "\"}";
}
const std::string kTriangleAccessor = "{\"bufferView\":0,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\"}";
const std::string kTriangleView = "{\"buffer\":0,\"byteLength\":36}";

// A scene whose buffer is the file `uri` (36 bytes expected).
std::string sceneWithBufferUri(const fs::path& dir, const std::string& uri) {
  content_files::writeBytes(dir / "case/scene.gltf",
                            gltf(kTriangleAccessor, kTriangleView, "{\"byteLength\":36,\"uri\":\"" + uri + "\"}"));
  return "--scene " + (dir / "case/scene.gltf").string();
}

std::string headless(const fs::path& dir) {
  return " --headless --backend cpu --frames 1 --size 64x36 --out " + (dir / "case/out").string();
}

std::string writeScene(const fs::path& dir, const std::string& json) {
  content_files::writeBytes(dir / "case/scene.gltf", json);
  return "--scene " + (dir / "case/scene.gltf").string() + headless(dir);
}

std::string photoArgs(const fs::path& dir, const std::string& photoBytes, const std::string& depthBytes,
                      const std::string& photoName = "photo.img", const std::string& depthName = "depth.img") {
  content_files::writeBytes(dir / "case" / photoName, photoBytes);
  content_files::writeBytes(dir / "case" / depthName, depthBytes);
  return "--photo " + (dir / "case" / photoName).string() + " --depth " + (dir / "case" / depthName).string() +
         headless(dir);
}

std::string png(int w, int h) {
  std::vector<std::uint8_t> px(std::size_t(w * h * 3), 90);
  std::string out;
  stbi_write_png_to_func([](void* c, void* d, int n) { static_cast<std::string*>(c)->append(static_cast<char*>(d), std::size_t(n)); },
                         &out, w, h, 3, px.data(), w * 3);
  return out;
}

std::string jpeg(int w, int h) {
  std::vector<std::uint8_t> px(std::size_t(w * h * 3), 90);
  std::string out;
  stbi_write_jpg_to_func([](void* c, void* d, int n) { static_cast<std::string*>(c)->append(static_cast<char*>(d), std::size_t(n)); },
                         &out, w, h, 3, px.data(), 90);
  return out;
}

std::vector<Case> cases() {
  std::vector<Case> c;
  // ---- glTF structure
  c.push_back({"accessor count x stride overflows", [](const fs::path& d) {
                 return writeScene(d, gltf("{\"bufferView\":0,\"componentType\":5126,\"count\":1537228672809129302,\"type\":\"VEC3\"}",
                                           "{\"buffer\":0,\"byteLength\":36,\"byteStride\":12}", triangleBuffer()));
               }});
  c.push_back({"buffer view offset wraps past 2^64", [](const fs::path& d) {
                 return writeScene(d, gltf(kTriangleAccessor, "{\"buffer\":0,\"byteOffset\":18446744073709551000,\"byteLength\":1000}",
                                           triangleBuffer()));
               }});
  c.push_back({"accessor offset wraps past 2^64", [](const fs::path& d) {
                 return writeScene(d, gltf("{\"bufferView\":0,\"byteOffset\":18446744073709551608,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\"}",
                                           kTriangleView, triangleBuffer()));
               }});
  c.push_back({"image buffer view past its buffer", [](const fs::path& d) {
                 return writeScene(d, gltf(kTriangleAccessor, kTriangleView + ",{\"buffer\":0,\"byteOffset\":1000000,\"byteLength\":4000}",
                                           triangleBuffer(),
                                           ",\"images\":[{\"bufferView\":1,\"mimeType\":\"image/png\"}],\"textures\":[{\"source\":0}],"
                                           "\"materials\":[{\"pbrMetallicRoughness\":{\"baseColorTexture\":{\"index\":0}}}]"));
               }});
  c.push_back({"index past the vertices", [](const fs::path& d) {
                 const std::uint32_t idx[3] = {0, 1, 4000000000u};
                 const float p[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
                 std::string bin(reinterpret_cast<const char*>(p), 36);
                 bin.append(reinterpret_cast<const char*>(idx), 12);
                 const std::string json =
                     "{\"asset\":{\"version\":\"2.0\"},\"scenes\":[{\"nodes\":[0]}],\"nodes\":[{\"mesh\":0}],\"meshes\":[{\"primitives\":"
                     "[{\"attributes\":{\"POSITION\":0},\"indices\":1}]}],\"accessors\":[" + kTriangleAccessor +
                     ",{\"bufferView\":1,\"componentType\":5125,\"count\":3,\"type\":\"SCALAR\"}],\"bufferViews\":[" + kTriangleView +
                     ",{\"buffer\":0,\"byteOffset\":36,\"byteLength\":12}],\"buffers\":[{\"byteLength\":48,\"uri\":\"data:application/"
                     "octet-stream;base64," + content_files::base64(bin) + "\"}]}";
                 return writeScene(d, json);
               }});
  c.push_back({"JSON nested 300000 levels in extras", [](const fs::path& d) {
                 return writeScene(d, gltf(kTriangleAccessor, kTriangleView, triangleBuffer(),
                                           ",\"extras\":" + std::string(300000, '[') + std::string(300000, ']')));
               }});
  c.push_back({"GLB cut short", [](const fs::path& d) {
                 content_files::writeTestGltf(d / "case/full.glb", true);
                 const std::string whole = slurp(d / "case/full.glb");
                 content_files::writeBytes(d / "case/scene.glb", whole.substr(0, whole.size() / 2));
                 return "--scene " + (d / "case/scene.glb").string() + headless(d);
               }});
  // ---- URIs: nothing outside the glTF's folder, regular files only
  c.push_back({"uri ../", [](const fs::path& d) { return sceneWithBufferUri(d, "../outside/secret.bin") + headless(d); }});
  c.push_back({"uri %2e%2e/", [](const fs::path& d) { return sceneWithBufferUri(d, "%2e%2e/outside/secret.bin") + headless(d); }});
  c.push_back({"uri absolute", [](const fs::path& d) {
                 return sceneWithBufferUri(d, (d / "outside/secret.bin").string()) + headless(d);
               }});
  c.push_back({"uri file: scheme", [](const fs::path& d) {
                 return sceneWithBufferUri(d, "file://" + (d / "outside/secret.bin").string()) + headless(d);
               }});
  c.push_back({"uri symlink out of the folder", [](const fs::path& d) {
                 fs::create_symlink(d / "outside/secret.bin", d / "case/link.bin");
                 return sceneWithBufferUri(d, "link.bin") + headless(d);
               }});
  c.push_back({"uri a FIFO", [](const fs::path& d) {
                 ::mkfifo((d / "case/fifo.bin").c_str(), 0600);
                 return sceneWithBufferUri(d, "fifo.bin") + headless(d);
               }});
  c.push_back({"uri a missing file, with one of its name in the working folder", [](const fs::path& d) {
                 // The run's working folder is the test's; a look-up there would find nothing
                 // either: what matters is the refusal and its one line.
                 return sceneWithBufferUri(d, "not-there.bin") + headless(d);
               }});
  c.push_back({"scene file is a FIFO", [](const fs::path& d) {
                 ::mkfifo((d / "case/scene.gltf").c_str(), 0600);
                 return "--scene " + (d / "case/scene.gltf").string() + headless(d);
               }});
  // ---- Node graphs
  c.push_back({"DAG of 2^40 paths", [](const fs::path& d) {
                 std::string nodes = "[";
                 for (int level = 0; level < 40; ++level)
                   for (int k = 0; k < 2; ++k)
                     nodes += "{\"children\":[" + std::to_string(2 * level + 2) + "," + std::to_string(2 * level + 3) + "]},";
                 nodes += "{\"mesh\":0},{\"mesh\":0}]";
                 return writeScene(d, gltf(kTriangleAccessor, kTriangleView, triangleBuffer(), "", nodes, "[0]"));
               }});
  c.push_back({"node cycle", [](const fs::path& d) {
                 return writeScene(d, gltf(kTriangleAccessor, kTriangleView, triangleBuffer(), "",
                                           "[{\"mesh\":0,\"children\":[1]},{\"children\":[0]}]", "[0]"));
               }});
  c.push_back({"200000 scene roots", [](const fs::path& d) {
                 std::string roots = "[0";
                 for (int i = 1; i < 200000; ++i) roots += ",0";
                 return writeScene(d, gltf(kTriangleAccessor, kTriangleView, triangleBuffer(), "", "[{\"mesh\":0}]", roots + "]"));
               }});
  // ---- Images: PNG and JPEG photos, PNG and OpenEXR depth maps, recognised by content
  c.push_back({"GIF photo", [](const fs::path& d) {
                 return photoArgs(d, std::string("GIF89a\x02\x00\x02\x00\x80\x00\x00", 13) + std::string(20, '\0') + ";", png(2, 2));
               }});
  c.push_back({"BMP photo", [](const fs::path& d) {
                 std::string bmp = "BM" + std::string(52, '\0');
                 return photoArgs(d, bmp, png(2, 2));
               }});
  c.push_back({"truncated Radiance HDR photo", [](const fs::path& d) {
                 return photoArgs(d, "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 4 +X 64\n\x02\x02\x00\x40\x80", png(64, 4));
               }});
  c.push_back({"16-bit PGM photo", [](const fs::path& d) {
                 return photoArgs(d, "P5\n4 4\n65535\n" + std::string(8, '\x7f'), png(4, 4));
               }});
  c.push_back({"16-bit PPM photo", [](const fs::path& d) {
                 return photoArgs(d, "P6\n4 4\n65535\n" + std::string(20, '\x7f'), png(4, 4));
               }});
  c.push_back({"PSD photo", [](const fs::path& d) { return photoArgs(d, "8BPS\x00\x01" + std::string(40, '\0'), png(2, 2)); }});
  c.push_back({"JPEG depth map", [](const fs::path& d) { return photoArgs(d, png(8, 8), jpeg(8, 8)); }});
  c.push_back({"PGM depth map", [](const fs::path& d) {
                 return photoArgs(d, png(4, 4), "P5\n4 4\n255\n" + std::string(16, '\x40'));
               }});
  c.push_back({"16-bit PPM depth map", [](const fs::path& d) {
                 return photoArgs(d, png(4, 4), "P6\n4 4\n65535\n" + std::string(96, '\x40'));
               }});
  c.push_back({"truncated 16-bit PGM depth map", [](const fs::path& d) {
                 return photoArgs(d, png(4, 4), "P5\n4 4\n65535\n" + std::string(5, '\x40'));
               }});
  c.push_back({"photo is a FIFO", [](const fs::path& d) {
                 ::mkfifo((d / "case/photo.png").c_str(), 0600);
                 content_files::writeBytes(d / "case/depth.png", png(4, 4));
                 return "--photo " + (d / "case/photo.png").string() + " --depth " + (d / "case/depth.png").string() + headless(d);
               }});
  // ---- Output paths: refused before any rendering, nothing left behind
  c.push_back({"--out names a file", [](const fs::path& d) {
                 content_files::writeBytes(d / "case/out", "a file in the way");
                 return std::string("--headless --backend cpu --frames 1 --size 64x36 --out ") + (d / "case/out").string();
               }});
  c.push_back({"--out with a 300-character name", [](const fs::path& d) {
                 return std::string("--headless --backend cpu --frames 1 --size 64x36 --out ") +
                        (d / "case" / std::string(300, 'x')).string();
               }});
  // ---- Numbers: one parser for every option, subcommands' too; one tool a run; window-only
  // flags in a headless run
  for (const char* args : {"race --repeats 0x10", "soak --seed ''", "soak --seed 99999999999999999999",
                           "soak --check-every 1e3", "resize-storm --max-side 0x20", "--frames 99999999999 --headless",
                           "--size 99999x2 --headless", "bench scan --repeats ''", "soak race --frames 2", "race quality",
                           "--headless --render-scale 0.5", "--headless --ui-scale 2", "--headless --no-vsync"})
    c.push_back({std::string("numbers: ") + args, [args](const fs::path& d) {
                   return std::string(args) + " --backend cpu --out " + (d / "case/out").string();
                 }});
  // ---- A valid run: everything it says it wrote is there, whole
  c.push_back({"a valid headless run", [](const fs::path& d) {
                 return "--headless --backend cpu --frames 2 --save all --size 64x36 --out " + (d / "case/out").string();
               }, false});
  return c;
}

class HostileInputs : public ::testing::Test {
 protected:
  content_files::TempFolder folder{"satdof_test_hostile"};
};

TEST_F(HostileInputs, EveryCaseEndsQuicklyRefusesInOneLineAndReadsNothingOutside) {
  int index = 0;
  for (const Case& k : cases()) {
    SCOPED_TRACE(k.name);
    const fs::path dir = folder.path / std::to_string(index++);
    fs::create_directories(dir / "case");
    fs::create_directories(dir / "outside");
    content_files::writeBytes(dir / "outside/secret.bin", secretBuffer());
    const std::string args = k.make(dir);
    const auto start = std::chrono::steady_clock::now();
    // The outer limit (15 s) only keeps a hang from stopping the suite; the bound is 5 s.
    const RunResult r = run(args, "timeout -s KILL 15 ");
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_LT(seconds, 5.0) << args;
    EXPECT_TRUE(r.exitCode >= 0 && r.exitCode < 128) << "ended by a signal or a time-out: " << r.exitCode << "\n" << r.err;
    const std::string all = r.out + r.err;
    EXPECT_EQ(all.find(kSecret), std::string::npos) << "the secret reached the output";
    if (k.refused) {
      EXPECT_EQ(r.exitCode, 2) << r.out << r.err;
      EXPECT_FALSE(r.err.empty());
      EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << "not one line:\n" << r.err;
      EXPECT_EQ(r.err.find("json.exception"), std::string::npos) << r.err;
      EXPECT_EQ(r.err.find(".cpp:"), std::string::npos) << r.err;
      EXPECT_FALSE(fs::is_directory(dir / "case/out")) << "a refused run left its output folder";
    } else {
      EXPECT_EQ(r.exitCode, 0) << r.out << r.err;
    }
    // Whatever it says it wrote is there, whole, and holds no secret.
    for (std::size_t at = r.out.find("wrote "); at != std::string::npos; at = r.out.find("wrote ", at + 1)) {
      const std::size_t end = r.out.find_first_of(" \n", at + 6);
      const fs::path written = r.out.substr(at + 6, end - at - 6);
      if (written.extension() != ".png") continue;
      const Png image = loadPng(written);
      EXPECT_GT(image.width, 0) << written << " is claimed written but does not decode";
    }
    if (fs::is_directory(dir / "case/out"))
      for (const auto& e : fs::recursive_directory_iterator(dir / "case/out")) {
        if (!e.is_regular_file()) continue;
        EXPECT_NE(e.path().filename().string()[0], '.') << "a temporary file was left: " << e.path();
        EXPECT_EQ(slurp(e.path()).find(kSecret), std::string::npos) << e.path();
      }
  }
}

// The settings file (a window run under Xvfb reads and writes it): a bad value, a control
// character, a duplicate key and a line it does not know do not cost the other lines, and
// none of the lines the user wrote is lost when it is saved at exit.
TEST_F(HostileInputs, TheSettingsFileKeepsEveryLineThroughARun) {
  SATDOF_SKIP_WITHOUT_XVFB();
  const fs::path config = folder.path / "config";
  fs::create_directories(config / "satdof");
  const std::vector<std::string> lines = {"# my settings", "focal=9", "max-blur=banana", "bokeh=on",
                                          std::string("view=\x01odd"), "focal=9.5", "some-future-key=1", "msaa=2"};
  std::string text;
  for (const std::string& l : lines) text += l + "\n";
  content_files::writeBytes(config / "satdof/settings.ini", text);
  const auto start = std::chrono::steady_clock::now();
  const RunResult r = run("--size 320x180 --backend cpu --frames 3",
                          "XDG_CONFIG_HOME=" + config.string() + " timeout -s KILL 30 xvfb-run -a -s '-screen 0 640x480x24' ");
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 15.0);
  ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
  const std::string saved = slurp(config / "satdof/settings.ini");
  for (const std::string& l : {std::string("# my settings"), std::string("max-blur=banana"), std::string("some-future-key=1")})
    EXPECT_NE(saved.find(l), std::string::npos) << "lost the line '" << l << "':\n" << saved;
  EXPECT_NE(saved.find("bokeh=on"), std::string::npos) << saved;
  EXPECT_NE(saved.find("msaa=2"), std::string::npos) << saved;
  EXPECT_NE(saved.find("focal=9.5"), std::string::npos) << saved;
  EXPECT_NE(r.err.find("line 3"), std::string::npos) << "the bad line is not reported by its number:\n" << r.err;
}

// The settings path a FIFO: the start neither hangs on it nor replaces it at exit.
TEST_F(HostileInputs, ASettingsFifoNeitherHangsTheStartNorIsReplaced) {
  SATDOF_SKIP_WITHOUT_XVFB();
  const fs::path config = folder.path / "config";
  fs::create_directories(config / "satdof");
  ASSERT_EQ(::mkfifo((config / "satdof/settings.ini").c_str(), 0600), 0);
  const auto start = std::chrono::steady_clock::now();
  const RunResult r = run("--size 320x180 --backend cpu --frames 3",
                          "XDG_CONFIG_HOME=" + config.string() + " timeout -s KILL 30 xvfb-run -a -s '-screen 0 640x480x24' ");
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 15.0);
  EXPECT_EQ(r.exitCode, 0) << r.out << r.err;
  struct stat st {};
  ASSERT_EQ(::lstat((config / "satdof/settings.ini").c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode)) << "the FIFO was replaced";
}

}  // namespace
