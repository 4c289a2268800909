// engine/content/gltf_files.cpp — see gltf_files.h. tinygltf joins each uri (percent-decoded)
// to the base folder it is given and asks the file callbacks here whether that exists and
// for its bytes; when that fails it tries "./uri" in the working folder, which is always
// refused. The callbacks record why a uri was refused in the load's context, so the user
// reads that reason rather than the loader's "File not found".
#include "engine/content/gltf_files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <optional>
#include <system_error>
#include <utility>

#include "engine/content/content_error.h"
#include "engine/content/gltf_compressed.h"
#include "engine/content/gltf_extensions.h"
#include "engine/content/image_files.h"
#include "engine/text/parse.h"

namespace satdof::content {
namespace {

namespace fs = std::filesystem;

constexpr const char* kUnreadable = "cannot be read as glTF 2.0: ";
constexpr std::uint64_t kMaxFileBytes = std::uint64_t(1) << 30;

// ---- Files: open(2) with O_NONBLOCK, so a FIFO with no writer cannot stall the open; only
// a regular file (by fstat on the open descriptor) is read. Why not, or "".
std::string readRegular(const fs::path& path, int flags, std::vector<std::uint8_t>& out) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | flags);
  if (fd < 0) return errno == ENOENT ? "no such file" : "cannot be read: " + std::generic_category().message(errno);
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat st {};
  if (::fstat(fd, &st) != 0) return "cannot be read: " + std::generic_category().message(errno);
  if (S_ISDIR(st.st_mode)) return "is a folder, not a file";
  if (!S_ISREG(st.st_mode)) return "is not a regular file";
  if (std::uint64_t(st.st_size) > kMaxFileBytes) return "is larger than 1 GiB";
  out.resize(std::size_t(st.st_size));
  std::size_t got = 0;
  while (got < out.size()) {
    const ssize_t n = ::read(fd, out.data() + got, out.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return "cannot be read: " + std::generic_category().message(errno);
    if (n == 0) break;  // shortened while read
    got += std::size_t(n);
  }
  out.resize(got);
  return out.empty() ? "is empty" : "";
}

// ---- The load's context, shared by the file and image callbacks.
// A uri that is missing or unreadable: a buffer's ends the load, an image's is a warning
// (tinygltf goes on without the image, and its material shows its base colour). A uri
// refused for where it leads, or what it is, ends the load either way.
constexpr const char* kNoSuchFile = "no such file in the glTF's folder";

bool missingOrUnreadable(const std::string& why) {
  return why == kNoSuchFile || why == "no such file" || why == "is empty" || why == "is larger than 1 GiB" ||
         why.starts_with("cannot be read") || why.starts_with("is a data: uri of a kind not read");
}

struct LoadContext {
  fs::path file;                       // the glTF, as named
  fs::path folder;                     // its folder, canonical: every uri resolves inside it
  std::string prefix;                  // the folder as tinygltf joins a uri to it ("/a/b/")
  std::optional<std::string> problem;  // the first uri refused
  std::optional<std::string> fatal;    // the first uri refused for where it leads or what it is
  std::vector<std::string> warnings;   // images missing or not decoded (when the load succeeds)
  std::string lastUri;                 // the uri last read (for tinygltf's size mismatch)

  void refuse(const std::string& uri, const std::string& why) {
    const std::string line = std::string(kUnreadable) + "uri " + quotedPath(uri) + ": " + why;
    if (!problem) problem = line;
    if (!missingOrUnreadable(why)) {
      if (!fatal) fatal = line;
    } else {  // only an image's can be left out: a buffer's fails the load
      warnOnce(warnings, quotedPath(file) + ": image " + quotedPath(uri) + ": " +
                             (why == kNoSuchFile ? std::string("no such file") : why) +
                             "; the material's base colour is used");
    }
  }
};

bool inside(const fs::path& folder, const fs::path& p) {
  auto r = p.begin();
  for (auto f = folder.begin(); f != folder.end(); ++f, ++r)
    if (r == p.end() || *f != *r) return false;
  return r != p.end();
}

// Where a uri (percent-decoded, relative to the glTF's folder) leads, or why it is refused.
std::string resolveUri(const LoadContext& c, const std::string& uri, fs::path& resolved) {
  if (uri.empty()) return "names no file";
  for (const char ch : uri)
    if (static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f) return "holds a control character";
  if (uri.front() == '/') return "is an absolute path: files are read from the glTF's folder only";
  // A scheme (RFC 3986: a letter, then letters, digits, '+', '-', '.', then ':') before any '/'.
  const std::size_t colon = uri.find(':');
  if (colon != std::string::npos && colon < uri.find('/') && std::isalpha(static_cast<unsigned char>(uri[0])) &&
      std::all_of(uri.begin(), uri.begin() + std::ptrdiff_t(colon),
                  [](char ch) { return std::isalnum(static_cast<unsigned char>(ch)) || ch == '+' || ch == '-' || ch == '.'; })) {
    const std::string scheme = lowerCase(uri.substr(0, colon + 1));
    if (scheme == "data:")
      return "is a data: uri of a kind not read (base64 application/octet-stream, application/gltf-buffer, image/png or "
             "image/jpeg are)";
    return "uses the scheme '" + scheme + "': only data: uris and files in the glTF's folder are read";
  }
  std::error_code ec;
  resolved = fs::weakly_canonical(c.folder / uri, ec);
  if (ec) return "cannot be resolved: " + ec.message();
  if (resolved == c.folder) return "is a folder, not a file";
  if (!inside(c.folder, resolved)) return "leads out of the glTF's folder";
  const fs::file_status status = fs::status(resolved, ec);  // stat(2): nothing is opened
  if (ec || !fs::exists(status)) return kNoSuchFile;
  if (fs::is_directory(status)) return "is a folder, not a file";
  if (!fs::is_regular_file(status)) return "is not a regular file";
  return "";
}

// ---- tinygltf's file callbacks (FsCallbacks), user_data the LoadContext.
std::string expandFilePath(const std::string& path, void*) { return path; }  // no ~, no $VAR

bool fileExists(const std::string& joined, void* user) {
  auto& c = *static_cast<LoadContext*>(user);
  if (!joined.starts_with(c.prefix)) return false;  // "./uri": the working folder, never
  const std::string uri = joined.substr(c.prefix.size());
  fs::path resolved;
  if (const std::string why = resolveUri(c, uri, resolved); !why.empty()) {
    c.refuse(uri, why);
    return false;
  }
  return true;
}

bool readWholeFile(std::vector<unsigned char>* out, std::string* err, const std::string& joined, void* user) {
  auto& c = *static_cast<LoadContext*>(user);
  const std::string uri = joined.starts_with(c.prefix) ? joined.substr(c.prefix.size()) : joined;
  fs::path resolved;
  std::string why = joined.starts_with(c.prefix) ? resolveUri(c, uri, resolved) : "is outside the glTF's folder";
  if (why.empty()) why = readRegular(resolved, O_NOFOLLOW, *out);  // resolved: no link left to follow
  if (!why.empty()) {
    c.refuse(uri, why);
    if (err) *err += why;
    return false;
  }
  c.lastUri = uri;
  return true;
}

bool writeWholeFile(std::string* err, const std::string&, const std::vector<unsigned char>&, void*) {
  if (err) *err += "writing is not allowed";
  return false;
}

void setImage(tinygltf::Image& image, ColourImage decoded) {
  image.width = decoded.width;
  image.height = decoded.height;
  image.component = 4;
  image.bits = 8;
  image.pixel_type = TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE;
  image.image = std::move(decoded.rgba);
}

// tinygltf's image callback. An image in a bufferView is left for decodeViewImages: its
// bytes here are the view's, unchecked (they may lie outside the buffer); none is touched.
// One that does not decode is left empty (its material shows its base colour), with a warning.
bool decodeImage(tinygltf::Image* image, const int index, std::string*, std::string*, int, int,
                 const unsigned char* bytes, int size, void* user) {
  if (image->bufferView != -1) return true;
  auto& c = *static_cast<LoadContext*>(user);
  const bool named = !image->uri.empty() && !image->uri.starts_with("data:");
  const std::string name = named ? image->uri : "image " + std::to_string(index);
  try {
    setImage(*image, decodeColourImage(name, bytes, std::size_t(std::max(size, 0))));
  } catch (const ContentError& e) {
    warnOnce(c.warnings, quotedPath(c.file) + ": " + (named ? "image " : "its ") + e.what() +
                             "; the material's base colour is used");
  }
  return true;
}

// ---- Before the parser: the JSON's nesting, strings (and their escapes) skipped.
void checkJsonNesting(const fs::path& file, const std::uint8_t* text, std::size_t size, std::size_t offset) {
  std::size_t depth = 0;
  bool inString = false;
  for (std::size_t i = 0; i < size; ++i) {
    const char ch = char(text[i]);
    if (inString) {
      if (ch == '\\') ++i;
      else if (ch == '"') inString = false;
    } else if (ch == '"') {
      inString = true;
    } else if (ch == '[' || ch == '{') {
      if (++depth > kMaxJsonDepth)
        throw ContentError(file, std::string(kUnreadable) + "its JSON nests arrays and objects deeper than " +
                                     std::to_string(kMaxJsonDepth) + " levels (at byte " + std::to_string(offset + i) + ")");
    } else if ((ch == ']' || ch == '}') && depth > 0) {
      --depth;
    }
  }
}

std::uint32_t le32(const std::uint8_t* p) {
  return std::uint32_t(p[0]) | std::uint32_t(p[1]) << 8 | std::uint32_t(p[2]) << 16 | std::uint32_t(p[3]) << 24;
}

// A .glb's header and chunk table against the file: the JSON chunk's offset and length, and
// the length the header states (what tinygltf is given).
struct GlbLayout {
  std::size_t jsonLength = 0, length = 0;
};

GlbLayout checkGlb(const fs::path& file, const std::vector<std::uint8_t>& b) {
  const std::size_t n = b.size();
  auto fail = [&](const std::string& why) { throw ContentError(file, std::string(kUnreadable) + why); };
  if (n < 4 || std::memcmp(b.data(), "glTF", 4) != 0) fail("it does not start as binary glTF does ('glTF')");
  if (n < 20)
    throw ContentError(file, "is cut short: " + std::to_string(n) + " bytes, less than the 20 of a binary glTF's headers");
  if (le32(&b[4]) != 2) fail("it is binary glTF version " + std::to_string(le32(&b[4])) + ", not 2");
  const std::size_t length = le32(&b[8]);
  if (length > n)
    throw ContentError(file, "is cut short: its header states " + std::to_string(length) + " bytes, the file has " +
                                 std::to_string(n));
  if (length < 20) fail("its header states " + std::to_string(length) + " bytes, less than its own 20");
  const std::size_t jsonLength = le32(&b[12]);
  if (le32(&b[16]) != 0x4E4F534Au) fail("its first chunk is not JSON");
  if (jsonLength == 0) fail("its JSON chunk is empty");
  if (jsonLength > length - 20)
    throw ContentError(file, "is cut short: its JSON chunk states " + std::to_string(jsonLength) + " bytes, " +
                                 std::to_string(length - 20) + " follow its header");
  const std::size_t binAt = 20 + jsonLength;
  if (binAt < length) {  // a second chunk: tinygltf reads it as BIN
    if (length - binAt < 8)
      fail("its chunk at byte " + std::to_string(binAt) + " is cut short: " + std::to_string(length - binAt) +
           " bytes of its 8-byte header");
    const std::size_t binLength = le32(&b[binAt]);
    if (le32(&b[binAt + 4]) != 0x004E4942u) fail("its second chunk is not BIN");
    if (binLength > length - binAt - 8)
      throw ContentError(file, "is cut short: its BIN chunk states " + std::to_string(binLength) + " bytes, " +
                                   std::to_string(length - binAt - 8) + " follow its header");
    if (binLength == 0 || binLength % 4 != 0)
      fail("its BIN chunk's length " + std::to_string(binLength) + " is not a positive multiple of 4");
  }
  return {jsonLength, length};
}

// ---- After the loader: its message as one plain line (the JSON parser's position made a
// byte count; the standard library's texts and whole data: uris left out).
std::string loaderProblem(const LoadContext& c, const std::string& err, const std::uint8_t* json, std::size_t size,
                          std::size_t offset) {
  if (err.find("json.exception.parse_error") != std::string::npos) {
    std::size_t line = 0, column = 0, byte = 0;
    if (const std::size_t at = err.find(" at byte "); at != std::string::npos) {
      byte = std::strtoull(err.c_str() + at + 9, nullptr, 10);
    } else if (const char* at = err.c_str() + std::min(err.find(" at line "), err.size());
               std::sscanf(at, " at line %zu, column %zu", &line, &column) == 2) {
      std::size_t i = 0;
      for (std::size_t l = 1; l < line && i < size; ++i)
        if (json[i] == '\n') ++l;
      byte = i + column;
    }
    return byte ? "it is not valid JSON (at byte " + std::to_string(offset + byte) + ")" : "it is not valid JSON";
  }
  if (err.find("json.exception") != std::string::npos) return "it is not valid JSON";
  for (const char* library : {"max_size", "std::", "vector::", "basic_string"})
    if (err.find(library) != std::string::npos) return "it states sizes too large to hold in memory";
  // The first line that is an error (a .glb's JSON chunk not padded to 4 bytes is only noted).
  std::string line;
  for (std::size_t from = 0; from < err.size() && line.empty();) {
    const std::size_t end = std::min(err.find('\n', from), err.size());
    line = err.substr(from, end - from);
    if (line.find("4-byte boundary") != std::string::npos) line.clear();
    from = end + 1;
  }
  if (const std::size_t at = line.find("requestedBytes "); line.starts_with("File size mismatch") && at != std::string::npos) {
    const std::size_t got = line.find("but got ");
    return "uri " + quotedPath(c.lastUri) + ": holds " + (got == std::string::npos ? "?" : line.substr(got + 8)) +
           " bytes, its buffer's byteLength states " + line.substr(at + 15, line.find(',', at) - at - 15);
  }
  if (line.starts_with("Failed to decode 'uri'") && line.find("Buffer") != std::string::npos)
    return "a buffer's data: uri does not decode to its byteLength (base64 is read)";
  while (!line.empty() && (line.back() == '.' || line.back() == ' ')) line.pop_back();
  if (line.size() > 200) line = line.substr(0, 200) + "...";
  return line.empty() ? "the loader gives no reason" : line;
}

// Images in bufferViews, decoded once their view is inside its buffer (one outside it ends
// the load; one that does not decode is a warning, as an image file's).
void decodeViewImages(const fs::path& file, tinygltf::Model& model, std::vector<std::string>& warnings) {
  for (std::size_t i = 0; i < model.images.size(); ++i) {
    tinygltf::Image& image = model.images[i];
    if (image.bufferView == -1) continue;
    const std::string name = "image " + std::to_string(i);
    const ByteSpan bytes = bufferViewBytes(model, image.bufferView, file, "its " + name);
    try {
      setImage(image, decodeColourImage(name, bytes.data, bytes.size));
    } catch (const ContentError& e) {
      warnOnce(warnings, quotedPath(file) + ": its " + e.what() + "; the material's base colour is used");
    }
  }
}

// A .glb with its JSON chunk replaced by `json` (padded with spaces), its BIN chunk kept.
std::vector<std::uint8_t> withJsonChunk(const std::vector<std::uint8_t>& glb, std::size_t jsonLength, std::size_t length,
                                        std::string json) {
  while (json.size() % 4) json += ' ';
  const std::size_t rest = length - 20 - jsonLength;  // the chunks after JSON (checkGlb: inside `length`)
  std::vector<std::uint8_t> out(20 + json.size() + rest);
  const auto le32 = [&](std::size_t at, std::size_t v) {
    for (int b = 0; b < 4; ++b) out[at + std::size_t(b)] = std::uint8_t(v >> (8 * b));
  };
  std::memcpy(out.data(), glb.data(), 20);
  le32(8, out.size());
  le32(12, json.size());
  std::memcpy(out.data() + 20, json.data(), json.size());
  if (rest) std::memcpy(out.data() + 20 + json.size(), glb.data() + 20 + jsonLength, rest);
  return out;
}

}  // namespace

std::vector<std::uint8_t> readRegularFile(const fs::path& path) {
  std::vector<std::uint8_t> bytes;
  if (const std::string why = readRegular(path, 0, bytes); !why.empty()) throw ContentError(path, why);
  return bytes;
}

ByteSpan bufferViewBytes(const tinygltf::Model& model, int index, const fs::path& file, const std::string& user) {
  const std::string name = "bufferView " + std::to_string(index);
  if (index < 0 || std::size_t(index) >= model.bufferViews.size())
    throw ContentError(file, user + ": names " + name + ", which does not exist");
  const std::string its = user.empty() ? name : user + ": its " + name;
  const tinygltf::BufferView& v = model.bufferViews[std::size_t(index)];
  if (v.buffer < 0 || std::size_t(v.buffer) >= model.buffers.size())
    throw ContentError(file, its + " names buffer " + std::to_string(v.buffer) + ", which does not exist");
  const std::vector<unsigned char>& data = model.buffers[std::size_t(v.buffer)].data;
  if (v.byteOffset > data.size() || v.byteLength > data.size() - v.byteOffset)
    throw ContentError(file, its + " (" + std::to_string(v.byteLength) + " bytes at byte " + std::to_string(v.byteOffset) +
                                 ") reaches past the end of buffer " + std::to_string(v.buffer) + " (" +
                                 std::to_string(data.size()) + " bytes)");
  return {data.data() + v.byteOffset, v.byteLength};
}

tinygltf::Model loadGltfModel(const fs::path& path, std::vector<std::string>& warnings) {
  std::vector<std::uint8_t> bytes = readRegularFile(path);
  LoadContext c;
  c.file = path;
  std::error_code ec;
  c.folder = fs::canonical(fs::absolute(path, ec).parent_path(), ec);
  if (ec) throw ContentError(path, "its folder cannot be resolved: " + ec.message());
  c.prefix = c.folder.native().ends_with('/') ? c.folder.native() : c.folder.native() + "/";

  const bool binary = lowerCase(path.extension().string()) == ".glb" ||
                      (bytes.size() >= 4 && std::memcmp(bytes.data(), "glTF", 4) == 0);
  std::size_t jsonOffset = 0, jsonLength = bytes.size(), length = bytes.size();
  if (binary) {
    const GlbLayout glb = checkGlb(path, bytes);
    jsonOffset = 20;
    jsonLength = glb.jsonLength;
    length = glb.length;
  }
  checkJsonNesting(path, bytes.data() + jsonOffset, jsonLength, jsonOffset);
  if (auto filled = withCompressionPlaceholders({reinterpret_cast<const char*>(bytes.data() + jsonOffset), jsonLength})) {
    if (binary) bytes = withJsonChunk(bytes, jsonLength, length, std::move(*filled));
    else bytes.assign(filled->begin(), filled->end());
    jsonLength = binary ? std::size_t(le32(&bytes[12])) : bytes.size();
    length = bytes.size();
  }

  tinygltf::Model model;
  tinygltf::TinyGLTF loader;
  loader.SetImageLoader(&decodeImage, &c);
  loader.SetFsCallbacks({&fileExists, &expandFilePath, &readWholeFile, &writeWholeFile, &c});
  std::string err, warn;
  bool ok = false;
  try {
    ok = binary ? loader.LoadBinaryFromMemory(&model, &err, &warn, bytes.data(), unsigned(length), c.folder.native())
                : loader.LoadASCIIFromString(&model, &err, &warn, reinterpret_cast<const char*>(bytes.data()),
                                             unsigned(length), c.folder.native());
  } catch (const std::bad_alloc&) {
    throw ContentError(path, std::string(kUnreadable) + "it asks for more memory than there is");
  } catch (const std::exception&) {
    throw ContentError(path, std::string(kUnreadable) + "it states sizes too large to hold in memory");
  }
  if (c.fatal) throw ContentError(path, *c.fatal);
  if (!ok && c.problem) throw ContentError(path, *c.problem);
  if (!ok)
    throw ContentError(path, kUnreadable + loaderProblem(c, err, bytes.data() + jsonOffset, jsonLength, jsonOffset));
  checkExtensions(model, path, warnings);
  decodeViewImages(path, model, c.warnings);
  decodeCompressed(model, path);
  for (std::size_t i = 0; i < model.bufferViews.size(); ++i) bufferViewBytes(model, int(i), path, "");
  for (const std::string& w : c.warnings) warnOnce(warnings, w);
  return model;
}

}  // namespace satdof::content
