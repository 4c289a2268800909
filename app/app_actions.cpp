// app/app_actions.cpp — what the keys, the panel and the script ask of the app: the live
// options by name (live_options.h) read from and applied to its state, click-to-focus,
// presets, reset, and screenshots with their settings beside them.
#include <glad/gl.h>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <set>
#include <sstream>

#include "app/app.h"
#include "engine/files/safe_write.h"
#include "engine/image/image_io.h"
#include "settings/cli_checks.h"
#include "settings/live_options.h"
#include "engine/scene/presets.h"
#include "settings/settings_store.h"
#include "app/ui/ui.h"

namespace satdof {

Options App::currentOptions() const {
  Options o = options_;
  const reference::DofParams& p = settings_.dof.params;
  o.focalDistance = p.focalDistance;
  o.focalRange = p.focalRange;
  o.maxBlur = p.maxRadius;
  o.camera = p.model == reference::CocModel::ThinLens ? "thin-lens" : "linear";
  o.focalLengthMm = p.focalLengthMm;
  o.fNumber = p.fNumber;
  o.sensorWidthMm = p.sensorWidthMm;
  o.aperture = p.aperture;
  o.filter = settings_.filter;
  o.view = settings_.view;
  o.compareB = comparison_.fields;
  o.dof = std::string(pipeline_->dofEntry().name);
  o.autofocus = focus_.autofocus();
  o.panel = ui_ ? ui_->panelShown : options_.panel;
  o.bokeh = settings_.bokeh;
  o.satFormat = std::string(satFormatInfo(pipeline_->targets().satFormat).name);
  BackendSelections& saved = o.savedSelections[std::string(pipeline_->backend().name())];
  for (const BackendOption& b : pipeline_->backendOptions())
    saved[b.key] = o.selections[b.key] = pipeline_->backend().selected(b.key);
  o.savedSelections.erase("");  // a file's entries from before they were kept per backend
  return o;
}

std::map<std::string, std::string> App::uiSettings() const { return ui_ ? ui_->saveState() : std::map<std::string, std::string>{}; }

void App::applyFocusAndScene(Autofocus autofocus, bool animate, int msaa) {
  focus_.setAutofocus(autofocus);
  options_.autofocus = autofocus;
  options_.animate = animate;
  if (msaa != options_.msaa) {
    options_.msaa = msaa;
    scenePass_->setSamples(msaa);
    scenePass_->attach(pipeline_->targets());
  }
}

std::optional<std::string> App::applyOptions(const Options& o) {
  const int backendSwitchesBefore = backendSwitches_;
  reference::DofParams& params = settings_.dof.params;
  const reference::DofParams camera = dofParamsOf(o, params.focalDistance);
  if (const char* why = reference::whyNotACamera(camera)) return std::string("camera: ") + why;
  params.model = camera.model;
  params.focalLengthMm = camera.focalLengthMm;
  params.fNumber = camera.fNumber;
  params.sensorWidthMm = camera.sensorWidthMm;
  params.aperture = camera.aperture;
  if (o.focalDistance && *o.focalDistance != params.focalDistance) {
    focus_.cancel();
    params.focalDistance = *o.focalDistance;
  }
  const SatFormatInfo* format =
      o.satFormat.empty() ? &satFormatInfo(pipeline_->targets().satFormat) : findSatFormat(o.satFormat);
  if (format)
    if (auto why = whyNotMaxBlur(*format, o.maxBlur)) return *why;
  params.focalRange = o.focalRange;
  params.maxRadius = o.maxBlur;
  settings_.filter = o.filter;
  settings_.view = o.view;
  comparison_.fields = o.compareB;  // B is rebuilt before the next frame that compares
  applyFocusAndScene(o.autofocus, o.animate, o.msaa);
  setStage(o.stage);
  settings_.bokeh = o.bokeh;
  if (!o.satFormat.empty()) {
    setSatFormat(o.satFormat);
    if (satFormatInfo(pipeline_->targets().satFormat).name != o.satFormat) return "sat-format: refused (see the panel)";
  }
  options_.panel = o.panel;
  options_.renderScale = o.renderScale;  // the next frame is rendered at the new size
  if (ui_) ui_->panelShown = o.panel;
  // A backend that failed while the targets were re-made (setSatFormat) is gone: the DoF
  // and the choices in `o` were made for it, and the fallback chose for the new one.
  if (backendSwitches_ != backendSwitchesBefore) return std::nullopt;
  if (!o.dof.empty() && o.dof != pipeline_->dofEntry().name) {
    const DofEntry* e = findDofImplementation(o.dof);
    if (!e) return "no depth-of-field implementation '" + o.dof + "'";
    if (auto why = e->whyNot(pipeline_->backend())) return "dof " + o.dof + ": " + *why;
    glFinish();
    setDof(*e);
  }
  for (const auto& [key, name] : o.selections) {
    bool offered = false;
    for (const BackendOption& b : pipeline_->backendOptions()) offered = offered || b.key == key;
    if (!offered) continue;  // another backend's key (the settings file may hold one)
    if (name != pipeline_->backend().selected(key))
      if (auto why = pipeline_->backend().select(key, name)) return why;
  }
  return std::nullopt;
}

std::optional<std::string> App::setOption(const std::string& name, const std::string& value) {
  Options o = currentOptions();
  if (auto why = setLiveOption(o, name, value)) return name + ": " + *why;
  bool offeredHere = true;
  for (const ComputeBackendInfo& b : computeBackends())
    for (const BackendOption& opt : b.options())
      if (opt.key == name) {
        offeredHere = false;
        for (const BackendOption& mine : pipeline_->backendOptions()) offeredHere = offeredHere || mine.key == name;
      }
  const std::string backend(pipeline_->backend().name());
  if (!offeredHere) return name + ": does not apply to the " + backend + " backend";
  if (name == "conv") {  // B's (compare, compare-b) are checked by the backend that runs them
    bool known = false;
    for (const FilterImplementation& f : pipeline_->filterImplementations()) known = known || f.name == value;
    if (!known) return name + ": no convolution implementation '" + value + "' in the " + backend + " backend";
  }
  if (auto why = applyOptions(o)) return name + ": " + *why;
  return std::nullopt;
}

void App::focusAt(Pixel pixel) { focus_.focusAt(pixel); }

std::optional<std::string> App::applyPreset(const std::string& name) {
  const scene::Preset* p = scene::findPreset(name);
  if (!p) return "no preset '" + name + "'; valid: portrait, landscape, macro";
  if (photoPass_) return "preset " + name + ": poses a 3D scene's camera; a photo has none (click to refocus it)";
  const scene::PresetPose pose = scene::applyPreset(*p, scene_.scene);
  // The preset's teapot is at the image centre: focus on its surface there (read back
  // like a click), not on its centre, which lies behind the surface.
  focus_.focusAt(Pixel{extent().width / 2, extent().height / 2});
  settings_.dof.params.focalRange = p->focalRange * pose.scale;
  settings_.dof.params.maxRadius = p->maxBlur;
  for (std::size_t i = 0; i < scene::presets().size(); ++i)
    if (scene::presets()[i].name == name) scene_.presetIndex = int(i);
  return std::nullopt;
}

void App::nextPreset() {
  const auto all = scene::presets();
  scene_.presetIndex = (scene_.presetIndex + 1) % int(all.size());
  if (auto why = applyPreset(std::string(all[std::size_t(scene_.presetIndex)].name))) {
    contentProblem_ = *why;
    std::printf("satdof: %s\n", why->c_str());
  }
}

void App::nextDof() {
  const auto all = dofImplementations();
  std::size_t at = 0;
  while (at < all.size() && &all[at] != &pipeline_->dofEntry()) ++at;
  for (std::size_t k = 1; k <= all.size(); ++k) {
    const DofEntry& e = all[(at + k) % all.size()];
    if (e.whyNot(pipeline_->backend())) continue;  // greyed out in the panel, skipped here
    if (&e == &pipeline_->dofEntry()) return;       // the only one this backend runs
    glFinish();
    setDof(e);
    std::printf("satdof: depth of field %s: %s\n", std::string(e.name).c_str(), std::string(e.description).c_str());
    return;
  }
}

void App::verify() {
  verifyRequested_ = false;
  const Targets& t = pipeline_->targets();
  const int w = extent().width, h = extent().height;
  FrameCopy f;
  auto [source, depth] = readBackColourAndDepth();  // finishes the GL work first
  f.source = std::move(source);
  f.depth = std::move(depth);
  f.scene = readTexture(t.sceneColour, w, h);
  f.dof = readTexture(t.dofOutput, w, h);
  if (const ScenePass::Layer behind = scenePass_->secondLayer();
      !photoPass_ && pipeline_->usesSecondLayer() && behind.colour) {
    f.behindColour = readTexture(behind.colour, w, h);
    f.behindDepth = readDepthTexture(behind.depth, w, h);
  }
  f.sat.resize(satTableBytes(t.satFormat, w, h));
  glGetNamedBufferSubData(t.sat, 0, GLsizeiptr(f.sat.size()), f.sat.data());
  VerifyRequest r;
  r.format = t.satFormat;
  r.params = frameBlur().dof.params;
  r.showCoc = settings_.dof.showCoc;
  r.dofName = std::string(pipeline_->dofEntry().name);
  r.layeredDof = pipeline_->dofEntry().fields != DofFields::None;
  r.linearLight = pipeline_->dofEntry().fields == DofFields::SeeThroughLinear;
  if (const auto b = pipeline_->bokeh().lastRequest(); settings_.bokeh.enabled && b) {
    r.dofSkipped = "bokeh sprites are drawn on it (their list is checked)";
    r.bokeh = b->select;
    r.bokehRamp = b->ramp;
    glGetNamedBufferSubData(t.bokehCommands, GLintptr(b->slot) * kBokehCommandBytes, sizeof f.bokehCommand,
                            &f.bokehCommand);
    f.bokehSprites.resize(std::min<std::size_t>(f.bokehCommand.instanceCount, kMaxBokehSprites));
    glGetNamedBufferSubData(t.bokehSprites, 0, GLsizeiptr(f.bokehSprites.size() * sizeof(reference::BokehSprite)),
                            f.bokehSprites.data());
  }
  else if (r.layeredDof && settings_.dof.showCoc) r.dofSkipped = "it shows the blur radius";
  if (pipeline_->sourceImage() != t.sceneColour) {
    const FilterSettings& filter = settings_.filter;
    try {
      r.filter = filter.build();
      r.border = filter.border;
      r.filterName = pipeline_->config(filter.implementation).conv;
    } catch (const std::exception&) {
    }
  }
  verify_ = {verifyFrame(f, r), verifySubject(), {}};
  for (const VerifyLine& l : verify_.lines) std::printf("satdof: verify: %s\n", l.text.c_str());
}

VerifySubject App::verifySubject() const {
  // What is only shown (the view, the comparison, the panel) leaves the checked outputs as
  // they are; so do the camera and the scene's motion, which a verdict does not follow.
  static const std::set<std::string> shownOnly{"view", "divider", "diff-gain", "compare-b", "compare",
                                               "panel", "autofocus", "animate"};
  const Options o = currentOptions();
  VerifySubject subject;
  for (const std::string& name : liveOptionNames())
    if (!shownOnly.count(name))
      if (auto value = liveOptionValue(o, name)) subject[name] = *value;
  subject["backend"] = std::string(pipeline_->backend().name());
  subject["size"] = std::to_string(extent().width) + "x" + std::to_string(extent().height);
  return subject;
}

void App::followVerify(const std::optional<std::string>& why) {
  if (verify_.lines.empty() || !verify_.stale.empty()) return;  // nothing to follow
  if (why ? verify_.markStale(*why) : verify_.follow(verifySubject()))
    std::printf("satdof: verify: stale (%s); V verifies again\n", verify_.stale.c_str());
}

void App::reset() {
  scene_.scene.camera = scene_.startCamera;
  focus_.cancel();
  if (auto why = applyOptions(startOptions_)) std::fprintf(stderr, "satdof: reset: %s\n", why->c_str());
  scene_.presetIndex = -1;
  followVerify("the settings were reset (R)");
}

void App::writeScreenshot(const std::string& requested) {
  std::filesystem::path path = requested;
  if (path.empty()) {  // F12: a name from the time, in the current folder
    const std::time_t now = std::time(nullptr);
    char name[64];
    std::strftime(name, sizeof name, "satdof-%Y%m%d-%H%M%S.png", std::localtime(&now));
    path = name;
  }
  const Extent fb = context_->framebufferExtent();
  const std::filesystem::path sidecar = screenshotSidecar(path);
  std::ostringstream text;
  text << formatSettings(settingsOf(currentOptions(), uiSettings()));
  text << "# backend " << pipeline_->backend().name() << ", window " << fb.width << "x" << fb.height << ", image "
       << extent().width << "x" << extent().height;
  if (const Extent area = imageArea(fb); area != extent())
    text << " (render scale " << options_.renderScale << ", shown at " << area.width << "x" << area.height << ")";
  text << " at its left\n";
  if (ui_ && ui_->lesson.shown()) text << "# lesson " << ui_->lesson.caption() << "\n";
  try {
    writePng(path, readFramebuffer(0, fb.width, fb.height));
    files::writeFileAtomically(sidecar, text.str());
  } catch (const files::WriteError& e) {
    // Asked for by --screenshot or the script (checked before the window opened): the run
    // fails. F12's goes on, the reason said.
    if (!requested.empty()) throw;
    std::fprintf(stderr, "satdof: screenshot: %s\n", e.what());
    return;
  }
  std::printf("satdof: wrote %s (settings: %s)\n", path.c_str(), sidecar.c_str());
}

}  // namespace satdof
