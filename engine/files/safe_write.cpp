// engine/files/safe_write.cpp — see safe_write.h. POSIX calls, each checked: mkstemp in the
// target's folder, write until done (EINTR and short writes), fsync, close, rename.
#include "engine/files/safe_write.h"

#include <cerrno>
#include <climits>
#include <cstring>
#include <fcntl.h>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

#include "engine/text/parse.h"  // quotedPath

namespace satdof::files {

namespace {

static_assert(kMaxFileNameBytes + 8 == NAME_MAX);

std::string errnoText(int e) { return std::strerror(e); }

// The process's umask, read once (reading it means setting it: not while other threads
// create files).
mode_t processUmask() {
  static const mode_t mask = [] {
    const mode_t m = ::umask(0);
    ::umask(m);
    return m;
  }();
  return mask;
}

// A hidden file made by mkstemp in `folder`, named after `name`; removed unless released
// (the rename took it).
class TemporaryFile {
 public:
  TemporaryFile(const std::filesystem::path& folder, const std::string& name) {
    const std::string pattern = (folder / ("." + name + ".XXXXXX")).string();
    pattern_.assign(pattern.begin(), pattern.end());
    pattern_.push_back('\0');
    fd_ = ::mkstemp(pattern_.data());
  }
  ~TemporaryFile() {
    if (fd_ >= 0) ::close(fd_);
    if (fd_ != kNone && !released_) ::unlink(pattern_.data());
  }
  TemporaryFile(const TemporaryFile&) = delete;
  TemporaryFile& operator=(const TemporaryFile&) = delete;

  bool made() const { return fd_ >= 0 || fd_ == kClosed; }
  int fd() const { return fd_; }
  const char* path() const { return pattern_.data(); }
  // Closes the descriptor: false on failure (a deferred write error shows here). EINTR is
  // no failure: Linux has closed the descriptor, and the data was flushed before.
  bool close() {
    const int rc = ::close(fd_);
    fd_ = kClosed;
    return rc == 0 || errno == EINTR;
  }
  void release() { released_ = true; }

 private:
  static constexpr int kNone = -1, kClosed = -2;
  std::vector<char> pattern_;
  int fd_ = kNone;
  bool released_ = false;
};

}  // namespace

WriteError::WriteError(const std::filesystem::path& path, const std::string& why)
    : std::runtime_error("cannot write " + quotedPath(path) + ": " + why) {}

void writeFileAtomically(const std::filesystem::path& path, std::string_view bytes) {
  if (path.filename().empty()) throw WriteError(path, "names a folder, not a file");
  TemporaryFile tmp(path.has_parent_path() ? path.parent_path() : ".", path.filename().string());
  if (!tmp.made()) throw WriteError(path, errnoText(errno));
  ::fchmod(tmp.fd(), 0666 & ~processUmask());  // as a plain create would (mkstemp: 0600)
  const char* p = bytes.data();
  std::size_t left = bytes.size();
  while (left > 0) {
    const ssize_t n = ::write(tmp.fd(), p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw WriteError(path, errnoText(errno));
    }
    p += n;
    left -= std::size_t(n);
  }
  if (::fsync(tmp.fd()) != 0 && errno != EINVAL && errno != EINTR) throw WriteError(path, errnoText(errno));
  if (!tmp.close()) throw WriteError(path, errnoText(errno));
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
    throw WriteError(path, "a folder of that name is in the way");
  if (::rename(tmp.path(), path.c_str()) != 0) throw WriteError(path, errnoText(errno));
  tmp.release();
}

void createFolders(const std::filesystem::path& folder) {
  if (folder.empty()) return;
  std::error_code ec;
  std::filesystem::create_directories(folder, ec);
  if (ec) throw WriteError(folder, "cannot create the folder: " + ec.message());
  if (!std::filesystem::is_directory(folder, ec)) throw WriteError(folder, "is not a folder");
}

std::optional<std::string> whyNoFileIn(const std::filesystem::path& folder) {
  std::filesystem::path f = folder.empty() ? std::filesystem::path(".") : folder;
  for (const auto& part : f)
    if (part.native().size() > NAME_MAX)
      return "a folder name in it is longer than " + std::to_string(NAME_MAX) + " bytes";
  if (f.native().size() + NAME_MAX >= PATH_MAX)
    return "the folder's path is longer than " + std::to_string(PATH_MAX - NAME_MAX - 1) + " bytes";
  // Up to the nearest folder that exists (a missing one, or a file where a folder would be:
  // ENOENT or ENOTDIR, is looked at from above).
  struct stat st {};
  while (::stat(f.c_str(), &st) != 0) {
    if (errno != ENOENT && errno != ENOTDIR) return quotedPath(f) + ": " + errnoText(errno);
    f = f.has_parent_path() && f.parent_path() != f ? f.parent_path() : std::filesystem::path(".");
  }
  if (!S_ISDIR(st.st_mode)) return quotedPath(f) + " is a file, not a folder";
  TemporaryFile probe(f, "satdof-write-test");
  if (!probe.made()) return "cannot write into " + quotedPath(f) + ": " + errnoText(errno);
  return std::nullopt;  // (the probe is removed as it goes)
}

std::optional<std::string> whyNotWritable(const std::filesystem::path& path) {
  if (path.empty()) return "no file name";
  const std::filesystem::path name = path.filename();
  if (name.empty() || name == "." || name == "..") return "names a folder, not a file";
  if (name.native().size() > kMaxFileNameBytes)
    return "its name is longer than " + std::to_string(kMaxFileNameBytes) + " bytes";
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) return "a folder of that name is in the way";
    if (!S_ISREG(st.st_mode)) return "something other than a regular file is in the way";
  }
  return whyNoFileIn(path.has_parent_path() ? path.parent_path() : std::filesystem::path("."));
}

}  // namespace satdof::files
