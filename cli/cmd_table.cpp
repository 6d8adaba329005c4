// `mmsim table NAME`: one reproduced table, as Markdown, CSV or JSON. Its options go through the
// same typed parser as `mmsim run` (algorithms/params.h), with bounds that keep a table to minutes.
#include <cstdio>

#include "algorithms/params.h"
#include "cli/common.h"
#include "experiments/tables.h"

namespace mmsim::cli {

namespace {

// What a table may be asked for. The caps keep the largest table to a few minutes on one core: a
// Monte Carlo table runs `trials` accesses per cell over dozens of cells, and -n sizes simulations.
std::vector<ParamSpec> table_params() {
  return {
      integer_param("n", "-n", "number of elements (tables that take it)", 1, std::int64_t{1} << 24),
      integer_param("w", "-w,--width", "width", 1, 1024),
      integer_param("l", "-l,--latency", "latency of the shared memory (DMM)", 1, 1 << 20),
      integer_param("L", "-L,--global-latency", "latency of the global memory", 1, 1 << 20),
      integer_param("k", "-k,--dmms", "number of DMMs", 1, 4096),
      integer_param("trials", "--trials", "Monte Carlo trials per cell (tables that take it)", 1, 1'000'000),
      seed_param(),
  };
}

}  // namespace

Runner add_table_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("table", "reproduce one of the papers' tables (see `mmsim list`)");
  struct Opts {
    std::string name;
    std::string format = "md";
    std::vector<ParamSpec> specs = table_params();
    std::vector<std::string> values = std::vector<std::string>(specs.size());
    std::vector<CLI::Option*> options;
  };
  auto o = std::make_shared<Opts>();
  cmd->add_option("name", o->name, "table name")->required();
  cmd->add_option("--format", o->format, "md, csv or json")->capture_default_str();
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
    experiments::TableOptions t;
    for (std::size_t i = 0; i < o->specs.size(); ++i) {
      if (o->options[i]->count() == 0) continue;
      std::int64_t v = 0;
      try {
        v = std::get<std::int64_t>(parse_value(o->specs[i], o->values[i]));
      } catch (const InputError& e) {
        throw InputError("table " + o->name + ": " + e.what());
      }
      const std::string& name = o->specs[i].name;
      if (name == "n")
        t.n = static_cast<std::uint64_t>(v);
      else if (name == "w")
        t.w = static_cast<int>(v);
      else if (name == "l")
        t.l = static_cast<int>(v);
      else if (name == "L")
        t.L = static_cast<int>(v);
      else if (name == "k")
        t.k = static_cast<int>(v);
      else if (name == "trials")
        t.trials = static_cast<int>(v);
      else if (name == "seed")
        t.seed = static_cast<std::uint64_t>(v);
    }
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
