// The one reader of comma-separated option values.
#include <doctest/doctest.h>

#include "util/errors.h"
#include "util/split_list.h"

using namespace dispatchctl;

using Names = std::vector<std::string>;

TEST_CASE("split_list: names between commas, trimmed of spaces") {
  CHECK(split_list("CPU", "--x") == Names{"CPU"});
  CHECK(split_list("CPU,CUDA", "--x") == Names{"CPU", "CUDA"});
  CHECK(split_list(" CPU , CUDA\t", "--x") == Names{"CPU", "CUDA"});
}

TEST_CASE("split_list: one trailing comma is allowed") {
  CHECK(split_list("CPU,CUDA,", "--x") == Names{"CPU", "CUDA"});
  CHECK(split_list("CPU, ", "--x") == Names{"CPU"});
}

TEST_CASE("split_list: empty items and empty lists are bad input naming the option and the item") {
  CHECK_THROWS_WITH_AS(split_list("CPU,,CUDA", "--build-backends"),
                       "--build-backends: item 2 of 'CPU,,CUDA' is empty; give names separated by single "
                       "commas, e.g. A,B",
                       InputError);
  CHECK_THROWS_WITH_AS(split_list(",CPU", "--x"),
                       "--x: item 1 of ',CPU' is empty; give names separated by single commas, e.g. A,B",
                       InputError);
  CHECK_THROWS_WITH_AS(split_list("CPU,,", "--x"),
                       "--x: item 2 of 'CPU,,' is empty; give names separated by single commas, e.g. A,B",
                       InputError);
  CHECK_THROWS_WITH_AS(split_list("", "--x"),
                       "--x: empty list; give names separated by single commas, e.g. A,B", InputError);
  CHECK_THROWS_WITH_AS(split_list(" , ", "--x"),
                       "--x: item 1 of ' , ' is empty; give names separated by single commas, e.g. A,B",
                       InputError);
}
