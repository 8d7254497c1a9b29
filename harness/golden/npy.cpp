#include "harness/golden/npy.h"

#include <cctype>
#include <cstring>
#include <fstream>
#include <iterator>

namespace vt::conform {
namespace {

std::string Field(const std::string& header, const std::string& key, const std::string& path) {
  const std::size_t k = header.find("'" + key + "'");
  if (k == std::string::npos) throw GoldenError(path, "npy header has no '" + key + "'");
  std::size_t p = header.find(':', k);
  if (p == std::string::npos) throw GoldenError(path, "npy header field '" + key + "' has no value");
  ++p;
  while (p < header.size() && std::isspace(static_cast<unsigned char>(header[p]))) ++p;
  std::size_t end = p;
  if (p < header.size() && (header[p] == '\'' || header[p] == '"')) {
    end = header.find(header[p], p + 1);
    if (end == std::string::npos) throw GoldenError(path, "npy header: unterminated string");
    return header.substr(p + 1, end - p - 1);
  }
  if (p < header.size() && header[p] == '(') {
    end = header.find(')', p);
    if (end == std::string::npos) throw GoldenError(path, "npy header: unterminated shape tuple");
    return header.substr(p, end - p + 1);
  }
  while (end < header.size() && header[end] != ',' && header[end] != '}') ++end;
  return header.substr(p, end - p);
}

std::vector<int64_t> ParseShape(const std::string& tuple, const std::string& path) {
  std::vector<int64_t> shape;
  std::size_t p = 1;
  while (p < tuple.size()) {
    while (p < tuple.size() && (std::isspace(static_cast<unsigned char>(tuple[p])) || tuple[p] == ',')) ++p;
    if (p >= tuple.size() || tuple[p] == ')') break;
    std::size_t end = p;
    while (end < tuple.size() && std::isdigit(static_cast<unsigned char>(tuple[end]))) ++end;
    if (end == p) throw GoldenError(path, "npy header: bad shape " + tuple);
    shape.push_back(std::stoll(tuple.substr(p, end - p)));
    p = end;
  }
  return shape;
}

}  // namespace

std::size_t NpyItemSize(const std::string& d) {
  if (d == "<f4" || d == "<i4" || d == "<u4") return 4;
  if (d == "<f2" || d == "<u2" || d == "<i2") return 2;
  if (d == "|u1" || d == "|i1" || d == "|b1" || d == "<u1" || d == "<i1") return 1;
  if (d == "<f8" || d == "<i8" || d == "<u8") return 8;
  return 0;
}

NpyArray ReadNpy(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw GoldenError(path, "missing or unreadable");
  NpyArray a;
  a.file_bytes.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
  const auto& b = a.file_bytes;
  if (b.size() < 10 || std::memcmp(b.data(), "\x93NUMPY", 6) != 0) {
    throw GoldenError(path, "not an .npy file (bad magic or shorter than the header)");
  }
  const int major = b[6];
  std::size_t header_len = 0, offset = 0;
  if (major == 1) {
    header_len = b[8] | (static_cast<std::size_t>(b[9]) << 8);
    offset = 10;
  } else if (major == 2 || major == 3) {
    if (b.size() < 12) throw GoldenError(path, "truncated .npy header");
    header_len = b[8] | (static_cast<std::size_t>(b[9]) << 8) | (static_cast<std::size_t>(b[10]) << 16) |
                 (static_cast<std::size_t>(b[11]) << 24);
    offset = 12;
  } else {
    throw GoldenError(path, "unsupported .npy version " + std::to_string(major));
  }
  if (offset + header_len > b.size()) throw GoldenError(path, "truncated .npy header");
  const std::string header(b.begin() + static_cast<std::ptrdiff_t>(offset),
                           b.begin() + static_cast<std::ptrdiff_t>(offset + header_len));
  a.descr = Field(header, "descr", path);
  const std::string fortran = Field(header, "fortran_order", path);
  if (fortran.find("False") == std::string::npos) throw GoldenError(path, "Fortran-order arrays are not supported");
  a.shape = ParseShape(Field(header, "shape", path), path);
  const std::size_t item = NpyItemSize(a.descr);
  if (item == 0) throw GoldenError(path, "unsupported npy dtype '" + a.descr + "'");
  std::size_t count = 1;
  for (int64_t d : a.shape) count *= static_cast<std::size_t>(d);
  const std::size_t want = count * item, have = b.size() - offset - header_len;
  if (have < want) {
    throw GoldenError(path, "truncated: " + std::to_string(have) + " data bytes, the header's shape needs " +
                                std::to_string(want));
  }
  if (have > want) throw GoldenError(path, std::to_string(have - want) + " bytes after the data");
  a.data.assign(b.begin() + static_cast<std::ptrdiff_t>(offset + header_len), b.end());
  return a;
}

void WriteNpy(const std::string& path, const std::string& descr, const std::vector<int64_t>& shape,
              const std::vector<uint8_t>& data) {
  std::string dict = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': (";
  for (std::size_t i = 0; i < shape.size(); ++i) dict += std::to_string(shape[i]) + (shape.size() == 1 ? "," : (i + 1 < shape.size() ? ", " : ""));
  dict += "), }";
  // Pad with spaces so magic + length + header + '\n' is a multiple of 64.
  const std::size_t total = 10 + dict.size() + 1;
  dict.append((64 - total % 64) % 64, ' ');
  dict += '\n';
  std::ofstream f(path, std::ios::binary);
  if (!f) throw GoldenError(path, "cannot write");
  f.write("\x93NUMPY\x01\x00", 8);
  const uint16_t len = static_cast<uint16_t>(dict.size());
  const char le[2] = {static_cast<char>(len & 0xFF), static_cast<char>(len >> 8)};
  f.write(le, 2);
  f.write(dict.data(), static_cast<std::streamsize>(dict.size()));
  f.write(reinterpret_cast<const char*>(data.data()), static_cast<std::streamsize>(data.size()));
  if (!f) throw GoldenError(path, "write failed");
}

}  // namespace vt::conform
