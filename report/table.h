// Folder report/ (target mmsim::report): results as values and their writers. It owns the tidy
// table and its Markdown / CSV / JSON writers (this header), the one CSV writer and reader (csv.h),
// the JSON writer and reader, SHA-256 for manifests and which build made a result (build_info.h). It
// may include the standard library only.
//
// A tidy table (named columns, one row per observation) and its Markdown, CSV and JSON writers.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "report/json.h"

namespace mmsim::report {

/// A cell: empty, an integer, a real number or text.
using Cell = std::variant<std::monostate, long long, double, std::string>;

/// A column's name in CSV and JSON, from its label (the Markdown's header): snake_case, [a-z0-9_],
/// one rule for every table (docs/report.md): letters lowered, '%' -> percent, '/' -> per,
/// '+' -> plus, '>=' -> ge, '<=' -> le, '^' -> pow, a prime (') -> prime, '.' and '|' dropped
/// ("s.e." -> se), every other run of non-alphanumerics one '_'. A one-letter label keeps its case
/// (L, the global latency, is not l). "time units (DMM)" -> time_units_dmm, "within 4 s.e." ->
/// within_4_se, "m'" -> m_prime.
std::string column_key(std::string_view label);

/// The columns every CSV of a table ends with, after its parameters: which mmsim made it.
inline constexpr const char* kVersionColumn = "mmsim_version";
inline constexpr const char* kCommitColumn = "mmsim_commit";

struct Table {
  std::string title;
  std::vector<std::string> header;  ///< preamble lines: the configuration that made the table
  /// The parameters that made the table and are the same on every row (n, w, l, L, k, trials, seed,
  /// ...), as run (defaults included), in order. The CSV repeats them as columns on every row (tidy),
  /// the JSON holds them as "parameters"; a parameter that varies is a column of its own instead.
  std::vector<std::pair<std::string, Cell>> parameters;
  std::vector<std::string> columns;  ///< labels, as the Markdown prints them; CSV and JSON: column_key
  std::vector<std::vector<Cell>> rows;
  std::vector<std::string> notes;  ///< printed after the Markdown table

  void add_row(std::vector<Cell> row) { rows.push_back(std::move(row)); }
};

enum class Format { Markdown, Csv, Json };

/// "md", "csv" or "json"; throws std::invalid_argument otherwise.
Format parse_format(const std::string& name);

std::string to_markdown(const Table& t);
/// The CSV: a header of the columns' keys, then the parameters' names and kVersionColumn and
/// kCommitColumn; one line per row, each with the parameters' values and this build's version and
/// commit (report/build_info.h), so that a CSV says what made it wherever it is copied.
std::string to_csv(const Table& t);
/// {"title", "configuration", "parameters": {...}, "version", "commit", "columns": [keys],
///  "rows": [{key: value}], "notes"}.
Json to_json(const Table& t);
/// A CSV of mmsim's own (a header, then records) with kVersionColumn and kCommitColumn appended to
/// its header and this build's version and commit to every record: the figures' data files, written
/// record by record, say what made them as the tables' CSVs do. Throws CsvError on a malformed one.
std::string with_build_columns(const std::string& csv);
/// The CSV's rows as records: one object per row with every name of csv_columns(t), typed (an
/// integer, a number, text or null), in the CSV's order: what Python's mmsim.table returns.
Json to_records(const Table& t);
/// Every name a CSV of `t` has, in order: the columns' keys, the parameters, version and commit.
/// Throws std::logic_error when two are the same (a table's bug).
std::vector<std::string> csv_columns(const Table& t);
std::string render(const Table& t, Format f);

/// A table that checks its own output has a column named "correct" whose cells say "yes" or "NO"
/// (a row that did not run says why instead). Returns a one-line account of the rows that say "NO",
/// naming the first, or nullopt when none does.
std::optional<std::string> failed_rows(const Table& t);

/// Formats a real number for people: up to `digits` significant digits.
std::string format_number(double v, int digits = 6);

}  // namespace mmsim::report
