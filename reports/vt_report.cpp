// vt-report: reads results documents (reports/SCHEMA.md) written by
// vt-conform, vt-golden check --json and vt-fuzz --json.
//   merge SHARD.json... -o DIR [--junit FILE] [--baseline OLD.json]
//       the shards of one `vt-conform --shard i/n` run joined into DIR/results.json,
//       report.md and report.html, as the unsharded run would have written them;
//       exit 0 merged and nothing failed, 1 merged with failures, 2 refused
//       (shards of different runs, a missing or duplicated shard: one line why).
//   diff OLD.json NEW.json [--json FILE]
//       new failures, fixed cases, headroom moved more than 2x, disappeared
//       cases; exit 1 on a new failure or a disappeared case, else 0.
//   summary results.json
//       one line per op family, where report.md / report.html are, the final line.
//   junit results.json -o FILE
//       JUnit XML, one testcase per case.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include <CLI/CLI.hpp>

#include "reports/atomic_file.h"
#include "reports/diff.h"
#include "reports/junit.h"
#include "reports/merge.h"
#include "reports/report.h"

namespace {

using vt::reports::Json;
namespace fs = std::filesystem;

struct Refused : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::string OneLine(std::string s) {
  for (char& c : s) {
    if (static_cast<unsigned char>(c) < 0x20) c = ' ';
  }
  return s;
}

Json Load(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw Refused(path + ": cannot be read");
  std::stringstream ss;
  ss << f.rdbuf();
  try {
    return Json::parse(ss.str());
  } catch (const std::exception& e) {
    throw Refused(path + ": not JSON (" + e.what() + ")");
  }
}

Json LoadResults(const std::string& path) {
  Json d = Load(path);
  if (!d.is_object() || !d.contains("cases") || !d.contains("meta")) throw Refused(path + ": not a results document");
  if (d.value("schema_version", 0) != vt::reports::kSchemaVersion) {
    throw Refused(path + ": schema_version " + (d.contains("schema_version") ? d["schema_version"].dump() : "absent") +
                  ", this vt-report reads " + std::to_string(vt::reports::kSchemaVersion));
  }
  return d;
}

bool Failed(const Json& doc) {
  const Json& s = doc["summary"];
  return s.value("failed_incorrect", 0) + s.value("failed_error", 0) + s.value("mistrusted", 0) > 0;
}

int Merge(const std::vector<std::string>& files, const std::string& out, const std::string& junit,
          const std::string& baseline) {
  std::vector<Json> docs;
  for (const std::string& f : files) docs.push_back(Load(f));
  Json merged;
  try {
    merged = vt::reports::MergeShards(docs, files);
  } catch (const vt::reports::MergeError& e) {
    throw Refused(std::string("merge refused: ") + e.what());
  }
  if (!baseline.empty()) merged["baseline"] = vt::reports::DiffDocs(LoadResults(baseline), merged);
  const auto paths = vt::reports::WriteReports(merged, out);
  if (!junit.empty()) vt::reports::AtomicWriteFile(junit, vt::reports::JUnitXml(merged));
  std::cout << "merged " << files.size() << " shards, " << merged["cases"].size() << " cases\n";
  for (const std::string& l : vt::reports::FamilyLines(merged["cases"])) std::cout << "  " << l << "\n";
  std::cout << "reports: " << paths[0] << " " << paths[1] << " " << paths[2] << "\n";
  if (!junit.empty()) std::cout << "junit: " << junit << "\n";
  std::cout << merged["summary"].value("final_line", "") << "\n";
  return Failed(merged) ? 1 : 0;
}

int Diff(const std::string& old_path, const std::string& new_path, const std::string& json, double factor) {
  vt::reports::DiffOptions opt;
  opt.factor = factor;
  const Json d = vt::reports::DiffDocs(LoadResults(old_path), LoadResults(new_path), opt);
  if (!json.empty()) vt::reports::AtomicWriteFile(json, d.dump(1) + "\n");
  std::cout << vt::reports::DiffMarkdown(d);
  return d.value("fails", false) ? 1 : 0;
}

int Summary(const std::string& path) {
  const Json d = LoadResults(path);
  for (const std::string& l : vt::reports::FamilyLines(d["cases"])) std::cout << "family " << l << "\n";
  const fs::path dir = fs::path(path).parent_path();
  for (const char* f : {"report.md", "report.html"}) {
    if (fs::exists(dir / f)) std::cout << f << ": " << fs::absolute(dir / f).lexically_normal().string() << "\n";
  }
  std::cout << "status " << d.value("status", "?") << ": " << d["summary"].value("final_line", "") << "\n";
  return d.value("status", "") == "finished" && !Failed(d) ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"vt-report: merge shard results, diff two runs, summarize, JUnit XML (reports/README.md)", "vt-report"};
  app.require_subcommand(1, 1);
  std::vector<std::string> shards;
  std::string out, junit, baseline, old_path, new_path, json, summary_path, junit_in;
  double factor = 2.0;
  CLI::App* merge = app.add_subcommand("merge", "join the shards of one vt-conform run (exit 2 when they are not one run)");
  merge->add_option("SHARD", shards, "results.json of each shard")->required()->check(CLI::ExistingFile);
  merge->add_option("-o,--out", out, "folder for results.json, report.md, report.html")->required();
  merge->add_option("--junit", junit, "also write the merged JUnit XML there");
  merge->add_option("--baseline", baseline, "an earlier results.json: report.md starts with what changed")
      ->check(CLI::ExistingFile);
  CLI::App* diff = app.add_subcommand("diff", "what changed from OLD to NEW (exit 1 on a new failure or a lost case)");
  diff->add_option("OLD", old_path, "the earlier results.json")->required()->check(CLI::ExistingFile);
  diff->add_option("NEW", new_path, "the later results.json")->required()->check(CLI::ExistingFile);
  diff->add_option("--json", json, "also write the diff as JSON there");
  diff->add_option("--factor", factor, "report headroom that moved by more than this factor (default 2)")
      ->check(CLI::Range(1.0, 1e6));
  CLI::App* summary = app.add_subcommand("summary", "one line per family, the report paths, the final line");
  summary->add_option("RESULTS", summary_path, "a results.json")->required()->check(CLI::ExistingFile);
  CLI::App* junit_cmd = app.add_subcommand("junit", "JUnit XML of a results.json");
  junit_cmd->add_option("RESULTS", junit_in, "a results.json")->required()->check(CLI::ExistingFile);
  junit_cmd->add_option("-o,--out", out, "the XML file to write")->required();
  // CLI11 would say only "A subcommand is required" for a misspelt one.
  const std::string first = argc >= 2 ? argv[1] : "";
  if (!first.empty() && first[0] != '-' && first != "merge" && first != "diff" && first != "summary" &&
      first != "junit") {
    std::cerr << "vt-report: unknown subcommand '" << OneLine(argv[1]) << "'; accepts merge, diff, summary, junit\n";
    return 2;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "vt-report: " << OneLine(e.what()) << " (see --help)\n";
    return 2;
  }
  try {
    if (merge->parsed()) return Merge(shards, out, junit, baseline);
    if (diff->parsed()) return Diff(old_path, new_path, json, factor);
    if (summary->parsed()) return Summary(summary_path);
    vt::reports::AtomicWriteFile(out, vt::reports::JUnitXml(LoadResults(junit_in)));
    std::cout << "junit: " << out << "\n";
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "vt-report: " << OneLine(e.what()) << "\n";
    return 2;
  }
}
