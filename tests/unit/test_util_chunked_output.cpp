// The whole-registry job renders through a fixed buffer (util/chunked_output.h)
// handed on as it fills: what reaches the sink, joined, must be PyTorch's own
// dump of every table, whatever the buffer size; no chunk may exceed it.
#include <doctest/doctest.h>

#include <cstring>
#include <vector>

#include "load/load_registry.h"
#include "util/chunked_output.h"
#include "table/torch_text.h"
#include "test_support.h"

using namespace dispatchctl;

namespace {

struct Collected {
  std::string text;
  std::vector<size_t> sizes;  // of each chunk
  // Every chunk but the last exactly `capacity` bytes (what lets fwrite pass them straight to write(2)).
  bool full_chunks(size_t capacity) const {
    for (size_t i = 0; i + 1 < sizes.size(); ++i)
      if (sizes[i] != capacity) return false;
    return sizes.empty() || (sizes.back() > 0 && sizes.back() <= capacity);
  }
};

ChunkedOutput::Sink collect_into(Collected& c) {
  return [&c](std::string_view chunk) {
    c.text += chunk;
    c.sizes.push_back(chunk.size());
  };
}

}  // namespace

TEST_CASE("every table of both releases through a small chunked buffer equals PyTorch's dump") {
  for (std::string version : {"1.13.1", "2.14.1"}) {
    CAPTURE(version);
    auto registry = load_registry({"builtin:" + version});
    constexpr size_t k_capacity = 4096;  // many chunks, rows split across them
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
    CHECK(got.full_chunks(k_capacity));
    CHECK(got.sizes.size() == (expected.size() + k_capacity - 1) / k_capacity);
  }
}

TEST_CASE("chunked output: pieces are handed on in order, in chunks of exactly the capacity") {
  Collected got;
  ChunkedOutput out(collect_into(got), 8);
  out.append("abc");
  out.append("defg");
  CHECK(got.sizes.empty());  // 7 bytes fit in 8
  out.append("hi");          // the 8th byte fills a chunk
  CHECK(got.text == "abcdefgh");
  out.append("0123456789ABCDEF");  // longer than a chunk
  CHECK(got.text == "abcdefghi0123456789ABCDE");
  CHECK(out.buffered() == 1);  // "F"
  char* p = out.reserve(8);    // a row written in place across the chunk's end
  std::memcpy(p, "xyz", 3);
  out.commit(p + 3);
  out.flush();
  out.flush();  // nothing buffered: no empty chunk
  CHECK(got.text == "abcdefghi0123456789ABCDEFxyz");
  CHECK(got.sizes == std::vector<size_t>{8, 8, 8, 4});
  CHECK(out.buffered() == 0);
}

TEST_CASE("chunked output: a piece larger than the headroom is written in place all the same") {
  Collected got;
  ChunkedOutput out(collect_into(got), 8);
  out.append("ab");
  const std::string big(ChunkedOutput::k_headroom + 100, 'x');
  char* p = out.reserve(big.size());
  std::memcpy(p, big.data(), big.size());
  out.commit(p + big.size());
  out.flush();
  CHECK(got.text == "ab" + big);
  CHECK(got.full_chunks(8));
}

TEST_CASE("chunked output: nothing reaches the sink until a chunk fills or it is flushed") {
  Collected got;
  {
    ChunkedOutput out(collect_into(got), 64);
    out.append("abandoned");
  }
  CHECK(got.sizes.empty());
  CHECK(got.text.empty());
}
