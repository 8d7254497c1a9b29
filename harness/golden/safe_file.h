// Opening a golden's files without trusting the folder: a name from a
// manifest must be a plain file name, resolve (symlinks followed) to a path
// inside the case folder, and be a regular file. Opening never blocks (a FIFO
// is refused by fstat before any read, not waited on) and sizes are checked
// before a byte is read, so /dev/zero, a FIFO, a directory, a symlink loop or
// a link out of the folder is a GoldenError naming the file, never a hang or
// a crash.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace vt::conform {

// A golden tensor is at most this many bytes: far above any recorded capture
// (the largest is a few MiB), and low enough that a sparse file whose header
// claims terabytes is refused instead of being allocated.
inline constexpr uint64_t kMaxGoldenFileBytes = uint64_t{1} << 30;

// Refuses (GoldenError against `manifest`) a name that is empty, ".", "..",
// holds a '/', a '\\' or a control character (a NUL above all: the OS would
// cut the name there and open another file).
void CheckPlainName(const std::string& name, const std::string& manifest, const std::string& where);

// dir/name with symlinks resolved; refused when it cannot be resolved (missing,
// a loop) or lands outside the resolved case folder.
std::string ResolveInside(const std::string& dir, const std::string& name);

// A regular file opened read-only; closed on destruction.
class RegularFile {
 public:
  explicit RegularFile(const std::string& path);  // GoldenError when not a regular file
  ~RegularFile();
  RegularFile(const RegularFile&) = delete;
  RegularFile& operator=(const RegularFile&) = delete;
  uint64_t size() const { return size_; }
  // Exactly n bytes from offset; GoldenError when the file is shorter.
  std::vector<uint8_t> Read(uint64_t offset, uint64_t n) const;

 private:
  std::string path_;
  int fd_ = -1;
  uint64_t size_ = 0;
};

// The whole of a small regular file (manifests): refused above max_bytes.
std::string ReadSmallFile(const std::string& path, uint64_t max_bytes);

}  // namespace vt::conform
