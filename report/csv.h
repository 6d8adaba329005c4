// CSV in and out, the one place mmsim quotes and splits it. Every CSV mmsim writes goes through
// csv_line (a cell is quoted only when it must be, so that a plain table reads as it is); every CSV
// it reads goes through CsvReader, record by record, or CsvTable, whole and by column name. Reading is
// RFC 4180 with two allowances: a line may end in "\r\n", and a final line may lack its line break.
// Bounded: a record longer than CsvLimits::max_record_chars, or a table with more rows than
// max_rows, is refused before it costs memory (the file's size is bounded by whoever opens it).
#pragma once

#include <cstdint>
#include <istream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace mmsim::report {

/// A cell as mmsim writes it: as it is, unless it holds a comma, a double quote or a line break
/// ("\n" or "\r"); then between double quotes, each of its own double quotes doubled.
std::string csv_cell(std::string_view text);
/// The cells joined by commas, each through csv_cell; no line break at the end.
std::string csv_line(const std::vector<std::string>& cells);

/// A malformed CSV, or a value in it that its reader refuses. what() is one line,
/// "NAME, line N: why" ("NAME: why" for the whole file, line 0).
struct CsvError : std::invalid_argument {
  CsvError(std::string name, std::uint64_t line, std::string why, std::string excerpt = {});
  std::string name;     ///< how messages call the input (a path, "--ncu-csv FILE", ...)
  std::uint64_t line;   ///< the line the record begins on; 0 for the whole file
  std::string why;      ///< the reason alone, for a reader that words its own messages
  std::string excerpt;  ///< the beginning of a record refused for its length, for the message
};

struct CsvLimits {
  std::size_t max_record_chars = std::size_t{1} << 20;
  std::uint64_t max_rows = 1'000'000;  ///< CsvTable only: records after the header
};

/// The fields of one record given whole (its line break, if any, already cut), or nullopt when it
/// is not one: a quote left open, text after a closing quote, a quote inside an unquoted field, or
/// a second record after a line break. `why`, when given, receives the reason.
std::optional<std::vector<std::string>> split_csv_record(std::string_view record, std::string* why = nullptr);

/// One record read from a stream: its fields and the line it begins on (a quoted field may hold
/// line breaks, so a record may span lines).
struct CsvRecord {
  std::vector<std::string> fields;
  std::uint64_t line = 0;
  /// An empty line: one empty field.
  bool blank() const { return fields.size() == 1 && fields[0].empty(); }
};

/// Reads records one at a time, so that a large file (a trace) is never held whole.
class CsvReader {
 public:
  CsvReader(std::istream& in, std::string name, CsvLimits limits = {});
  /// The next record; false at the end of the input. Throws CsvError naming the record's line when
  /// it is malformed or too long.
  bool next(CsvRecord& record);
  const std::string& name() const { return name_; }

 private:
  std::streambuf* buf_;
  std::string name_;
  CsvLimits limits_;
  std::uint64_t line_ = 0;
};

/// A whole CSV whose first record names its columns: blank lines are skipped, and every other record
/// has exactly as many fields as the header. Fields are read by column name.
class CsvTable {
 public:
  struct Header {
    std::string name;
    std::vector<std::string> columns;
  };

  class Row {
   public:
    /// The field in `column`; throws CsvError when the table has no such column.
    const std::string& operator[](std::string_view column) const;
    /// The field as a finite number (the whole field, as strtod reads it); throws CsvError
    /// "NAME, line N: COLUMN must be a number (got 'x')" otherwise.
    double number(std::string_view column) const;
    /// The field as an integer (digits, maybe a leading '-', within 64 bits); throws CsvError otherwise.
    std::int64_t integer(std::string_view column) const;
    const std::vector<std::string>& fields() const { return fields_; }
    std::uint64_t line() const { return line_; }
    /// The error a reader throws about this row: "NAME, line N: why".
    CsvError error(const std::string& why) const;

   private:
    friend class CsvTable;
    Row(std::shared_ptr<const Header> header, std::vector<std::string> fields, std::uint64_t line)
        : header_(std::move(header)), fields_(std::move(fields)), line_(line) {}
    std::shared_ptr<const Header> header_;
    std::vector<std::string> fields_;
    std::uint64_t line_;
  };

  /// Reads the header and every record. Throws CsvError on an empty input, a malformed record, a
  /// record whose field count differs from the header's, a repeated column name, or too many rows.
  CsvTable(std::istream& in, std::string name, CsvLimits limits = {});

  const std::string& name() const { return header_->name; }
  const std::vector<std::string>& columns() const { return header_->columns; }
  const std::vector<Row>& rows() const { return rows_; }
  bool has(std::string_view column) const;
  /// Throws CsvError "NAME: no column 'x'" for the first of `columns` the header lacks.
  void require(const std::vector<std::string>& columns) const;

 private:
  std::shared_ptr<const Header> header_;
  std::vector<Row> rows_;
};

}  // namespace mmsim::report
