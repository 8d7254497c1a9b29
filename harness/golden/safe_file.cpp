#include "harness/golden/safe_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "harness/golden/npy.h"

namespace fs = std::filesystem;

namespace vt::conform {

void CheckPlainName(const std::string& name, const std::string& manifest, const std::string& where) {
  auto refuse = [&](const std::string& why) {
    throw GoldenError(manifest, where + " file name " + why + " (it must be a plain file name in the case folder)");
  };
  if (name.empty()) refuse("is empty");
  if (name == "." || name == "..") refuse("is '" + name + "'");
  for (const char c : name) {
    const auto u = static_cast<unsigned char>(c);
    if (u == 0) refuse("holds a NUL byte");
    if (c == '/' || c == '\\') refuse("holds a path separator");
    if (u < 0x20 || u == 0x7f) refuse("holds a control character");
  }
}

std::string ResolveInside(const std::string& dir, const std::string& name) {
  const std::string shown = (fs::path(dir) / name).string();
  std::error_code ec;
  const fs::path root = fs::canonical(dir, ec);
  if (ec) throw GoldenError(dir, "case folder cannot be resolved: " + ec.message());
  const fs::path target = fs::canonical(root / name, ec);
  // canonical() fails for a missing file, a dangling link and a symlink loop
  // (ELOOP); its message says which.
  if (ec) throw GoldenError(shown, "missing or unresolvable: " + ec.message());
  // Under the folder, component by component (a plain prefix test would let
  // "case_2/x.npy" pass for the folder "case").
  const auto [r_end, t_end] = std::mismatch(root.begin(), root.end(), target.begin(), target.end());
  if (r_end != root.end() || t_end == target.end()) {
    throw GoldenError(shown, "resolves to " + target.string() + ", outside the case folder " + root.string());
  }
  return target.string();
}

namespace {

void RequireRegular(const struct stat& st, const std::string& path) {
  if (S_ISREG(st.st_mode)) return;
  const char* kind = S_ISDIR(st.st_mode)    ? "a directory"
                     : S_ISFIFO(st.st_mode) ? "a FIFO"
                     : S_ISCHR(st.st_mode)  ? "a character device"
                     : S_ISBLK(st.st_mode)  ? "a block device"
                     : S_ISSOCK(st.st_mode) ? "a socket"
                                            : "not a plain file";
  throw GoldenError(path, std::string("is ") + kind + ", not a regular file");
}

}  // namespace

RegularFile::RegularFile(const std::string& path) : path_(path) {
  // stat first, so a device is refused without being opened (opening some
  // has effects); then open and fstat again, for what was really opened.
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    throw GoldenError(path, std::string("missing or unreadable: ") + std::strerror(errno));
  }
  RequireRegular(st, path);
  // O_NONBLOCK: should a FIFO replace the file in between, opening it must
  // not wait for a writer; fstat below refuses it before any read.
  fd_ = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd_ < 0) throw GoldenError(path, std::string("missing or unreadable: ") + std::strerror(errno));
  if (::fstat(fd_, &st) != 0) {
    const int err = errno;
    ::close(fd_);
    throw GoldenError(path, std::string("cannot stat: ") + std::strerror(err));
  }
  try {
    RequireRegular(st, path);
  } catch (...) {
    ::close(fd_);
    throw;
  }
  size_ = static_cast<uint64_t>(st.st_size);
}

RegularFile::~RegularFile() {
  if (fd_ >= 0) ::close(fd_);
}

std::vector<uint8_t> RegularFile::Read(uint64_t offset, uint64_t n) const {
  if (offset > size_ || n > size_ - offset) {
    throw GoldenError(path_, "truncated: needs " + std::to_string(n) + " bytes at offset " + std::to_string(offset) +
                                 ", the file has " + std::to_string(size_));
  }
  std::vector<uint8_t> out(static_cast<std::size_t>(n));
  uint64_t done = 0;
  while (done < n) {
    const ssize_t got = ::pread(fd_, out.data() + done, static_cast<std::size_t>(n - done),
                                static_cast<off_t>(offset + done));
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) throw GoldenError(path_, std::string("read error: ") + std::strerror(errno));
    // The file shrank after fstat (someone is rewriting it): refuse, never loop.
    if (got == 0) throw GoldenError(path_, "truncated while reading (changed on disk?)");
    done += static_cast<uint64_t>(got);
  }
  return out;
}

std::string ReadSmallFile(const std::string& path, uint64_t max_bytes) {
  const RegularFile f(path);
  if (f.size() > max_bytes) {
    throw GoldenError(path, std::to_string(f.size()) + " bytes, more than the " + std::to_string(max_bytes) +
                                " this file may hold");
  }
  const std::vector<uint8_t> b = f.Read(0, f.size());
  return std::string(b.begin(), b.end());
}

}  // namespace vt::conform
