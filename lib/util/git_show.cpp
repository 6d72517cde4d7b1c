#include "util/git_show.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <vector>

#include "util/errors.h"

extern char** environ;

namespace dispatchctl {
namespace {

struct Run {
  int status = -1;
  std::string out;
};

Run run_git(std::vector<std::string> args) {
  int pipe_fds[2];
  if (pipe(pipe_fds) != 0) throw InputError("git: cannot create a pipe");
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], 1);
  posix_spawn_file_actions_addclose(&actions, pipe_fds[0]);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  const int spawned = posix_spawnp(&pid, "git", &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(pipe_fds[1]);
  if (spawned != 0) {
    close(pipe_fds[0]);
    throw InputError("git: cannot run git (is it installed and on PATH?)");
  }
  Run run;
  char buffer[1 << 16];
  for (;;) {
    const ssize_t n = read(pipe_fds[0], buffer, sizeof buffer);
    if (n > 0) run.out.append(buffer, static_cast<size_t>(n));
    else if (n == 0 || errno != EINTR) break;
  }
  close(pipe_fds[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  run.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return run;
}

}  // namespace

std::optional<GitPath> parse_git_path(std::string_view text, bool path_required) {
  constexpr std::string_view prefix = "git:";
  if (text.substr(0, prefix.size()) != prefix) return std::nullopt;
  const std::string_view rest = text.substr(prefix.size());
  const size_t colon = rest.find(':');
  GitPath out{std::string(rest.substr(0, colon)), colon == std::string_view::npos ? "" : std::string(rest.substr(colon + 1))};
  if (out.revision.empty())
    throw InputError(std::string(text) + ": no revision after 'git:'; e.g. git:HEAD:" +
                     (path_required ? "backend.json" : "aten/src/ATen/native/native_functions.yaml"));
  if (out.path.empty() && path_required)
    throw InputError(std::string(text) + ": no file after the revision; give git:" + out.revision +
                     ":PATH (PATH relative to the current directory, e.g. git:" + out.revision + ":backend.json)");
  return out;
}

std::optional<std::string> git_show(const std::string& rev, const std::string& path) {
  if (run_git({"git", "rev-parse", "--verify", "--quiet", rev + "^{commit}"}).status != 0)
    throw InputError("git:" + rev + ": not a revision of the git checkout here (run it in the checkout; "
                     "fetch the branch first, e.g. git fetch origin main)");
  Run shown = run_git({"git", "show", rev + ":" + path});
  if (shown.status != 0) return std::nullopt;
  return std::move(shown.out);
}

}  // namespace dispatchctl
