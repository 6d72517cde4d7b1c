// The CSS and JS of the coverage and diff pages, kept as the asset files
// lib/render/assets/report_page.{css,js} and compiled in as text by
// lib/CMakeLists.txt. They draw the matrix from the JSON in
// <script id="data"> (see MatrixPage): the whole 2.14.1 registry is ~73,000
// cells, so rows are built as one HTML string, filtering only toggles
// `hidden`, and every listener is delegated to the table.
#include "render/report_html.h"

namespace dispatchctl {

const char* const k_report_page_css =
#include "render/report_page_css.inc"
    ;

const char* const k_report_page_js =
#include "render/report_page_js.inc"
    ;

}  // namespace dispatchctl
