// app/app_actions.cpp — what the keys, the panel and the script ask of the app: the live
// options by name (option_table.h) read from and applied to its state, click-to-focus,
// presets, reset, and screenshots with their settings beside them.
#include <glad/gl.h>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>

#include "app.h"
#include "image_io.h"
#include "option_table.h"
#include "scene/presets.h"
#include "settings_store.h"
#include "ui/ui.h"

namespace satdof {

Options App::currentOptions() const {
  Options o = options_;
  o.focalDistance = dof_.params.focalDistance;
  o.focalRange = dof_.params.focalRange;
  o.maxBlur = dof_.params.maxRadius;
  o.camera = dof_.params.model == reference::CocModel::ThinLens ? "thin-lens" : "linear";
  o.focalLengthMm = dof_.params.focalLengthMm;
  o.fNumber = dof_.params.fNumber;
  o.sensorWidthMm = dof_.params.sensorWidthMm;
  o.filter = filter_;
  o.view = view_;
  o.compareB = compareFields_;
  o.dof = std::string(dofEntry_->name);
  o.autofocus = focus_.autofocus();
  o.panel = ui_ ? ui_->panelShown : options_.panel;
  o.bokeh = bokeh_;
  o.satFormat = std::string(satFormatInfo(targets_.targets().satFormat).name);
  for (const BackendOption& b : backendOptions_) o.selections[b.key] = computePass_->backend().selected(b.key);
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
    scenePass_->attach(targets_.targets());
  }
}

std::optional<std::string> App::applyOptions(const Options& o) {
  const int backendSwitchesBefore = backendSwitches_;
  reference::DofParams camera = dof_.params;
  camera.model = o.camera == "thin-lens" ? reference::CocModel::ThinLens : reference::CocModel::Linear;
  camera.focalLengthMm = o.focalLengthMm;
  camera.fNumber = o.fNumber;
  camera.sensorWidthMm = o.sensorWidthMm;
  if (o.focalDistance) camera.focalDistance = *o.focalDistance;
  if (const char* why = reference::whyNotACamera(camera)) return std::string("camera: ") + why;
  dof_.params.model = camera.model;
  dof_.params.focalLengthMm = camera.focalLengthMm;
  dof_.params.fNumber = camera.fNumber;
  dof_.params.sensorWidthMm = camera.sensorWidthMm;
  if (o.focalDistance && *o.focalDistance != dof_.params.focalDistance) {
    focus_.cancel();
    dof_.params.focalDistance = *o.focalDistance;
  }
  const SatFormatInfo* format =
      o.satFormat.empty() ? &satFormatInfo(targets_.targets().satFormat) : findSatFormat(o.satFormat);
  if (format)
    if (auto why = whyNotMaxBlur(*format, o.maxBlur)) return *why;
  dof_.params.focalRange = o.focalRange;
  dof_.params.maxRadius = o.maxBlur;
  filter_ = o.filter;
  view_ = o.view;
  compareFields_ = o.compareB;  // B is rebuilt before the next frame that compares
  applyFocusAndScene(o.autofocus, o.animate, o.msaa);
  bokeh_ = o.bokeh;
  if (!o.satFormat.empty()) {
    setSatFormat(o.satFormat);
    if (satFormatInfo(targets_.targets().satFormat).name != o.satFormat) return "sat-format: refused (see the panel)";
  }
  options_.panel = o.panel;
  if (ui_) ui_->panelShown = o.panel;
  // A backend that failed while the targets were re-made (setSatFormat) is gone: the DoF
  // and the choices in `o` were made for it, and the fallback chose for the new one.
  if (backendSwitches_ != backendSwitchesBefore) return std::nullopt;
  if (!o.dof.empty() && o.dof != dofEntry_->name) {
    const DofEntry* e = findDofImplementation(o.dof);
    if (!e) return "no depth-of-field implementation '" + o.dof + "'";
    if (auto why = e->whyNot(computePass_->backend())) return "dof " + o.dof + ": " + *why;
    glFinish();
    setDof(*e);
  }
  for (const auto& [key, name] : o.selections) {
    bool offered = false;
    for (const BackendOption& b : backendOptions_) offered = offered || b.key == key;
    if (!offered) continue;  // another backend's key (the settings file may hold one)
    if (name != computePass_->backend().selected(key))
      if (auto why = computePass_->backend().select(key, name)) return why;
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
        for (const BackendOption& mine : backendOptions_) offeredHere = offeredHere || mine.key == name;
      }
  if (!offeredHere)
    return name + ": does not apply to the " + std::string(computePass_->backend().name()) + " backend";
  if (name == "conv") {  // B's (compare, compare-b) are checked by the backend that runs them
    bool known = false;
    for (const FilterImplementation& f : filterImplementations_) known = known || f.name == value;
    if (!known) return name + ": no convolution implementation '" + value + "' in the " +
                       std::string(computePass_->backend().name()) + " backend";
  }
  if (auto why = applyOptions(o)) return name + ": " + *why;
  return std::nullopt;
}

void App::focusAt(Pixel pixel) { focus_.focusAt(pixel); }

std::optional<std::string> App::applyPreset(const std::string& name) {
  const scene::Preset* p = scene::findPreset(name);
  if (!p) return "no preset '" + name + "'; valid: portrait, landscape, macro";
  scene::applyPreset(*p, scene_);
  // The preset's teapot is at the image centre: focus on its surface there (read back
  // like a click), not on its centre, which lies behind the surface.
  focus_.focusAt(Pixel{extent_.width / 2, extent_.height / 2});
  dof_.params.focalRange = p->focalRange;
  dof_.params.maxRadius = p->maxBlur;
  for (std::size_t i = 0; i < scene::presets().size(); ++i)
    if (scene::presets()[i].name == name) presetIndex_ = int(i);
  return std::nullopt;
}

void App::nextPreset() {
  const auto all = scene::presets();
  presetIndex_ = (presetIndex_ + 1) % int(all.size());
  applyPreset(std::string(all[std::size_t(presetIndex_)].name));
}

void App::verify() {
  verifyRequested_ = false;
  const Targets& t = targets_.targets();
  const int w = extent_.width, h = extent_.height;
  FrameCopy f;
  auto [source, depth] = readBackColourAndDepth();  // finishes the GL work first
  f.source = std::move(source);
  f.depth = std::move(depth);
  f.scene = readTexture(t.sceneColour, w, h);
  f.dof = readTexture(t.dofOutput, w, h);
  f.sat.resize(satTableBytes(t.satFormat, w, h));
  glGetNamedBufferSubData(t.sat, 0, GLsizeiptr(f.sat.size()), f.sat.data());
  VerifyRequest r;
  r.format = t.satFormat;
  r.params = dof_.params;
  r.showCoc = dof_.showCoc;
  r.dofName = std::string(dofEntry_->name);
  r.layeredDof = dofEntry_->layers;
  if (const auto b = bokehPass_->lastRequest(); bokeh_.enabled && b) {
    r.dofSkipped = "bokeh sprites are drawn on it (their list is checked)";
    r.bokeh = b->select;
    r.bokehRamp = b->ramp;
    glGetNamedBufferSubData(t.bokehCommands, GLintptr(b->slot) * kBokehCommandBytes, sizeof f.bokehCommand,
                            &f.bokehCommand);
    f.bokehSprites.resize(std::min<std::size_t>(f.bokehCommand.instanceCount, kMaxBokehSprites));
    glGetNamedBufferSubData(t.bokehSprites, 0, GLsizeiptr(f.bokehSprites.size() * sizeof(reference::BokehSprite)),
                            f.bokehSprites.data());
  }
  else if (r.layeredDof && dof_.showCoc) r.dofSkipped = "it shows the blur radius";
  if (computePass_->filteredImage(t) != t.sceneColour) {
    try {
      r.filter = filter_.build();
      r.border = filter_.border;
      r.filterName = filter_.implementation.empty() ? filterImplementations_.front().name : filter_.implementation;
    } catch (const std::exception&) {
    }
  }
  verifyLines_ = verifyFrame(f, r);
  for (const VerifyLine& l : verifyLines_) std::printf("satdof: verify: %s\n", l.text.c_str());
}

void App::reset() {
  scene_.camera = startCamera_;
  focus_.cancel();
  if (auto why = applyOptions(startOptions_)) std::fprintf(stderr, "satdof: reset: %s\n", why->c_str());
  presetIndex_ = -1;
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
  try {
    writePng(path, readFramebuffer(0, fb.width, fb.height));
    std::filesystem::path sidecar = path;
    sidecar.replace_extension(".txt");
    std::ofstream out(sidecar);
    out << formatSettings(settingsOf(currentOptions(), uiSettings()));
    out << "# backend " << computePass_->backend().name() << ", window " << fb.width << "x" << fb.height
        << ", image " << extent_.width << "x" << extent_.height << " at its left\n";
    std::printf("satdof: wrote %s (settings: %s)\n", path.c_str(), sidecar.c_str());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "satdof: screenshot: %s\n", e.what());
  }
}

}  // namespace satdof
