// engine/image/image_io.h — PNG output and GL read-back of RGBA8 textures.
#pragma once

#include <filesystem>
#include <string>

#include <glad/gl.h>

#include "satdof/reference/image.h"

namespace satdof {

// Reads level 0 of an RGBA8 texture (row 0 = bottom, as GL stores it).
reference::ImageRgba8 readTexture(GLuint texture, int width, int height);
// Reads level 0 of an R32F texture (the linear depth).
reference::ImageR32F readDepthTexture(GLuint texture, int width, int height);
// Into an image of the texture's size (kept between frames: no allocation).
void readDepthTexture(GLuint texture, reference::ImageR32F& into);
// Reads the bound read framebuffer's colour (e.g. the window's back buffer).
reference::ImageRgba8 readFramebuffer(GLuint framebuffer, int width, int height);

// A whole file's bytes (empty when it cannot be read).
std::string readFileBytes(const std::filesystem::path& path);

// Writes a PNG with row 0 at the top (flips GL's bottom-up rows), whole or not at all
// (engine/files/safe_write.h: creates its folder, throws files::WriteError on failure).
void writePng(const std::filesystem::path& path, const reference::ImageRgba8& bottomUp);

}  // namespace satdof
