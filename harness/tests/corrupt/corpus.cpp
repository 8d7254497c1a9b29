#include "harness/tests/corrupt/corpus.h"

#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>

#include <nlohmann/json.hpp>

namespace vt::corrupt {
namespace {

using Json = nlohmann::ordered_json;
constexpr int kRows = 4, kCols = 16;
constexpr double kEps = 1e-6;

std::string F32Bytes(const std::vector<double>& v) {
  std::string out(v.size() * 4, '\0');
  for (std::size_t i = 0; i < v.size(); ++i) {
    const float f = static_cast<float>(v[i]);
    std::memcpy(&out[i * 4], &f, 4);
  }
  return out;
}

std::vector<double> X() {
  std::vector<double> x(kRows * kCols);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(std::sin(0.37 * static_cast<double>(i) + 0.1) + 0.2);
  return x;
}

std::vector<double> W() {
  std::vector<double> w(kCols);
  for (int i = 0; i < kCols; ++i) w[static_cast<std::size_t>(i)] = static_cast<float>(0.5 + 0.03 * i);
  return w;
}

// rms norm in double: out = x / sqrt(mean(x^2) + eps) * w.
std::vector<double> Out(const std::vector<double>& x, const std::vector<double>& w) {
  std::vector<double> out(x.size());
  for (int r = 0; r < kRows; ++r) {
    double ss = 0;
    for (int c = 0; c < kCols; ++c) ss += x[r * kCols + c] * x[r * kCols + c];
    const double inv = 1.0 / std::sqrt(ss / kCols + kEps);
    for (int c = 0; c < kCols; ++c) out[r * kCols + c] = x[r * kCols + c] * inv * w[c];
  }
  return out;
}

Json ReadManifest(const fs::path& d) { return Json::parse(ReadFile(d / "manifest.json")); }
void WriteManifest(const fs::path& d, const Json& m, int indent = 1) { WriteFile(d / "manifest.json", m.dump(indent)); }

// A corruption that edits the manifest as JSON.
Corruption Edit(std::string name, std::string expect, std::function<void(Json&)> fn) {
  return {std::move(name), std::move(expect), [fn](const fs::path& d) {
            Json m = ReadManifest(d);
            fn(m);
            WriteManifest(d, m);
          }};
}

// A corruption that replaces the manifest's text.
Corruption Text(std::string name, std::string expect, std::string text) {
  return {std::move(name), std::move(expect), [text](const fs::path& d) { WriteFile(d / "manifest.json", text); }};
}

// A corruption that replaces x.npy's bytes.
Corruption Npy(std::string name, std::string expect, std::string bytes) {
  return {std::move(name), std::move(expect), [bytes](const fs::path& d) { WriteFile(d / "x.npy", bytes); }};
}

// A corruption that replaces x.npy with something else on disk.
Corruption Node(std::string name, std::string expect, std::function<void(const fs::path&)> make) {
  return {std::move(name), std::move(expect), [make](const fs::path& d) {
            fs::remove(d / "x.npy");
            make(d / "x.npy");
          }};
}

std::string Deep(int depth) { return std::string(static_cast<std::size_t>(depth), '[') + std::string(static_cast<std::size_t>(depth), ']'); }

std::string XData() { return F32Bytes(X()); }

}  // namespace

std::string ReadFile(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

void WriteFile(const fs::path& p, const std::string& bytes) {
  std::ofstream f(p, std::ios::binary | std::ios::trunc);
  f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

std::string NpyBytes(const std::string& descr, const std::string& shape_tuple, const std::string& data, bool fortran) {
  std::string dict = "{'descr': '" + descr + "', 'fortran_order': " + (fortran ? "True" : "False") +
                     ", 'shape': " + shape_tuple + ", }";
  const std::size_t total = 10 + dict.size() + 1;
  dict.append((64 - total % 64) % 64, ' ');
  dict += '\n';
  std::string out = "\x93NUMPY";
  out += '\x01';
  out += '\x00';
  out += static_cast<char>(dict.size() & 0xFF);
  out += static_cast<char>(dict.size() >> 8);
  return out + dict + data;
}

void WriteBaseCase(const fs::path& d) {
  fs::create_directories(d);
  const auto x = X(), w = W();
  WriteFile(d / "x.npy", NpyBytes("<f4", "(4, 16)", F32Bytes(x)));
  WriteFile(d / "weight.npy", NpyBytes("<f4", "(16,)", F32Bytes(w)));
  WriteFile(d / "out.npy", NpyBytes("<f4", "(4, 16)", F32Bytes(Out(x, w))));
  const Json m = {{"op", "rmsnorm"},
                  {"args", {{"eps", kEps}, {"gemma", false}, {"fused_residual", false}}},
                  {"tensors",
                   {{"x", {{"file", "x.npy"}, {"dtype", "f32"}, {"shape", {kRows, kCols}}}},
                    {"weight", {{"file", "weight.npy"}, {"dtype", "f32"}, {"shape", {kCols}}}},
                    {"out", {{"file", "out.npy"}, {"dtype", "f32"}, {"shape", {kRows, kCols}}}}}},
                  {"inputs", {"x", "weight"}},
                  {"outputs", {"out"}},
                  {"tol", {{"atol", 1e-5}, {"rtol", 1e-5}}},
                  {"oracle", {{"source", "vt golden corruption test"}}}};
  WriteManifest(d, m);
}

std::vector<Corruption> AllCorruptions() {
  const std::string x = XData();
  std::vector<Corruption> c = {
      // Manifest fields of the wrong JSON type (each once aborted the run).
      Edit("args_eps_string", "'eps' must be a number", [](Json& m) { m["args"]["eps"] = "abc"; }),
      Edit("args_gemma_int", "'gemma' must be a boolean", [](Json& m) { m["args"]["gemma"] = 1; }),
      Edit("args_fused_string", "'fused_residual' must be a boolean", [](Json& m) { m["args"]["fused_residual"] = "yes"; }),
      Edit("args_eps_list", "'eps' must be a number", [](Json& m) { m["args"]["eps"] = {1e-6}; }),
      Edit("args_eps_object", "'eps' must be a number", [](Json& m) { m["args"]["eps"] = {{"v", 1}}; }),
      Edit("args_list", "'args' must be an object", [](Json& m) { m["args"] = Json::array(); }),
      Edit("args_string", "'args' must be an object", [](Json& m) { m["args"] = "eps=1e-6"; }),
      Edit("op_number", "'op'", [](Json& m) { m["op"] = 5; }),
      Edit("op_null", "'op'", [](Json& m) { m["op"] = nullptr; }),
      Edit("op_empty", "'op' is empty", [](Json& m) { m["op"] = ""; }),
      Edit("op_missing", "'op'", [](Json& m) { m.erase("op"); }),
      Edit("tensors_list", "'tensors'", [](Json& m) { m["tensors"] = Json::array({"x"}); }),
      Edit("tensors_empty", "'tensors'", [](Json& m) { m["tensors"] = Json::object(); }),
      Edit("tensor_spec_string", "must be an object", [](Json& m) { m["tensors"]["x"] = "x.npy"; }),
      Edit("file_number", "'file' must be a string", [](Json& m) { m["tensors"]["x"]["file"] = 3; }),
      Edit("file_missing", "has no 'file'", [](Json& m) { m["tensors"]["x"].erase("file"); }),
      Edit("dtype_number", "'dtype' must be a string", [](Json& m) { m["tensors"]["x"]["dtype"] = 32; }),
      Edit("dtype_unknown", "unknown dtype", [](Json& m) { m["tensors"]["x"]["dtype"] = "f8_e5m2"; }),
      Edit("shape_string", "'shape' must be a list", [](Json& m) { m["tensors"]["x"]["shape"] = "4,16"; }),
      Edit("shape_float", "integers >= 0", [](Json& m) { m["tensors"]["x"]["shape"] = {4.0, 16}; }),
      Edit("shape_negative", "integers >= 0", [](Json& m) { m["tensors"]["x"]["shape"] = {-4, -16}; }),
      Edit("shape_bool", "integers >= 0", [](Json& m) { m["tensors"]["x"]["shape"] = {true, 16}; }),
      Edit("shape_past_int64", "too large for int64",
           [](Json& m) { m["tensors"]["x"]["shape"] = {uint64_t{18446744073709551615u}}; }),
      Edit("shape_count_overflow", "overflows int64",
           [](Json& m) { m["tensors"]["x"]["shape"] = {int64_t{1} << 62, int64_t{1} << 62}; }),
      Edit("shape_bytes_wrap_2_64", "byte count overflows",
           [](Json& m) { m["tensors"]["x"]["shape"] = {int64_t{1} << 61, 2}; }),
      Edit("inputs_string", "list of tensor names", [](Json& m) { m["inputs"] = "x"; }),
      Edit("inputs_unknown_tensor", "unknown tensor 'nope'", [](Json& m) { m["inputs"] = {"x", "nope"}; }),
      Edit("outputs_number", "list of tensor names", [](Json& m) { m["outputs"] = 1; }),
      Edit("tol_string", "'tol' must be", [](Json& m) { m["tol"] = "1e-5"; }),
      Edit("tol_atol_string", "atol must be a number", [](Json& m) { m["tol"]["atol"] = "1e-5"; }),
      Edit("tol_atol_negative", ">= 0", [](Json& m) { m["tol"]["atol"] = -1e-5; }),
      Edit("tol_no_rtol", "'tol' must be", [](Json& m) { m["tol"].erase("rtol"); }),
      Edit("tol_missing", "no 'tol'", [](Json& m) { m.erase("tol"); }),
      Edit("sha256_number", "'sha256' must be a string", [](Json& m) { m["tensors"]["x"]["sha256"] = 12; }),
      Edit("sha256_wrong", "sha256 mismatch", [](Json& m) { m["tensors"]["x"]["sha256"] = std::string(64, '0'); }),
      Edit("oracle_string", "'oracle' must be an object", [](Json& m) { m["oracle"] = "upstream"; }),
      Edit("role_unknown", "role must be", [](Json& m) { m["tensors"]["x"]["role"] = "both"; }),
      Edit("two_tensors_one_file", "shares its file", [](Json& m) { m["tensors"]["out"]["file"] = "x.npy"; }),
      // File names that are not plain names in the case folder.
      Edit("name_nul", "NUL", [](Json& m) { m["tensors"]["x"]["file"] = std::string("x.npy\0.txt", 10); }),
      Edit("name_absolute", "path separator", [](Json& m) { m["tensors"]["x"]["file"] = "/etc/passwd"; }),
      Edit("name_parent", "path separator", [](Json& m) { m["tensors"]["x"]["file"] = "../x.npy"; }),
      Edit("name_dotdot", "is '..'", [](Json& m) { m["tensors"]["x"]["file"] = ".."; }),
      Edit("name_empty", "is empty", [](Json& m) { m["tensors"]["x"]["file"] = ""; }),
      Edit("name_newline", "control character", [](Json& m) { m["tensors"]["x"]["file"] = "x\n.npy"; }),
      Edit("name_backslash", "path separator", [](Json& m) { m["tensors"]["x"]["file"] = "..\\x.npy"; }),
      // Unreadable manifests.
      Text("json_nested_200000", "nested deeper", "{\"op\": \"rmsnorm\", \"args\": {\"deep\": " + Deep(200000) + "}}"),
      Text("json_nested_65", "nested deeper", "{\"op\": \"rmsnorm\", \"args\": {\"deep\": " + Deep(65) + "}}"),
      Text("json_truncated", "malformed JSON", "{\"op\": \"rmsnorm\", \"args\": {\"eps\": 1e-6"),
      Text("json_empty", "malformed JSON", ""),
      Text("json_binary", "malformed JSON", std::string("\xff\xfe\x00\x01garbage", 11)),
      Text("json_bad_utf8", "malformed JSON", "{\"op\": \"rms\xc3\x28norm\"}"),
      Text("json_list", "must be a JSON object", "[1, 2, 3]"),
      {"manifest_directory", "is a directory", [](const fs::path& d) {
         fs::remove(d / "manifest.json");
         fs::create_directory(d / "manifest.json");
       }},
      {"manifest_fifo", "FIFO", [](const fs::path& d) {
         fs::remove(d / "manifest.json");
         ::mkfifo((d / "manifest.json").c_str(), 0644);
       }},
      {"manifest_dangling_link", "missing or unresolvable", [](const fs::path& d) {
         fs::remove(d / "manifest.json");
         fs::create_symlink("nowhere.json", d / "manifest.json");
       }},
      {"manifest_link_loop", "unresolvable", [](const fs::path& d) {
         fs::remove(d / "manifest.json");
         fs::create_symlink("manifest.json", d / "manifest.json");
       }},
      {"manifest_dev_zero", "outside the case folder", [](const fs::path& d) {
         fs::remove(d / "manifest.json");
         fs::create_symlink("/dev/zero", d / "manifest.json");
       }},
      // Tensor files that are not regular files inside the folder.
      Node("npy_link_loop", "unresolvable", [](const fs::path& p) {
        fs::create_symlink("y.npy", p);
        fs::create_symlink("x.npy", p.parent_path() / "y.npy");
      }),
      Node("npy_directory", "is a directory", [](const fs::path& p) { fs::create_directory(p); }),
      Node("npy_fifo", "FIFO", [](const fs::path& p) { ::mkfifo(p.c_str(), 0644); }),
      Node("npy_link_dev_zero", "outside the case folder", [](const fs::path& p) { fs::create_symlink("/dev/zero", p); }),
      Node("npy_link_escape", "outside the case folder", [x](const fs::path& p) {
        const fs::path outside = p.parent_path().parent_path() / "outside_the_case.npy";
        WriteFile(outside, NpyBytes("<f4", "(4, 16)", x));
        fs::create_symlink("../outside_the_case.npy", p);
      }),
      Node("npy_missing", "missing", [](const fs::path&) {}),
      // A device node inside the folder (mknod needs root or CAP_MKNOD; the
      // runner skips this one, saying so, when the node could not be made).
      Node("npy_char_device", "character device",
           [](const fs::path& p) { ::mknod(p.c_str(), S_IFCHR | 0644, makedev(1, 5)); }),
      // .npy contents: sizes checked against the header before reading.
      Npy("npy_truncated", "truncated", NpyBytes("<f4", "(4, 16)", x.substr(0, x.size() - 3))),
      Npy("npy_trailing_bytes", "bytes after the data", NpyBytes("<f4", "(4, 16)", x + "junk")),
      Npy("npy_header_more_rows", "truncated", NpyBytes("<f4", "(5, 16)", x)),
      Npy("npy_shape_2_62_no_data", "truncated", NpyBytes("<f4", "(1152921504606846976,)", "")),
      Npy("npy_shape_bytes_wrap", "byte count overflows", NpyBytes("<f4", "(4611686018427387904,)", "")),
      Npy("npy_shape_past_int64", "too large for int64", NpyBytes("<f4", "(99999999999999999999,)", "")),
      Npy("npy_shape_count_overflow", "overflows int64", NpyBytes("<f4", "(1099511627776, 1099511627776)", "")),
      Npy("npy_bad_shape_tuple", "bad shape", NpyBytes("<f4", "(4, a)", x)),
      Npy("npy_bad_magic", "not an .npy", "\x93NUMPX" + NpyBytes("<f4", "(4, 16)", x).substr(6)),
      Npy("npy_empty_file", "not an .npy", ""),
      Npy("npy_version_9", "unsupported .npy version", "\x93NUMPY\x09" + NpyBytes("<f4", "(4, 16)", x).substr(7)),
      Npy("npy_header_len_huge", "npy header claims", std::string("\x93NUMPY\x02\x00\xff\xff\xff\xff", 12)),
      Npy("npy_fortran", "Fortran", NpyBytes("<f4", "(4, 16)", x, true)),
      Npy("npy_descr_unknown", "unsupported npy dtype", NpyBytes("<c8", "(4, 16)", x + x)),
      Npy("npy_descr_disagrees", "disagrees with the manifest dtype", NpyBytes("<i4", "(4, 16)", x)),
      Npy("npy_shape_disagrees", "shape disagrees", NpyBytes("<f4", "(16, 4)", x)),
      Npy("npy_no_descr", "no 'descr'", "\x93NUMPY\x01\x00\x10\x00{'shape': (1,)}\n" + std::string(4, '\0')),
      // Vacuous checks: MISTRUSTED or FAILED, never passed.
      {"tol_1e30_garbage", "wider than the signal", [x](const fs::path& d) {
         Json m = ReadManifest(d);
         m["tol"] = {{"atol", 1e30}, {"rtol", 0.0}};
         WriteManifest(d, m);
         WriteFile(d / "out.npy", NpyBytes("<f4", "(4, 16)", x));
       }},
      Edit("rtol_1e30", "wider than the signal", [](Json& m) { m["tol"] = {{"atol", 0.0}, {"rtol", 1e30}}; }),
      Edit("op_misspelled", "unknown op 'rmsnorn'", [](Json& m) { m["op"] = "rmsnorn"; }),
      Edit("op_wrong_case", "unknown op 'RMSNorm'", [](Json& m) { m["op"] = "RMSNorm"; }),
      {"outputs_zero_elements", "zero elements", [](const fs::path& d) {
         WriteFile(d / "x.npy", NpyBytes("<f4", "(0, 16)", ""));
         WriteFile(d / "out.npy", NpyBytes("<f4", "(0, 16)", ""));
         Json m = ReadManifest(d);
         m["tensors"]["x"]["shape"] = {0, 16};
         m["tensors"]["out"]["shape"] = {0, 16};
         WriteManifest(d, m);
       }},
      {"outputs_garbage", "outside the manifest's tolerance", [x](const fs::path& d) {
         WriteFile(d / "out.npy", NpyBytes("<f4", "(4, 16)", x));
       }},
      {"outputs_nan", "non-finite", [](const fs::path& d) {
         const std::string nan("\x00\x00\xc0\x7f", 4);
         std::string data;
         for (int i = 0; i < 64; ++i) data += nan;
         WriteFile(d / "out.npy", NpyBytes("<f4", "(4, 16)", data));
       }},
  };
  // A case the project's lock knows (golden/checksums): a flipped data byte
  // must be refused however the manifest is reformatted or the folder named.
  auto flip = [](const fs::path& d) {
    std::string w = ReadFile(d / "weight.npy");
    w[w.size() - 7] = static_cast<char>(w[w.size() - 7] ^ 0x10);
    WriteFile(d / "weight.npy", w);
  };
  c.push_back({"known_flip_reformatted", "recorded checksum", [flip](const fs::path& d) {
                 flip(d);
                 WriteManifest(d, ReadManifest(d), 4);
               }, true});
  c.push_back({"known_flip_minified", "recorded checksum", [flip](const fs::path& d) {
                 flip(d);
                 WriteManifest(d, ReadManifest(d), -1);
               }, true});
  c.push_back({"known_flip_keys_reordered", "recorded checksum", [flip](const fs::path& d) {
                 flip(d);
                 const Json m = ReadManifest(d);
                 WriteFile(d / "manifest.json", nlohmann::json(m).dump(2));  // sorted keys
               }, true});
  c.push_back({"known_tol_1e30", "wider than the signal", [](const fs::path& d) {
                 Json m = ReadManifest(d);
                 m["tol"] = {{"atol", 1e30}, {"rtol", 1e30}};
                 WriteManifest(d, m);
                 WriteFile(d / "out.npy", ReadFile(d / "x.npy"));
               }, true});
  return c;
}

}  // namespace vt::corrupt
