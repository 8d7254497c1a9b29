// Helpers shared by the codec tests: bit casts, hex formatting and a failure
// collector that reports the first few mismatches in full (input bits, expected,
// got) and counts the rest, so a systematic bug does not print a million lines.
#pragma once

#include <gtest/gtest.h>

#include <cctype>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

namespace vt_test {

inline uint32_t Bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

inline float FromBits(uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

inline std::string Hex(uint64_t v, int digits) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%0*llX", digits, static_cast<unsigned long long>(v));
  return buf;
}

// Counts checks and mismatches for one property; prints the first kMaxShown
// mismatches through ADD_FAILURE (which fails the test) and a summary line.
class Checker {
 public:
  explicit Checker(std::string what) : what_(std::move(what)) {}
  ~Checker() { Summary(); }

  // in/want/got are printed in hex with the given digit counts.
  void Check(uint64_t in, int in_digits, uint64_t want, uint64_t got, int out_digits,
             const char* note = "") {
    ++checked_;
    if (want == got) return;
    if (++failed_ <= kMaxShown) {
      std::string value;
      if (in_digits == 8) {  // an f32 input: also show its value
        char buf[48];
        std::snprintf(buf, sizeof buf, " (%.9g)", static_cast<double>(FromBits(static_cast<uint32_t>(in))));
        value = buf;
      }
      ADD_FAILURE() << what_ << ": input " << Hex(in, in_digits) << value << " expected "
                    << Hex(want, out_digits) << " got " << Hex(got, out_digits)
                    << (note[0] ? " [" : "") << note << (note[0] ? "]" : "");
    }
  }
  // A non-numeric condition (in is the f32 bits it concerns).
  void Expect(bool ok, uint64_t in, const std::string& msg) {
    ++checked_;
    if (ok) return;
    if (++failed_ <= kMaxShown) {
      ADD_FAILURE() << what_ << ": input " << Hex(in, 8) << ": " << msg;
    }
  }

  uint64_t checked() const { return checked_; }
  uint64_t failed() const { return failed_; }

  void Summary() {
    if (reported_) return;
    reported_ = true;
    std::printf("[ counts   ] %s: %llu checked, %llu mismatched\n", what_.c_str(),
                static_cast<unsigned long long>(checked_), static_cast<unsigned long long>(failed_));
    std::fflush(stdout);
    std::string key = what_;
    for (char& c : key) {
      if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
    }
    ::testing::Test::RecordProperty(key + "_checked", std::to_string(checked_));
    EXPECT_EQ(failed_, 0u) << what_ << ": " << failed_ << " of " << checked_ << " checks failed";
    // No vacuous pass: a property that checked nothing is a broken test.
    EXPECT_GT(checked_, 0u) << what_ << ": nothing was checked";
  }

 private:
  static constexpr uint64_t kMaxShown = 20;
  std::string what_;
  uint64_t checked_ = 0;
  uint64_t failed_ = 0;
  bool reported_ = false;
};

}  // namespace vt_test
