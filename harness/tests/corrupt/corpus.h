// The corrupted-golden corpus (issue 8): one folder per corruption, each
// derived from a small valid rmsnorm case this test writes itself (its
// outputs computed here in double, so the base case passes), plus - when the
// recorded captures are present - corruptions of a case the project's lock
// knows (a flipped data byte behind a reformatted manifest).
// The npy writer and the rms norm here are written independently of the
// harness, so the test does not share the code it tests.
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace vt::corrupt {

namespace fs = std::filesystem;

struct Corruption {
  std::string name;    // folder name, unique
  std::string expect;  // a substring the case's one-line verdict must hold
  std::function<void(const fs::path&)> apply;  // mutates a copy of the base case
  bool from_shared = false;                    // base: the recorded rmsnorm_f32_8x128
};

// Writes the valid base case into dir (rmsnorm, f32, x [4,16], weight [16]).
void WriteBaseCase(const fs::path& dir);

std::vector<Corruption> AllCorruptions();

// Helpers the corruptions use (also for the mixed good/bad folder).
std::string ReadFile(const fs::path& p);
void WriteFile(const fs::path& p, const std::string& bytes);
// An .npy with a given header dict body and raw data.
std::string NpyBytes(const std::string& descr, const std::string& shape_tuple, const std::string& data,
                     bool fortran = false);

}  // namespace vt::corrupt
