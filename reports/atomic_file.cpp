#include "reports/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <system_error>

namespace vt::reports {
namespace {

namespace fs = std::filesystem;

[[noreturn]] void Fail(const std::string& what, const std::string& path, int err) {
  throw std::runtime_error("cannot " + what + " " + path + ": " + std::strerror(err));
}

// Unique within the process (counter) and across processes (pid); the leading
// dot keeps a leftover out of `ls` and out of FindGoldenDirs-style scans.
std::string TempName(const fs::path& final_path) {
  static std::atomic<unsigned> counter{0};
  const fs::path dir = final_path.parent_path().empty() ? fs::path(".") : final_path.parent_path();
  return (dir / ("." + final_path.filename().string() + ".tmp." + std::to_string(::getpid()) + "." +
                 std::to_string(counter++)))
      .string();
}

void SyncDir(const fs::path& dir) {
  // Makes the rename itself durable; a folder that cannot be opened (odd file
  // systems) still got the rename, so this is best effort.
  const int fd = ::open(dir.empty() ? "." : dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd >= 0) {
    ::fsync(fd);
    ::close(fd);
  }
}

}  // namespace

void AtomicWriteFile(const std::string& path, const std::string& bytes) {
  const std::string tmp = TempName(path);
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) Fail("write", path, errno);
  const char* p = bytes.data();
  std::size_t left = bytes.size();
  while (left > 0) {
    const ssize_t n = ::write(fd, p, left);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int err = n < 0 ? errno : EIO;
      ::close(fd);
      ::unlink(tmp.c_str());
      Fail("write", path, err);
    }
    p += n;
    left -= static_cast<std::size_t>(n);
  }
  if (::fsync(fd) != 0 || ::close(fd) != 0) {
    const int err = errno;
    ::unlink(tmp.c_str());
    Fail("write", path, err);
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    const int err = errno;
    ::unlink(tmp.c_str());
    Fail("write", path, err);
  }
  SyncDir(fs::path(path).parent_path());
}

void RemoveIfPresent(const std::string& path) {
  if (::unlink(path.c_str()) != 0 && errno != ENOENT) Fail("remove", path, errno);
}

std::string MakeTempDirNextTo(const std::string& final_dir) {
  const fs::path final_path = fs::path(final_dir).lexically_normal();
  const fs::path clean = final_path.filename().empty() ? final_path.parent_path() : final_path;
  std::error_code ec;
  if (!clean.parent_path().empty()) fs::create_directories(clean.parent_path(), ec);
  if (ec) Fail("create", clean.parent_path().string(), ec.value());
  const std::string tmp = TempName(clean);
  if (::mkdir(tmp.c_str(), 0755) != 0) Fail("create", tmp, errno);
  return tmp;
}

void CommitTempDir(const std::string& temp_dir, const std::string& final_dir) {
  std::error_code ec;
  std::string aside;
  if (fs::exists(fs::symlink_status(final_dir, ec))) {
    aside = TempName(fs::path(final_dir).lexically_normal());
    if (::rename(final_dir.c_str(), aside.c_str()) != 0) Fail("replace", final_dir, errno);
  }
  if (::rename(temp_dir.c_str(), final_dir.c_str()) != 0) Fail("rename into", final_dir, errno);
  SyncDir(fs::path(final_dir).lexically_normal().parent_path());
  if (!aside.empty()) fs::remove_all(aside, ec);  // the old copy; litter at worst
}

}  // namespace vt::reports
