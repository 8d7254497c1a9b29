#include "harness/core/tier.h"

namespace vt::conform {

std::string_view Name(Tier t) {
  switch (t) {
    case Tier::kSmoke: return "smoke";
    case Tier::kCi: return "ci";
    case Tier::kFull: return "full";
  }
  return "?";
}

std::optional<Tier> ParseTier(std::string_view s) {
  for (Tier t : {Tier::kSmoke, Tier::kCi, Tier::kFull}) {
    if (Name(t) == s) return t;
  }
  return std::nullopt;
}

}  // namespace vt::conform
