// A `-m` value, parsed once into what it names (README "Registry sources"):
//   builtin:VERSION                   a registry built into the binary
//   python[:INTERPRETER][?import=M1,M2][&composite-calls=yes]
//                                     the live registry of that Python's torch, after
//                                     importing those modules (their registrations too)
//   torchgen:PATH[?build-backends=CPU,CUDA]
//                                     torchgen YAML (native_functions.yaml …), for a build
//                                     with these backends (default: CPU, Debian's build)
//   torchgen-backend:FILE             an out-of-tree backend's torchgen YAML
//   anything else                     a manifest file (JSON, may be gzipped); "-" is
//                                     standard input (util/file_io reads pipes once)
// A file or folder as it was at a git revision of the checkout here, in every
// form that names one: git:REV:PATH (a manifest), torchgen:git:REV[:PATH],
// torchgen-backend:git:REV:PATH (util/git_show.h; read with `git show`).
// A new form is one more Prefix entry (and a Kind) in source_spec.cpp.
#pragma once

#include <string>
#include <string_view>
#include <optional>
#include <vector>

#include "util/git_show.h"

namespace dispatchctl {

struct SourceSpec {
  enum class Kind { Builtin, File, Python, Torchgen, TorchgenBackend };
  Kind kind = Kind::File;
  std::string text;      // the -m value as given (for messages and Origin)
  std::string argument;  // version, path or interpreter ("" = default)
  // torchgen: only, from "?build-backends=CPU,CUDA": the backends whose
  // Register<Key> files the build compiles ("" = torchgen's default, CPU).
  std::string build_backends;
  // python only, from "?import=torchvision,mylib": modules imported before the export.
  std::vector<std::string> imports;
  // python only, from "?composite-calls=yes": the export also records what the
  // hand-written composite kernels call (docs/composite-calls.md; takes minutes).
  bool composite_calls = false;
  // From "git:REV:PATH" in `argument` (which keeps that spelling: the readers
  // take it); checked here, so a malformed one is refused before any loading.
  std::optional<GitPath> at_revision;
};

SourceSpec parse_source_spec(std::string_view text);

}  // namespace dispatchctl
