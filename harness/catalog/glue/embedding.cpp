// Catalog entry: embedding (vLLM VocabParallelEmbedding on one rank, i.e.
// F.embedding: a row gather from the token table).
#include "harness/catalog/glue/glue_entry.h"
#include "harness/golden/adapter.h"
#include "harness/golden/upstream_call.h"
#include "oracles/glue/embedding.h"
#include "vt/ops.h"

namespace vt::conform {
namespace local_embedding {  // apart in unity batches (harness/CMakeLists.txt)
namespace {

void Draw(Params& p, Tier tier) {
  p.Set("table", *gen::FloatIn());
  p.Set("ids", *gen::Pick(std::vector<std::string>{"i32", "i64"}));
  p.Set("out", *gen::FloatOut());
  p.Set("T", *gen::Rows(tier));
  // Vocabulary sizes: 1 (every id is 0), small, and a few hundred rows.
  p.Set("V", *gen::Pick(std::vector<int64_t>{1, 2, 3, 17, 64, 257}));
  p.Set("H", *gen::Width(tier));
}

void Build(Case& c) {
  const Params& p = c.params;
  const int64_t t = p.Int("T"), v = p.Int("V"), h = p.Int("H");
  c.Input("table", p.DType("table"), {v, h}, glue::InputFill(p));
  glue::SetIndices(c.Input("ids", p.DType("ids"), {t}, Fill::Const(0)),
                   glue::DrawIndices(p.seed, "ids", t, v, "random"));
  c.Output("out", p.DType("out"), {t, h});
}

void Run(const vt::ExecContext& ctx, const Workspace& ws) { vt::Embedding(ctx, ws["out"], ws["table"], ws["ids"]); }

template <class E>
entry::Outs<E> Move(const Case& c, const glue::Read<E>& read) {
  const TensorData& table = c.Get("table");
  return {{"out", oracle::Embedding<E>(table.shape[1], read(table), glue::Indices(c.Get("ids")))}};
}

// The same gather as index_select on the table where the two agree: equal
// table and out dtypes (embedding's move through f32 is then the identity on
// every pattern but a signalling bf16 NaN, which only the "bits" fill draws;
// index_select moves
// bytes) and ids as i32 (index_select's index dtype; every id < V fits).
bool SameDType(const Params& p) {
  return p.Str("table") == p.Str("out") && (p.Str("table") == "f32" || p.Str("fill") != "bits");
}

Case AsIndexSelect(const Case& c) {
  Case m;
  m.params = Params("index_select");
  m.params.Set("dtype", c.params.Str("table"));
  m.params.Set("M", c.Get("ids").shape[0]);
  m.params.seed = c.params.seed;
  const auto ids = glue::Indices(c.Get("ids"));
  std::vector<double> idx(ids.begin(), ids.end());
  m.tensors = {CopyTensor(c.Get("table"), "in", Role::kInput),
               TensorFromValues("idx", vt::DType::kI32, {static_cast<int64_t>(ids.size())}, Role::kInput, idx),
               CopyTensor(c.Get("out"), "out", Role::kOutput)};
  return m;
}

// vLLM embedding goldens: table [V,H], ids (any rank, i32/i64), out [..., H];
// ids flattened to [T], out to [T,H]. An f16 out is compared as f32.
GoldenMapping GoldenEmbedding(const GoldenCase& g) {
  GoldenMapping m;
  const TensorData table = GoldenTensor(g, "table", "table", Role::kInput);
  TensorData ids = GoldenTensor(g, "ids", "ids", Role::kInput);
  if (table.shape.size() != 2) throw GoldenUnsupported("table is not [V, H]");
  if (ids.dtype != vt::DType::kI32 && ids.dtype != vt::DType::kI64) throw GoldenUnsupported("ids are not i32/i64");
  ids.shape = {ids.Numel()};
  ids.SetContiguous();
  TensorData out = AsRows(GoldenOutputLike(g, "out", "out"));
  Params p("embedding");
  p.Set("table", DTypeKey(table));
  p.Set("ids", DTypeKey(ids));
  p.Set("out", DTypeKey(out));
  p.Set("T", ids.shape[0]);
  p.Set("V", table.shape[0]);
  p.Set("H", table.shape[1]);
  m.c.params = p;
  m.c.tensors = {table, ids, out};
  m.compare = {{"out", "out"}};
  return m;
}

// The inverse of GoldenEmbedding (vt-fuzz --upstream): F.embedding(ids, table).
UpstreamCall UpstreamEmbedding(const Case& c) {
  RequireElements(c, "out");
  if (c.params.Has("fill") && c.params.Str("fill") == "bits") {
    // NaN / inf patterns the oracle mode compares byte for byte; a golden
    // cannot vouch for a non-finite value (the golden checker's rule).
    throw GoldenUnsupported("raw bit patterns (non-finite values a golden cannot vouch for)");
  }
  UpstreamCall u;
  u.op = "embedding";
  u.inputs = {UpstreamInput(c, "table", "table"), UpstreamInput(c, "ids", "ids")};
  u.outputs = {UpstreamOutput(c, "out", "out")};
  return u;
}

}  // namespace
}  // namespace local_embedding

OpSpec Spec_embedding() {
  using namespace local_embedding;
  glue::Mover m{.name = "embedding",
                .dtypes = "cpu: table f32/f16/bf16 [V,H]; ids i32/i64 [T], each in [0,V); out f32/bf16 [T,H]",
                .draw = Draw, .build = Build, .run = Run, .values = Move<double>, .bits = Move<uint64_t>,
                .written = {"out"},
                .from = "table"};
  OpSpec s = glue::MoveSpec(m);
  s.contract = {{entry::Operand("table", entry::kFloatIn, entry::kContiguous, {2}),
                 entry::Operand("ids", {vt::DType::kI32, vt::DType::kI64}, entry::kContiguous, {1}),
                 entry::Written("out", entry::kFloatOut, entry::kContiguous, {2})},
                {}};
  s.values.specials = {{"table"}};
  s.errors = {mut::Dim("out", 1, 1), mut::Dim("out", 0, 1), mut::Dim("table", 1, 1), mut::Dim("ids", 0, 1),
              // Ids outside [0, V): refused before any row is written (H-3).
              glue::StridedIndex("ids"),
              glue::IndexOutOfRange("ids", "table", "V", [](int64_t v) { return v; }),
              glue::IndexOutOfRange("ids", "table", "minus1", [](int64_t) { return -1; }),
              glue::IndexOutOfRange("ids", "table", "int32max", [](int64_t) { return int64_t{2147483647}; }),
              // Valid ids moved by +-2^32 (an i32 ids widened to i64): a check
              // that reads them through int32 would pass them.
              mut::IndexPast32Bits("ids", false, "is outside [0, "),
              mut::IndexPast32Bits("ids", true, "is outside [0, ")};
  s.claims = {RowSlice({"ids", "out"}),
              SameAs("index_select_on_table",
                     "embedding(table, ids) == index_select(table, ids as i32) when table and out share a dtype",
                     SameDType, "index_select", AsIndexSelect, {{"out", "out"}})};
  s.goldens = {{"embedding", GoldenEmbedding}};
  return s;
}

UpstreamMap UpstreamMap_embedding() {
  using namespace local_embedding;
  return {"embedding", "embedding", UpstreamEmbedding};
}

}  // namespace vt::conform
