// -m values parsed once into typed sources; a partial manifest layered over its
// release's registry unless --bare (issue 11 item 1); verify's diff.
#include <doctest/doctest.h>

#include "load/source_spec.h"
#include "load/load_registry.h"
#include "util/log.h"
#include "util/errors.h"
#include "verify/verify.h"

using namespace dispatchctl;

namespace {
const std::string k_custom_op = std::string(DISPATCHCTL_SOURCE_DIR) + "/examples/custom_op.json";
}  // namespace

TEST_CASE("source spec: one parse, one kind per -m value") {
  CHECK(parse_source_spec("builtin:2.14.1").kind == SourceSpec::Kind::Builtin);
  CHECK(parse_source_spec("builtin:2.14.1").argument == "2.14.1");
  CHECK(parse_source_spec("python").kind == SourceSpec::Kind::Python);
  CHECK(parse_source_spec("python").argument.empty());
  CHECK(parse_source_spec("python:/usr/bin/python3").argument == "/usr/bin/python3");
  CHECK(parse_source_spec("torchgen:native_functions.yaml").kind == SourceSpec::Kind::Torchgen);
  CHECK(parse_source_spec("torchgen-backend:xla.yaml").kind == SourceSpec::Kind::TorchgenBackend);
  CHECK(parse_source_spec("my.json").kind == SourceSpec::Kind::File);
  CHECK_THROWS_AS(parse_source_spec("builtin:"), InputError);
}

TEST_CASE("source spec: torchgen:PATH?build-backends=… chooses the build's backends") {
  const SourceSpec spec = parse_source_spec("torchgen:~/pytorch?build-backends=CPU,CUDA");
  CHECK(spec.argument == "~/pytorch");
  CHECK(spec.build_backends == "CPU,CUDA");
  CHECK(parse_source_spec("torchgen:native_functions.yaml").build_backends.empty());
  CHECK_THROWS_WITH_AS(parse_source_spec("torchgen:x.yaml?build-backend=CUDA"),
                       "-m torchgen:x.yaml?build-backend=CUDA: unknown option 'build-backend=CUDA' after '?'; "
                       "did you mean 'build-backends'?; e.g. torchgen:native_functions.yaml?build-backends=CPU,CUDA",
                       InputError);
  CHECK_THROWS_AS(parse_source_spec("torchgen:x.yaml?build-backends="), InputError);
}

TEST_CASE("source spec: python[:P]?import=… names the modules the export imports first") {
  const SourceSpec bare = parse_source_spec("python?import=torchvision,torchaudio");
  CHECK(bare.kind == SourceSpec::Kind::Python);
  CHECK(bare.argument.empty());
  CHECK(bare.imports == std::vector<std::string>{"torchvision", "torchaudio"});
  const SourceSpec with_interpreter = parse_source_spec("python:/usr/bin/python3?import=mylib");
  CHECK(with_interpreter.argument == "/usr/bin/python3");
  CHECK(with_interpreter.imports == std::vector<std::string>{"mylib"});
  CHECK(parse_source_spec("python").imports.empty());
  CHECK_THROWS_WITH_AS(parse_source_spec("python?imports=x"),
                       "-m python?imports=x: unknown option 'imports=x' after '?'; did you mean 'import'?; "
                       "e.g. python:/usr/bin/python3?import=torchvision",
                       InputError);
  CHECK(parse_source_spec("python?import=torchvision, mylib,").imports ==
        std::vector<std::string>{"torchvision", "mylib"});
  CHECK_THROWS_WITH_AS(parse_source_spec("python?import=a,,b"),
                       "-m python?import=a,,b: item 2 of 'a,,b' is empty; give names separated by single commas, "
                       "e.g. A,B",
                       InputError);
  // ?composite-calls=yes: the export also records what composites call (docs/composite-calls.md).
  CHECK_FALSE(parse_source_spec("python?import=m").composite_calls);
  const SourceSpec recorded = parse_source_spec("python:/usr/bin/python3?import=m&composite-calls=yes");
  CHECK(recorded.composite_calls);
  CHECK(recorded.imports == std::vector<std::string>{"m"});
  CHECK_FALSE(parse_source_spec("python?composite-calls=no").composite_calls);
  CHECK_THROWS_AS(parse_source_spec("python?composite-calls=1"), InputError);
  CHECK_THROWS_AS(parse_source_spec("torchgen:x.yaml?composite-calls=yes"), InputError);
  // Each kind takes its own options only.
  CHECK_THROWS_AS(parse_source_spec("python?build-backends=CUDA"), InputError);
  CHECK_THROWS_AS(parse_source_spec("torchgen:x.yaml?import=m"), InputError);
}

TEST_CASE("sources: a custom-op manifest is layered over its release's registry") {
  std::vector<std::string> notes;
  set_log_sink([&notes](LogLevel, std::string_view n) { notes.emplace_back(n); }, LogLevel::note);
  auto layered = load_registry({k_custom_op});
  CHECK(layered->find("aten::add.Tensor") != nullptr);
  CHECK(layered->find("myops::scale") != nullptr);
  CHECK(layered->fallbacks().size() > 30);  // PyTorch's own fallbacks came with it
  REQUIRE(notes.size() == 1);
  CHECK(notes[0].find("layered over builtin:2.14.1") != std::string::npos);
  notes.clear();
  {
    auto alone = load_registry(LoadRequest{{k_custom_op}, LoadRequest::Layering::Bare});
    CHECK(alone->find("aten::add.Tensor") == nullptr);
    CHECK(alone->fallbacks().empty());
  }
  // Given explicitly, nothing is layered twice and nothing needs saying.
  auto explicit_base = load_registry({"builtin:2.14.1", k_custom_op});
  CHECK(explicit_base->find("myops::scale") != nullptr);
  CHECK(notes.empty());
  set_log_sink(nullptr, LogLevel::note);
}

TEST_CASE("verify: a unified diff of recorded against computed text") {
  const std::string diff = unified_diff("a\nb\nc\n", "a\nB\nc\n", "recorded", "computed");
  CHECK(diff == "--- recorded\n+++ computed\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n");
}
