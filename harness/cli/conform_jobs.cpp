#include "harness/cli/conform_jobs.h"

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>

#include "reports/merge.h"

extern char** environ;

namespace vt::conform::cli {
namespace {

namespace fs = std::filesystem;

struct Job {
  int index = 0;
  pid_t pid = -1;
  int out = -1;         // the read end of the job's stdout + stderr
  std::string partial;  // an unfinished line
  std::string dir;
};

std::string SelfExe() {
  std::error_code ec;
  const fs::path p = fs::read_symlink("/proc/self/exe", ec);
  if (ec) throw std::runtime_error("--jobs: cannot find this program (/proc/self/exe): " + ec.message());
  return p.string();
}

Job Spawn(const std::string& exe, const JobsPlan& plan, int i) {
  Job j;
  j.index = i;
  j.dir = (fs::path(plan.work_dir) / ("job-" + std::to_string(i))).string();
  fs::create_directories(j.dir);
  std::vector<std::string> args = {exe};
  args.insert(args.end(), plan.args.begin(), plan.args.end());
  for (const std::string& a : {std::string("--jobs"), std::string("1"), std::string("--shard"),
                               std::to_string(i) + "/" + std::to_string(plan.jobs), std::string("--report"), j.dir}) {
    args.push_back(a);
  }
  if (!plan.progress) args.push_back("--quiet");
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  int fds[2];
  // Close-on-exec: a later job must not hold this job's pipe open.
  if (pipe2(fds, O_CLOEXEC) != 0) throw std::runtime_error(std::string("--jobs: pipe: ") + std::strerror(errno));
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addclose(&fa, fds[0]);
  posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
  posix_spawn_file_actions_adddup2(&fa, fds[1], 2);
  posix_spawn_file_actions_addclose(&fa, fds[1]);
  const int rc = posix_spawn(&j.pid, exe.c_str(), &fa, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  close(fds[1]);
  if (rc != 0) {
    close(fds[0]);
    throw std::runtime_error("--jobs: cannot start job " + std::to_string(i) + ": " + std::strerror(rc));
  }
  j.out = fds[0];
  return j;
}

// Forwards the job's complete lines (the last one too at its end), prefixed.
void Forward(Job& j, const char* data, std::size_t n, int jobs, bool at_end) {
  j.partial.append(data, n);
  std::size_t start = 0;
  for (std::size_t nl; (nl = j.partial.find('\n', start)) != std::string::npos; start = nl + 1) {
    std::cerr << "job " << j.index << "/" << jobs << ": " << j.partial.substr(start, nl + 1 - start);
  }
  j.partial.erase(0, start);
  if (at_end && !j.partial.empty()) {
    std::cerr << "job " << j.index << "/" << jobs << ": " << j.partial << "\n";
    j.partial.clear();
  }
}

vt::reports::Json LoadDoc(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw std::runtime_error("no results document at " + path);
  std::stringstream ss;
  ss << f.rdbuf();
  return vt::reports::Json::parse(ss.str());
}

}  // namespace

vt::reports::Json RunJobs(const JobsPlan& plan) {
  const std::string exe = SelfExe();
  std::vector<Job> jobs;
  for (int i = 0; i < plan.jobs; ++i) jobs.push_back(Spawn(exe, plan, i));
  // Read every job's output until all have closed it.
  for (std::size_t open = jobs.size(); open > 0;) {
    std::vector<pollfd> fds;
    std::vector<Job*> owners;
    for (Job& j : jobs) {
      if (j.out < 0) continue;
      fds.push_back({j.out, POLLIN, 0});
      owners.push_back(&j);
    }
    if (poll(fds.data(), fds.size(), -1) < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error(std::string("--jobs: poll: ") + std::strerror(errno));
    }
    for (std::size_t k = 0; k < fds.size(); ++k) {
      if (fds[k].revents == 0) continue;
      char buf[8192];
      const ssize_t n = read(fds[k].fd, buf, sizeof buf);
      if (n < 0 && errno == EINTR) continue;
      Job& j = *owners[k];
      if (n > 0) {
        Forward(j, buf, static_cast<std::size_t>(n), plan.jobs, false);
        continue;
      }
      Forward(j, "", 0, plan.jobs, true);
      close(j.out);
      j.out = -1;
      --open;
    }
  }
  std::vector<vt::reports::Json> docs;
  std::vector<std::string> names;
  std::string died;
  for (Job& j : jobs) {
    int status = 0;
    while (waitpid(j.pid, &status, 0) < 0 && errno == EINTR) {
    }
    const std::string shard = "job " + std::to_string(j.index) + " (--shard " + std::to_string(j.index) + "/" +
                              std::to_string(plan.jobs) + ")";
    // Exit 0 or 1 is a finished run (1: something failed); anything else left no whole shard.
    if (WIFSIGNALED(status)) {
      died += "; " + shard + " died of " + strsignal(WTERMSIG(status));
    } else if (WEXITSTATUS(status) > 1) {
      died += "; " + shard + " exited " + std::to_string(WEXITSTATUS(status));
    } else {
      names.push_back(j.dir + "/results.json");
      docs.push_back(LoadDoc(names.back()));
    }
  }
  if (!died.empty()) throw std::runtime_error("--jobs: " + died.substr(2) + " (its lines above say why)");
  vt::reports::Json merged = vt::reports::MergeShards(docs, names);
  std::error_code ec;
  fs::remove_all(plan.work_dir, ec);  // merged: the shards' folders say nothing more
  return merged;
}

}  // namespace vt::conform::cli
