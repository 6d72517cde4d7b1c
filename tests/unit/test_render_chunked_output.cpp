// The whole-registry job renders through a fixed buffer (render/chunked_output.h)
// handed on as it fills: what reaches the sink, joined, must be PyTorch's own
// dump of every table, whatever the buffer size; no chunk may exceed it.
#include <doctest/doctest.h>

#include "registry/sources.h"
#include "render/chunked_output.h"
#include "render/torch_text.h"
#include "test_support.h"

using namespace dispatchctl;

namespace {

struct Collected {
  std::string text;
  size_t chunks = 0, largest = 0;
};

ChunkedOutput::Sink collect_into(Collected& c) {
  return [&c](std::string_view chunk) {
    c.text += chunk;
    ++c.chunks;
    c.largest = std::max(c.largest, chunk.size());
  };
}

}  // namespace

TEST_CASE("every table of both releases through a small chunked buffer equals PyTorch's dump") {
  for (std::string version : {"1.13.1", "2.14.1"}) {
    CAPTURE(version);
    auto registry = load_registry({"builtin:" + version});
    constexpr size_t k_capacity = 4096;  // many flushes, rows split across none
    Collected got;
    ChunkedOutput out(collect_into(got), k_capacity);
    std::vector<Row> rows;
    for (const Operator* op : registry->sorted_operators()) {
      out.append("=== ");
      out.append(op->name);
      out.append("\n");
      compute_table(*registry, *op, rows);
      append_torch_table(out, registry->catalogue(), rows);
    }
    out.flush();
    const std::string expected = test::read_test_data("torch-" + version + "/computed_tables.txt.gz");
    CHECK(got.text.size() == expected.size());
    CHECK(got.text == expected);
    CHECK(got.largest <= k_capacity);
    CHECK(got.chunks > expected.size() / k_capacity);
  }
}

TEST_CASE("chunked output: pieces are handed on in order, a piece larger than the buffer whole") {
  Collected got;
  ChunkedOutput out(collect_into(got), 8);
  out.append("abc");
  out.append("defg");
  CHECK(got.chunks == 0);  // 7 bytes fit in 8
  out.append("hi");        // would not fit: "abcdefg" goes first
  CHECK(got.text == "abcdefg");
  out.append("0123456789ABCDEF");  // larger than the buffer
  out.flush();
  CHECK(got.text == "abcdefghi0123456789ABCDEF");
  out.flush();  // nothing buffered: no empty chunk
  CHECK(got.chunks == 3);
  CHECK(out.buffered() == 0);
}

TEST_CASE("chunked output: nothing reaches the sink until it fills or is flushed") {
  Collected got;
  {
    ChunkedOutput out(collect_into(got), 64);
    out.append("abandoned");
  }
  CHECK(got.chunks == 0);
  CHECK(got.text.empty());
}
