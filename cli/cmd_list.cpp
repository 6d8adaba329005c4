// `mmsim list`: every algorithm with its family, paper, machine and typed parameters, then the
// permutations, layouts, patterns, kernels, tables and figures with their papers (the GPU's tables
// and figures too, from the registry of results: experiments/results.h); `--fields TABLE` prints one
// table of the run report's fields (name, unit, meaning), as docs/report.md holds it.
#include <algorithm>

#include "algorithms/registry.h"
#include "algorithms/registry_output.h"
#include "algorithms/run_report_fields.h"
#include "cli/common.h"
#include "experiments/figures.h"
#include "experiments/results.h"
#include "experiments/tables.h"
#include "report/table.h"

namespace mmsim::cli {

namespace {

std::string parameter_names(const AlgorithmEntry& a) {
  std::string s;
  for (const auto& p : a.params) s += (s.empty() ? "" : " ") + p.flag();
  return s;
}

}  // namespace

Runner add_list_command(CLI::App& app) {
  auto* cmd =
      app.add_subcommand("list", "list algorithms, permutations, layouts, tables and figures with their papers");
  auto json = std::make_shared<bool>(false);
  auto fields = std::make_shared<std::string>();
  cmd->add_flag("--json", *json, "print one JSON object");
  std::string names;  // "report, round, phase, trace"
  for (const auto& t : field_table_names()) names += (names.empty() ? "" : ", ") + t;
  CLI::Option* fields_option =
      cmd->add_option("--fields", *fields,
                      "print the fields of the run report's TABLE (" + names + ") in Markdown: key, unit, meaning")
          ->type_name("TABLE");
  return [json, fields, fields_option, names] {
    if (fields_option->count() > 0) {
      const auto& tables = field_table_names();
      if (std::find(tables.begin(), tables.end(), *fields) == tables.end())
        throw InputError("--fields: must be one of " + names + " (got " + quote(*fields) + ")");
      std::cout << field_table_markdown(*fields);
      return kOk;
    }
    auto entries = catalogue();
    for (const auto& t : experiments::tables()) entries.push_back({"table", t.name, t.description, t.paper});
    for (const auto& f : experiments::figures()) entries.push_back({"figure", f.name, f.description, f.paper});
    // The GPU's are made by `mmsim gpu ...` and scripts on a GPU machine, never by `mmsim table`.
    for (const auto& r : experiments::results())
      if (r.platform == experiments::Platform::Gpu)
        entries.push_back({r.kind == experiments::ResultKind::Table ? "gpu table" : "gpu figure", r.name,
                           r.description + " (" + r.command + ")", r.paper.empty() ? "-" : r.paper});
    if (*json) {
      report::Json algos = report::Json::array();
      for (const auto& a : algorithms()) algos.push(mmsim::to_json(a));
      report::Json arr = report::Json::array();
      for (const auto& a : algorithms())
        arr.push(report::Json::object()
                     .set("kind", "algorithm")
                     .set("name", a.name)
                     .set("description", a.description)
                     .set("paper", a.paper));
      for (const auto& e : entries)
        arr.push(report::Json::object()
                     .set("kind", e.kind)
                     .set("name", e.name)
                     .set("description", e.description)
                     .set("paper", e.paper));
      print_json(report::Json::object().set("algorithms", std::move(algos)).set("entries", std::move(arr)));
      return kOk;
    }
    report::Table a;
    a.columns = {"algorithm", "family", "machine", "paper", "parameters", "description"};
    for (const auto& e : algorithms())
      a.add_row({e.name, e.family, std::string(to_string(e.machine)), e.paper, parameter_names(e), e.description});
    std::cout << "Algorithms (`mmsim run NAME --help` gives each one's parameters, defaults and rules):\n\n"
              << report::to_markdown(a) << "\n";
    report::Table t;
    t.columns = {"kind", "name", "description", "paper"};
    for (const auto& e : entries) t.add_row({e.kind, e.name, e.description, e.paper});
    std::cout << report::to_markdown(t);
    return kOk;
  };
}

}  // namespace mmsim::cli
