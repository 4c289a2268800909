// app/startup.h — what a run settles from its options and the GL context before the
// renderer exists, each said in one line.
#pragma once

#include <string>
#include <vector>

#include "engine/backends/compute_backend.h"
#include "engine/context/context.h"
#include "engine/content/content.h"
#include "engine/renderer/frame_settings.h"
#include "settings/script.h"  // ScriptCommand
#include "settings/cli.h"

namespace satdof {

// The backend --backend names (or `auto`'s first that runs), with the settings file's
// choices for it where the command line made none; its choices said in one line each.
BackendChoice chooseBackendFor(const Options& options, const Context& context);
// A window on a software GL: MSAA 1 and a smaller render scale, where neither the command
// line nor the settings file chose them; said in one line. Returns the panel's note on the
// render scale (empty: nothing changed).
std::string adaptToSoftwareGl(Options& options, const Context& context);

// --script's commands, the folders of its screenshots checked before any window opens.
std::vector<ScriptCommand> loadCheckedScript(const Options& options);
// The settings the first frame reads: the options', the focus and focal range the content
// suggests unless the user chose them (a file's content: the command line alone). Throws
// UsageError for a camera that cannot be.
FrameSettings startSettings(const Options& options, const content::Content& content);
// What the renderer starts with; a DoF the backend cannot run is the command line's error,
// or the settings file's choice dropped in one line (options.dof cleared).
RendererSetup rendererSetup(Options& options, const ComputeBackend& backend);

}  // namespace satdof
