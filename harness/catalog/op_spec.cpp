#include "harness/catalog/op_spec.h"

#include "harness/catalog/gen.h"
#include "harness/fuzz/vocabulary.h"

namespace vt::conform {

Case MakeCase(const OpSpec& op, const Params& p) {
  Case c = BuildCase(op, p);
  Materialize(c);
  return c;
}

namespace {

// The JSON kind of a knob's value, as the generator draws it.
std::string KindOf(const Json& v) {
  if (v.is_number_integer() || v.is_boolean()) return "an integer";
  if (v.is_number()) return "a number";
  if (v.is_string()) return "a name";
  if (v.is_array()) return "a list";
  return "a value";
}

bool Fits(const Json& v, const std::string& want) {
  const std::string got = KindOf(v);
  return got == want || (want == "a number" && got == "an integer");  // "2" is the number 2.0
}

}  // namespace

void CheckKnobKinds(const OpSpec& op, const Params& p) {
  std::map<std::string, std::string> kinds;
  for (const Params& drawn : gen::Draw(op.gen(Tier::kFull), 0x6b1d5, 64)) {
    for (const auto& [key, value] : drawn.args.items()) {
      const auto [it, fresh] = kinds.emplace(key, KindOf(value));
      // Drawn as an integer once and as a number another time: a number.
      if (!fresh && it->second != KindOf(value) && Fits(value, "a number")) {
        it->second = "a number";
      }
    }
  }
  for (const auto& [key, value] : p.args.items()) {
    const auto it = kinds.find(key);
    if (it == kinds.end() || Fits(value, it->second)) continue;
    std::string shown = value.is_string() ? value.get<std::string>() : value.dump();
    throw std::invalid_argument("argument '" + key + "' must be " + it->second + ", got '" + shown + "'");
  }
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
