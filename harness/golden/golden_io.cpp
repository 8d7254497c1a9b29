#include "harness/golden/golden_io.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "harness/golden/sha256.h"

namespace fs = std::filesystem;

namespace vt::conform {
namespace {

using Json = nlohmann::ordered_json;

std::string ReadText(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw GoldenError(path, "missing or unreadable");
  return std::string(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

void Require(bool ok, const std::string& file, const std::string& problem) {
  if (!ok) throw GoldenError(file, problem);
}

std::vector<std::string> NameList(const Json& m, const char* key, const std::string& file) {
  std::vector<std::string> v;
  if (!m.contains(key)) return v;
  Require(m[key].is_array(), file, std::string("'") + key + "' must be a list of tensor names");
  for (const Json& n : m[key]) {
    Require(n.is_string(), file, std::string("'") + key + "' must be a list of tensor names");
    Require(m["tensors"].contains(n.get<std::string>()), file,
            std::string("'") + key + "' names unknown tensor '" + n.get<std::string>() + "'");
    v.push_back(n.get<std::string>());
  }
  return v;
}

}  // namespace

std::optional<GoldenDType> ParseGoldenDType(const std::string& name) {
  using oracle::Fmt;
  if (name == "f32") return GoldenDType{vt::DType::kF32, Fmt::kF32, {"<f4"}};
  if (name == "f16") return GoldenDType{vt::DType::kF16, Fmt::kF16, {"<f2"}};
  if (name == "bf16") return GoldenDType{vt::DType::kBF16, Fmt::kBF16, {"<u2"}};
  if (name == "i32") return GoldenDType{vt::DType::kI32, Fmt::kF32, {"<i4"}};
  if (name == "i64") return GoldenDType{vt::DType::kI64, Fmt::kF32, {"<i8"}};
  if (name == "i8") return GoldenDType{vt::DType::kI8, Fmt::kF32, {"|i1", "<i1"}};
  if (name == "u8") return GoldenDType{vt::DType::kU8, Fmt::kF32, {"|u1", "<u1"}};
  if (name == "fp8_e4m3") return GoldenDType{vt::DType::kU8, Fmt::kFp8E4M3, {"|u1", "<u1"}};
  return std::nullopt;
}

std::string GoldenDTypeName(vt::DType dt, oracle::Fmt fmt) {
  if (dt == vt::DType::kU8 && fmt == oracle::Fmt::kFp8E4M3) return "fp8_e4m3";
  return std::string(vt::Name(dt));
}

const std::map<std::string, std::map<std::string, std::string>>& GoldenLocks() {
  static const auto kLocks = [] {
    std::map<std::string, std::map<std::string, std::string>> locks;
    const fs::path dir = fs::path(VT_SOURCE_DIR) / "golden" / "checksums";
    if (!fs::is_directory(dir)) return locks;
    for (const auto& e : fs::directory_iterator(dir)) {
      if (e.path().extension() != ".json") continue;
      const Json j = Json::parse(ReadText(e.path().string()));
      for (const auto& [manifest_sha, entry] : j["cases"].items()) {
        for (const auto& [file, sha] : entry["files"].items()) locks[manifest_sha][file] = sha.get<std::string>();
      }
    }
    return locks;
  }();
  return kLocks;
}

const TensorData& GoldenCase::Get(const std::string& name) const {
  auto it = tensors.find(name);
  if (it == tensors.end()) throw GoldenError(dir + "/manifest.json", "no tensor '" + name + "'");
  return it->second;
}

GoldenCase LoadGolden(const std::string& dir) {
  GoldenCase g;
  g.dir = dir;
  const std::string mpath = (fs::path(dir) / "manifest.json").string();
  const std::string text = ReadText(mpath);
  g.manifest_sha256 = Sha256Hex(text);
  try {
    g.manifest = Json::parse(text);
  } catch (const std::exception& e) {
    throw GoldenError(mpath, std::string("malformed JSON (truncated?): ") + e.what());
  }
  const Json& m = g.manifest;
  Require(m.is_object(), mpath, "manifest must be a JSON object");
  Require(m.contains("op") && m["op"].is_string(), mpath, "missing string field 'op'");
  Require(m.contains("tensors") && m["tensors"].is_object() && !m["tensors"].empty(), mpath,
          "missing or empty object field 'tensors'");
  g.op = m["op"].get<std::string>();
  g.args = m.contains("args") ? m["args"] : Json::object();
  Require(g.args.is_object(), mpath, "'args' must be an object");
  g.inputs = NameList(m, "inputs", mpath);
  g.outputs = NameList(m, "outputs", mpath);
  if (m.contains("tol")) {
    const Json& t = m["tol"];
    Require(t.is_object() && t.contains("atol") && t["atol"].is_number() && t.contains("rtol") && t["rtol"].is_number(),
            mpath, "'tol' must be {\"atol\": number, \"rtol\": number}");
    g.atol = t["atol"].get<double>();
    g.rtol = t["rtol"].get<double>();
    Require(*g.atol >= 0 && *g.rtol >= 0, mpath, "'tol' atol/rtol must be >= 0");
  }
  const auto lock_it = GoldenLocks().find(g.manifest_sha256);
  for (const auto& [name, spec] : m["tensors"].items()) {
    const std::string where = "tensor '" + name + "'";
    Require(spec.is_object() && spec.contains("file") && spec["file"].is_string(), mpath, where + " has no 'file'");
    Require(spec.contains("dtype") && spec["dtype"].is_string(), mpath, where + " has no 'dtype'");
    Require(spec.contains("shape") && spec["shape"].is_array(), mpath, where + " has no 'shape' list");
    const std::string file = spec["file"].get<std::string>();
    Require(file.find("..") == std::string::npos && !file.empty() && file[0] != '/', mpath,
            where + " file must be a plain name inside the case folder");
    const std::string fpath = (fs::path(dir) / file).string();
    const auto dt = ParseGoldenDType(spec["dtype"].get<std::string>());
    Require(dt.has_value(), mpath, where + " has unknown dtype '" + spec["dtype"].get<std::string>() + "'");
    std::vector<int64_t> shape;
    for (const Json& d : spec["shape"]) {
      Require(d.is_number_integer() && d.get<int64_t>() >= 0, mpath, where + " shape must hold integers >= 0");
      shape.push_back(d.get<int64_t>());
    }
    const NpyArray a = ReadNpy(fpath);
    // Checksums cover the array's data bytes (the convention of the recorded
    // upstream captures); a digest of the whole file is accepted too.
    const std::string data_sha = Sha256Hex(a.data);
    if (spec.contains("sha256")) {
      const std::string want = spec["sha256"].is_string() ? spec["sha256"].get<std::string>() : "";
      Require(data_sha == want || Sha256Hex(a.file_bytes) == want, fpath,
              "sha256 mismatch against the manifest (corrupted file?)");
    }
    if (lock_it != GoldenLocks().end()) {
      auto f = lock_it->second.find(file);
      if (f != lock_it->second.end()) {
        Require(data_sha == f->second, fpath,
                "sha256 mismatch against the project's recorded checksum for this case "
                "(golden/checksums): corrupted file?");
      }
    }
    Require(std::find(dt->descrs.begin(), dt->descrs.end(), a.descr) != dt->descrs.end(), fpath,
            "npy dtype '" + a.descr + "' disagrees with the manifest dtype '" + spec["dtype"].get<std::string>() + "'");
    Require(a.shape == shape, fpath, "npy shape disagrees with the manifest shape");
    TensorData t;
    t.name = name;
    t.dtype = dt->dtype;
    t.fmt = dt->fmt;
    t.shape = shape;
    t.SetContiguous();
    t.storage = a.data;
    t.role = std::find(g.outputs.begin(), g.outputs.end(), name) != g.outputs.end() ? Role::kOutput : Role::kInput;
    g.tensors.emplace(name, std::move(t));
  }
  return g;
}

std::string PeekManifestOp(const std::string& dir) {
  try {
    const Json m = Json::parse(ReadText((fs::path(dir) / "manifest.json").string()));
    return m.is_object() && m.contains("op") && m["op"].is_string() ? m["op"].get<std::string>() : "";
  } catch (const std::exception&) {
    return "";
  }
}

std::vector<std::string> FindGoldenDirs(const std::vector<std::string>& roots) {
  std::vector<std::string> dirs;
  for (const std::string& r : roots) {
    if (!fs::exists(r)) throw GoldenError(r, "no such folder");
    if (fs::exists(fs::path(r) / "manifest.json")) dirs.push_back(fs::path(r).lexically_normal().string());
    if (!fs::is_directory(r)) continue;
    for (const auto& e : fs::recursive_directory_iterator(r)) {
      if (e.is_directory() && fs::exists(e.path() / "manifest.json")) dirs.push_back(e.path().lexically_normal().string());
    }
  }
  std::sort(dirs.begin(), dirs.end());
  dirs.erase(std::unique(dirs.begin(), dirs.end()), dirs.end());
  return dirs;
}

void SaveCase(const Case& c, const std::string& dir) {
  fs::create_directories(dir);
  Json m;
  m["op"] = c.params.op;
  m["args"] = c.params.args;
  Json tensors = Json::object(), inputs = Json::array(), outputs = Json::array();
  for (const TensorData& t : c.tensors) {
    const std::string file = t.name + ".npy";
    const auto dt = ParseGoldenDType(GoldenDTypeName(t.dtype, t.fmt));
    const std::string path = (fs::path(dir) / file).string();
    WriteNpy(path, dt->descrs.front(), t.shape, t.LogicalBytes());
    const NpyArray back = ReadNpy(path);
    Json spec = {{"file", file}, {"dtype", GoldenDTypeName(t.dtype, t.fmt)}, {"shape", t.shape},
                 {"sha256", Sha256Hex(back.data)}, {"role", std::string(Name(t.role))}};
    if (!t.IsContiguous()) spec["strides"] = t.strides;
    tensors[t.name] = spec;
    if (t.role != Role::kOutput) inputs.push_back(t.name);
    if (t.role != Role::kInput) outputs.push_back(t.name);
  }
  m["tensors"] = tensors;
  m["inputs"] = inputs;
  m["outputs"] = outputs;
  m["vt"] = {{"identity", c.params.Identity()}, {"seed", c.params.seed}};
  m["oracle"] = {{"source", "vt-conform"}, {"note", "a project case (inputs as generated; outputs as the kernel left them)"}};
  std::ofstream f(fs::path(dir) / "manifest.json");
  if (!f) throw GoldenError(dir + "/manifest.json", "cannot write");
  f << m.dump(1) << "\n";
}

Case LoadCase(const std::string& dir) {
  const GoldenCase g = LoadGolden(dir);
  const std::string mpath = dir + "/manifest.json";
  Require(g.manifest.contains("vt") && g.manifest["vt"].contains("identity"), mpath,
          "not a vt-conform case (no 'vt.identity')");
  Case c;
  c.params = Params::FromIdentity(g.manifest["vt"]["identity"].get<std::string>());
  for (const auto& [name, spec] : g.manifest["tensors"].items()) {
    TensorData t = g.Get(name);
    const std::string role = spec.value("role", "input");
    t.role = role == "output" ? Role::kOutput : role == "inplace" ? Role::kInPlace : Role::kInput;
    const std::vector<uint8_t> logical = t.storage;
    if (spec.contains("strides")) {
      t.strides = spec["strides"].get<std::vector<int64_t>>();
      Require(t.strides.size() == t.shape.size(), mpath, "tensor '" + name + "' strides/shape rank differ");
      MaterializeTensor(t, c.params.seed);  // storage with the gap pattern
      const std::size_t es = vt::SizeOf(t.dtype);
      const auto offs = t.LogicalOffsets();
      for (std::size_t k = 0; k < offs.size(); ++k) {
        std::copy_n(logical.begin() + static_cast<std::ptrdiff_t>(k * es), es,
                    t.storage.begin() + static_cast<std::ptrdiff_t>(offs[k] * static_cast<int64_t>(es)));
      }
    }
    c.tensors.push_back(std::move(t));
  }
  return c;
}

}  // namespace vt::conform
