// harness/core/workspace: guarded buffers, gap checks, snapshots, aliasing and
// null views; every catalog case binds every tensor as its spec says.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "harness/catalog/catalog.h"
#include "harness/core/workspace.h"
#include "harness/modes/mode.h"

namespace vt::conform {
namespace {

// memcmp wants valid pointers even for zero bytes (UBSan flags a null one), and
// an empty tensor's storage has none: zero bytes are equal by definition.
bool SameBytes(const void* got, const std::vector<uint8_t>& want) {
  return want.empty() || (got != nullptr && std::memcmp(got, want.data(), want.size()) == 0);
}

// x: f32 [3,4] contiguous; g: bf16 [3,4] with 2 elements of row padding; y: f32 [5].
Case SmallCase() {
  Case c;
  c.params = Params("ws");
  c.params.seed = 42;
  c.Input("x", vt::DType::kF32, {3, 4}, Fill::Normal(0, 1));
  c.Input("g", vt::DType::kBF16, {3, 4}, Fill::Normal(0, 1)).SetRowPadding(2);
  c.Output("y", vt::DType::kF32, {5});
  Materialize(c);
  return c;
}

uint8_t* Data(const Workspace& ws, const std::string& name) { return static_cast<uint8_t*>(ws[name].data); }

TEST(Workspace, IntactAfterWritesInsideTheViews) {
  const Case c = SmallCase();
  Workspace ws(c);
  EXPECT_EQ(ws.CheckGuards(), "");
  EXPECT_EQ(ws.CheckGaps(), "");
  std::memset(Data(ws, "x"), 0x11, 12 * 4);  // every byte of x
  std::memset(Data(ws, "y"), 0x22, 5 * 4);
  // g's logical elements only: rows start every 6 elements.
  for (int r = 0; r < 3; ++r) std::memset(Data(ws, "g") + r * 6 * 2, 0x33, 4 * 2);
  EXPECT_EQ(ws.CheckGuards(), "");
  EXPECT_EQ(ws.CheckGaps(), "");
}

TEST(Workspace, WriteOneBytePastTheStorageIsCaught) {
  const Case c = SmallCase();
  Workspace ws(c);
  Data(ws, "y")[5 * 4] ^= 0xFF;
  const std::string msg = ws.CheckGuards();
  EXPECT_NE(msg.find("y"), std::string::npos) << msg;
  EXPECT_NE(msg.find("after"), std::string::npos) << msg;
  EXPECT_EQ(msg.find("before"), std::string::npos) << msg;
}

TEST(Workspace, WriteOneByteBeforeTheStorageIsCaught) {
  const Case c = SmallCase();
  Workspace ws(c);
  Data(ws, "x")[-1] = 0;
  const std::string msg = ws.CheckGuards();
  EXPECT_NE(msg.find("x"), std::string::npos) << msg;
  EXPECT_NE(msg.find("before"), std::string::npos) << msg;
}

TEST(Workspace, FarWritesInsideTheGuardAreCaughtToo) {
  const Case c = SmallCase();
  {
    Workspace ws(c);
    Data(ws, "x")[12 * 4 + Workspace::kGuardBytes - 1] = 0;  // last guard byte after
    EXPECT_NE(ws.CheckGuards().find("after"), std::string::npos);
  }
  {
    Workspace ws(c);
    Data(ws, "g")[-static_cast<std::ptrdiff_t>(Workspace::kGuardBytes)] = 0;  // first guard byte before
    EXPECT_NE(ws.CheckGuards().find("g"), std::string::npos);
  }
}

TEST(Workspace, WriteIntoAStridedGapIsCaught) {
  const Case c = SmallCase();
  Workspace ws(c);
  // g row 0 covers elements 0..3; elements 4 and 5 are the gap.
  Data(ws, "g")[4 * 2 + 1] ^= 0x01;
  EXPECT_EQ(ws.CheckGuards(), "");
  const std::string msg = ws.CheckGaps();
  EXPECT_NE(msg.find("g"), std::string::npos) << msg;
  EXPECT_NE(msg.find("gap byte 9"), std::string::npos) << msg;
}

TEST(Workspace, SnapshotReflectsWritesAndKeepsTheSpecs) {
  const Case c = SmallCase();
  Workspace ws(c);
  const float v = 3.5f;
  std::memcpy(Data(ws, "y") + 2 * 4, &v, 4);
  const Case after = ws.Snapshot();
  EXPECT_EQ(after.params, c.params);
  ASSERT_EQ(after.tensors.size(), c.tensors.size());
  EXPECT_EQ(after.Get("y").Values()[2], 3.5);
  EXPECT_TRUE(std::isnan(after.Get("y").Values()[1]));  // the poisoned rest is untouched
  EXPECT_EQ(after.Get("x").storage, c.Get("x").storage);
  EXPECT_EQ(after.Get("g").strides, c.Get("g").strides);
  EXPECT_EQ(after.Get("g").storage, c.Get("g").storage);
  // The case itself is not touched by a run.
  EXPECT_TRUE(std::isnan(c.Get("y").Values()[2]));
}

TEST(Workspace, ViewsMatchTheSpecs) {
  const Case c = SmallCase();
  Workspace ws(c);
  for (const TensorData& t : c.tensors) {
    const vt::Tensor& v = ws[t.name];
    EXPECT_EQ(v.dtype, t.dtype);
    EXPECT_EQ(v.rank, static_cast<int>(t.shape.size()));
    for (std::size_t d = 0; d < t.shape.size(); ++d) {
      EXPECT_EQ(v.shape[d], t.shape[d]);
      EXPECT_EQ(v.stride[d], t.strides[d]);
    }
    EXPECT_TRUE(SameBytes(v.data, t.storage)) << t.name;
  }
  EXPECT_EQ(ws.Find("nope"), nullptr);
  EXPECT_THROW(ws["nope"], std::out_of_range);
  EXPECT_EQ(ws.params(), c.params);
}

TEST(Workspace, AliasBindsOntoAnotherTensorsStorage) {
  Case c = SmallCase();
  c.Get("y").alias_of = "x";
  c.Get("y").alias_offset = 3;
  Workspace ws(c);
  EXPECT_EQ(Data(ws, "y"), Data(ws, "x") + 3 * 4);
  // A write through the alias lands in x.
  const float v = -9.0f;
  std::memcpy(Data(ws, "y"), &v, 4);
  EXPECT_EQ(ws.Snapshot().Get("x").Values()[3], -9.0);
  c.Get("y").alias_of = "missing";
  EXPECT_THROW({ Workspace bad(c); }, std::out_of_range);
}

TEST(Workspace, NullDataBindsANullPointer) {
  Case c = SmallCase();
  c.Get("x").null_data = true;
  c.Get("y").device = vt::DeviceType::kCUDA;
  Workspace ws(c);
  EXPECT_EQ(ws["x"].data, nullptr);
  EXPECT_EQ(ws["x"].shape[1], 4);
  EXPECT_NE(ws["g"].data, nullptr);
  EXPECT_EQ(ws["y"].device.type, vt::DeviceType::kCUDA);
  EXPECT_EQ(ws.CheckGuards(), "");
}

uintptr_t Address(const Workspace& ws, const std::string& name) { return reinterpret_cast<uintptr_t>(ws[name].data); }

// u8 [3], f32 [2], bf16 [3], f32 [1], i64 [1], u8 [1] packed in every order the
// seeds draw: each view starts at the first multiple of its element size at
// or after its predecessor's end (touching wherever the sizes permit).
TEST(Workspace, PackedAlignsEveryOperandAndTouchesWherePossible) {
  for (uint64_t seed = 1; seed <= 64; ++seed) {
    Case c;
    c.params = Params("ws");
    c.params.seed = seed;
    c.params.Set("layout", "packed");
    c.Input("a", vt::DType::kU8, {3}, Fill::Uniform(0, 256));
    c.Input("b", vt::DType::kF32, {2}, Fill::Normal(0, 1));
    c.Input("h", vt::DType::kBF16, {3}, Fill::Normal(0, 1));
    c.Output("y", vt::DType::kF32, {1});
    c.Input("l", vt::DType::kI64, {1}, Fill::Integer(0, 9));
    c.Input("z", vt::DType::kU8, {1}, Fill::Uniform(0, 256));
    Materialize(c);
    Workspace ws(c);
    std::vector<const TensorData*> by_address;
    for (const TensorData& t : c.tensors) by_address.push_back(&t);
    std::sort(by_address.begin(), by_address.end(),
              [&](const TensorData* x, const TensorData* y) { return Address(ws, x->name) < Address(ws, y->name); });
    for (std::size_t i = 0; i < by_address.size(); ++i) {
      const TensorData& t = *by_address[i];
      const uintptr_t es = vt::SizeOf(t.dtype), at = Address(ws, t.name);
      EXPECT_EQ(at % es, 0u) << "seed " << seed << ": " << t.name;
      if (i == 0) continue;
      const TensorData& prev = *by_address[i - 1];
      const uintptr_t prev_end = Address(ws, prev.name) + prev.storage.size();
      EXPECT_EQ(at, (prev_end + es - 1) / es * es) << "seed " << seed << ": " << prev.name << " then " << t.name;
    }
    EXPECT_EQ(ws.CheckGuards(), "");
  }
}

// The error cases' knob: one operand a byte off its alignment in every
// layout, its bytes intact and guarded, every other operand aligned.
TEST(Workspace, MisalignBytesMovesOneOperandOffItsAlignment) {
  for (const char* layout : {"separate", "offset", "packed"}) {
    Case c = SmallCase();
    c.params.Set("layout", layout);
    c.Get("g").misalign_bytes = 1;
    Workspace ws(c);
    EXPECT_EQ(Address(ws, "g") % 2, 1u) << layout;
    EXPECT_EQ(Address(ws, "x") % 4, 0u) << layout;
    EXPECT_EQ(Address(ws, "y") % 4, 0u) << layout;
    EXPECT_TRUE(SameBytes(ws["g"].data, c.Get("g").storage)) << layout;
    EXPECT_EQ(ws.CheckGuards(), "") << layout;
    Data(ws, "g")[-1] ^= 0xFF;  // the skipped byte is a guard
    EXPECT_NE(ws.CheckGuards(), "") << layout;
  }
}

// Every catalog case: each tensor bound with its spec's dtype, shape and
// strides, over its own bytes, on distinct guarded buffers.
TEST(Workspace, BindsEveryTensorOfEveryCatalogCase) {
  RunConfig cfg;
  for (const OpSpec& op : Catalog()) {
    for (const Params& p : TierCases(op, cfg, 8)) {
      const Case c = MakeCase(op, p);
      Workspace ws(c);
      std::vector<std::pair<const uint8_t*, const uint8_t*>> spans;
      for (const TensorData& t : c.tensors) {
        const vt::Tensor* v = ws.Find(t.name);
        ASSERT_NE(v, nullptr) << p.Identity() << " " << t.name;
        EXPECT_EQ(v->dtype, t.dtype) << p.Identity() << " " << t.name;
        ASSERT_EQ(v->rank, static_cast<int>(t.shape.size())) << p.Identity() << " " << t.name;
        for (std::size_t d = 0; d < t.shape.size(); ++d) {
          EXPECT_EQ(v->shape[d], t.shape[d]) << p.Identity() << " " << t.name;
          // An empty view's strides are free ("offset" layout gives it odd ones).
          // A repacked weight is described as the [N,K] view of its [K,N]
          // bytes and bound as the loader hands it over (row-major, flagged).
          if (t.Numel() != 0 && !t.kn_repacked) {
            EXPECT_EQ(v->stride[d], t.strides[d]) << p.Identity() << " " << t.name;
          }
        }
        EXPECT_EQ(v->elem_kn_repacked, t.kn_repacked) << p.Identity() << " " << t.name;
        EXPECT_EQ(v->StorageElems(), t.StorageElems()) << p.Identity() << " " << t.name;
        EXPECT_EQ(t.storage.size(), static_cast<std::size_t>(t.StorageElems()) * vt::SizeOf(t.dtype));
        EXPECT_FALSE(t.null_data) << p.Identity() << ": a valid case with a null operand";
        ASSERT_NE(v->data, nullptr) << p.Identity() << " " << t.name;
        // The alignment contract (kernels/api/check.h): every valid placement keeps it.
        EXPECT_EQ(reinterpret_cast<uintptr_t>(v->data) % vt::SizeOf(t.dtype), 0u) << p.Identity() << " " << t.name;
        const auto* b = static_cast<const uint8_t*>(v->data);
        if (!t.alias_of.empty()) {  // an in-place view onto another operand
          const TensorData& target = c.Get(t.alias_of);
          EXPECT_EQ(b, static_cast<const uint8_t*>(ws[t.alias_of].data) +
                           t.alias_offset * static_cast<int64_t>(vt::SizeOf(target.dtype)));
          continue;
        }
        EXPECT_TRUE(SameBytes(b, t.storage)) << p.Identity() << " " << t.name;
        spans.push_back({b, b + t.storage.size()});
      }
      for (std::size_t i = 0; i < spans.size(); ++i) {
        for (std::size_t j = i + 1; j < spans.size(); ++j) {
          const bool disjoint = spans[i].second <= spans[j].first || spans[j].second <= spans[i].first;
          EXPECT_TRUE(disjoint || spans[i].first == spans[i].second || spans[j].first == spans[j].second)
              << p.Identity() << ": " << c.tensors[i].name << " overlaps " << c.tensors[j].name;
        }
      }
      EXPECT_EQ(ws.CheckGuards(), "");
      EXPECT_EQ(ws.CheckGaps(), "");
    }
  }
}

}  // namespace
}  // namespace vt::conform
