#include "harness/golden/golden_io.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "harness/golden/safe_file.h"
#include "harness/golden/sha256.h"

namespace fs = std::filesystem;

namespace vt::conform {
namespace {

using Json = nlohmann::ordered_json;

void Require(bool ok, const std::string& file, const std::string& problem) {
  if (!ok) throw GoldenError(file, problem);
}

std::string ManifestPath(const std::string& dir) { return (fs::path(dir) / "manifest.json").string(); }

}  // namespace

std::string GoldenDTypeName(vt::DType dt, oracle::Fmt fmt) {
  if (dt == vt::DType::kU8 && fmt == oracle::Fmt::kFp8E4M3) return "fp8_e4m3";
  return std::string(vt::Name(dt));
}

const std::vector<GoldenLock>& GoldenLocks() {
  static const auto kLocks = [] {
    std::vector<GoldenLock> locks;
    const fs::path dir = fs::path(VT_SOURCE_DIR) / "golden" / "checksums";
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) return locks;
    for (const auto& e : fs::directory_iterator(dir, ec)) {
      if (e.path().extension() != ".json") continue;
      const std::string path = e.path().string();
      try {
        const std::string text = ReadSmallFile(path, kMaxManifestBytes * 16);
        CheckJsonDepth(text, kMaxJsonDepth, path);
        const Json j = Json::parse(text);
        for (const auto& [folder, entry] : j.at("cases").items()) {
          GoldenLock l;
          l.folder = folder;
          l.manifest = entry.at("manifest").get<std::string>();
          for (const auto& [file, sha] : entry.at("files").items()) l.files[file] = sha.get<std::string>();
          locks.push_back(std::move(l));
        }
      } catch (const nlohmann::json::exception& x) {
        throw GoldenError(path, std::string("unreadable lock file (rerun vt-golden lock): ") + x.what());
      }
    }
    return locks;
  }();
  return kLocks;
}

const GoldenLock* FindGoldenLock(const std::string& dir, const std::string& canonical_sha256) {
  for (const GoldenLock& l : GoldenLocks()) {
    if (l.manifest == canonical_sha256) return &l;
  }
  const std::string folder = fs::path(dir).lexically_normal().filename().string();
  for (const GoldenLock& l : GoldenLocks()) {
    if (l.folder == folder) return &l;
  }
  return nullptr;
}

const TensorData& GoldenCase::Get(const std::string& name) const {
  auto it = tensors.find(name);
  if (it == tensors.end()) throw GoldenError(dir + "/manifest.json", "no tensor '" + name + "'");
  return it->second;
}

namespace {

// The args value for key, or nullptr when absent / null; wrong types refused.
const Json* Arg(const GoldenCase& g, const std::string& key, bool ok(const Json&), const char* want) {
  if (!g.args.contains(key) || g.args[key].is_null()) return nullptr;
  const Json& v = g.args[key];
  if (!ok(v)) {
    throw GoldenError(ManifestPath(g.dir), "args '" + key + "' must be " + want + ", not " + v.type_name() + " " +
                                               v.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
  }
  return &v;
}

}  // namespace

bool GoldenCase::ArgBool(const std::string& key, bool dflt) const {
  const Json* v = Arg(*this, key, [](const Json& j) { return j.is_boolean(); }, "a boolean (true/false)");
  return v ? v->get<bool>() : dflt;
}

double GoldenCase::ArgNum(const std::string& key, double dflt) const {
  const Json* v = Arg(*this, key, [](const Json& j) { return j.is_number(); }, "a number");
  return v ? v->get<double>() : dflt;
}

std::string GoldenCase::ArgStr(const std::string& key, const std::string& dflt) const {
  const Json* v = Arg(*this, key, [](const Json& j) { return j.is_string(); }, "a string");
  return v ? v->get<std::string>() : dflt;
}

std::optional<int64_t> GoldenCase::ArgInt(const std::string& key) const {
  const Json* v = Arg(
      *this, key,
      [](const Json& j) {
        return j.is_number_integer() && (!j.is_number_unsigned() || j.get<uint64_t>() <= uint64_t{INT64_MAX});
      },
      "an integer");
  if (v == nullptr) return std::nullopt;
  return v->get<int64_t>();
}

GoldenCase LoadGolden(const std::string& dir) {
  GoldenCase g;
  g.dir = dir;
  const std::string mpath = ManifestPath(dir);
  const Manifest man = ParseManifest(ReadSmallFile(ResolveInside(dir, "manifest.json"), kMaxManifestBytes), mpath);
  g.manifest = man.doc;
  g.op = man.op;
  g.args = man.args;
  g.inputs = man.inputs;
  g.outputs = man.outputs;
  g.atol = man.atol;
  g.rtol = man.rtol;
  g.canonical_sha256 = man.canonical_sha256;
  const GoldenLock* lock = FindGoldenLock(dir, man.canonical_sha256);
  for (const TensorSpec& spec : man.tensors) {
    const std::string shown = (fs::path(dir) / spec.file).string();
    const NpyArray a = ReadNpy(ResolveInside(dir, spec.file));
    // Checksums cover the array's data bytes (the convention of the recorded
    // upstream captures); a digest of the whole file is accepted too.
    const std::string data_sha = Sha256Hex(a.data);
    if (spec.sha256) {
      Require(data_sha == *spec.sha256 || Sha256Hex(a.file_bytes) == *spec.sha256, shown,
              "sha256 mismatch against the manifest (corrupted file?)");
    }
    if (lock != nullptr) {
      auto f = lock->files.find(spec.file);
      if (f != lock->files.end()) {
        Require(data_sha == f->second, shown,
                "sha256 mismatch against the project's recorded checksum for case '" + lock->folder +
                    "' (golden/checksums): corrupted file?");
      }
    }
    Require(std::find(spec.dtype.descrs.begin(), spec.dtype.descrs.end(), a.descr) != spec.dtype.descrs.end(), shown,
            "npy dtype '" + a.descr + "' disagrees with the manifest dtype '" + spec.dtype_name + "'");
    Require(a.shape == spec.shape, shown, "npy shape disagrees with the manifest shape");
    TensorData t;
    t.name = spec.name;
    t.dtype = spec.dtype.dtype;
    t.fmt = spec.dtype.fmt;
    t.shape = spec.shape;
    t.SetContiguous();
    t.storage = a.data;
    t.role = std::find(g.outputs.begin(), g.outputs.end(), spec.name) != g.outputs.end() ? Role::kOutput : Role::kInput;
    g.tensors.emplace(spec.name, std::move(t));
  }
  return g;
}

std::string PeekManifestOp(const std::string& dir) {
  try {
    const std::string mpath = ManifestPath(dir);
    return ParseManifest(ReadSmallFile(ResolveInside(dir, "manifest.json"), kMaxManifestBytes), mpath).op;
  } catch (const std::exception&) {
    return "";
  }
}

std::vector<std::string> FindGoldenDirs(const std::vector<std::string>& roots) {
  std::vector<std::string> dirs;
  // symlink_status: a manifest.json that is a dangling link, a FIFO or a
  // directory still marks a case (LoadGolden refuses it by name).
  auto holds_manifest = [](const fs::path& d) {
    std::error_code ec;
    return fs::exists(fs::symlink_status(d / "manifest.json", ec));
  };
  for (const std::string& r : roots) {
    std::error_code ec;
    if (!fs::exists(fs::status(r, ec))) throw GoldenError(r, "no such folder");
    if (holds_manifest(r)) dirs.push_back(fs::path(r).lexically_normal().string());
    if (!fs::is_directory(r, ec)) continue;
    // Links to folders are not followed (a loop of them would never end); an
    // unlistable folder stops the search with its name rather than skipping
    // cases silently.
    fs::recursive_directory_iterator it(r, ec), end;
    if (ec) throw GoldenError(r, "cannot list: " + ec.message());
    for (; it != end; it.increment(ec)) {
      if (ec) throw GoldenError(it->path().string(), "cannot list: " + ec.message());
      std::error_code dec;
      if (it->is_directory(dec) && !it->is_symlink(dec) && holds_manifest(it->path())) {
        dirs.push_back(it->path().lexically_normal().string());
      }
    }
    if (ec) throw GoldenError(r, "cannot list: " + ec.message());
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
    if (t.kn_repacked) spec["kn_repacked"] = true;  // a loader-repacked weight (case.h)
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
  try {
    c.params = Params::FromIdentity(g.manifest["vt"]["identity"].get<std::string>());
  } catch (const std::invalid_argument& e) {
    throw GoldenError(mpath, std::string("'vt.identity' does not parse: ") + e.what());
  }
  for (const auto& [name, spec] : g.manifest["tensors"].items()) {
    TensorData t = g.Get(name);
    const std::string role = spec.value("role", "input");
    t.role = role == "output" ? Role::kOutput : role == "inplace" ? Role::kInPlace : Role::kInput;
    const std::vector<uint8_t> logical = t.storage;
    const auto repacked = spec.find("kn_repacked");
    Require(repacked == spec.end() || repacked->is_boolean(), mpath, "tensor '" + name + "' kn_repacked must be a boolean");
    t.kn_repacked = repacked != spec.end() && repacked->get<bool>();
    if (spec.contains("strides")) {
      t.strides = spec["strides"].get<std::vector<int64_t>>();
      Require(t.strides.size() == t.shape.size(), mpath, "tensor '" + name + "' strides/shape rank differ");
      // The storage the strides span, checked: a stride that overflows or
      // spans more than a golden file may hold is refused, not allocated.
      int64_t span = 1;
      for (std::size_t d = 0; d < t.shape.size() && t.Numel() > 0; ++d) {
        int64_t step = 0;
        Require(t.strides[d] >= 0 && !__builtin_mul_overflow(t.shape[d] - 1, t.strides[d], &step) &&
                    !__builtin_add_overflow(span, step, &span),
                mpath, "tensor '" + name + "' strides are negative or overflow");
      }
      Require(static_cast<uint64_t>(span) <= kMaxGoldenFileBytes, mpath, "tensor '" + name + "' strides span too much storage");
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
