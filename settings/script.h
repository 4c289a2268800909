// settings/script.h — the text of a --script FILE, parsed into commands, as a pure function
// (no GL, no registries: fuzz/fuzz_script.cpp throws bytes at it). One command a line,
// words separated by spaces, '#' starts a comment:
//
//   set OPTION VALUE    any live option, as on the command line (set focal 14)
//   select KEY NAME     a registry entry: a backend option (scan, sat), dof, conv, compare
//   focus X Y           click to focus at image pixel (X, Y), origin top-left
//   view NAME           final, scene, depth, sat, focus, filtered, split, diff
//   preset NAME         a scene preset (portrait, landscape, macro)
//   screenshot PATH     the window as PNG once this frame is shown, with the settings
//                       beside it (PATH with .txt); the next command runs a frame later
//   key NAME            press a key: F1, F5, F12, Esc, R, H, P, D, V, C, 1-9 (as in the window)
//   wait N              let N frames pass (1..100000)
//   resize W H          the window's size in screen coordinates (1..16384), as a user's drag
//   race                the panel's race of the backend's kernels on this frame; the script
//                       goes on once it has finished (its table on stdout)
//   adopt N             the finished race's row N (1-based, the table's order), as a click
//                       on its bar adopts it
//   time-scans          the panel's "time each variant": every scan variant the backend runs
//                       here for a few frames, then the user's own back; the script goes on
//                       once it has finished (the SAT times on stdout)
//   sections open|fold  open every section of the panel, or fold them all
//   drop PATH           PATH dropped on the window: a glTF scene, or a photo with its depth
//                       map beside it; a bad file is said in the panel and on stdout
//   quit                close the window
//
// Values are checked against the registries when the script is loaded (script_runner.h),
// before any window opens; errors name the line: "FILE:3: ...".
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace satdof {

struct ScriptCommand {
  enum class Kind {
    Set, Select, Focus, View, Preset, Key, Screenshot, Wait, Resize, Race, Adopt, Drop, TimeScans, Sections, Quit
  };
  Kind kind = Kind::Quit;
  std::string name;   // set/select: the option; view/preset/key/sections: the name; screenshot, drop: the path
  std::string value;  // set/select: the value
  int x = 0, y = 0;   // focus: the pixel; wait: x frames; resize: the size; adopt: x the row
  int line = 0;       // 1-based, for messages
};

inline constexpr int kMaxScriptWait = 100000;
inline constexpr int kMaxScriptWindowSide = 16384;
inline constexpr int kMaxScriptRaceRow = 100000;

// Error: "line N: ..." (unknown command, missing or extra words, a bad number).
std::optional<std::vector<ScriptCommand>> parseScript(std::string_view text, std::string& error);

}  // namespace satdof
