// engine/content/jpeg_decoder.h — JPEG by libjpeg-turbo (Debian's libjpeg62-turbo), from
// the file's bytes in memory. libjpeg-turbo is the decoder every browser and image tool
// ships, fuzzed for years; stb_image's JPEG decoder (Debian's is 2.27) kept showing
// undefined behaviour on broken files (an int overflow in the DC prediction, shifts past
// 32 bits once the data stops, a symbol index past its Huffman table), so no JPEG reaches
// it. A broken file's message is libjpeg's own; data that stops early or holds stray bytes
// decodes as libjpeg pads it (what every viewer shows), and a file of more than kMaxScans
// scans is refused before it can take minutes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace satdof::content::jpeg {

// A progressive JPEG has about ten scans; thousands are an attack on the decoder's time.
inline constexpr int kMaxScans = 500;

// The size the header states; false with `why` when the header cannot be read.
bool size(const std::uint8_t* bytes, std::size_t count, int& width, int& height, std::string& why);
// The pixels as RGBA8 (alpha 255), row 0 the top; grey becomes RGB, Adobe CMYK and YCCK
// are converted (C x K, as their inverted channels are stored). false with `why`.
bool decodeRgba(const std::uint8_t* bytes, std::size_t count, int& width, int& height,
                std::vector<std::uint8_t>& rgba, std::string& why);

}  // namespace satdof::content::jpeg
