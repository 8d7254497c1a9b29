#include "harness/catalog/glue/glue_entry.h"

#include <cstring>

#include <algorithm>
#include <numeric>

#include "harness/core/rng.h"
#include "oracles/glue/moves.h"

namespace vt::conform::glue {

std::vector<uint64_t> Bits(const TensorData& t) {
  const std::size_t es = vt::SizeOf(t.dtype);
  const auto bytes = t.LogicalBytes();
  std::vector<uint64_t> out(bytes.size() / es, 0);
  for (std::size_t k = 0; k < out.size(); ++k) std::memcpy(&out[k], bytes.data() + k * es, es);  // little endian
  return out;
}

TensorData FromBits(const std::string& name, vt::DType dtype, std::vector<int64_t> shape,
                    const std::vector<uint64_t>& bits) {
  TensorData t;
  t.name = name;
  t.dtype = dtype;
  t.shape = std::move(shape);
  t.role = Role::kOutput;
  t.fmt = vt::IsFloat(dtype) ? oracle::FmtOf(dtype) : oracle::Fmt::kF32;
  t.SetContiguous();
  const std::size_t es = vt::SizeOf(dtype);
  t.storage.assign(bits.size() * es, 0);
  for (std::size_t k = 0; k < bits.size(); ++k) std::memcpy(t.storage.data() + k * es, &bits[k], es);
  return t;
}

std::vector<uint64_t> ThroughF32(vt::DType from, vt::DType to, const std::vector<uint64_t>& bits) {
  const oracle::Fmt f = oracle::FmtOf(from), g = oracle::FmtOf(to);
  std::vector<uint64_t> out;
  out.reserve(bits.size());
  for (uint64_t b : bits) out.push_back(oracle::ThroughF32Bits(f, g, static_cast<uint32_t>(b)));
  return out;
}

rc::Gen<std::string> FillKnob() { return gen::Pick(std::vector<std::string>{"normal", "normal", "bits"}); }

// One float element in 8 gets the all-ones exponent (inf / NaN payloads).
Fill InputFill(const Params& p) { return p.Str("fill") == "bits" ? Fill::Bits(0.125) : entry::Values(p); }

Expected ExactValues(const std::vector<double>& v) {
  Expected e;
  e.v = v;
  e.e.assign(v.size(), 0.0);
  return e;
}

rc::Gen<int64_t> HeadDim(Tier t) {
  if (t == Tier::kSmoke) return gen::Pick(std::vector<int64_t>{1, 4, 17});
  return gen::Pick(std::vector<int64_t>{1, 2, 3, 7, 8, 16, 17, 32, 33, 64, 127, 128, 129, 256});
}

std::vector<int64_t> DrawIndices(uint64_t seed, const std::string& name, int64_t m, int64_t n,
                                 const std::string& kind) {
  const uint64_t stream = HashName(name);
  std::vector<int64_t> v;
  if (n <= 0 || m <= 0) return v;
  if (kind == "distinct") {
    std::vector<int64_t> all(static_cast<std::size_t>(n));
    std::iota(all.begin(), all.end(), 0);
    // Edges first, then a seed-driven Fisher-Yates over the rest.
    if (n > 1) std::swap(all[0], all[static_cast<std::size_t>(n - 1)]);
    for (int64_t i = std::min<int64_t>(2, n); i < n; ++i) {
      const int64_t j = i + static_cast<int64_t>(StreamValue(seed, stream, static_cast<uint64_t>(i)) %
                                                 static_cast<uint64_t>(n - i));
      std::swap(all[static_cast<std::size_t>(i)], all[static_cast<std::size_t>(j)]);
    }
    all.resize(static_cast<std::size_t>(std::min(m, n)));
    // Not sorted: a seed-derived rotation so the edges are not always first.
    const auto r = static_cast<std::ptrdiff_t>(StreamValue(seed, stream, 0) % all.size());
    std::rotate(all.begin(), all.begin() + r, all.end());
    return all;
  }
  for (int64_t k = 0; k < m; ++k) {
    if (k == 0) {
      v.push_back(n - 1);
    } else if (k == 1) {
      v.push_back(0);
    } else {
      v.push_back(static_cast<int64_t>(StreamValue(seed, stream, static_cast<uint64_t>(k)) % static_cast<uint64_t>(n)));
    }
  }
  return v;
}

void SetIndices(TensorData& t, const std::vector<int64_t>& values) { seq::SetInts(t, values); }

std::vector<int64_t> Indices(const TensorData& t) {
  std::vector<int64_t> v;
  for (double x : t.Values()) v.push_back(static_cast<int64_t>(x));
  return v;
}

ErrorCase StridedIndex(const std::string& tensor) {
  ErrorCase e = mut::InnerStride(tensor);
  e.expect = "contiguous";
  return e;
}

ErrorCase IndexOutOfRange(const std::string& tensor, const std::string& target, const std::string& tag,
                          std::function<int64_t(int64_t)> value) {
  return {tensor + "_out_of_range_" + tag,
          [=](Case& c) {
            TensorData& t = c.Get(tensor);
            const int64_t m = t.Numel();
            if (m == 0) return false;
            const int64_t n = c.Get(target).shape[0];
            auto v = seq::Declared(t);
            const auto k = static_cast<std::size_t>(SplitMix64(c.params.seed ^ HashName(tag)) %
                                                    static_cast<uint64_t>(m));
            v[k] = value(n);
            SetIndices(t, v);
            return true;
          },
          tensor};
}

OpSpec MoveSpec(const Mover& m) {
  OpSpec s = seq::Basics(m.name, m.family, m.dtypes, seq::Then(m.draw, [](Params& p, Tier) {
                           p.Set("scale", *gen::Scale());
                           p.Set("fill", *FillKnob());
                         }), m.build, m.run);
  const Move<double> values = m.values;
  s.oracle = [values](const Case& c) {
    OracleResult r;
    for (auto& [name, v] : values(c, [](const TensorData& t) { return t.Values(); })) r[name] = ExactValues(v);
    return r;
  };
  const Move<uint64_t> bits = m.bits;
  const std::vector<std::string> written = m.written;
  const std::string from = m.from;
  s.oracle_bytes = [bits, written, from](const Case& c) {
    auto moved = bits(c, [](const TensorData& t) { return Bits(t); });
    std::vector<TensorData> out;
    for (const std::string& name : written) {
      const TensorData& o = c.Get(name);
      const std::vector<uint64_t>& b = moved.at(name);
      out.push_back(FromBits(name, o.dtype, o.shape, from.empty() ? b : ThroughF32(c.Get(from).dtype, o.dtype, b)));
    }
    return out;
  };
  std::vector<OutputSpec> rules;
  for (const std::string& name : written) rules.push_back({name, Exact(m.reason)});
  s.outputs = [rules](const Case&) { return rules; };
  return s;
}

int64_t PartWidth(const Case& c, const std::string& input, const std::string& part) {
  return c.Get(part).Numel() / c.Get(input).shape[0];
}

ErrorCase PartCountNotMultiple(const std::string& input, const std::string& part) {
  return {part + "_count_not_multiple_of_T",
          [input, part](Case& c) {
            if (c.Get(input).shape[0] < 2) return false;
            TensorData& o = c.Get(part);
            o.shape = {o.Numel() + 1};
            o.SetContiguous();
            return true;
          },
          part};
}

OpSpec SplitSpec(Mover m, const std::string& input, std::vector<ErrorCase> errors) {
  m.written.assign(std::begin(kSplitParts), std::end(kSplitParts));
  m.from = input;
  OpSpec s = MoveSpec(m);
  s.contract.operands = {entry::Operand(input, entry::kF32BF16, entry::kContiguous, {2})};
  for (const char* part : kSplitParts) {
    s.contract.operands.push_back(entry::Written(part, entry::kF32BF16, entry::kAnyShape));
  }
  s.values.specials = {{input}};
  // The width against the parts' counts, either way; T = 0 (the widths,
  // counts / T, are undefined).
  s.errors = {mut::Dim(input, 1, 1), mut::Dim(input, 1, -1),
              {input + "_no_rows",
               [input](Case& c) {
                 c.Get(input).shape[0] = 0;
                 c.Get(input).SetContiguous();
                 return true;
               },
               "T > 0"}};
  seq::Append(s.errors, std::move(errors));
  s.claims = {RowSlice({input, "q_out", "k_out", "v_out"})};
  return s;
}

}  // namespace vt::conform::glue
