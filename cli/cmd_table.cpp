// `mmsim table NAME`: one reproduced table, as Markdown, CSV or JSON. Its options go through the
// same typed parser as `mmsim run` (algorithms/params.h), with the rules of experiments::table_params().
#include <cstdio>

#include "algorithms/params.h"
#include "cli/common.h"
#include "experiments/tables.h"

namespace mmsim::cli {

Runner add_table_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("table", "reproduce one of the papers' tables (see `mmsim list`)");
  struct Opts {
    std::string name;
    std::string format = "md";
    bool wide = false;
    std::vector<ParamSpec> specs = experiments::table_params();
    std::vector<std::string> values = std::vector<std::string>(specs.size());
    std::vector<CLI::Option*> options;
  };
  auto o = std::make_shared<Opts>();
  cmd->add_option("name", o->name, "table name")->required();
  cmd->add_option("--format", o->format, "md, csv or json")->capture_default_str();
  cmd->add_flag("--wide", o->wide, "the paper's layout, where the table has one besides its long form (rap-t2)");
  for (std::size_t i = 0; i < o->specs.size(); ++i) {
    const ParamSpec& s = o->specs[i];
    auto* opt = cmd->add_option(s.flags, o->values[i], s.help + " [" + s.rule() + "]")->type_name("INT");
    if (const auto d = s.default_text()) opt->default_str(*d);
    o->options.push_back(opt);
  }
  return [o] {
    const auto* spec = experiments::find_table(o->name);
    if (!spec) throw InputError("table: unknown " + quote(o->name) + " (see mmsim list)");
    report::Format f;
    try {
      f = report::parse_format(o->format);
    } catch (const std::invalid_argument& e) {
      throw InputError(e.what());
    }
    ParamValues given;
    for (std::size_t i = 0; i < o->specs.size(); ++i) {
      if (o->options[i]->count() == 0) continue;
      try {
        given.set(o->specs[i].name, parse_value(o->specs[i], o->values[i]));
      } catch (const InputError& e) {
        throw InputError("table " + o->name + ": " + e.what());
      }
    }
    const experiments::TableOptions t = experiments::table_options(o->name, given, o->wide);
    const report::Table table = spec->make(t);
    std::cout << report::render(table, f) << std::flush;
    // A table that checks its own output says so in a `correct` column: a row that is not right
    // fails the command (after the table is printed, so that the row can be read).
    if (const auto bad = report::failed_rows(table)) {
      std::fprintf(stderr, "mmsim: table %s: %s\n", o->name.c_str(), bad->c_str());
      return kCheckFailed;
    }
    return kOk;
  };
}

}  // namespace mmsim::cli
