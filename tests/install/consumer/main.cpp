// Prints the AutogradCPU row of aten::add.Tensor from the built-in registry,
// in PyTorch's table format, through the installed library.
#include <cstdio>
#include <string>

#include "load/load_registry.h"
#include "table/torch_text.h"
#include "table/table.h"

int main() {
  auto registry = dispatchctl::load_registry({"builtin:2.14.1"});
  const dispatchctl::Operator* op = registry->find("aten::add.Tensor");
  if (!op) return 1;
  std::string out;
  dispatchctl::append_torch_table(out, registry->catalogue(), dispatchctl::compute_table(*registry, *op));
  std::printf("%zu operators\n%s", registry->operators().size(), out.c_str());
  return 0;
}
