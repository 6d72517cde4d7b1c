// Every "schema" of a manifest parsed as PyTorch parses it, and named as its
// entry's "name" says, before anything is registered.
#pragma once

#include <deque>
#include <functional>
#include <string>
#include <string_view>

#include "keys/catalogue.h"
#include "registry/manifest.h"

namespace dispatchctl {

// InputError "FILE:LINE:COL: /operators/N/schema: PyTorch's refusal; fix"
// (LINE:COL point at the offending character inside the JSON string). `text`
// gives the document's text; it is asked for only to say where.
void check_manifest_schemas(const std::deque<ManifestOperator>& operators,
                            const std::function<std::string()>& text, const std::string& source,
                            const Catalogue& catalogue);
// The same for the `index`-th entry alone (a manifest applied while it is read).
void check_manifest_schema(const ManifestOperator& op, size_t index, const std::function<std::string()>& text,
                           const std::string& source, const Catalogue& catalogue);

}  // namespace dispatchctl
