#include "harness/catalog/same_as.h"

#include <stdexcept>

#include "harness/catalog/catalog.h"
#include "harness/catalog/claims.h"

namespace vt::conform {

Claim SameAs(std::string name, std::string statement, std::function<bool(const Params&)> applies,
             std::string other_op, std::function<Case(const Case&)> derive,
             std::vector<std::pair<std::string, std::string>> pairs) {
  Claim c;
  c.name = std::move(name);
  c.statement = std::move(statement);
  c.applies = std::move(applies);
  c.check = [other_op, derive, pairs](const OpSpec& op, const Case& mine, const vt::ExecContext& ctx) {
    const OpSpec* other = FindOp(other_op);
    if (other == nullptr) throw std::logic_error("claim names unknown op " + other_op);
    const Execution a = Execute(op, mine, ctx);
    const Execution b = Execute(*other, derive(mine), ctx);
    if (!a.guard_error.empty()) return ClaimOutcome::Violated(a.guard_error);
    if (!b.guard_error.empty()) return ClaimOutcome::Violated(other_op + ": " + b.guard_error);
    for (const auto& [x, y] : pairs) {
      if (a.after.Find(x) == nullptr && b.after.Find(y) == nullptr) continue;  // optional operand
      const std::string d = DiffBytes(a.after.Get(x), b.after.Get(y), /*any_nan=*/true);
      if (!d.empty()) return ClaimOutcome::Violated(d);
    }
    return ClaimOutcome::Holds();
  };
  return c;
}

}  // namespace vt::conform
