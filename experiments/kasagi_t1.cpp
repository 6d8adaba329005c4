// KNI Table 1 reproduced by simulation: for each algorithm the rounds of each kind are
// counted from the engine's per-round statistics, and the time comes from the engine; the paper's
// closed form stands beside it with the difference.
#include <cmath>
#include <optional>

#include "algorithms/closed_forms.h"
#include "algorithms/offline/entries.h"
#include "experiments/tables.h"
#include "io/input_error.h"

namespace mmsim::experiments {

namespace {

struct RoundKinds {
  int casual_read = 0, casual_write = 0, coalesced_read = 0, coalesced_write = 0, cf_read = 0, cf_write = 0,
      conflicted_read = 0, conflicted_write = 0;
};

// A global round is coalesced when every warp touched one address group (slots == warps), casual
// otherwise; a shared round is conflict-free when its largest congestion is 1.
RoundKinds classify(const RunStats& s) {
  RoundKinds k;
  for (const auto& r : s.rounds) {
    const bool read = r.op == Op::Read;
    if (r.memory == Space::Global) {
      const bool coalesced = r.slots == r.warps;
      (coalesced ? (read ? k.coalesced_read : k.coalesced_write) : (read ? k.casual_read : k.casual_write))++;
    } else {
      const bool cf = r.max_congestion <= 1;
      (cf ? (read ? k.cf_read : k.cf_write) : (read ? k.conflicted_read : k.conflicted_write))++;
    }
  }
  return k;
}

}  // namespace

report::Table kasagi_t1(const TableOptions& o) {
  const MachineParams m = table_machine(o);
  const std::uint64_t n = o.n.value_or(std::uint64_t{1024} * 1024);
  if (n == 0 || n > (std::uint64_t{1} << 26)) throw InputError("-n: between 1 and 2^26");
  const Machine machine(m);

  report::Table t;
  t.title = "KNI Table 1: rounds and time units on the HMM";
  t.header = {"n = " + std::to_string(n) + ", w = " + std::to_string(m.w) + ", l = " + std::to_string(m.l) + ", L = " +
                  std::to_string(m.L) + ", k = " + std::to_string(m.k) + ", seed = " + std::to_string(o.seed),
              "rounds counted from the simulation; time units simulated round-synchronously (and asynchronously)"};
  t.parameters = with_machine({{"n", integer_cell(n)}}, m, {{"seed", integer_cell(o.seed)}});
  t.columns = {"algorithm",
               "permutation",
               "casual read",
               "casual write",
               "coalesced read",
               "coalesced write",
               "conflict-free read",
               "conflict-free write",
               "shared rounds with conflicts",
               "time units",
               "closed form",
               "difference",
               "async time units",
               "correct"};

  struct Row {
    std::string algorithm, permutation;
  };
  // KNI Table 1's rows; the in-place row is shown once per permutation it serves.
  const std::vector<Row> rows{{"d-designated", "random"}, {"s-designated", "random"},       {"transpose", "transpose"},
                              {"shuffle", "shuffle"},     {"bit-reversal", "bit-reversal"}, {"row-wise", "random"},
                              {"column-wise", "random"},  {"scheduled", "random"}};
  for (const auto& row : rows) {
    const PermutationAlgorithm* algo = find_permutation_algorithm(row.algorithm);
    if (!algo) continue;  // not built into this mmsim
    std::string permutation = row.permutation;
    if (row.algorithm == "row-wise") permutation += " (each row)";
    if (row.algorithm == "column-wise") permutation += " (each column)";
    std::optional<RunReport> sync, async;
    try {
      const Permutation p = named_permutation(row.permutation, n, o.seed);
      PermutationInput in;
      in.perm = &p;
      in.seed = o.seed;
      algo->check(m, in);
      sync = offline::run_permutation(*algo, machine, in, {Execution::RoundSynchronous, false});
      async = offline::run_permutation(*algo, machine, in, {Execution::Asynchronous, false});
    } catch (const InputError& e) {
      // A setting some algorithm cannot run (e.g. n not a perfect square): say so on its row.
      t.add_row({row.algorithm,
                 permutation,
                 {},
                 {},
                 {},
                 {},
                 {},
                 {},
                 {},
                 {},
                 {},
                 {},
                 {},
                 std::string("not run: ") + e.what()});
      continue;
    }
    const RoundKinds k = classify(sync->stats);
    report::Cell predicted, diff;
    if (sync->predicted_time_units) {
      predicted = static_cast<long long>(*sync->predicted_time_units);
      diff = static_cast<long long>(sync->stats.time_units - *sync->predicted_time_units);
    }
    t.add_row({row.algorithm, permutation, static_cast<long long>(k.casual_read),
               static_cast<long long>(k.casual_write), static_cast<long long>(k.coalesced_read),
               static_cast<long long>(k.coalesced_write), static_cast<long long>(k.cf_read),
               static_cast<long long>(k.cf_write), static_cast<long long>(k.conflicted_read + k.conflicted_write),
               static_cast<long long>(sync->stats.time_units), predicted, diff,
               static_cast<long long>(async->stats.time_units),
               std::string(sync->correct && async->correct ? "yes" : "NO")});
  }
  t.notes.push_back(
      "Closed forms as in Table 1 with the shared-memory term read as the busiest DMM's slots plus l - 1 "
      "(n/(kw) when k divides the number of blocks and l = 1); row-wise and column-wise take a random "
      "permutation of every row (column); the scheduled permutation's offline schedule is not in its time.");

  // D_w(P) of the named permutations against KNI Sect. 4's statements.
  const auto w = static_cast<std::uint64_t>(m.w);
  t.notes.push_back("D_w(P) of the named permutations (KNI Sect. 4), measured beside the paper's value:");
  for (const std::string name : {"identical", "shuffle", "bit-reversal", "transpose", "random"}) {
    std::string line = "- " + name + ": ";
    try {
      const Permutation p = named_permutation(name, n, o.seed);
      const auto d = distribution(p.p, w), di = distribution(inverse(p.p), w);
      std::string claim;
      bool holds = false;
      if (name == "identical") {
        claim = "D_w(P) = n/w = " + std::to_string(n / w);
        holds = d == n / w;
      } else if (name == "shuffle") {
        claim = "D_w(P) = D_w(P^-1) = 2n/w = " + std::to_string(2 * n / w);
        holds = d == 2 * n / w && di == 2 * n / w;
      } else if (name == "random") {
        claim = "not a constant; always between n/w and n";
        holds = d >= n / w && d <= n && di >= n / w && di <= n;
      } else {
        claim = "D_w(P) = D_w(P^-1) = n = " + std::to_string(n);
        holds = d == n && di == n;
      }
      line += "D_w(P) = " + std::to_string(d) + ", D_w(P^-1) = " + std::to_string(di) + "; paper: " + claim + " -> " +
              (holds ? "holds" : "does not hold here");
      if (!holds && name != "identical" && name != "random")
        line += " (the statement needs n >= w^2 and, for transpose, sqrt(n) >= w)";
    } catch (const InputError& e) {
      line += std::string("not defined here (") + e.what() + ")";
    }
    t.notes.push_back(line);
  }
  return t;
}

}  // namespace mmsim::experiments
