#include "vt/error.h"

#include <utility>

namespace vt {

Error::Error(std::string op, std::string condition, std::string site)
    : std::runtime_error("vt: " + op + ": " + condition),
      op_(std::move(op)),
      condition_(std::move(condition)),
      site_(std::move(site)) {}

}  // namespace vt
