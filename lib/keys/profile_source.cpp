#include "keys/profile_source.h"

#include <cstdio>

namespace dispatchctl {

namespace {

using Pairs = std::vector<std::pair<std::string_view, std::string_view>>;

// A C++ string_view literal of any bytes: octal escapes (always three digits,
// so a following digit cannot extend them) for everything but printable ASCII.
void literal(std::string& out, std::string_view text) {
  out += '"';
  for (unsigned char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c >= 0x20 && c < 0x7f && c != '?') {  // '?': no trigraph can form
      out += static_cast<char>(c);
    } else {
      char escape[5];
      std::snprintf(escape, sizeof escape, "\\%03o", c);
      out += escape;
    }
  }
  out += "\"sv";
}

void list(std::string& out, const std::vector<std::string_view>& items) {
  out += '{';
  for (size_t i = 0; i < items.size(); ++i) {
    if (i) out += ", ";
    literal(out, items[i]);
  }
  out += '}';
}

class SourceWriter {
 public:
  explicit SourceWriter(std::string& out) : out_(out) {}

  void field(const char* name, std::string_view value) { assign(name), literal(out_, value), end(); }
  void field(const char* name, bool value) { assign(name), out_ += value ? "true" : "false", end(); }
  void field(const char* name, const std::vector<std::string_view>& value) {
    assign(name), list(out_, value), end();
  }
  void field(const char* name, const std::vector<std::vector<std::string_view>>& value) {
    assign(name);
    out_ += "std::vector<std::vector<std::string_view>>{";
    for (const auto& items : value) list(out_, items), out_ += ",\n      ";
    out_ += '}';
    end();
  }
  void field(const char* name, const NamedKeyList& value) {
    assign(name);
    out_ += "NamedKeyList{";
    for (const auto& [key, items] : value) {
      out_ += "{";
      literal(out_, key);
      out_ += ", ";
      list(out_, items);
      out_ += "},\n      ";
    }
    out_ += '}';
    end();
  }
  void field(const char* name, const Pairs& value) {
    assign(name);
    out_ += "std::vector<std::pair<std::string_view, std::string_view>>{";
    for (const auto& [a, b] : value) {
      out_ += '{';
      literal(out_, a);
      out_ += ", ";
      literal(out_, b);
      out_ += "}, ";
    }
    out_ += '}';
    end();
  }
  void field(const char* name, const std::vector<FunctionalitySpec>& value) {
    assign(name);
    out_ += "std::vector<FunctionalitySpec>{";
    for (const auto& f : value) {
      out_ += '{';
      literal(out_, f.name);
      out_ += f.per_backend ? ", true, " : ", false, ";
      literal(out_, f.runtime_prefix);
      out_ += "},\n      ";
    }
    out_ += '}';
    end();
  }

 private:
  void assign(const char* name) { out_ += "  s."; out_ += name; out_ += " = "; }
  void end() { out_ += ";\n"; }
  std::string& out_;
};

}  // namespace

std::string release_spec_source(const ReleaseSpec& spec, std::string_view function,
                                std::string_view generated_from) {
  // Every field of ReleaseSpec is written below; a new field must be added
  // here too, or built-in releases would silently lack it. The size check
  // catches additions (a bool may hide in padding: look when adding one).
#if defined(__GLIBCXX__) && defined(__x86_64__)
  static_assert(sizeof(ReleaseSpec) == 912,
                "ReleaseSpec changed: write the new field in release_spec_source (keys/profile_source.cpp)");
#endif
  std::string out;
  out += "// Generated at build time from " + std::string(generated_from) +
         " by dispatchctl_profile (keys/profile_source.h). Do not edit.\n"
         "#include \"keys/release_spec.h\"\n\n"
         "namespace dispatchctl {\n"
         "using namespace std::string_view_literals;\n\n"
         "ReleaseSpec " + std::string(function) + "() {\n"
         "  ReleaseSpec s;\n";
  SourceWriter w(out);
#define DISPATCHCTL_FIELD(f) w.field(#f, spec.f)
  DISPATCHCTL_FIELD(version);
  DISPATCHCTL_FIELD(torch_version);
  DISPATCHCTL_FIELD(reference_build);
  DISPATCHCTL_FIELD(source);
  DISPATCHCTL_FIELD(enum_names);
  DISPATCHCTL_FIELD(python_members);
  DISPATCHCTL_FIELD(runtime_key_order);
  DISPATCHCTL_FIELD(alias_expansion);
  DISPATCHCTL_FIELD(backend_keyset_from_autograd);
  DISPATCHCTL_FIELD(autogradother_backend_keys);
  DISPATCHCTL_FIELD(backend_fallback_keys);
  DISPATCHCTL_FIELD(backends);
  DISPATCHCTL_FIELD(functionalities);
  DISPATCHCTL_FIELD(aliases);
  DISPATCHCTL_FIELD(placeholder_word);
  DISPATCHCTL_FIELD(autogradother_functionalities);
  DISPATCHCTL_FIELD(non_functional_excluded_functionalities);
  DISPATCHCTL_FIELD(non_functional_excluded_backends);
  DISPATCHCTL_FIELD(autograd_keys_without_backend_set);
  DISPATCHCTL_FIELD(functionalize_in_math_set);
  DISPATCHCTL_FIELD(backends_with_autograd_other);
  DISPATCHCTL_FIELD(python_parseable_names);
  DISPATCHCTL_FIELD(autocast_key_of_backend);
  DISPATCHCTL_FIELD(default_tls_included);
  DISPATCHCTL_FIELD(default_tls_excluded);
  DISPATCHCTL_FIELD(override_warning_once);
  DISPATCHCTL_FIELD(override_warning_silent_keys);
  DISPATCHCTL_FIELD(fallthrough_mask_after_tls);
  DISPATCHCTL_FIELD(tensor_presets);
  DISPATCHCTL_FIELD(inferred_presets);
  DISPATCHCTL_FIELD(tensor_modifier_keys);
  DISPATCHCTL_FIELD(inference_tensor_removed);
  DISPATCHCTL_FIELD(inference_mode_tls_unincluded);
  DISPATCHCTL_FIELD(inference_mode_tls_excluded);
  DISPATCHCTL_FIELD(meta_fallback_error);
  DISPATCHCTL_FIELD(autograd_fallback_backward_warning);
  DISPATCHCTL_FIELD(schema_type_variables_in_any_namespace);
  DISPATCHCTL_FIELD(ambiguous_assert_at);
  DISPATCHCTL_FIELD(ambiguous_autogradother_hint);
  DISPATCHCTL_FIELD(fallthrough_assert_at);
  DISPATCHCTL_FIELD(inferred);
#undef DISPATCHCTL_FIELD
  out += "  return s;\n}\n\n}  // namespace dispatchctl\n";
  return out;
}

}  // namespace dispatchctl
