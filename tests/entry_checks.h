// What the families' registry tests share: look an entry up, list what it declares, run it and
// catch the one line it refuses with, and read a named figure of its report.
#pragma once

#include <doctest/doctest.h>

#include <map>
#include <set>
#include <string>

#include "algorithms/registry.h"
#include "io/input_error.h"

namespace mmsim::testing {

inline const AlgorithmEntry& entry(const std::string& name) {
  const AlgorithmEntry* e = find_algorithm(name);
  REQUIRE(e != nullptr);
  return *e;
}

inline std::set<std::string> declared(const AlgorithmEntry& e) {
  std::set<std::string> names;
  for (const auto& p : e.params) names.insert(p.name);
  return names;
}

/// The one line a bad input gives, or "" when the run was accepted.
inline std::string refusal(const std::string& name, const ParamValues& given) {
  try {
    run_algorithm(entry(name), given);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

inline const ParamSpec& param(const AlgorithmEntry& e, const std::string& name) {
  for (const auto& p : e.params)
    if (p.name == name) return p;
  FAIL("no parameter " << name);
  return e.params.front();
}

inline bool has_figure(const RunReport& r, const std::string& name) {
  for (const auto& f : r.figures)
    if (f.name == name) return true;
  return false;
}

template <class T>
T figure(const RunReport& r, const std::string& name) {
  for (const auto& f : r.figures)
    if (f.name == name) return std::get<T>(f.value);
  FAIL("no figure " << name);
  return T{};
}

}  // namespace mmsim::testing
