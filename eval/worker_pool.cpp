#include "eval/worker_pool.h"

#include "io/problem.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <deque>
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

/// Runs a worker takes at most, one after another in its process: a fork's
/// first plan starts cold (its caches, its first allocations), which a
/// Panda plan of a hundred microseconds feels; later runs of the worker
/// start as a library user's loop does. A crash or hang still costs only its
/// own run: the worker's runs after it go to another worker.
constexpr std::size_t kRunsPerWorker = 32;

struct Worker {
  pid_t pid = -1;
  int fd = -1;
  std::vector<std::size_t> runs;  // indices into the runs, in the order the worker runs them
  std::size_t done = 0;           // of them, recorded
  std::string output;             // what the worker wrote after its last whole record
  Clock::time_point started;      // of its current run
  bool killed = false;
};

Worker startWorker(const std::vector<RunSpec>& specs, std::vector<std::size_t> runs) {
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
      for (const std::size_t run : runs) {
        injectFault(specs[run]);
        writeAll(fds[1], recordJson(runPlanning(specs[run])) + "\n");
      }
    } catch (...) {
      ::_exit(4);
    }
    ::_exit(0);  // no atexit handlers or stream flushes of the parent's state
  }
  ::close(fds[1]);
  return Worker{pid, fds[0], std::move(runs), 0, {}, Clock::now(), false};
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
  jobs = std::max<std::size_t>(jobs, 1);
  std::deque<std::size_t> pending(todo.begin(), todo.end());
  std::vector<Worker> workers;
  auto failed = [&](const Worker& w, int status, double seconds) {
    const RunSpec& spec = runs[w.runs[w.done]];
    RunRecord r;
    r.spec = spec;
    r.problem = defaultProblemName(spec.problem_id);
    r.status = "failed";
    r.failure = failureReason(status, w.killed, seconds);
    r.time_s = seconds;
    record(std::move(r));
  };
  while (!pending.empty() || !workers.empty()) {
    while (!pending.empty() && workers.size() < jobs) {
      // Each worker a share of what is left, so that the last ones end together.
      const std::size_t share = std::clamp<std::size_t>(pending.size() / (2 * jobs), 1, kRunsPerWorker);
      std::vector<std::size_t> chunk(pending.begin(), pending.begin() + static_cast<std::ptrdiff_t>(share));
      pending.erase(pending.begin(), pending.begin() + static_cast<std::ptrdiff_t>(share));
      workers.push_back(startWorker(runs, std::move(chunk)));
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
        // Each whole line is one run's record, in the worker's order.
        for (std::size_t end = w.output.find('\n'); end != std::string::npos && w.done < w.runs.size();
             end = w.output.find('\n')) {
          record(parseRecordJson(w.output.substr(0, end), fmt::format("worker of run {}", runs[w.runs[w.done]].key())));
          w.output.erase(0, end + 1);
          ++w.done;
          w.started = Clock::now();
        }
        continue;
      }
      if (n < 0 && errno == EINTR) continue;
      ::close(w.fd);
      int status = 0;
      ::waitpid(w.pid, &status, 0);
      if (w.done < w.runs.size()) {
        // The run it was on failed (crashed, hung, or the worker ended
        // without its record); the runs it did not reach go first to the next workers.
        failed(w, status, seconds);
        pending.insert(pending.begin(), w.runs.begin() + static_cast<std::ptrdiff_t>(w.done + 1), w.runs.end());
      }
      workers.erase(workers.begin() + static_cast<std::ptrdiff_t>(k));
    }
  }
}

}  // namespace prmkit
