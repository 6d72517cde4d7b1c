// The one reader of separated option values.
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

TEST_CASE("split_list: another separator, named in the error") {
  CHECK(split_list("cpu:conj: neg", "--tensor cpu:conj: neg", ':') == Names{"cpu", "conj", "neg"});
  CHECK(split_list("cpu,conj", "--x", ':') == Names{"cpu,conj"});
  CHECK_THROWS_WITH_AS(split_list("cpu::conj", "--tensor cpu::conj", ':'),
                       "--tensor cpu::conj: item 2 of 'cpu::conj' is empty; give names separated by single ':', "
                       "e.g. A:B",
                       InputError);
}

TEST_CASE("split_list: EmptyItems::Skip drops empty items, and an empty list is no items") {
  CHECK(split_list("CPU,,AutogradCPU,", "--keyset", ',', EmptyItems::Skip) == Names{"CPU", "AutogradCPU"});
  CHECK(split_list(",", "--keyset", ',', EmptyItems::Skip).empty());
  CHECK(split_list("", "--keyset", ',', EmptyItems::Skip).empty());
}
