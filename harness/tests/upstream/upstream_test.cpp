// vt-fuzz --upstream without the regeneration environment:
// - the round trip of every mapped runner key: drawn case -> to_upstream ->
//   golden folder (upstream's outputs stood in by zeros) -> the adapter ->
//   the same case, over many draws; and that the check notices a broken
//   mapping (an input byte, a knob);
// - the worker client against a stand-in worker (fake_worker.py, plain
//   python3): replies, an error reply, a crash (restart), a time limit.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <iostream>

#include "harness/catalog/catalog.h"
#include "harness/core/rng.h"
#include "harness/golden/golden_io.h"
#include "harness/modes/golden_check.h"
#include "harness/upstream/upstream_check.h"

namespace vt::conform::upstream {
namespace {

namespace fs = std::filesystem;

struct Scratch {
  fs::path dir = fs::temp_directory_path() / ("vt-upstream-test-" + std::to_string(::getpid()));
  Scratch() { fs::create_directories(dir); }
  ~Scratch() { fs::remove_all(dir); }
};

// upstream's reply stood in by zero outputs of the wanted dtypes and shapes
Reply ZeroReply(const UpstreamCall& call) {
  Reply r;
  r.ok = true;
  r.header = {{"status", "ok"}, {"tol", {{"atol", 1e-5}, {"rtol", 1e-5}}}, {"tol_reason", "test"}};
  for (TensorData t : call.outputs) {
    t.storage.assign(static_cast<std::size_t>(t.Numel()) * vt::SizeOf(t.dtype), 0);
    r.outputs.push_back(t);
  }
  return r;
}

// The case `back` the adapter makes of the golden written for `call`.
Case Back(const GoldenAdapter& a, const UpstreamCall& call, const Params& p, const fs::path& dir) {
  fs::remove_all(dir);
  WriteGolden(dir.string(), call, ZeroReply(call), p);
  return a.map(LoadGolden(dir.string())).c;
}

TEST(UpstreamRoundTrip, EveryMappedKeyGivesBackTheDrawnCase) {
  Scratch s;
  int mapped_ops = 0;
  for (const OpSpec& op : Catalog()) {
    const UpstreamMap* m = MapOf(op);
    if (m == nullptr) continue;
    ++mapped_ops;
    const auto [back_op, a] = FindGoldenAdapter(m->runner_key);
    ASSERT_EQ(back_op, &op) << m->runner_key << " is not read back by " << op.name << "'s adapter";
    const rc::Gen<Params> g = op.gen(Tier::kFull);
    int expressed = 0, draws = 0;
    // Up to 1500 draws: some keys express few of them (rope: f32 without a
    // scaling, positions below 4096; causal_conv1d_fwd: an f32 weight, an
    // f32 or no bias, K > 1, unpadded rows - under a tenth; kda_gated_delta_rule:
    // Hk == Hv and Dk == Dv only, ~4%), and each needs its 20.
    for (uint64_t k = 0; k < 1500 && expressed < 40; ++k, ++draws) {
      rc::Random random(SplitMix64(0x7e57 + k) ^ HashName(op.name));
      const Params p = g(random, rc::kNominalSize).value();
      const Case drawn = MakeCase(op, p);
      UpstreamCall call;
      try {
        call = m->to_upstream(drawn);
      } catch (const GoldenUnsupported&) {
        continue;  // the runner key cannot express it: vt-fuzz does not draw it
      }
      ++expressed;
      const Case back = Back(*a, call, p, s.dir / op.name);
      EXPECT_EQ(RoundTripDiff(drawn, back, DrawOnlyKnobs(*m)), "") << op.name << ": " << p.Identity();
    }
    std::cout << "  " << op.name << " <- " << m->runner_key << ": " << expressed << " of " << draws
              << " draws expressed\n";
    EXPECT_GE(expressed, 20) << op.name << ": too few draws the runner key " << m->runner_key << " expresses";
  }
  EXPECT_EQ(mapped_ops, static_cast<int>(UpstreamMaps().size()));  // every map names a catalog op
  EXPECT_GE(mapped_ops, 2);  // rms_norm and mamba2_chunk_scan at least
}

TEST(UpstreamRoundTrip, ABrokenMappingIsNoticed) {
  Scratch s;
  const OpSpec* op = FindOp("rms_norm");
  ASSERT_NE(op, nullptr);
  const UpstreamMap* m = MapOf(*op);
  ASSERT_NE(m, nullptr);
  const GoldenAdapter* a = FindGoldenAdapter(m->runner_key).second;
  // the first drawn case the runner key expresses
  Params p;
  UpstreamCall call;
  Case drawn;
  for (uint64_t k = 0; call.inputs.empty() && k < 100; ++k) {
    rc::Random random(SplitMix64(0xb40c + k));
    p = op->gen(Tier::kFull)(random, rc::kNominalSize).value();
    drawn = MakeCase(*op, p);
    try {
      call = m->to_upstream(drawn);
    } catch (const GoldenUnsupported&) {
    }
  }
  ASSERT_FALSE(call.inputs.empty());
  ASSERT_GT(call.inputs[0].storage.size(), 5u);
  EXPECT_EQ(RoundTripDiff(drawn, Back(*a, call, p, s.dir / "ok"), kDrawOnlyKnobs), "");
  UpstreamCall flipped = call;
  flipped.inputs[0].storage[5] ^= 1;
  EXPECT_NE(RoundTripDiff(drawn, Back(*a, flipped, p, s.dir / "byte"), kDrawOnlyKnobs).find("input x"),
            std::string::npos);
  UpstreamCall eps = call;
  eps.args["eps"] = p.Num("eps") * 2;
  EXPECT_NE(RoundTripDiff(drawn, Back(*a, eps, p, s.dir / "eps"), kDrawOnlyKnobs).find("knob eps"),
            std::string::npos);
}

TEST(UpstreamWorkerClient, RepliesErrorsCrashesAndTimeLimits) {
  Scratch s;
  const std::string script = std::string(VT_SOURCE_DIR) + "/harness/tests/upstream/fake_worker.py";
  Worker w("/usr/bin/python3", script, false, (s.dir / "worker.log").string());
  ASSERT_EQ(w.Start(30), "");
  UpstreamCall echo;
  echo.op = "echo";
  TensorData t;
  t.name = "x";
  t.dtype = vt::DType::kBF16;
  t.fmt = oracle::Fmt::kBF16;
  t.shape = {2, 3};
  t.SetContiguous();
  t.storage = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
  echo.inputs = {t};
  Reply r = w.Call(echo, 30);
  ASSERT_TRUE(r.ok) << r.error;
  ASSERT_EQ(r.outputs.size(), 1u);
  EXPECT_EQ(r.outputs[0].name, "x_out");
  EXPECT_EQ(r.outputs[0].dtype, vt::DType::kBF16);
  EXPECT_EQ(r.outputs[0].storage, t.storage);

  UpstreamCall raise = echo;
  raise.op = "raise";
  r = w.Call(raise, 30);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error, "ValueError: planted");
  EXPECT_TRUE(w.Call(echo, 30).ok);  // the same worker goes on
  EXPECT_EQ(w.restarts(), 0);

  UpstreamCall crash = echo;
  crash.op = "crash";
  r = w.Call(crash, 30);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("crashing on purpose"), std::string::npos) << r.error;
  EXPECT_EQ(r.error.find('\n'), std::string::npos);
  EXPECT_TRUE(w.Call(echo, 30).ok);  // restarted
  EXPECT_EQ(w.restarts(), 1);

  UpstreamCall sleep = echo;
  sleep.op = "sleep";
  r = w.Call(sleep, 1);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("time limit"), std::string::npos) << r.error;
  EXPECT_TRUE(w.Call(echo, 30).ok);
  EXPECT_EQ(w.restarts(), 2);
}

TEST(UpstreamWorkerClient, AWorkerThatCannotServeSaysWhyInOneLine) {
  Scratch s;
  const std::string script = std::string(VT_SOURCE_DIR) + "/harness/tests/upstream/fake_worker.py";
  ::setenv("VT_FAKE_WORKER_FATAL", "1", 1);  // the fatal hello of a worker without its environment
  EXPECT_EQ(Worker("/usr/bin/python3", script, false, (s.dir / "w.log").string()).Start(30), "no environment here");
  ::unsetenv("VT_FAKE_WORKER_FATAL");
  const std::string none = Worker("/nonexistent/python", script, false, (s.dir / "w.log").string()).Start(10);
  EXPECT_NE(none, "");
  EXPECT_EQ(none.find('\n'), std::string::npos);
}

TEST(UpstreamEnvironment, MissingNamesTheSetupCommand) {
  ::setenv("VT_REGEN_VENV", "/nonexistent/venv", 1);
  EXPECT_EQ(RegenVenvDir(), "/nonexistent/venv");
  const std::string why = MissingEnvironment(true);
  EXPECT_NE(why.find("vt-golden regen --setup --with-triton"), std::string::npos) << why;
  ::unsetenv("VT_REGEN_VENV");
}

}  // namespace
}  // namespace vt::conform::upstream
