// Folder report/ (target mmsim::report): results as values and their writers. It owns the tidy
// table and its Markdown / CSV / JSON writers (this header), the one CSV writer and reader (csv.h),
// the JSON writer and reader, SHA-256 for manifests and which build made a result (build_info.h). It
// may include the standard library only.
//
// A tidy table (named columns, one row per observation) and its Markdown, CSV and JSON writers.
#pragma once

#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "report/json.h"

namespace mmsim::report {

/// A cell: empty, an integer, a real number or text.
using Cell = std::variant<std::monostate, long long, double, std::string>;

struct Table {
  std::string title;
  std::vector<std::string> header;  ///< preamble lines: the configuration that made the table
  std::vector<std::string> columns;
  std::vector<std::vector<Cell>> rows;
  std::vector<std::string> notes;  ///< printed after the Markdown table

  void add_row(std::vector<Cell> row) { rows.push_back(std::move(row)); }
};

enum class Format { Markdown, Csv, Json };

/// "md", "csv" or "json"; throws std::invalid_argument otherwise.
Format parse_format(const std::string& name);

std::string to_markdown(const Table& t);
std::string to_csv(const Table& t);
Json to_json(const Table& t);
std::string render(const Table& t, Format f);

/// A table that checks its own output has a column named "correct" whose cells say "yes" or "NO"
/// (a row that did not run says why instead). Returns a one-line account of the rows that say "NO",
/// naming the first, or nullopt when none does.
std::optional<std::string> failed_rows(const Table& t);

/// Formats a real number for people: up to `digits` significant digits.
std::string format_number(double v, int digits = 6);

}  // namespace mmsim::report
