// engine/files/safe_write.h — every file satdof writes (PNGs, reports, the settings file, a
// screenshot's sidecar) goes through here, so that no truncated file ever sits under a
// final name: the bytes go to a hidden temporary file in the same folder, every write and
// the close are checked, the data is flushed to the disk, and only then is the file renamed
// into place. On any failure the temporary file is removed and WriteError says why, in one
// line that names the path.
//
// whyNotWritable() answers before any work is done whether a path can be written at all
// (its folder, its name's length, a folder in the way, permission), so that a run can be
// refused before it renders anything.
#pragma once

#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace satdof::files {

struct WriteError : std::runtime_error {
  WriteError(const std::filesystem::path& path, const std::string& why);
};

// Writes `bytes` to `path` atomically (temporary file + rename). The folder must exist
// (createFolders makes it first). Throws WriteError.
void writeFileAtomically(const std::filesystem::path& path, std::string_view bytes);

// Creates `folder` and its parents; throws WriteError naming the first that cannot be made.
void createFolders(const std::filesystem::path& folder);

// The longest file name writeFileAtomically takes: the file system's limit less what the
// temporary file's name adds (".NAME.XXXXXX").
inline constexpr std::size_t kMaxFileNameBytes = 255 - 8;

// Why `path` cannot be written as a file, or nullopt when it can as far as can be told
// before writing: a name longer than kMaxFileNameBytes, a folder (or a file where a folder
// must be, or a device) in the way, a folder that takes no new file. A folder that does not
// exist yet is fine when it could be created (see whyNoFileIn): nothing is left behind.
std::optional<std::string> whyNotWritable(const std::filesystem::path& path);

// Why no file can be made in `folder` (empty: the current folder), or nullopt. Where it
// does not exist yet, its nearest existing ancestor must be a folder that takes a new one.
// The answer is tried, not guessed: a hidden file is made there and removed at once
// (permission bits say yes to root where nothing can be made: /proc, a read-only mount).
std::optional<std::string> whyNoFileIn(const std::filesystem::path& folder);

}  // namespace satdof::files
