// Folder sweep/ (target mmsim::sweep): grids of runs. It owns the grid file, its rows run through the
// registry into one tidy CSV and its JSON (this header, sweep_run.h), resumable, split over the
// ranks of a communicator (sweep_comm.h; the program supplies MPI's). It may include sim/, models/,
// io/, report/ and algorithms/.
//
// `mmsim sweep GRID`: the cross product of a grid of algorithms (or the congestion Monte Carlo)
// and lists or ranges of their parameters, run through the registry, one tidy CSV row per run.
//
// The grid is a small JSON file (format: docs/sweep.md):
//   {"runs": [{"algorithm": "d-designated", "execution": ["round-synchronous", "asynchronous"],
//              "parameters": {"n": {"from": 1024, "to": 65536, "times": 4}, "perm": ["random"],
//                             "seed": [1, 2]}}]}
// The grid's values are parsed once, as the grid is read, into typed values, and every row is
// checked against its algorithm's declared rules before any runs (the registry's check_request),
// so a bad grid is refused in one line. Each row's identity is its key (algorithm,
// execution and every declared parameter as run), which is what makes a sweep resumable.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "algorithms/params.h"
#include "report/json.h"
#include "report/json_reader.h"
#include "sim/engine.h"

namespace mmsim::sweep {

/// The name that stands for the layout Monte Carlo (algorithms/layouts/congestion_mc.h) in a grid.
inline constexpr const char* kCongestion = "congestion";

struct SweepRow {
  std::string algorithm;  ///< a registry name, or kCongestion
  Execution execution = Execution::RoundSynchronous;
  ParamValues given;   ///< as the grid gave them, parsed
  ParamValues values;  ///< every declared parameter as run (defaults included)
  std::string key;     ///< identity: algorithm, execution, values
};

enum class ColumnType : std::uint8_t { Integer, Number, Text, Flag };

struct SweepColumn {
  std::string name;
  ColumnType type = ColumnType::Text;
};

struct SweepGrid {
  report::JsonValue source;          ///< the grid as written (the JSON output begins with it)
  std::vector<SweepRow> rows;        ///< the cross product, in grid order
  std::vector<SweepColumn> columns;  ///< the CSV's columns, in order
};

/// Most rows one grid may have, and most values one range may give.
inline constexpr std::uint64_t kMaxSweepRows = 1'000'000;
inline constexpr std::uint64_t kMaxRangeValues = 100'000;

/// Parses and checks a grid; `name` is how messages call it. Throws InputError, one line
/// ("sweep: NAME: runs[1] (d-designated): -n: must be ...").
SweepGrid parse_grid(std::string_view text, const std::string& name);
/// Reads the file and parses it.
SweepGrid load_grid(const std::string& path);

/// Runs one row with the engine on one thread (rows run side by side). Returns its cells, one per
/// grid column. A row its algorithm refuses (a rule joining several values) comes back with the
/// reason in the `error` column and correct = false, so the rest of the sweep still runs.
std::vector<std::string> run_row(const SweepGrid& grid, const SweepRow& row);

/// The rows of a journal (the CSV that a sweep appends a row to as each finishes) that belong to
/// `grid`, by key, their cells placed in the grid's columns. A missing journal is an empty one;
/// torn or foreign lines are skipped.
std::map<std::string, std::vector<std::string>> read_journal(const std::string& path, const SweepGrid& grid);

/// The key of a row given as cells in the grid's columns.
std::string key_of_cells(const SweepGrid& grid, const std::vector<std::string>& cells);

/// One row's cells as a JSON object, each typed by its column (an integer, a number, a flag, text;
/// an empty cell null): the JSON's rows, and Python's mmsim.sweep records.
report::Json sweep_record(const SweepGrid& grid, const std::vector<std::string>& cells);

/// The final CSV and JSON: every row in grid order (cells[i] for grid.rows[i]). The JSON is
/// {"grid": ..., "columns": [...], "rows": [{column: value}]}. Both depend on the grid and the
/// rows alone, so every way of running a sweep writes the same bytes.
std::string sweep_csv(const SweepGrid& grid, const std::vector<std::vector<std::string>>& cells);
std::string sweep_json(const SweepGrid& grid, const std::vector<std::vector<std::string>>& cells);

/// Where a sweep writes: OUT.csv, OUT.json beside it, and the journal OUT.csv.partial.
struct SweepPaths {
  std::string csv, json, journal;
};
SweepPaths sweep_paths(const std::string& csv);

}  // namespace mmsim::sweep
