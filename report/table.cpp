#include "report/table.h"

#include <cctype>
#include <cstdio>
#include <set>
#include <sstream>
#include <stdexcept>

#include "report/build_info.h"
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

std::string column_key(std::string_view label) {
  if (label.size() == 1 && std::isalpha(static_cast<unsigned char>(label[0]))) return std::string(label);
  std::string out;
  bool gap = false;  // a separator is pending: written as one '_' before the next word
  const auto word = [&](std::string_view w) {
    if (gap && !out.empty()) out += '_';
    gap = false;
    out += w;
  };
  for (std::size_t i = 0; i < label.size(); ++i) {
    const auto c = static_cast<unsigned char>(label[i]);
    const char next = i + 1 < label.size() ? label[i + 1] : '\0';
    if (std::isalnum(c)) {
      const char lower = static_cast<char>(std::tolower(c));
      word(std::string_view(&lower, 1));
    } else if (c == '.' || c == '|') {
      // dropped: "s.e." is se, "|difference|" is difference
    } else if (c == '%') {
      gap = true, word("percent"), gap = true;
    } else if (c == '/') {
      gap = true, word("per"), gap = true;
    } else if (c == '+') {
      gap = true, word("plus"), gap = true;
    } else if (c == '^') {
      gap = true, word("pow"), gap = true;
    } else if (c == '\'') {
      gap = true, word("prime"), gap = true;
    } else if ((c == '>' || c == '<') && next == '=') {
      gap = true, word(c == '>' ? "ge" : "le"), gap = true;
      ++i;
    } else {
      gap = true;
    }
  }
  return out;
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

std::vector<std::string> csv_columns(const Table& t) {
  std::vector<std::string> names;
  for (const auto& c : t.columns) names.push_back(column_key(c));
  for (const auto& p : t.parameters) names.push_back(p.first);
  names.emplace_back(kVersionColumn);
  names.emplace_back(kCommitColumn);
  std::set<std::string> seen;
  for (const auto& n : names)
    if (n.empty() || !seen.insert(n).second)
      throw std::logic_error("table " + t.title + ": column name '" + n + "' is empty or repeated");
  return names;
}

std::string with_build_columns(const std::string& csv) {
  std::istringstream in(csv);
  CsvReader reader(in, "CSV");
  const BuildInfo build = build_info();
  std::string out;
  CsvRecord record;
  for (bool header = true; reader.next(record); header = false) {
    if (record.blank()) continue;
    record.fields.emplace_back(header ? kVersionColumn : build.version);
    record.fields.emplace_back(header ? kCommitColumn : build.commit);
    out += csv_line(record.fields) + "\n";
  }
  return out;
}

std::string to_csv(const Table& t) {
  std::string out = csv_line(csv_columns(t)) + "\n";
  const BuildInfo build = build_info();
  std::vector<std::string> tail;
  for (const auto& p : t.parameters) tail.push_back(text(p.second));
  tail.emplace_back(build.version);
  tail.emplace_back(build.commit);
  for (const auto& r : t.rows) {
    std::vector<std::string> cells;
    for (const auto& c : r) cells.push_back(text(c));
    // A row shorter than the header (a driver's bug) would shift the parameters into its columns.
    cells.resize(t.columns.size());
    cells.insert(cells.end(), tail.begin(), tail.end());
    out += csv_line(cells) + "\n";
  }
  return out;
}

namespace {
Json json_of(const Cell& c) {
  if (std::holds_alternative<std::monostate>(c)) return Json(nullptr);
  if (const auto* v = std::get_if<long long>(&c)) return Json(*v);
  if (const auto* d = std::get_if<double>(&c)) return Json(*d);
  return Json(std::get<std::string>(c));
}
}  // namespace

Json to_json(const Table& t) {
  const std::vector<std::string> names = csv_columns(t);
  Json j = Json::object();
  j.set("title", t.title);
  Json header = Json::array();
  for (const auto& h : t.header) header.push(h);
  j.set("configuration", std::move(header));
  Json parameters = Json::object();
  for (const auto& p : t.parameters) parameters.set(p.first, json_of(p.second));
  j.set("parameters", std::move(parameters));
  const BuildInfo build = build_info();
  j.set("version", build.version);
  j.set("commit", build.commit);
  Json columns = Json::array();
  for (std::size_t i = 0; i < t.columns.size(); ++i) columns.push(names[i]);
  j.set("columns", std::move(columns));
  Json rows = Json::array();
  for (const auto& r : t.rows) {
    Json row = Json::object();
    for (std::size_t i = 0; i < r.size() && i < t.columns.size(); ++i) row.set(names[i], json_of(r[i]));
    rows.push(std::move(row));
  }
  j.set("rows", std::move(rows));
  Json notes = Json::array();
  for (const auto& n : t.notes) notes.push(n);
  j.set("notes", std::move(notes));
  return j;
}

Json to_records(const Table& t) {
  const std::vector<std::string> names = csv_columns(t);
  const BuildInfo build = build_info();
  Json rows = Json::array();
  for (const auto& r : t.rows) {
    Json row = Json::object();
    for (std::size_t i = 0; i < t.columns.size(); ++i) row.set(names[i], i < r.size() ? json_of(r[i]) : Json(nullptr));
    for (const auto& p : t.parameters) row.set(p.first, json_of(p.second));
    row.set(kVersionColumn, build.version);
    row.set(kCommitColumn, build.commit);
    rows.push(std::move(row));
  }
  return rows;
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
