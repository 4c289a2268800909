// engine/content/jpeg_decoder.cpp — see jpeg_decoder.h.
#include "engine/content/jpeg_decoder.h"

#include <csetjmp>
#include <cstdio>
#include <new>

#include <jpeglib.h>

namespace satdof::content::jpeg {

namespace {

// libjpeg reports a fatal error by calling error_exit, which must not return: it jumps back
// to the setjmp in run(), with only libjpeg's C frames between (no destructor is skipped).
// Its warnings (output_message) are not printed.
struct Errors {
  jpeg_error_mgr manager;  // first: libjpeg hands back a pointer to it
  std::jmp_buf jump;
  char message[JMSG_LENGTH_MAX];
};

[[noreturn]] void fail(j_common_ptr info) {
  auto* errors = reinterpret_cast<Errors*>(info->err);
  (*info->err->format_message)(info, errors->message);
  std::longjmp(errors->jump, 1);
}

void quiet(j_common_ptr) {}

// Called as libjpeg reads the file: refuses it on its (kMaxScans + 1)th scan.
void countScans(j_common_ptr info) {
  if (reinterpret_cast<j_decompress_ptr>(info)->input_scan_number <= kMaxScans) return;
  auto* errors = reinterpret_cast<Errors*>(info->err);
  std::snprintf(errors->message, sizeof errors->message, "it has more than %d scans", kMaxScans);
  std::longjmp(errors->jump, 1);
}

// Adobe's CMYK, stored inverted (255 = no ink): red is C x K, and so on.
void cmykToRgba(std::vector<std::uint8_t>& pixels) {
  for (std::size_t i = 0; i + 3 < pixels.size(); i += 4) {
    const unsigned k = pixels[i + 3];
    for (std::size_t c = 0; c < 3; ++c) pixels[i + c] = std::uint8_t((pixels[i + c] * k + 127) / 255);
    pixels[i + 3] = 255;
  }
}

// One pass of libjpeg over the bytes: the header alone (rgba null) or the whole image.
// Only trivially destructible objects live in this frame, as longjmp requires.
bool run(const std::uint8_t* bytes, std::size_t count, int& width, int& height, std::vector<std::uint8_t>* rgba,
         std::string& why) {
  jpeg_decompress_struct info{};
  Errors errors{};
  jpeg_progress_mgr progress{};
  info.err = jpeg_std_error(&errors.manager);
  errors.manager.error_exit = fail;
  errors.manager.output_message = quiet;
  progress.progress_monitor = countScans;
  if (setjmp(errors.jump)) {
    jpeg_destroy_decompress(&info);
    why = errors.message;
    return false;
  }
  jpeg_create_decompress(&info);
  info.progress = &progress;
  jpeg_mem_src(&info, bytes, static_cast<unsigned long>(count));
  jpeg_read_header(&info, TRUE);
  width = int(info.image_width);
  height = int(info.image_height);
  if (rgba == nullptr) {
    jpeg_destroy_decompress(&info);
    return true;
  }
  const bool cmyk = info.jpeg_color_space == JCS_CMYK || info.jpeg_color_space == JCS_YCCK;
  info.out_color_space = cmyk ? JCS_CMYK : JCS_EXT_RGBA;
  jpeg_start_decompress(&info);
  const std::size_t stride = std::size_t(info.output_width) * 4;
  bool allocated = info.output_components == 4;
  if (allocated) {
    try {
      rgba->assign(stride * info.output_height, 0);
    } catch (const std::bad_alloc&) {
      allocated = false;
    }
  }
  if (!allocated) {
    why = info.output_components == 4 ? "not enough memory for its pixels" : "its colours cannot be read";
    jpeg_destroy_decompress(&info);
    return false;
  }
  while (info.output_scanline < info.output_height) {
    JSAMPROW row = rgba->data() + stride * info.output_scanline;
    if (jpeg_read_scanlines(&info, &row, 1) != 1) break;  // (from memory it never suspends)
  }
  const bool complete = info.output_scanline == info.output_height;
  width = int(info.output_width);
  height = int(info.output_height);
  jpeg_destroy_decompress(&info);
  if (!complete) {
    why = "its data stops before its last row";
    return false;
  }
  if (cmyk) cmykToRgba(*rgba);
  return true;
}

}  // namespace

bool size(const std::uint8_t* bytes, std::size_t count, int& width, int& height, std::string& why) {
  return run(bytes, count, width, height, nullptr, why);
}

bool decodeRgba(const std::uint8_t* bytes, std::size_t count, int& width, int& height,
                std::vector<std::uint8_t>& rgba, std::string& why) {
  return run(bytes, count, width, height, &rgba, why);
}

}  // namespace satdof::content::jpeg
