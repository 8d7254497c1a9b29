// Params: what identifies a generated case - the op, its ordered arguments
// (dtypes, extents, flags, layout and value knobs) and the seed its tensor
// contents derive from. One canonical identity string names the test, the
// filter, the report row and the repro command, and parses back to Params:
//   rms_norm(x=bf16,w=f32,out=bf16,T=7,H=4096,gemma=1,residual=bf16,seed=0x5eed01)
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>

#include <nlohmann/json.hpp>

#include "vt/dtype.h"

namespace vt::conform {

using Json = nlohmann::ordered_json;

struct Params {
  std::string op;
  Json args = Json::object();  // scalars (int, double, string) or arrays of them
  uint64_t seed = 0;

  Params() = default;
  explicit Params(std::string op_name) : op(std::move(op_name)) {}

  Params& Set(const std::string& key, Json value);
  bool Has(const std::string& key) const { return args.contains(key); }
  int64_t Int(const std::string& key) const;
  double Num(const std::string& key) const;
  float F32(const std::string& key) const { return static_cast<float>(Num(key)); }
  bool Flag(const std::string& key) const { return Int(key) != 0; }
  std::string Str(const std::string& key) const;
  vt::DType DType(const std::string& key) const;

  std::string Identity() const;
  // Inverse of Identity(). Throws std::invalid_argument naming the problem.
  static Params FromIdentity(const std::string& id);

  bool operator==(const Params& o) const { return op == o.op && args == o.args && seed == o.seed; }
};

// Printed by RapidCheck for counterexamples.
void showValue(const Params& p, std::ostream& os);

}  // namespace vt::conform
