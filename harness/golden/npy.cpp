#include "harness/golden/npy.h"

#include <algorithm>
#include <charconv>
#include <climits>
#include <cstring>
#include <fstream>

#include "harness/golden/safe_file.h"

namespace vt::conform {
namespace {

bool Space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// The text of a dict value: a quoted string's contents, a "(...)" tuple, or a
// bare word (True / False) up to the next ',' or '}'.
std::string Field(const std::string& header, const std::string& key, const std::string& path) {
  const std::size_t k = header.find("'" + key + "'");
  if (k == std::string::npos) throw GoldenError(path, "npy header has no '" + key + "'");
  std::size_t p = k + key.size() + 2;
  while (p < header.size() && Space(header[p])) ++p;
  if (p >= header.size() || header[p] != ':') throw GoldenError(path, "npy header field '" + key + "' has no value");
  ++p;
  while (p < header.size() && Space(header[p])) ++p;
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
  while (end < header.size() && header[end] != ',' && header[end] != '}' && !Space(header[end])) ++end;
  return header.substr(p, end - p);
}

// "(d0, d1, ...)" with an optional trailing comma; each d a decimal that
// fits int64 (std::from_chars reports overflow; no exception escapes).
std::vector<int64_t> ParseShape(const std::string& tuple, const std::string& path) {
  constexpr std::size_t kMaxRank = 32;
  std::vector<int64_t> shape;
  std::size_t p = 1;
  const std::size_t close = tuple.size() - 1;  // Field() returns "(...)"
  for (;;) {
    while (p < close && Space(tuple[p])) ++p;
    if (p >= close) break;
    std::size_t end = p;
    while (end < close && tuple[end] >= '0' && tuple[end] <= '9') ++end;
    if (end == p) throw GoldenError(path, "npy header: bad shape " + tuple);
    int64_t d = 0;
    const auto r = std::from_chars(tuple.data() + p, tuple.data() + end, d);
    if (r.ec != std::errc()) throw GoldenError(path, "npy header: dimension too large for int64 in shape " + tuple);
    shape.push_back(d);
    if (shape.size() > kMaxRank) throw GoldenError(path, "npy header: more than 32 dimensions");
    p = end;
    while (p < close && Space(tuple[p])) ++p;
    if (p >= close) break;
    if (tuple[p] != ',') throw GoldenError(path, "npy header: bad shape " + tuple);
    ++p;
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

uint64_t NpyHeaderEnd(const uint8_t* b, std::size_t n, const std::string& path) {
  if (n < 10 || std::memcmp(b, "\x93NUMPY", 6) != 0) {
    throw GoldenError(path, "not an .npy file (bad magic or shorter than the header)");
  }
  const int major = b[6];
  uint64_t header_len = 0, offset = 0;
  if (major == 1) {
    header_len = b[8] | (uint64_t{b[9]} << 8);
    offset = 10;
  } else if (major == 2 || major == 3) {
    if (n < 12) throw GoldenError(path, "truncated .npy header");
    header_len = b[8] | (uint64_t{b[9]} << 8) | (uint64_t{b[10]} << 16) | (uint64_t{b[11]} << 24);
    offset = 12;
  } else {
    throw GoldenError(path, "unsupported .npy version " + std::to_string(major));
  }
  if (header_len > kMaxNpyHeaderBytes) {
    throw GoldenError(path, "npy header claims " + std::to_string(header_len) + " bytes (more than " +
                                std::to_string(kMaxNpyHeaderBytes) + ")");
  }
  return offset + header_len;
}

NpyHeader ParseNpyHeader(const uint8_t* b, std::size_t n, const std::string& path) {
  const uint64_t end = NpyHeaderEnd(b, n, path);
  if (end > n) throw GoldenError(path, "truncated .npy header");
  const std::size_t start = b[6] == 1 ? 10 : 12;
  const std::string header(reinterpret_cast<const char*>(b) + start, reinterpret_cast<const char*>(b) + end);
  NpyHeader h;
  h.data_offset = end;
  h.descr = Field(header, "descr", path);
  const std::string fortran = Field(header, "fortran_order", path);
  if (fortran == "True") throw GoldenError(path, "Fortran-order arrays are not supported");
  if (fortran != "False") throw GoldenError(path, "npy header: fortran_order is '" + fortran + "', not True/False");
  h.shape = ParseShape(Field(header, "shape", path), path);
  const std::size_t item = NpyItemSize(h.descr);
  if (item == 0) throw GoldenError(path, "unsupported npy dtype '" + h.descr + "'");
  // Checked products: the element count must fit int64 (TensorData::Numel is
  // signed) and the byte count uint64 - a wrapped product would read as a
  // small size and blame the wrong thing later.
  int64_t count = 1;
  for (int64_t d : h.shape) {
    if (__builtin_mul_overflow(count, d, &count)) {
      throw GoldenError(path, "npy header: the shape's element count overflows int64");
    }
  }
  if (__builtin_mul_overflow(static_cast<uint64_t>(count), uint64_t{item}, &h.data_bytes) ||
      h.data_bytes > static_cast<uint64_t>(INT64_MAX)) {
    throw GoldenError(path, "npy header: the shape's byte count overflows (wraps past 2^63)");
  }
  return h;
}

NpyArray ParseNpy(const std::vector<uint8_t>& b, const std::string& path) {
  const NpyHeader h = ParseNpyHeader(b.data(), b.size(), path);
  const uint64_t have = b.size() - h.data_offset;
  if (have < h.data_bytes) {
    throw GoldenError(path, "truncated: " + std::to_string(have) + " data bytes, the header's shape needs " +
                                std::to_string(h.data_bytes));
  }
  if (have > h.data_bytes) throw GoldenError(path, std::to_string(have - h.data_bytes) + " bytes after the data");
  NpyArray a;
  a.descr = h.descr;
  a.shape = h.shape;
  a.data.assign(b.begin() + static_cast<std::ptrdiff_t>(h.data_offset), b.end());
  a.file_bytes = b;
  return a;
}

NpyArray ReadNpy(const std::string& path) {
  const RegularFile f(path);
  const std::vector<uint8_t> prefix = f.Read(0, std::min<uint64_t>(f.size(), 12));
  const uint64_t header_end = NpyHeaderEnd(prefix.data(), prefix.size(), path);
  if (header_end > f.size()) throw GoldenError(path, "truncated .npy header");
  const std::vector<uint8_t> head = f.Read(0, header_end);
  const NpyHeader h = ParseNpyHeader(head.data(), head.size(), path);
  // The size must match the header before the data is read: a header that
  // claims 2^62 bytes over a short file is refused here, not allocated.
  const uint64_t have = f.size() - header_end;
  if (have < h.data_bytes) {
    throw GoldenError(path, "truncated: " + std::to_string(have) + " data bytes, the header's shape needs " +
                                std::to_string(h.data_bytes));
  }
  if (have > h.data_bytes) throw GoldenError(path, std::to_string(have - h.data_bytes) + " bytes after the data");
  if (f.size() > kMaxGoldenFileBytes) {
    throw GoldenError(path, std::to_string(f.size()) + " bytes, more than a golden tensor may hold (" +
                                std::to_string(kMaxGoldenFileBytes) + ")");
  }
  return ParseNpy(f.Read(0, f.size()), path);
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
