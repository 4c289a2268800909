// engine/gl/program.h — GLSL program loading from shaders/ with readable errors.
//
// Shader files may `#include "file.glsl"` (resolved in the same folder, nested
// includes allowed, a cycle is an error; an
// alias maps an included name to another file, e.g. "sat_format.glsl" to the chosen SAT
// format's reader). A
// compile error is rethrown as "shaders/dof.frag:42: <driver message>" so the file and
// line point at the source the user edits.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "engine/gl/handles.h"
#include "engine/gl/shader_source.h"

namespace satdof::gl {

struct ShaderStage {
  GLenum type;
  std::string file;  // relative to the shader folder
};

// Included name -> file actually read.
using IncludeAliases = std::map<std::string, std::string>;

// Throws std::runtime_error with file:line messages on any failure. `defines` follow each
// stage's #version line (engine/gl/shader_source.h).
Program loadProgram(const std::filesystem::path& shaderDir, const std::vector<ShaderStage>& stages,
                    const IncludeAliases& aliases = {}, const ShaderDefines& defines = {});

// The same, with each stage's file and its includes read by `read` (e.g. a shader that
// travels inside the binary, falling back to shaderFolder() for the files it includes).
Program loadProgram(const ReadShaderFile& read, const std::vector<ShaderStage>& stages,
                    const IncludeAliases& aliases = {}, const ShaderDefines& defines = {});

// Reads a shader file from `dir`; throws std::runtime_error when it cannot be opened.
ReadShaderFile shaderFolder(const std::filesystem::path& dir);

// Uniforms looked up by name on `program` (no glUseProgram needed), for the compute
// shaders that do not fix their locations; named after the GL calls they make, because a
// `uint` uniform set through the int call is a GL error, not a conversion.
void uniform1i(GLuint program, const char* name, int value);
void uniform1f(GLuint program, const char* name, float value);
void uniform1ui(GLuint program, const char* name, std::uint32_t value);
void uniform2i(GLuint program, const char* name, int x, int y);

// The folder that holds the shaders: "shaders" beside the executable, or beside the folder
// it is in (a test binary in the build's tests/). Never the source tree's: a binary copied
// without its shaders fails, with one line naming both folders it looked in.
std::filesystem::path findShaderDir();

}  // namespace satdof::gl
