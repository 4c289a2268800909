// engine/gl/program.cpp — see program.h.
#include "engine/gl/program.h"

#include <algorithm>
#include <fstream>
#include <regex>
#include <sstream>
#include <stdexcept>

#include "engine/gl/shader_source.h"

namespace satdof::gl {
namespace {

std::string readFile(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open shader file " + path.string());
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Rewrites "0(42) : error ..." / "0:42(7): error ..." into "file:42: error ...".
std::string decorateLog(const std::string& log, const std::vector<std::string>& files) {
  static const std::regex loc(R"(^(?:ERROR: )?(\d+)[:(](\d+)\)?[^:]*:\s*(.*)$)");
  std::istringstream in(log);
  std::ostringstream out;
  std::string line;
  while (std::getline(in, line)) {
    std::smatch m;
    const int f = std::regex_search(line, m, loc) ? std::stoi(m[1].str()) : -1;
    if (f >= 0 && f < int(files.size()))
      out << "shaders/" << files[f] << ":" << m[2].str() << ": " << m[3].str() << "\n";
    else
      out << line << "\n";
  }
  return out.str();
}

}  // namespace

ReadShaderFile shaderFolder(const std::filesystem::path& dir) {
  return [dir](const std::string& name) -> std::optional<std::string> { return readFile(dir / name); };
}

Program loadProgram(const std::filesystem::path& dir, const std::vector<ShaderStage>& stages,
                    const IncludeAliases& aliases, const ShaderDefines& defines) {
  return loadProgram(shaderFolder(dir), stages, aliases, defines);
}

Program loadProgram(const ReadShaderFile& read, const std::vector<ShaderStage>& stages,
                    const IncludeAliases& aliases, const ShaderDefines& defines) {
  Program program(glCreateProgram());
  std::vector<Shader> shaders;
  for (const ShaderStage& stage : stages) {
    // #include expansion (engine/gl/shader_source.h); its "#line N FILEINDEX" markers make the
    // driver's messages carry (file index, line), and `files` maps the index to a name.
    const auto [source, files] = expandIncludes(stage.file, read, aliases, defines);
    Shader shader(glCreateShader(stage.type));
    const char* text = source.c_str();
    glShaderSource(shader.get(), 1, &text, nullptr);
    glCompileShader(shader.get());
    GLint ok = 0, length = 0;
    glGetShaderiv(shader.get(), GL_COMPILE_STATUS, &ok);
    if (!ok) {
      glGetShaderiv(shader.get(), GL_INFO_LOG_LENGTH, &length);
      std::string log(std::size_t(std::max(length, 1)), '\0');
      glGetShaderInfoLog(shader.get(), length, nullptr, log.data());
      throw std::runtime_error("shader compile failed:\n" + decorateLog(log.c_str(), files));
    }
    glAttachShader(program.get(), shader.get());
    shaders.push_back(std::move(shader));
  }
  glLinkProgram(program.get());
  GLint ok = 0;
  glGetProgramiv(program.get(), GL_LINK_STATUS, &ok);
  if (!ok) {
    GLint length = 0;
    glGetProgramiv(program.get(), GL_INFO_LOG_LENGTH, &length);
    std::string log(std::size_t(std::max(length, 1)), '\0');
    glGetProgramInfoLog(program.get(), length, nullptr, log.data());
    std::string names;
    for (const auto& s : stages) names += " " + s.file;
    throw std::runtime_error("shader link failed (" + names.substr(1) + "): " + log.c_str());
  }
  for (const Shader& s : shaders) glDetachShader(program.get(), s.get());
  return program;
}

void uniform1i(GLuint program, const char* name, int value) {
  glProgramUniform1i(program, glGetUniformLocation(program, name), value);
}
void uniform1f(GLuint program, const char* name, float value) {
  glProgramUniform1f(program, glGetUniformLocation(program, name), value);
}
void uniform1ui(GLuint program, const char* name, std::uint32_t value) {
  glProgramUniform1ui(program, glGetUniformLocation(program, name), value);
}
void uniform2i(GLuint program, const char* name, int x, int y) {
  glProgramUniform2i(program, glGetUniformLocation(program, name), x, y);
}

std::filesystem::path findShaderDir() {
  std::error_code ec;
  const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) throw std::runtime_error("shaders not found: cannot tell where the executable is (/proc/self/exe: " +
                                   ec.message() + ")");
  const std::filesystem::path folders[] = {exe.parent_path() / "shaders", exe.parent_path().parent_path() / "shaders"};
  for (const auto& folder : folders)
    if (std::filesystem::exists(folder / "dof.frag")) return folder;
  throw std::runtime_error("shaders not found: no dof.frag in " + folders[0].string() + " or " + folders[1].string() +
                           " (the build copies shaders/ beside satdof: copy it along)");
}

}  // namespace satdof::gl
