#include "experiments/run_report.h"

#include <sstream>

#include "report/table.h"

namespace mmsim::experiments {

PermutationReport run_permutation(const PermutationAlgorithm& algo, const Machine& machine,
                                  const PermutationInput& in, const EngineOptions& options) {
  PermutationReport r;
  r.algorithm = algo.name;
  r.permutation = in.perm->name;
  r.n = in.perm->size();
  r.machine = machine.params();
  r.async = options.execution == Execution::Asynchronous;
  const auto w = static_cast<std::uint64_t>(r.machine.w);
  r.run = algo.run(machine, in, options);
  // D_w of what was moved: the derived per-row (or per-column) permutation where there is one.
  const std::vector<Word>& moved = r.run.performed.empty() ? in.perm->p : r.run.performed;
  if (!r.run.performed.empty()) r.permutation += " (each line permuted as derived from it)";
  r.distribution = distribution(moved, w);
  r.distribution_inverse = distribution(inverse(moved), w);
  return r;
}

report::Json to_json(const PermutationReport& r) {
  using report::Json;
  Json j = Json::object();
  j.set("algorithm", r.algorithm).set("permutation", r.permutation).set("n", static_cast<unsigned long long>(r.n));
  Json m = Json::object();
  m.set("model", to_string(r.machine.model)).set("w", r.machine.w).set("l", r.machine.l).set("L", r.machine.L).set("k", r.machine.k);
  j.set("machine", std::move(m));
  j.set("execution", r.async ? "asynchronous" : "round-synchronous");
  j.set("time_units", r.run.stats.time_units);
  j.set("predicted_time_units", r.run.predicted);
  j.set("distribution", static_cast<unsigned long long>(r.distribution));
  j.set("distribution_inverse", static_cast<unsigned long long>(r.distribution_inverse));
  Json rounds = Json::array();
  for (const auto& x : r.run.stats.rounds) {
    rounds.push(Json::object()
                    .set("kernel", x.kernel)
                    .set("name", x.name)
                    .set("memory", to_string(x.memory))
                    .set("op", to_string(x.op))
                    .set("slots", static_cast<unsigned long long>(x.slots))
                    .set("time_units", x.time_units)
                    .set("max_congestion", x.max_congestion)
                    .set("bank_conflicts", static_cast<unsigned long long>(x.bank_conflicts)));
  }
  j.set("rounds", std::move(rounds));
  Json figures = Json::object();
  for (const auto& f : r.run.figures) figures.set(f.name, f.value);
  j.set("figures", std::move(figures));
  j.set("correct", r.run.correct);
  return j;
}

std::string to_text(const PermutationReport& r) {
  std::ostringstream out;
  out << r.algorithm << " on " << r.permutation << ", n = " << r.n << ", HMM w = " << r.machine.w
      << " l = " << r.machine.l << " L = " << r.machine.L << " k = " << r.machine.k << ", "
      << (r.async ? "asynchronous" : "round-synchronous") << "\n";
  report::Table t;
  t.columns = {"kernel", "round", "memory", "op", "slots", "time units", "max congestion", "bank conflicts"};
  for (const auto& x : r.run.stats.rounds)
    t.add_row({x.kernel, x.name, std::string(to_string(x.memory)), std::string(to_string(x.op)),
               static_cast<long long>(x.slots),
               x.time_units ? report::Cell{static_cast<long long>(*x.time_units)} : report::Cell{std::string("-")},
               static_cast<long long>(x.max_congestion), static_cast<long long>(x.bank_conflicts)});
  out << report::to_markdown(t);
  out << "\ntime units:           " << r.run.stats.time_units << "\n";
  out << "predicted (paper):    " << (r.run.predicted ? std::to_string(*r.run.predicted) : "-") << "\n";
  out << "D_w(P), D_w(P^-1):    " << r.distribution << ", " << r.distribution_inverse << "\n";
  for (const auto& f : r.run.figures) out << f.name << ": " << report::format_number(f.value) << " " << f.unit << "\n";
  out << "output correct:       " << (r.run.correct ? "yes" : "NO") << "\n";
  return out.str();
}

std::string trace_csv(const PermutationReport& r) {
  std::ostringstream out;
  out << "round,kernel,name,memory,warp,slot,enter,complete,requests\n";
  for (const auto& e : r.run.trace) {
    const auto& round = r.run.stats.rounds.at(static_cast<std::size_t>(e.round));
    out << e.round << "," << round.kernel << "," << round.name << ","
        << (e.memory == 0 ? std::string("global") : "shared" + std::to_string(e.memory - 1)) << "," << e.warp << ","
        << e.slot << "," << e.enter << "," << e.complete << ",";
    for (std::size_t i = 0; i < e.requests.size(); ++i) out << (i ? " " : "") << e.requests[i];
    out << "\n";
  }
  return out.str();
}

}  // namespace mmsim::experiments
