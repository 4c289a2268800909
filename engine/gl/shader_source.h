// engine/gl/shader_source.h — the text half of shader loading: expands `#include "file"`
// lines into one source, with "#line" markers so driver messages can be mapped back to
// the file and line the user edits. Pure text (no GL, no file system: files come from a
// callback), so tests and fuzz/ can drive it with an in-memory map of files.
//
// Rules (the GLSL loader in program.cpp relies on them):
//   * a line `#include "name"` (spaces around allowed, nothing else on the line) is
//     replaced by the file `aliases[name]`, or `name` when there is no alias, expanded
//     in turn; includes may nest;
//   * each file gets an index (its position in `files`, in order of inclusion, the same
//     file again under a new index); after `#version` and after each include a line
//     "#line N INDEX" resumes the numbering of the including file;
//   * `defines` (name -> value) become "#define NAME VALUE" lines right after the top
//     file's `#version` line (before its "#line" marker, so numbering is unchanged); a
//     top file without `#version` is then an error;
//   * an include cycle (a file including itself, directly or not), nesting deeper than
//     kMaxIncludeDepth, an expansion larger than kMaxExpandedBytes and a file the
//     callback cannot read are errors (ShaderSourceError), each naming file and line.
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace satdof::gl {

inline constexpr int kMaxIncludeDepth = 32;
// Far above any real shader; stops "a includes b twice, b includes c twice, ..." from
// growing exponentially until memory runs out.
inline constexpr std::size_t kMaxExpandedBytes = std::size_t(8) << 20;

struct ShaderSourceError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The text of a file by its name (as written in the include, after aliasing), or nullopt
// when there is none. May also throw its own exception, which passes through.
using ReadShaderFile = std::function<std::optional<std::string>(const std::string& name)>;

struct ExpandedSource {
  std::string text;                // what the GL compiler gets
  std::vector<std::string> files;  // file index (as in "#line N INDEX") -> name
};

// Macros a program is built with: what the shader leaves to the host (e.g. a mode fixed
// for the program's life), so that the compiler drops the branches it does not take.
using ShaderDefines = std::map<std::string, int>;

// Expands `file` and everything it includes. Throws ShaderSourceError, e.g.
//   "include cycle: a.glsl -> b.glsl -> a.glsl (at b.glsl:3)".
ExpandedSource expandIncludes(const std::string& file, const ReadShaderFile& read,
                              const std::map<std::string, std::string>& aliases = {},
                              const ShaderDefines& defines = {});

}  // namespace satdof::gl
