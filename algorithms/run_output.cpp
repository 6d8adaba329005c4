#include "algorithms/run_output.h"

#include <charconv>
#include <sstream>

#include "algorithms/run_report_fields.h"
#include "io/input_error.h"
#include "report/table.h"

namespace mmsim {

namespace {

const char* execution_name(Execution e) { return e == Execution::Asynchronous ? "asynchronous" : "round-synchronous"; }

using ull = unsigned long long;

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
  report::Json j = report::Json::object();
  for (const auto& f : round_fields()) j.set(f.name, f.json(x));
  return j;
}

report::Json to_json(const RunReport& r) {
  report::Json j = report::Json::object();
  for (const auto& f : report_fields()) j.set(f.name, f.json(r));
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

template <typename Integer>
void append_number(std::string& out, Integer v) {
  char buf[24];
  const auto end = std::to_chars(buf, buf + sizeof buf, v).ptr;
  out.append(buf, end);
}

// One slot's line of the trace CSV, in trace_columns()' order, appended to `line`.
void append_trace_row(std::string& line, const SlotEvent& e, const RunStats& stats) {
  const auto& round = stats.rounds.at(static_cast<std::size_t>(e.round));
  bool first = true;
  for (const auto& c : trace_columns()) {
    if (!first) line += ',';
    first = false;
    switch (c.kind) {
      case TraceColumnKind::Integer:
        append_number(line, c.integer(e, round));
        break;
      case TraceColumnKind::Text:
        c.text(line, e, round);
        break;
      case TraceColumnKind::Addresses:
        for (std::size_t i = 0; i < e.requests.size(); ++i) {
          if (i) line += ' ';
          append_number(line, e.requests[i]);
        }
        break;
    }
  }
  line += '\n';
}

}  // namespace

bool write_trace_csv(std::ostream& out, const RunReport& r) {
  out << trace_header() << "\n";
  std::string line;
  for (const auto& e : r.trace) {
    line.clear();
    append_trace_row(line, e, r.stats);
    out << line;
    if (!out) return false;
  }
  out.flush();
  return static_cast<bool>(out);
}

TraceCsvWriter::TraceCsvWriter(std::ostream& out, std::function<void()> check) : out_(out), check_(std::move(check)) {
  out_ << trace_header() << "\n";
}

void TraceCsvWriter::consume(std::span<const SlotEvent> slots, const RunStats& stats) {
  // A round may have millions of slots: hand the stream a few kilobytes at a time.
  constexpr std::size_t kChunk = std::size_t{1} << 16;
  std::string lines;
  for (const auto& e : slots) {
    append_trace_row(lines, e, stats);
    if (lines.size() >= kChunk) {
      out_ << lines;
      lines.clear();
    }
  }
  out_ << lines;
  if (check_) check_();
  if (!out_) throw WriteError("--trace: cannot write the trace");
}

}  // namespace mmsim
