// vt::Error: the one exception type the kernel library throws. It names the op
// (or component, e.g. "threadpool"), the violated condition, and - for a
// validator refusal - the check site that refused (vt/check_sites.h), so a
// caller can test for a specific refusal without parsing free text.
#pragma once

#include <stdexcept>
#include <string>

namespace vt {

class Error : public std::runtime_error {
 public:
  Error(std::string op, std::string condition, std::string site = "");

  const std::string& op() const { return op_; }
  const std::string& condition() const { return condition_; }
  // "dtype(x)", "overlap(out,x)", "recipe.slot_range", ...; "" outside validators.
  const std::string& site() const { return site_; }

 private:
  std::string op_;
  std::string condition_;
  std::string site_;
};

}  // namespace vt
