#include "predict/validate/csv_rows.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <stdexcept>

#include "algorithms/params.h"
#include "io/input_file.h"
#include "io/quote.h"

namespace mmsim::predict::validate {

std::vector<std::string> split_csv_line(const std::string& line) {
  std::vector<std::string> out(1);
  bool quoted = false;
  for (char c : line) {
    if (c == '"') {
      quoted = !quoted;
    } else if (c == ',' && !quoted) {
      out.emplace_back();
    } else if (c != '\r') {
      out.back() += c;
    }
  }
  return out;
}

const std::string& CsvRow::text(const std::string& column) const {
  const auto it = fields.find(column);
  if (it == fields.end()) throw error("no column " + quote(column));
  return it->second;
}

double CsvRow::number(const std::string& column) const {
  const std::string& s = text(column);
  std::size_t used = 0;
  double v = NAN;
  try {
    v = std::stod(s, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != s.size() || s.empty() || !std::isfinite(v))
    throw error(column + " must be a number (got " + quote(s) + ")");
  return v;
}

std::uint64_t CsvRow::integer(const std::string& column) const {
  static const ParamSpec spec = integer_param("value", "value", "", 0, std::numeric_limits<std::int64_t>::max());
  const auto v = parse_integer(text(column), spec);
  if (const auto* why = std::get_if<std::string>(&v)) throw error(column + ": " + *why);
  return static_cast<std::uint64_t>(std::get<std::int64_t>(v));
}

std::invalid_argument CsvRow::error(const std::string& what) const {
  return std::invalid_argument(quote(file, 60) + ", line " + std::to_string(line) + ": " + what);
}

std::vector<std::string> read_csv_header(const std::filesystem::path& csv, const std::string& option) {
  InputFile input(option, csv.string(), std::uint64_t{1} << 28, "a measured table");
  std::string line;
  if (!std::getline(input.stream(), line)) throw std::invalid_argument(csv.string() + ": empty");
  return split_csv_line(line);
}

std::vector<CsvRow> read_csv_rows(const std::filesystem::path& csv, const std::vector<std::string>& required,
                                  const std::string& option) {
  InputFile input(option, csv.string(), std::uint64_t{1} << 28, "a measured table");
  std::istream& in = input.stream();
  std::string line;
  if (!std::getline(in, line)) throw std::invalid_argument(csv.string() + ": empty");
  const std::vector<std::string> head = split_csv_line(line);
  for (const std::string& c : required)
    if (std::find(head.begin(), head.end(), c) == head.end())
      throw std::invalid_argument(csv.string() + ": no column " + quote(c));
  std::vector<CsvRow> out;
  for (int number = 2; std::getline(in, line); ++number) {
    if (line.empty()) continue;
    const std::vector<std::string> f = split_csv_line(line);
    CsvRow row{csv.string(), number, {}};
    if (f.size() < head.size()) throw row.error("fewer fields than the header");
    for (std::size_t i = 0; i < head.size(); ++i) row.fields[head[i]] = f[i];
    out.push_back(std::move(row));
  }
  return out;
}

}  // namespace mmsim::predict::validate
