#include "sweep/sweep.h"

#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <set>
#include <sstream>
#include <stdexcept>

#include "algorithms/layouts/congestion_mc.h"
#include "algorithms/registry.h"
#include "io/input_error.h"
#include "io/input_file.h"
#include "io/quote.h"
#include "report/build_info.h"
#include "report/csv.h"
#include "report/table.h"

namespace mmsim::sweep {

namespace {

// A journal row is a few hundred bytes: a journal is bounded at 4 KiB a row of its grid, and 4 KiB
// for its header (docs/exit-status.md).
constexpr std::uint64_t kJournalBytesPerRow = 4096;

// The query of a congestion row, from its values (each already checked against its rule).
layouts::CongestionQuery query_of(const ParamValues& v) {
  layouts::CongestionQuery q;
  q.layout = v.text("layout");
  q.pattern = v.text("pattern");
  q.w = static_cast<std::uint32_t>(v.integer("w"));
  q.dims = static_cast<int>(v.integer("dims"));
  q.trials = static_cast<std::uint64_t>(v.integer("trials"));
  q.seed = static_cast<std::uint64_t>(v.integer("seed"));
  return q;
}

// The columns every row of an algorithm fills, and those of the Monte Carlo.
const std::vector<SweepColumn>& engine_columns() {
  static const std::vector<SweepColumn> c{
      {"time_units", ColumnType::Integer},     {"predicted_time_units", ColumnType::Integer},
      {"rounds", ColumnType::Integer},         {"slots", ColumnType::Integer},
      {"requests", ColumnType::Integer},       {"max_congestion", ColumnType::Integer},
      {"bank_conflicts", ColumnType::Integer}, {"extra_bank_requests", ColumnType::Integer}};
  return c;
}
const std::vector<SweepColumn>& congestion_columns() {
  static const std::vector<SweepColumn> c{{"congestion_mean", ColumnType::Number},
                                          {"congestion_stderr", ColumnType::Number},
                                          {"congestion_min", ColumnType::Integer},
                                          {"congestion_max", ColumnType::Integer}};
  return c;
}

// The Monte Carlo's parameters, declared as an algorithm's are, so that a grid names them alike.
const std::vector<ParamSpec>& congestion_params() {
  static const std::vector<ParamSpec> p = [] {
    std::vector<ParamSpec> v;
    v.push_back(text_param("layout", "--layout", "layout (mmsim list)"));
    v.push_back(text_param("pattern", "--pattern", "access pattern (mmsim list)"));
    v.back().required = v.front().required = true;
    v.push_back(integer_param("w", "-w", "width", 2, 65536, 32));
    v.push_back(integer_param("dims", "--dims", "2: w x w matrix, 4: w^4 array", 2, 4, 2));
    v.push_back(
        integer_param("trials", "--trials", "warp accesses", 1, static_cast<std::int64_t>(layouts::kMaxWork2), 100000));
    v.push_back(seed_param());
    return v;
  }();
  return p;
}

const std::vector<ParamSpec>& params_of(const std::string& algorithm) {
  if (algorithm == kCongestion) return congestion_params();
  return find_algorithm(algorithm)->params;
}

const char* execution_name(Execution e) {
  return e == Execution::RoundSynchronous ? "round-synchronous" : "asynchronous";
}

constexpr char kSep = '\x1f';  // joins the parts of a key: no parameter value holds it

// The key and the CSV cells hold the values as written (the journal is read back by key).
std::string make_key(const std::string& algorithm, const std::string& execution,
                     const std::vector<std::pair<std::string, std::string>>& values) {
  std::string key = algorithm + kSep + execution;
  for (const auto& spec : params_of(algorithm)) {
    std::string v;
    for (const auto& [name, text] : values)
      if (name == spec.name) v = text;
    key += kSep + spec.name + '=' + v;
  }
  return key;
}

std::vector<std::pair<std::string, std::string>> written(const ParamValues& values) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& [name, v] : values.items()) out.emplace_back(name, display(v));
  return out;
}

// A value of a grid as it enters: the text of a JSON string or number, parsed by the parameter's
// rule, or a range's integer, already typed.
using GridValue = std::variant<std::string, std::int64_t>;

// The declared checks of the Monte Carlo's parameters, as parse_params and check_request make them
// for an algorithm.
ParamValues check_congestion(const std::map<std::string, GridValue>& given) {
  const auto fail = [](const std::string& what) { throw InputError(std::string(kCongestion) + ": " + what); };
  for (const auto& [name, value] : given) {
    bool known = false;
    for (const auto& s : congestion_params()) known = known || s.name == name;
    if (!known) fail(quote(name) + " is not a parameter (layout, pattern, w, dims, trials, seed)");
  }
  ParamValues values;
  for (const auto& spec : congestion_params()) {
    const auto it = given.find(spec.name);
    if (it == given.end() && !spec.default_value) fail(spec.flag() + " is required: " + spec.rule());
    ParamValue v;
    try {
      if (it == given.end()) {
        v = *spec.default_value;
      } else if (const auto* text = std::get_if<std::string>(&it->second)) {
        v = parse_value(spec, *text);
      } else {
        v = std::get<std::int64_t>(it->second);
        check_value(spec, v);
      }
    } catch (const InputError& e) {
      fail(e.what());
    }
    values.set(spec.name, std::move(v));
  }
  try {
    query_of(values).validate();
  } catch (const InputError& e) {
    fail(e.what());
  }
  return values;
}

// An algorithm's row: the grid's text parsed by the declared rules, its ranges' integers checked.
ParamValues parse_row(const AlgorithmEntry& entry, const std::map<std::string, GridValue>& given) {
  std::map<std::string, std::string> text;
  for (const auto& [name, v] : given)
    if (const auto* t = std::get_if<std::string>(&v)) text[name] = *t;
  ParamValues out = parse_params(entry, text);
  for (const auto& [name, v] : given)
    if (const auto* i = std::get_if<std::int64_t>(&v)) out.set(name, *i);
  return out;
}

// The values one parameter of a grid takes: a value, a list of values, or a range of integers.
// A flag's false is nullopt: the flag is left out.
std::vector<std::optional<GridValue>> values_of(const report::JsonValue& v, const std::string& where) {
  using report::JsonValue;
  const auto scalar = [&](const JsonValue& x) -> std::optional<GridValue> {
    if (x.is_string() || x.is_number()) return x.text();
    if (x.is_bool()) return x.boolean() ? std::optional<GridValue>("true") : std::nullopt;
    throw InputError(where + ": a value must be a string, a number or true/false, not " + x.describe());
  };
  std::vector<std::optional<GridValue>> out;
  if (v.is_array()) {
    if (v.items().empty()) throw InputError(where + ": an empty list gives no value");
    for (const auto& x : v.items()) out.push_back(scalar(x));
    return out;
  }
  if (!v.is_object()) return {scalar(v)};
  // A range: {"from": a, "to": b} with "step" s (a, a + s, ...) or "times" f (a, a f, ...), up to b.
  std::optional<std::int64_t> from, to, step, times;
  for (const auto& [k, x] : v.members()) {
    std::optional<std::int64_t>* slot = k == "from"    ? &from
                                        : k == "to"    ? &to
                                        : k == "step"  ? &step
                                        : k == "times" ? &times
                                                       : nullptr;
    if (!slot) throw InputError(where + ": " + quote(k) + " is not a range key (from, to, step, times)");
    if (!x.integer()) throw InputError(where + ": range key " + quote(k) + " must be an integer");
    *slot = x.integer();
  }
  if (!from || !to) throw InputError(where + ": a range needs \"from\" and \"to\"");
  if (step && times) throw InputError(where + ": a range takes \"step\" or \"times\", not both");
  if (*from > *to) throw InputError(where + ": a range's \"from\" must not exceed its \"to\"");
  if (step && *step < 1) throw InputError(where + ": a range's \"step\" must be >= 1");
  if (times && (*times < 2 || *from < 1)) throw InputError(where + ": \"times\" must be >= 2, from >= 1");
  for (std::int64_t x = *from;;) {
    if (out.size() >= kMaxRangeValues)
      throw InputError(where + ": a range gives at most " + std::to_string(kMaxRangeValues) + " values");
    out.push_back(x);
    std::int64_t s = step.value_or(1), last = 0;  // the next value is x + s, s > 0
    if (times && __builtin_mul_overflow(x, *times - 1, &s)) break;
    if (__builtin_sub_overflow(*to, s, &last) || x > last) break;
    x += s;
  }
  return out;
}

std::string format_double(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6f", v);
  return buf;
}

}  // namespace

SweepGrid parse_grid(std::string_view text, const std::string& name) {
  const std::string at = "sweep: " + name + ": ";
  SweepGrid g;
  try {
    g.source = report::parse_json(text);
  } catch (const std::invalid_argument& e) {
    throw InputError(at + "not JSON: " + e.what());
  }
  if (!g.source.is_object()) throw InputError(at + "the grid must be a JSON object with \"runs\"");
  for (const auto& [k, v] : g.source.members())
    if (k != "runs" && k != "description") throw InputError(at + quote(k) + " is not a grid key (runs, description)");
  const report::JsonValue* runs = g.source.find("runs");
  if (!runs || !runs->is_array() || runs->items().empty())
    throw InputError(at + "\"runs\" must be a non-empty list of {\"algorithm\": ..., \"parameters\": {...}}");
  std::set<std::string> param_columns, keys;
  std::vector<SweepColumn> params;
  bool any_algorithm = false, any_congestion = false;
  for (std::size_t b = 0; b < runs->items().size(); ++b) {
    const report::JsonValue& block = runs->items()[b];
    std::string where = at + "runs[" + std::to_string(b) + "]";
    if (!block.is_object()) throw InputError(where + ": must be an object");
    for (const auto& [k, v] : block.members())
      if (k != "algorithm" && k != "parameters" && k != "execution")
        throw InputError(where + ": " + quote(k) + " is not a run key (algorithm, parameters, execution)");
    const report::JsonValue* alg = block.find("algorithm");
    if (!alg || !alg->is_string())
      throw InputError(where + ": \"algorithm\" must name an algorithm (mmsim list) or congestion");
    const std::string algorithm = alg->text();
    const bool congestion = algorithm == kCongestion;
    const AlgorithmEntry* entry = congestion ? nullptr : find_algorithm(algorithm);
    if (!congestion && !entry)
      throw InputError(where + ": unknown algorithm " + quote(algorithm) + " (see mmsim list)");
    (congestion ? any_congestion : any_algorithm) = true;
    const std::string checked = where;  // the checks' messages begin with the algorithm's name
    where += " (" + algorithm + ")";
    std::vector<Execution> executions{Execution::RoundSynchronous};
    if (const report::JsonValue* ex = block.find("execution")) {
      if (congestion) throw InputError(where + ": the Monte Carlo has no execution");
      executions.clear();
      for (const auto& v : values_of(*ex, where + ": execution")) {
        if (v == GridValue("round-synchronous"))
          executions.push_back(Execution::RoundSynchronous);
        else if (v == GridValue("asynchronous"))
          executions.push_back(Execution::Asynchronous);
        else
          throw InputError(where + ": execution must be round-synchronous or asynchronous");
      }
    }
    std::vector<std::pair<std::string, std::vector<std::optional<GridValue>>>> axes;
    if (const report::JsonValue* ps = block.find("parameters")) {
      if (!ps->is_object()) throw InputError(where + ": \"parameters\" must be an object");
      for (const auto& [k, v] : ps->members()) axes.emplace_back(k, values_of(v, where + ": " + k));
    }
    std::uint64_t count = executions.size();
    for (const auto& [k, vals] : axes) {
      if (count > kMaxSweepRows / vals.size())
        throw InputError(where + ": more than " + std::to_string(kMaxSweepRows) + " rows");
      count *= vals.size();
    }
    if (g.rows.size() + count > kMaxSweepRows)
      throw InputError(at + "more than " + std::to_string(kMaxSweepRows) + " rows");
    for (const auto& spec : params_of(algorithm))
      if (param_columns.insert(spec.name).second)
        params.push_back({spec.name, spec.kind == ParamKind::Integer ? ColumnType::Integer
                                     : spec.kind == ParamKind::Flag  ? ColumnType::Flag
                                                                     : ColumnType::Text});
    // The cross product, the last parameter varying fastest.
    for (std::uint64_t r = 0; r < count; ++r) {
      SweepRow row;
      row.algorithm = algorithm;
      std::map<std::string, GridValue> given;
      std::uint64_t rest = r;
      for (std::size_t a = axes.size(); a-- > 0;) {
        const auto& [k, vals] = axes[a];
        if (const auto& v = vals[rest % vals.size()]) given[k] = *v;
        rest /= vals.size();
      }
      row.execution = executions[rest];
      try {
        if (congestion) {
          row.values = row.given = check_congestion(given);
        } else {
          EngineOptions o;
          o.execution = row.execution;
          row.given = parse_row(*entry, given);
          row.values = check_request(*entry, row.given, o).params;
        }
      } catch (const InputError& e) {
        throw InputError(checked + ": " + e.what());
      }
      row.key = make_key(algorithm, congestion ? "" : execution_name(row.execution), written(row.values));
      if (!keys.insert(row.key).second) throw InputError(where + ": a row repeats one listed before it");
      g.rows.push_back(std::move(row));
    }
  }
  // One documented order whatever the grid's (docs/sweep.md): the machine's parameters first, as
  // the papers write them, then every other parameter by name.
  std::stable_sort(params.begin(), params.end(), [](const SweepColumn& a, const SweepColumn& b) {
    const auto rank = [](const std::string& column) {
      static const char* const machine[] = {"model", "n", "w", "l", "L", "k"};
      for (std::size_t i = 0; i < std::size(machine); ++i)
        if (column == machine[i]) return i;
      return std::size(machine);
    };
    const std::size_t ra = rank(a.name), rb = rank(b.name);
    return ra != rb ? ra < rb : a.name < b.name;
  });
  g.columns = {{"algorithm", ColumnType::Text}, {"execution", ColumnType::Text}};
  g.columns.insert(g.columns.end(), params.begin(), params.end());
  if (any_algorithm) g.columns.insert(g.columns.end(), engine_columns().begin(), engine_columns().end());
  if (any_congestion) g.columns.insert(g.columns.end(), congestion_columns().begin(), congestion_columns().end());
  g.columns.push_back({"correct", ColumnType::Flag});
  g.columns.push_back({"error", ColumnType::Text});
  // Which mmsim made each row, as every table's CSV ends (report/table.h): a row kept from the
  // journal of an earlier build says so.
  g.columns.push_back({report::kVersionColumn, ColumnType::Text});
  g.columns.push_back({report::kCommitColumn, ColumnType::Text});
  return g;
}

SweepGrid load_grid(const std::string& path) {
  InputFile file("sweep", path, report::kMaxJsonBytes, "a grid may have");
  return parse_grid(file.read_all(), path);
}

std::vector<std::string> run_row(const SweepGrid& grid, const SweepRow& row) {
  std::map<std::string, std::string> cell;
  cell["algorithm"] = row.algorithm;
  const report::BuildInfo build = report::build_info();
  cell[report::kVersionColumn] = build.version;
  cell[report::kCommitColumn] = build.commit;
  for (const auto& [k, v] : written(row.values)) cell[k] = v;
  if (row.algorithm == kCongestion) {
    const auto s = layouts::simulate_congestion(query_of(row.values));
    cell["congestion_mean"] = format_double(s.mean);
    cell["congestion_stderr"] = format_double(s.stderr_mean);
    cell["congestion_min"] = std::to_string(s.min);
    cell["congestion_max"] = std::to_string(s.max);
  } else {
    cell["execution"] = execution_name(row.execution);
    EngineOptions o;
    o.execution = row.execution;
    o.threads = 1;  // rows run side by side, one per thread
    try {
      const RunReport r = run_algorithm(*find_algorithm(row.algorithm), row.given, o);
      std::uint64_t slots = 0, requests = 0, conflicts = 0, extra = 0;
      int congestion = 0;
      for (const auto& x : r.stats.rounds) {
        slots += x.slots;
        requests += x.requests;
        conflicts += x.bank_conflicts;
        extra += x.extra_bank_requests;
        congestion = std::max(congestion, x.max_congestion);
      }
      cell["time_units"] = std::to_string(r.stats.time_units);
      if (r.predicted_time_units) cell["predicted_time_units"] = std::to_string(*r.predicted_time_units);
      cell["rounds"] = std::to_string(r.stats.rounds.size());
      cell["slots"] = std::to_string(slots);
      cell["requests"] = std::to_string(requests);
      cell["max_congestion"] = std::to_string(congestion);
      cell["bank_conflicts"] = std::to_string(conflicts);
      cell["extra_bank_requests"] = std::to_string(extra);
      cell["correct"] = r.correct ? "true" : "false";
    } catch (const InputError& e) {
      cell["correct"] = "false";
      cell["error"] = e.what();
    }
  }
  std::vector<std::string> out;
  for (const auto& c : grid.columns) {
    const auto it = cell.find(c.name);
    out.push_back(it == cell.end() ? std::string() : it->second);
  }
  return out;
}

std::string key_of_cells(const SweepGrid& grid, const std::vector<std::string>& cells) {
  std::map<std::string, std::string> by_name;
  for (std::size_t i = 0; i < grid.columns.size() && i < cells.size(); ++i) by_name[grid.columns[i].name] = cells[i];
  const std::string& algorithm = by_name["algorithm"];
  if (algorithm != kCongestion && !find_algorithm(algorithm)) return {};
  std::vector<std::pair<std::string, std::string>> values;
  for (const auto& spec : params_of(algorithm)) values.emplace_back(spec.name, by_name[spec.name]);
  return make_key(algorithm, by_name["execution"], values);
}

std::map<std::string, std::vector<std::string>> read_journal(const std::string& path, const SweepGrid& grid) {
  std::map<std::string, std::vector<std::string>> rows;
  // The journal is mmsim's own file, but read as any input: a FIFO or a device in its place is refused.
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return rows;
  const std::uint64_t bound = (grid.rows.size() + 1) * kJournalBytesPerRow;
  InputFile file("sweep: journal", path, bound, "a journal of " + std::to_string(grid.rows.size()) + " rows may have");
  const std::string text = file.read_all();
  std::vector<std::string> header;
  std::set<std::string> wanted;
  for (const auto& r : grid.rows) wanted.insert(r.key);
  // Only lines that end in a line break were written whole; a torn last line is dropped.
  for (std::size_t at = 0, end; (end = text.find('\n', at)) != std::string::npos; at = end + 1) {
    const auto cells = report::split_csv_record(std::string_view(text).substr(at, end - at));
    if (!cells) continue;
    if (header.empty()) {
      header = *cells;
      continue;
    }
    if (cells->size() != header.size()) continue;
    std::vector<std::string> mine;
    for (const auto& c : grid.columns) {
      std::string v;
      for (std::size_t i = 0; i < header.size(); ++i)
        if (header[i] == c.name) v = (*cells)[i];
      mine.push_back(std::move(v));
    }
    std::string key = key_of_cells(grid, mine);
    if (wanted.count(key)) rows[std::move(key)] = std::move(mine);
  }
  return rows;
}

std::string sweep_csv(const SweepGrid& grid, const std::vector<std::vector<std::string>>& cells) {
  std::vector<std::string> header;
  for (const auto& c : grid.columns) header.push_back(c.name);
  std::string out = report::csv_line(header) + "\n";
  for (const auto& row : cells) out += report::csv_line(row) + "\n";
  return out;
}

report::Json sweep_record(const SweepGrid& grid, const std::vector<std::string>& cells) {
  report::Json o = report::Json::object();
  for (std::size_t i = 0; i < grid.columns.size(); ++i) {
    const std::string v = i < cells.size() ? cells[i] : std::string();
    report::Json value;
    if (!v.empty()) switch (grid.columns[i].type) {
        case ColumnType::Integer:
          value = report::Json(std::strtoll(v.c_str(), nullptr, 10));
          break;
        case ColumnType::Number:
          value = report::Json(std::strtod(v.c_str(), nullptr));
          break;
        case ColumnType::Flag:
          value = report::Json(v == "true");
          break;
        case ColumnType::Text:
          value = report::Json(v);
          break;
      }
    o.set(grid.columns[i].name, std::move(value));
  }
  return o;
}

std::string sweep_json(const SweepGrid& grid, const std::vector<std::vector<std::string>>& cells) {
  report::Json columns = report::Json::array();
  for (const auto& c : grid.columns) columns.push(c.name);
  report::Json rows = report::Json::array();
  for (const auto& row : cells) rows.push(sweep_record(grid, row));
  return report::Json::object()
             .set("grid", grid.source.to_json())
             .set("columns", std::move(columns))
             .set("rows", std::move(rows))
             .dump() +
         "\n";
}

SweepPaths sweep_paths(const std::string& csv) {
  const bool dot_csv = csv.size() > 4 && csv.compare(csv.size() - 4, 4, ".csv") == 0;
  return {csv, (dot_csv ? csv.substr(0, csv.size() - 4) : csv) + ".json", csv + ".partial"};
}

}  // namespace mmsim::sweep
