#include "eval/worker_pool.h"

#include "io/problem.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <poll.h>
#include <stdexcept>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace prmkit {

namespace {

using Clock = std::chrono::steady_clock;

std::string failureReason(int status, bool killed, double seconds) {
  if (killed) return fmt::format("hung: killed after {:.1f} s (run_timeout)", seconds);
  if (WIFSIGNALED(status))
    return fmt::format("crashed: signal {} ({})", WTERMSIG(status), ::strsignal(WTERMSIG(status)));
  if (WIFEXITED(status) && WEXITSTATUS(status) != 0)
    return fmt::format("the worker exited with code {} without a result", WEXITSTATUS(status));
  return "the worker ended without a result";
}

/// Test hook: PRMKIT_SWEEP_FAULT="crash:SEED" or "hang:SEED" makes the worker
/// of every run with that seed crash (SIGSEGV) or hang, so that the tests can
/// show that such runs are recorded as failed and the sweep goes on.
void injectFault(const RunSpec& spec) {
  const char* fault = std::getenv("PRMKIT_SWEEP_FAULT");
  if (!fault) return;
  const std::string text(fault);
  const auto colon = text.find(':');
  if (colon == std::string::npos || text.substr(colon + 1) != std::to_string(spec.seed)) return;
  if (text.substr(0, colon) == "crash") std::raise(SIGSEGV);
  if (text.substr(0, colon) == "hang")
    while (true) std::this_thread::sleep_for(std::chrono::seconds(1));
}

struct Worker {
  pid_t pid = -1;
  int fd = -1;
  std::size_t run = 0;
  std::string output;
  Clock::time_point started;
  bool killed = false;
};

Worker startWorker(const RunSpec& spec, std::size_t run) {
  int fds[2];
  if (::pipe(fds) != 0) throw std::runtime_error(fmt::format("pipe failed: {}", std::strerror(errno)));
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error(fmt::format("fork failed: {}", std::strerror(errno)));
  if (pid == 0) {
    // A worker never outlives the sweep (a killed sweep must not leave runs going).
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(3);
    ::close(fds[0]);
    try {
      injectFault(spec);
      writeAll(fds[1], recordJson(runPlanning(spec)) + "\n");
    } catch (...) {
      ::_exit(4);
    }
    ::_exit(0);  // no atexit handlers or stream flushes of the parent's state
  }
  ::close(fds[1]);
  return Worker{pid, fds[0], run, {}, Clock::now(), false};
}

}  // namespace

void writeAll(int fd, const std::string& data) {
  std::size_t written = 0;
  while (written < data.size()) {
    const ssize_t n = ::write(fd, data.data() + written, data.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw std::runtime_error(fmt::format("write failed: {}", std::strerror(errno)));
    written += static_cast<std::size_t>(n);
  }
}

void runOnWorkers(const std::vector<RunSpec>& runs, const std::vector<std::size_t>& todo, std::size_t jobs,
                  double timeoutSeconds, const std::function<void(RunRecord)>& record) {
  std::vector<Worker> workers;
  std::size_t next = 0;
  while (next < todo.size() || !workers.empty()) {
    while (next < todo.size() && workers.size() < std::max<std::size_t>(jobs, 1)) {
      workers.push_back(startWorker(runs[todo[next]], todo[next]));
      ++next;
    }
    std::vector<pollfd> polls;
    for (const auto& w : workers) polls.push_back({w.fd, POLLIN, 0});
    ::poll(polls.data(), polls.size(), 200);
    for (std::size_t k = workers.size(); k-- > 0;) {
      Worker& w = workers[k];
      const double seconds = std::chrono::duration<double>(Clock::now() - w.started).count();
      if (!w.killed && seconds > timeoutSeconds) {
        ::kill(w.pid, SIGKILL);
        w.killed = true;
      }
      if (!(polls[k].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      char buffer[65536];
      const ssize_t n = ::read(w.fd, buffer, sizeof(buffer));
      if (n > 0) {
        w.output.append(buffer, static_cast<std::size_t>(n));
        continue;
      }
      if (n < 0 && errno == EINTR) continue;
      ::close(w.fd);
      int status = 0;
      ::waitpid(w.pid, &status, 0);
      const RunSpec& spec = runs[w.run];
      const bool complete = !w.output.empty() && w.output.back() == '\n';
      if (!w.killed && WIFEXITED(status) && WEXITSTATUS(status) == 0 && complete) {
        w.output.pop_back();
        record(parseRecordJson(w.output, fmt::format("worker of run {}", spec.key())));
      } else {
        RunRecord r;
        r.spec = spec;
        r.problem = defaultProblemName(spec.problem_id);
        r.status = "failed";
        r.failure = failureReason(status, w.killed, seconds);
        r.time_s = seconds;
        record(std::move(r));
      }
      workers.erase(workers.begin() + static_cast<std::ptrdiff_t>(k));
    }
  }
}

}  // namespace prmkit
