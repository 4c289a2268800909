// fuzz/fuzz_content_file.h — the content loaders read files by path (tinygltf and tinyexr
// open them themselves), so a fuzz input is written to a file of this process's own in the
// temporary folder for the call and removed after it.
#pragma once

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

class FuzzFile {
 public:
  FuzzFile(const char* stem, const char* extension, const std::uint8_t* data, std::size_t size)
      : path_(std::filesystem::temp_directory_path() /
              (std::string(stem) + "_" + std::to_string(getpid()) + extension)) {
    std::ofstream(path_, std::ios::binary).write(reinterpret_cast<const char*>(data), std::streamsize(size));
  }
  ~FuzzFile() {
    std::error_code ec;
    std::filesystem::remove(path_, ec);
  }
  FuzzFile(const FuzzFile&) = delete;
  FuzzFile& operator=(const FuzzFile&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};
