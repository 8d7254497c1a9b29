#include "harness/catalog/op_spec.h"

namespace vt::conform {

Case MakeCase(const OpSpec& op, const Params& p) {
  Case c;
  c.params = p;
  op.build(c);
  Materialize(c);
  return c;
}

Execution Execute(const OpSpec& op, const Case& c, const vt::ExecContext& ctx) {
  Workspace ws(c);
  op.run(ctx, ws);
  Execution e;
  e.guard_error = ws.CheckGuards();
  if (e.guard_error.empty()) e.guard_error = ws.CheckGaps();
  e.after = ws.Snapshot();
  return e;
}

}  // namespace vt::conform
