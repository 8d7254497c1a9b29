// IsolatedServer: one child per key answers many requests; a crash, a hang or
// an exception on one request is that request's report, and the next request
// gets a fresh child (harness/modes/isolate.h).
#include "harness/modes/isolate.h"

#include <gtest/gtest.h>

#include <csignal>
#include <cstdlib>
#include <unistd.h>

namespace vt::conform {
namespace {

// Echoes the request with the child's pid; "crash", "hang" and "throw" do so.
std::string Serve(const std::string& request) {
  if (request == "crash") std::abort();
  if (request == "hang") pause();
  if (request == "throw") throw std::runtime_error("thrown on purpose");
  return request + "@" + std::to_string(getpid());
}

std::string PidOf(const Isolated& r) { return r.output.substr(r.output.find('@') + 1); }

TEST(IsolatedServer, OneChildPerKeyAnswersEveryRequest) {
  IsolatedServer server;
  const Isolated a = server.Call("op_a", Serve, "first", 5);
  const Isolated b = server.Call("op_a", Serve, "second", 5);
  ASSERT_TRUE(a.ok) << a.output;
  ASSERT_TRUE(b.ok) << b.output;
  EXPECT_EQ(a.output.substr(0, 6), "first@");
  EXPECT_EQ(PidOf(a), PidOf(b));                      // the same child
  EXPECT_NE(PidOf(a), std::to_string(getpid()));      // not this process
  EXPECT_EQ(server.forks(), 1);
  const Isolated c = server.Call("op_b", Serve, "third", 5);  // another key: another child
  ASSERT_TRUE(c.ok);
  EXPECT_NE(PidOf(c), PidOf(a));
  EXPECT_EQ(server.forks(), 2);
}

TEST(IsolatedServer, CrashIsThatRequestsReportAndTheNextForksAfresh) {
  IsolatedServer server;
  const Isolated before = server.Call("op", Serve, "x", 5);
  const Isolated crash = server.Call("op", Serve, "crash", 5);
  EXPECT_FALSE(crash.ok);
  EXPECT_NE(crash.output.find("crashed: Aborted"), std::string::npos) << crash.output;
  const Isolated after = server.Call("op", Serve, "y", 5);
  ASSERT_TRUE(after.ok) << after.output;
  EXPECT_NE(PidOf(after), PidOf(before));
  EXPECT_EQ(server.forks(), 2);
}

TEST(IsolatedServer, HangIsKilledAtTheTimeLimit) {
  IsolatedServer server;
  const Isolated hang = server.Call("op", Serve, "hang", 1);
  EXPECT_FALSE(hang.ok);
  EXPECT_NE(hang.output.find("(timed out)"), std::string::npos) << hang.output;
  EXPECT_TRUE(server.Call("op", Serve, "z", 5).ok);
}

TEST(IsolatedServer, ExceptionIsReportedAndRetiresTheChild) {
  IsolatedServer server;
  const Isolated t = server.Call("op", Serve, "throw", 5);
  EXPECT_FALSE(t.ok);
  EXPECT_NE(t.output.find("thrown on purpose"), std::string::npos) << t.output;
  EXPECT_TRUE(server.Call("op", Serve, "w", 5).ok);
  EXPECT_EQ(server.forks(), 2);
  server.Retire();
  EXPECT_TRUE(server.Call("op", Serve, "v", 5).ok);
  EXPECT_EQ(server.forks(), 3);
}

}  // namespace
}  // namespace vt::conform
