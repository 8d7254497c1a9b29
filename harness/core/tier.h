// Shape tiers: smoke (seconds, every op), ci (the default gate), full (opt-in,
// larger and more cases).
#pragma once

#include <optional>
#include <string_view>

namespace vt::conform {

enum class Tier { kSmoke, kCi, kFull };

std::string_view Name(Tier t);
std::optional<Tier> ParseTier(std::string_view s);

}  // namespace vt::conform
