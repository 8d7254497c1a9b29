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

// Reads and validates: magic, version, header dict, C order, and that the data
// is exactly prod(shape) * itemsize bytes (truncated / trailing bytes refused).
NpyArray ReadNpy(const std::string& path);
void WriteNpy(const std::string& path, const std::string& descr, const std::vector<int64_t>& shape,
              const std::vector<uint8_t>& data);
// Bytes per element of a descr; 0 when unknown.
std::size_t NpyItemSize(const std::string& descr);

}  // namespace vt::conform
