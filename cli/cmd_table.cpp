// `mmsim table NAME`: one reproduced table, as Markdown, CSV or JSON. Its options go through the
// same typed parser as `mmsim run` (algorithms/params.h); each table takes only the parameters it
// declares (experiments::TableSpec::params), with its own rules.
#include <cstdio>

#include "algorithms/params.h"
#include "cli/common.h"
#include "experiments/tables.h"

namespace mmsim::cli {

namespace {

// The table's own rule for an option given on the command line: refused, naming the table, when
// the table does not read it (as `run` refuses what an algorithm does not declare).
const ParamSpec& table_rule(const experiments::TableSpec& table, const ParamSpec& option) {
  std::string takes;
  for (const auto& p : table.params) {
    if (p.name == option.name) return p;
    takes += (takes.empty() ? "" : ", ") + p.flag();
  }
  throw InputError("table " + table.name + ": " + option.flag() + " is not an option of this table (it takes " +
                   (takes.empty() ? std::string("none") : takes) + ")");
}

}  // namespace

Runner add_table_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("table", "reproduce one of the papers' tables (see `mmsim list`)");
  struct Opts {
    std::string name;
    std::string format = "md";
    bool wide = false;
    std::vector<ParamSpec> specs = experiments::table_option_specs();
    std::vector<std::string> values = std::vector<std::string>(specs.size());
    std::vector<CLI::Option*> options;
  };
  auto o = std::make_shared<Opts>();
  cmd->add_option("name", o->name, "table name")->required();
  std::string footer = "Each table takes only its own options:";
  for (const auto& t : experiments::tables()) {
    footer += "\n  " + t.name + ":";
    for (const auto& p : t.params) footer += " " + p.flag() + " (" + p.rule() + ")";
  }
  cmd->footer(footer);
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
    const report::Format f = parse_format_option(o->format);
    ParamValues given;
    for (std::size_t i = 0; i < o->specs.size(); ++i) {
      if (o->options[i]->count() == 0) continue;
      const ParamSpec& rule = table_rule(*spec, o->specs[i]);
      try {
        given.set(rule.name, parse_value(rule, o->values[i]));
      } catch (const InputError& e) {
        throw InputError("table " + spec->name + ": " + e.what());
      }
    }
    // A driver's own checks (rules joining several values) name the table too.
    const report::Table table = [&] {
      const experiments::TableOptions t = experiments::table_options(spec->name, given, o->wide);
      try {
        return spec->make(t);
      } catch (const InputError& e) {
        throw InputError("table " + spec->name + ": " + e.what());
      }
    }();
    std::cout << report::render(table, f) << std::flush;
    // A table that checks its own output says so in a `correct` column: a row that is not right
    // fails the command (after the table is printed, so that the row can be read).
    if (const auto bad = report::failed_rows(table)) {
      std::fprintf(stderr, "mmsim: table %s: %s\n", spec->name.c_str(), bad->c_str());
      return kCheckFailed;
    }
    return kOk;
  };
}

}  // namespace mmsim::cli
