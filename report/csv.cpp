#include "report/csv.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <streambuf>

namespace mmsim::report {

std::string csv_cell(std::string_view text) {
  if (text.find_first_of(",\"\n\r") == std::string_view::npos) return std::string(text);
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string csv_line(const std::vector<std::string>& cells) {
  std::string line;
  for (std::size_t i = 0; i < cells.size(); ++i) {
    if (i) line += ',';
    line += csv_cell(cells[i]);
  }
  return line;
}

namespace {

// A field's text inside a message: quoted, cut to 40 characters, on one printable line (a field may
// hold a line break), as io/quote.h words a user's text.
std::string quoted(std::string_view text) {
  std::string out;
  for (const char c : text.substr(0, 40)) {
    const auto u = static_cast<unsigned char>(c);
    out += (c == '\n' || c == '\r' || c == '\t') ? ' ' : (u < 0x20 || u == 0x7f) ? '?' : c;
  }
  return "'" + out + (text.size() > 40 ? "..." : "") + "'";
}

std::string message(const std::string& name, std::uint64_t line, const std::string& why) {
  return line == 0 ? name + ": " + why : name + ", line " + std::to_string(line) + ": " + why;
}

// Where a record ended: at a line break, at the end of the input, or not at all (why says why).
enum class End : std::uint8_t { LineBreak, Input, Malformed };

// One record from `src` (get() and peek() give a character or -1 at the end), RFC 4180 with CRLF
// line ends: the one parser behind split_csv_record and CsvReader. Counts the line breaks inside
// quoted fields in `inner_lines`; stops after `max_chars` characters with why set.
template <class Source>
End parse_record(Source& src, std::vector<std::string>& fields, std::size_t max_chars, std::string& why,
                 std::uint64_t& inner_lines, bool& too_long) {
  fields.assign(1, std::string());
  bool in_quotes = false, closed = false;
  std::size_t chars = 0;
  const auto field_number = [&] { return std::to_string(fields.size()); };
  for (;;) {
    const int c = src.get();
    if (c < 0) {
      if (!in_quotes) return End::Input;
      why = "field " + field_number() + ": its opening double quote is never closed";
      return End::Malformed;
    }
    // The line break that ends the record (LF or CRLF) is not one of its characters.
    if (!in_quotes && (c == '\n' || (c == '\r' && src.peek() == '\n'))) {
      if (c == '\r') src.get();
      return End::LineBreak;
    }
    if (++chars > max_chars) {
      why = "longer than " + std::to_string(max_chars) + " characters";
      too_long = true;
      return End::Malformed;
    }
    std::string& field = fields.back();
    if (in_quotes) {
      if (c != '"') {
        inner_lines += c == '\n';
        field += static_cast<char>(c);
      } else if (src.peek() == '"') {
        src.get();
        ++chars;
        field += '"';
      } else {
        in_quotes = false;
        closed = true;
      }
      continue;
    }
    if (c == ',') {
      fields.emplace_back();
      closed = false;
    } else if (closed) {
      why = "field " + field_number() + ": text after its closing double quote";
      return End::Malformed;
    } else if (c == '"') {
      if (!field.empty()) {
        why = "field " + field_number() + ": a double quote inside a field that does not begin with one";
        return End::Malformed;
      }
      in_quotes = true;
    } else {
      field += static_cast<char>(c);
    }
  }
}

struct ViewSource {
  std::string_view text;
  std::size_t at = 0;
  int get() { return at < text.size() ? static_cast<unsigned char>(text[at++]) : -1; }
  int peek() const { return at < text.size() ? static_cast<unsigned char>(text[at]) : -1; }
};

struct StreamSource {
  std::streambuf* buf;
  int get() {
    const auto c = buf->sbumpc();
    return c == std::char_traits<char>::eof() ? -1 : static_cast<unsigned char>(c);
  }
  int peek() {
    const auto c = buf->sgetc();
    return c == std::char_traits<char>::eof() ? -1 : static_cast<unsigned char>(c);
  }
};

}  // namespace

CsvError::CsvError(std::string name_, std::uint64_t line_, std::string why_, std::string excerpt_)
    : std::invalid_argument(message(name_, line_, why_)),
      name(std::move(name_)),
      line(line_),
      why(std::move(why_)),
      excerpt(std::move(excerpt_)) {}

std::optional<std::vector<std::string>> split_csv_record(std::string_view record, std::string* why) {
  ViewSource src{record};
  std::vector<std::string> fields;
  std::string reason;
  std::uint64_t inner = 0;
  bool too_long = false;
  const End end = parse_record(src, fields, record.size() + 1, reason, inner, too_long);
  if (end == End::LineBreak) reason = "a line break outside double quotes ends the record early";
  if (end == End::Input) return fields;
  if (why) *why = reason;
  return std::nullopt;
}

CsvReader::CsvReader(std::istream& in, std::string name, CsvLimits limits)
    : buf_(in.rdbuf()), name_(std::move(name)), limits_(limits) {}

bool CsvReader::next(CsvRecord& record) {
  StreamSource src{buf_};
  if (src.peek() < 0) return false;
  record.line = ++line_;
  std::string why;
  std::uint64_t inner = 0;
  bool too_long = false;
  const End end = parse_record(src, record.fields, limits_.max_record_chars, why, inner, too_long);
  line_ += inner;
  if (end == End::Malformed) {
    std::string excerpt;
    if (too_long) excerpt = csv_line(record.fields).substr(0, 80);
    throw CsvError(name_, record.line, why, excerpt);
  }
  return true;
}

CsvTable::CsvTable(std::istream& in, std::string name, CsvLimits limits) {
  CsvReader reader(in, name, limits);
  CsvRecord record;
  auto header = std::make_shared<Header>();
  header->name = std::move(name);
  while (reader.next(record))
    if (!record.blank()) break;
  if (record.fields.empty() || record.blank()) throw CsvError(header->name, 0, "empty: no header line");
  header->columns = record.fields;
  for (std::size_t i = 0; i < header->columns.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (header->columns[i] == header->columns[j])
        throw CsvError(header->name, record.line, "the column " + quoted(header->columns[i]) + " is named twice");
  header_ = header;
  while (reader.next(record)) {
    if (record.blank()) continue;
    if (record.fields.size() != header_->columns.size())
      throw CsvError(
          header_->name, record.line,
          std::to_string(record.fields.size()) + " fields, the header has " + std::to_string(header_->columns.size()));
    if (rows_.size() == limits.max_rows)
      throw CsvError(header_->name, record.line, "more than " + std::to_string(limits.max_rows) + " rows");
    rows_.push_back(Row(header_, std::move(record.fields), record.line));
  }
}

bool CsvTable::has(std::string_view column) const {
  return std::find(columns().begin(), columns().end(), column) != columns().end();
}

void CsvTable::require(const std::vector<std::string>& wanted) const {
  for (const auto& c : wanted)
    if (!has(c)) throw CsvError(name(), 0, "no column " + quoted(c));
}

const std::string& CsvTable::Row::operator[](std::string_view column) const {
  const auto& columns = header_->columns;
  const auto it = std::find(columns.begin(), columns.end(), column);
  if (it == columns.end()) throw CsvError(header_->name, 0, "no column " + quoted(column));
  return fields_[static_cast<std::size_t>(it - columns.begin())];
}

double CsvTable::Row::number(std::string_view column) const {
  const std::string& text = (*this)[column];
  char* end = nullptr;
  // strtod would skip leading blanks: a field is a number only when it is one from its first character.
  const bool starts = !text.empty() && !std::isspace(static_cast<unsigned char>(text[0]));
  const double v = starts ? std::strtod(text.c_str(), &end) : NAN;
  if (!starts || end != text.c_str() + text.size() || !std::isfinite(v))
    throw error(std::string(column) + " must be a number (got " + quoted(text) + ")");
  return v;
}

std::int64_t CsvTable::Row::integer(std::string_view column) const {
  const std::string& text = (*this)[column];
  std::int64_t v = 0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc{} || ptr != text.data() + text.size())
    throw error(std::string(column) + " must be a whole number (got " + quoted(text) + ")");
  return v;
}

CsvError CsvTable::Row::error(const std::string& why) const { return CsvError(header_->name, line_, why); }

}  // namespace mmsim::report
