#include "harness/golden/manifest.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "harness/golden/npy.h"
#include "harness/golden/safe_file.h"
#include "harness/golden/sha256.h"

namespace vt::conform {
namespace {

using Json = nlohmann::ordered_json;

void Require(bool ok, const std::string& file, const std::string& problem) {
  if (!ok) throw GoldenError(file, problem);
}

const char* TypeName(const Json& v) { return v.type_name(); }

// A field that must be a string when present.
std::string String(const Json& obj, const char* key, const std::string& file, const std::string& where) {
  const Json& v = obj.at(key);
  Require(v.is_string(), file, where + "'" + key + "' must be a string, not " + TypeName(v));
  return v.get<std::string>();
}

// A non-negative integer that fits int64 (JSON numbers may be unsigned 64-bit
// or floats: 8.0 is not a dimension).
int64_t Extent(const Json& v, const std::string& file, const std::string& where) {
  if (v.is_number_unsigned()) {
    Require(v.get<uint64_t>() <= static_cast<uint64_t>(INT64_MAX), file, where + " is too large for int64");
    return static_cast<int64_t>(v.get<uint64_t>());
  }
  Require(v.is_number_integer() && v.get<int64_t>() >= 0, file, where + " must hold integers >= 0");
  return v.get<int64_t>();
}

std::vector<int64_t> IntList(const Json& v, const std::string& file, const std::string& where, bool signed_ok) {
  constexpr std::size_t kMaxRank = 32;
  Require(v.is_array(), file, where + " must be a list of integers, not " + TypeName(v));
  Require(v.size() <= kMaxRank, file, where + " has more than 32 dimensions");
  std::vector<int64_t> out;
  for (const Json& d : v) {
    if (signed_ok && d.is_number_integer() && !d.is_number_unsigned()) {
      out.push_back(d.get<int64_t>());
    } else {
      out.push_back(Extent(d, file, where));
    }
  }
  return out;
}

std::vector<std::string> NameList(const Json& m, const char* key, const std::set<std::string>& known,
                                  const std::string& file) {
  std::vector<std::string> v;
  if (!m.contains(key)) return v;
  const std::string what = std::string("'") + key + "' must be a list of tensor names";
  Require(m[key].is_array(), file, what);
  for (const Json& n : m[key]) {
    Require(n.is_string(), file, what);
    Require(known.count(n.get<std::string>()) != 0, file,
            std::string("'") + key + "' names unknown tensor '" + n.get<std::string>() + "'");
    v.push_back(n.get<std::string>());
  }
  return v;
}

std::optional<double> Tol(const Json& t, const char* key, const std::string& file) {
  const std::string what = std::string("'tol' ") + key;
  Require(t.contains(key), file, "'tol' must be {\"atol\": number, \"rtol\": number}");
  const Json& v = t[key];
  Require(v.is_number(), file, what + " must be a number, not " + TypeName(v));
  const double x = v.get<double>();
  Require(std::isfinite(x) && x >= 0, file, what + " must be finite and >= 0");
  return x;
}

TensorSpec Tensor(const std::string& name, const Json& spec, const std::string& file) {
  const std::string where = "tensor '" + name + "' ";
  Require(spec.is_object(), file, where + "must be an object, not " + TypeName(spec));
  TensorSpec t;
  t.name = name;
  Require(spec.contains("file"), file, where + "has no 'file'");
  t.file = String(spec, "file", file, where);
  CheckPlainName(t.file, file, where);
  Require(spec.contains("dtype"), file, where + "has no 'dtype'");
  t.dtype_name = String(spec, "dtype", file, where);
  const auto dt = ParseGoldenDType(t.dtype_name);
  Require(dt.has_value(), file, where + "has unknown dtype '" + t.dtype_name + "'");
  t.dtype = *dt;
  Require(spec.contains("shape"), file, where + "has no 'shape' list");
  t.shape = IntList(spec["shape"], file, where + "'shape'", false);
  // Checked: the element count must fit int64 and the byte count too, so no
  // later Numel() or allocation wraps.
  int64_t n = 1, bytes = 0;
  for (int64_t d : t.shape) {
    Require(!__builtin_mul_overflow(n, d, &n), file, where + "shape's element count overflows int64");
  }
  Require(!__builtin_mul_overflow(n, static_cast<int64_t>(NpyItemSize(t.dtype.descrs.front())), &bytes), file,
          where + "shape's byte count overflows int64");
  t.numel = n;
  if (spec.contains("sha256")) t.sha256 = String(spec, "sha256", file, where);
  if (spec.contains("role")) {
    t.role = String(spec, "role", file, where);
    Require(t.role == "input" || t.role == "output" || t.role == "inplace", file,
            where + "role must be input, output or inplace, not '" + t.role + "'");
  }
  if (spec.contains("strides")) {
    t.strides = IntList(spec["strides"], file, where + "'strides'", true);
    Require(t.strides->size() == t.shape.size(), file, where + "strides/shape rank differ");
  }
  return t;
}

// Canonical text: nlohmann::json (not ordered) sorts object keys, and dump()
// writes numbers in the shortest round-trip form, so whitespace, key order and
// "1e-06" vs "0.000001" no longer matter.
std::string CanonicalSha(const Json& m) {
  nlohmann::json c = nlohmann::json::parse(m.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
  for (auto& [name, spec] : c["tensors"].items()) spec.erase("sha256");
  return Sha256Hex(c.dump(-1, ' ', true, nlohmann::json::error_handler_t::replace));
}

}  // namespace

std::optional<GoldenDType> ParseGoldenDType(const std::string& name) {
  using oracle::Fmt;
  if (name == "f32") return GoldenDType{vt::DType::kF32, Fmt::kF32, {"<f4"}};
  if (name == "f16") return GoldenDType{vt::DType::kF16, Fmt::kF16, {"<f2", "<u2"}};  // raw uint16 bits too (upstream-oracles 2.1)
  if (name == "bf16") return GoldenDType{vt::DType::kBF16, Fmt::kBF16, {"<u2"}};
  if (name == "i32") return GoldenDType{vt::DType::kI32, Fmt::kF32, {"<i4"}};
  if (name == "i64") return GoldenDType{vt::DType::kI64, Fmt::kF32, {"<i8"}};
  if (name == "i8") return GoldenDType{vt::DType::kI8, Fmt::kF32, {"|i1", "<i1"}};
  if (name == "u8") return GoldenDType{vt::DType::kU8, Fmt::kF32, {"|u1", "<u1"}};
  if (name == "fp8_e4m3") return GoldenDType{vt::DType::kU8, Fmt::kFp8E4M3, {"|u1", "<u1"}};
  return std::nullopt;
}

void CheckJsonDepth(const std::string& text, int max_depth, const std::string& path) {
  int depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;  // the escaped character cannot end the string
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > max_depth) {
        throw GoldenError(path, "JSON nested deeper than " + std::to_string(max_depth) + " levels");
      }
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
}

Manifest ParseManifest(const std::string& text, const std::string& path) {
  CheckJsonDepth(text, kMaxJsonDepth, path);
  Manifest out;
  try {
    out.doc = Json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    throw GoldenError(path, std::string("malformed JSON (truncated?): ") + e.what());
  }
  const Json& m = out.doc;
  Require(m.is_object(), path, "manifest must be a JSON object");
  Require(m.contains("op") && m["op"].is_string(), path, "missing string field 'op'");
  out.op = m["op"].get<std::string>();
  Require(!out.op.empty(), path, "'op' is empty");
  Require(m.contains("tensors") && m["tensors"].is_object() && !m["tensors"].empty(), path,
          "missing or empty object field 'tensors'");
  if (m.contains("args")) {
    Require(m["args"].is_object(), path, "'args' must be an object, not " + std::string(TypeName(m["args"])));
    out.args = m["args"];
  }
  if (m.contains("oracle")) {
    Require(m["oracle"].is_object(), path, "'oracle' must be an object, not " + std::string(TypeName(m["oracle"])));
  }
  std::set<std::string> names, files;
  for (const auto& [name, spec] : m["tensors"].items()) {
    out.tensors.push_back(Tensor(name, spec, path));
    names.insert(name);
    // Two tensors in one file would compare a golden with itself.
    Require(files.insert(out.tensors.back().file).second, path,
            "tensor '" + name + "' shares its file '" + out.tensors.back().file + "' with another tensor");
  }
  out.inputs = NameList(m, "inputs", names, path);
  out.outputs = NameList(m, "outputs", names, path);
  if (m.contains("tol")) {
    const Json& t = m["tol"];
    Require(t.is_object(), path, "'tol' must be {\"atol\": number, \"rtol\": number}");
    out.atol = Tol(t, "atol", path);
    out.rtol = Tol(t, "rtol", path);
  }
  if (m.contains("vt")) {
    Require(m["vt"].is_object(), path, "'vt' must be an object");
    if (m["vt"].contains("identity")) String(m["vt"], "identity", path, "'vt' ");
  }
  out.canonical_sha256 = CanonicalSha(m);
  return out;
}

}  // namespace vt::conform
