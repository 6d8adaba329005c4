#include "algorithms/run_output.h"

#include <sstream>

#include "io/input_error.h"
#include "report/table.h"

namespace mmsim {

namespace {

const char* execution_name(Execution e) { return e == Execution::Asynchronous ? "asynchronous" : "round-synchronous"; }

using ull = unsigned long long;

// A matrix is named by where it came from (its file, as given).
report::Json value_json(const ParamValue& v) {
  if (const auto* i = std::get_if<std::int64_t>(&v)) return report::Json(static_cast<long long>(*i));
  if (const auto* b = std::get_if<bool>(&v)) return report::Json(*b);
  return report::Json(display(v));
}

std::string value_text(const ParamValue& v) {
  if (const auto* b = std::get_if<bool>(&v)) return *b ? "yes" : "no";
  return display(v);
}

std::string figure_text(const ReportFigure& f) {
  if (const auto* i = std::get_if<std::int64_t>(&f.value)) return std::to_string(*i);
  if (const auto* d = std::get_if<double>(&f.value)) return report::format_number(*d);
  return std::get<std::string>(f.value);
}

std::string machine_text(const MachineParams& m) {
  std::string s = std::string(to_string(m.model)) + " w = " + std::to_string(m.w) + " l = " + std::to_string(m.l);
  if (m.model == ModelKind::Hmm) s += " L = " + std::to_string(m.L) + " k = " + std::to_string(m.k);
  return s;
}

}  // namespace

report::Json to_json(const MachineParams& m) {
  report::Json j = report::Json::object();
  j.set("model", to_string(m.model)).set("w", m.w).set("l", m.l);
  if (m.model == ModelKind::Hmm) j.set("L", m.L).set("k", m.k);
  return j;
}

report::Json to_json(const RoundStats& x) {
  return report::Json::object()
      .set("kernel", x.kernel)
      .set("name", x.name)
      .set("array", x.array)
      .set("memory", to_string(x.memory))
      .set("op", to_string(x.op))
      .set("warps", static_cast<ull>(x.warps))
      .set("requests", static_cast<ull>(x.requests))
      .set("slots", static_cast<ull>(x.slots))
      .set("time_units", x.time_units)
      .set("max_congestion", x.max_congestion)
      .set("bank_conflicts", static_cast<ull>(x.bank_conflicts))
      .set("extra_bank_requests", static_cast<ull>(x.extra_bank_requests));
}

report::Json to_json(const RunReport& r) {
  using report::Json;
  Json j = Json::object();
  j.set("algorithm", r.algorithm).set("family", r.family).set("paper", r.paper);
  j.set("machine", to_json(r.machine));
  Json params = Json::object();
  for (const auto& [name, v] : r.parameters.items()) params.set(name, value_json(v));
  j.set("parameters", std::move(params));
  j.set("execution", execution_name(r.execution));
  j.set("n", static_cast<ull>(r.n));
  j.set("permutation", r.permutation);
  j.set("time_units", r.stats.time_units);
  j.set("predicted_time_units", r.predicted_time_units);
  j.set("distribution", r.distribution ? Json(static_cast<ull>(*r.distribution)) : Json());
  j.set("distribution_inverse", r.distribution_inverse ? Json(static_cast<ull>(*r.distribution_inverse)) : Json());
  Json rounds = Json::array();
  for (const auto& x : r.stats.rounds) rounds.push(to_json(x));
  j.set("rounds", std::move(rounds));
  Json phases = Json::array();
  for (const auto& p : phases_of(r.stats))
    phases.push(Json::object()
                    .set("name", p.name)
                    .set("launches", static_cast<ull>(p.launches))
                    .set("rounds", static_cast<ull>(p.rounds))
                    .set("time_units", p.time_units));
  j.set("phases", std::move(phases));
  Json figures = Json::object();
  for (const auto& f : r.figures) {
    if (const auto* i = std::get_if<std::int64_t>(&f.value))
      figures.set(f.name, static_cast<long long>(*i));
    else if (const auto* d = std::get_if<double>(&f.value))
      figures.set(f.name, *d);
    else
      figures.set(f.name, std::get<std::string>(f.value));
  }
  j.set("figures", std::move(figures));
  j.set("correct", r.correct);
  return j;
}

std::string to_text(const RunReport& r) {
  std::ostringstream out;
  out << r.algorithm << " (" << r.family << ", " << r.paper << ") on the " << machine_text(r.machine) << ", "
      << execution_name(r.execution) << "\n";
  out << "parameters:";
  for (const auto& [name, v] : r.parameters.items()) out << " " << name << " = " << value_text(v) << ";";
  out << "\n";
  if (r.permutation) out << "permutation:          " << *r.permutation << "\n";
  out << "n:                    " << r.n << "\n\n";
  // Every round when there are few; the phases otherwise (the JSON always has both).
  constexpr std::size_t kRoundsShown = 64;
  if (r.stats.rounds.size() <= kRoundsShown) {
    report::Table t;
    t.columns = {"kernel", "round", "array", "memory", "op", "slots", "time units", "max congestion", "bank conflicts"};
    for (const auto& x : r.stats.rounds)
      t.add_row({x.kernel, x.name, x.array, std::string(to_string(x.memory)), std::string(to_string(x.op)),
                 static_cast<long long>(x.slots),
                 x.time_units ? report::Cell{static_cast<long long>(*x.time_units)} : report::Cell{std::string("-")},
                 static_cast<long long>(x.max_congestion), static_cast<long long>(x.bank_conflicts)});
    out << report::to_markdown(t);
  } else {
    report::Table t;
    t.columns = {"phase", "launches", "rounds", "time units"};
    for (const auto& p : phases_of(r.stats))
      t.add_row({p.name, static_cast<long long>(p.launches), static_cast<long long>(p.rounds),
                 static_cast<long long>(p.time_units)});
    out << r.stats.rounds.size() << " rounds, by phase (every round is in --json):\n" << report::to_markdown(t);
  }
  out << "\ntime units:           " << r.stats.time_units << "\n";
  out << "predicted (paper):    " << (r.predicted_time_units ? std::to_string(*r.predicted_time_units) : "-") << "\n";
  if (r.distribution)
    out << "D_w(P), D_w(P^-1):    " << *r.distribution << ", "
        << (r.distribution_inverse ? std::to_string(*r.distribution_inverse) : "-") << "\n";
  for (const auto& f : r.figures)
    out << f.name << ": " << figure_text(f) << (f.unit.empty() ? "" : " " + f.unit) << "\n";
  out << "output correct:       " << (r.correct ? "yes" : "NO") << "\n";
  return out.str();
}

std::string memory_name(int memory) { return memory == 0 ? "global" : "shared" + std::to_string(memory - 1); }

namespace {

// One slot's line of the trace CSV (kTraceHeader's columns).
void write_trace_row(std::ostream& out, const SlotEvent& e, const RunStats& stats) {
  const auto& round = stats.rounds.at(static_cast<std::size_t>(e.round));
  out << e.round << "," << round.kernel << "," << round.name << "," << round.array << "," << to_string(round.op) << ","
      << memory_name(e.memory) << "," << e.warp << "," << e.slot << "," << e.enter << "," << e.complete << ",";
  for (std::size_t i = 0; i < e.requests.size(); ++i) out << (i ? " " : "") << e.requests[i];
  out << "\n";
}

}  // namespace

bool write_trace_csv(std::ostream& out, const RunReport& r) {
  out << kTraceHeader << "\n";
  for (const auto& e : r.trace) {
    write_trace_row(out, e, r.stats);
    if (!out) return false;
  }
  out.flush();
  return static_cast<bool>(out);
}

TraceCsvWriter::TraceCsvWriter(std::ostream& out, std::function<void()> check) : out_(out), check_(std::move(check)) {
  out_ << kTraceHeader << "\n";
}

void TraceCsvWriter::consume(std::span<const SlotEvent> slots, const RunStats& stats) {
  for (const auto& e : slots) write_trace_row(out_, e, stats);
  if (check_) check_();
  if (!out_) throw WriteError("--trace: cannot write the trace");
}

}  // namespace mmsim
