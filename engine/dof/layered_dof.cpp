// engine/dof/layered_dof.cpp — the `layered` DoF entry (satdof/reference/layered_dof.h):
//   split    each pixel into the near or far field, each tile's near radius, dilated;
//   SATs     of the two fields, by the compute backend;
//   reach    how far the near blur reaches each pixel: two passes over the split's near
//            radii (rows, columns) into the near reach image;
//   compose  near over far into the DoF output (GL compute, dof_layered.comp).
// On the cuda backend the split is a CUDA kernel (satdof/dof.h) and the SATs the backend's
// algorithm, inside the backend's own mapping of the frame (engine/interop/stage_host.h): one
// GL-CUDA hand-over per frame, and the reach is a CUDA kernel there too, before the field
// SATs on the frame's one stream (stage_host.h says why one). Elsewhere the split is two GL compute passes, the SATs
// ComputeBackend::buildFieldSats (the CPU by default) and the reach dof_layers_reach.comp's
// two passes. All give the same bytes.
//
// The `see-through` entry is the same class with the scene's second layer
// (DofSettings::behindColour / behindDepth): the GL split fills the far field under near
// pixels and writes the far side, a third field SAT, and the composite replaces what a
// blurred near pixel's box shows of the far side by what lies behind it. Its split is the
// GL one on every backend (the CUDA split knows one layer); on the cuda backend it runs
// before the backend's stage when no filter is on (beforeBackend: it reads only the
// scene), so the fields and their tables join the backend's mapping and the frame keeps
// one hand-over, and its CUDA reach is queued as soon as the backend maps the frame
// (StageHost::onFrameMapped), ahead of the frame's SAT; with a filter on, the fields are
// mapped a second time for their SATs.
// Without a second layer (a photo) it runs as layered.
//
// `see-through-linear` is see-through in linear light (reference "Linear light"): the GL
// split writes every field, and the image itself, in dithered linear bytes (a fourth field
// SAT), and the composite works in light and encodes the result back, with the tables of
// reference::linearLightTables in a buffer both passes read.
#include <array>
#include <cstring>
#include <stdexcept>
#include <utility>
#include <vector>

#include "engine/backends/compute_backend.h"
#include "engine/dof/coc_uniforms.h"
#include "engine/dof/dof_implementation.h"
#include "engine/gl/handles.h"
#include "engine/gl/program.h"
#include "satdof/reference/layered_dof.h"
#if SATDOF_HAVE_CUDA
#include "engine/interop/stage_host.h"
#include "satdof/device_buffer.h"
#include "satdof/dof.h"
#endif

namespace satdof {
namespace {

using reference::kLayerTile;

class LayeredDof final : public DofImplementation {
 public:
  LayeredDof(const std::filesystem::path& shaderDir, ComputeBackend& backend, bool seeThrough, bool linear)
      : backend_(backend), seeThrough_(seeThrough), linear_(linear) {
    reloadShaders(shaderDir);
    linearTables_ = createLinearLightTables();
#if SATDOF_HAVE_CUDA
    // On the cuda backend the fields and their SATs join the backend's mapping of the
    // frame: one GL-CUDA hand-over. Layered splits in CUDA inside it; see-through splits
    // on GL before the backend runs (beforeBackend), the fields then mapped as they are.
    using interop::Target;
    host_ = dynamic_cast<interop::StageHost*>(&backend);
    if (host_) {
      std::vector<Target> shared{Target::Depth,   Target::SceneColour, Target::Filtered,       Target::NearField,
                                 Target::FarField, Target::NearSat,    Target::FarSat,         Target::NearTileRadius,
                                 Target::NearRadius, Target::NearReach};
      if (seeThrough_) shared.insert(shared.end(), {Target::FarSide, Target::FarSideSat});
      if (linear_) shared.insert(shared.end(), {Target::LinearColour, Target::LinearColourSat});
      host_->shareFrameMapping(std::move(shared));
      // See-through's split runs before the backend, so its reach can start as soon as
      // the backend maps the frame: beside the frame's SAT and then the field SATs.
      if (seeThrough_)
        host_->onFrameMapped([this](const interop::Session::Mapped& mapped, Profiler& profiler) {
          if (!splitAhead_) return;
          surfaces_.clear();  // last frame's: its work finished before this frame's map
          reachInCuda(mapped, profiler);
        });
    }
#endif
  }
#if SATDOF_HAVE_CUDA
  ~LayeredDof() override {
    if (!host_) return;
    host_->onFrameMapped({});
    host_->shareFrameMapping({});
  }
#endif

  void attach(const Targets& t) override {
    const bool formatChanged = t.satFormat != targets_.satFormat;
    targets_ = t;
    if (formatChanged) reloadShaders(shaderDir_);
    const int tx = (t.extent.width + kLayerTile - 1) / kLayerTile, ty = (t.extent.height + kLayerTile - 1) / kLayerTile;
    tileMax_ = gl::createTexture2D(GL_R32I, tx, ty);
    rowReach_ = gl::createTexture2D(GL_R16I, t.extent.width, t.extent.height);
  }

  // The split and the composite are built for each mode this entry runs (a frame with or
  // without the second layer; in linear light, the image's table packed or not; the
  // composite for each aperture), the mode as the shaders' defines, so that a program holds
  // only its own branches (at 4K on the H200 see-through-linear's split took 0.006 ms less
  // and its composite 0.012 less, layered's composite 0.058 less, than with the mode as
  // uniforms: docs/PERFORMANCE.md). The splits are built here; the composites as a frame
  // first needs them (composite()), but one here, which checks the source and gives the
  // workgroup size.
  void reloadShaders(const std::filesystem::path& dir) override {
    std::array<gl::Program, 2> splits;
    for (const bool behind : {false, true})
      if (!behind || seeThrough_)
        splits[behind] = gl::loadProgram(dir, {{GL_COMPUTE_SHADER, "dof_layers_split.comp"}}, {},
                                         {{"SEE_THROUGH", behind}, {"LINEAR", linear_}});
    std::array<gl::Program, kComposites> composites;
    const std::size_t first = compositeIndex(seeThrough_, false, reference::Aperture::Box);
    composites[first] = loadComposite(dir, first);
    auto dilate = gl::loadProgram(dir, {{GL_COMPUTE_SHADER, "dof_layers_dilate.comp"}}, {});
    auto reach = gl::loadProgram(dir, {{GL_COMPUTE_SHADER, "dof_layers_reach.comp"}}, {});
    std::array<GLint, 3> composeGroup{};
    glGetProgramiv(composites[first].get(), GL_COMPUTE_WORK_GROUP_SIZE, composeGroup.data());
    shaderDir_ = dir;
    splits_ = std::move(splits);  // all or none
    dilate_ = std::move(dilate);
    reachProgram_ = std::move(reach);
    composites_ = std::move(composites);
    composeGroup_ = {composeGroup[0], composeGroup[1]};
  }

  // See-through on the cuda backend, on a frame without a filter: the GL split now, so
  // that the backend maps the fields with its own targets (the CUDA split knows one layer).
  void beforeBackend(const DofSettings& s, Profiler& profiler) override {
#if SATDOF_HAVE_CUDA
    if (!host_ || !seeThrough_ || !targets_.nearField) return;
    const Frame f = frameOf(s);
    glPushDebugGroup(GL_DEBUG_SOURCE_APPLICATION, 3, -1, f.names.dof);
    splitOnGl(s, f, profiler);
    glPopDebugGroup();
    splitAhead_ = true;
#else
    (void)s, (void)profiler;
#endif
  }

  void run(const DofSettings& s, Profiler& profiler) override {
    const Targets& t = targets_;
    if (!t.nearField) throw std::logic_error("layered DoF attached to targets without fields");
    const Extent e = t.extent;
    const Frame f = frameOf(s);
    const reference::CocRamp& ramp = f.ramp;
    const bool behind = f.behind;
    glPushDebugGroup(GL_DEBUG_SOURCE_APPLICATION, 3, -1, f.names.dof);
    Targets fields = t;
    if (!behind) fields.farSide = fields.farSideSat = 0;  // no far side this frame
    if (!linear_) fields.linearColour = fields.linearColourSat = 0;  // held for another DoF
    // The linear image's table in half the bytes where the cuda backend builds it (its SAT
    // kernels write uint21x3 directly; gl-compute would pack a uint32 table in a second
    // pass) and every box the composite reads of it is exact in that format.
    if (linear_ && onCuda() && ramp.maxRadius <= kUint21x3MaxRadius) fields.linearColourSatFormat = SatFormat::Uint21x3;
    const bool linearPacked = fields.linearColourSatFormat == SatFormat::Uint21x3;
    // The backend ran onFrameMapped on the mapping it left open: after a split ahead, the
    // reach started there.
    const bool reachStarted = takeFrameMapping() && splitAhead_;
#if SATDOF_HAVE_CUDA
    if (!reachStarted) surfaces_.clear();  // last frame's: its work finished before this frame's map
#endif
    if (!std::exchange(splitAhead_, false) && (behind || linear_ || !splitInCuda(s, ramp, profiler))) {
      closeFrameMapping(profiler);  // GL writes the fields next
      splitOnGl(s, f, profiler);
    }
    if (!buildFieldSatsAndReach(fields, reachStarted, profiler)) {
      // R(p) on GL: the rows' reach over the split's near radii into rowReach_, the
      // columns' over that into the near reach image.
      auto timed = profiler.section(profiler.gl(), "dof reach", "layered (GL)");
      setCocUniforms(reachProgram_.get(), ramp, e);
      glBindImageTexture(3, t.nearTileRadius, 0, GL_FALSE, 0, GL_READ_ONLY, GL_R32I);
      for (int pass = 1; pass <= 2; ++pass) {
        gl::uniform1i(reachProgram_.get(), "uPass", pass);
        glBindImageTexture(2, pass == 1 ? t.nearRadius : rowReach_.get(), 0, GL_FALSE, 0, GL_READ_ONLY, GL_R16I);
        glBindImageTexture(4, pass == 1 ? rowReach_.get() : t.nearReach, 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_R16I);
        glDispatchCompute(GLuint((e.width + 15) / 16), GLuint((e.height + 15) / 16), 1);
        glMemoryBarrier(GL_SHADER_IMAGE_ACCESS_BARRIER_BIT);
      }
    }
    {
      const GLuint compose = composite(behind, linearPacked, s.params.aperture);  // a first use builds it: untimed
      auto timed = profiler.section(profiler.gl(), "dof", f.names.dof);
      setCocUniforms(compose, ramp, e);
      glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 4, linearTables_.get());  // the SATs' passes rebind 4
      if (linear_) glBindBufferBase(GL_SHADER_STORAGE_BUFFER, linearPacked ? 6 : 5, t.linearColourSat);
      glBindTextureUnit(0, t.depth);
      if (behind) {
        glBindTextureUnit(1, s.behindColour);
        glBindTextureUnit(2, s.behindDepth);
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 3, t.farSideSat);
      }
      glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, t.sat);
      glBindImageTexture(0, t.dofOutput, 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_RGBA8);
      glBindImageTexture(3, t.nearReach, 0, GL_FALSE, 0, GL_READ_ONLY, GL_R16I);
      glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, t.nearSat);
      glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 2, t.farSat);
      glDispatchCompute(GLuint((e.width + composeGroup_[0] - 1) / composeGroup_[0]),
                        GLuint((e.height + composeGroup_[1] - 1) / composeGroup_[1]), 1);
      glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT | GL_FRAMEBUFFER_BARRIER_BIT | GL_TEXTURE_UPDATE_BARRIER_BIT);
      glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, 0);
      glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, 0);
      glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 2, 0);
      glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 3, 0);
      glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 4, 0);
      glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 5, 0);
      glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 6, 0);
      for (GLuint unit : {0u, 1u, 2u, 3u, 4u, 5u}) glBindImageTexture(unit, 0, 0, GL_FALSE, 0, GL_READ_ONLY, GL_RGBA8);
    }
    glPopDebugGroup();
  }

 private:
  bool onCuda() const {
#if SATDOF_HAVE_CUDA
    return host_ != nullptr;
#else
    return false;
#endif
  }

  // What a frame runs: its ramp, whether see-through has a second layer (else it runs as
  // layered), the names for the debug group and the profiler's tags.
  struct Names {
    const char *dof, *glSplit;
  };
  struct Frame {
    reference::CocRamp ramp;
    bool behind;
    Names names;
  };
  Frame frameOf(const DofSettings& s) const {
    static constexpr Names kNames[2][2] = {{{"layered", "layered (GL)"}, {"see-through", "see-through (GL)"}},
                                           {{"layered, linear", "layered, linear (GL)"},
                                            {"see-through, linear", "see-through, linear (GL)"}}};
    const bool behind = seeThrough_ && s.behindColour && s.behindDepth;
    return {reference::cocRamp(s.params, targets_.extent.width), behind, kNames[linear_][behind]};
  }

  // The split and the tile dilation as GL compute passes (every field, both layers,
  // either light).
  void splitOnGl(const DofSettings& s, const Frame& f, Profiler& profiler) {
    const Targets& t = targets_;
    const Extent e = t.extent;
    const GLuint groupsX = GLuint((e.width + kLayerTile - 1) / kLayerTile);
    const GLuint groupsY = GLuint((e.height + kLayerTile - 1) / kLayerTile);
    auto timed = profiler.section(profiler.gl(), "dof split", f.names.glSplit);
    const GLuint split = splits_[f.behind].get();
    setCocUniforms(split, f.ramp, e);
    gl::uniform1f(split, "uBehindEmpty", s.behindEmptyDepth);
    glBindTextureUnit(0, t.depth);
    glBindTextureUnit(1, s.source ? s.source : t.sceneColour);
    glBindImageTexture(0, t.nearField, 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_RGBA8);
    glBindImageTexture(1, t.farField, 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_RGBA8);
    glBindImageTexture(2, tileMax_.get(), 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_R32I);
    glBindImageTexture(4, t.nearRadius, 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_R16I);
    if (f.behind) {
      glBindTextureUnit(2, s.behindColour);
      glBindTextureUnit(3, s.behindDepth);
      glBindImageTexture(3, t.farSide, 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_RGBA8);
    }
    if (linear_) glBindImageTexture(5, t.linearColour, 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_RGBA8);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 4, linearTables_.get());
    glDispatchCompute(groupsX, groupsY, 1);
    glMemoryBarrier(GL_SHADER_IMAGE_ACCESS_BARRIER_BIT);
    setCocUniforms(dilate_.get(), f.ramp, e);
    glBindImageTexture(2, tileMax_.get(), 0, GL_FALSE, 0, GL_READ_ONLY, GL_R32I);
    glBindImageTexture(3, t.nearTileRadius, 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_R32I);
    glDispatchCompute((groupsX + 7) / 8, (groupsY + 7) / 8, 1);
    // The fields are read next by the backend: CUDA (mapping orders it), a read back or
    // a GL compute pass.
    glMemoryBarrier(GL_ALL_BARRIER_BITS);
  }

  // The backend's mapping of this frame, where it left one open for the DoF (cuda; it
  // holds the fields and their tables): taken at the start of run(), closed within it.
  // Whether there was one.
  bool takeFrameMapping() {
#if SATDOF_HAVE_CUDA
    frameMapping_ = host_ ? host_->takeFrameMapping() : nullptr;
    return frameMapping_ != nullptr;
#else
    return false;
#endif
  }
  void closeFrameMapping(Profiler& profiler) {
#if SATDOF_HAVE_CUDA
    if (!frameMapping_) return;
    auto unmapSection = profiler.section(host_->clock(), "unmap");
    frameMapping_->unmap();
    frameMapping_.reset();
#else
    (void)profiler;
#endif
  }

  // The fields' SATs: inside the frame's mapping where one is open, after the reach on the
  // host's stream (then the mapping closed: true); else by the backend on its own (on cuda
  // a mapping of the fields alone), the reach left to GL (false).
  bool buildFieldSatsAndReach(const Targets& fields, bool reachStarted, Profiler& profiler) {
#if SATDOF_HAVE_CUDA
    if (frameMapping_) {
      if (!reachStarted) reachInCuda(*frameMapping_, profiler);
      host_->buildFieldSats(*frameMapping_, profiler, fieldTables(fields));
      closeFrameMapping(profiler);
      return true;
    }
#else
    (void)reachStarted;
#endif
    backend_.buildFieldSats(fields, profiler);
    return false;
  }

#if SATDOF_HAVE_CUDA
  // The reach passes as a CUDA kernel on the host's stream, after the split: the field SATs
  // follow it there, or (see-through, whose split ran before the backend) the frame's SAT
  // and then the field SATs do.
  void reachInCuda(const interop::Session::Mapped& mapped, Profiler& profiler) {
    using interop::Target;
    LayerReachArgs a;
    a.nearRadius = surfaces_.emplace_back(interop::createSurface(mapped.array(Target::NearRadius))).get();
    a.tileRadius = surfaces_.emplace_back(interop::createSurface(mapped.array(Target::NearTileRadius))).get();
    a.reach = surfaces_.emplace_back(interop::createSurface(mapped.array(Target::NearReach))).get();
    a.width = targets_.extent.width;
    a.height = targets_.extent.height;
    if (const std::size_t need = layerReachScratchBytes(a.width, a.height); reachScratch_.size() < need) {
      SATDOF_CUDA_CHECK(cudaStreamSynchronize(host_->stream()));  // last frame's reach may still use it
      reachScratch_.resize(need);
    }
    auto timed = profiler.section(host_->clock(), "dof reach", "layered (CUDA)");
    SATDOF_CUDA_CHECK(launchLayerReach(a, reachScratch_.data(), reachScratch_.size(), host_->stream()));
  }
#endif

  // The cuda backend's path for layered: the split inside the frame's mapping (its SATs
  // follow there). False without an open mapping.
  bool splitInCuda(const DofSettings& s, const reference::CocRamp& ramp, Profiler& profiler) {
#if SATDOF_HAVE_CUDA
    if (!frameMapping_) return false;  // not cuda, or the backend did not run this frame
    using interop::Target;
    const interop::Session::Mapped* mapped = frameMapping_.get();
    const Targets& t = targets_;
    const cudaStream_t stream = host_->stream();
    {
      // The surfaces made and the scratch grown before the section: host calls inside it
      // would leave the stream idle within the timed span.
      auto surface = [&](Target target) {
        return surfaces_.emplace_back(interop::createSurface(mapped->array(target))).get();
      };
      LayerSplitArgs a;
      a.depth = surface(Target::Depth);
      a.colour = surface(s.source == t.filtered ? Target::Filtered : Target::SceneColour);
      a.nearField = surface(Target::NearField);
      a.farField = surface(Target::FarField);
      a.tileRadius = surface(Target::NearTileRadius);
      a.nearRadius = surface(Target::NearRadius);
      a.width = t.extent.width;
      a.height = t.extent.height;
      a.ramp = ramp;
      if (const std::size_t need = layerSplitScratchBytes(a.width, a.height); tileScratch_.size() < need)
        tileScratch_.resize(need);
      auto timed = profiler.section(host_->clock(), "dof split", "layered (CUDA)");
      SATDOF_CUDA_CHECK(launchLayerSplit(a, tileScratch_.data(), tileScratch_.size(), stream));
    }
    return true;
#else
    (void)s, (void)ramp, (void)profiler;
    return false;
#endif
  }

  ComputeBackend& backend_;
  bool seeThrough_, linear_;
  bool splitAhead_ = false;  // beforeBackend split this frame's fields
  gl::Buffer linearTables_;  // reference::linearLightTables: decode, threshold, bucketStart
  std::filesystem::path shaderDir_;
  Targets targets_;
  static constexpr std::size_t kComposites = 8;
  static constexpr std::size_t compositeIndex(bool behind, bool linearPacked, reference::Aperture aperture) {
    return behind + 2 * linearPacked + 4 * (aperture == reference::Aperture::Disc);
  }
  gl::Program loadComposite(const std::filesystem::path& dir, std::size_t index) const {
    const bool behind = index & 1, packed = index & 2, disc = index & 4;
    if ((behind && !seeThrough_) || (packed && !linear_))
      throw std::logic_error("the layered composite asked for a mode its entry never runs");
    return gl::loadProgram(dir, {{GL_COMPUTE_SHADER, "dof_layered.comp"}},
                           {{"sat_format.glsl", std::string(satFormatInfo(targets_.satFormat).shaderInclude)}},
                           {{"SEE_THROUGH", behind}, {"LINEAR", linear_}, {"LINEAR_PACKED", packed}, {"APERTURE", disc}});
  }
  // The composite of that mode, built on first use.
  GLuint composite(bool behind, bool linearPacked, reference::Aperture aperture) {
    const std::size_t index = compositeIndex(behind, linearPacked, aperture);
    if (!composites_[index]) composites_[index] = loadComposite(shaderDir_, index);
    return composites_[index].get();
  }
  std::array<gl::Program, 2> splits_;  // by whether the frame has a second layer (none built if it cannot)
  std::array<gl::Program, kComposites> composites_;  // by compositeIndex; those not yet used empty
  gl::Program dilate_, reachProgram_;
  std::array<GLint, 2> composeGroup_{};  // the composite's workgroup size, as its shader declares it
  gl::Texture tileMax_;                   // the GL path's undilated tile maxima
  gl::Texture rowReach_;                  // the GL reach's rows pass (the columns' input)
#if SATDOF_HAVE_CUDA
  interop::StageHost* host_ = nullptr;
  std::unique_ptr<interop::Session::Mapped> frameMapping_;  // within run() only
  std::vector<interop::SurfaceObject> surfaces_;  // this frame's, kept until the next
  DeviceBuffer<unsigned char> tileScratch_, reachScratch_;  // the split's tile maxima, the reach's rows
#endif
};

}  // namespace

gl::Buffer createLinearLightTables() {
  const reference::LinearLightTables& tables = reference::linearLightTables();
  static_assert(sizeof(tables.decode) == 1024 && sizeof(tables.threshold) == 1024);
  static_assert(sizeof(tables.bucketStart) == 672 * 4, "linear_light.glsl's bucketStart[672]");
  // std430: decode[256], threshold[256], then the bucket bytes, four to a uint
  std::array<std::uint8_t, 2048 + sizeof(tables.bucketStart)> bytes;
  std::memcpy(bytes.data(), tables.decode.data(), 1024);
  std::memcpy(bytes.data() + 1024, tables.threshold.data(), 1024);
  std::memcpy(bytes.data() + 2048, tables.bucketStart.data(), sizeof(tables.bucketStart));
  return gl::createBuffer(GLsizeiptr(bytes.size()), bytes.data(), 0);
}

std::unique_ptr<DofImplementation> createLayeredDof(const std::filesystem::path& shaderDir, ComputeBackend& backend) {
  return std::make_unique<LayeredDof>(shaderDir, backend, false, false);
}

std::unique_ptr<DofImplementation> createSeeThroughDof(const std::filesystem::path& shaderDir, ComputeBackend& backend) {
  return std::make_unique<LayeredDof>(shaderDir, backend, true, false);
}

std::unique_ptr<DofImplementation> createSeeThroughLinearDof(const std::filesystem::path& shaderDir,
                                                             ComputeBackend& backend) {
  return std::make_unique<LayeredDof>(shaderDir, backend, true, true);
}

}  // namespace satdof
