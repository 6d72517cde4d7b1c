#include "render/findings_render.h"

#include "util/join.h"
#include "util/wrap.h"

#include <algorithm>
#include "render/json_document.h"

namespace dispatchctl {
namespace {

using json = nlohmann::ordered_json;

std::string place(const Location& loc) {
  std::string out = loc.file.empty() ? "dispatchctl" : loc.file;
  if (loc.line > 0) {
    out += ":" + std::to_string(loc.line);
    if (loc.column > 0) out += ":" + std::to_string(loc.column);
  } else if (!loc.pointer.empty()) {
    out += ":" + loc.pointer;
  }
  return out;
}

}  // namespace

std::string base_summary(const CheckResult& r) {
  std::string out = std::to_string(r.new_count) + " new, " + std::to_string(r.fixed.size()) + " fixed, " +
                    std::to_string(r.existing_count) + " pre-existing";
  if (!r.not_loaded.empty())
    out += " (" + join(r.not_loaded, ", ") + (r.not_loaded.size() == 1 ? " does" : " do") +
           " not load: the change could not be compared with the base, so nothing is claimed fixed)";
  return out;
}

namespace {

std::string summary_line(const CheckResult& r) {
  size_t counts[3] = {0, 0, 0};
  for (const auto& f : r.findings) ++counts[static_cast<int>(f.severity)];
  auto n = [](size_t k, const char* word) { return std::to_string(k) + " " + word + (k == 1 ? "" : "s"); };
  std::string out = n(counts[2], "error") + ", " + n(counts[1], "warning") + ", " + n(counts[0], "note") + " in " +
                    std::to_string(r.operators_checked) + " operator" + (r.operators_checked == 1 ? "" : "s") + "\n";
  if (r.compared_to_base) out += base_summary(r) + "\n";
  return out;
}

// Workflow command data: %, CR and LF; properties also : and ,.
std::string github_escape(const std::string& s, bool property) {
  std::string out;
  for (char c : s) {
    if (c == '%') out += "%25";
    else if (c == '\r') out += "%0D";
    else if (c == '\n') out += "%0A";
    else if (property && c == ':') out += "%3A";
    else if (property && c == ',') out += "%2C";
    else out += c;
  }
  return out;
}

// A manifest path as a SARIF artifact URI (relative paths stay relative,
// resolved against %SRCROOT%); builtin:VERSION is already a URI.
json artifact_location(const std::string& file) {
  json loc{{"uri", file}};
  if (!file.empty() && file[0] != '/' && file.rfind("builtin:", 0) != 0) loc["uriBaseId"] = "%SRCROOT%";
  if (!file.empty() && file[0] == '/') loc["uri"] = "file://" + file;
  return loc;
}

}  // namespace

std::string findings_text(const CheckResult& r, size_t width) {
  std::string out;
  for (const auto& f : r.findings) {
    out += place(f.location) + ": " + std::string(severity_name(f.severity)) + ": " + f.message +
           " [" + f.rule + (f.pre_existing ? ", pre-existing" : "") + "]\n";
    if (!f.details.empty()) {
      size_t pos = 0;
      while (pos <= f.details.size()) {
        size_t end = f.details.find('\n', pos);
        if (end == std::string::npos) end = f.details.size();
        std::string line = f.details.substr(pos, end - pos);
        if (width > 0 && line.size() + 6 > width) {
          // Continuation lines keep the "|" gutter so the details stay one block.
          std::string wrapped = wrap_words(line, 6, 8, width);
          for (size_t at = 0; (at = wrapped.find("\n        ", at)) != std::string::npos; at += 9)
            wrapped.replace(at, 9, "\n    |   ");
          line = std::move(wrapped);
        }
        out += "    | " + line + "\n";
        pos = end + 1;
      }
    }
  }
  return out + summary_line(r);
}

json findings_json(const CheckResult& r) {
  json doc = json_document();
  doc["torch_version"] = r.torch_version;
  doc["sources"] = r.sources;
  doc["operators_checked"] = r.operators_checked;
  size_t counts[3] = {0, 0, 0};
  for (const auto& f : r.findings) ++counts[static_cast<int>(f.severity)];
  doc["summary"] = {{"error", counts[2]}, {"warning", counts[1]}, {"note", counts[0]}};
  json findings = json::array();
  for (const auto& f : r.findings) {
    json j{{"rule", f.rule}, {"severity", severity_name(f.severity)}, {"message", f.message}};
    if (!f.details.empty()) j["details"] = f.details;
    j["location"] = {{"file", f.location.file}, {"pointer", f.location.pointer},
                     {"line", f.location.line}, {"column", f.location.column}};
    j["operator"] = f.op.empty() ? json() : json(f.op);
    j["key"] = f.key.empty() ? json() : json(f.key);
    if (!f.kind.empty()) j["kind"] = f.kind;
    if (!f.covers.empty()) j["covers"] = f.covers;
    if (f.fix) {
      json edits = json::array();
      for (const auto& e : f.fix->edits)
        edits.push_back({{"file", e.file}, {"line", e.line}, {"remove", e.remove}, {"insert", e.insert}});
      j["fix"] = {{"description", f.fix->description}, {"edits", std::move(edits)}};
    }
    if (r.compared_to_base) j["pre_existing"] = f.pre_existing;
    findings.push_back(std::move(j));
  }
  if (r.compared_to_base) {
    doc["base"] = {{"new", r.new_count}, {"fixed", r.fixed.size()}, {"pre_existing", r.existing_count}};
    if (!r.not_loaded.empty()) doc["base"]["not_loaded"] = r.not_loaded;
  }
  doc["findings"] = std::move(findings);
  return doc;
}

json findings_sarif(const CheckResult& r, const std::string& tool_version) {
  json rules = json::array();
  const auto& all = check_rules();
  for (const auto& rule : all)
    rules.push_back({{"id", rule.id},
                     {"name", rule.id},
                     {"shortDescription", {{"text", rule.summary}}},
                     {"fullDescription", {{"text", rule.help}}},
                     {"defaultConfiguration", {{"level", severity_name(rule.default_severity)}}},
                     {"help", {{"text", rule.help}}}});
  json results = json::array();
  for (const auto& f : r.findings) {
    const auto it = std::find_if(all.begin(), all.end(), [&](const RuleInfo& x) { return x.id == f.rule; });
    json physical{{"artifactLocation", artifact_location(f.location.file)}};
    if (f.location.line > 0) {
      physical["region"] = {{"startLine", f.location.line}};
      if (f.location.column > 0) physical["region"]["startColumn"] = f.location.column;
    }
    json location{{"physicalLocation", std::move(physical)}};
    if (!f.op.empty()) location["logicalLocations"] = json::array({{{"name", f.op}, {"kind", "function"}}});
    json result{{"ruleId", f.rule},
                {"ruleIndex", it - all.begin()},
                {"level", severity_name(f.severity)},
                {"message", {{"text", f.details.empty() ? f.message : f.message + "\n" + f.details}}},
                {"locations", json::array({std::move(location)})}};
    if (!f.location.pointer.empty()) result["properties"] = {{"jsonPointer", f.location.pointer}};
    results.push_back(std::move(result));
  }
  json run{{"tool",
            {{"driver",
              {{"name", "dispatchctl"},
               {"version", tool_version},
               {"informationUri", "https://github.com/dispatchctl/dispatchctl"},
               {"rules", std::move(rules)}}}}},
           {"results", std::move(results)}};
  return json{{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
              {"version", "2.1.0"},
              {"runs", json::array({std::move(run)})}};
}

std::string findings_github(const CheckResult& r) {
  std::string out;
  for (const auto& f : r.findings) {
    out += "::" + std::string(severity_name(f.severity) == "note" ? "notice" : severity_name(f.severity));
    std::string props;
    if (!f.location.file.empty()) props += "file=" + github_escape(f.location.file, true);
    if (f.location.line > 0) props += ",line=" + std::to_string(f.location.line);
    if (f.location.column > 0) props += ",col=" + std::to_string(f.location.column);
    props += std::string(props.empty() ? "" : ",") + "title=" + github_escape(f.rule, true);
    out += " " + props + "::" +
           github_escape(f.details.empty() ? f.message : f.message + "\n" + f.details, false) + "\n";
  }
  return out;
}

std::string rules_text() {
  std::string out;
  for (const auto& rule : check_rules()) {
    std::string id(rule.id);
    id.resize(std::max<size_t>(id.size(), 25), ' ');
    std::string sev(severity_name(rule.default_severity));
    sev.resize(8, ' ');
    out += id + " " + sev + " " + std::string(rule.summary) + "\n";
  }
  return out;
}

}  // namespace dispatchctl
