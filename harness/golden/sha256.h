// SHA-256 (FIPS 180-4) of a byte buffer or a file, as lower-case hex.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace vt::conform {

std::string Sha256Hex(const uint8_t* data, std::size_t size);
inline std::string Sha256Hex(const std::vector<uint8_t>& v) { return Sha256Hex(v.data(), v.size()); }
inline std::string Sha256Hex(const std::string& s) {
  return Sha256Hex(reinterpret_cast<const uint8_t*>(s.data()), s.size());
}

}  // namespace vt::conform
