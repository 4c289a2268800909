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
  text << "# backend " << renderer_->pipeline().backend().name() << ", window " << fb.width << "x" << fb.height << ", image "
       << renderer_->extent().width << "x" << renderer_->extent().height;
  if (const Extent area = imageArea(fb); area != renderer_->extent())
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
