// engine/gl/handles.h — move-only RAII owners for OpenGL objects, built on swap.
//
// Each owner holds one GLuint name and deletes it in its destructor. Create them with the
// DSA constructors (glCreate*) below, which give objects that are fully initialised.
// They must die while their GL context is current (the App destroys passes before the
// context).
#pragma once

#include <glad/gl.h>

#include <utility>

namespace satdof::gl {

template <void (*Delete)(GLuint)>
class Handle {
 public:
  Handle() = default;
  explicit Handle(GLuint name) : name_(name) {}
  ~Handle() { reset(); }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  Handle(Handle&& other) noexcept { swap(other); }
  Handle& operator=(Handle&& other) noexcept {
    Handle(std::move(other)).swap(*this);
    return *this;
  }
  void swap(Handle& other) noexcept { std::swap(name_, other.name_); }
  void reset() noexcept {
    if (name_) Delete(name_);
    name_ = 0;
  }
  GLuint get() const noexcept { return name_; }
  explicit operator bool() const noexcept { return name_ != 0; }

 private:
  GLuint name_ = 0;
};

namespace detail {
inline void deleteTexture(GLuint n) { glDeleteTextures(1, &n); }
inline void deleteBuffer(GLuint n) { glDeleteBuffers(1, &n); }
inline void deleteFramebuffer(GLuint n) { glDeleteFramebuffers(1, &n); }
inline void deleteRenderbuffer(GLuint n) { glDeleteRenderbuffers(1, &n); }
inline void deleteVertexArray(GLuint n) { glDeleteVertexArrays(1, &n); }
inline void deleteQuery(GLuint n) { glDeleteQueries(1, &n); }
inline void deleteProgram(GLuint n) { glDeleteProgram(n); }
inline void deleteShader(GLuint n) { glDeleteShader(n); }
inline void deleteMemoryObject(GLuint n) { glDeleteMemoryObjectsEXT(1, &n); }
}  // namespace detail

using Texture = Handle<detail::deleteTexture>;
using Buffer = Handle<detail::deleteBuffer>;
using Framebuffer = Handle<detail::deleteFramebuffer>;
using Renderbuffer = Handle<detail::deleteRenderbuffer>;
using VertexArray = Handle<detail::deleteVertexArray>;
using Query = Handle<detail::deleteQuery>;
using Program = Handle<detail::deleteProgram>;
using Shader = Handle<detail::deleteShader>;
using MemoryObject = Handle<detail::deleteMemoryObject>;  // GL_EXT_memory_object

inline Texture createTexture2D(GLenum internalFormat, int width, int height) {
  GLuint n = 0;
  glCreateTextures(GL_TEXTURE_2D, 1, &n);
  glTextureStorage2D(n, 1, internalFormat, width, height);
  glTextureParameteri(n, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTextureParameteri(n, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glTextureParameteri(n, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTextureParameteri(n, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  return Texture(n);
}

// An image of RGBA8 bytes (rows packed, row 0 first) uploaded into a mipmapped texture of
// `internalFormat` (GL_RGBA8, GL_SRGB8_ALPHA8), filtered trilinearly, `wrap` both ways.
inline Texture createMipmappedTexture2D(GLenum internalFormat, int width, int height, const void* rgba8, GLenum wrap) {
  int levels = 1;
  while (((width > height ? width : height) >> levels) > 0) ++levels;
  GLuint n = 0;
  glCreateTextures(GL_TEXTURE_2D, 1, &n);
  glTextureStorage2D(n, levels, internalFormat, width, height);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  glTextureSubImage2D(n, 0, 0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, rgba8);
  glGenerateTextureMipmap(n);
  glTextureParameteri(n, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
  glTextureParameteri(n, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  glTextureParameteri(n, GL_TEXTURE_WRAP_S, GLint(wrap));
  glTextureParameteri(n, GL_TEXTURE_WRAP_T, GLint(wrap));
  return Texture(n);
}

// A multisampled 2D texture (fixed sample locations), e.g. a scene target before resolve.
inline Texture createTexture2DMultisample(GLenum internalFormat, int samples, int width, int height) {
  GLuint n = 0;
  glCreateTextures(GL_TEXTURE_2D_MULTISAMPLE, 1, &n);
  glTextureStorage2DMultisample(n, samples, internalFormat, width, height, GL_TRUE);
  return Texture(n);
}

inline Buffer createBuffer(GLsizeiptr bytes, const void* data, GLbitfield flags) {
  GLuint n = 0;
  glCreateBuffers(1, &n);
  glNamedBufferStorage(n, bytes, data, flags);
  return Buffer(n);
}

// Writes host data at the start of GL buffers: glNamedBufferSubData where the buffer has
// dynamic storage, else into a staging buffer kept between calls (grown when a write
// needs more) and a GPU copy. A buffer whose storage GL imported (GL_EXT_memory_object:
// the SAT tables in CUDA memory) has no GL_DYNAMIC_STORAGE_BIT, so glNamedBufferSubData
// may not write it.
class BufferUploader {
 public:
  void upload(GLuint buffer, const void* data, GLsizeiptr bytes) {
    GLint flags = 0;
    glGetNamedBufferParameteriv(buffer, GL_BUFFER_STORAGE_FLAGS, &flags);
    if (flags & GL_DYNAMIC_STORAGE_BIT) {
      glNamedBufferSubData(buffer, 0, bytes, data);
      return;
    }
    if (stagingBytes_ < bytes) {
      staging_ = createBuffer(bytes, nullptr, GL_DYNAMIC_STORAGE_BIT);
      stagingBytes_ = bytes;
    }
    glNamedBufferSubData(staging_.get(), 0, bytes, data);
    glCopyNamedBufferSubData(staging_.get(), buffer, 0, 0, bytes);
  }

 private:
  Buffer staging_;
  GLsizeiptr stagingBytes_ = 0;
};

inline Framebuffer createFramebuffer() {
  GLuint n = 0;
  glCreateFramebuffers(1, &n);
  return Framebuffer(n);
}

inline Renderbuffer createRenderbuffer(GLenum format, int width, int height) {
  GLuint n = 0;
  glCreateRenderbuffers(1, &n);
  glNamedRenderbufferStorage(n, format, width, height);
  return Renderbuffer(n);
}

inline VertexArray createVertexArray() {
  GLuint n = 0;
  glCreateVertexArrays(1, &n);
  return VertexArray(n);
}

inline Query createQuery(GLenum target) {
  GLuint n = 0;
  glCreateQueries(target, 1, &n);
  return Query(n);
}

}  // namespace satdof::gl
