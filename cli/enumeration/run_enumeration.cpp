// `mmsim run transpose-ip-* | transpose-oop-*`: the enumeration-scheme transpositions of papers/004
// on the simulated HMM, optionally with a TLB on its global memory.
#include <algorithm>
#include <fstream>

#include "algorithms/enumeration/transpose.h"
#include "cli/run_family.h"

namespace mmsim::cli {

namespace {

// Generic names (--order, --band, ...) may be wanted by other families too: take the option if it
// is already there, and read its value by name when the run starts.
CLI::Option* option_once(CLI::App& run, const std::string& name, const std::string& description) {
  if (CLI::Option* o = run.get_option_no_throw(name)) return o;
  return run.add_option(name)->description(description)->type_name("INT");
}

std::optional<std::int64_t> integer_of(CLI::Option* o) {
  if (o->count() == 0) return std::nullopt;
  const std::string s = o->as<std::string>();
  try {
    std::size_t used = 0;
    const long long v = std::stoll(s, &used);
    if (used != s.size()) throw std::invalid_argument(s);
    return v;
  } catch (const std::exception&) {
    throw InputError(o->get_name() + ": an integer (got '" + s + "')");
  }
}

std::uint64_t non_negative(CLI::Option* o, std::int64_t v) {
  if (v < 0) throw InputError(o->get_name() + ": must be >= 0 (got " + std::to_string(v) + ")");
  return static_cast<std::uint64_t>(v);
}

int small_int(CLI::Option* o, std::int64_t v) {
  if (v < 0 || v > (std::int64_t{1} << 30)) throw InputError(o->get_name() + ": must be between 0 and 2^30");
  return static_cast<int>(v);
}

const std::vector<std::string>& names() {
  static const std::vector<std::string> all{"transpose-ip-naive", "transpose-ip-supergrid", "transpose-ip-v1",
                                            "transpose-ip-v1r",   "transpose-ip-v1b",       "transpose-oop-nvidia",
                                            "transpose-oop-v1bf"};
  return all;
}

std::string trace_csv(const enumeration::TransposeRun& r) {
  std::string s = "round,kernel,memory,warp,slot,enter,complete,requests\n";
  for (const auto& e : r.trace) {
    s += std::to_string(e.round) + "," + r.stats.rounds[static_cast<std::size_t>(e.round)].kernel + "," +
         (e.memory == 0 ? std::string("global") : "shared" + std::to_string(e.memory - 1)) + "," +
         std::to_string(e.warp) + "," + std::to_string(e.slot) + "," + std::to_string(e.enter) + "," +
         std::to_string(e.complete) + ",";
    for (std::size_t i = 0; i < e.requests.size(); ++i) s += (i ? " " : "") + std::to_string(e.requests[i]);
    s += "\n";
  }
  return s;
}

}  // namespace

RunHandler add_enumeration_run(CLI::App& run, const std::shared_ptr<CommonRunOptions>& /*common*/) {
  struct Opts {
    CLI::Option *order, *rows, *cols, *band, *region, *resident, *page, *entries, *ways, *penalty;
  };
  auto o = std::make_shared<Opts>();
  o->order = option_once(run, "--order", "transpose-*: the matrix is N x N (-n is taken as N too)");
  o->rows = option_once(run, "--rows", "transpose-oop-*: rows of the input (default --order)");
  o->cols = option_once(run, "--cols", "transpose-oop-*: columns of the input (default --rows)");
  o->band = option_once(run, "--band", "transpose-ip-v1b, transpose-oop-v1bf: band width in tiles (default 8)");
  o->region = option_once(run, "--region", "transpose-ip-supergrid: region order in tiles (default 8)");
  o->resident =
      option_once(run, "--resident", "transpose-*: blocks per DMM at a time with --async (default 2; 0: all)");
  o->page = option_once(run, "--page-cells", "transpose-*: TLB page size in cells (default 16384)");
  o->entries = option_once(run, "--tlb-entries", "transpose-*: TLB entries on the global memory (default 0: no TLB)");
  o->ways = option_once(run, "--tlb-ways", "transpose-*: TLB associativity (default 4)");
  o->penalty = option_once(run, "--tlb-penalty", "transpose-*: extra global-memory slots per TLB miss (default 16)");

  return [o](const CommonRunOptions& c) -> std::optional<int> {
    const auto& all = names();
    if (std::find(all.begin(), all.end(), c.algorithm) == all.end()) return std::nullopt;
    c.machine.validate();
    if (c.machine.params.model != ModelKind::Hmm) throw InputError("model: the transpositions run on the HMM");
    TlbParams tlb;
    if (auto v = integer_of(o->page)) tlb.page_cells = non_negative(o->page, *v);
    if (auto v = integer_of(o->entries)) tlb.entries = small_int(o->entries, *v);
    if (auto v = integer_of(o->ways)) tlb.ways = small_int(o->ways, *v);
    if (auto v = integer_of(o->penalty)) tlb.miss_penalty = small_int(o->penalty, *v);
    if (auto err = tlb.validate()) throw InputError(*err);
    std::uint32_t resident = 2;
    if (auto v = integer_of(o->resident)) {
      if (*v < 0 || *v > 1 << 20) throw InputError("--resident: must be between 0 and 2^20");
      resident = static_cast<std::uint32_t>(*v);
    }
    std::uint64_t band = 8, region = 8;
    if (auto v = integer_of(o->band)) band = non_negative(o->band, *v);
    if (auto v = integer_of(o->region)) region = non_negative(o->region, *v);
    std::optional<std::int64_t> order = integer_of(o->order);
    if (!order && c.n != 0)
      order = static_cast<std::int64_t>(std::min<std::uint64_t>(c.n, std::uint64_t{1} << 62));  // -n N: the order

    const bool oop = c.algorithm.rfind("transpose-oop-", 0) == 0;
    const TlbMachine machine(c.machine.params, tlb);
    const EngineOptions eo{c.async ? Execution::Asynchronous : Execution::RoundSynchronous, !c.trace_file.empty()};
    enumeration::TransposeRun r;
    std::string shape;
    if (oop) {
      enumeration::OutOfPlaceConfig cfg;
      const auto rows = integer_of(o->rows) ? integer_of(o->rows) : order;
      if (!rows) throw InputError("--rows: required (or --order for a square matrix)");
      const auto cols = integer_of(o->cols) ? integer_of(o->cols) : rows;
      cfg.rows = non_negative(o->rows, *rows);
      cfg.cols = non_negative(o->cols, *cols);
      cfg.banded = c.algorithm == "transpose-oop-v1bf";
      cfg.band = band;
      cfg.resident = resident;
      enumeration::check_out_of_place(c.machine.params, cfg);
      r = enumeration::run_out_of_place(machine, cfg, eo);
      shape = std::to_string(cfg.rows) + " x " + std::to_string(cfg.cols);
    } else {
      if (!order) throw InputError("--order: required (the matrix is N x N)");
      enumeration::InPlaceConfig cfg;
      cfg.order = non_negative(o->order, *order);
      cfg.band = band;
      cfg.region = region;
      cfg.resident = resident;
      if (c.algorithm == "transpose-ip-naive")
        cfg.grid = enumeration::InPlaceGrid::Naive;
      else if (c.algorithm == "transpose-ip-supergrid")
        cfg.grid = enumeration::InPlaceGrid::SuperGrid;
      else {
        cfg.grid = enumeration::InPlaceGrid::Scheme;
        cfg.scheme = c.algorithm == "transpose-ip-v1"    ? enumeration::Scheme::V1
                     : c.algorithm == "transpose-ip-v1r" ? enumeration::Scheme::V1R
                                                         : enumeration::Scheme::V1B;
      }
      enumeration::check_in_place(c.machine.params, cfg);
      r = enumeration::run_in_place(machine, cfg, eo);
      shape = std::to_string(cfg.order) + " x " + std::to_string(cfg.order);
    }
    if (!c.trace_file.empty()) {
      std::ofstream out(c.trace_file);
      if (!out || !(out << trace_csv(r))) throw InputError("--trace: cannot write " + c.trace_file);
    }
    const MachineParams& m = c.machine.params;
    if (c.json) {
      report::Json j = report::Json::object();
      j.set("algorithm", c.algorithm).set("matrix", shape).set("machine", machine_json(m));
      j.set("execution", c.async ? "asynchronous" : "round-synchronous");
      j.set("resident_blocks_per_dmm", static_cast<long long>(resident));
      if (r.band_used) j.set("band", static_cast<long long>(r.band_used));
      j.set("blocks", static_cast<long long>(r.blocks)).set("idle_blocks", static_cast<long long>(r.idle_blocks));
      j.set("launches", static_cast<long long>(r.launches)).set("time_units", r.stats.time_units);
      j.set("global_slots", static_cast<long long>(r.global_slots));
      report::Json t = report::Json::object();
      t.set("entries", tlb.entries);
      if (tlb.enabled()) {
        t.set("page_cells", static_cast<long long>(tlb.page_cells))
            .set("ways", tlb.ways)
            .set("miss_penalty", tlb.miss_penalty);
        t.set("lookups", static_cast<long long>(r.tlb.lookups)).set("hits", static_cast<long long>(r.tlb.hits));
        t.set("misses", static_cast<long long>(r.tlb.misses));
      }
      j.set("tlb", t).set("correct", r.correct);
      print_json(j);
    } else {
      std::cout << c.algorithm << " of a " << shape << " matrix, HMM w = " << m.w << " l = " << m.l << " L = " << m.L
                << " k = " << m.k << ", " << (c.async ? "asynchronous" : "round-synchronous");
      if (c.async) std::cout << ", " << resident << " resident blocks per DMM";
      std::cout << "\n";
      if (tlb.enabled())
        std::cout << "TLB: " << tlb.entries << " entries, " << tlb.ways << "-way LRU, pages of " << tlb.page_cells
                  << " cells, " << tlb.miss_penalty << " slots per miss\n";
      else
        std::cout << "TLB: off\n";
      if (r.band_used) std::cout << "band (tiles):     " << r.band_used << "\n";
      std::cout << "blocks:           " << r.blocks << " (" << r.idle_blocks << " idle) in " << r.launches << " launch"
                << (r.launches == 1 ? "" : "es") << "\n"
                << "time units:       " << r.stats.time_units << "\n"
                << "global slots:     " << r.global_slots << "\n";
      if (tlb.enabled())
        std::cout << "TLB lookups:      " << r.tlb.lookups << " (" << r.tlb.hits << " hits, " << r.tlb.misses
                  << " misses)\n";
      std::cout << "output correct:   " << (r.correct ? "yes" : "NO") << "\n";
    }
    return r.correct ? kOk : kCheckFailed;
  };
}

}  // namespace mmsim::cli
