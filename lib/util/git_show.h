// A file as it was at a git revision, without a second checkout: the one
// spelling `git:REV:PATH` (parsed here, once) and `git show REV:PATH` of the
// checkout the process runs in. Every `-m`/`--base` form takes it
// (load/source_spec.h): `git:REV:PATH` (a manifest), `torchgen:git:REV[:PATH]`,
// `torchgen-backend:git:REV:PATH`.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace dispatchctl {

struct GitPath {
  std::string revision;  // as git reads it: HEAD, origin/main, a commit
  std::string path;      // relative to the current directory; "" when only REV was given
};

// "git:REV:PATH" or "git:REV" → its parts; nullopt unless TEXT starts with
// "git:". The revision ends at the first ':' (git's own REV:PATH split).
// InputError when REV is empty, or when PATH is but `path_required`.
std::optional<GitPath> parse_git_path(std::string_view text, bool path_required);

// PATH relative to the current directory ("./aten/…"); nullopt when REV has no
// such file. InputError when git cannot be run or REV is not a revision.
std::optional<std::string> git_show(const std::string& rev, const std::string& path);

}  // namespace dispatchctl
