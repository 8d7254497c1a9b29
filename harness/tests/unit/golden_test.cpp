// Goldens: the recorded upstream captures checked in place; the loader's
// refusals (each names the broken file); variants of the supported manifest
// ops the shared folder does not contain (other ranks, dtypes, gate kinds);
// and the case <-> golden-layout round trip.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "harness/catalog/catalog.h"
#include "harness/modes/golden_check.h"
#include "harness/golden/golden_io.h"
#include "harness/golden/npy.h"
#include "harness/golden/sha256.h"
#include "harness/modes/mode.h"
#include "harness/tests/unit/golden_files.h"

namespace vt::conform {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;
using golden_files::TempDir;
using golden_files::WriteManifest;
using golden_files::WriteTensor;

const fs::path kShared = fs::path(VT_SOURCE_DIR) / ".." / "shared" / "goldens" / "vllm-upstream";

TEST(SharedGoldens, EveryCaseOfACatalogOpPasses) {
  if (!fs::is_directory(kShared)) GTEST_SKIP() << "absent: " << kShared << " (the recorded upstream captures)";
  RunConfig cfg;
  int passed = 0, unsupported = 0;
  for (const std::string& dir : FindGoldenDirs({kShared.string()})) {
    const CaseResult r = CheckGoldenDir(dir, cfg);
    const auto [op, adapter] = FindGoldenAdapter(PeekManifestOp(dir));
    if (op != nullptr) {
      EXPECT_EQ(r.status, Outcome::kPassed) << dir << ": " << r.reason << "\n" << r.detail;
      ++passed;
    } else {
      EXPECT_EQ(r.status, Outcome::kUnsupported) << dir << ": " << r.reason;
      EXPECT_NE(r.reason.find("no catalog op"), std::string::npos) << r.reason;
      ++unsupported;
    }
  }
  RecordProperty("passed", passed);
  RecordProperty("unsupported", unsupported);
  // rmsnorm x4, rmsnorm_gated, l2norm, silu_and_mul are in the catalog today.
  EXPECT_GE(passed, 7);
}

// The project's own regenerated goldens (golden/data, written by vt-golden
// regen from vLLM 0.33 on a CPU): every case whose op the catalog maps passes;
// the others are UNSUPPORTED naming the missing op. They are in the repository,
// so their absence is a failure, not a skip.
TEST(ProjectGoldens, EveryCaseOfACatalogOpPasses) {
  const fs::path data = fs::path(VT_SOURCE_DIR) / "golden" / "data";
  ASSERT_TRUE(fs::is_directory(data)) << data;
  RunConfig cfg;
  int passed = 0, unsupported = 0;
  for (const std::string& dir : FindGoldenDirs({data.string()})) {
    const CaseResult r = CheckGoldenDir(dir, cfg);
    const auto [op, adapter] = FindGoldenAdapter(PeekManifestOp(dir));
    if (op != nullptr) {
      EXPECT_EQ(r.status, Outcome::kPassed) << dir << ": " << r.reason << "\n" << r.detail;
      ++passed;
    } else {
      EXPECT_EQ(r.status, Outcome::kUnsupported) << dir << ": " << r.reason;
      ++unsupported;
    }
  }
  RecordProperty("passed", passed);
  RecordProperty("unsupported", unsupported);
  // Every case in golden/data has a catalog op that maps it (rmsnorm 12,
  // rmsnorm_gated 12, l2norm 4, silu/gelu_and_mul 8, embedding 4, matmul 4,
  // rope 8, long_context_rope 84, moe_router_topk 12, causal_conv1d 4,
  // gdn_prefill/decode 6, dense_attention 2, moe_block 4; NVFP4: scaled_fp4_quant
  // 11, silu_and_mul_fp4_quant 4, silu_mul_fp4_quant 4, sigmoid_gate_fp4_quant 4,
  // matmul_nvfp4_fp4 4; kda_gated_delta_rule 4, kda_chunk_prefill 6,
  // mamba2_chunk_scan 5, mamba2_state_update 4): none may be UNSUPPORTED, and at
  // least that many must pass.
  EXPECT_EQ(unsupported, 0);
  EXPECT_GE(passed, 210);
}

std::vector<double> Ramp(int64_t n, double scale) {
  std::vector<double> v(static_cast<std::size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = scale * std::sin(0.37 * static_cast<double>(i) + 0.1);
  return v;
}

fs::path SmallRmsNorm(const std::string& name) {
  const fs::path d = TempDir(name);
  Json tensors = Json::object();
  WriteTensor(d, tensors, "x", "f32", {4, 16}, Ramp(64, 1.0));
  WriteTensor(d, tensors, "weight", "f32", {16}, Ramp(16, 0.5));
  WriteTensor(d, tensors, "out", "f32", {4, 16}, Ramp(64, 1.0));
  WriteManifest(d, {{"op", "rmsnorm"}, {"args", {{"eps", 1e-6}, {"gemma", false}, {"fused_residual", false}}},
                    {"tensors", tensors}, {"inputs", {"x", "weight"}}, {"outputs", {"out"}},
                    {"tol", {{"atol", 1e-5}, {"rtol", 1e-5}}}});
  return d;
}

// Each refusal must name the broken file and never crash.
void ExpectRefused(const fs::path& dir, const std::string& file, const std::string& problem) {
  try {
    LoadGolden(dir.string());
    FAIL() << "not refused: " << dir << " (" << problem << ")";
  } catch (const GoldenError& e) {
    EXPECT_NE(std::string(e.what()).find(file), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(problem), std::string::npos) << e.what();
  }
  const CaseResult r = CheckGoldenDir(dir.string(), RunConfig{});
  EXPECT_EQ(r.status, Outcome::kFailedError) << r.reason;
  EXPECT_NE(r.reason.find("refused"), std::string::npos) << r.reason;
}

TEST(GoldenLoader, RefusesBrokenCasesNamingTheFile) {
  {
    const fs::path d = SmallRmsNorm("truncated_manifest");
    std::ifstream in(d / "manifest.json");
    const std::string full((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    in.close();
    std::ofstream(d / "manifest.json") << full.substr(0, full.size() / 2);
    ExpectRefused(d, "manifest.json", "malformed JSON");
  }
  {
    const fs::path d = SmallRmsNorm("missing_npy");
    fs::remove(d / "weight.npy");
    ExpectRefused(d, "weight.npy", "missing");
  }
  {
    const fs::path d = SmallRmsNorm("truncated_npy");
    const auto size = fs::file_size(d / "x.npy");
    fs::resize_file(d / "x.npy", size - 3);
    ExpectRefused(d, "x.npy", "truncated");
  }
  {
    const fs::path d = SmallRmsNorm("dtype_mismatch");
    Json m = Json::parse(std::ifstream(d / "manifest.json"));
    m["tensors"]["x"]["dtype"] = "bf16";
    WriteManifest(d, m);
    ExpectRefused(d, "x.npy", "disagrees with the manifest dtype");
  }
  {
    const fs::path d = SmallRmsNorm("shape_mismatch");
    Json m = Json::parse(std::ifstream(d / "manifest.json"));
    m["tensors"]["out"]["shape"] = {16, 4};
    WriteManifest(d, m);
    ExpectRefused(d, "out.npy", "shape disagrees");
  }
  {
    const fs::path d = SmallRmsNorm("unknown_dtype");
    Json m = Json::parse(std::ifstream(d / "manifest.json"));
    m["tensors"]["weight"]["dtype"] = "f8_e5m2";
    WriteManifest(d, m);
    ExpectRefused(d, "manifest.json", "unknown dtype");
  }
  {
    const fs::path d = SmallRmsNorm("checksum");
    Json m = Json::parse(std::ifstream(d / "manifest.json"));
    const NpyArray a = ReadNpy((d / "x.npy").string());
    m["tensors"]["x"]["sha256"] = Sha256Hex(a.data);
    WriteManifest(d, m);
    EXPECT_NO_THROW(LoadGolden(d.string()));
    std::fstream f(d / "x.npy", std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(static_cast<std::streamoff>(fs::file_size(d / "x.npy") - 5));
    f.put('\x7f');
    f.close();
    ExpectRefused(d, "x.npy", "sha256 mismatch");
  }
  {
    const fs::path d = SmallRmsNorm("no_tensors");
    WriteManifest(d, {{"op", "rmsnorm"}});
    ExpectRefused(d, "manifest.json", "tensors");
  }
  {
    const fs::path d = SmallRmsNorm("not_npy");
    std::ofstream(d / "x.npy") << "hello";
    ExpectRefused(d, "x.npy", "not an .npy");
  }
}

// A corrupted byte in a KNOWN upstream case is refused even though its manifest
// carries no sha256: golden/checksums records the data digests.
TEST(GoldenLoader, RefusesACorruptedByteInAKnownCase) {
  if (!fs::is_directory(kShared / "rmsnorm_f32_8x128")) GTEST_SKIP() << "absent: " << kShared;
  const fs::path d = TempDir("known_corrupted");
  fs::copy(kShared / "rmsnorm_f32_8x128", d, fs::copy_options::recursive);
  EXPECT_NO_THROW(LoadGolden(d.string()));
  std::fstream f(d / "weight.npy", std::ios::in | std::ios::out | std::ios::binary);
  f.seekg(200);
  const char c = static_cast<char>(f.get());
  f.seekp(200);
  f.put(static_cast<char>(c ^ 0x10));
  f.close();
  ExpectRefused(d, "weight.npy", "sha256 mismatch");
}

// Variants the shared folder lacks: inputs written, the expected output from
// the op's oracle (double, rounded to the output dtype) - so a pass shows the
// loader, the adapter and the comparison agree, and a perturbed output fails.
struct Variant {
  std::string name, op, out_dtype;
  Json args;
  std::vector<std::tuple<std::string, std::string, std::vector<int64_t>>> inputs;  // name, dtype, shape
  std::vector<int64_t> out_shape;
  std::string expect;  // "pass" or "unsupported"
  std::string extra_output = "";  // a second output with an input's dtype and shape (e.g. residual_out)
  std::string extra_like = "";    // ... of this input
};

fs::path WriteVariant(const Variant& v, double perturb) {
  const fs::path d = TempDir(v.name);
  Json tensors = Json::object(), inputs = Json::array();
  double scale = 1.0;
  for (const auto& [name, dtype, shape] : v.inputs) {
    int64_t n = 1;
    for (int64_t s : shape) n *= s;
    std::vector<double> values = Ramp(n, name == "weight" ? 0.5 : scale + 0.5);
    // A gate of mostly positive values: silu/swish of a gate near or below 0
    // makes outputs far below the bf16 atol 8e-3, and a golden whose
    // tolerance is wider than most of its signal is MISTRUSTED, not passed.
    if (name == "gate") {
      for (double& g : values) g += 1.5;
    }
    WriteTensor(d, tensors, name, dtype, shape, values);
    inputs.push_back(name);
    scale += 0.25;
  }
  int64_t n = 1;
  for (int64_t s : v.out_shape) n *= s;
  WriteTensor(d, tensors, "out", v.out_dtype, v.out_shape, std::vector<double>(static_cast<std::size_t>(n), 0.0));
  Json outputs = {"out"};
  if (!v.extra_output.empty()) {
    const Json& like = tensors[v.extra_like];
    const std::vector<int64_t> shape = like["shape"].get<std::vector<int64_t>>();
    int64_t m = 1;
    for (int64_t s : shape) m *= s;
    WriteTensor(d, tensors, v.extra_output, like["dtype"].get<std::string>(), shape,
                std::vector<double>(static_cast<std::size_t>(m), 0.0));
    outputs.push_back(v.extra_output);
  }
  // The recorded captures' own scales: 8e-3 for bf16 outputs, 1e-5 for f32;
  // 2e-3 for f16 (its rounding is 2^-11 relative).
  const double tol = v.out_dtype == "bf16" ? 8e-3 : v.out_dtype == "f16" ? 2e-3 : 1e-5;
  Json m = {{"op", v.op}, {"args", v.args}, {"tensors", tensors}, {"inputs", inputs}, {"outputs", outputs},
            {"tol", {{"atol", tol}, {"rtol", tol}}}};
  WriteManifest(d, m);
  if (v.expect != "pass") return d;
  // Fill each expected output from the oracle of the op the adapter maps to.
  const GoldenCase g = LoadGolden(d.string());
  const auto [op, adapter] = FindGoldenAdapter(v.op);
  const GoldenMapping map = adapter->map(g);
  const OpSpec* run = map.run_op.empty() ? op : FindOp(map.run_op);
  const OracleResult want = run->oracle(map.c);
  for (const auto& [case_name, golden_name] : map.compare) {
    std::vector<double> out = want.at(case_name).v;
    for (double& x : out) x = oracle::RoundReal(g.Get(golden_name).fmt, x * (1.0 + perturb));
    const Json& spec = tensors[golden_name];
    WriteTensor(d, tensors, golden_name, spec["dtype"].get<std::string>(), spec["shape"].get<std::vector<int64_t>>(), out);
  }
  m["tensors"] = tensors;
  WriteManifest(d, m);
  return d;
}

// Per-output tolerances in a manifest's args (PerOutputTol): applied as a
// tighter tolerance on that output only, never looser than the manifest's.
TEST(GoldenAdapters, PerOutputToleranceIsTighterNeverLooser) {
  const fs::path src = fs::path(VT_SOURCE_DIR) / "golden" / "data" / "mamba2_state_update_indexed_f32_small";
  ASSERT_TRUE(fs::is_directory(src)) << src;
  RunConfig cfg;
  auto with_args = [&](const std::string& name, const Json& extra) {
    const fs::path d = TempDir(name) / "case";
    fs::copy(src, d, fs::copy_options::recursive);
    Json man = Json::parse(std::ifstream(d / "manifest.json"));
    for (const auto& [k, v] : extra.items()) man["args"][k] = v;
    std::ofstream(d / "manifest.json") << man.dump(1);
    return CheckGoldenDir(d.string(), cfg);
  };
  const CaseResult as_is = with_args("as_is", Json::object());
  EXPECT_EQ(as_is.status, Outcome::kPassed) << as_is.reason;
  EXPECT_NE(as_is.tolerance.find("tighter than the manifest's"), std::string::npos) << as_is.tolerance;
  // state_out differs from ours by ~5e-7: an atol of 1e-12 there refuses it,
  // and names the tighter tolerance.
  const CaseResult tight = with_args("tight", {{"atol_state_out", 1e-12}});
  EXPECT_EQ(tight.status, Outcome::kFailedIncorrect) << tight.reason;
  EXPECT_NE(tight.reason.find("state_out"), std::string::npos) << tight.reason;
  EXPECT_NE(tight.reason.find("tighter"), std::string::npos) << tight.reason;
  // Above the manifest's atol: refused, never used.
  const CaseResult loose = with_args("loose", {{"atol_out", 1.0}});
  EXPECT_EQ(loose.status, Outcome::kFailedError) << loose.reason;
  EXPECT_NE(loose.reason.find("atol_/rtol_out"), std::string::npos) << loose.reason;
}

TEST(GoldenAdapters, VariantsBeyondTheRecordedCases) {
  const std::vector<Variant> variants = {
      {"rms_bf16_gemma_rank3", "rmsnorm", "bf16", {{"eps", 1e-5}, {"gemma", true}, {"fused_residual", false}},
       {{"x", "bf16", {2, 3, 64}}, {"weight", "bf16", {64}}}, {2, 3, 64}, "pass"},
      {"rms_fused_bf16", "rmsnorm", "f32", {{"eps", 1e-6}, {"gemma", false}, {"fused_residual", true}},
       {{"x", "bf16", {5, 48}}, {"weight", "f32", {48}}, {"residual_in", "bf16", {5, 48}}}, {5, 48}, "pass",
       "residual_out", "residual_in"},
      {"gated_sigmoid_rank3", "rmsnorm_gated", "f32",
       {{"eps", 1e-6}, {"norm_before_gate", true}, {"activation", "sigmoid"}, {"group_size", nullptr}},
       {{"x", "f32", {3, 4, 32}}, {"gate", "f32", {3, 4, 32}}, {"weight", "f32", {32}}}, {3, 4, 32}, "pass"},
      {"gated_bf16_swish", "rmsnorm_gated", "bf16",
       {{"eps", 1e-6}, {"norm_before_gate", true}, {"activation", "swish"}, {"group_size", nullptr}},
       {{"x", "bf16", {6, 40}}, {"gate", "bf16", {6, 40}}, {"weight", "bf16", {40}}}, {6, 40}, "pass"},
      {"gated_gate_first_groups", "rmsnorm_gated", "f32",
       {{"eps", 1e-5}, {"norm_before_gate", false}, {"activation", "silu"}, {"group_size", 16}},
       {{"x", "f32", {4, 64}}, {"gate", "f32", {4, 64}}, {"weight", "f32", {64}}}, {4, 64}, "pass"},
      {"rms_f16_in_f16_out", "rmsnorm", "f16", {{"eps", 1e-6}, {"gemma", false}, {"fused_residual", false}},
       {{"x", "f16", {4, 64}}, {"weight", "f16", {64}}}, {4, 64}, "pass"},
      {"rms_fused_f16_residual", "rmsnorm", "f16", {{"eps", 1e-6}, {"gemma", false}, {"fused_residual", true}},
       {{"x", "f16", {4, 64}}, {"weight", "f16", {64}}, {"residual_in", "f16", {4, 64}}}, {4, 64}, "unsupported",
       "residual_out", "residual_in"},
      {"l2_bf16_rank3", "l2norm", "bf16", {{"eps", 1e-6}}, {{"x", "bf16", {3, 5, 24}}}, {3, 5, 24}, "pass"},
      {"silu_f32_rank3", "silu_and_mul", "f32", Json::object(), {{"x", "f32", {2, 3, 96}}}, {2, 3, 48}, "pass"},
      {"gelu_tanh", "gelu_and_mul", "f32", {{"approximate", "tanh"}}, {{"x", "f32", {4, 64}}}, {4, 32}, "pass"},
      {"gelu_erf", "gelu_and_mul", "f32", {{"approximate", "none"}}, {{"x", "f32", {4, 64}}}, {4, 32}, "unsupported"},
      {"gated_tanh_act", "rmsnorm_gated", "f32", {{"activation", "tanh"}},
       {{"x", "f32", {2, 8}}, {"gate", "f32", {2, 8}}, {"weight", "f32", {8}}}, {2, 8}, "unsupported"},
  };
  for (const Variant& v : variants) {
    const CaseResult ok = CheckGoldenDir(WriteVariant(v, 0.0).string(), RunConfig{});
    if (v.expect == "unsupported") {
      EXPECT_EQ(ok.status, Outcome::kUnsupported) << v.name << ": " << ok.reason;
      continue;
    }
    EXPECT_EQ(ok.status, Outcome::kPassed) << v.name << ": " << ok.reason << "\n" << ok.detail;
    // 5% off must fail under either manifest tolerance.
    const CaseResult bad = CheckGoldenDir(WriteVariant(v, 0.05).string(), RunConfig{});
    EXPECT_EQ(bad.status, Outcome::kFailedIncorrect) << v.name << " perturbed: " << bad.reason;
  }
  // A manifest op no catalog entry maps is UNSUPPORTED with the reason.
  const fs::path d = SmallRmsNorm("no_adapter");
  Json m = Json::parse(std::ifstream(d / "manifest.json"));
  m["op"] = "paged_attention";
  WriteManifest(d, m);
  const CaseResult none = CheckGoldenDir(d.string(), RunConfig{});
  EXPECT_EQ(none.status, Outcome::kUnsupported);
  EXPECT_NE(none.reason.find("paged_attention"), std::string::npos) << none.reason;
}

// An NVFP4 golden in vt-golden regen's format (docs/goldens.md, "NVFP4
// goldens"): one group, amax 6 and gsi 1, so the scale is e4m3(1.0) and the
// codes are the e2m1 values themselves (ties 0.25 -> 0, 0.75 -> 1, 1.25 -> 1,
// 1.75 -> 2, 2.5 -> 2, 3.5 -> 4, 5 -> 4). The reference's -0 nibbles (0x8)
// pass as +0 and are counted; a one-code slip fails.
fs::path SmallFp4(const std::string& name, const std::vector<double>& packed) {
  const fs::path d = TempDir(name);
  Json tensors = Json::object();
  WriteTensor(d, tensors, "x", "f32", {1, 16},
              {6, -0.1, 0.25, 0.75, 1.25, 1.75, 2.5, 3.5, 5, -6, 0, -0.2, 1.5, -3, 4, 0.5});
  WriteTensor(d, tensors, "out_packed", "u8", {1, 8}, packed);
  WriteTensor(d, tensors, "out_scale", "fp8_e4m3", {1, 1}, {1.0});
  WriteManifest(d, {{"op", "scaled_fp4_quant"}, {"args", {{"gsi", 1.0}, {"scale_layout", "linear"}, {"block_size", 16}}},
                    {"tensors", tensors}, {"inputs", {"x"}}, {"outputs", {"out_packed", "out_scale"}},
                    {"tol", {{"atol", 0.0}, {"rtol", 0.0}}}});
  return d;
}

TEST(GoldenAdapters, Fp4CodesExactAndMinusZeroCanonicalised) {
  const std::vector<double> ref = {0x87, 0x20, 0x42, 0x64, 0xF6, 0x80, 0xD3, 0x16};
  CaseResult r = CheckGoldenDir(SmallFp4("fp4_ok", ref).string(), RunConfig{});
  EXPECT_EQ(r.status, Outcome::kPassed) << r.reason << "\n" << r.detail;
  EXPECT_NE(r.detail.find("2 of 16 codes are the reference's -0"), std::string::npos) << r.detail;
  std::vector<double> slip = ref;
  slip[1] = 0x30;  // 0.75 coded as 1.5
  r = CheckGoldenDir(SmallFp4("fp4_slip", slip).string(), RunConfig{});
  EXPECT_EQ(r.status, Outcome::kFailedIncorrect) << r.reason;
  EXPECT_NE(r.reason.find("out_packed"), std::string::npos) << r.reason;
}

TEST(GoldenLayout, CaseRoundTripForEveryOp) {
  RunConfig cfg;
  int cases = 0;
  for (const OpSpec& op : Catalog()) {
    for (const Params& p : TierCases(op, cfg, 6)) {
      const Case c = MakeCase(op, p);
      const fs::path d = TempDir("roundtrip_" + op.name + "_" + std::to_string(cases++));
      SaveCase(c, d.string());
      const Case back = LoadCase(d.string());
      EXPECT_EQ(back.params, c.params) << p.Identity();
      ASSERT_EQ(back.tensors.size(), c.tensors.size()) << p.Identity();
      for (std::size_t i = 0; i < c.tensors.size(); ++i) {
        const TensorData& a = c.tensors[i];
        const TensorData& b = back.tensors[i];
        EXPECT_EQ(a.name, b.name);
        EXPECT_EQ(a.dtype, b.dtype) << a.name;
        EXPECT_EQ(a.fmt, b.fmt) << a.name;
        EXPECT_EQ(a.shape, b.shape) << a.name;
        EXPECT_EQ(a.strides, b.strides) << a.name;
        EXPECT_EQ(a.kn_repacked, b.kn_repacked) << a.name;
        EXPECT_EQ(a.role, b.role) << a.name;
        EXPECT_EQ(a.storage, b.storage) << p.Identity() << " " << a.name << " (gaps included)";
      }
    }
  }
  EXPECT_GT(cases, 50);
}

}  // namespace
}  // namespace vt::conform
