// engine/frame/frame_targets.cpp — see frame_targets.h.
#include "engine/frame/frame_targets.h"

#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>

#include "engine/interop/device_memory_buffer.h"

namespace satdof {
namespace {

GLsizeiptr bufferBytes(TargetSize size, Extent e, SatFormat format) {
  switch (size) {
    case TargetSize::SatTable: return GLsizeiptr(satTableBytes(format, e.width, e.height));
    case TargetSize::Uint32SatTable: return GLsizeiptr(satTableBytes(SatFormat::Uint32, e.width, e.height));
    case TargetSize::BokehSprites: return GLsizeiptr(kMaxBokehSprites) * kBokehSpriteBytes;
    case TargetSize::BokehCommands: return GLsizeiptr(kBokehSlots) * kBokehCommandBytes;
    default: throw std::logic_error("not a buffer size");
  }
}

bool isTable(TargetSize size) { return size == TargetSize::SatTable || size == TargetSize::Uint32SatTable; }

}  // namespace

TableMemory chooseTableMemory(std::string_view asked) {
  if (asked == "gl") return {false, "GL memory (--sat-memory gl)"};
  if (auto why = interop::whyNoDeviceMemoryBuffers()) {
    if (asked == "cuda") throw std::runtime_error("--sat-memory cuda: " + *why);
    return {false, "GL memory (" + *why + ")"};
  }
  return {true, "CUDA memory imported by GL"};
}

void FrameTargets::checkExtent(Extent extent, SatFormat format) {
  GLint64 maxBlock = 0;
  glGetInteger64v(GL_MAX_SHADER_STORAGE_BLOCK_SIZE, &maxBlock);
  const auto bytes = std::int64_t(satTableBytes(format, extent.width, extent.height));
  if (maxBlock > 0 && bytes > maxBlock) {
    // In MiB to a tenth, and in bytes too where those read the same ("128.0 MiB, more than
    // 128.0 MiB" would say nothing).
    auto mib = [](std::int64_t b) {
      char text[32];
      std::snprintf(text, sizeof text, "%.1f MiB", double(b) / double(1 << 20));
      return std::string(text);
    };
    std::string need = mib(bytes), most = mib(maxBlock);
    if (need == most) {
      need += " (" + std::to_string(bytes) + " bytes)";
      most += " (" + std::to_string(maxBlock) + " bytes)";
    }
    throw std::runtime_error(std::to_string(extent.width) + "x" + std::to_string(extent.height) + " needs a " +
                             need + " SAT (" + std::string(satFormatInfo(format).name) +
                             "), more than this GL's largest shader storage block (" + most + ")");
  }

}

void FrameTargets::allocate(Extent extent, SatFormat format, DofFields fields) {
  checkExtent(extent, format);
  const int w = extent.width, h = extent.height;
  targets_ = {};
  for (const TargetSpec& spec : kFrameTargets) {
    const auto i = std::size_t(spec.id);
    images_[i] = {};
    buffers_[i] = {};
    if (int(spec.from) > int(fields)) continue;
    if (spec.format) {
      const bool tiles = spec.size == TargetSize::NearTiles;
      images_[i] = gl::createTexture2D(spec.format, tiles ? (w + kNearTileSize - 1) / kNearTileSize : w,
                                       tiles ? (h + kNearTileSize - 1) / kNearTileSize : h);
      targets_.*spec.handle = images_[i].get();
    } else {
      const GLsizeiptr bytes = bufferBytes(spec.size, extent, format);
      memories_[i] = {};
      if (isTable(spec.size) && tableMemory_.cuda) {
        interop::DeviceMemoryBuffer b = interop::createDeviceMemoryBuffer(bytes);
        memories_[i] = std::move(b.memory);
        buffers_[i] = std::move(b.buffer);
      } else {
        buffers_[i] = gl::createBuffer(bytes, nullptr, GL_DYNAMIC_STORAGE_BIT);
      }
      targets_.*spec.handle = buffers_[i].get();
    }
  }
  dofFramebuffer_ = gl::createFramebuffer();
  glNamedFramebufferTexture(dofFramebuffer_.get(), GL_COLOR_ATTACHMENT0, targets_.dofOutput, 0);
  if (glCheckNamedFramebufferStatus(dofFramebuffer_.get(), GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
    throw std::runtime_error("DoF output framebuffer incomplete");
  targets_.dofFramebuffer = dofFramebuffer_.get();
  targets_.extent = extent;
  targets_.satFormat = format;
}

}  // namespace satdof
