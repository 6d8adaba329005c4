#include "report/table.h"

#include <cstdio>
#include <stdexcept>

#include "report/csv.h"

namespace mmsim::report {

Format parse_format(const std::string& name) {
  if (name == "md") return Format::Markdown;
  if (name == "csv") return Format::Csv;
  if (name == "json") return Format::Json;
  throw std::invalid_argument("--format: must be md, csv or json (got '" + name + "')");
}

std::string format_number(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*g", digits, v);
  return buf;
}

namespace {
std::string text(const Cell& c) {
  if (std::holds_alternative<std::monostate>(c)) return "";
  if (const auto* i = std::get_if<long long>(&c)) return std::to_string(*i);
  if (const auto* d = std::get_if<double>(&c)) return format_number(*d);
  return std::get<std::string>(c);
}
}  // namespace

std::string to_markdown(const Table& t) {
  std::string out;
  if (!t.title.empty()) out += "## " + t.title + "\n\n";
  for (const auto& h : t.header) out += h + "  \n";
  if (!t.header.empty()) out += "\n";
  out += "|";
  for (const auto& c : t.columns) out += " " + c + " |";
  out += "\n|";
  for (std::size_t i = 0; i < t.columns.size(); ++i) out += "---|";
  out += "\n";
  for (const auto& r : t.rows) {
    out += "|";
    for (const auto& c : r) out += " " + text(c) + " |";
    out += "\n";
  }
  if (!t.notes.empty()) out += "\n";
  for (const auto& n : t.notes) out += n + "\n";
  return out;
}

std::string to_csv(const Table& t) {
  std::string out = csv_line(t.columns) + "\n";
  for (const auto& r : t.rows) {
    std::vector<std::string> cells;
    for (const auto& c : r) cells.push_back(text(c));
    out += csv_line(cells) + "\n";
  }
  return out;
}

Json to_json(const Table& t) {
  Json j = Json::object();
  j.set("title", t.title);
  Json header = Json::array();
  for (const auto& h : t.header) header.push(h);
  j.set("configuration", std::move(header));
  Json rows = Json::array();
  for (const auto& r : t.rows) {
    Json row = Json::object();
    for (std::size_t i = 0; i < r.size() && i < t.columns.size(); ++i) {
      const Cell& c = r[i];
      if (std::holds_alternative<std::monostate>(c))
        row.set(t.columns[i], nullptr);
      else if (const auto* v = std::get_if<long long>(&c))
        row.set(t.columns[i], *v);
      else if (const auto* d = std::get_if<double>(&c))
        row.set(t.columns[i], *d);
      else
        row.set(t.columns[i], std::get<std::string>(c));
    }
    rows.push(std::move(row));
  }
  j.set("rows", std::move(rows));
  Json notes = Json::array();
  for (const auto& n : t.notes) notes.push(n);
  j.set("notes", std::move(notes));
  return j;
}

std::string render(const Table& t, Format f) {
  switch (f) {
    case Format::Markdown:
      return to_markdown(t);
    case Format::Csv:
      return to_csv(t);
    case Format::Json:
      return to_json(t).dump() + "\n";
  }
  return {};
}

std::optional<std::string> failed_rows(const Table& t) {
  std::size_t column = t.columns.size();
  for (std::size_t c = 0; c < t.columns.size(); ++c)
    if (t.columns[c] == "correct") column = c;
  if (column == t.columns.size()) return std::nullopt;
  std::size_t failed = 0, first = 0;
  for (std::size_t r = 0; r < t.rows.size(); ++r) {
    const auto* text = column < t.rows[r].size() ? std::get_if<std::string>(&t.rows[r][column]) : nullptr;
    if (!text || (*text != "NO" && *text != "no")) continue;
    if (failed++ == 0) first = r;
  }
  if (failed == 0) return std::nullopt;
  std::string row;
  for (std::size_t c = 0; c < std::min<std::size_t>(2, t.rows[first].size()); ++c)
    if (const auto* s = std::get_if<std::string>(&t.rows[first][c])) row += (row.empty() ? "" : " ") + *s;
  return std::to_string(failed) + " row" + (failed == 1 ? "" : "s") + " failed the correctness check (first: row " +
         std::to_string(first + 1) + (row.empty() ? "" : ", " + row) + ")";
}

}  // namespace mmsim::report
