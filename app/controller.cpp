// app/controller.cpp — see controller.h.
#include "app/controller.h"

#include <cstdio>
#include <set>

#include "app/ui/ui.h"
#include "engine/content/content_error.h"
#include "engine/scene/presets.h"
#include "settings/cli_checks.h"
#include "settings/live_options.h"
#include "settings/renderer_options.h"

namespace satdof {

Controller::Controller(Options& options, Renderer& renderer, const content::DepthSpan& reach)
    : options_(options), renderer_(renderer) {
  focus_.setAutofocus(options_.autofocus);
  focus_.setReach(reach);
}

Options Controller::currentOptions() const {
  Options o = optionsOf(renderer_, options_);
  o.autofocus = focus_.autofocus();
  o.panel = ui_ ? ui_->panelShown : options_.panel;
  return o;
}

void Controller::applyFocusAndScene(Autofocus autofocus, bool animate, int msaa) {
  focus_.setAutofocus(autofocus);
  options_.autofocus = autofocus;
  options_.animate = animate;
  if (msaa != options_.msaa) {
    options_.msaa = msaa;
    renderer_.setMsaa(msaa);
  }
}

std::optional<std::string> Controller::applyOptions(const Options& o) {
  const int backendSwitchesBefore = renderer_.backendSwitches();
  // --focal scene: the focus as it is.
  const reference::DofParams camera = dofParamsOf(o, renderer_.settings().dof.params.focalDistance);
  if (const char* why = reference::whyNotACamera(camera)) return std::string("camera: ") + why;
  const SatFormatInfo* format =
      o.satFormat.empty() ? &satFormatInfo(renderer_.pipeline().targets().satFormat) : findSatFormat(o.satFormat);
  if (format)
    if (auto why = whyNotMaxBlur(*format, camera.maxRadius)) return *why;
  applyFrame(o, camera);
  if (!o.satFormat.empty()) {
    setSatFormat(o.satFormat);
    if (satFormatInfo(renderer_.pipeline().targets().satFormat).name != o.satFormat) return "sat-format: refused (see the panel)";
  }
  options_.panel = o.panel;
  options_.renderScale = o.renderScale;  // the next frame is rendered at the new size
  renderer_.setBlurScale(options_.headless ? 1.0f : o.renderScale);
  if (ui_) ui_->panelShown = o.panel;
  // A backend that failed while the targets were re-made (setSatFormat) is gone: the DoF
  // and the choices in `o` were made for it, and the fallback chose for the new one.
  if (renderer_.backendSwitches() != backendSwitchesBefore) return std::nullopt;
  if (!o.dofName.empty() && o.dofName != renderer_.pipeline().dofEntry().name) {
    const DofEntry* e = findDofImplementation(o.dofName);
    if (!e) return "no depth-of-field implementation '" + o.dofName + "'";
    if (auto why = e->whyNot(renderer_.pipeline().backend())) return "dof " + o.dofName + ": " + *why;
    glFinish();
    renderer_.setDof(*e);
  }
  for (const auto& [key, name] : o.selections) {
    bool offered = false;
    for (const BackendOption& b : renderer_.pipeline().backendOptions()) offered = offered || b.key == key;
    if (!offered) continue;  // another backend's key (the settings file may hold one)
    if (name != renderer_.pipeline().backend().selected(key))
      if (auto why = renderer_.pipeline().backend().select(key, name)) return why;
  }
  return std::nullopt;
}

void Controller::applyFrame(const Options& o, const reference::DofParams& camera) {
  FrameSettings& frame = renderer_.settings();
  if (camera.focalDistance != frame.dof.params.focalDistance) focus_.cancel();
  frame = o;  // the frame's part of the options, as it is ...
  frame.dof.params = camera;  // ... with `camera`
  renderer_.comparison().fields = o.compareB;  // B is rebuilt before the next frame that compares
  applyFocusAndScene(o.autofocus, o.animate, o.msaa);
  setStage(o.stage);
}

std::optional<std::string> Controller::setOption(const std::string& name, const std::string& value) {
  Options o = currentOptions();
  if (auto why = setLiveOption(o, name, value)) return name + ": " + *why;
  bool offeredHere = true;
  for (const ComputeBackendInfo& b : computeBackends())
    for (const BackendOption& opt : b.options())
      if (opt.key == name) {
        offeredHere = false;
        for (const BackendOption& mine : renderer_.pipeline().backendOptions()) offeredHere = offeredHere || mine.key == name;
      }
  const std::string backend(renderer_.pipeline().backend().name());
  if (!offeredHere) return name + ": does not apply to the " + backend + " backend";
  if (name == "conv") {  // B's (compare, compare-b) are checked by the backend that runs them
    bool known = false;
    for (const FilterImplementation& f : renderer_.pipeline().filterImplementations()) known = known || f.name == value;
    if (!known) return name + ": no convolution implementation '" + value + "' in the " + backend + " backend";
  }
  if (auto why = applyOptions(o)) return name + ": " + *why;
  return std::nullopt;
}

std::optional<std::string> Controller::applyPreset(const std::string& name) {
  const scene::Preset* p = scene::findPreset(name);
  if (!p) return "no preset '" + name + "'; valid: portrait, landscape, macro";
  if (renderer_.showsPhoto()) return "preset " + name + ": poses a 3D scene's camera; a photo has none (click to refocus it)";
  const scene::PresetPose pose = scene::applyPreset(*p, renderer_.scene().scene);
  // The preset's teapot is at the image centre: focus on its surface there (read back
  // like a click), not on its centre, which lies behind the surface.
  focus_.focusAt(Pixel{renderer_.extent().width / 2, renderer_.extent().height / 2});
  renderer_.settings().dof.params.focalRange = p->focalRange * pose.scale;
  renderer_.settings().dof.params.maxRadius = p->maxBlur;
  for (std::size_t i = 0; i < scene::presets().size(); ++i)
    if (scene::presets()[i].name == name) renderer_.scene().presetIndex = int(i);
  return std::nullopt;
}

void Controller::nextPreset() {
  const auto all = scene::presets();
  renderer_.scene().presetIndex = (renderer_.scene().presetIndex + 1) % int(all.size());
  if (auto why = applyPreset(std::string(all[std::size_t(renderer_.scene().presetIndex)].name))) {
    contentProblem_ = *why;
    std::printf("satdof: %s\n", why->c_str());
  }
}

void Controller::nextDof() {
  const auto all = dofImplementations();
  std::size_t at = 0;
  while (at < all.size() && &all[at] != &renderer_.pipeline().dofEntry()) ++at;
  for (std::size_t k = 1; k <= all.size(); ++k) {
    const DofEntry& e = all[(at + k) % all.size()];
    if (e.whyNot(renderer_.pipeline().backend())) continue;  // greyed out in the panel, skipped here
    if (&e == &renderer_.pipeline().dofEntry()) return;       // the only one this backend runs
    glFinish();
    renderer_.setDof(e);
    std::printf("satdof: depth of field %s: %s\n", std::string(e.name).c_str(), std::string(e.description).c_str());
    return;
  }
}

void Controller::verify() {
  verifyRequested_ = false;
  verify_ = {verifyRenderedFrame(renderer_), verifySubject(), {}};
  for (const VerifyLine& l : verify_.lines) std::printf("satdof: verify: %s\n", l.text.c_str());
}

VerifySubject Controller::verifySubject() const {
  // What is only shown (the view, the comparison, the panel) leaves the checked outputs as
  // they are; so do the camera and the scene's motion, which a verdict does not follow.
  static const std::set<std::string> shownOnly{"view", "divider", "diff-gain", "compare-b", "compare",
                                               "panel", "autofocus", "animate"};
  const Options o = currentOptions();
  VerifySubject subject;
  for (const std::string& name : liveOptionNames())
    if (!shownOnly.count(name))
      if (auto value = liveOptionValue(o, name)) subject[name] = *value;
  subject["backend"] = std::string(renderer_.pipeline().backend().name());
  subject["size"] = std::to_string(renderer_.extent().width) + "x" + std::to_string(renderer_.extent().height);
  return subject;
}

void Controller::followVerify(const std::optional<std::string>& why) {
  if (verify_.lines.empty() || !verify_.stale.empty()) return;  // nothing to follow
  if (why ? verify_.markStale(*why) : verify_.follow(verifySubject()))
    std::printf("satdof: verify: stale (%s); V verifies again\n", verify_.stale.c_str());
}

void Controller::reset() {
  renderer_.scene().scene.camera = renderer_.scene().startCamera;
  focus_.cancel();
  if (auto why = applyOptions(startOptions_)) std::fprintf(stderr, "satdof: reset: %s\n", why->c_str());
  renderer_.scene().presetIndex = -1;
  followVerify("the settings were reset (R)");
}

void Controller::setContent(content::Content c) {
  focus_.cancel();
  focus_.setReach(c.depthSpan);
  contentProblem_.clear();
  startOptions_.dof.params.focalDistance = c.focalDistance;  // R goes back to the new content's focus
  startOptions_.focusFromScene = false;
  startOptions_.dof.params.focalRange = c.focalRange;
  renderer_.setContent(std::move(c));
}

void Controller::setStage(content::StageMode mode) {
  options_.stage = mode;
  if (auto reach = renderer_.setStage(mode)) focus_.setReach(*reach);
}

void Controller::setSatFormat(const std::string& name) {
  if (renderer_.setSatFormat(name)) precision_.clear();
}

void Controller::reloadShaders() {
  if (!renderer_.reloadShaders()) followVerify("the shaders were reloaded (F5)");
}

bool chosenByUser(const Options& options, const LiveOption& option) {
  const std::string name(option.name);
  return options.given.count(name) || options.fromSettings.count(name);
}

void Controller::updateFocus(float seconds) {
  float& focal = renderer_.settings().dof.params.focalDistance;
  for (const DepthProbe::Reading& r : renderer_.takeDepths()) {
    if (hover_ && r.pixel == *hover_) hoverDepth_ = r.depth;
    focus_.onDepth(r.pixel, r.depth, focal);
  }
  focus_.update(seconds, focal);
}

void Controller::dropFiles(const std::vector<std::string>& files) {
  try {
    content::ContentRequest request =
        content::dropRequest(std::vector<std::filesystem::path>(files.begin(), files.end()), options_.depthMapping);
    request.stage = options_.stage;
    setContent(content::loadContent(request));
  } catch (const content::ContentError& e) {  // the same line as on the command line; nothing changes
    contentProblem_ = e.what();
    std::printf("satdof: drop: %s; still showing %s\n", e.what(), renderer_.shown().summary().front().c_str());
  }
}

void Controller::setHover(std::optional<Pixel> pixel) {
  hover_ = pixel;
  if (!hover_) hoverDepth_.reset();
}

std::vector<Pixel> Controller::probes() const {
  const Extent e = renderer_.extent();
  std::vector<Pixel> probes;
  if (auto p = focus_.probePixel(e.width, e.height)) probes.push_back(*p);
  if (hover_) probes.push_back(*hover_);
  return probes;
}

void Controller::afterFrame() {
  if (verifyRequested_) verify();  // this frame's targets, before anything draws over them
  followVerify();
}

}  // namespace satdof
