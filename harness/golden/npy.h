// NumPy .npy files (format versions 1-3, little-endian, C order). bf16 is
// stored as raw uint16 ('<u2'); the manifest carries the "bf16" dtype name.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace vt::conform {

// A golden file that cannot be used: names the file and the problem.
class GoldenError : public std::runtime_error {
 public:
  GoldenError(std::string file, std::string problem)
      : std::runtime_error(file + ": " + problem), file_(std::move(file)), problem_(std::move(problem)) {}
  const std::string& file() const { return file_; }
  const std::string& problem() const { return problem_; }

 private:
  std::string file_, problem_;
};

struct NpyArray {
  std::string descr;  // "<f4", "<u2", "|u1", ...
  std::vector<int64_t> shape;
  std::vector<uint8_t> data;  // C-order element bytes
  std::vector<uint8_t> file_bytes;  // the whole file (for checksums)
};

// The header of an .npy: where the data starts and how many bytes it holds
// (prod(shape) * itemsize, computed with checked arithmetic).
struct NpyHeader {
  std::string descr;
  std::vector<int64_t> shape;
  uint64_t data_offset = 0, data_bytes = 0;
};

// Header dicts numpy writes are under a few hundred bytes; a longer one is
// refused before it is read.
inline constexpr uint64_t kMaxNpyHeaderBytes = 1 << 16;

// From the file's first bytes (n of them; 12 suffice): checks the magic and
// version and returns where the header dict ends (= where the data starts).
uint64_t NpyHeaderEnd(const uint8_t* p, std::size_t n, const std::string& path);
// Parses the header; p must hold NpyHeaderEnd(...) bytes. Refuses - GoldenError
// naming `path` - a malformed dict, Fortran order, an unknown descr, a
// dimension too large for int64 and an element or byte count that overflows.
NpyHeader ParseNpyHeader(const uint8_t* p, std::size_t n, const std::string& path);

// A whole .npy held in memory (the fuzz target's entry): the header, and that
// the data is exactly data_bytes long (truncated / trailing bytes refused).
NpyArray ParseNpy(const std::vector<uint8_t>& bytes, const std::string& path);

// Reads and validates a file: a regular file (safe_file.h), its header, then
// its size against the header *before* the data is read.
NpyArray ReadNpy(const std::string& path);
void WriteNpy(const std::string& path, const std::string& descr, const std::vector<int64_t>& shape,
              const std::vector<uint8_t>& data);
// Bytes per element of a descr; 0 when unknown.
std::size_t NpyItemSize(const std::string& descr);

}  // namespace vt::conform
