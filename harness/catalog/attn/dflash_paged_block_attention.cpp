// Catalog entry: dflash_paged_block_attention (each DFlash block query attends
// over its request's paged context - read through the block table - then its
// own block, under the DFlash mask over the combined index).
#include <algorithm>

#include "harness/catalog/attn/attn_entry.h"
#include "harness/catalog/catalog.h"
#include "harness/core/rng.h"
#include "oracles/attn/dflash_paged_block_attention.h"
#include "vt/ops.h"

namespace vt::conform {
namespace local_dflash_paged_block_attention {  // apart in unity batches (harness/CMakeLists.txt)
namespace {

int64_t PagesFor(int64_t len, int64_t bs) { return (len + bs - 1) / bs; }

void Draw(Params& p, Tier tier) {
  const std::vector<int64_t> blocks = *attn_entry::Blocks(tier);
  const int64_t bs = *gen::Pick(std::vector<int64_t>{1, 2, 4, 16});
  std::vector<int64_t> ctx;
  int64_t longest = 0, max_pages = 0, used = 0;
  // Some cases with no context at all (the block-only path) and lengths at
  // and around page boundaries.
  const bool none = *gen::Pick(std::vector<int64_t>{0, 0, 0, 1}) == 1;
  for (int64_t b : blocks) {
    const int64_t c = none ? 0 : *gen::Pick(std::vector<int64_t>{0, 1, bs - 1, bs, bs + 1, 2 * bs + 3, 5});
    ctx.push_back(c);
    longest = std::max(longest, c + b);
    max_pages = std::max(max_pages, PagesFor(c, bs));
    used += PagesFor(c, bs);
  }
  p.Set("blocks", blocks);
  p.Set("reqs", static_cast<int64_t>(blocks.size()));
  p.Set("ctx", ctx);
  p.Set("bs", bs);
  p.Set("max_pages", max_pages + *gen::Pick(std::vector<int64_t>{0, 1}));
  p.Set("pages", used + *gen::Pick(std::vector<int64_t>{0, 2}));  // spare pages no request reads
  attn_entry::DrawHeads(p, tier, longest);
  p.Set("causal", *gen::Pick(std::vector<int64_t>{0, 1}));
  p.Set("window", *gen::Pick(std::vector<int64_t>{0, 1, 3, 6, 64}));
}

std::vector<int64_t> CtxOf(const Params& p) { return seq::IntList(p, "ctx"); }

// The block table: each request's pages taken in turn from a seed-shuffled
// list of page ids, so consecutive context pages sit anywhere in the cache;
// slots past a request's context hold -1 (never read).
std::vector<int64_t> Table(const Params& p) {
  const int64_t pages = p.Int("pages"), max_pages = p.Int("max_pages"), bs = p.Int("bs");
  std::vector<int64_t> order(static_cast<size_t>(pages));
  for (int64_t k = 0; k < pages; ++k) order[static_cast<size_t>(k)] = k;
  uint64_t state = p.seed ^ HashName("block_table");
  for (int64_t k = pages - 1; k > 0; --k) {
    state = SplitMix64(state);
    std::swap(order[static_cast<size_t>(k)], order[state % static_cast<uint64_t>(k + 1)]);
  }
  const std::vector<int64_t> ctx = CtxOf(p);
  std::vector<int64_t> table(static_cast<size_t>(static_cast<int64_t>(ctx.size()) * max_pages), -1);
  size_t next = 0;
  for (size_t r = 0; r < ctx.size(); ++r) {
    for (int64_t k = 0; k < PagesFor(ctx[r], bs); ++k) table[r * static_cast<size_t>(max_pages) + static_cast<size_t>(k)] = order[next++];
  }
  return table;
}

void Build(Case& c) {
  const Params& p = c.params;
  const std::vector<int64_t> cu = attn_entry::BlockOffsets(p);
  attn_entry::AddQuartet(c, cu.back(), cu.back(), "block_key", "block_value");
  const Fill f = Fill::Normal(0.0, p.Num("mag"));
  const std::vector<int64_t> cache = {p.Int("pages"), p.Int("bs"), p.Int("Hkv"), p.Int("D")};
  c.Input("ctx_key", p.DType("in"), cache, f);
  c.Input("ctx_value", p.DType("in"), cache, f);
  const int64_t reqs = static_cast<int64_t>(cu.size()) - 1;
  seq::AddInts(c, "cu_seqlens", vt::DType::kI32, {reqs + 1}, cu);
  seq::AddInts(c, "seq_lens", vt::DType::kI32, {reqs}, CtxOf(p));
  seq::AddInts(c, "block_table", vt::DType::kI32, {reqs, p.Int("max_pages")}, Table(p));
}

void Run(const vt::ExecContext& ctx, const Workspace& ws) {
  const Params& p = ws.params();
  vt::DFlashPagedBlockAttentionArgs a;
  a.scale = p.F32("scale");
  a.causal = p.Flag("causal");
  a.sliding_window = p.Int("window");
  a.num_reqs = static_cast<int>(p.Int("reqs"));
  // bs_arg: only error cases set it (a block_size argument other than the page height).
  a.block_size = p.Has("bs_arg") ? p.Int("bs_arg") : p.Int("bs");
  vt::DFlashPagedBlockAttention(ctx, ws["out"], ws["query"], ws["block_key"], ws["block_value"], ws["ctx_key"],
                                ws["ctx_value"], ws["cu_seqlens"], ws["seq_lens"], ws["block_table"], a);
}

template <class S>
std::vector<S> Eval(const Case& c) {
  const std::vector<double> ck = entry::Vals(c, "ctx_key"), cv = entry::Vals(c, "ctx_value");
  oracle::PagedContext pc;
  pc.key = &ck;
  pc.value = &cv;
  pc.block_size = c.params.Int("bs");
  pc.lens = seq::Ints(c.Get("seq_lens"));
  pc.table = seq::Ints(c.Get("block_table"));
  pc.max_pages = c.Get("block_table").shape[1];
  return oracle::DFlashPagedBlockAttention<S>(attn_entry::ShapeOf(c, "block_key"), entry::Vals(c, "query"),
                                              entry::Vals(c, "block_key"), entry::Vals(c, "block_value"), pc,
                                              c.params.F32("scale"), seq::Ints(c.Get("cu_seqlens")), c.params.Flag("causal"),
                                              c.params.Int("window"));
}

// Every context empty: dflash_block_attention on the blocks alone, bit for bit.
Claim EmptyContextIsBlock() {
  Claim cl;
  cl.name = "empty_context_is_block";
  cl.statement = "with every seq_lens 0 == dflash_block_attention on the same blocks (same mask, no context)";
  cl.check = [](const OpSpec& op, const Case& c, const vt::ExecContext& ctx) {
    Case z = c;
    TensorData& lens = z.Get("seq_lens");
    seq::SetInts(lens, std::vector<int64_t>(static_cast<size_t>(lens.Numel()), 0));
    MaterializeTensor(lens, c.params.seed);
    z.params.Set("ctx", std::vector<int64_t>(static_cast<size_t>(lens.Numel()), 0));
    const Execution paged = Execute(op, z, ctx);
    Case b;
    b.params = c.params;
    b.params.op = "dflash_block_attention";
    b.tensors = {CopyTensor(c.Get("query"), "query", Role::kInput),
                 CopyTensor(c.Get("block_key"), "key", Role::kInput),
                 CopyTensor(c.Get("block_value"), "value", Role::kInput),
                 CopyTensor(c.Get("out"), "out", Role::kOutput),
                 CopyTensor(c.Get("cu_seqlens"), "cu_seqlens", Role::kInput)};
    const Execution block = Execute(*FindOp("dflash_block_attention"), b, ctx);
    if (!paged.guard_error.empty()) return ClaimOutcome::Violated(paged.guard_error);
    const std::string d = DiffBytes(paged.after.Get("out"), block.after.Get("out"), /*any_nan=*/true);
    return d.empty() ? ClaimOutcome::Holds() : ClaimOutcome::Violated(d);
  };
  return cl;
}

// The cache with its pages moved (page k to position perm[k]) and the block
// table renamed accordingly: the same keys in the same order, so the same bytes.
Case PagesMoved(const Case& c) {
  Case d = c;
  const TensorData& ck = c.Get("ctx_key");
  const int64_t pages = ck.shape[0];
  if (pages == 0) return d;
  const int64_t page_elems = ck.Numel() / pages;
  std::vector<int64_t> perm(static_cast<size_t>(pages));
  for (int64_t k = 0; k < pages; ++k) perm[static_cast<size_t>(k)] = (k * 5 + 3) % pages;
  // (5k + 3) mod pages is a permutation when gcd(5, pages) = 1; otherwise a rotation.
  if (pages % 5 == 0) {
    for (int64_t k = 0; k < pages; ++k) perm[static_cast<size_t>(k)] = (k + 1) % pages;
  }
  for (const char* n : {"ctx_key", "ctx_value"}) {
    const TensorData& t = c.Get(n);
    const std::vector<double> v = t.Values();
    std::vector<double> moved(v.size());
    for (int64_t k = 0; k < pages; ++k) {
      std::copy(v.begin() + k * page_elems, v.begin() + (k + 1) * page_elems,
                moved.begin() + perm[static_cast<size_t>(k)] * page_elems);
    }
    d.Get(n) = TensorFromValues(n, t.dtype, t.shape, Role::kInput, moved);
  }
  std::vector<double> table = c.Get("block_table").Values();
  for (double& id : table) {
    if (id >= 0) id = static_cast<double>(perm[static_cast<size_t>(id)]);
  }
  d.Get("block_table") = TensorFromValues("block_table", vt::DType::kI32, c.Get("block_table").shape, Role::kInput, table);
  return d;
}

// The first request that reads a page, and the table slot of its first page.
int64_t FirstReadSlot(const Case& c) {
  const std::vector<int64_t> lens = seq::Declared(c.Get("seq_lens"));
  const int64_t max_pages = c.Get("block_table").shape[1];
  for (size_t r = 0; r < lens.size(); ++r) {
    if (lens[r] > 0) return static_cast<int64_t>(r) * max_pages;
  }
  return -1;
}

ErrorCase PageId(const std::string& tag, std::function<int64_t(int64_t pages)> id) {
  return seq::EditInts("block_table_" + tag, "block_table", "block_table[",
                       [id](std::vector<int64_t>& v, const Case& c) {
                         const int64_t slot = FirstReadSlot(c);
                         if (slot < 0) return false;
                         v[static_cast<size_t>(slot)] = id(c.Get("ctx_key").shape[0]);
                         return true;
                       });
}

}  // namespace
}  // namespace local_dflash_paged_block_attention

OpSpec Spec_dflash_paged_block_attention() {
  using namespace local_dflash_paged_block_attention;
  using attn_entry::DimsTogether;
  using V = std::vector<int64_t>;
  std::vector<ErrorCase> errors = {
      DimsTogether("block_kv_tokens_plus1", {"block_key", "block_value"}, 0, 1, "block_key"),
      seq::SetArg("block_size_zero", "bs_arg", 0, "block_size"),
      seq::SetArg("block_size_negative", "bs_arg", -4, "block_size"),
      DimsTogether("ctx_heads_plus1", {"ctx_key", "ctx_value"}, 2, 1, "ctx_key"),
      DimsTogether("ctx_head_dim_minus1", {"ctx_key", "ctx_value"}, 3, -1, "ctx_key"),
      // H-1: a page height other than the block_size argument.
      DimsTogether("page_height_not_block_size", {"ctx_key", "ctx_value"}, 1, 1, "page height"),
      mut::Dim("ctx_value", 0, 1),
      mut::Dim("cu_seqlens", 0, 1),
      mut::Dim("seq_lens", 0, -1),
      mut::Dim("block_table", 0, 1),
      // H-1: a context longer than the table can address, or negative.
      seq::EditInts("seq_lens_past_table", "seq_lens", "seq_lens[",
                    [](V& v, const Case& c) {
                      v[0] = c.Get("block_table").shape[1] * c.params.Int("bs") + 1;
                      return true;
                    }),
      seq::EditInts("seq_lens_negative", "seq_lens", "seq_lens[", [](V& v, const Case&) { v[0] = -1; return true; }),
      // H-1: a page id outside the cache (one past, NULL, huge).
      PageId("past_cache", [](int64_t pages) { return pages; }),
      PageId("negative", [](int64_t) { return -1; }),
      PageId("huge", [](int64_t) { return 2147483647; }),
  };
  seq::Append(errors, attn_entry::DFlashErrors("cu_end_past_N"));
  const std::vector<vt::DType> i32 = {vt::DType::kI32};
  return attn_entry::AttnSpec({
      .name = "dflash_paged_block_attention",
      .dtypes = "cpu: query,block_key/value,ctx_key/value f32/f16/bf16 (one dtype); out f32/bf16; metadata i32",
      .hooks = {Draw, Build, Run, Eval<double>, Eval<float>},
      .key = "block_key",
      .value = "block_value",
      .operands = {entry::Operand("ctx_key", entry::kFloatIn, entry::kContiguous, {4}),
                   entry::Operand("ctx_value", entry::kFloatIn, entry::kContiguous, {4}),
                   entry::Operand("cu_seqlens", i32, entry::kContiguous, {1}),
                   entry::Operand("seq_lens", i32, entry::kContiguous, {1}),
                   entry::Operand("block_table", i32, entry::kContiguous, {2})},
      .errors = errors,
      .claims = {EmptyContextIsBlock(),
                 SameAs("pages_moved",
                        "moving the cache's pages and renaming them in the block table gives the same bytes",
                        [](const Params& p) { return p.Int("pages") >= 2; }, "dflash_paged_block_attention",
                        PagesMoved, {{"out", "out"}})},
      .expanded = {"block_key", "block_value", "ctx_key", "ctx_value"},
      .gqa_statement =
          "GQA with Hq/Hkv q-heads per kv-head == MHA on block and context K/V with each kv-head repeated",
  });
}

}  // namespace vt::conform
