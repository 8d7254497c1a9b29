// Catalog lint: every op listed in vt/ops.def has its kernel (registered and
// on disk), API, oracle, catalog entry, generator, runner, tolerance model
// (with reasons), error cases and equivalence claims. A failure names the
// missing file or field.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "harness/catalog/catalog.h"
#include "harness/modes/mode.h"
#include "vt/registry.h"

namespace vt::conform {
namespace {

TEST(CatalogLint, EveryListedOpHasItsFiles) {
  for (const OpFiles& f : ExpectedFiles()) {
    for (const std::string& rel : f.paths) {
      EXPECT_TRUE(std::filesystem::exists(std::filesystem::path(VT_SOURCE_DIR) / rel))
          << f.name << ": missing " << rel;
    }
  }
}

TEST(CatalogLint, EveryListedOpHasAKernelAndASpec) {
  ASSERT_FALSE(Catalog().empty());
  for (const OpSpec& op : Catalog()) {
    EXPECT_TRUE(vt::HasKernel(op.name, vt::Backend::kCPU)) << op.name << ": no CPU kernel registered";
    EXPECT_TRUE(op.gen) << op.name << ": no case generator";
    EXPECT_TRUE(op.build) << op.name << ": no case builder";
    EXPECT_TRUE(op.run) << op.name << ": no run function";
    EXPECT_TRUE(op.oracle) << op.name << ": no oracle";
    EXPECT_TRUE(op.outputs) << op.name << ": no tolerance model";
    EXPECT_FALSE(op.errors.empty()) << op.name << ": no error cases";
    EXPECT_FALSE(op.claims.empty()) << op.name << ": no equivalence claims";
    EXPECT_FALSE(op.dtypes.empty()) << op.name << ": no dtype summary";
  }
}

// Every written operand of a drawn case has a tolerance with a reason, and
// every tolerance names a written operand.
TEST(CatalogLint, ToleranceModelCoversEveryWrittenOperand) {
  RunConfig cfg;
  for (const OpSpec& op : Catalog()) {
    for (const Params& p : TierCases(op, cfg, 12)) {
      const Case c = MakeCase(op, p);
      std::set<std::string> written, covered;
      for (const TensorData& t : c.tensors) {
        if (t.role != Role::kInput) written.insert(t.name);
      }
      for (const OutputSpec& o : op.outputs(c)) {
        EXPECT_FALSE(o.tol.reason.empty()) << op.name << "/" << o.tensor << ": tolerance without a reason";
        EXPECT_TRUE(written.count(o.tensor)) << op.name << ": tolerance for " << o.tensor << " which is not written";
        covered.insert(o.tensor);
      }
      EXPECT_EQ(written, covered) << op.name << ": written operands without a tolerance in " << p.Identity();
    }
  }
}

TEST(CatalogLint, NamesAreUnique) {
  for (const OpSpec& op : Catalog()) {
    std::set<std::string> errors, claims;
    for (const ErrorCase& e : op.errors) EXPECT_TRUE(errors.insert(e.name).second) << op.name << ": duplicate error case " << e.name;
    for (const Claim& c : op.claims) EXPECT_TRUE(claims.insert(c.name).second) << op.name << ": duplicate claim " << c.name;
  }
}

}  // namespace
}  // namespace vt::conform
