// `git show REV:PATH` of the checkout the process runs in: how `--base
// torchgen:git:REV` reads a file as it was at a revision, without a second checkout.
#pragma once

#include <optional>
#include <string>

namespace dispatchctl {

// PATH relative to the current directory ("./aten/…"); nullopt when REV has no
// such file. InputError when git cannot be run or REV is not a revision.
std::optional<std::string> git_show(const std::string& rev, const std::string& path);

}  // namespace dispatchctl
