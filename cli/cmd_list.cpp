// `mmsim list`: every algorithm, permutation, layout, table and figure with its paper and section.
#include "algorithms/registry.h"
#include "cli/common.h"
#include "experiments/figures.h"
#include "experiments/tables.h"
#include "report/table.h"

namespace mmsim::cli {

Runner add_list_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("list", "list algorithms, permutations, layouts and tables with their papers");
  auto json = std::make_shared<bool>(false);
  cmd->add_flag("--json", *json, "print one JSON object");
  return [json] {
    auto entries = catalogue();
    for (const auto& t : experiments::tables()) entries.push_back({"table", t.name, t.description, t.paper});
    for (const auto& f : experiments::figures()) entries.push_back({"figure", f.name, f.description, f.paper});
    if (*json) {
      report::Json arr = report::Json::array();
      for (const auto& e : entries)
        arr.push(report::Json::object().set("kind", e.kind).set("name", e.name).set("description", e.description).set("paper", e.paper));
      print_json(report::Json::object().set("entries", std::move(arr)));
      return kOk;
    }
    report::Table t;
    t.columns = {"kind", "name", "description", "paper"};
    for (const auto& e : entries) t.add_row({e.kind, e.name, e.description, e.paper});
    std::cout << report::to_markdown(t);
    return kOk;
  };
}

}  // namespace mmsim::cli
