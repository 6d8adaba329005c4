#include "algorithms/registry_output.h"

namespace mmsim {

const char* kind_name(ParamKind k) {
  switch (k) {
    case ParamKind::Integer:
      return "integer";
    case ParamKind::Choice:
      return "choice";
    case ParamKind::Text:
      return "text";
    case ParamKind::Flag:
      return "flag";
    case ParamKind::Matrix:
      return "matrix";
  }
  return "?";
}

report::Json to_json(const ParamSpec& s) {
  report::Json j = report::Json::object();
  j.set("name", s.name).set("flags", s.flags).set("type", kind_name(s.kind));
  // As typed on the command line (`mmsim list --json` has always printed the text).
  j.set("default", s.default_text() ? report::Json(*s.default_text()) : report::Json());
  j.set("required", s.required).set("rule", s.rule()).set("help", s.help);
  if (s.kind == ParamKind::Integer)
    j.set("min", static_cast<long long>(s.min)).set("max", static_cast<long long>(s.max));
  if (s.kind == ParamKind::Choice) {
    report::Json c = report::Json::array();
    for (const auto& x : s.choices) c.push(x);
    j.set("choices", std::move(c));
  }
  return j;
}

report::Json to_json(const AlgorithmEntry& a) {
  report::Json params = report::Json::array();
  for (const auto& s : a.params) params.push(to_json(s));
  return report::Json::object()
      .set("name", a.name)
      .set("family", a.family)
      .set("paper", a.paper)
      .set("machine", to_string(a.machine))
      .set("description", a.description)
      .set("asynchronous", a.asynchronous)
      .set("traces", a.traces)
      .set("parameters", std::move(params));
}

}  // namespace mmsim
