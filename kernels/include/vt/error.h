// vt::Error: the one exception type the kernel library throws. It names the op
// (or component, e.g. "threadpool") and the violated condition, so a caller can
// test for a specific refusal without parsing free text.
#pragma once

#include <stdexcept>
#include <string>

namespace vt {

class Error : public std::runtime_error {
 public:
  Error(std::string op, std::string condition);

  const std::string& op() const { return op_; }
  const std::string& condition() const { return condition_; }

 private:
  std::string op_;
  std::string condition_;
};

}  // namespace vt
