#include <doctest/doctest.h>

#include "util/json_locate.h"

using namespace dispatchctl;

TEST_CASE("json_locate: pointers of nested values map to their line and column") {
  const std::string text =
      "{\n"
      "  \"operators\": [\n"
      "    {\"name\": \"a::b\",\n"
      "     \"kernels\": [\n"
      "       {\"key\": \"CPU\"},\n"
      "       {\"key\": \"Meta\"}\n"
      "     ]}\n"
      "  ],\n"
      "  \"we/ird~\": 1\n"
      "}\n";
  JsonLocator locator(text);
  CHECK(locator.locate("")->line == 1);
  CHECK(locator.locate("/operators/0")->line == 3);
  CHECK(locator.locate("/operators/0")->column == 5);
  CHECK(locator.locate("/operators/0/name")->column == 14);
  CHECK(locator.locate("/operators/0/kernels/1")->line == 6);
  CHECK(locator.locate("/operators/0/kernels/1/key")->line == 6);
  CHECK(locator.locate("/we~1ird~0")->line == 9);
  CHECK_FALSE(locator.locate("/operators/1"));
}

TEST_CASE("json_locate: broken JSON locates what came before the error") {
  JsonLocator locator("{\"a\": [1,\n 2,,]}");
  CHECK(locator.locate("/a/1")->line == 2);
  CHECK_FALSE(locator.locate("/a/3"));
}
