// tests/test_safe_write.cpp — engine/files/safe_write.h: a file is written whole or not at all.
// writeFileAtomically on a folder in the way, a missing folder, a folder that takes no file
// (a read-only mount: root passes permission bits), a full file system (a 64 KiB tmpfs:
// mounting needs root, else the case skips): each fails in one line naming the path, and
// leaves neither a temporary file nor a partial file under the final name (an old file
// there stays as it was). whyNotWritable answers the same cases before any writing, and
// creates nothing. engine/files/interrupt.h: SIGINT and SIGTERM become the exit codes 130, 143.
#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

#include "engine/files/interrupt.h"
#include "engine/files/safe_write.h"

namespace {

namespace fs = std::filesystem;
using satdof::files::WriteError;
using satdof::files::whyNoFileIn;
using satdof::files::whyNotWritable;
using satdof::files::writeFileAtomically;

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Every name in `dir` (not recursive), sorted.
std::vector<std::string> namesIn(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

// `p` as the messages name it: in single quotes.
std::string quotedIn(const fs::path& p) {
  std::string q = "'";
  q += p.string();
  q += "'";
  return q;
}

// A folder of the test's own under the system's temporary folder, removed after.
class SafeWrite : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("satdof_safe_write_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    for (const fs::path& m : mounts_) ::umount2(m.c_str(), MNT_DETACH);
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  // A tmpfs of `bytes` at `at` (made), or the reason it cannot be mounted here.
  std::string mountTmpfs(const fs::path& at, std::size_t bytes) {
    fs::create_directories(at);
    const std::string data = "size=" + std::to_string(bytes);
    if (::mount("tmpfs", at.c_str(), "tmpfs", 0, data.c_str()) != 0)
      return std::string("cannot mount a tmpfs (needs root): ") + std::strerror(errno);
    mounts_.push_back(at);
    return {};
  }
  // `at` made a read-only view of a new folder, or the reason it cannot be.
  std::string mountReadOnly(const fs::path& at) {
    const fs::path source = dir_ / "ro_source";
    fs::create_directories(source);
    fs::create_directories(at);
    if (::mount(source.c_str(), at.c_str(), nullptr, MS_BIND, nullptr) != 0)
      return std::string("cannot bind-mount (needs root): ") + std::strerror(errno);
    mounts_.push_back(at);
    if (::mount(nullptr, at.c_str(), nullptr, MS_BIND | MS_REMOUNT | MS_RDONLY, nullptr) != 0)
      return std::string("cannot remount read-only: ") + std::strerror(errno);
    return {};
  }
  // A folder this process may not write in: permission bits for a user, a read-only mount
  // for root (whom the bits do not stop); empty with `skip` set where neither can be made.
  fs::path unwritableFolder(std::string& skip) {
    const fs::path f = dir_ / "locked";
    if (::geteuid() == 0) {
      skip = mountReadOnly(f);
      return f;
    }
    fs::create_directories(f);
    fs::permissions(f, fs::perms::owner_read | fs::perms::owner_exec);
    return f;
  }
  // writeFileAtomically(path, bytes) fails; the one-line message, checked to name `path`.
  static std::string failure(const fs::path& path, const std::string& bytes) {
    try {
      writeFileAtomically(path, bytes);
    } catch (const WriteError& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find("cannot write '" + path.string() + "'"), std::string::npos) << what;
      EXPECT_EQ(what.find('\n'), std::string::npos) << what;
      return what;
    }
    ADD_FAILURE() << "writing " << path << " did not fail";
    return {};
  }

  fs::path dir_;
  std::vector<fs::path> mounts_;
};

TEST_F(SafeWrite, WritesTheBytesAndLeavesNoTemporaryFile) {
  const fs::path p = dir_ / "a.txt";
  writeFileAtomically(p, "first");
  EXPECT_EQ(slurp(p), "first");
  writeFileAtomically(p, std::string(100000, 'x'));  // replaced whole
  EXPECT_EQ(slurp(p), std::string(100000, 'x'));
  writeFileAtomically(p, "");
  EXPECT_EQ(fs::file_size(p), 0u);
  EXPECT_EQ(namesIn(dir_), std::vector<std::string>{"a.txt"});
  // As a plain create would make it: readable by others under the usual umask.
  const mode_t mask = ::umask(022);
  writeFileAtomically(dir_ / "b.txt", "b");
  ::umask(mask);
  EXPECT_EQ(fs::status(dir_ / "b.txt").permissions() & fs::perms::all,
            fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read | fs::perms::others_read);
}

TEST_F(SafeWrite, AFolderInTheWayFailsAndStays) {
  const fs::path p = dir_ / "shot.png";
  fs::create_directories(p / "inside");
  failure(p, "bytes");
  EXPECT_TRUE(fs::is_directory(p / "inside"));
  EXPECT_EQ(namesIn(dir_), std::vector<std::string>{"shot.png"});
  EXPECT_NE(whyNotWritable(p).value_or("").find("folder of that name is in the way"), std::string::npos);
}

TEST_F(SafeWrite, AMissingFolderFailsAndNothingIsCreated) {
  const fs::path p = dir_ / "missing" / "a.png";
  EXPECT_NE(failure(p, "bytes").find("No such file"), std::string::npos);
  EXPECT_FALSE(fs::exists(dir_ / "missing"));
  // whyNotWritable: a folder that can still be made is fine, and is not made by asking.
  EXPECT_EQ(whyNotWritable(dir_ / "missing" / "deeper" / "a.png"), std::nullopt);
  EXPECT_TRUE(namesIn(dir_).empty());
}

TEST_F(SafeWrite, AFileWhereItsFolderShouldBeIsNamed) {
  std::ofstream(dir_ / "plain") << "x";
  failure(dir_ / "plain" / "a.png", "bytes");
  const auto why = whyNotWritable(dir_ / "plain" / "sub" / "a.png");
  ASSERT_TRUE(why);
  const std::string expected = quotedIn(dir_ / "plain") + " is a file, not a folder";
  EXPECT_NE(why->find(expected), std::string::npos) << *why;
  EXPECT_EQ(slurp(dir_ / "plain"), "x");
}

TEST_F(SafeWrite, ANameLongerThanTheFileSystemTakesIsRefusedBeforeWriting) {
  const fs::path p = dir_ / (std::string(256, 'n') + ".png");
  const auto why = whyNotWritable(p);
  ASSERT_TRUE(why);
  EXPECT_NE(why->find("longer than 247 bytes"), std::string::npos) << *why;
  failure(p, "bytes");
  // The longest it takes is written.
  const fs::path longest = dir_ / std::string(satdof::files::kMaxFileNameBytes, 'n');
  EXPECT_EQ(whyNotWritable(longest), std::nullopt);
  writeFileAtomically(longest, "ok");
  EXPECT_EQ(slurp(longest), "ok");
}

TEST_F(SafeWrite, AFolderThatTakesNoFileFails) {
  std::string skip;
  const fs::path locked = unwritableFolder(skip);
  if (!skip.empty()) GTEST_SKIP() << skip;
  failure(locked / "a.png", "bytes");
  EXPECT_FALSE(fs::exists(locked / "a.png"));
  const auto why = whyNotWritable(locked / "a.png");
  ASSERT_TRUE(why);
  EXPECT_NE(why->find("cannot write into '" + locked.string() + "'"), std::string::npos) << *why;
  EXPECT_TRUE(whyNoFileIn(locked / "new_folder"));
  EXPECT_TRUE(namesIn(locked).empty());
  if (::geteuid() != 0) fs::permissions(locked, fs::perms::owner_all);
}

// The case that left 0-byte PNGs under their final names: a full file system. The write
// fails naming the path and the reason; nothing is left but what was whole before.
TEST_F(SafeWrite, AFullFileSystemFailsWholeAndLeavesNoPartialFile) {
  const fs::path small = dir_ / "small";
  if (const std::string why = mountTmpfs(small, 64 << 10); !why.empty()) GTEST_SKIP() << why;
  writeFileAtomically(small / "old.png", "the old bytes");
  std::string text = failure(small / "big.png", std::string(200 << 10, 'b'));
  EXPECT_NE(text.find("No space left on device"), std::string::npos) << text;
  // Over an old file: the old one stays whole.
  text = failure(small / "old.png", std::string(200 << 10, 'b'));
  EXPECT_EQ(slurp(small / "old.png"), "the old bytes");
  EXPECT_EQ(namesIn(small), std::vector<std::string>{"old.png"});  // no temporary file, no big.png
  // Filled to the last byte by files that fit: the one that does not fit fails alone.
  const auto numbered = [](int i) {
    std::string name = "f";
    name += std::to_string(i);
    return name;
  };
  int written = 0;
  for (; written < 100; ++written) {
    try {
      writeFileAtomically(small / numbered(written), std::string(10 << 10, 'f'));
    } catch (const WriteError&) {
      break;
    }
  }
  EXPECT_LT(written, 100);
  for (int i = 0; i < written; ++i) EXPECT_EQ(fs::file_size(small / numbered(i)), 10u << 10);
  EXPECT_FALSE(fs::exists(small / numbered(written)));
  for (const std::string& name : namesIn(small)) EXPECT_NE(name[0], '.') << "a temporary file was left: " << name;
}

TEST_F(SafeWrite, CreateFoldersNamesTheFileInTheWay) {
  std::ofstream(dir_ / "plain") << "x";
  try {
    satdof::files::createFolders(dir_ / "plain" / "out");
    ADD_FAILURE() << "no error";
  } catch (const WriteError& e) {
    EXPECT_NE(std::string(e.what()).find("cannot write '" + (dir_ / "plain" / "out").string() + "'"),
              std::string::npos)
        << e.what();
  }
  satdof::files::createFolders(dir_ / "made" / "deeper");
  EXPECT_TRUE(fs::is_directory(dir_ / "made" / "deeper"));
}

TEST(Interrupt, SignalsBecomeTheirExitCodes) {
  EXPECT_EXIT(
      {
        satdof::files::installInterruptHandlers();
        std::raise(SIGTERM);  // recorded, not fatal
        std::exit(satdof::files::interruptExitCode());
      },
      ::testing::ExitedWithCode(143), "");
  EXPECT_EXIT(
      {
        satdof::files::installInterruptHandlers();
        std::raise(SIGINT);
        std::exit(satdof::files::interrupted() == SIGINT ? satdof::files::interruptExitCode() : 1);
      },
      ::testing::ExitedWithCode(130), "");
  // A second signal ends the process at once, as without the handlers.
  EXPECT_EXIT(
      {
        satdof::files::installInterruptHandlers();
        std::raise(SIGINT);
        std::raise(SIGINT);
        std::exit(0);
      },
      ::testing::KilledBySignal(SIGINT), "");
  EXPECT_EQ(satdof::files::interruptExitCode(), 0);  // (this process received none)
}

}  // namespace
