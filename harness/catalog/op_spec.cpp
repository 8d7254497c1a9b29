#include "harness/catalog/op_spec.h"

#include "harness/catalog/gen.h"
#include "harness/fuzz/vocabulary.h"

namespace vt::conform {

Case MakeCase(const OpSpec& op, const Params& p) {
  Case c = BuildCase(op, p);
  Materialize(c);
  return c;
}

int64_t CaseElements(const Case& c) {
  int64_t n = 0;
  for (const TensorData& t : c.tensors) n += t.Numel();
  return n;
}

Case BuildCase(const OpSpec& op, const Params& p) {
  Case c;
  c.params = p;
  op.build(c);
  if (p.Has("reshape")) {
    const std::vector<std::string> names = op.contract.AnyShape();
    for (std::size_t i = 0; i < names.size(); ++i) {
      TensorData* t = c.Find(names[i]);
      if (t == nullptr) continue;
      t->shape = gen::Reshaped(t->shape, p.Str("reshape"), i);
      t->SetContiguous();
    }
  }
  // The fuzzer's padded outer strides on the operands that accept them.
  vocab::ApplyStrideKnob(op.contract, c);
  // Specials / edges: per-element overrides that every materialisation of
  // the tensors applies over their fills.
  ApplyValues(op.values, c);
  return c;
}

Execution Execute(const OpSpec& op, const Case& c, const vt::ExecContext& ctx) {
  Workspace ws(c);
  if (ctx.backend != vt::Backend::kCPU) {
    // Device backends: the same workspace, copied in, run there, copied out.
    const std::string why = vt::BackendUnavailable(ctx.backend);
    if (!why.empty()) throw std::runtime_error(std::string(vt::Name(ctx.backend)) + ": " + why);
    ws.ToDevice(*vt::FindDeviceApi(ctx.backend));
    op.run(ctx, ws);
    ws.ToHost();
  } else {
    op.run(ctx, ws);
  }
  Execution e;
  e.guard_error = ws.CheckGuards();
  if (e.guard_error.empty()) e.guard_error = ws.CheckGaps();
  e.after = ws.Snapshot();
  return e;
}

}  // namespace vt::conform
