// `mmsim table NAME`: one reproduced table, as Markdown, CSV or JSON.
#include "cli/common.h"
#include "experiments/tables.h"

namespace mmsim::cli {

Runner add_table_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("table", "reproduce one of the papers' tables (see `mmsim list`)");
  struct Opts {
    std::string name;
    std::string format = "md";
    experiments::TableOptions table;
    std::uint64_t n = 0;
    int w = 0, l = 0, L = 0, k = 0, trials = 0;
  };
  auto o = std::make_shared<Opts>();
  cmd->add_option("name", o->name, "table name")->required();
  cmd->add_option("--format", o->format, "md, csv or json")->capture_default_str();
  auto* n = cmd->add_option("-n", o->n, "number of elements (tables that take it)");
  auto* w = cmd->add_option("-w,--width", o->w, "width");
  auto* l = cmd->add_option("-l,--latency", o->l, "latency of the shared memory (DMM)");
  auto* L = cmd->add_option("-L,--global-latency", o->L, "latency of the global memory");
  auto* k = cmd->add_option("-k,--dmms", o->k, "number of DMMs");
  auto* trials = cmd->add_option("--trials", o->trials, "Monte Carlo trials (tables that take it)");
  cmd->add_option("--seed", o->table.seed, "seed")->capture_default_str();
  return [o, n, w, l, L, k, trials] {
    const auto* spec = experiments::find_table(o->name);
    if (!spec) throw InputError("table: unknown '" + o->name + "' (see mmsim list)");
    report::Format f;
    try {
      f = report::parse_format(o->format);
    } catch (const std::invalid_argument& e) {
      throw InputError(e.what());
    }
    if (*n) o->table.n = o->n;
    if (*w) o->table.w = o->w;
    if (*l) o->table.l = o->l;
    if (*L) o->table.L = o->L;
    if (*k) o->table.k = o->k;
    if (*trials) {
      if (o->trials < 1) throw InputError("--trials: must be >= 1");
      o->table.trials = o->trials;
    }
    std::cout << report::render(spec->make(o->table), f);
    return kOk;
  };
}

}  // namespace mmsim::cli
