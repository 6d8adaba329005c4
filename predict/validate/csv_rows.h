// A measured CSV read by column name, for the family readers: every row as named fields, and
// errors that name the file and line (std::invalid_argument, which validate reports with status 2).
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace mmsim::predict::validate {

struct CsvRow {
  std::string file;
  int line = 0;
  std::map<std::string, std::string> fields;

  const std::string& text(const std::string& column) const;    ///< throws when absent
  double number(const std::string& column) const;              ///< a finite number, else throws
  std::uint64_t integer(const std::string& column) const;      ///< a non-negative integer, else throws
  std::invalid_argument error(const std::string& what) const;  ///< "FILE, line N: what"
};

/// The fields of one CSV line: commas inside double quotes stay in their field, quotes and '\r' go.
std::vector<std::string> split_csv_line(const std::string& line);

/// The rows of `csv`, given as the value of `option` (for the message when the file is refused);
/// throws when it cannot be read, is empty, lacks one of `required` columns or has a row shorter
/// than its header.
std::vector<CsvRow> read_csv_rows(const std::filesystem::path& csv, const std::vector<std::string>& required,
                                  const std::string& option = "--measured");
/// The column names of `csv`'s header (read as read_csv_rows reads it).
std::vector<std::string> read_csv_header(const std::filesystem::path& csv, const std::string& option = "--measured");

}  // namespace mmsim::predict::validate
