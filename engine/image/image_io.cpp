// engine/image/image_io.cpp — see image_io.h. PNG encoding by stb_image_write (Debian's libstb).
#include "engine/image/image_io.h"

#include <fstream>
#include <sstream>
#include <stb/stb_image_write.h>

#include <stdexcept>

#include "engine/files/safe_write.h"

namespace satdof {

reference::ImageRgba8 readTexture(GLuint texture, int width, int height) {
  reference::ImageRgba8 image(width, height);
  glGetTextureImage(texture, 0, GL_RGBA, GL_UNSIGNED_BYTE, GLsizei(image.pixels.size()),
                    image.pixels.data());
  return image;
}

reference::ImageR32F readDepthTexture(GLuint texture, int width, int height) {
  reference::ImageR32F depth(width, height);
  readDepthTexture(texture, depth);
  return depth;
}

void readDepthTexture(GLuint texture, reference::ImageR32F& into) {
  glPixelStorei(GL_PACK_ALIGNMENT, 4);
  glGetTextureImage(texture, 0, GL_RED, GL_FLOAT, GLsizei(into.pixels.size() * sizeof(float)), into.pixels.data());
}

reference::ImageRgba8 readFramebuffer(GLuint framebuffer, int width, int height) {
  reference::ImageRgba8 image(width, height);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, framebuffer);
  if (framebuffer == 0) glReadBuffer(GL_BACK);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, image.pixels.data());
  glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
  return image;
}

void writePng(const std::filesystem::path& path, const reference::ImageRgba8& image) {
  if (path.has_parent_path()) files::createFolders(path.parent_path());
  const int stride = image.width * 4;
  // Start at the last row with a negative stride: the file gets the top row first.
  const auto* last = image.pixels.data() + std::size_t(image.height - 1) * stride;
  std::string bytes;
  const auto append = [](void* context, void* data, int size) {
    static_cast<std::string*>(context)->append(static_cast<const char*>(data), std::size_t(size));
  };
  if (!stbi_write_png_to_func(append, &bytes, image.width, image.height, 4, last, -stride))
    throw files::WriteError(path, "the PNG encoder failed");
  files::writeFileAtomically(path, bytes);
}

std::string readFileBytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

}  // namespace satdof
