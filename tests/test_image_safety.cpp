// tests/test_image_safety.cpp — the images the user's content may hold (engine/content/
// image_files.h) are the formats the README names, known by their bytes: a colour photo or
// texture a PNG or JPEG, a depth map an 8- or 16-bit PNG or a half / float OpenEXR. Every
// other format, and the broken files other decoders hang, over-read or crash on (a
// truncated run-length Radiance HDR, 16-bit PGM / PPM), is refused in one line that names
// what it is; a FIFO, a device or a folder is refused at once; the accepted formats still
// read their values. Each call runs in a child process with a time limit, so that a hang
// or a crash is a failed expectation rather than a stuck or dead test.
#include <gtest/gtest.h>

#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>
#include <vector>

#include <jpeglib.h>

#include "engine/content/content_error.h"
#include "engine/content/image_files.h"
#include "content_files.h"

namespace {

namespace fs = std::filesystem;
using namespace satdof::content;
using namespace std::string_literals;

// What a call did, run in a child process: "refused: <message>", "returned: <text>",
// "hung" (killed after the limit) or "crashed (signal N)".
std::string outcomeOf(const std::function<std::string()>& call, int limitMs = 5000) {
  int out[2];
  if (::pipe(out) != 0) return "no pipe";
  const pid_t child = ::fork();
  if (child == 0) {
    ::close(out[0]);
    std::string text;
    try {
      text = "returned: " + call();
    } catch (const ContentError& e) {
      text = "refused: "s + e.what();
    } catch (const std::exception& e) {
      text = "threw: "s + e.what();
    }
    for (std::size_t done = 0; done < text.size();) {
      const ssize_t n = ::write(out[1], text.data() + done, text.size() - done);
      if (n <= 0) break;
      done += std::size_t(n);
    }
    ::_exit(0);
  }
  ::close(out[1]);
  std::string text;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(limitMs);
  bool hung = false;
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    pollfd p{out[0], POLLIN, 0};
    if (left.count() <= 0 || ::poll(&p, 1, int(left.count())) == 0) {
      hung = true;
      break;
    }
    char buffer[4096];
    const ssize_t n = ::read(out[0], buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    text.append(buffer, std::size_t(n));
  }
  ::close(out[0]);
  if (hung) ::kill(child, SIGKILL);
  int status = 0;
  ::waitpid(child, &status, 0);
  if (hung) return "hung";
  if (WIFSIGNALED(status)) return "crashed (signal " + std::to_string(WTERMSIG(status)) + ")";
  return text;
}

std::string describe(const ColourImage& c) { return std::to_string(c.width) + "x" + std::to_string(c.height); }
std::string describe(const DepthSamples& d) {
  return std::to_string(d.width) + "x" + std::to_string(d.height) + " " + std::to_string(d.bits) + "-bit";
}

// Bytes written as a C string would drop its NULs: every file here is built from these.
std::string bytes(std::initializer_list<int> values) {
  std::string s;
  for (int v : values) s += char(v);
  return s;
}

// A JPEG marker segment: FF, the marker, its big-endian length (payload + 2), the payload.
std::string jpegSegment(int marker, const std::string& payload) {
  const std::size_t n = payload.size() + 2;
  return bytes({0xFF, marker, int(n >> 8), int(n & 0xFF)}) + payload;
}

// A JPEG's first segments for one 8-bit grey component: a quantiser of ones, the frame
// header (`frame`: C0 baseline, C2 progressive), width x height.
std::string jpegStart(int frame, int width, int height) {
  std::string quantiser = bytes({0x00});
  for (int i = 0; i < 64; ++i) quantiser += bytes({1});
  return bytes({0xFF, 0xD8}) + jpegSegment(0xDB, quantiser) +
         jpegSegment(frame, bytes({8, height >> 8, height & 0xFF, width >> 8, width & 0xFF, 1, 1, 0x11, 0}));
}

// An Adobe CMYK JPEG of `width` x `height` pixels (C, M, Y, K each, stored inverted as
// Photoshop writes them), by libjpeg at quality 100 with no subsampling.
std::string cmykJpeg(const std::vector<std::uint8_t>& cmyk, int width, int height) {
  jpeg_compress_struct c{};
  jpeg_error_mgr errors{};
  c.err = jpeg_std_error(&errors);
  jpeg_create_compress(&c);
  unsigned char* out = nullptr;
  unsigned long size = 0;
  jpeg_mem_dest(&c, &out, &size);
  c.image_width = JDIMENSION(width), c.image_height = JDIMENSION(height);
  c.input_components = 4, c.in_color_space = JCS_CMYK;
  jpeg_set_defaults(&c);
  jpeg_set_quality(&c, 100, TRUE);
  for (int i = 0; i < c.num_components; ++i) c.comp_info[i].h_samp_factor = c.comp_info[i].v_samp_factor = 1;
  jpeg_start_compress(&c, TRUE);
  std::vector<std::uint8_t> rows = cmyk;
  while (c.next_scanline < c.image_height) {
    JSAMPROW row = rows.data() + std::size_t(c.next_scanline) * std::size_t(width) * 4;
    jpeg_write_scanlines(&c, &row, 1);
  }
  jpeg_finish_compress(&c);
  std::string file(reinterpret_cast<const char*>(out), size);
  jpeg_destroy_compress(&c);
  std::free(out);
  return file;
}

// ---- Other formats, each the smallest file its usual decoder reads (1x1 or 2x2).
const std::string kGif = "GIF89a" + bytes({1, 0, 1, 0, 0x80, 0, 0, 255, 255, 255, 0, 0, 0, 0x2c, 0, 0, 0, 0, 1, 0, 1, 0,
                                           0, 2, 2, 0x44, 1, 0, 0x3b});
const std::string kBmp = "BM" + bytes({58, 0, 0, 0, 0, 0, 0, 0, 54, 0, 0, 0, 40, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0,
                                       24, 0, 0, 0, 0, 0, 4, 0, 0, 0, 0x13, 0x0b, 0, 0, 0x13, 0x0b, 0, 0, 0, 0, 0, 0,
                                       0, 0, 0, 0, 10, 20, 30, 0});
const std::string kPsd = "8BPS" + bytes({0, 1, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 1, 0, 0, 0, 1, 0, 8, 0, 3, 0, 0, 0, 0,
                                         0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 10, 20, 30});
const std::string kTga = bytes({0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 24, 0, 10, 20, 30});
const std::string kHdrHeader = "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n";
const std::string kHdr = kHdrHeader + "-Y 1 +X 1\n" + bytes({0x80, 0x80, 0x80, 0x81});
// A run-length scanline of 16 pixels that ends after its header: a decoder that reads past
// the end as zeros counts runs of length 0 forever.
const std::string kHdrTruncatedRle = kHdrHeader + "-Y 2 +X 16\n" + bytes({2, 2, 0, 16});
const std::string kPgm = "P5\n2 1\n255\n" + bytes({10, 20});
const std::string kPgm16 = "P5\n2 2\n65535\n" + bytes({1, 2, 3, 4, 5, 6, 7, 8});
const std::string kPgm16Truncated = "P5\n4 4\n65535\n" + bytes({1, 2});
const std::string kPpm16 = "P6\n2 2\n65535\n" + std::string(24, '\x40');
const std::string kPam = "P7\nWIDTH 1\nHEIGHT 1\nDEPTH 1\nMAXVAL 255\nTUPLTYPE GRAYSCALE\nENDHDR\n" + bytes({0x80});
const std::string kQoi = "qoif" + bytes({0, 0, 0, 1, 0, 0, 0, 1, 3, 0, 0xfe, 10, 20, 30, 0, 0, 0, 0, 0, 0, 0, 1});
const std::string kTiff = "II*" + bytes({0, 8, 0, 0, 0, 0, 0});
const std::string kWebp = "RIFF" + bytes({26, 0, 0, 0}) + "WEBPVP8L" + bytes({13, 0, 0, 0, 0x2f, 0, 0, 0, 0, 0, 0, 0});

class ImageSafety : public ::testing::Test {
 protected:
  content_files::TempFolder folder{"satdof_test_image_safety"};
  const fs::path& dir = folder.path;

  fs::path write(const std::string& name, const std::string& content) {
    content_files::writeBytes(dir / name, content);
    return dir / name;
  }
  std::string fileBytes(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  }
  fs::path jpeg(const std::string& name, int w, int h, int channels, const std::vector<std::uint8_t>& pixels) {
    EXPECT_NE(stbi_write_jpg((dir / name).c_str(), w, h, channels, pixels.data(), 100), 0);
    return dir / name;
  }

  static std::string photoOutcome(const fs::path& path) {
    return outcomeOf([&] { return describe(readColourImage(path)); });
  }
  static std::string depthOutcome(const fs::path& path) {
    return outcomeOf([&] { return describe(readDepthImage(path)); });
  }
};

// `outcome` is one line refusing `file` with `words` after its name.
void expectRefused(const std::string& outcome, const std::string& file, const std::string& words) {
  EXPECT_EQ(outcome.rfind("refused: ", 0), 0u) << outcome;
  EXPECT_EQ(outcome.find('\n'), std::string::npos) << outcome;
  EXPECT_NE(outcome.find(file + "': " + words), std::string::npos) << outcome;
}

TEST_F(ImageSafety, PhotosOfOtherFormatsAreRefusedByWhatTheyAre) {
  const std::string kMust = "; a colour photo must be a PNG or JPEG";
  content_files::writeExr(dir / "float.exr", 2, 2, std::vector<float>(4, 2.0f));
  const struct {
    const char* file;
    std::string content, what;
  } cases[] = {
      {"photo.gif", kGif, "is a GIF image"},
      {"photo.bmp", kBmp, "is a BMP image"},
      {"photo.psd", kPsd, "is a Photoshop (PSD) image"},
      {"photo.hdr", kHdr, "is a Radiance HDR image"},
      {"truncated.hdr", kHdrTruncatedRle, "is a Radiance HDR image"},
      {"photo.pgm", kPgm, "is a PNM (PBM/PGM/PPM/PAM) image"},
      {"photo16.pgm", kPgm16, "is a PNM (PBM/PGM/PPM/PAM) image"},
      {"photo16.ppm", kPpm16, "is a PNM (PBM/PGM/PPM/PAM) image"},
      {"photo.pam", kPam, "is a PNM (PBM/PGM/PPM/PAM) image"},
      {"photo.qoi", kQoi, "is a QOI image"},
      {"photo.tif", kTiff, "is a TIFF image"},
      {"photo.webp", kWebp, "is a WebP image"},
      {"photo.tga", kTga, "is not an image this build reads"},
      {"text.png", "not a picture at all\n", "is not an image this build reads"},
      {"float.exr", fileBytes(dir / "float.exr"), "is an OpenEXR image"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.file);
    const fs::path path = write(c.file, c.content);
    const auto start = std::chrono::steady_clock::now();
    expectRefused(photoOutcome(path), c.file, c.what + kMust);
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
    EXPECT_EQ(looksLikeImage(path), c.content == fileBytes(dir / "float.exr")) << "only an OpenEXR is an image here";
    // The same bytes as a glTF's texture.
    const auto* b = reinterpret_cast<const std::uint8_t*>(c.content.data());
    expectRefused(outcomeOf([&] { return describe(decodeColourImage(c.file, b, c.content.size())); }), c.file,
                  c.what + "; a texture must be a PNG or JPEG");
  }
}

TEST_F(ImageSafety, DepthMapsOfOtherFormatsAreRefusedByWhatTheyAre) {
  const std::string kMust = "; a depth map must be an 8- or 16-bit PNG or a float OpenEXR";
  const fs::path grey = jpeg("depth.jpg", 8, 8, 1, std::vector<std::uint8_t>(64, 100));
  const struct {
    const char* file;
    std::string content, what;
  } cases[] = {
      {"depth.jpg", fileBytes(grey), "is a JPEG image"},
      {"depth.pgm", kPgm, "is a PNM (PBM/PGM/PPM/PAM) image"},
      {"depth16.ppm", kPpm16, "is a PNM (PBM/PGM/PPM/PAM) image"},
      {"truncated16.pgm", kPgm16Truncated, "is a PNM (PBM/PGM/PPM/PAM) image"},
      {"depth.bmp", kBmp, "is a BMP image"},
      {"depth.gif", kGif, "is a GIF image"},
      {"depth.hdr", kHdr, "is a Radiance HDR image"},
      {"truncated.hdr", kHdrTruncatedRle, "is a Radiance HDR image"},
      {"depth.tga", kTga, "is not a depth image this build reads"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.file);
    const fs::path path = write(c.file, c.content);
    const auto start = std::chrono::steady_clock::now();
    expectRefused(depthOutcome(path), c.file, c.what + kMust);
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
  }
}

// A uint channel's samples are no floats: refused rather than read as float bits.
TEST_F(ImageSafety, ExrDepthWithAUintChannelIsRefused) {
  // An EXR's channel list: name\0, then pixel type (int32), linear, 3 reserved, x and y sampling.
  auto withUint = [&](std::string exr, const std::string& channel) {
    std::size_t at = exr.find("chlist");
    if (at == std::string::npos) return std::string();
    at += std::strlen("chlist") + 1 + 4;  // the type's name, then the attribute's size
    while (exr[at] != '\0') {
      const std::string name = exr.c_str() + at;
      at += name.size() + 1;
      if (name == channel) exr[at] = 0;  // TINYEXR_PIXELTYPE_UINT: the same 4 bytes a sample as a float
      at += 16;
    }
    return exr;
  };
  content_files::writeExr(dir / "grey.exr", 4, 2, std::vector<float>(8, 3.0f));  // one channel, "A"
  const std::string grey = withUint(fileBytes(dir / "grey.exr"), "A");
  ASSERT_FALSE(grey.empty());
  expectRefused(depthOutcome(write("uint.exr", grey)), "uint.exr",
                "has a uint channel 'A': a depth map's channel must be half or float");
  const char* err = nullptr;
  ASSERT_EQ(SaveEXR(std::vector<float>(4 * 2 * 3, 3.0f).data(), 4, 2, 3, 0, (dir / "rgb.exr").c_str(), &err),
            TINYEXR_SUCCESS);
  expectRefused(depthOutcome(write("uint_r.exr", withUint(fileBytes(dir / "rgb.exr"), "R"))), "uint_r.exr",
                "has a uint channel 'R'");
  // A uint channel that is not read (G) leaves R as it was.
  EXPECT_EQ(depthOutcome(write("uint_g.exr", withUint(fileBytes(dir / "rgb.exr"), "G"))), "returned: 4x2 32-bit");
}

// A Huffman table of more than 256 codes: the JPEG decoder would copy them past its tables'
// ends (a write out of bounds found by fuzz/fuzz_depth_map), so it is refused first.
TEST_F(ImageSafety, JpegHuffmanTablesOfMoreThan256CodesAreRefused) {
  std::string jpg = fileBytes(jpeg("ok.jpg", 8, 8, 1, std::vector<std::uint8_t>(64, 100)));
  const std::size_t dht = jpg.find("\xff\xc4");
  ASSERT_NE(dht, std::string::npos);
  for (std::size_t k = 0; k < 16; ++k) jpg[dht + 5 + k] = char(17);  // 16 lengths of 17 codes each: 272
  const std::string where = "its Huffman table at byte " + std::to_string(dht + 4) + " defines 272 codes (at most 256)";
  expectRefused(photoOutcome(write("huffman.jpg", jpg)), "huffman.jpg", "is a broken JPEG: " + where);
  const auto* b = reinterpret_cast<const std::uint8_t*>(jpg.data());
  expectRefused(outcomeOf([&] { return describe(decodeColourImage("huffman.jpg", b, jpg.size())); }), "huffman.jpg",
                "is a broken JPEG: " + where);
  EXPECT_EQ(photoOutcome(dir / "ok.jpg"), "returned: 8x8");
}

// Not regular files: each refused at once, none opened in a way that waits for a writer.
TEST_F(ImageSafety, FifosDevicesAndFoldersAreRefusedAtOnce) {
  const fs::path fifo = dir / "pipe.png";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const fs::path zero = "/dev/zero";
  for (const fs::path& path : {fifo, zero}) {
    SCOPED_TRACE(path.string());
    const std::string name = path.filename().string();
    const auto start = std::chrono::steady_clock::now();
    expectRefused(photoOutcome(path), name, "is not a regular file");
    expectRefused(depthOutcome(path), name, "is not a regular file");
    expectRefused(outcomeOf([&] { return std::to_string(readFileBytes(path).size()); }), name, "is not a regular file");
    expectRefused(outcomeOf([&] { return checkReadableFile(path), "readable"s; }), name, "is not a regular file");
    EXPECT_EQ(outcomeOf([&] { return looksLikeImage(path) ? "image"s : "no image"s; }), "returned: no image");
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(3));
  }
  expectRefused(photoOutcome(dir), dir.filename().string(), "is a folder, not a file");
  EXPECT_FALSE(looksLikeImage(dir));
  expectRefused(photoOutcome(dir / "missing.png"), "missing.png", "no such file");
  EXPECT_FALSE(looksLikeImage(dir / "missing.png"));
}

// An empty IDAT chunk before the image data (legal, and holding nothing) once made stb_image
// copy into its not yet allocated buffer (memcpy to null: UBSan's finding in the fuzzer);
// it is dropped before decoding, and the photo and depth map read their values.
TEST_F(ImageSafety, AnEmptyDataChunkBeforeTheDataIsHarmless) {
  const std::string raw = '\0' + bytes({10, 20, 30, 40, 50, 60});  // 2x1 RGB, filter 0
  uLongf zSize = compressBound(uLong(raw.size()));
  std::string z(zSize, '\0');
  compress2(reinterpret_cast<Bytef*>(z.data()), &zSize, reinterpret_cast<const Bytef*>(raw.data()), uLong(raw.size()), 6);
  z.resize(zSize);
  std::string png = "\x89PNG\r\n\x1a\n";
  content_files::appendChunk(png, "IHDR", content_files::ihdr(2, 1, 8, 2));
  content_files::appendChunk(png, "IDAT", "");
  content_files::appendChunk(png, "IDAT", z);
  content_files::appendChunk(png, "IDAT", "");
  content_files::appendChunk(png, "IEND", "");
  EXPECT_EQ(readColourImage(write("empty_idat.png", png)).rgba, (std::vector<std::uint8_t>{10, 20, 30, 255, 40, 50, 60, 255}));
  EXPECT_EQ(readDepthImage(dir / "empty_idat.png").values.size(), 2u);
}

// A JPEG whose DC differences add up past what an int product with a 16-bit quantiser
// holds (two blocks of +32767 each, quantiser 65535): undefined behaviour in Debian's
// stb_image 2.27, found by the fuzzer. It decodes to a wrong grey; under the sanitizers'
// build, UB in our code would abort the child and show as "crashed".
TEST_F(ImageSafety, AJpegWhoseDcOverflowsDecodesWithoutUndefinedBehaviour) {
  std::string quantiser = bytes({0x10, 0xFF, 0xFF});  // 16-bit table 0: DC 65535, AC 1
  for (int i = 1; i < 64; ++i) quantiser += bytes({0, 1});
  const std::string oneCode = bytes({1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0});  // one code of length 1
  // Per block: DC code 0 (category 15), 15 one-bits (+32767), AC code 0 (end of block).
  // Two blocks: 0 111111111111111 0 0 111111111111111 0, then one-bits to the byte.
  const std::string scan = bytes({0x7F, 0xFF, 0x00, 0x3F, 0xFF, 0x00, 0xBF});  // 0xFF stuffed with 0x00
  const std::string jpeg = bytes({0xFF, 0xD8}) + jpegSegment(0xDB, quantiser) +
                           jpegSegment(0xC0, bytes({8, 0, 8, 0, 16, 1, 1, 0x11, 0})) +
                           jpegSegment(0xC4, bytes({0x00}) + oneCode + bytes({15}) + bytes({0x10}) + oneCode + bytes({0})) +
                           jpegSegment(0xDA, bytes({1, 1, 0x00, 0, 63, 0})) + scan + bytes({0xFF, 0xD9});
  const fs::path path = write("dc_overflow.jpg", jpeg);
  EXPECT_EQ(outcomeOf([&] {
              const ColourImage image = readColourImage(path);
              return std::to_string(image.width) + "x" + std::to_string(image.height);
            }),
            "returned: 16x8");
}

// A JPEG whose entropy-coded data stops at the end-of-image marker in the middle of a block:
// Debian's stb_image 2.27 went on taking bits past the end and shifted by 32 or more (the
// fuzzer's finding). The picture decodes, padded as libjpeg pads it.
TEST_F(ImageSafety, AJpegWhoseDataStopsMidBlockDecodesWithoutUndefinedBehaviour) {
  std::string quantiser = bytes({0x00});  // 8-bit table 0, all ones
  for (int i = 0; i < 64; ++i) quantiser += bytes({1});
  // Table class and id, 16 counts of codes by length, /**/ the symbols. DC: codes 0
  // (category 0), 10 (15), 110 (3). AC: 0 (run 0 size 7), 10 (end of block), 110 (size 15),
  // 1110 (size 3).
  const std::string dc = bytes({0x00, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /**/ 0, 15, 3});
  const std::string ac = bytes({0x10, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /**/ 0x07, 0x00, 0x0F, 0x03});
  const std::string scan = bytes({0xAA, 0x00, 0xF0, 0xAA, 0xAA, 0xF0, 0x0F, 0x0F, 0x6F});
  const std::string jpeg = bytes({0xFF, 0xD8}) + jpegSegment(0xDB, quantiser) +
                           jpegSegment(0xC0, bytes({8, 0, 64, 0, 64, 1, 1, 0x11, 0})) + jpegSegment(0xC4, dc + ac) +
                           jpegSegment(0xDA, bytes({1, 1, 0x00, 0, 63, 0})) + scan + bytes({0xFF, 0xD9});
  const fs::path path = write("stops_mid_block.jpg", jpeg);
  EXPECT_EQ(outcomeOf([&] {
              const ColourImage image = readColourImage(path);
              return std::to_string(image.width) + "x" + std::to_string(image.height);
            }),
            "returned: 64x64");
}

// A Huffman table whose code lengths hold more codes than their bits can tell apart (three
// codes of one bit): a symbol index decoded from it can point past the table (stb_image
// 2.27 read past its 256 symbols on such a file: fuzz/fuzz_depth_map's finding). The
// decoder refuses the table.
TEST_F(ImageSafety, AJpegWhoseHuffmanCodesOverflowTheirLengthsIsRefused) {
  const std::string threeOneBitCodes = bytes({0x00, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /**/ 0, 1, 2});
  const std::string endOfBlock = bytes({0x10, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /**/ 0});
  const std::string jpeg = jpegStart(0xC0, 8, 8) + jpegSegment(0xC4, threeOneBitCodes + endOfBlock) +
                           jpegSegment(0xDA, bytes({1, 1, 0x00, 0, 63, 0})) + bytes({0xFF, 0x00, 0xFF, 0x00}) +
                           bytes({0xFF, 0xD9});
  expectRefused(photoOutcome(write("overfull_huffman.jpg", jpeg)), "overfull_huffman.jpg",
                "cannot be decoded: Bogus Huffman table definition");
}

// A progressive JPEG of thousands of scans would keep the decoder busy for minutes at a
// large stated size: past jpeg::kMaxScans (500) it is refused, while ten scans decode.
TEST_F(ImageSafety, AJpegOfMoreThan500ScansIsRefused) {
  const std::string dcCode = bytes({0x00, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /**/ 0});  // "0": no change
  auto progressive = [&](int scans) {
    std::string jpeg = jpegStart(0xC2, 8, 8) + jpegSegment(0xC4, dcCode);
    for (int i = 0; i < scans; ++i) jpeg += jpegSegment(0xDA, bytes({1, 1, 0x00, 0, 0, 0})) + bytes({0x7F});
    return jpeg + bytes({0xFF, 0xD9});
  };
  EXPECT_EQ(photoOutcome(write("ten_scans.jpg", progressive(10))), "returned: 8x8");
  EXPECT_EQ(photoOutcome(write("scans_500.jpg", progressive(500))), "returned: 8x8");
  expectRefused(photoOutcome(write("scans_501.jpg", progressive(501))), "scans_501.jpg",
                "cannot be decoded: it has more than 500 scans");
}

// Adobe CMYK (as print workflows save photos) reads as its colours: red = C x K and so on,
// each channel stored inverted (255: no ink). Two flat 8x8 blocks, so the JPEG keeps them
// within a level or two.
TEST_F(ImageSafety, ACmykJpegReadsAsItsColours) {
  const int w = 16, h = 8;
  std::vector<std::uint8_t> cmyk(std::size_t(w) * h * 4);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const std::array<std::uint8_t, 4> ink = x < 8 ? std::array<std::uint8_t, 4>{255, 128, 0, 255}
                                                     : std::array<std::uint8_t, 4>{200, 100, 50, 128};
      std::copy(ink.begin(), ink.end(), cmyk.begin() + (std::ptrdiff_t(y) * w + x) * 4);
    }
  const ColourImage image = readColourImage(write("cmyk.jpg", cmykJpeg(cmyk, w, h)));
  ASSERT_EQ(describe(image), "16x8");
  auto expectNear = [&](int x, int y, std::array<int, 4> rgba) {
    for (int c = 0; c < 4; ++c)
      EXPECT_NEAR(image.rgba[(std::size_t(y) * w + x) * 4 + c], rgba[c], 2) << x << "," << y << " channel " << c;
  };
  expectNear(3, 4, {255, 128, 0, 255});
  expectNear(12, 4, {100, 50, 25, 255});  // 200 x 128 / 255, ...
}

TEST_F(ImageSafety, TheReadmesFormatsStillReadTheirValues) {
  // Colour: 8-bit RGB PNG exactly, 16-bit RGB PNG as its high bytes, a JPEG closely.
  content_files::writePng8(dir / "rgb.png", 3, 2, 3, {10, 20, 30, 40, 50, 60, 70, 80, 90, 1, 2, 3, 4, 5, 6, 7, 8, 9});
  const ColourImage rgb = readColourImage(dir / "rgb.png");
  ASSERT_EQ(describe(rgb), "3x2");
  EXPECT_EQ(std::vector<std::uint8_t>(rgb.rgba.begin(), rgb.rgba.begin() + 8),
            (std::vector<std::uint8_t>{10, 20, 30, 255, 40, 50, 60, 255}));
  std::string raw;  // 16-bit RGB, 2x1: (0x1234, 0x5678, 0x9abc), (0xff00, 0x00ff, 0x8080)
  raw += '\0';
  raw += bytes({0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xff, 0x00, 0x00, 0xff, 0x80, 0x80});
  uLongf zSize = compressBound(uLong(raw.size()));
  std::string z(zSize, '\0');
  compress2(reinterpret_cast<Bytef*>(z.data()), &zSize, reinterpret_cast<const Bytef*>(raw.data()), uLong(raw.size()), 6);
  z.resize(zSize);
  std::string png16 = "\x89PNG\r\n\x1a\n";
  content_files::appendChunk(png16, "IHDR", content_files::ihdr(2, 1, 16, 2));
  content_files::appendChunk(png16, "IDAT", z);
  content_files::appendChunk(png16, "IEND", "");
  const ColourImage rgb16 = readColourImage(write("rgb16.png", png16));
  EXPECT_EQ(rgb16.rgba, (std::vector<std::uint8_t>{0x12, 0x56, 0x9a, 255, 0xff, 0x00, 0x80, 255}));
  std::vector<std::uint8_t> flat(8 * 8 * 3);
  for (std::size_t i = 0; i < flat.size(); ++i) flat[i] = std::uint8_t(i % 3 == 0 ? 200 : i % 3 == 1 ? 100 : 50);
  const ColourImage photo = readColourImage(jpeg("photo.jpg", 8, 8, 3, flat));
  ASSERT_EQ(describe(photo), "8x8");
  for (std::size_t i = 0; i < photo.rgba.size(); ++i) EXPECT_NEAR(int(photo.rgba[i]), i % 4 == 0 ? 200 : i % 4 == 1 ? 100 : i % 4 == 2 ? 50 : 255, 3);
  for (const char* file : {"rgb.png", "rgb16.png", "photo.jpg"}) EXPECT_TRUE(looksLikeImage(dir / file)) << file;

  // Depth: 8- and 16-bit grey PNG as read, a 16-bit grey RGB PNG as its luminance.
  content_files::writePng8(dir / "d8.png", 2, 2, 1, {0, 1, 128, 255});
  const DepthSamples d8 = readDepthImage(dir / "d8.png");
  EXPECT_EQ(describe(d8), "2x2 8-bit");
  EXPECT_STREQ(d8.format, "PNG");
  EXPECT_EQ(d8.values, (std::vector<float>{0, 1, 128, 255}));
  content_files::writePng16(dir / "d16.png", 2, 2, {0, 1, 40000, 65535});
  const DepthSamples d16 = readDepthImage(dir / "d16.png");
  EXPECT_EQ(describe(d16), "2x2 16-bit");
  EXPECT_EQ(d16.values, (std::vector<float>{0, 1, 40000, 65535}));
  raw = '\0' + bytes({0x9c, 0x40, 0x9c, 0x40, 0x9c, 0x40});  // 1x1 RGB, each 40000
  zSize = compressBound(uLong(raw.size()));
  z.assign(zSize, '\0');
  compress2(reinterpret_cast<Bytef*>(z.data()), &zSize, reinterpret_cast<const Bytef*>(raw.data()), uLong(raw.size()), 6);
  z.resize(zSize);
  std::string grey16 = "\x89PNG\r\n\x1a\n";
  content_files::appendChunk(grey16, "IHDR", content_files::ihdr(1, 1, 16, 2));
  content_files::appendChunk(grey16, "IDAT", z);
  content_files::appendChunk(grey16, "IEND", "");
  EXPECT_EQ(readDepthImage(write("rgb16_depth.png", grey16)).values, std::vector<float>{40000});

  // Depth: a float and a half OpenEXR, their values as written.
  content_files::writeExr(dir / "float.exr", 2, 2, {1.25f, 2.5f, 3.0f, 1000.0f});
  const DepthSamples f = readDepthImage(dir / "float.exr");
  EXPECT_EQ(describe(f), "2x2 32-bit");
  EXPECT_STREQ(f.format, "EXR");
  EXPECT_EQ(f.values, (std::vector<float>{1.25f, 2.5f, 3.0f, 1000.0f}));
  const char* err = nullptr;
  ASSERT_EQ(SaveEXR(std::vector<float>{1.25f, 2.5f, 3.0f, 1000.0f}.data(), 2, 2, 1, 1, (dir / "half.exr").c_str(), &err),
            TINYEXR_SUCCESS);
  EXPECT_EQ(readDepthImage(dir / "half.exr").values, (std::vector<float>{1.25f, 2.5f, 3.0f, 1000.0f}));
  for (const char* file : {"d8.png", "d16.png", "float.exr", "half.exr"}) EXPECT_TRUE(looksLikeImage(dir / file)) << file;
}

}  // namespace
