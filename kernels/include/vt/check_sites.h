// Check sites: every condition a validator tests has a name - the kind of
// check and the operands or argument it is about ("dtype(x)",
// "overlap(out,residual)", "range(eps)", "recipe.slot_range"). A refusal
// carries its site (vt::Error::site()), and a test harness can observe every
// site a validator evaluates, so it can prove that each condition is both
// reached by valid input and the reason some invalid input is refused.
//
// The observer is per thread (validation runs on the calling thread) and off
// by default; when off, a check costs no string building.
#pragma once

#include <string>
#include <string_view>

namespace vt {

class CheckSiteObserver {
 public:
  virtual ~CheckSiteObserver() = default;
  // `site` was evaluated (passed or failed) while validating a call of `op`.
  virtual void Evaluated(std::string_view op, const std::string& site) = 0;
};

// Installs `o` for the calling thread (nullptr removes it); returns the old one.
CheckSiteObserver* SetCheckSiteObserver(CheckSiteObserver* o);
CheckSiteObserver* GetCheckSiteObserver();

}  // namespace vt
