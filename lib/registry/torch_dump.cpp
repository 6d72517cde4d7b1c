#include "registry/torch_dump.h"

#include <nlohmann/json.hpp>

#include "registry/key_lookup.h"
#include "util/json_parse.h"

namespace dispatchctl {
namespace {

constexpr std::string_view k_separator = "=== ";

bool starts_with(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

class StateParser {
 public:
  StateParser(Registry& registry, std::string_view text, const std::string& source,
              const OperatorFilter& only)
      : registry_(registry), text_(text), source_(source), only_(only) {}

  void run() {
    bool any_block = false;
    while (next_line()) {
      if (line_.empty()) continue;
      if (starts_with(line_, k_separator)) {
        finish_block();
        block_name_ = std::string(line_.substr(k_separator.size()));
        expect_name_ = true;
        if (only_ && !only_(block_name_)) {
          skip_block();
          expect_name_ = false;
          any_block = true;
        }
        continue;
      }
      if (starts_with(line_, "name: ")) {
        if (!expect_name_ && in_block_) finish_block();
        start_block(line_.substr(6));
        any_block = true;
        continue;
      }
      if (!in_block_) fail("expected 'name: NS::OP' or '=== NS::OP' to start an operator block");
      parse_body_line();
    }
    finish_block();
    if (!any_block)
      throw InputError(source_ + ": no operator found; expected _dispatch_dump output "
                                 "starting with 'name: NS::OP'");
  }

 private:
  bool next_line() {
    if (pos_ >= text_.size()) return false;
    size_t end = text_.find('\n', pos_);
    if (end == std::string_view::npos) end = text_.size();
    line_ = text_.substr(pos_, end - pos_);
    if (!line_.empty() && line_.back() == '\r') line_.remove_suffix(1);
    pos_ = end + 1;
    ++line_number_;
    return true;
  }

  // Jumps to the next "=== " line without parsing (filtered out).
  void skip_block() {
    while (pos_ < text_.size() && text_.compare(pos_, k_separator.size(), k_separator) != 0) {
      size_t end = text_.find('\n', pos_);
      if (end == std::string_view::npos) end = text_.size();
      pos_ = end + 1;
      ++line_number_;
    }
  }

  [[noreturn]] void fail(const std::string& what) const {
    throw InputError(source_ + ":" + std::to_string(line_number_) + ": " + what);
  }

  Origin here() const { return Origin{source_, "", line_number_}; }

  void start_block(std::string_view name) {
    if (expect_name_ && name != block_name_)
      fail("block '=== " + block_name_ + "' holds operator '" + std::string(name) +
           "'; the names must agree");
    if (name.find("::") == std::string_view::npos)
      fail("operator name '" + std::string(name) + "' has no namespace; expected NS::NAME");
    op_name_ = std::string(name);
    in_block_ = true;
    expect_name_ = false;
    schema_.reset();
    schema_done_ = false;
    kernels_.clear();
  }

  void parse_body_line() {
    if (!schema_done_) {
      if (starts_with(line_, "schema: ")) {
        auto text = line_.substr(8);
        if (text == "(none)") {
          schema_done_ = true;
        } else {
          schema_ = Schema{};
          schema_->text = text;
          schema_->origin = here();
        }
        return;
      }
      if (schema_ && starts_with(line_, "debug: ")) {
        schema_->debug = line_.substr(7);
        return;
      }
      if (schema_ && starts_with(line_, "alias analysis kind: ")) {
        auto kind = line_.substr(21);
        constexpr std::string_view k_default = " (default)";
        schema_->alias_analysis_explicit = true;
        if (kind.size() > k_default.size() &&
            kind.substr(kind.size() - k_default.size()) == k_default) {
          kind.remove_suffix(k_default.size());
          schema_->alias_analysis_explicit = false;
        }
        if (kind != "FROM_SCHEMA" && kind != "CONSERVATIVE" && kind != "PURE_FUNCTION")
          fail("unknown alias analysis kind '" + std::string(kind) +
               "'; expected FROM_SCHEMA, CONSERVATIVE or PURE_FUNCTION");
        schema_->alias_analysis = kind;
        schema_done_ = true;
        return;
      }
      if (schema_) fail("expected 'debug: …' or 'alias analysis kind: …' after the schema");
      fail("expected 'schema: …' after the name line");
    }
    parse_kernel_line();
  }

  // KEY[alias][ (inactive)]: DEBUG :: SIGNATURE [ fallthrough boxed unboxed ]
  void parse_kernel_line() {
    const size_t colon = line_.find(": ");
    if (colon == std::string_view::npos) fail("expected a kernel line 'KEY: DEBUG :: SIGNATURE [ FLAGS ]'");
    std::string_view key_part = line_.substr(0, colon);
    std::string_view rest = line_.substr(colon + 2);
    bool inactive = false;
    constexpr std::string_view k_inactive = " (inactive)";
    if (key_part.size() > k_inactive.size() &&
        key_part.substr(key_part.size() - k_inactive.size()) == k_inactive) {
      key_part.remove_suffix(k_inactive.size());
      inactive = true;
    }
    bool alias_marker = false;
    if (key_part.size() > 7 && key_part.substr(key_part.size() - 7) == "[alias]") {
      key_part.remove_suffix(7);
      alias_marker = true;
    }
    const Catalogue& cat = registry_.catalogue();
    const Key key = require_key(cat, key_part, source_ + ":" + std::to_string(line_number_));
    if (alias_marker != cat.is_alias(key))
      fail("'" + std::string(key_part) + (alias_marker ? "' is not an alias key but is marked [alias]"
                                                        : "' is an alias key but lacks [alias]"));
    const size_t flags_at = rest.rfind(" [ ");
    if (flags_at == std::string_view::npos || rest.back() != ']')
      fail("kernel line lacks its flags, e.g. '[ boxed unboxed ]'");
    std::string_view flags = rest.substr(flags_at + 3, rest.size() - flags_at - 4);
    std::string_view head = rest.substr(0, flags_at);
    const size_t sig_at = head.rfind(" :: ");
    if (sig_at == std::string_view::npos) fail("kernel line lacks ' :: SIGNATURE'");
    Kernel kernel;
    kernel.key = key;
    kernel.debug = head.substr(0, sig_at);
    auto signature = head.substr(sig_at + 4);
    if (signature != "(none)") kernel.signature = signature;
    kernel.boxed = kernel.unboxed = kernel.fallthrough = false;
    size_t p = 0;
    while (p < flags.size()) {
      size_t e = flags.find(' ', p);
      if (e == std::string_view::npos) e = flags.size();
      auto flag = flags.substr(p, e - p);
      if (flag == "fallthrough") kernel.fallthrough = true;
      else if (flag == "boxed") kernel.boxed = true;
      else if (flag == "unboxed") kernel.unboxed = true;
      else if (!flag.empty())
        fail("unknown kernel flag '" + std::string(flag) + "'; expected fallthrough, boxed, unboxed");
      p = e + 1;
    }
    kernel.origin = here();
    if (inactive != (!kernels_.empty() && kernels_.back().key == key))
      fail(inactive ? "'(inactive)' kernel does not follow an active kernel of the same key"
                    : "a second active kernel for " + std::string(key_part) +
                          "; later ones must be marked (inactive)");
    kernels_.push_back(std::move(kernel));
  }

  void finish_block() {
    if (!in_block_) {
      if (expect_name_) fail("block '=== " + block_name_ + "' has no 'name:' line");
      return;
    }
    if (!schema_done_ && !schema_) fail("operator '" + op_name_ + "' has no 'schema:' line");
    if (schema_ && !schema_done_) fail("operator '" + op_name_ + "' lacks 'alias analysis kind:'");
    if (schema_) registry_.define(op_name_, std::move(*schema_));
    // The dump lists each key's kernels newest first; register oldest first.
    size_t start = 0;
    while (start < kernels_.size()) {
      size_t end = start;
      while (end < kernels_.size() && kernels_[end].key == kernels_[start].key) ++end;
      for (size_t i = end; i-- > start;) registry_.impl(op_name_, std::move(kernels_[i]));
      start = end;
    }
    if (kernels_.empty() && !schema_) registry_.declare(op_name_);
    in_block_ = false;
  }

  Registry& registry_;
  std::string_view text_;
  const std::string& source_;
  const OperatorFilter& only_;
  size_t pos_ = 0;
  int line_number_ = 0;
  std::string_view line_;
  std::string block_name_;
  bool expect_name_ = false;
  bool in_block_ = false;
  std::string op_name_;
  std::optional<Schema> schema_;
  bool schema_done_ = false;
  std::vector<Kernel> kernels_;
};

}  // namespace

void import_torch_state(Registry& registry, std::string_view text, const std::string& source,
                        const OperatorFilter& only) {
  const SignatureChecksOff off(registry);  // what PyTorch printed, it accepted
  StateParser(registry, text, source, only).run();
}

void import_torch_fallbacks(Registry& registry, std::string_view json_text,
                            const std::string& source) {
  nlohmann::ordered_json doc = parse_json_or_throw(json_text, source);
  if (!doc.is_object())
    throw InputError(source + ": expected a JSON object {\"KEY\": \"DEBUG\", …}");
  for (auto& [name, value] : doc.items()) {
    const std::string where = source + ": /" + name;
    if (!value.is_string()) throw InputError(where + ": expected a string (the fallback's debug text)");
    Fallback fb;
    fb.key = require_runtime_key(registry.catalogue(), name, where);
    std::string_view text = value.get_ref<const std::string&>();
    constexpr std::string_view k_fallthrough = "fallthrough ";
    if (starts_with(text, k_fallthrough)) {
      fb.fallthrough = true;
      text.remove_prefix(k_fallthrough.size());
    }
    fb.debug = text;
    const std::string pointer = "/" + name;
    fb.origin = Origin{source, pointer, 0};
    registry.fallback(std::move(fb));
  }
}

}  // namespace dispatchctl
