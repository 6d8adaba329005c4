#include "experiments/tables.h"

#include <map>
#include <stdexcept>

#include "experiments/results.h"
#include "io/input_error.h"

namespace mmsim::experiments {

namespace {

constexpr std::int64_t kMaxLatency = std::int64_t{1} << 20;

// The builders of one table's declaration: each takes the range that table's driver accepts, so
// that a value it would refuse is refused before any work, naming the table and the rule.
ParamSpec n_param(std::int64_t min, std::int64_t max, const std::string& help, IntegerShape shape = IntegerShape::Any) {
  return integer_param("n", "-n", help, min, max, std::nullopt, shape);
}
ParamSpec w_param(std::int64_t min, std::int64_t max, IntegerShape shape = IntegerShape::Any) {
  return integer_param("w", "-w,--width", "width", min, max, std::nullopt, shape);
}
ParamSpec l_param() { return integer_param("l", "-l,--latency", "latency of the shared memory (DMM)", 1, kMaxLatency); }
ParamSpec trials_param(std::int64_t max) {
  return integer_param("trials", "--trials", "Monte Carlo trials per cell", 1, max);
}
ParamSpec global_latency_param() {
  return integer_param("L", "-L,--global-latency", "latency of the global memory", 1, kMaxLatency);
}
ParamSpec dmms_param() { return integer_param("k", "-k,--dmms", "number of DMMs", 1, 4096); }
// The HMM of a table (table_machine): -w with the table's rule, then -l, -L and -k.
std::vector<ParamSpec> hmm_params(ParamSpec w) {
  return {std::move(w), l_param(), global_latency_param(), dmms_param()};
}
std::vector<ParamSpec> join(std::vector<ParamSpec> a, const std::vector<ParamSpec>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// What each table reads (its driver's use of TableOptions), with the driver's own rules. A Monte
// Carlo table runs `trials` accesses per cell over dozens of cells, and -n sizes simulations: the
// caps keep the largest table to minutes on one core.
const std::map<std::string, std::vector<ParamSpec>>& declarations() {
  static const std::map<std::string, std::vector<ParamSpec>> all = [] {
    const auto pow2 = IntegerShape::PowerOfTwo;
    const std::vector<ParamSpec> mc = {trials_param(1'000'000), seed_param()};
    const auto enumeration = [&](std::int64_t max_order, std::int64_t min_w) {
      return join({n_param(1, max_order, "the matrix order")}, hmm_params(w_param(min_w, 64)));
    };
    const auto bmmc = [&](std::int64_t max_n, bool trials) {
      auto p =
          join({n_param(2, max_n, "number of elements (the largest size)", pow2)}, hmm_params(w_param(1, 1024, pow2)));
      if (trials) p.push_back(trials_param(100));
      p.push_back(seed_param());
      return p;
    };
    std::map<std::string, std::vector<ParamSpec>> m;
    m["rap-t1"] = mc;
    m["rap-t2"] = mc;
    m["rap-t3"] = join({w_param(2, 256), l_param()}, mc);
    m["rap-t4"] = mc;
    m["enumeration-bands"] = enumeration(4096, 8);
    m["enumeration-tlb"] = enumeration(4096, 8);
    m["enumeration-3d"] = enumeration(2048, 1);
    m["bmmc-optimisations"] = bmmc(std::int64_t{1} << 22, true);
    m["bmmc-sizes"] = bmmc(std::int64_t{1} << 22, true);
    m["parm-sort"] = bmmc(std::int64_t{1} << 16, false);
    m["kasagi-t1"] = join(join({n_param(1, std::int64_t{1} << 24, "number of elements")}, hmm_params(w_param(1, 1024))),
                          {seed_param()});
    m["as-bounds"] = {w_param(1, 128, pow2), seed_param()};
    m["as-bounds-theorem4"] = {w_param(1, 1024, pow2), n_param(1, std::int64_t{1} << 22, "number of cells"),
                               seed_param()};
    return m;
  }();
  return all;
}

}  // namespace

const std::vector<ParamSpec>& table_option_specs() {
  static const std::vector<ParamSpec> all = {
      n_param(1, std::int64_t{1} << 24, "number of elements (tables that take it)"),
      w_param(1, 1024),
      l_param(),
      global_latency_param(),
      dmms_param(),
      trials_param(1'000'000),
      seed_param(),
  };
  return all;
}

// The CPU tables are the registry's entries that have a table driver (experiments/results.cpp),
// each with the parameters it declares above; a table without a declaration is a bug.
const std::vector<TableSpec>& tables() {
  static const std::vector<TableSpec> all = [] {
    std::vector<TableSpec> out;
    for (const auto& e : results()) {
      if (!e.table) continue;
      const auto d = declarations().find(e.name);
      if (d == declarations().end()) throw std::logic_error("table " + e.name + " declares no parameters");
      out.push_back({e.name, e.description, e.paper, e.table, d->second});
    }
    return out;
  }();
  return all;
}

TableOptions table_options(const std::string& table, const ParamValues& given, bool wide) {
  TableOptions t;
  // Only NMI Table II is printed long by default and has the paper's wide layout beside it.
  if (wide && table != "rap-t2") throw InputError("table " + table + ": --wide: only rap-t2 has a wide form");
  t.wide = wide;
  for (const auto& [name, value] : given.items()) {
    const std::int64_t v = std::get<std::int64_t>(value);
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
  return t;
}

MachineParams table_machine(const TableOptions& o) {
  MachineParams m{.model = ModelKind::Hmm,
                  .w = o.w.value_or(32),
                  .l = o.l.value_or(1),
                  .L = o.L.value_or(100),
                  .k = o.k.value_or(8)};
  if (auto err = m.validate()) throw InputError(*err);
  return m;
}

TableParameters with_machine(TableParameters first, const MachineParams& m, TableParameters last) {
  for (const char* name : {"w", "l", "L", "k"}) {
    const int v = name[0] == 'w' ? m.w : name[0] == 'l' ? m.l : name[0] == 'L' ? m.L : m.k;
    first.emplace_back(name, static_cast<long long>(v));
  }
  first.insert(first.end(), last.begin(), last.end());
  return first;
}

const TableSpec* find_table(const std::string& name) {
  for (const auto& t : tables())
    if (t.name == name) return &t;
  return nullptr;
}

}  // namespace mmsim::experiments
